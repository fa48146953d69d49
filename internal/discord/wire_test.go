package discord_test

import (
	"encoding/json"
	"maps"
	"testing"

	"github.com/bwmarrin/discordgo"
	json127 "github.com/go-json-experiment/json/v1"
	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot/internal/discord"
)

// FuzzDecodeInteraction holds json127 to the standard library: the same
// body must decode to the same interaction, or fail with both.
func FuzzDecodeInteraction(f *testing.F) {
	// The endpoint tests' bodies, and shapes they lack: a component that is
	// not an action row, a components V2 board, a modal, null data, keys in another case or twice,
	// null options at the top and inside a subcommand, an integer option
	// with a fraction, a user option with null resolved data.
	for _, s := range []string{
		ping, command, challenge, click,
		`{"id":"8","type":2,"data":{"name":"ttt","options":[null]}}`,
		`{"id":"8","type":2,"data":{"name":"ttt","options":[{"name":"challenge","type":1,"options":[null,{"name":"size","type":4,"value":3.7}]}]}}`,
		`{"id":"8","type":2,"data":{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"40"}]}],"resolved":{"users":{"40":null}}}}`,
		`{"id":"8","type":2,"data":{"name":"ttt","options":[{"name":"stats","type":1,"options":[{"name":"user","type":6,"value":{"id":"1"},"options":null}]}],"resolved":null}}`,
		`{"id":"7","type":3,"data":{"custom_id":"x","component_type":2},"message":{"id":"900","components":[{"type":10,"content":"text"}]}}`,
		`{"id":"7","type":3,"data":{"custom_id":"x","component_type":2},"message":{"id":"900","flags":32768,"components":[{"type":17,"accent_color":1,"components":[{"type":10,"content":"t"},{"type":1,"id":4,"components":[{"type":2,"style":2,"label":"x","custom_id":"ttt:m:1:2:0"}]},{"type":14}]}]}}`,
		`{"type":5,"data":{"custom_id":"m","components":[{"type":1,"components":[{"type":4,"custom_id":"a","value":"b"}]}]}}`,
		`{"type":3,"data":null,"message":null}`,
		`{"TYPE":3,"id":"1","id":"2","data":{"custom_id":"\u00e9\ud800"}}`,
		`{"id":"9","type":2,"context":2,"app_permissions":"114688","authorizing_integration_owners":{"1":"10"},"data":{"name":"ttt"}}`,
		`{"id":"9","type":2,"context":1,"authorizing_integration_owners":{"0":0,"1":"10"},"data":{"name":"ttt"}}`,
		`{"id":"9","type":2,"context":-1,"authorizing_integration_owners":{"x":"10"},"data":{"name":"ttt"}}`,
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

// TestDecodeInstallFields: where an interaction comes from — its context,
// the installs that authorised it, the app's permissions — survives the
// endpoint's decoder.
func TestDecodeInstallFields(t *testing.T) {
	body := `{"id":"9","type":2,"guild_id":"2","context":0,"app_permissions":"114688",` +
		`"authorizing_integration_owners":{"1":"10"},"data":{"name":"ttt"}}`
	i, err := discord.DecodeInteraction([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: "10"}
	if i.Context != discordgo.InteractionContextGuild || i.AppPermissions != 114688 || !maps.Equal(i.AuthorizingIntegrationOwners, want) {
		t.Errorf("got context %d, permissions %d, owners %v; want 0, 114688, %v", i.Context, i.AppPermissions, i.AuthorizingIntegrationOwners, want)
	}
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
