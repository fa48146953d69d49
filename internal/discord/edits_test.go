package discord_test

import (
	"fmt"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/interaction"
)

// The edits of one board that come in while one is in flight merge into
// one, which shows the newest game version whatever order they came in.
func TestBoardEditsMerge(t *testing.T) {
	srv := discordtest.NewServer(t)
	s, err := discord.NewSession(srv.Token(), srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	ch := srv.NewChannel()
	m, err := s.ChannelMessageSend(ch, "version 1")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(version int) *interaction.Edit {
		return &interaction.Edit{GameID: 1, Version: version, ChannelID: ch, MessageID: m.ID,
			Data: &discordgo.InteractionResponseData{Content: fmt.Sprint("version ", version)}}
	}
	edits := discord.NewBoardEdits(s)
	slow := srv.Hold(t, discordtest.RouteEditChannelMessage)

	if !edits.Add(edit(5)) {
		t.Fatal("the first edit of a board: got no flush to make, want one")
	}
	done := make(chan struct{})
	go func() { edits.Flush(t.Context(), edit(5).Key()); close(done) }()
	slow.Wait(t, 1) // version 5 is in flight
	for _, v := range []int{7, 6, 7, 3} {
		if edits.Add(edit(v)) {
			t.Errorf("edit of version %d with one in flight: got a flush to make, want it merged", v)
		}
	}
	slow.Release()
	<-done

	calls := srv.CallsTo(discordtest.RouteEditChannelMessage)
	if got := srv.Message(ch, m.ID).Content; len(calls) != 2 || got != "version 7" {
		t.Errorf("got %d edits leaving %q, want 2 leaving \"version 7\"", len(calls), got)
	}
	// Once flushed, the board's next edit is sent at once again.
	if !edits.Add(edit(8)) {
		t.Error("an edit after the flush: got no flush to make, want one")
	}
}
