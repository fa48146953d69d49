package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/tttbot/tttbot/internal/commands"
)

// board is what a message shows: its buttons by custom_id.
type board struct {
	game                     int64
	version                  int
	marks                    []byte   // 'X', 'O' or 0 per cell; empty on a challenge
	ids                      []string // each cell's custom_id
	free                     []int    // the cells that can be clicked
	accept, decline, rematch string
	content                  string
	components               json.RawMessage
}

// open reports whether b shows an open game: a challenge to answer or a
// cell to play.
func (b *board) open() bool { return b.accept != "" || len(b.free) > 0 }

func (b *board) count() int {
	n := 0
	for _, m := range b.marks {
		n += btoi(m != 0)
	}
	return n
}

func (b *board) firstMark() int {
	for i, m := range b.marks {
		if m != 0 {
			return i
		}
	}
	return -1
}

// diff lists the cells marked in b but not in a.
func diff(a, b []byte) []int {
	var out []int
	for i := range b {
		if b[i] != 0 && a[i] == 0 {
			out = append(out, i)
		}
	}
	return out
}

// button is a button as parseBoard reads it.
type button struct {
	label, customID, url string // url: a link button's, which has no custom_id
	disabled             bool
}

const buttonType = 2

// parseBoard reads the buttons of an answer: a board's cells, a challenge's
// Accept and Decline, a finished game's Rematch. Link buttons, to the web
// pages, click nothing.
func parseBoard(r *response) (board, error) {
	var b board
	if r == nil || r.Data == nil {
		return b, errors.New("no data")
	}
	b.content, b.components = r.Data.Content, r.Data.Components
	if len(b.components) == 0 {
		b.components = json.RawMessage("[]")
	}
	// A board is a components V2 container: its buttons are in the rows
	// it holds. Other answers have their rows at the top.
	var buttons []button
	d := jsontext.NewDecoder(bytes.NewReader(b.components), jsontext.AllowDuplicateNames(true))
	if err := readComponents(d, &buttons); err != nil {
		return b, fmt.Errorf("components: %w", err)
	}
	for _, btn := range buttons {
		c, err := commands.ParseCustomID(btn.customID)
		if err != nil {
			return b, err
		}
		b.game = c.GameID
		if c.Version > 0 {
			b.version = c.Version
		}
		switch c.Action {
		case commands.ActAccept:
			b.accept = btn.customID
		case commands.ActDecline:
			b.decline = btn.customID
		case commands.ActRematch:
			b.rematch = btn.customID
		case commands.ActMove:
			if c.Cell != len(b.marks) {
				return b, fmt.Errorf("custom_id %q out of order", btn.customID)
			}
			var m byte
			if btn.label == "X" || btn.label == "O" {
				m = btn.label[0]
			}
			b.marks = append(b.marks, m)
			b.ids = append(b.ids, btn.customID)
			if !btn.disabled {
				b.free = append(b.free, c.Cell)
			}
		}
	}
	return b, nil
}

// readComponents reads an array of components (or null), appending the
// buttons among them and the components they hold, in order. It reads
// tokens rather than unmarshalling into a tree: the driver shares the
// bot's cores, and a board's tree cost it most of its time per answer.
func readComponents(d *jsontext.Decoder, buttons *[]button) error {
	t, err := d.ReadToken()
	switch {
	case err != nil:
		return err
	case t.Kind() == 'n':
		return nil
	case t.Kind() != '[':
		return fmt.Errorf("got %v, want an array of components", t.Kind())
	}
	for d.PeekKind() == '{' {
		if err := readComponent(d, buttons); err != nil {
			return err
		}
	}
	t, err = d.ReadToken()
	if err == nil && t.Kind() != ']' {
		err = errors.New("a component is not an object")
	}
	return err
}

// readComponent reads one component object. A button holds no components,
// so that appending it once its object is read keeps the buttons in order.
func readComponent(d *jsontext.Decoder, buttons *[]button) error {
	if _, err := d.ReadToken(); err != nil { // '{'
		return err
	}
	var typ int64
	var btn button
	for d.PeekKind() == '"' {
		name, err := d.ReadToken()
		if err != nil {
			return err
		}
		switch name.String() {
		case "components":
			err = readComponents(d, buttons)
		case "type":
			typ, err = readInt(d)
		case "label":
			btn.label, err = readString(d)
		case "custom_id":
			btn.customID, err = readString(d)
		case "url":
			btn.url, err = readString(d)
		case "disabled":
			btn.disabled, err = readBool(d)
		default:
			err = d.SkipValue()
		}
		if err != nil {
			return err
		}
	}
	if _, err := d.ReadToken(); err != nil { // '}'
		return err
	}
	if typ == buttonType && btn.url == "" {
		*buttons = append(*buttons, btn)
	}
	return nil
}

// readString, readBool and readInt read a value of their type, or null
// for its zero value.
func readString(d *jsontext.Decoder) (string, error) {
	t, err := d.ReadToken()
	if err != nil || t.Kind() == 'n' {
		return "", err
	}
	if t.Kind() != '"' {
		return "", fmt.Errorf("got %v, want a string", t.Kind())
	}
	return t.String(), nil
}

func readBool(d *jsontext.Decoder) (bool, error) {
	t, err := d.ReadToken()
	if err != nil || t.Kind() == 'n' {
		return false, err
	}
	if t.Kind() != 't' && t.Kind() != 'f' {
		return false, fmt.Errorf("got %v, want a boolean", t.Kind())
	}
	return t.Bool(), nil
}

func readInt(d *jsontext.Decoder) (int64, error) {
	t, err := d.ReadToken()
	if err != nil || t.Kind() == 'n' {
		return 0, err
	}
	if t.Kind() != '0' {
		return 0, fmt.Errorf("got %v, want a number", t.Kind())
	}
	return t.Int()
}
