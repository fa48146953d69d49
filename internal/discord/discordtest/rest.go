package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The REST routes the server answers, by method and path below the API
// base, as Call.Route names them.
const (
	RouteGateway              = "GET /gateway"
	RouteGatewayBot           = "GET /gateway/bot"
	RouteUser                 = "GET /users/{user}"
	RouteApplication          = "GET /applications/{application}"
	RouteGlobalCommands       = "GET /applications/{application}/commands"
	RouteOverwriteGlobal      = "PUT /applications/{application}/commands"
	RouteGuildCommands        = "GET /applications/{application}/guilds/{guild}/commands"
	RouteOverwriteGuild       = "PUT /applications/{application}/guilds/{guild}/commands"
	RouteCallback             = "POST /interactions/{interaction}/{token}/callback"
	RouteFollowup             = "POST /webhooks/{application}/{token}"
	RouteWebhookMessage       = "GET /webhooks/{application}/{token}/messages/{message}"
	RouteEditWebhookMessage   = "PATCH /webhooks/{application}/{token}/messages/{message}"
	RouteDeleteWebhookMessage = "DELETE /webhooks/{application}/{token}/messages/{message}"
	RouteCreateMessage        = "POST /channels/{channel}/messages"
	RouteChannelMessage       = "GET /channels/{channel}/messages/{message}"
	RouteEditChannelMessage   = "PATCH /channels/{channel}/messages/{message}"
	RouteDeleteChannelMessage = "DELETE /channels/{channel}/messages/{message}"
	RouteGuildEmojis          = "GET /guilds/{guild}/emojis"
)

type route struct {
	name   string
	method string
	segs   []string
	auth   bool // needs the bot token; interaction routes carry their own
	handle func(*Server, *request) reply
}

func newRoute(name string, auth bool, h func(*Server, *request) reply) route {
	method, path, _ := strings.Cut(name, " ")
	return route{name: name, method: method, segs: strings.Split(path[1:], "/"), auth: auth, handle: h}
}

var routes = []route{
	newRoute(RouteGateway, false, (*Server).getGateway),
	newRoute(RouteGatewayBot, true, (*Server).getGatewayBot),
	newRoute(RouteUser, true, (*Server).getUser),
	newRoute(RouteApplication, true, (*Server).getApplication),
	newRoute(RouteGlobalCommands, true, (*Server).getCommands),
	newRoute(RouteOverwriteGlobal, true, (*Server).putCommands),
	newRoute(RouteGuildCommands, true, (*Server).getCommands),
	newRoute(RouteOverwriteGuild, true, (*Server).putCommands),
	newRoute(RouteCallback, false, (*Server).callback),
	newRoute(RouteFollowup, false, (*Server).followup),
	newRoute(RouteWebhookMessage, false, (*Server).getWebhookMessage),
	newRoute(RouteEditWebhookMessage, false, (*Server).editWebhookMessage),
	newRoute(RouteDeleteWebhookMessage, false, (*Server).deleteWebhookMessage),
	newRoute(RouteCreateMessage, true, (*Server).createMessage),
	newRoute(RouteChannelMessage, true, (*Server).getChannelMessage),
	newRoute(RouteEditChannelMessage, true, (*Server).editChannelMessage),
	newRoute(RouteDeleteChannelMessage, true, (*Server).deleteChannelMessage),
	newRoute(RouteGuildEmojis, true, (*Server).guildEmojis),
}

// match finds the route for a path below the API base and its parameters.
func match(method, path string) (*route, map[string]string) {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i := range routes {
		r := &routes[i]
		if r.method != method || len(r.segs) != len(segs) {
			continue
		}
		params := map[string]string{}
		ok := true
		for j, want := range r.segs {
			if strings.HasPrefix(want, "{") {
				params[strings.Trim(want, "{}")] = segs[j]
			} else if want != segs[j] {
				ok = false
				break
			}
		}
		if ok {
			return r, params
		}
	}
	return nil, nil
}

func ok(body any) reply { return reply{http.StatusOK, body} }

var noContent = reply{status: http.StatusNoContent}

