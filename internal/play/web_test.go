package play_test

import (
	"testing"

	"github.com/tttbot/tttbot"
)

// TestSetWeb: turning a guild's page on gives it an address, which it
// keeps when turned on again; off removes it.
func TestSetWeb(t *testing.T) {
	s, db, _ := newService(t, nil)
	ctx := t.Context()
	on, err := s.SetWeb(ctx, guild, true)
	if err != nil || !tttbot.ValidWebID(on.Web) {
		t.Fatalf("on: got %+v, %v; want a page address", on, err)
	}
	again, err := s.SetWeb(ctx, guild, true)
	if err != nil || again.Web != on.Web {
		t.Errorf("on again: got %q, %v; want %q kept", again.Web, err, on.Web)
	}
	off, err := s.SetWeb(ctx, guild, false)
	if err != nil || off.Web != "" {
		t.Errorf("off: got %q, %v; want none", off.Web, err)
	}
	if _, err := db.WebGuild(ctx, on.Web); tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
		t.Errorf("the page once off: got %v, want ENOTFOUND", err)
	}
	if _, err := s.SetWeb(ctx, "", true); tttbot.ErrorCode(err) != tttbot.EINVALID {
		t.Errorf("in a DM: got %v, want EINVALID", err)
	}
}

// TestSetProfilePublic: a player's profile turns public and back; what is
// no Discord ID is refused.
func TestSetProfilePublic(t *testing.T) {
	s, db, _ := newService(t, nil)
	ctx := t.Context()
	for _, public := range []bool{true, false} {
		if err := s.SetProfilePublic(ctx, tttbot.Player{ID: alice, Name: "Alice"}, public); err != nil {
			t.Fatal(err)
		}
		p, err := db.Profiles(ctx, []string{alice})
		if err != nil || p[alice].Public != public || p[alice].Name != "Alice" {
			t.Errorf("public %v: got %+v, %v", public, p[alice], err)
		}
	}
	for _, id := range []string{"", tttbot.ForgottenID(1, true)} {
		if err := s.SetProfilePublic(ctx, tttbot.Player{ID: id}, true); tttbot.ErrorCode(err) != tttbot.EINVALID {
			t.Errorf("%q: got %v, want EINVALID", id, err)
		}
	}
}
