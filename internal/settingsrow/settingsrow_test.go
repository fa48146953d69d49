package settingsrow

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot"
)

// TestRoundTrip: settings encoded and decoded come back the same, and a
// mark that is no mark is an error, not a silent default.
func TestRoundTrip(t *testing.T) {
	no := false
	for _, s := range []*tttbot.Settings{
		{GuildID: "1"},
		{GuildID: "1", Channels: []string{"2", "3"}, Role: "4", TournamentRole: "5", Daily: tttbot.NewDaily("6", 0, time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)), Cooldown: time.Minute, Simultaneous: &no,
			Defaults:         tttbot.Defaults{Size: 4, K: 3, Level: "easy", First: tttbot.FirstMe},
			ChallengeTimeout: time.Hour, TurnTimeout: 20 * time.Second,
			X: tttbot.Mark{Name: "cat", ID: "5", Animated: true}, O: tttbot.Mark{Name: "🐶"}, Locale: "fr",
			UpdatedAt: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)},
	} {
		got, err := From(s).Settings(s.GuildID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(s, got); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
		if n, m := len(From(s).Args()), len((&Row{}).Dest()); n != m {
			t.Errorf("%d args for %d columns", n, m)
		}
	}
	if _, err := (Row{MarkX: "X"}).Settings("1"); err == nil {
		t.Error("a stored mark that is no emoji: got no error")
	}
}
