package commands

import (
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
)

// TestShowSettings: show lists every setting with its default, within a
// message's length even with every list full.
func TestShowSettings(t *testing.T) {
	h, _ := newTestHandler(t)
	yes := true
	st := &tttbot.Settings{GuildID: "2000", Role: "12345678901234567", Cooldown: time.Hour, Simultaneous: &yes,
		Defaults:         tttbot.Defaults{Size: 5, K: 4, Level: "hard", First: tttbot.FirstThem},
		ChallengeTimeout: 24 * time.Hour, TurnTimeout: 90 * time.Second,
		X: tttbot.Mark{Name: strings.Repeat("n", 32), ID: "12345678901234567890", Animated: true}, O: tttbot.Mark{Name: "🐶"}, Locale: "zh-TW"}
	for i := range tttbot.MaxChannels {
		st.Channels = append(st.Channels, "1234567890123456"+string(rune('0'+i/10))+string(rune('0'+i%10)))
	}
	got := h.showSettings(mustCatalog().Source(), st)
	t.Log(got)
	for _, want := range []string{"Games may start in**: <#123456789012345600>", "members with <@&12345678901234567>",
		"**Cooldown**: 1 hour between", "5×5, 4 in a row, the one challenged moves first, me at hard", "challenges 24 hours, turns 90 seconds (default: challenges 2 minutes, turns 5 minutes)",
		"allowed (default: as the bot is configured)", "X " + st.X.String() + ", O 🐶", "中文（繁體）"} {
		if !strings.Contains(got, want) {
			t.Errorf("show lacks %q", want)
		}
	}
	if n := len([]rune(got)); n > maxContent {
		t.Errorf("show is %d characters, over Discord's %d", n, maxContent)
	}
}
