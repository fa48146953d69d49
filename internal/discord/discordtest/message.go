package discordtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Message is a message as the server keeps it. Those the server returns
// are copies: later edits do not change them.
type Message struct {
	ID        string
	ChannelID string
	GuildID   string
	Content   string
	// Components are the action rows, as the bot sent them.
	Components []Component
	Embeds     []json.RawMessage
	// Attachments are the files attached to the message.
	Attachments []Attachment
	Flags       int
	// Edits counts the edits since the message was posted.
	Edits int
	// InteractionID is the interaction the message answers, if any.
	InteractionID string

	author    User
	inter     *Interaction
	msgType   int
	created   time.Time
	edited    time.Time
	rawComps  json.RawMessage
	rawEmbeds json.RawMessage
	deleted   bool
}

// Component is a message component: an action row, a button, a select
// menu, or one of components V2's.
type Component struct {
	Type       discordgo.ComponentType   `json:"type"`
	ID         int                       `json:"id,omitempty"`
	Style      discordgo.ButtonStyle     `json:"style,omitempty"`
	Label      string                    `json:"label,omitempty"`
	Emoji      *discordgo.ComponentEmoji `json:"emoji,omitempty"`
	CustomID   string                    `json:"custom_id,omitempty"`
	URL        string                    `json:"url,omitempty"`
	Disabled   bool                      `json:"disabled,omitempty"`
	Components []Component               `json:"components,omitempty"`
	// Content is a text display's.
	Content string `json:"content,omitempty"`
	// AccentColor is a container's.
	AccentColor *int `json:"accent_color,omitempty"`
	// Accessory is a section's.
	Accessory *Component `json:"accessory,omitempty"`
	// Items are a media gallery's.
	Items []MediaItem `json:"items,omitempty"`
	// Media is a thumbnail's, File a file component's.
	Media *Media `json:"media,omitempty"`
	File  *Media `json:"file,omitempty"`
}

// MediaItem is an item of a media gallery.
type MediaItem struct {
	Media       Media  `json:"media"`
	Description string `json:"description,omitempty"`
}

// Media is an unfurled media item: a URL, or attachment://name.
type Media struct {
	URL string `json:"url"`
}

// V2 reports whether the message has the components V2 flag.
func (m *Message) V2() bool { return m.Flags&FlagComponentsV2 != 0 }

// Text is what the message says: its content, or, with components V2, its
// text displays (in containers and sections too), one a line.
func (m *Message) Text() string {
	if !m.V2() {
		return m.Content
	}
	var lines []string
	var walk func([]Component)
	walk = func(cs []Component) {
		for _, c := range cs {
			if c.Type == discordgo.TextDisplayComponent {
				lines = append(lines, c.Content)
			}
			walk(c.Components)
		}
	}
	walk(m.Components)
	return strings.Join(lines, "\n")
}

// Container is the message's first container, or nil.
func (m *Message) Container() *Component {
	for i := range m.Components {
		if m.Components[i].Type == discordgo.ContainerComponent {
			return &m.Components[i]
		}
	}
	return nil
}

// rows lists the message's action rows: at the top, and in containers.
func (m *Message) rows() []Component {
	var rows []Component
	for _, c := range m.Components {
		switch c.Type {
		case discordgo.ActionsRowComponent:
			rows = append(rows, c)
		case discordgo.ContainerComponent:
			for _, in := range c.Components {
				if in.Type == discordgo.ActionsRowComponent {
					rows = append(rows, in)
				}
			}
		}
	}
	return rows
}

// Button is a button of a message with its place: row and column from 0.
type Button struct {
	Row, Col int
	Style    discordgo.ButtonStyle
	Label    string
	Emoji    string // the emoji's name, or its ID for a custom one
	CustomID string
	URL      string
	Disabled bool
}

// Ephemeral reports whether only the user who caused the message sees it.
func (m *Message) Ephemeral() bool { return m.Flags&FlagEphemeral != 0 }

