package discordtest

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Interaction is an interaction pushed to the bot. Its methods wait for the
// bot's answer.
type Interaction struct {
	ID        string
	Token     string
	AppID     string
	Type      discordgo.InteractionType
	User      User
	GuildID   string // empty in a DM
	ChannelID string
	Context   discordgo.InteractionContextType
	// Owners are the installs that authorised it, as
	// authorizing_integration_owners: "0" → the guild, "1" → the user.
	Owners    map[string]string
	MessageID string // the clicked message, for a component interaction
	Payload   []byte // the INTERACTION_CREATE data as dispatched

	srv  *Server
	what string // for failure messages: "/ttt challenge by alice"

	// guarded by srv.mu
	timestamp     string // the signed request's, when delivered to an endpoint
	signature     string
	sent          time.Time
	created       time.Time // by the server's clock, which ages the token
	resp          *Response
	original      string // the @original message's ID, once answered
	originalEdits int    // its edits when the callback came
	followups     []string
}

// Response is the bot's callback to an interaction.
type Response struct {
	Type discordgo.InteractionResponseType
	Data json.RawMessage // as sent
	// Message is the interaction's message right after the callback: the
	// message posted (4), the "thinking…" placeholder (5), the clicked
	// message (6), or the clicked message as updated (7). Nil for a modal.
	Message *Message
}

// Ephemeral reports whether the response is a message only its user sees.
func (r *Response) Ephemeral() bool { return r.Message != nil && r.Message.Ephemeral() }

// Option is an option of a slash command invocation.
type Option struct {
	name  string
	typ   discordgo.ApplicationCommandOptionType
	value any
	user  *User
}

// ChannelOption is a channel option: the value is the channel's ID, resolved.
func ChannelOption(name, channelID string) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionChannel, value: channelID}
}

// RoleOption is a role option: the value is the role's ID (from NewRole),
// resolved.
func RoleOption(name, roleID string) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionRole, value: roleID}
}

// UserOption is a user option: the value is u's ID and u is resolved.
func UserOption(name string, u User) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionUser, value: u.ID, user: &u}
}

// StringOption is a string option.
func StringOption(name, value string) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionString, value: value}
}

// IntOption is an integer option.
func IntOption(name string, value int) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionInteger, value: value}
}

// BoolOption is a boolean option.
func BoolOption(name string, value bool) Option {
	return Option{name: name, typ: discordgo.ApplicationCommandOptionBoolean, value: value}
}

// Slash has user run a slash command in a channel: command is the command
// with its subcommand group and subcommand, "ttt challenge". Once the bot
// has registered commands, the invocation must fit them (names, types,
// choices, required options), as Discord's client ensures; otherwise the
// test fails. It waits for the bot to be connected.
func (s *Server) Slash(tb testing.TB, user User, channelID, command string, opts ...Option) *Interaction {
	tb.Helper()
	path := strings.Fields(command)
	if len(path) == 0 || len(path) > 3 {
		tb.Fatalf("discordtest: Slash: command %q: want \"name [group] [subcommand]\"", command)
	}
	s.mu.Lock()
	guild := s.channel(channelID)
	cmdID, err := s.checkInvocation(guild, path, opts)
	if err != nil {
		s.mu.Unlock()
		tb.Fatalf("discordtest: /%s: %v", command, err)
	}
	in := s.newInteraction(discordgo.InteractionApplicationCommand, user, channelID, guild, nil)
	if cmd := s.command(guild, path[0]); cmd != nil {
		if err := checkInstall(cmd, in.Context, in.Owners); err != nil {
			s.mu.Unlock()
			tb.Fatalf("discordtest: /%s: %v", command, err)
		}
	}
	in.what = fmt.Sprintf("/%s by %s", command, user.Username)

	leaf := []any{}
	users, members, channels, roles := map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}
	for _, o := range opts {
		leaf = append(leaf, map[string]any{"type": o.typ, "name": o.name, "value": o.value})
		switch id, _ := o.value.(string); {
		case o.user != nil:
			s.addKnownUser(*o.user)
			users[o.user.ID] = o.user.wire()
			members[o.user.ID] = member(*o.user, false, !s.restricted[guild])
		case o.typ == discordgo.ApplicationCommandOptionChannel:
			channels[id] = map[string]any{"id": id, "type": 0, "name": "channel-" + id, "guild_id": s.channel(id),
				"permissions": strconv.Itoa(permissions)}
		case o.typ == discordgo.ApplicationCommandOptionRole:
			roles[id] = map[string]any{"id": id, "name": s.roles[id], "color": 0, "hoist": false, "position": 1,
				"permissions": "0", "managed": false, "mentionable": false, "flags": 0}
		}
	}
	options := leaf
	for i := len(path) - 1; i >= 1; i-- {
		typ := discordgo.ApplicationCommandOptionSubCommand
		if i < len(path)-1 {
			typ = discordgo.ApplicationCommandOptionSubCommandGroup
		}
		options = []any{map[string]any{"type": typ, "name": path[i], "options": options}}
	}
	data := map[string]any{"id": cmdID, "name": path[0], "type": discordgo.ChatApplicationCommand, "options": options}
	resolved := map[string]any{}
	if len(users) > 0 {
		resolved["users"] = users
		if guild != "" {
			resolved["members"] = members
		}
	}
	if len(channels) > 0 {
		resolved["channels"] = channels
	}
	if len(roles) > 0 {
		resolved["roles"] = roles
	}
	if len(resolved) > 0 {
		data["resolved"] = resolved
	}
	if guild != "" {
		data["guild_id"] = guild
	}
	payload := s.interactionPayload(in, data, nil)
	s.mu.Unlock()
	s.send(tb, in, payload)
	return in
}

