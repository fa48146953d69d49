package discord_test

import (
	"encoding/json"
	"testing"

	json127 "github.com/go-json-experiment/json/v1"
	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot/internal/discord"
)

// FuzzDecodeInteraction holds json127 to the standard library: the same
// body must decode to the same interaction, or fail with both.
func FuzzDecodeInteraction(f *testing.F) {
	for _, s := range []string{
		`{"id":"1","application_id":"5","type":1,"token":"tok","version":1}`,
		`{"id":"2","type":2,"guild_id":"10","member":{"user":{"id":"30","username":"ann"},"permissions":"8","joined_at":"2024-01-02T03:04:05Z"},` +
			`"data":{"id":"3","name":"ttt","type":1,"options":[{"name":"challenge","type":1,"options":[{"name":"size","type":4,"value":5},` +
			`{"name":"opponent","type":6,"value":"40"}]}],"resolved":{"users":{"40":{"id":"40","username":"bob"}}}}}`,
		`{"id":"4","type":3,"user":{"id":"30","username":"ann"},"data":{"custom_id":"ttt:m:1:2:4","component_type":2},` +
			`"message":{"id":"900","timestamp":"2025-01-02T03:04:05.000000+00:00","components":[{"type":1,"id":1,"components":[` +
			`{"type":2,"style":2,"label":"X","custom_id":"ttt:m:1:2:0","disabled":true},{"type":2,"style":5,"url":"https://x","emoji":{"name":"📖"}}]},` +
			`{"type":10,"content":"text"}]}}`,
		`{"type":5,"data":{"custom_id":"m","components":[{"type":1,"components":[{"type":4,"custom_id":"a","value":"b"}]}]}}`,
		`{"type":3,"data":null,"message":null}`,
		`{"TYPE":3,"id":"1","id":"2","data":{"custom_id":"\u00e9\ud800"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		want, wantErr := discord.DecodeWith(json.Unmarshal, body)
		got, err := discord.DecodeInteraction(body)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("got error %v, want %v", err, wantErr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("json127 decodes otherwise than encoding/json (-want +got):\n%s", diff)
		}
	})
}

// BenchmarkDecodeInteraction decodes a click on a 3×3 board, as Discord
// sends it, with each decoder.
func BenchmarkDecodeInteraction(b *testing.B) {
	for _, dec := range []struct {
		name      string
		unmarshal func([]byte, any) error
	}{{"encoding-json", json.Unmarshal}, {"json127", json127.Unmarshal}} {
		b.Run(dec.name, func(b *testing.B) {
			body := []byte(click)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := discord.DecodeWith(dec.unmarshal, body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
