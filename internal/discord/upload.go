package discord

import (
	"encoding/json"

	"github.com/bwmarrin/discordgo"
)

// wireMessage is what a message body carries beyond discordgo's fields,
// for callbacks, follow-ups and edits alike. Under the components V2 flag
// content is null and embeds are []: Discord refuses a V2 message with
// either, and an edit that makes a message V2 must clear those it had
// with these very values. Attachments list the files uploaded with the
// body, so that an edit keeps them: Discord keeps only the files an edit
// lists.
type wireMessage struct {
	Content     *string          `json:"content"`
	Embeds      any              `json:"embeds,omitempty"`
	Components  []any            `json:"components"`
	Attachments []wireAttachment `json:"attachments,omitempty"`
}

type wireAttachment struct {
	ID       int    `json:"id"` // the n of the upload's files[n]
	Filename string `json:"filename"`
}

func newWireMessage(d *discordgo.InteractionResponseData, flags discordgo.MessageFlags) wireMessage {
	m := wireMessage{Content: &d.Content, Components: wireComponents(d.Components)}
	if len(d.Embeds) > 0 {
		m.Embeds = d.Embeds
	}
	if flags&discordgo.MessageFlagsIsComponentsV2 != 0 {
		m.Content, m.Embeds = nil, []any{}
	}
	for i, f := range d.Files {
		m.Attachments = append(m.Attachments, wireAttachment{i, f.Name})
	}
	return m
}

// messageBody encodes d as the body of a follow-up (edit false) or of an
// edit: JSON, or, with files, multipart. An edit sets only the flags an
// edit may: the components V2 flag, which Discord lets an edit add but
// never remove, and suppress-embeds.
func messageBody(d *discordgo.InteractionResponseData, edit bool) (string, []byte, error) {
	flags := d.Flags
	if edit {
		flags &= discordgo.MessageFlagsIsComponentsV2 | discordgo.MessageFlagsSuppressEmbeds
	}
	body := struct {
		wireMessage
		AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions,omitempty"`
		Flags           discordgo.MessageFlags            `json:"flags,omitempty"`
	}{newWireMessage(d, flags), d.AllowedMentions, flags}
	b, err := json.Marshal(body)
	if err != nil {
		return "", nil, err
	}
	return withFiles(b, d.Files)
}

// withFiles returns the body and content type of a call whose JSON is
// payload: payload itself, or, when files come with it, multipart/form-data
// with payload in payload_json and file n in files[n], as Discord takes
// uploads. It reads the files: each call is encoded once, and a retry
// sends the same bytes.
func withFiles(payload []byte, files []*discordgo.File) (string, []byte, error) {
	if len(files) == 0 {
		return "application/json", payload, nil
	}
	return discordgo.MultipartBodyWithJSON(json.RawMessage(payload), files)
}

// responseBody encodes an interaction's answer, with the files of its
// message.
func responseBody(r *discordgo.InteractionResponse) (string, []byte, error) {
	b, err := encodeResponse(r)
	if err != nil || r.Data == nil {
		return "application/json", b, err
	}
	return withFiles(b, r.Data.Files)
}