func (s *Server) getGateway(*request) reply {
	return ok(map[string]any{"url": s.GatewayURL()})
}

func (s *Server) getGatewayBot(*request) reply {
	s.resetStarts()
	return ok(map[string]any{
		"url":    s.GatewayURL(),
		"shards": s.opts.Shards,
		"session_start_limit": map[string]any{
			"total": s.opts.SessionStarts, "remaining": s.startsLeft,
			"reset_after":     max(time.Until(s.startsReset).Milliseconds(), 0),
			"max_concurrency": s.opts.MaxConcurrency,
		},
	})
}

func (s *Server) getUser(req *request) reply {
	id := req.param("user")
	if id == "@me" {
		id = s.bot.ID
	}
	u, found := s.users[id]
	if !found {
		return apiError(http.StatusNotFound, 10013, "Unknown User")
	}
	return ok(u.wire())
}

func (s *Server) getApplication(req *request) reply {
	if id := req.param("application"); id != "@me" && id != s.opts.ApplicationID {
		return apiError(http.StatusNotFound, 10002, "Unknown Application")
	}
	return ok(map[string]any{
		"id": s.opts.ApplicationID, "name": s.bot.Username, "description": "",
		"bot_public": true, "bot": s.bot.wire(), "flags": 0,
	})
}

// commandScope is the guild ("" for global) a commands route addresses.
func (s *Server) commandScope(req *request) (string, *reply) {
	if req.param("application") != s.opts.ApplicationID {
		r := apiError(http.StatusForbidden, 20012, "You are not authorized to perform this action on this application")
		return "", &r
	}
	g, guildRoute := req.params["guild"]
	if guildRoute && !slices.Contains(s.guilds, g) {
		r := apiError(http.StatusForbidden, 50001, "Missing Access")
		return "", &r
	}
	return g, nil
}

func (s *Server) getCommands(req *request) reply {
	g, fail := s.commandScope(req)
	if fail != nil {
		return *fail
	}
	return ok(append([]*discordgo.ApplicationCommand{}, s.commands[g]...))
}

// putCommands is a bulk overwrite: the commands replace those in scope,
// keeping the IDs of those with the same type and name, as Discord does.
func (s *Server) putCommands(req *request) reply {
	g, fail := s.commandScope(req)
	if fail != nil {
		return *fail
	}
	if vs := CheckCommands(req.Body); len(vs) > 0 {
		return s.invalid(req, "", vs)
	}
	var cmds []*discordgo.ApplicationCommand
	if err := json.Unmarshal(req.Body, &cmds); err != nil {
		return s.invalid(req, "", []Violation{{Message: err.Error()}})
	}
	old := s.commands[g]
	for _, c := range cmds {
		if c.Type == 0 {
			c.Type = discordgo.ChatApplicationCommand
		}
		c.ID = s.newID()
		for _, o := range old {
			if o.Type == c.Type && o.Name == c.Name {
				c.ID = o.ID
			}
		}
		c.ApplicationID, c.GuildID, c.Version = s.opts.ApplicationID, g, s.newID()
	}
	s.commands[g] = cmds
	return ok(cmds)
}

// Commands returns the commands registered in a guild, or globally for "".
func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*discordgo.ApplicationCommand(nil), s.commands[guildID]...)
}

