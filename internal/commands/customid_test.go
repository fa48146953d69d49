package commands

import "testing"

func TestCustomIDRoundTrip(t *testing.T) {
	tests := []CustomID{
		{Action: ActMove, GameID: 1, Version: 1, Cell: 0},
		{Action: ActMove, GameID: 9223372036854775807, Version: 2147483647, Cell: 24},
		{Action: ActAccept, GameID: 42, Version: 1},
		{Action: ActDecline, GameID: 42, Version: 3},
		{Action: ActRematch, GameID: 7},
		{Action: actReview, GameID: 7},
		{Action: actReviewPage, GameID: 7, Page: 2},
		{Action: actReplay, GameID: 7},
		{Action: actReplayStep, GameID: 9223372036854775807, Page: 25, Slot: 3},
	}
	for _, want := range tests {
		s := want.String()
		if len(s) > 100 {
			t.Errorf("%q: %d characters, Discord allows 100", s, len(s))
		}
		got, err := ParseCustomID(s)
		if err != nil {
			t.Fatalf("ParseCustomID(%q): %v", s, err)
		}
		if got != want {
			t.Errorf("ParseCustomID(%q) = %+v, want %+v", s, got, want)
		}
	}
}

func TestParseCustomIDRejects(t *testing.T) {
	for _, s := range []string{
		"", "ttt", "ttt:m", "ttt:m:1:1", "ttt:m:1:1:25", "ttt:m:1:1:-1", "ttt:m:0:1:1",
		"ttt:m:x:1:1", "ttt:a:1:0", "ttt:a:1", "ttt:a:1:1:1", "ttt:q:1:1", "xyz:a:1:1",
		"ttt:r:1:1", "ttt:m:1:1:1:1", "ttt:m:+1:1:1 ", "ttt:a:99999999999999999999:1",
		"ttt:v:1:0", "ttt:vp:1", "ttt:vp:1:-1", "ttt:vp:1:01", "ttt:hp:1:0", "ttt:hp:1:0:4", "ttt:h:1:2", "ttt:l:1",
	} {
		if c, err := ParseCustomID(s); err == nil {
			t.Errorf("ParseCustomID(%q) = %+v, want an error", s, c)
		}
	}
}

func FuzzParseCustomID(f *testing.F) {
	for _, s := range []string{"ttt:m:1:2:3", "ttt:a:5:1", "ttt:d:5:2", "ttt:r:9", "ttt:v:9", "ttt:vp:9:1", "ttt:h:9", "ttt:hp:9:4:2", "ttt:::", ":", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCustomID(s)
		if err != nil {
			return
		}
		// Anything accepted must be canonical: re-encoding parses to the same value.
		again, err := ParseCustomID(c.String())
		if err != nil || again != c {
			t.Errorf("%q parsed to %+v, re-encoded %q parsed to %+v, %v", s, c, c.String(), again, err)
		}
	})
}
