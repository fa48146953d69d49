package commands

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
)

// TestAdminPermission: /ttt-admin runs for members with Manage Server or
// Administrator, whatever Discord showed the others.
func TestAdminPermission(t *testing.T) {
	h, _ := newTestHandler(t)
	tests := []struct {
		perms int64
		ok    bool
	}{
		{0, false},
		{discordgo.PermissionSendMessages | discordgo.PermissionManageMessages, false},
		{discordgo.PermissionManageGuild, true},
		{discordgo.PermissionAdministrator, true},
	}
	for _, tt := range tests {
		i := slash(t, "10", "2000", "30", `{"name":"ttt-admin","options":[{"type":1,"name":"cooldown","options":[{"type":4,"name":"seconds","value":60}]}]}`)
		i.Member.Permissions = tt.perms
		r := h.Handle(t.Context(), i)
		if tt.ok {
			if r.Code != "" || !strings.Contains(shown(r.Response.Data), "Cooldown**: 1 minute") {
				t.Errorf("permissions %b: got %q (code %q), want the change", tt.perms, shown(r.Response.Data), r.Code)
			}
			continue
		}
		wantRefused(t, r, tttbot.ENOTYOURS, "manage this server")
	}
	dm := slash(t, "10", "", "30", `{"name":"ttt-admin","options":[{"type":1,"name":"show"}]}`)
	wantRefused(t, h.Handle(t.Context(), dm), tttbot.EINVALID, "direct messages")
}