// callback is the bot's first answer to an interaction.
func (s *Server) callback(req *request) reply {
	in := s.interactions[req.param("interaction")]
	if in == nil || in.Token != req.param("token") {
		return apiError(http.StatusNotFound, 10062, "Unknown interaction")
	}
	if in.resp != nil {
		return apiError(http.StatusBadRequest, 40060, "Interaction has already been acknowledged.")
	}
	if late := time.Since(in.sent); late > s.opts.CallbackDeadline {
		s.tb.Errorf("discordtest: interaction %s answered after %v, past Discord's %v: the user saw \"This interaction failed\"",
			in.ID, late.Round(time.Millisecond), s.opts.CallbackDeadline)
		return apiError(http.StatusNotFound, 10062, "Unknown interaction")
	}
	var body struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return s.invalid(req, "", []Violation{{Message: "invalid JSON: " + err.Error()}})
	}
	resp := &Response{Type: body.Type, Data: body.Data}
	component := in.Type == discordgo.InteractionMessageComponent
	switch {
	case body.Type == discordgo.InteractionResponseChannelMessageWithSource:
		m, rep := s.post(req, "data", body.Data, responseFlags, in.ChannelID, in)
		if m == nil {
			return rep
		}
		if s.forcedEphemeral(in) {
			m.Flags |= FlagEphemeral
		}
		in.original = m.ID
	case body.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource:
		var data struct {
			Flags int `json:"flags"`
		}
		json.Unmarshal(body.Data, &data)
		// The message the deferral makes becomes V2 only through an edit
		// of @original.
		if f := data.Flags&^responseFlags | data.Flags&FlagComponentsV2; f != 0 {
			return s.invalid(req, "data.flags", []Violation{{Message: fmt.Sprintf("flags %d not allowed", f)}})
		}
		m := s.newMessage(in.ChannelID, in)
		m.Flags = FlagLoading | data.Flags&FlagEphemeral
		if s.forcedEphemeral(in) {
			m.Flags |= FlagEphemeral
		}
		s.store(m)
		in.original = m.ID
	case body.Type == discordgo.InteractionResponseDeferredMessageUpdate && component:
		in.original = in.MessageID
	case body.Type == discordgo.InteractionResponseUpdateMessage && component:
		m := s.messages[in.MessageID]
		if m == nil || m.deleted {
			return apiError(http.StatusNotFound, 10008, "Unknown Message")
		}
		if rep, edited := s.edit(req, "data", body.Data, m); !edited {
			return rep
		}
		in.original = m.ID
	case body.Type == discordgo.InteractionResponseModal:
		var data map[string]any
		json.Unmarshal(body.Data, &data)
		c := &checker{}
		c.length("data.custom_id", data["custom_id"], 1, 100)
		c.length("data.title", data["title"], 1, 45)
		if len(c.vs) > 0 {
			return s.invalid(req, "", c.vs)
		}
	default:
		return s.invalid(req, "type", []Violation{{Message: fmt.Sprintf("response type %d does not answer a %s interaction", body.Type, in.Type)}})
	}
	if m := s.messages[in.original]; m != nil {
		resp.Message = m.copy()
		in.originalEdits = m.Edits
	}
	in.resp = resp
	return noContent
}

// post checks a message payload and posts it. On failure it returns a nil
// message and the answer.
func (s *Server) post(req *request, prefix string, raw []byte, flags int, channelID string, in *Interaction) (*Message, reply) {
	if vs := append(checkMessage(raw, flags), s.checkEmojis(raw)...); len(vs) > 0 {
		return nil, s.invalid(req, prefix, vs)
	}
	var body map[string]json.RawMessage
	json.Unmarshal(raw, &body)
	m := s.newMessage(channelID, in)
	if err := m.apply(body); err != nil {
		return nil, s.invalid(req, prefix, []Violation{{Message: err.Error()}})
	}
	if vs := s.attach(m, body, req.Files, false); len(vs) > 0 {
		return nil, s.invalid(req, prefix, vs)
	}
	var f int
	json.Unmarshal(body["flags"], &f)
	m.Flags = f
	if m.empty() {
		return nil, s.emptyMessage(req)
	}
	s.store(m)
	return m, reply{}
}