// Click has user click the button customID on a message. The message must
// show that button, enabled, now; the interaction carries the message as it
// is now. It waits for the bot to be connected.
func (s *Server) Click(tb testing.TB, user User, msg *Message, customID string) *Interaction {
	tb.Helper()
	return s.click(tb, user, msg, customID, true)
}

// ClickStale is Click without checking the button: a click from a client
// still showing an older version of the message, or a forged custom_id.
func (s *Server) ClickStale(tb testing.TB, user User, msg *Message, customID string) *Interaction {
	tb.Helper()
	return s.click(tb, user, msg, customID, false)
}

func (s *Server) click(tb testing.TB, user User, msg *Message, customID string, check bool) *Interaction {
	tb.Helper()
	if msg == nil {
		tb.Fatalf("discordtest: Click on a nil message")
	}
	s.mu.Lock()
	m := s.messages[msg.ID]
	var problem string
	switch {
	case m == nil || m.deleted:
		problem = "the message does not exist"
	case m.Ephemeral() && m.inter != nil && m.inter.User.ID != user.ID:
		problem = "the message is ephemeral and only " + m.inter.User.Username + " sees it"
	case check && !slices.ContainsFunc(m.Buttons(), func(b Button) bool { return b.CustomID == customID && !b.Disabled }):
		problem = "the message shows no enabled button with that custom_id:\n" + m.String()
	}
	if problem != "" {
		s.mu.Unlock()
		tb.Fatalf("discordtest: %s cannot click %q on message %s: %s", user.Username, customID, msg.ID, problem)
	}
	in := s.newInteraction(discordgo.InteractionMessageComponent, user, m.ChannelID, s.channel(m.ChannelID), m)
	in.MessageID = m.ID
	in.what = fmt.Sprintf("click on %q by %s", customID, user.Username)
	data := map[string]any{"custom_id": customID, "component_type": discordgo.ButtonComponent}
	payload := s.interactionPayload(in, data, m.wire())
	s.mu.Unlock()
	s.send(tb, in, payload)
	return in
}

// channel is the guild of a channel ("" for a DM); a channel the test made
// up joins the guild. s.mu must be held.
func (s *Server) channel(id string) string {
	g, known := s.channels[id]
	if !known {
		g = s.opts.GuildID
		s.channels[id] = g
	}
	return g
}

func (s *Server) addKnownUser(u User) {
	if _, known := s.users[u.ID]; !known {
		s.users[u.ID] = u
	}
}

