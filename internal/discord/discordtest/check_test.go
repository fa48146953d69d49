package discordtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func row(cs ...discordgo.MessageComponent) discordgo.ActionsRow {
	return discordgo.ActionsRow{Components: cs}
}

func btn(label, id string) discordgo.Button { return discordgo.Button{Label: label, CustomID: id} }

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheckMessage(t *testing.T) {
	fiveByFive := make([]discordgo.MessageComponent, 5)
	for r := range fiveByFive {
		cells := make([]discordgo.MessageComponent, 5)
		for c := range cells {
			cells[c] = btn("\u200b", fmt.Sprintf("g:1:%d:%d", r*5+c, 7))
		}
		fiveByFive[r] = row(cells...)
	}
	tests := []struct {
		name string
		data discordgo.InteractionResponseData
		want string // a substring of the one violation; "" for none
	}{
		{"a 5×5 board", discordgo.InteractionResponseData{Content: "board", Components: fiveByFive}, ""},
		{"emoji only", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.Button{Emoji: &discordgo.ComponentEmoji{Name: "❌"}, CustomID: "x"})}}, ""},
		{"link button", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "Docs", Style: discordgo.LinkButton, URL: "https://example.com"})}}, ""},
		{"ephemeral", discordgo.InteractionResponseData{Content: "just you", Flags: discordgo.MessageFlagsEphemeral}, ""},
		{"select menu", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", Options: []discordgo.SelectMenuOption{{Label: "a", Value: "a"}}})}}, ""},
		{"six rows", discordgo.InteractionResponseData{Components: append(fiveByFive[:5:5], row(btn("x", "extra")))}, "at most 5 action rows"},
		{"six buttons", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn("1", "1"), btn("2", "2"), btn("3", "3"), btn("4", "4"), btn("5", "5"), btn("6", "6"))}}, "1 to 5 components"},
		{"empty row", discordgo.InteractionResponseData{Content: "x", Components: []discordgo.MessageComponent{row()}}, "1 to 5 components"},
		{"long custom_id", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn("x", strings.Repeat("a", 101)))}}, "100 or fewer"},
		{"no custom_id", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn("x", ""))}}, "custom_id is required"},
		{"duplicate custom_id", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn("a", "same")), row(btn("b", "same"))}}, "used twice"},
		{"no label", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn("", "x"))}}, "label or an emoji"},
		{"blank label", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn("  ", "x"))}}, "label or an emoji"},
		{"long label", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn(strings.Repeat("é", 81), "x"))}}, "80 or fewer"},
		{"long content", discordgo.InteractionResponseData{Content: strings.Repeat("x", 2001)}, "2000 or fewer"},
		{"components v2 flag", discordgo.InteractionResponseData{Content: "x", Flags: discordgo.MessageFlagsIsComponentsV2}, "components v2"},
		{"crossposted flag", discordgo.InteractionResponseData{Content: "x", Flags: discordgo.MessageFlagsCrossPosted}, "not allowed"},
		{"link with custom_id", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "x", Style: discordgo.LinkButton, URL: "https://example.com", CustomID: "x"})}}, "cannot have a custom_id"},
		{"link without url", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "x", Style: discordgo.LinkButton})}}, "needs a url"},
		{"url on a plain button", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "x", CustomID: "x", URL: "https://example.com"})}}, "only link buttons"},
		{"premium style", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "x", Style: discordgo.PremiumButton, SKUID: "1"})}}, "style must be 1 to 5"},
		{"button outside a row", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{btn("x", "x")}}, "must be action rows"},
		{"v2 component", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "x"}}}, "components v2"},
		{"select beside a button", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn("x", "x"), discordgo.SelectMenu{CustomID: "s", Options: []discordgo.SelectMenuOption{{Label: "a", Value: "a"}}})}}, "alone"},
		{"long embed title", discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{{Title: strings.Repeat("t", 257)}}}, "256 or fewer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantViolation(t, tc.data, tc.want) })
	}
}