// edit checks an edit payload and applies it to m; edited is false when it
// was refused with rep.
func (s *Server) edit(req *request, prefix string, raw []byte, m *Message) (rep reply, edited bool) {
	var body map[string]json.RawMessage
	json.Unmarshal(raw, &body)
	var flags *int
	if f, ok := body["flags"]; ok {
		json.Unmarshal(f, &flags)
	}
	if vs := checkV2Edit(m.Flags, flags); len(vs) > 0 {
		return s.invalid(req, prefix, vs), false
	}
	if vs := append(checkMessage(raw, editFlags), s.checkEmojis(raw)...); len(vs) > 0 {
		return s.invalid(req, prefix, vs), false
	}
	c := m.copy()
	if err := c.apply(body); err != nil {
		return s.invalid(req, prefix, []Violation{{Message: err.Error()}}), false
	}
	if vs := s.attach(c, body, req.Files, true); len(vs) > 0 {
		return s.invalid(req, prefix, vs), false
	}
	if flags != nil {
		c.Flags = c.Flags&^FlagSuppressEmbeds | *flags&(FlagSuppressEmbeds|FlagComponentsV2)
	}
	if c.Flags&FlagComponentsV2 != 0 && (c.Content != "" || len(c.Embeds) > 0) {
		return s.invalid(req, prefix, []Violation{{Path: "content", Message: fmt.Sprintf(
			"an edit that sets the components v2 flag (%d) must clear the message's content and embeds (null, [])", FlagComponentsV2)}}), false
	}
	if c.empty() {
		return s.emptyMessage(req), false
	}
	c.Flags &^= FlagLoading
	c.Edits++
	c.edited = time.Now()
	*m = *c
	return reply{}, true
}

func (s *Server) emptyMessage(req *request) reply {
	s.tb.Errorf("discordtest: %s %s posts an empty message (no content, components or embeds): %s", req.Method, req.Path, req.Body)
	return apiError(http.StatusBadRequest, 50006, "Cannot send an empty message")
}

// webhook is the interaction a webhook route's token belongs to.
func (s *Server) webhook(req *request) (*Interaction, *reply) {
	in := s.byToken[req.param("token")]
	if in == nil || req.param("application") != in.AppID {
		r := apiError(http.StatusNotFound, 10015, "Unknown Webhook")
		return nil, &r
	}
	if s.now().Sub(in.created) >= tokenLife {
		r := expired()
		return nil, &r
	}
	return in, nil
}

// webhookMessage is @original or a follow-up of the interaction.
func (s *Server) webhookMessage(req *request) (*Message, *reply) {
	in, fail := s.webhook(req)
	if fail != nil {
		return nil, fail
	}
	if in.resp == nil {
		// Its webhook exists once the interaction is answered.
		r := apiError(http.StatusNotFound, 10015, "Unknown Webhook")
		return nil, &r
	}
	id := req.param("message")
	if id == "@original" {
		id = in.original
	} else if id != in.original && !slices.Contains(in.followups, id) {
		id = ""
	}
	m := s.messages[id]
	if m == nil || m.deleted {
		r := apiError(http.StatusNotFound, 10008, "Unknown Message")
		return nil, &r
	}
	return m, nil
}

func (s *Server) getWebhookMessage(req *request) reply {
	m, fail := s.webhookMessage(req)
	if fail != nil {
		return *fail
	}
	return ok(m.wire())
}

func (s *Server) editWebhookMessage(req *request) reply {
	m, fail := s.webhookMessage(req)
	if fail != nil {
		return *fail
	}
	if rep, edited := s.edit(req, "", req.Body, m); !edited {
		return rep
	}
	return ok(m.wire())
}

func (s *Server) deleteWebhookMessage(req *request) reply {
	m, fail := s.webhookMessage(req)
	if fail != nil {
		return *fail
	}
	m.deleted = true
	return noContent
}

// followup posts a follow-up message; the first one after a deferred
// channel message fills in the "thinking…" message, as on Discord.
func (s *Server) followup(req *request) reply {
	in, fail := s.webhook(req)
	if fail != nil {
		return *fail
	}
	if in.resp == nil {
		return apiError(http.StatusNotFound, 10015, "Unknown Webhook")
	}
	var m *Message
	if orig := s.messages[in.original]; orig != nil && orig.Flags&FlagLoading != 0 && len(in.followups) == 0 {
		if vs := checkMessage(req.Body, responseFlags); len(vs) > 0 {
			return s.invalid(req, "", vs)
		}
		var data struct {
			Flags int `json:"flags"`
		}
		if json.Unmarshal(req.Body, &data); data.Flags&FlagComponentsV2 != 0 {
			return s.invalid(req, "flags", []Violation{{Message: "a deferred message becomes a components v2 one through an edit of @original, not a follow-up"}})
		}
		if rep, edited := s.edit(req, "", stripFlags(req.Body), orig); !edited {
			return rep
		}
		m = orig
	} else {
		if in.userInstalled() && len(in.followups) >= maxUserFollowups {
			return tooManyFollowups()
		}
		var rep reply
		if m, rep = s.post(req, "", req.Body, responseFlags, in.ChannelID, in); m == nil {
			return rep
		}
		if s.forcedEphemeral(in) {
			m.Flags |= FlagEphemeral
		}
		in.followups = append(in.followups, m.ID)
	}
	if q, _ := url.ParseQuery(req.Query); q.Get("wait") != "true" {
		return noContent
	}
	return ok(m.wire())
}

