package settingsrow

import (
	"fmt"
	"testing"
	"time"
)

// TestTurnTimeouts: a guild's timeout is known once put, a DM's always
// (none), and a full memory starts over rather than grow.
func TestTurnTimeouts(t *testing.T) {
	var tt TurnTimeouts
	tt.Put("", time.Hour) // a DM has none to remember
	tt.Put("1", time.Minute)
	tt.Put("2", 0)
	for _, c := range []struct {
		guild  string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, true},
		{"1", time.Minute, true},
		{"2", 0, true},
		{"3", 0, false},
	} {
		got, ok := tt.Get(c.guild)
		if got != c.want || ok != c.wantOK {
			t.Errorf("Get(%q) = %v, %v; want %v, %v", c.guild, got, ok, c.want, c.wantOK)
		}
	}

	for i := range maxTurnTimeouts {
		tt.Put(fmt.Sprint("g", i), time.Second)
	}
	if _, ok := tt.Get("1"); ok {
		t.Error("a guild put before the memory filled is still known")
	}
	if n := len(tt.m); n > maxTurnTimeouts {
		t.Errorf("remembers %d guilds, want at most %d", n, maxTurnTimeouts)
	}
}