// wantViolation fails unless CheckMessage finds in data no violation,
// when want is "", or one saying want.
func wantViolation(t *testing.T, data discordgo.InteractionResponseData, want string) {
	t.Helper()
	payload := mustJSON(t, data)
	got := CheckMessage(payload)
	switch {
	case want == "" && len(got) != 0:
		t.Errorf("got %v, want no violation in %s", got, payload)
	case want != "" && (len(got) != 1 || !strings.Contains(got[0].String(), want)):
		t.Errorf("got %v, want one violation saying %q", got, want)
	}
}

func TestCheckMessagePaths(t *testing.T) {
	payload := `{"components":[{"type":1,"components":[{"type":2,"style":1,"label":"` + strings.Repeat("x", 81) + `","custom_id":"a"}]}]}`
	got := CheckMessage([]byte(payload))
	if len(got) != 1 || got[0].Path != "components.0.components.0.label" {
		t.Fatalf("got %v, want one violation at components.0.components.0.label", got)
	}
	body := formError(got)
	leaf := body["errors"].(map[string]any)["components"].(map[string]any)["0"].(map[string]any)["components"].(map[string]any)["0"].(map[string]any)["label"].(map[string]any)
	if errs := leaf["_errors"].([]any); len(errs) != 1 {
		t.Errorf("error body: got %v, want one error under the label", body)
	}
}

func TestCheckCommands(t *testing.T) {
	opt := func(typ discordgo.ApplicationCommandOptionType, name string, required bool) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: typ, Name: name, Description: "d", Required: required}
	}
	sub := func(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: "d", Options: opts}
	}
	cmd := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
		return &discordgo.ApplicationCommand{Name: name, Description: desc, Options: opts}
	}
	choices := func(n int) *discordgo.ApplicationCommandOption {
		o := opt(discordgo.ApplicationCommandOptionString, "first", false)
		for i := range n {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: fmt.Sprint(i), Value: fmt.Sprint(i)})
		}
		return o
	}
	many := func(n int) []*discordgo.ApplicationCommandOption {
		var out []*discordgo.ApplicationCommandOption
		for i := range n {
			out = append(out, opt(discordgo.ApplicationCommandOptionString, fmt.Sprintf("o%d", i), false))
		}
		return out
	}
	tests := []struct {
		name string
		cmds []*discordgo.ApplicationCommand
		want string
	}{
		{"ttt", []*discordgo.ApplicationCommand{cmd("ttt", "Tic-tac-toe",
			sub("challenge", opt(discordgo.ApplicationCommandOptionUser, "opponent", true), choices(3)),
			sub("help"))}, ""},
		{"unicode name", []*discordgo.ApplicationCommand{cmd("jeu-ünd_2", "d")}, ""},
		{"upper case", []*discordgo.ApplicationCommand{cmd("TTT", "d")}, "lower case"},
		{"space in name", []*discordgo.ApplicationCommand{cmd("tic tac", "d")}, "1–32 letters"},
		{"long name", []*discordgo.ApplicationCommand{cmd(strings.Repeat("t", 33), "d")}, "1–32 letters"},
		{"no description", []*discordgo.ApplicationCommand{cmd("ttt", "")}, "between 1 and 100"},
		{"long description", []*discordgo.ApplicationCommand{cmd("ttt", strings.Repeat("d", 101))}, "between 1 and 100"},
		{"26 options", []*discordgo.ApplicationCommand{cmd("ttt", "d", many(26)...)}, "at most 25 options"},
		{"26 choices", []*discordgo.ApplicationCommand{cmd("ttt", "d", choices(26))}, "at most 25 choices"},
		{"optional before required", []*discordgo.ApplicationCommand{cmd("ttt", "d",
			opt(discordgo.ApplicationCommandOptionString, "a", false), opt(discordgo.ApplicationCommandOptionUser, "b", true))}, "before optional"},
		{"mixed subcommands", []*discordgo.ApplicationCommand{cmd("ttt", "d", sub("help"), opt(discordgo.ApplicationCommandOptionString, "a", false))}, "mixed"},
		{"subcommand in subcommand", []*discordgo.ApplicationCommand{cmd("ttt", "d", sub("a", sub("b")))}, "nest"},
		{"option name upper case", []*discordgo.ApplicationCommand{cmd("ttt", "d", sub("Help"))}, "lower case"},
		{"twice", []*discordgo.ApplicationCommand{cmd("ttt", "d"), cmd("ttt", "d")}, "defined twice"},
		{"user command with description", []*discordgo.ApplicationCommand{{Type: discordgo.UserApplicationCommand, Name: "Play with", Description: "d"}}, "no description"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckCommands(mustJSON(t, tc.cmds))
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("got %v, want no violation", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0].String(), tc.want)):
				t.Errorf("got %v, want one violation saying %q", got, tc.want)
			}
		})
	}
}

