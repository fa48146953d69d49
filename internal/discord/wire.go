package discord

import (
	"encoding/json"
	"fmt"

	"github.com/bwmarrin/discordgo"
	json127 "github.com/go-json-experiment/json/v1"
)

// Interactions are decoded with json127: Go 1.27's encoding/json, whose v1
// API runs on the encoding/json/v2 engine, from the module that mirrors it
// for Go 1.26. It decodes a board click in 60% of Go 1.26's time; it
// encodes a board response in twice the time, so encoding stays with the
// standard library. On Go 1.27 both are encoding/json.

// decodeInteraction decodes an interaction's body in one pass of json127.
// discordgo's own decoder re-reads the clicked message's components through
// nested json.Unmarshal calls — the message, then each row, then each
// button, each validating its bytes again — which under load cost a tenth
// of the bot's CPU. The clicked message keeps every field but its
// components, of which only the buttons in action rows are kept, at the
// top or in a container (a components V2 board): the buttons are all the
// handlers read.
func decodeInteraction(body []byte) (*discordgo.Interaction, error) {
	return decodeWith(json127.Unmarshal, body)
}

// decodeWith is decodeInteraction with the decoder passed in, so that a test
// can hold json127 to the standard library's results.
func decodeWith(unmarshal func([]byte, any) error, body []byte) (*discordgo.Interaction, error) {
	var w struct {
		interactionFields
		Data    json127.RawMessage `json:"data"`
		Message *struct {
			messageFields
			Components []struct {
				Type       discordgo.ComponentType `json:"type"`
				ID         int                     `json:"id"`
				Components []struct {
					inButton
					Components []inButton `json:"components"`
				} `json:"components"`
			} `json:"components"`
		} `json:"message"`
	}
	if err := unmarshal(body, &w); err != nil {
		return nil, err
	}
	i := discordgo.Interaction(w.interactionFields)
	var err error
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		i.Data, err = decodeData[discordgo.ApplicationCommandInteractionData](unmarshal, w.Data)
	case discordgo.InteractionMessageComponent:
		i.Data, err = decodeData[discordgo.MessageComponentInteractionData](unmarshal, w.Data)
	case discordgo.InteractionModalSubmit:
		i.Data, err = decodeData[discordgo.ModalSubmitInteractionData](unmarshal, w.Data)
	}
	if err != nil {
		return nil, err
	}
	if m := w.Message; m != nil {
		i.Message = (*discordgo.Message)(&m.messageFields)
		i.Message.Components = nil
		for _, top := range m.Components {
			switch top.Type {
			case discordgo.ActionsRowComponent:
				bs := make([]inButton, len(top.Components))
				for k, c := range top.Components {
					bs[k] = c.inButton
				}
				i.Message.Components = appendRow(i.Message.Components, top.ID, bs)
			case discordgo.ContainerComponent:
				box := &discordgo.Container{ID: top.ID}
				for _, c := range top.Components {
					if c.Type == discordgo.ActionsRowComponent {
						box.Components = appendRow(box.Components, c.ID, c.Components)
					}
				}
				i.Message.Components = append(i.Message.Components, box)
			}
		}
	}
	return &i, nil
}

// inButton is a component of a clicked message as decodeInteraction reads
// it: a button, or, for the rows of a container, a row.
type inButton struct {
	Type discordgo.ComponentType `json:"type"`
	discordgo.Button
}

// appendRow appends to rows an action row of the buttons among cs, which
// it points into.
func appendRow(rows []discordgo.MessageComponent, id int, cs []inButton) []discordgo.MessageComponent {
	r := &discordgo.ActionsRow{ID: id, Components: make([]discordgo.MessageComponent, 0, len(cs))}
	for k := range cs {
		if cs[k].Type == discordgo.ButtonComponent {
			r.Components = append(r.Components, &cs[k].Button)
		}
	}
	return append(rows, r)
}

// interactionFields and messageFields are discordgo's types without their
// UnmarshalJSON methods, so that the decoder fills their fields directly;
// decodeInteraction shadows the fields those methods exist for.
type (
	interactionFields discordgo.Interaction
	messageFields     discordgo.Message
)

func decodeData[T discordgo.InteractionData](unmarshal func([]byte, any) error, raw []byte) (discordgo.InteractionData, error) {
	var v T
	if err := unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("interaction data: %w", err)
	}
	return v, nil
}

// encodeResponse encodes r as discordgo would, but without its components'
// MarshalJSON methods: each of those marshals its component on its own, and
// encoding/json then validates and compacts the result again at every level
// of rows and buttons. Components of kinds the bot does not send keep their
// methods.
func encodeResponse(r *discordgo.InteractionResponse) ([]byte, error) {
	if r.Data == nil || len(r.Data.Components) == 0 && r.Data.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 && len(r.Data.Files) == 0 {
		return json.Marshal(r)
	}
	m := newWireMessage(r.Data, r.Data.Flags)
	return json.Marshal(struct {
		Type discordgo.InteractionResponseType `json:"type,omitempty"`
		Data any                               `json:"data"`
	}{r.Type, struct {
		*responseFields
		Content     *string          `json:"content"`
		Embeds      any              `json:"embeds"`
		Components  []any            `json:"components"`
		Attachments []wireAttachment `json:"attachments,omitempty"`
	}{(*responseFields)(r.Data), m.Content, m.Embeds, m.Components, m.Attachments}})
}

func wireComponents(cs []discordgo.MessageComponent) []any {
	out := make([]any, len(cs))
	var buttons []wireButton // those among cs, in one allocation
	button := func(b discordgo.Button) any {
		if buttons == nil {
			buttons = make([]wireButton, 0, len(cs))
		}
		buttons = append(buttons, newWireButton(b))
		return &buttons[len(buttons)-1]
	}
	for i, c := range cs {
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			out[i] = wireRow{wireComponents(c.Components), c.ID, c.Type()}
		case discordgo.ActionsRow:
			out[i] = wireRow{wireComponents(c.Components), c.ID, c.Type()}
		case *discordgo.Container:
			out[i] = wireContainer{(*containerFields)(c), wireComponents(c.Components), c.Type()}
		case *discordgo.Button:
			out[i] = button(*c)
		case discordgo.Button:
			out[i] = button(c)
		default:
			out[i] = c
		}
	}
	return out
}

type wireRow struct {
	Components []any                   `json:"components"`
	ID         int                     `json:"id,omitempty"`
	Type       discordgo.ComponentType `json:"type"`
}

type wireContainer struct {
	*containerFields
	Components []any                   `json:"components"`
	Type       discordgo.ComponentType `json:"type"`
}

type wireButton struct {
	buttonFields
	Type discordgo.ComponentType `json:"type"`
}

func newWireButton(b discordgo.Button) wireButton {
	if b.Style == 0 {
		b.Style = discordgo.PrimaryButton // as discordgo does
	}
	return wireButton{buttonFields(b), b.Type()}
}

// responseFields, buttonFields and containerFields are discordgo's types
// without their methods, for encodeResponse.
type (
	responseFields  discordgo.InteractionResponseData
	buttonFields    discordgo.Button
	containerFields discordgo.Container
)