// Buttons lists the message's buttons row by row.
func (m *Message) Buttons() []Button {
	var out []Button
	for _, row := range m.Grid() {
		out = append(out, row...)
	}
	return out
}

// Grid is the message's buttons by action row, those in containers
// included: Grid()[row][col].
func (m *Message) Grid() [][]Button {
	var grid [][]Button
	for r, row := range m.rows() {
		var bs []Button
		for c, comp := range row.Components {
			if comp.Type != discordgo.ButtonComponent {
				continue
			}
			b := Button{Row: r, Col: c, Style: comp.Style, Label: comp.Label, CustomID: comp.CustomID, URL: comp.URL, Disabled: comp.Disabled}
			if e := comp.Emoji; e != nil {
				b.Emoji = e.Name
				if e.ID != "" {
					b.Emoji = e.ID
				}
			}
			bs = append(bs, b)
		}
		grid = append(grid, bs)
	}
	return grid
}

// FindButton returns the first button for which ok is true.
func (m *Message) FindButton(ok func(Button) bool) (Button, bool) {
	for _, b := range m.Buttons() {
		if ok(b) {
			return b, true
		}
	}
	return Button{}, false
}

// Button returns the first button labelled label, failing the test if there
// is none.
func (m *Message) Button(tb testing.TB, label string) Button {
	tb.Helper()
	b, ok := m.FindButton(func(b Button) bool { return b.Label == label })
	if !ok {
		tb.Fatalf("discordtest: no button labelled %q in message:\n%s", label, m)
	}
	return b
}

// ButtonWithID returns the first button whose custom_id starts with prefix,
// failing the test if there is none.
func (m *Message) ButtonWithID(tb testing.TB, prefix string) Button {
	tb.Helper()
	b, ok := m.FindButton(func(b Button) bool { return strings.HasPrefix(b.CustomID, prefix) })
	if !ok {
		tb.Fatalf("discordtest: no button with a custom_id starting %q in message:\n%s", prefix, m)
	}
	return b
}

// String shows the message for failure messages: its content, then its
// buttons row by row as [label] (disabled ones as (label)).
func (m *Message) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "message %s (flags %d): %q", m.ID, m.Flags, m.Text())
	for _, row := range m.Grid() {
		b.WriteString("\n ")
		for _, bt := range row {
			l := bt.Label
			if l == "" {
				l = bt.Emoji
			}
			if bt.Disabled {
				fmt.Fprintf(&b, " (%s)", l)
			} else {
				fmt.Fprintf(&b, " [%s]", l)
			}
		}
	}
	return b.String()
}

// copy returns a snapshot of m for callers outside the lock.
func (m *Message) copy() *Message {
	c := *m
	return &c
}

// apply sets the fields a create or edit payload carries: a field present
// (even null, which clears it) replaces the old value, an absent one stays.
func (m *Message) apply(body map[string]json.RawMessage) error {
	if raw, ok := body["content"]; ok {
		var s *string
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("content: %w", err)
		}
		m.Content = ""
		if s != nil {
			m.Content = *s
		}
	}
	if raw, ok := body["components"]; ok {
		var comps []Component
		if err := json.Unmarshal(raw, &comps); err != nil {
			return fmt.Errorf("components: %w", err)
		}
		m.Components, m.rawComps = comps, nil
		if len(comps) > 0 {
			m.rawComps = raw
		}
	}
	if raw, ok := body["embeds"]; ok {
		var embeds []json.RawMessage
		if err := json.Unmarshal(raw, &embeds); err != nil {
			return fmt.Errorf("embeds: %w", err)
		}
		m.Embeds, m.rawEmbeds = embeds, nil
		if len(embeds) > 0 {
			m.rawEmbeds = raw
		}
	}
	return nil
}

// empty reports whether Discord would refuse the message as empty.
func (m *Message) empty() bool {
	return m.Content == "" && len(m.Components) == 0 && len(m.Embeds) == 0 && len(m.Attachments) == 0
}

