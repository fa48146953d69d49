package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	json127 "github.com/go-json-experiment/json/v1"
)

// command sends /ttt sub by user in the session's channel; a challenge
// names its opponent in the resolved users, as Discord does.
func (w *worker) command(ctx context.Context, k kind, s *session, user, sub string, opts []jsonOption) (*response, error) {
	data := commandData{ID: "1100000000000000002", Name: "ttt", Type: discordgo.ChatApplicationCommand,
		Options: []jsonOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}}
	for _, o := range opts {
		if o.Type == discordgo.ApplicationCommandOptionUser {
			id := o.Value.(string)
			data.Resolved = &resolved{Users: map[string]jsonUser{id: userJSON(id)},
				Members: map[string]memberJSON{id: {Roles: []string{}, JoinedAt: "2024-01-02T03:04:05.000000+00:00", Permissions: "2248473465835073"}}}
		}
	}
	return w.interact(ctx, k, s, user, discordgo.InteractionApplicationCommand, data, nil)
}

// click sends a button click on the message showing b.
func (w *worker) click(ctx context.Context, k kind, s *session, user, customID string, b *board) (*response, error) {
	return w.interact(ctx, k, s, user, discordgo.InteractionMessageComponent, componentData{CustomID: customID, ComponentType: discordgo.ButtonComponent}, w.message(s, b))
}

func (w *worker) message(s *session, b *board) *messageJSON {
	return &messageJSON{ID: s.msg, ChannelID: s.channel, Type: discordgo.MessageTypeChatInputCommand, Content: b.content, Author: botJSON,
		Components: b.components, Timestamp: "2025-01-02T03:04:05.000000+00:00", ApplicationID: appID}
}

func (w *worker) clickBody(s *session, user, customID string, b *board) []byte {
	body, _ := w.body(s, user, discordgo.InteractionMessageComponent, componentData{CustomID: customID, ComponentType: discordgo.ButtonComponent}, w.message(s, b))
	return body
}

func (w *worker) interact(ctx context.Context, k kind, s *session, user string, typ discordgo.InteractionType, data any, m *messageJSON) (*response, error) {
	body, n := w.body(s, user, typ, data, m)
	var r response
	code, err := w.send(ctx, k, body, false, &r)
	if err != nil {
		return nil, err
	}
	if code != http.StatusOK {
		return nil, w.fail(k, "got status %d, want 200", code)
	}
	out := &r
	switch r.Type {
	case discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate:
		w.d.deferred.Add(1)
		w.d.answers.note(interactionToken(n, m.id()), answeredLate)
		in, epoch := w.d.bots[w.sentTo], w.sentEpoch
		out, err = w.resolveDeferred(ctx, &r, interactionToken(n, m.id()), m != nil, func() bool { return in.epoch.Load() != epoch })
		switch {
		case errors.Is(err, errLost):
			w.d.lost.Add(1)
			return nil, err
		case errors.Is(err, errStopped):
			return nil, err
		case err != nil:
			return nil, w.fail(k, "%v", err)
		}
	case discordgo.InteractionResponseChannelMessageWithSource:
		out.msgID = strconv.FormatInt(w.d.ids.message(n), 10)
		if m != nil {
			w.d.answers.note(interactionToken(n, m.id()), answeredNew)
		}
	}
	switch {
	case !out.ephemeral():
	case w.d.internal != "" && out.Data.Content == w.d.internal:
		w.d.abandoned.Add(1)
		return nil, errAbandoned
	case k < kBadSignature && slices.Contains(w.d.tooLate, out.Data.Content):
		// The driver clicks as soon as it has the board: the bot's delay
		// used up the player's time. The caller fails the answer.
		w.d.refused.Add(1)
	}
	return out, nil
}

// body is a new interaction from user in the session's channel, and its
// sequence number.
func (w *worker) body(s *session, user string, typ discordgo.InteractionType, data any, m *messageJSON) ([]byte, int64) {
	n := w.d.seq.Add(1)
	perms := memberPermissions
	if s.admin {
		perms = adminPermissions
	}
	i := interactionJSON{
		ID: strconv.FormatInt(w.d.ids.interaction(n, time.Now()), 10), ApplicationID: appID, Type: typ,
		Token: interactionToken(n, m.id()), Version: 1,
		GuildID: s.guild, ChannelID: s.channel, Channel: channelJSON{ID: s.channel, Type: discordgo.ChannelTypeGuildText, GuildID: s.guild},
		Member: memberJSON{User: ptr(userJSON(user)), Roles: []string{}, JoinedAt: "2024-01-02T03:04:05.000000+00:00",
			Permissions: perms},
		AppPermissions: "2248473465835073", Locale: "en-US", GuildLocale: "en-US", Entitlements: []any{},
		Data: data, Message: m,
	}
	if s.guest {
		i.Owners = map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: s.humans[0]}
		i.Context = ptr(discordgo.InteractionContextGuild)
	}
	b, err := json127.Marshal(i)
	if err != nil {
		panic(err) // the types above always marshal
	}
	return b, n
}