// stripFlags drops a payload's flags: those of a deferred message were set
// by the deferral.
func stripFlags(raw []byte) []byte {
	var body map[string]json.RawMessage
	if json.Unmarshal(raw, &body) != nil {
		return raw
	}
	delete(body, "flags")
	out, _ := json.Marshal(body)
	return out
}

func (s *Server) createMessage(req *request) reply {
	ch := req.param("channel")
	if _, known := s.channels[ch]; !known {
		return apiError(http.StatusNotFound, 10003, "Unknown Channel")
	}
	if !s.botChannel(ch) {
		return missingAccess()
	}
	m, rep := s.post(req, "", req.Body, channelFlags, ch, nil)
	if m == nil {
		return rep
	}
	return ok(m.wire())
}

// channelMessage is a message the bot can see in the channel: ephemeral
// ones are the interaction's alone.
func (s *Server) channelMessage(req *request) (*Message, *reply) {
	if _, known := s.channels[req.param("channel")]; known && !s.botChannel(req.param("channel")) {
		r := missingAccess()
		return nil, &r
	}
	m := s.messages[req.param("message")]
	if m == nil || m.deleted || m.Ephemeral() || m.ChannelID != req.param("channel") {
		r := apiError(http.StatusNotFound, 10008, "Unknown Message")
		return nil, &r
	}
	return m, nil
}

func (s *Server) getChannelMessage(req *request) reply {
	m, fail := s.channelMessage(req)
	if fail != nil {
		return *fail
	}
	return ok(m.wire())
}

func (s *Server) editChannelMessage(req *request) reply {
	m, fail := s.channelMessage(req)
	if fail != nil {
		return *fail
	}
	if rep, edited := s.edit(req, "", req.Body, m); !edited {
		return rep
	}
	return ok(m.wire())
}

func (s *Server) deleteChannelMessage(req *request) reply {
	m, fail := s.channelMessage(req)
	if fail != nil {
		return *fail
	}
	m.deleted = true
	return noContent
}

// guildEmojis lists the custom emojis of the bot's guild; the bot is in no
// other.
func (s *Server) guildEmojis(req *request) reply {
	g := req.param("guild")
	if g != s.opts.GuildID {
		return apiError(http.StatusForbidden, 50001, "Missing Access")
	}
	out := []any{}
	for _, e := range s.emojis {
		if e.GuildID != g {
			continue
		}
		out = append(out, map[string]any{"id": e.ID, "name": e.Name, "animated": e.Animated, "available": true,
			"managed": false, "require_colons": true, "roles": append([]string{}, e.Roles...)})
	}
	return ok(out)
}

// checkEmojis reports the custom emojis of a message's buttons that the
// bot cannot use, as Discord refuses them: unknown ones, and those of
// guilds the bot is not in. s.mu must be held.
func (s *Server) checkEmojis(raw []byte) []Violation {
	var m struct {
		Components []struct {
			Components []struct {
				Emoji *struct {
					ID   string `json:"id"`
					Name string `json:"name"`
				} `json:"emoji"`
			} `json:"components"`
		} `json:"components"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return nil // checkMessage says why
	}
	var vs []Violation
	for i, row := range m.Components {
		for j, c := range row.Components {
			if c.Emoji == nil || c.Emoji.ID == "" {
				continue
			}
			if e, ok := s.emojis[c.Emoji.ID]; !ok || e.GuildID != s.opts.GuildID {
				vs = append(vs, Violation{Path: fmt.Sprintf("components.%d.components.%d.emoji.id", i, j), Message: "Invalid emoji"})
			}
		}
	}
	return vs
}