// wire is the message as Discord's API returns it.
func (m *Message) wire() map[string]any {
	w := map[string]any{
		"id":               m.ID,
		"channel_id":       m.ChannelID,
		"author":           m.author.wire(),
		"content":          m.Content,
		"timestamp":        m.created.Format(time.RFC3339Nano),
		"edited_timestamp": nil,
		"tts":              false,
		"mention_everyone": false,
		"mentions":         []any{},
		"mention_roles":    []any{},
		"attachments":      m.wireAttachments(),
		"embeds":           rawOr(m.rawEmbeds),
		"components":       rawOr(m.rawComps),
		"pinned":           false,
		"type":             m.msgType,
		"flags":            m.Flags,
	}
	if m.GuildID != "" {
		w["guild_id"] = m.GuildID
	}
	if !m.edited.IsZero() {
		w["edited_timestamp"] = m.edited.Format(time.RFC3339Nano)
	}
	if in := m.inter; in != nil {
		w["webhook_id"] = in.AppID
		w["application_id"] = in.AppID
		w["interaction_metadata"] = map[string]any{"id": in.ID, "type": in.Type, "user": in.User.wire(),
			"authorizing_integration_owners": in.Owners}
	}
	return w
}

func (m *Message) wireAttachments() []any {
	out := []any{}
	for _, a := range m.Attachments {
		url := "https://cdn.discordapp.com/attachments/" + m.ChannelID + "/" + a.ID + "/" + a.Filename
		out = append(out, map[string]any{"id": a.ID, "filename": a.Filename, "size": len(a.Data),
			"url": url, "proxy_url": url, "content_type": a.ContentType})
	}
	return out
}

func rawOr(raw json.RawMessage) any {
	if raw == nil {
		return []any{}
	}
	return raw
}

// wire is the user as Discord's API returns it.
func (u User) wire() map[string]any {
	return map[string]any{
		"id":            u.ID,
		"username":      u.Username,
		"discriminator": "0",
		"global_name":   nil,
		"avatar":        nil,
		"bot":           u.Bot,
		"public_flags":  0,
	}
}

// Message returns the message as it is now, or nil if there is none (or it
// was deleted).
func (s *Server) Message(channelID, messageID string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[messageID]
	if m == nil || m.deleted || m.ChannelID != channelID {
		return nil
	}
	return m.copy()
}

// Messages lists the messages everyone sees in a channel, oldest first:
// not the ephemeral ones, nor the deleted.
func (s *Server) Messages(channelID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, id := range s.order {
		m := s.messages[id]
		if m.ChannelID == channelID && !m.deleted && !m.Ephemeral() {
			out = append(out, m.copy())
		}
	}
	return out
}

// WaitMessage waits until the message exists and ok is true of it, and
// returns it; for edits that come later, as when a timer expires a game.
func (s *Server) WaitMessage(tb testing.TB, channelID, messageID string, ok func(*Message) bool) *Message {
	tb.Helper()
	var last *Message
	s.waitTB(tb, func() string { return fmt.Sprintf("message %s to change; it is now: %v", messageID, last) }, func() bool {
		m := s.messages[messageID]
		if m == nil || m.deleted || m.ChannelID != channelID {
			return false
		}
		last = m.copy()
		return ok(last)
	})
	return last
}

// newMessage starts a message from the bot; store posts it. s.mu must be
// held.
func (s *Server) newMessage(channelID string, in *Interaction) *Message {
	m := &Message{
		ID:        s.newID(),
		ChannelID: channelID,
		GuildID:   s.channels[channelID],
		author:    s.bot,
		inter:     in,
		created:   time.Now(),
	}
	if in != nil {
		m.InteractionID = in.ID
		if in.Type == discordgo.InteractionApplicationCommand {
			m.msgType = 20 // CHAT_INPUT_COMMAND
		}
	}
	return m
}

// store posts m. s.mu must be held.
func (s *Server) store(m *Message) {
	s.messages[m.ID] = m
	s.order = append(s.order, m.ID)
}