func TestCheckCommandsTotalLength(t *testing.T) {
	long := strings.Repeat("d", 100)
	var subs []*discordgo.ApplicationCommandOption
	for i := range 25 {
		var opts []*discordgo.ApplicationCommandOption
		for j := range 2 {
			opts = append(opts, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: fmt.Sprintf("o%d", j), Description: long})
		}
		subs = append(subs, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: fmt.Sprintf("s%d", i), Description: long, Options: opts})
	}
	got := CheckCommands(mustJSON(t, []*discordgo.ApplicationCommand{{Name: "ttt", Description: "d", Options: subs}}))
	if len(got) != 1 || !strings.Contains(got[0].Message, "4000") {
		t.Errorf("got %v, want one violation of the 4000-character total", got)
	}
}

// TestCheckCommandsLocalizations: translations are keyed by Discord's
// locales and held to the limits of what they translate, and the
// 4000-character total applies in each language.
func TestCheckCommandsLocalizations(t *testing.T) {
	cmd := func(descs map[discordgo.Locale]string, optNames map[discordgo.Locale]string, choiceNames map[discordgo.Locale]string) []*discordgo.ApplicationCommand {
		return []*discordgo.ApplicationCommand{{
			Name: "ttt", Description: "Play", DescriptionLocalizations: &descs,
			Options: []*discordgo.ApplicationCommandOption{{
				Type: discordgo.ApplicationCommandOptionString, Name: "first", Description: "Who", NameLocalizations: optNames,
				DescriptionLocalizations: descs,
				Choices:                  []*discordgo.ApplicationCommandOptionChoice{{Name: "me", NameLocalizations: choiceNames, Value: "me"}},
			}},
		}}
	}
	long := strings.Repeat("x", 101)
	tests := []struct {
		name string
		cmds []*discordgo.ApplicationCommand
		want string
	}{
		{"translated", cmd(map[discordgo.Locale]string{"de": "Spielen", "ja": "遊ぶ"}, map[discordgo.Locale]string{"de": "zuerst"}, map[discordgo.Locale]string{"de": "ich"}), ""},
		{"not a Discord locale", cmd(map[discordgo.Locale]string{"de-DE": "Spielen"}, nil, nil), `"de-DE" is not a Discord locale`},
		{"long description", cmd(nil, nil, map[discordgo.Locale]string{"fr": long}), "fr: must be between 1 and 100"},
		{"empty choice name", cmd(nil, nil, map[discordgo.Locale]string{"fr": ""}), "fr: must be between 1 and 100"},
		{"option name in capitals", cmd(nil, map[discordgo.Locale]string{"de": "Zuerst"}, nil), "must be lower case"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckCommands(mustJSON(t, tc.cmds))
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("got %v, want no violation", got)
			case tc.want != "" && (len(got) == 0 || !strings.Contains(got[0].String(), tc.want)):
				t.Errorf("got %v, want a violation saying %q", got, tc.want)
			}
		})
	}

	// Within the total in English, over it in German.
	var subs []*discordgo.ApplicationCommandOption
	for i := range 25 {
		subs = append(subs, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand,
			Name: fmt.Sprintf("s%d", i), Description: "d",
			DescriptionLocalizations: map[discordgo.Locale]string{"de": strings.Repeat("d", 100)},
			Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "o",
				Description: "d", DescriptionLocalizations: map[discordgo.Locale]string{"de": strings.Repeat("d", 100)}}},
		})
	}
	got := CheckCommands(mustJSON(t, []*discordgo.ApplicationCommand{{Name: "ttt", Description: "d", Options: subs}}))
	if len(got) != 1 || !strings.Contains(got[0].Message, "in de") {
		t.Errorf("got %v, want one violation of the 4000-character total in de", got)
	}
}

