package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/interaction"
)

// DefaultDeferAfter is how long a handler may take before the bot defers
// the interaction's answer: well inside the 3 s Discord waits for the
// first answer, leaving the deferral time to reach it.
const DefaultDeferAfter = 2 * time.Second

// DefaultWorkLimit bounds the work of one interaction: time for a
// database that stalls for seconds, far inside the 15 minutes an
// interaction's token lives.
const DefaultWorkLimit = 15 * time.Second

// Budget is an interaction's time budget. A handler that has not replied
// within DeferAfter gets more time: the bot sends Discord the deferred
// response, which Discord shows as the bot thinking, and delivers the
// reply through the interaction's webhook once the handler has it. The
// handler's context ends at WorkLimit: work not committed by then is
// abandoned, and the stores' writes, which a transaction under way
// finishes within limits of their own, either commit or store nothing.
// What the player is told is the outcome: a change committed late is shown
// late, and a failure is told only of work that stored nothing.
type Budget struct {
	DeferAfter time.Duration // default DefaultDeferAfter
	WorkLimit  time.Duration // default DefaultWorkLimit
	Counter    Counter       // nil counts nothing
}

// Counter counts the interactions answered past their budget: deferred,
// and, among them, abandoned — their work ended by its limit, or failed,
// with nothing stored, and the player told so.
type Counter interface {
	Deferred()
	Abandoned()
}

func (b Budget) deferAfter() time.Duration {
	if b.DeferAfter <= 0 {
		return DefaultDeferAfter
	}
	return b.DeferAfter
}

func (b Budget) workLimit() time.Duration {
	if b.WorkLimit <= 0 {
		return DefaultWorkLimit
	}
	return b.WorkLimit
}

// run runs h on i on the calling goroutine, and returns its reply. If h
// has not returned within DeferAfter, a timer calls deferNow with i's
// deferred response while h runs; then run returns only once deferNow has
// returned too, and reports the reply late: it follows the deferral.
//
// The timer decides: Stop succeeding means h returned first, and deferNow
// never runs; Stop failing means deferNow has started, or is about to, on
// the timer's goroutine, which run awaits. Goroutine hand-offs cost more
// than the handler's work on a small VM, so the common path makes none.
func (b Budget) run(ctx context.Context, h Handler, i *discordgo.Interaction,
	deferNow func(*discordgo.InteractionResponse)) (r interaction.Reply, late bool) {
	if i.Type != discordgo.InteractionMessageComponent && i.Type != discordgo.InteractionApplicationCommand {
		// Autocomplete cannot be deferred: its answer is its choices.
		return h.Handle(ctx, i), false
	}
	deferred := make(chan struct{})
	t := time.AfterFunc(b.deferAfter(), func() {
		defer close(deferred)
		if b.Counter != nil {
			b.Counter.Deferred()
		}
		deferNow(deferral(h, i))
	})
	r = h.Handle(ctx, i)
	if t.Stop() {
		return r, false
	}
	<-deferred
	return r, true
}

// deferral is the deferred response for i: a click's leaves its message
// as it is until the edit; a command's shows the bot thinking in a message
// the answer then fills, private if h says the answer will be: Discord
// sets a message's visibility when it creates it, here with the deferral.
// So a refusal of a public command, private when in time, fills a public
// message.
func deferral(h Handler, i *discordgo.Interaction) *discordgo.InteractionResponse {
	if i.Type == discordgo.InteractionMessageComponent {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	}
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	if h.Private(i) {
		r.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	return r
}

// late delivers r, the reply to i that came after its deferral, through
// the interaction's webhook: an update of a click redraws the clicked
// message (@original), a command's reply fills the thinking message
// (@original, keeping its visibility), and a new message answering a click
// is a follow-up, private if the reply is. Then come the board edits, the
// board message's ID for the timers, and any follow-up, as after an answer
// in time. workErr is the handler context's error when it returned. Each
// webhook call goes through try, which may retry it.
func (b Budget) late(ctx context.Context, s *discordgo.Session, edits *boardEdits, h Handler, i *discordgo.Interaction,
	r interaction.Reply, workErr error, log *slog.Logger, try func(context.Context, func() error) error) {
	if r.Code == tttbot.EREPLAY {
		log.Debug("interaction replayed")
		return
	}
	if r.Response == nil {
		log.Error("interaction has no response")
		return
	}
	if r.Code == tttbot.EINTERNAL && b.Counter != nil {
		b.Counter.Abandoned()
	}
	flush := r.Edit != nil && edits.add(r.Edit)
	var id string
	c, err := deferredCall(i, r.Response)
	if err == nil {
		err = try(ctx, func() error {
			body, err := callInteraction(ctx, s, c)
			if err != nil {
				return err
			}
			id, err = messageID(body)
			return err
		})
	}
	if flush {
		edits.flush(ctx, r.Edit.Key(), i.AppID, log)
	}
	if err != nil {
		log.Error("deferred interaction answer", "err", redact(err, i.Token))
		return
	}
	log.Debug("deferred interaction answered", "type", i.Type, "code", r.Code, "work_err", workErr)
	afterResponse(ctx, s, h, i, r, id, log, try)
}

// deferredCall is the call that sends resp, the answer to i, after i's
// deferral; Discord answers it with the message that shows resp.
func deferredCall(i *discordgo.Interaction, resp *discordgo.InteractionResponse) (call, error) {
	switch {
	case resp.Data == nil:
	case resp.Type == discordgo.InteractionResponseUpdateMessage && i.Type == discordgo.InteractionMessageComponent,
		resp.Type == discordgo.InteractionResponseChannelMessageWithSource && i.Type == discordgo.InteractionApplicationCommand:
		return editCall(i.AppID, i.Token, resp.Data)
	case resp.Type == discordgo.InteractionResponseChannelMessageWithSource:
		return followupCall(i.AppID, i.Token, resp.Data, true)
	}
	return call{}, fmt.Errorf("response type %d cannot follow the deferral of a %s interaction", resp.Type, i.Type)
}

// messageID decodes the ID of a message from its JSON, and nothing else:
// discordgo's decoder reads every button of a board through nested
// UnmarshalJSON calls, eight times the cost.
func messageID(body []byte) (string, error) {
	var m struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return "", fmt.Errorf("decode message: %w", err)
	}
	if m.ID == "" {
		return "", errors.New("decode message: no id")
	}
	return m.ID, nil
}
