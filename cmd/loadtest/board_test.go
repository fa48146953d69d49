package main

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// answers are board answers as the bot sends them: a 3×3 game and a 5×5 one.
var answers = []string{"testdata/answer3x3.json", "testdata/answer5x5.json"}

// readTestAnswer decodes the answer in file name.
func readTestAnswer(tb testing.TB, name string) response {
	tb.Helper()
	body, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	var r response
	if err := decodeAnswer(body, &r); err != nil {
		tb.Fatal(err)
	}
	return r
}

// treeButtons are the buttons of components read the plain way, as a tree
// decoded by encoding/json/v2's rules: what readComponents must agree with.
func treeButtons(components []byte) ([]button, error) {
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
		return nil, err
	}
	var buttons []button
	var walk func([]component)
	walk = func(cs []component) {
		for _, c := range cs {
			walk(c.Components)
			if c.Type == buttonType && c.URL == "" {
				buttons = append(buttons, button{label: c.Label, customID: c.CustomID, disabled: c.Disabled})
			}
		}
	}
	walk(top)
	return buttons, nil
}

func FuzzReadComponents(f *testing.F) {
	for _, name := range answers {
		f.Add([]byte(readTestAnswer(f, name).Data.Components))
	}
	f.Add([]byte(`null`))
	f.Add([]byte(`[{"type":1,"components":[{"type":2,"label":null,"custom_id":"ttt:a:7:1","disabled":null}]}]`))
	f.Add([]byte(`[{"type":2,"url":"https://example.com","custom_id":"ttt:m:1:1:0"}]`))
	f.Fuzz(func(t *testing.T, components []byte) {
		var got []button
		err := readComponents(jsontext.NewDecoder(bytes.NewReader(components), jsontext.AllowDuplicateNames(true)), &got)
		want, werr := treeButtons(components)
		if werr != nil {
			return // readComponents may accept more: duplicate names, say
		}
		if err != nil {
			t.Fatalf("readComponents: %v; the tree read it", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("readComponents read\n%+v\nthe tree\n%+v", got, want)
		}
	})
}

// parseBoard reads a board's cells, marks and buttons.
func TestParseBoard(t *testing.T) {
	b, err := parseBoard(&response{Data: readTestAnswer(t, answers[0]).Data})
	if err != nil {
		t.Fatal(err)
	}
	if b.game != 16 || b.version != 3 || string(b.marks) != "\x00\x00\x00\x00\x00\x00\x00X\x00" ||
		!reflect.DeepEqual(b.free, []int{0, 1, 2, 3, 4, 5, 6, 8}) || b.ids[7] != "ttt:m:16:3:7" {
		t.Errorf("got game %d version %d marks %q free %v ids %v", b.game, b.version, b.marks, b.free, b.ids)
	}
}
