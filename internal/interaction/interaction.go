// Package interaction holds what the renderer (internal/commands) and the
// transport (internal/discord) share: the reply to one interaction, and the
// board edits that follow it. Neither side imports the other.
package interaction

import (
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// Reply is the answer to one interaction.
//
// The files of a message — Files of its InteractionResponseData, the
// Response's, the Followup's or an Edit's — go with it as a multipart
// upload, on every path: the callback, the webhook edit or follow-up that
// delivers a deferred answer, and the edits. Its components refer to each
// as attachment://Name (a name of ASCII letters, digits, '-', '_' and
// '.'); the transport lists them in the message's attachments, so that an
// edit's files replace those the message had, and reads each once: a
// Reply is sent once.
type Reply struct {
	Response *discordgo.InteractionResponse
	// TrackGame, when set, is the game whose board is the message this
	// response creates. An adapter that learns the message's ID without
	// asking (a late answer's follow-up, say) reports it through
	// TrackMessage, for the timers' edits; it asks Discord for it only
	// when FetchBoard is set too (never without TrackGame). Otherwise the
	// board's first click tells it, and the token that posted the board
	// reaches it meanwhile.
	TrackGame  int64
	FetchBoard bool
	// Followup, when set, is a message posted after the response.
	Followup *discordgo.InteractionResponseData
	// Edit, when set, is a board message to bring up to date after the
	// response, rather than before it, when REST would keep the player
	// waiting: the board of a game resigned by command, or a stale board
	// a click found.
	Edit *Edit
	// Code is the tttbot error code when the interaction was refused
	// (ESTALE, ENOTYOURTURN, ...) or failed (EINTERNAL); "" when it did what
	// was asked. The adapters count it, and send nothing to Discord for
	// EREPLAY: Discord has the answer to the original.
	Code string
}

// Edit replaces the content and components of game GameID's board message
// with Data, the game at Version: through channel REST, or, when Token is
// set, through the webhook of that interaction token, whose response is
// the board.
type Edit struct {
	GameID               int64
	Version              int
	ChannelID, MessageID string
	Token                string
	Data                 *discordgo.InteractionResponseData
}

// Key names the message e edits, so that edits of one message can merge:
// a game's board is one message, which an edit may reach through a token
// without knowing its ID.
func (e *Edit) Key() string {
	if e.GameID != 0 {
		return fmt.Sprintf("game %d", e.GameID)
	}
	return e.MessageID
}