func ptr[T any](v T) *T { return &v }

// A member's permissions in the channel: a player's, and an admin's, who
// may manage the guild besides.
const (
	memberPermissions = "2248473465835073"
	adminPermissions  = "2248473465835105" // memberPermissions | Manage Guild (1 << 5)
)

// Interactions as Discord sends them, with the fields a bot may read.
type (
	interactionJSON struct {
		ID             string                    `json:"id"`
		ApplicationID  string                    `json:"application_id"`
		Type           discordgo.InteractionType `json:"type"`
		Token          string                    `json:"token"`
		Version        int                       `json:"version"`
		GuildID        string                    `json:"guild_id"`
		ChannelID      string                    `json:"channel_id"`
		Channel        channelJSON               `json:"channel"`
		Member         memberJSON                `json:"member"`
		AppPermissions string                    `json:"app_permissions"`
		Locale         string                    `json:"locale"`
		GuildLocale    string                    `json:"guild_locale"`
		Entitlements   []any                     `json:"entitlements"`
		Data           any                       `json:"data"`
		Message        *messageJSON              `json:"message,omitempty"`
		// Set where the players' own install of the bot brings it, as
		// Discord sets them on every interaction since user installs.
		Owners  map[discordgo.ApplicationIntegrationType]string `json:"authorizing_integration_owners,omitempty"`
		Context *discordgo.InteractionContextType               `json:"context,omitempty"`
	}
	channelJSON struct {
		ID      string                `json:"id"`
		Type    discordgo.ChannelType `json:"type"`
		GuildID string                `json:"guild_id"`
	}
	jsonUser struct {
		ID            string  `json:"id"`
		Username      string  `json:"username"`
		GlobalName    string  `json:"global_name,omitempty"`
		Discriminator string  `json:"discriminator"`
		Avatar        *string `json:"avatar"`
		Bot           bool    `json:"bot,omitempty"`
	}
	memberJSON struct {
		User        *jsonUser `json:"user,omitempty"`
		Roles       []string  `json:"roles"`
		JoinedAt    string    `json:"joined_at"`
		Permissions string    `json:"permissions"`
	}
	jsonOption struct {
		Name    string                                 `json:"name"`
		Type    discordgo.ApplicationCommandOptionType `json:"type"`
		Value   any                                    `json:"value,omitempty"`
		Options []jsonOption                           `json:"options,omitempty"`
	}
	commandData struct {
		ID       string                           `json:"id"`
		Name     string                           `json:"name"`
		Type     discordgo.ApplicationCommandType `json:"type"`
		Options  []jsonOption                     `json:"options"`
		Resolved *resolved                        `json:"resolved,omitempty"`
	}
	resolved struct {
		Users   map[string]jsonUser   `json:"users"`
		Members map[string]memberJSON `json:"members"`
	}
	componentData struct {
		CustomID      string                  `json:"custom_id"`
		ComponentType discordgo.ComponentType `json:"component_type"`
	}
	messageJSON struct {
		ID            string                `json:"id"`
		ChannelID     string                `json:"channel_id"`
		Type          discordgo.MessageType `json:"type"`
		Content       string                `json:"content"`
		Author        jsonUser              `json:"author"`
		Components    json.RawMessage       `json:"components"`
		Timestamp     string                `json:"timestamp"`
		ApplicationID string                `json:"application_id"`
	}
)

// id is the message's ID, or "" for none: a command's interaction has no
// message.
func (m *messageJSON) id() string {
	if m == nil {
		return ""
	}
	return m.ID
}

var botJSON = jsonUser{ID: botUserID, Username: "tttbot", Discriminator: "0", Bot: true}

func userJSON(id string) jsonUser {
	i, _ := strconv.ParseInt(id, 10, 64)
	n := strconv.FormatInt(i-idUsers, 10)
	return jsonUser{ID: id, Username: "player" + n, GlobalName: "Player " + n, Discriminator: "0"}
}

// response is the bot's inline answer.
type response struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data *responseData                     `json:"data"`
	// msgID is the message a new message's answer made: @original of an
	// answer in time, or a follow-up after a deferral.
	msgID string
	late  bool // it came through the webhook, after a deferral
}

type responseData struct {
	Content    string                 `json:"content"`
	Flags      discordgo.MessageFlags `json:"flags"`
	Components json.RawMessage        `json:"components"`
}

func (r *response) ephemeral() bool {
	return r.Data != nil && r.Data.Flags&discordgo.MessageFlagsEphemeral != 0
}

func (r *response) String() string {
	if r == nil {
		return "no answer"
	}
	if r.Data == nil {
		return fmt.Sprintf("type %d", r.Type)
	}
	c := r.Data.Content
	if len(c) > 80 {
		c = c[:80] + "…"
	}
	return fmt.Sprintf("type %d flags %d %q", r.Type, r.Data.Flags, c)
}
