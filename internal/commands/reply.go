package commands

import (
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
)

// refuseReplay is the answer to an interaction handled before: it changes
// nothing, and the adapters send nothing for it.
func refuseReplay(l *i18n.Language) interaction.Reply {
	r := ephemeral(errorText(l, tttbot.ErrReplay))
	r.Code = tttbot.EREPLAY
	return r
}

// ephemeral answers with text seen only by the user.
func ephemeral(text string) interaction.Reply {
	return interaction.Reply{Response: &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral},
	}}
}

// newMessage answers with m as a new message in the channel.
func newMessage(m message) interaction.Reply {
	return interaction.Reply{
		Response: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: m.data()},
	}
}

// newBoard answers with m, game g's board, as a new message in the
// channel. Its first click tells the game its message (see
// tttbot.BoardClick), and until then the token that posted it reaches it,
// unless the adapter learns the message's ID on the way (a late answer is
// a follow-up, which no token's @original is). The adapter fetches the
// message only for a board in a server's channel that may wait for that
// click past the token's life: its deadline runs past it, or the bot is
// to move, whose move the timers may make, starting a turn from then.
func newBoard(m message, g *tttbot.Game) interaction.Reply {
	r := newMessage(m)
	if g.Status.Open() {
		r.TrackGame = g.ID
		r.FetchBoard = !g.Webhook && (!g.TokenCovers() || g.BotToMove())
	}
	return r
}

// updateMessage answers a click on a board by redrawing it as m.
func updateMessage(m message) interaction.Reply {
	return interaction.Reply{
		Response: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: m.data()},
	}
}

// quiet is m's data with mentions shown but nobody pinged: the leaderboard,
// stats and reviews name people without calling them. Content past
// Discord's limit is cut at a line; the pages are sized never to need it.
func quiet(m message) *discordgo.InteractionResponseData {
	m.content = clip(m.content, maxContent)
	d := m.data()
	d.AllowedMentions = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
	return d
}

// maxContent is Discord's limit on a message's content, in characters;
// clip counts bytes, which are never fewer.
const maxContent = 2000

// clip cuts s to at most n bytes, at the end of a line if it can, marking
// the cut with an ellipsis.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const more = "\n…"
	cut := strings.LastIndexByte(s[:n-len(more)+1], '\n')
	if cut <= 0 {
		cut = n - len(more)
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return s[:cut] + more
}

// post answers with m as a new message, seen only by the user if private.
func post(m message, private bool) interaction.Reply {
	d := quiet(m)
	if private {
		d.Flags |= discordgo.MessageFlagsEphemeral
	}
	return interaction.Reply{Response: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: d}}
}

// update answers a click by redrawing the clicked message as m.
func update(m message) interaction.Reply {
	return interaction.Reply{Response: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: quiet(m)}}
}
