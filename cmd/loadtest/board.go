package main

import (
	"encoding/json"
	"errors"
	"fmt"

	json127 "github.com/go-json-experiment/json/v1"

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

// component is a message component as parseBoard reads it.
type component struct {
	Type       int         `json:"type"`
	Label      string      `json:"label"`
	CustomID   string      `json:"custom_id"`
	Disabled   bool        `json:"disabled"`
	URL        string      `json:"url"` // a link button's, which has no custom_id
	Components []component `json:"components"`
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
	var top []component
	if err := json127.Unmarshal(b.components, &top); err != nil {
		return b, fmt.Errorf("components: %w", err)
	}
	// A board is a components V2 container: its buttons are in the rows
	// it holds. Other answers have their rows at the top.
	var buttons []component
	var collect func([]component)
	collect = func(cs []component) {
		for _, c := range cs {
			if c.Type == buttonType && c.URL == "" {
				buttons = append(buttons, c)
			}
			collect(c.Components)
		}
	}
	collect(top)
	for _, btn := range buttons {
		c, err := commands.ParseCustomID(btn.CustomID)
		if err != nil {
			return b, err
		}
		b.game = c.GameID
		if c.Version > 0 {
			b.version = c.Version
		}
		switch c.Action {
		case commands.ActAccept:
			b.accept = btn.CustomID
		case commands.ActDecline:
			b.decline = btn.CustomID
		case commands.ActRematch:
			b.rematch = btn.CustomID
		case commands.ActMove:
			if c.Cell != len(b.marks) {
				return b, fmt.Errorf("custom_id %q out of order", btn.CustomID)
			}
			var m byte
			if btn.Label == "X" || btn.Label == "O" {
				m = btn.Label[0]
			}
			b.marks = append(b.marks, m)
			b.ids = append(b.ids, btn.CustomID)
			if !btn.Disabled {
				b.free = append(b.free, c.Cell)
			}
		}
	}
	return b, nil
}