// newInteraction registers an interaction, a click when on is the clicked
// message. s.mu must be held.
func (s *Server) newInteraction(typ discordgo.InteractionType, user User, channelID, guild string, on *Message) *Interaction {
	s.addKnownUser(user)
	in := &Interaction{
		ID: s.newID(), Token: rand.Text() + rand.Text(), AppID: s.opts.ApplicationID,
		Type: typ, User: user, GuildID: guild, ChannelID: channelID, srv: s,
		Context: s.context(channelID), Owners: s.owners(user, channelID, on), created: s.now(),
	}
	s.interactions[in.ID] = in
	s.byToken[in.Token] = in
	return in
}

// Permissions of members and of the bot in every channel: view, send,
// embed, attach, read history, react, external emojis, use commands.
const permissions = 1<<10 | 1<<11 | 1<<14 | 1<<15 | 1<<16 | 1<<6 | 1<<18 | 1<<31

// member is u as a member of a guild; externalApps is whether members there
// may use apps they installed themselves publicly.
func member(u User, withUser, externalApps bool) map[string]any {
	perms := int64(permissions)
	if externalApps {
		perms |= discordgo.PermissionUseExternalApps
	}
	if u.Admin {
		perms |= discordgo.PermissionManageGuild
	}
	m := map[string]any{
		"roles": append([]string{}, u.Roles...), "joined_at": time.Now().Add(-time.Hour).Format(time.RFC3339Nano),
		"deaf": false, "mute": false, "flags": 0, "pending": false, "nick": nil, "avatar": nil,
		"permissions": strconv.FormatInt(perms, 10),
	}
	if withUser {
		m["user"] = u.wire()
	}
	return m
}

// interactionPayload is an INTERACTION_CREATE's data. s.mu must be held.
func (s *Server) interactionPayload(in *Interaction, data, msg map[string]any) []byte {
	ch := map[string]any{"id": in.ChannelID, "type": 1}
	locale := in.User.Locale
	if locale == "" {
		locale = "en-US"
	}
	if typ := s.private[in.ChannelID]; typ != 0 {
		ch["type"] = typ
	}
	p := map[string]any{
		"id": in.ID, "application_id": in.AppID, "type": in.Type, "token": in.Token, "version": 1,
		"channel_id": in.ChannelID, "channel": ch, "data": data,
		"locale": locale, "app_permissions": s.appPermissions(in.ChannelID), "entitlements": []any{},
		"context": in.Context, "authorizing_integration_owners": in.Owners,
	}
	if in.GuildID != "" {
		ch["type"], ch["guild_id"] = 0, in.GuildID
		p["guild_id"], p["guild_locale"] = in.GuildID, s.opts.GuildLocale
		p["member"] = member(in.User, true, !s.restricted[in.GuildID])
	} else {
		p["user"] = in.User.wire()
	}
	if msg != nil {
		p["message"] = msg
	}
	out, err := json.Marshal(p)
	if err != nil {
		panic(err) // only our own maps of strings and numbers
	}
	in.Payload = out
	return out
}

