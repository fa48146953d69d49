package main

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/tttbot/tttbot/internal/commands"
)

// treeBoard is parseBoard done the plain way, on a tree of components
// decoded by encoding/json/v2's rules: what parseBoard's token reader must
// agree with.
func treeBoard(components []byte) (board, error) {
	type component struct {
		Type       int         `json:"type"`
		Label      string      `json:"label"`
		CustomID   string      `json:"custom_id"`
		Disabled   bool        `json:"disabled"`
		URL        string      `json:"url"`
		Components []component `json:"components"`
	}
	var top []component
	if err := jsonv2.Unmarshal(components, &top); err != nil {
		return board{}, err
	}
	var b board
	var walk func([]component) error
	walk = func(cs []component) error {
		for _, c := range cs {
			if err := walk(c.Components); err != nil {
				return err
			}
			if c.Type != buttonType || c.URL != "" {
				continue
			}
			id, err := commands.ParseCustomID(c.CustomID)
			if err != nil {
				return err
			}
			b.game = id.GameID
			if id.Version > 0 {
				b.version = id.Version
			}
			switch id.Action {
			case commands.ActAccept:
				b.accept = c.CustomID
			case commands.ActDecline:
				b.decline = c.CustomID
			case commands.ActRematch:
				b.rematch = c.CustomID
			case commands.ActMove:
				if id.Cell != len(b.marks) {
					return errors.New("out of order")
				}
				var m byte
				if c.Label == "X" || c.Label == "O" {
					m = c.Label[0]
				}
				b.marks = append(b.marks, m)
				b.ids = append(b.ids, c.CustomID)
				if !c.Disabled {
					b.free = append(b.free, id.Cell)
				}
			}
		}
		return nil
	}
	return b, walk(top)
}

func FuzzParseBoard(f *testing.F) {
	for _, name := range answers {
		body, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		var r response
		if err := decodeAnswer(body, &r); err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(r.Data.Components))
	}
	f.Add([]byte(`null`))
	f.Add([]byte(`[{"type":1,"components":[{"type":2,"label":null,"custom_id":"ttt:a:7:1","disabled":null}]}]`))
	f.Add([]byte(`[{"type":2,"url":"https://example.com","custom_id":"ttt:m:1:1:0"}]`))
	f.Fuzz(func(t *testing.T, components []byte) {
		got, err := parseBoard(&response{Data: &responseData{Components: json.RawMessage(components)}})
		want, werr := treeBoard(components)
		if werr != nil {
			return // parseBoard may accept more: duplicate names, say
		}
		if err != nil {
			t.Fatalf("parseBoard: %v; the tree read it", err)
		}
		got.content, got.components = "", nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("parseBoard read\n%+v\nthe tree\n%+v", got, want)
		}
	})
}
