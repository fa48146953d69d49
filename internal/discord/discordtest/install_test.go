package discordtest

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestInstallContexts: each place an interaction comes from carries its
// context, installs and permissions; a click on a message carries the
// installs of the interaction that posted it, whoever clicks.
func TestInstallContexts(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	alice, bob := srv.NewUser("alice"), srv.NewUser("bob")
	guest := srv.NewGuestGuild()
	got := make(chan *discordgo.Interaction, 2)
	open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		got <- ic.Interaction
		s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "board", Components: []discordgo.MessageComponent{
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "go", CustomID: "go"}}},
			}},
		})
	})
	tests := []struct {
		name      string
		ch        string
		ctx       discordgo.InteractionContextType
		owner     discordgo.ApplicationIntegrationType
		ownerID   string
		seeAndSay bool // app_permissions has View Channel and Send Messages
	}{
		{"server", srv.NewChannel(), discordgo.InteractionContextGuild, discordgo.ApplicationIntegrationGuildInstall, srv.GuildID(), true},
		{"server without the app", srv.NewChannelIn(guest), discordgo.InteractionContextGuild, discordgo.ApplicationIntegrationUserInstall, alice.ID, false},
		{"bot DM", srv.NewDMChannel(), discordgo.InteractionContextBotDM, discordgo.ApplicationIntegrationUserInstall, alice.ID, false},
		{"group DM", srv.NewGroupDM(), discordgo.InteractionContextPrivateChannel, discordgo.ApplicationIntegrationUserInstall, alice.ID, false},
		{"DM between users", srv.NewUserDM(), discordgo.InteractionContextPrivateChannel, discordgo.ApplicationIntegrationUserInstall, alice.ID, false},
	}
	const need = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := srv.Slash(t, alice, tt.ch, "ttt play").Result(t)
			srv.Click(t, bob, msg, "go").Wait(t)
			for _, who := range []string{"alice's command", "bob's click"} {
				in := <-got
				if in.Context != tt.ctx || len(in.AuthorizingIntegrationOwners) != 1 || in.AuthorizingIntegrationOwners[tt.owner] != tt.ownerID {
					t.Errorf("%s: got context %d, owners %v; want %d, {%d: %s}", who, in.Context, in.AuthorizingIntegrationOwners, tt.ctx, tt.owner, tt.ownerID)
				}
				if (in.AppPermissions&need == need) != tt.seeAndSay {
					t.Errorf("%s: got app permissions %b, want view and send %v", who, in.AppPermissions, tt.seeAndSay)
				}
			}
		})
	}
}

// TestUserInstallLimits: where only a user installed the app, channel
// endpoints answer Missing Access, a token works for 15 minutes of the
// server's clock, and an interaction takes 5 follow-ups; in a server that
// installed the app, none of these limits apply but the token's life.
func TestUserInstallLimits(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	var mu sync.Mutex
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	srv.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	alice := srv.NewUser("alice")
	s := open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "board"},
		})
	})
	tests := []struct {
		name          string
		ch            string
		channelStatus int // of channel REST: 0 for success
		followups     int // that succeed
	}{
		{"server", srv.NewChannel(), 0, 7},
		{"bot DM", srv.NewDMChannel(), http.StatusForbidden, maxUserFollowups},
		{"group DM", srv.NewGroupDM(), http.StatusForbidden, maxUserFollowups},
		{"server without the app", srv.NewChannelIn(srv.NewGuestGuild()), http.StatusForbidden, maxUserFollowups},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := srv.Slash(t, alice, tt.ch, "ttt play")
			msg := in.Result(t)
			i := &discordgo.Interaction{AppID: in.AppID, Token: in.Token}

			_, err := s.ChannelMessageSend(tt.ch, "hello")
			if st, code := restStatus(err); st != tt.channelStatus || st != 0 && code != 50001 {
				t.Errorf("channel message: got %d (code %d), want %d", st, code, tt.channelStatus)
			}
			_, err = s.ChannelMessageEdit(tt.ch, msg.ID, "edited")
			if st, _ := restStatus(err); st != tt.channelStatus {
				t.Errorf("channel edit: got %d, want %d", st, tt.channelStatus)
			}

			ok := 0
			for range 7 {
				if _, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "more"}); err == nil {
					ok++
				} else if st, code := restStatus(err); st != http.StatusBadRequest || code != 40094 {
					t.Errorf("follow-up %d: got %v, want 400 code 40094", ok+1, err)
				}
			}
			if ok != tt.followups {
				t.Errorf("got %d follow-ups posted, want %d", ok, tt.followups)
			}

			mu.Lock()
			now = now.Add(tokenLife - time.Second)
			mu.Unlock()
			if _, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: new("alive")}); err != nil {
				t.Errorf("edit within the token's life: %v", err)
			}
			mu.Lock()
			now = now.Add(time.Second)
			mu.Unlock()
			_, err = s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: new("expired")})
			if st, code := restStatus(err); st != http.StatusUnauthorized || code != 50027 {
				t.Errorf("edit past the token's life: got %v, want 401 code 50027", err)
			}
			if m := in.Original(); m == nil || m.Content != "alive" {
				t.Errorf("got message %v, want the last edit in the token's life", m)
			}
		})
	}
}

// TestSlashChecksInstall: a registered command runs only where its
// contexts and integration types offer it.
func TestSlashChecksInstall(t *testing.T) {
	guildOnly := &discordgo.ApplicationCommand{Name: "ttt"}
	everywhere := &discordgo.ApplicationCommand{Name: "ttt",
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{0, 1},
		Contexts:         &[]discordgo.InteractionContextType{0, 1, 2}}
	serverOnly := &discordgo.ApplicationCommand{Name: "ttt",
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{0, 1},
		Contexts:         &[]discordgo.InteractionContextType{0}}
	tests := []struct {
		name   string
		cmd    *discordgo.ApplicationCommand
		ctx    discordgo.InteractionContextType
		owners map[string]string
		want   string // in the error; "" for none
	}{
		{"guild install in its server", guildOnly, 0, map[string]string{"0": "g"}, ""},
		{"guild install in a group DM", guildOnly, 2, map[string]string{"1": "u"}, "integration types"},
		{"both installs in a group DM", everywhere, 2, map[string]string{"1": "u"}, ""},
		{"both installs in a guest server", everywhere, 0, map[string]string{"1": "u"}, ""},
		{"server only, in a bot DM", serverOnly, 1, map[string]string{"1": "u"}, "contexts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkInstall(tt.cmd, tt.ctx, tt.owners)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestRestrictExternalApps: a server that withholds Use External Apps sees
// the answers of apps only a user installed as ephemeral; its members'
// permissions say so.
func TestRestrictExternalApps(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	alice := srv.NewUser("alice")
	perms := make(chan int64, 1)
	open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		perms <- ic.Member.Permissions
		s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "board"},
		})
	})
	public, closed := srv.NewGuestGuild(), srv.NewGuestGuild()
	srv.RestrictExternalApps(closed)
	tests := []struct {
		name    string
		ch      string
		private bool
	}{
		{"server without the app", srv.NewChannelIn(public), false},
		{"server without the app, restricting it", srv.NewChannelIn(closed), true},
		{"server with the app", srv.NewChannel(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := srv.Slash(t, alice, tt.ch, "ttt play").Result(t)
			p := <-perms
			if m.Ephemeral() != tt.private || (p&discordgo.PermissionUseExternalApps == 0) != tt.private {
				t.Errorf("got ephemeral %v, Use External Apps %v; want ephemeral %v", m.Ephemeral(), p&discordgo.PermissionUseExternalApps != 0, tt.private)
			}
		})
	}
}