// FuzzCheck feeds the checkers arbitrary bytes: they must report, never
// panic.
func FuzzCheck(f *testing.F) {
	for _, seed := range []string{
		`{"content":"x","components":[{"type":1,"components":[{"type":2,"style":1,"label":"a","custom_id":"a"}]}]}`,
		`{"components":[{"type":1,"components":[{"type":3,"custom_id":"s","options":[{"label":"a","value":"a"}]}]}],"embeds":[{"title":"t","fields":[{"name":"n","value":"v"}]}]}`,
		`[{"name":"ttt","description":"d","options":[{"type":2,"name":"g","description":"d","options":[{"type":1,"name":"s","description":"d","options":[{"type":3,"name":"o","description":"d","choices":[{"name":"a","value":"a"}]}]}]}]}]`,
		`{"components":[1,null,{"type":1,"components":[null,{"type":2}]}]}`,
		`[null,{"type":"1"},{"options":[{"type":2,"options":[7]}]}]`,
		`null`, `{}`, `[]`, `"x"`, `{"flags":1.5,"content":7}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		CheckMessage(data)
		CheckCommands(data)
		if vs := CheckMessage(data); len(vs) > 0 {
			formError(vs)
		}
	})
}

// TestCheckCommandAccess: who a command is for must be written as Discord
// reads it.
func TestCheckCommandAccess(t *testing.T) {
	manage := int64(discordgo.PermissionManageGuild)
	no := false
	admin := &discordgo.ApplicationCommand{Name: "ttt-admin", Description: "d", DefaultMemberPermissions: &manage, DMPermission: &no,
		Contexts:         &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}}
	if got := CheckCommands(mustJSON(t, []*discordgo.ApplicationCommand{admin})); len(got) != 0 {
		t.Errorf("discordgo's encoding: got %v, want no violation", got)
	}
	tests := []struct{ name, body, want string }{
		{"permissions as a number", `[{"name":"a","description":"d","default_member_permissions":32}]`, "string of digits"},
		{"permissions not digits", `[{"name":"a","description":"d","default_member_permissions":"manage"}]`, "string of digits"},
		{"dm_permission not a boolean", `[{"name":"a","description":"d","dm_permission":"no"}]`, "boolean"},
		{"no contexts", `[{"name":"a","description":"d","contexts":[]}]`, "non-empty"},
		{"an unknown context", `[{"name":"a","description":"d","contexts":[0,3]}]`, "0 to 2"},
		{"a context twice", `[{"name":"a","description":"d","contexts":[0,0]}]`, "distinct"},
		{"an unknown integration type", `[{"name":"a","description":"d","integration_types":[2]}]`, "0 to 1"},
	}
	for _, tt := range tests {
		got := CheckCommands([]byte(tt.body))
		if len(got) != 1 || !strings.Contains(got[0].String(), tt.want) {
			t.Errorf("%s: got %v, want one violation saying %q", tt.name, got, tt.want)
		}
	}
}
