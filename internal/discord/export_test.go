package discord

import (
	"context"
	"log/slog"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/interaction"
)

// The decoder and the encoder, for the tests in package discord_test.
var (
	DecodeInteraction = decodeInteraction
	DecodeWith        = decodeWith
	EncodeResponse    = encodeResponse
	ReadSigned        = readSigned
)

// Respond is how the gateway answers an interaction, with edits merged
// within the call alone.
func Respond(ctx context.Context, s *discordgo.Session, h Handler, i *discordgo.Interaction, log *slog.Logger) {
	answer(ctx, ctx, s, newBoardEdits(s), Budget{}, h, i, log)
}

// BoardEdits are the edits of board messages an adapter merges.
type BoardEdits struct{ b *boardEdits }

func NewBoardEdits(s *discordgo.Session) BoardEdits { return BoardEdits{newBoardEdits(s)} }

// Add queues e before the interaction's answer; true: call Flush.
func (e BoardEdits) Add(ed *interaction.Edit) bool { return e.b.add(ed) }

// Flush sends the queued edits of a message, after the answer.
func (e BoardEdits) Flush(ctx context.Context, messageID string) {
	e.b.flush(ctx, messageID, "", slog.New(slog.DiscardHandler))
}

// ShardSession is the discordgo session of the gateway's shard i.
func (g *Gateway) ShardSession(i int) *discordgo.Session { return g.shards[i].s }

// ShardOpen reports whether shard i's last connection is open.
func (g *Gateway) ShardOpen(i int) bool { return g.shards[i].wire.open() }

// Goroutines is how many goroutines of the gateway run.
func (g *Gateway) Goroutines() int64 { return g.goroutines.running.Load() }

// Run runs h on i within the budget, as both ways in do.
func (b Budget) Run(ctx context.Context, h Handler, i *discordgo.Interaction, deferNow func(*discordgo.InteractionResponse)) (interaction.Reply, bool) {
	return b.run(ctx, h, i, deferNow)
}
