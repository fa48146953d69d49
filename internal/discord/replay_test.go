package discord_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/discord"
)

// An interaction delivered again over the gateway gets no callback, board
// message fetch or follow-up: the first delivery was answered, and
// Discord refuses a second callback.
func TestRespondSendsNothingForReplay(t *testing.T) {
	rest := &webhookREST{gets: 1}
	s := rest.session(t)
	r := boardReply
	r.Code = tttbot.EREPLAY
	f := &fakeHandler{reply: r}
	discord.Respond(context.Background(), s, f, tokenInteraction(1), slog.New(slog.DiscardHandler))
	if len(rest.callbacks) != 0 || rest.followups != 0 || len(f.tracked) != 0 {
		t.Errorf("got %d callbacks, %d follow-ups, %d boards tracked; want none", len(rest.callbacks), rest.followups, len(f.tracked))
	}
}