// send pushes an interaction to the bot, over the gateway or to its
// endpoint, and starts its deadline.
func (s *Server) send(tb testing.TB, in *Interaction, payload []byte) {
	tb.Helper()
	s.mu.Lock()
	ep := s.endpoint
	s.mu.Unlock()
	if ep != nil {
		s.deliver(tb, ep, in, payload)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
	defer cancel()
	err := s.push(ctx, in.GuildID, "INTERACTION_CREATE", json.RawMessage(payload), func() { in.sent = time.Now() })
	if err != nil {
		tb.Fatalf("discordtest: %s: no bot on the gateway: %v", in.what, err)
	}
}

// command is the chat command name registered in guild or globally, or nil.
// s.mu must be held.
func (s *Server) command(guild, name string) *discordgo.ApplicationCommand {
	for _, c := range slices.Concat(s.commands[guild], s.commands[""]) {
		if c.Type == discordgo.ChatApplicationCommand && c.Name == name {
			return c
		}
	}
	return nil
}

// checkInvocation checks a command against those registered in guild and
// globally, and returns the command's ID. With none registered anywhere
// there is nothing to check. s.mu must be held.
func (s *Server) checkInvocation(guild string, path []string, opts []Option) (string, error) {
	if len(s.commands) == 0 {
		return s.newID(), nil
	}
	cmd := s.command(guild, path[0])
	if cmd == nil {
		return "", fmt.Errorf("the bot registered no command %q here", path[0])
	}
	level := cmd.Options
	for _, name := range path[1:] {
		i := slices.IndexFunc(level, func(o *discordgo.ApplicationCommandOption) bool {
			return o.Name == name && (o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup)
		})
		if i < 0 {
			return "", fmt.Errorf("no subcommand %q", name)
		}
		level = level[i].Options
	}
	given := map[string]bool{}
	for _, o := range opts {
		i := slices.IndexFunc(level, func(d *discordgo.ApplicationCommandOption) bool { return d.Name == o.name })
		if i < 0 {
			return "", fmt.Errorf("no option %q", o.name)
		}
		if err := checkValue(level[i], o); err != nil {
			return "", err
		}
		if given[o.name] {
			return "", fmt.Errorf("option %q given twice", o.name)
		}
		given[o.name] = true
	}
	for _, d := range level {
		switch {
		case d.Type == discordgo.ApplicationCommandOptionSubCommand || d.Type == discordgo.ApplicationCommandOptionSubCommandGroup:
			return "", fmt.Errorf("a subcommand is needed, such as %q", d.Name)
		case d.Required && !given[d.Name]:
			return "", fmt.Errorf("required option %q missing", d.Name)
		}
	}
	return cmd.ID, nil
}

// checkValue checks a value against its option's definition.
func checkValue(d *discordgo.ApplicationCommandOption, o Option) error {
	if d.Type != o.typ {
		return fmt.Errorf("option %q is a %s, not a %s", o.name, d.Type, o.typ)
	}
	if len(d.Choices) > 0 && !slices.ContainsFunc(d.Choices, func(c *discordgo.ApplicationCommandOptionChoice) bool {
		return fmt.Sprint(c.Value) == fmt.Sprint(o.value)
	}) {
		return fmt.Errorf("option %q: %v is none of its choices", o.name, o.value)
	}
	switch v := o.value.(type) {
	case int:
		if d.MinValue != nil && float64(v) < *d.MinValue || d.MaxValue != 0 && float64(v) > d.MaxValue {
			return fmt.Errorf("option %q: %d is out of its range", o.name, v)
		}
	case string:
		if d.MinLength != nil && len([]rune(v)) < *d.MinLength || d.MaxLength != 0 && len([]rune(v)) > d.MaxLength {
			return fmt.Errorf("option %q: %q has a length out of its range", o.name, v)
		}
	}
	return nil
}

// Wait waits for the bot's callback and returns it.
func (i *Interaction) Wait(tb testing.TB) *Response {
	tb.Helper()
	var r *Response
	i.srv.waitTB(tb, func() string { return "the bot to answer " + i.what }, func() bool {
		r = i.resp
		return r != nil
	})
	return r
}

// Result waits for the message the interaction ends up showing: the one the
// callback posted or updated, or, after a deferral (5 or 6), the message
// once the bot has edited it.
func (i *Interaction) Result(tb testing.TB) *Message {
	tb.Helper()
	r := i.Wait(tb)
	switch r.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseUpdateMessage:
		return r.Message
	case discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate:
		var m *Message
		i.srv.waitTB(tb, func() string { return "the bot to edit its deferred answer to " + i.what }, func() bool {
			if cur := i.srv.messages[i.original]; cur != nil && cur.Edits > i.originalEdits {
				m = cur.copy()
			}
			return m != nil
		})
		return m
	}
	tb.Fatalf("discordtest: %s was answered with response type %d, which shows no message", i.what, r.Type)
	return nil
}

// Original is the interaction's @original message as it is now, or nil
// before the callback.
func (i *Interaction) Original() *Message {
	i.srv.mu.Lock()
	defer i.srv.mu.Unlock()
	if m := i.srv.messages[i.original]; m != nil && !m.deleted {
		return m.copy()
	}
	return nil
}

// Followups lists the follow-up messages the bot posted, oldest first.
func (i *Interaction) Followups() []*Message {
	i.srv.mu.Lock()
	defer i.srv.mu.Unlock()
	var out []*Message
	for _, id := range i.followups {
		out = append(out, i.srv.messages[id].copy())
	}
	return out
}
