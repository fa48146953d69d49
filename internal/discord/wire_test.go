package discord_test

import (
	"encoding/json"
	"fmt"
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

// v2Board is a 5×5 board as a components V2 message: a container of a
// header, five rows of cells, a separator and a control row.
func v2Board() *discordgo.InteractionResponse {
	accent := 0x1E88E5
	cs := []discordgo.MessageComponent{discordgo.TextDisplay{Content: "<@30> (X) vs <@5> (O)"}}
	for r := range 5 {
		row := discordgo.ActionsRow{}
		for c := range 5 {
			row.Components = append(row.Components, discordgo.Button{
				Label: "\u200b", Style: discordgo.SecondaryButton, CustomID: fmt.Sprintf("ttt:m:1:3:%d", 5*r+c)})
		}
		cs = append(cs, row)
	}
	cs = append(cs, discordgo.Separator{}, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Resign", Style: discordgo.DangerButton, CustomID: "ttt:s:1"}}})
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
		Flags: discordgo.MessageFlagsIsComponentsV2, Components: []discordgo.MessageComponent{&discordgo.Container{AccentColor: &accent, Components: cs}},
	}}
}

// A components V2 board encodes as discordgo encodes it, but for content,
// null, and embeds, [], which a V2 message must have cleared.
func TestEncodeResponseV2(t *testing.T) {
	r := v2Board()
	got, err := discord.EncodeResponse(r)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var g, w map[string]any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(want, &w)
	gd, wd := g["data"].(map[string]any), w["data"].(map[string]any)
	if gd["content"] != nil || fmt.Sprint(gd["embeds"]) != "[]" {
		t.Errorf("got content %v, embeds %v; want null and []", gd["content"], gd["embeds"])
	}
	delete(gd, "content")
	delete(gd, "embeds")
	delete(wd, "content")
	delete(wd, "embeds")
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("encoded otherwise than discordgo (-discordgo +got):\n%s", diff)
	}
}

// BenchmarkEncodeResponseV2 encodes a 5×5 V2 board's update, with
// encodeResponse and with discordgo's methods.
func BenchmarkEncodeResponseV2(b *testing.B) {
	r := v2Board()
	for _, enc := range []struct {
		name string
		f    func(any) ([]byte, error)
	}{{"encodeResponse", func(any) ([]byte, error) { return discord.EncodeResponse(r) }}, {"discordgo", json.Marshal}} {
		b.Run(enc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := enc.f(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
