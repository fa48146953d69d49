package discordtest

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Components V2 (https://discord.com/developers/docs/components/reference):
// with the IS_COMPONENTS_V2 flag a message is its components alone, at most
// 40 of them counting nested ones, with at most 4000 characters of text
// displays in all.
const (
	maxV2Components = 40
	maxV2Text       = 4000
)

// Component types.
const (
	typeActionRow    = 1
	typeButton       = 2
	typeSection      = 9
	typeTextDisplay  = 10
	typeThumbnail    = 11
	typeMediaGallery = 12
	typeFile         = 13
	typeSeparator    = 14
	typeContainer    = 17
)

// Where each component may stand in a V2 message: at the top, in a
// container.
var (
	v2TopLevel  = []int{typeActionRow, typeSection, typeTextDisplay, typeMediaGallery, typeFile, typeSeparator, typeContainer}
	v2Container = []int{typeActionRow, typeSection, typeTextDisplay, typeMediaGallery, typeFile, typeSeparator}
)

// v2 tallies a V2 message's components as they are checked.
type v2 struct {
	count, text int
	customIDs   map[string]bool
	ids         map[int]bool
}

// v2Message checks the body m of a message with the components V2 flag:
// no content, embeds, stickers or poll, and its components by the V2 rules.
func (c *checker) v2Message(path string, m map[string]any) {
	if s, _ := m["content"].(string); s != "" {
		c.add(join(path, "content"), "a message with the components v2 flag (%d) cannot have content", FlagComponentsV2)
	}
	for _, key := range []string{"embeds", "sticker_ids"} {
		if list, _ := m[key].([]any); len(list) > 0 {
			c.add(join(path, key), "a message with the components v2 flag (%d) cannot have %s", FlagComponentsV2, key)
		}
	}
	if m["poll"] != nil {
		c.add(join(path, "poll"), "a message with the components v2 flag (%d) cannot have a poll", FlagComponentsV2)
	}
	comps, _ := c.optArray(join(path, "components"), m["components"])
	st := &v2{customIDs: map[string]bool{}, ids: map[int]bool{}}
	for i, comp := range comps {
		c.v2Component(join(join(path, "components"), i), comp, v2TopLevel, "at the top of a message", st)
	}
	if st.count > maxV2Components {
		c.add(join(path, "components"), "at most %d components in all, nested ones counted (got %d)", maxV2Components, st.count)
	}
	if st.text > maxV2Text {
		c.add(join(path, "components"), "text displays must total %d or fewer characters (got %d)", maxV2Text, st.text)
	}
}

// v2Component checks one component that may be of the types allowed,
// where names the place for a failure message.
func (c *checker) v2Component(path string, v any, allowed []int, where string, st *v2) {
	m, ok := v.(map[string]any)
	if !ok {
		c.add(path, "must be an object")
		return
	}
	st.count++
	if id, ok := asInt(m["id"]); ok && id != 0 {
		if st.ids[id] {
			c.add(join(path, "id"), "component id %d is used twice in the message", id)
		}
		st.ids[id] = true
	}
	t, _ := asInt(m["type"])
	if !slices.Contains(allowed, t) {
		c.add(join(path, "type"), "component type %v is not allowed %s", m["type"], where)
		return
	}
	switch t {
	case typeActionRow:
		items, _ := m["components"].([]any)
		st.count += len(items)
		c.row(path, m, st.customIDs)
	case typeButton:
		c.button(path, m, st.customIDs)
	case typeTextDisplay:
		s, _ := m["content"].(string)
		if s == "" {
			c.add(join(path, "content"), "a text display needs content")
		}
		st.text += utf8.RuneCountInString(s)
	case typeSection:
		items, _ := m["components"].([]any)
		if len(items) < 1 || len(items) > 3 {
			c.add(join(path, "components"), "a section holds 1 to 3 text displays (got %d)", len(items))
		}
		for i, it := range items {
			c.v2Component(join(join(path, "components"), i), it, []int{typeTextDisplay}, "in a section", st)
		}
		if m["accessory"] == nil {
			c.add(join(path, "accessory"), "a section needs an accessory")
			return
		}
		c.v2Component(join(path, "accessory"), m["accessory"], []int{typeButton, typeThumbnail}, "as a section's accessory", st)
	case typeThumbnail:
		c.media(join(path, "media"), m["media"])
		c.altText(join(path, "description"), m["description"])
	case typeMediaGallery:
		items, _ := m["items"].([]any)
		if len(items) < 1 || len(items) > 10 {
			c.add(join(path, "items"), "a media gallery holds 1 to 10 items (got %d)", len(items))
		}
		for i, it := range items {
			p := join(join(path, "items"), i)
			c.media(join(p, "media"), mapOf(it)["media"])
			c.altText(join(p, "description"), mapOf(it)["description"])
		}
	case typeFile:
		c.media(join(path, "file"), m["file"])
		if url, _ := mapOf(m["file"])["url"].(string); !strings.HasPrefix(url, "attachment://") {
			c.add(join(path, "file.url"), "a file component refers to an upload as attachment://name (got %q)", url)
		}
	case typeSeparator:
		if n, ok := asInt(m["spacing"]); m["spacing"] != nil && (!ok || n < 1 || n > 2) {
			c.add(join(path, "spacing"), "must be 1 (small) or 2 (large), got %v", m["spacing"])
		}
		if _, ok := m["divider"].(bool); m["divider"] != nil && !ok {
			c.add(join(path, "divider"), "must be a boolean")
		}
	case typeContainer:
		if a := m["accent_color"]; a != nil {
			if n, ok := asInt(a); !ok || n < 0 || n > 0xFFFFFF {
				c.add(join(path, "accent_color"), "must be an RGB colour from 0x000000 to 0xFFFFFF, got %v", a)
			}
		}
		items, _ := m["components"].([]any)
		if len(items) == 0 {
			c.add(join(path, "components"), "a container holds at least one component")
		}
		for i, it := range items {
			c.v2Component(join(join(path, "components"), i), it, v2Container, "in a container", st)
		}
	}
}

// media checks an unfurled media item: a URL, or an attachment://name.
func (c *checker) media(path string, v any) {
	if url, _ := mapOf(v)["url"].(string); url == "" {
		c.add(join(path, "url"), "a media item needs a url")
	}
}

func (c *checker) altText(path string, v any) {
	if s, _ := v.(string); utf8.RuneCountInString(s) > 1024 {
		c.add(path, "must be 1024 or fewer in length")
	}
}

// checkV2Edit reports how an edit payload with flags (nil when it has
// none) breaks the rule that the components V2 flag is never removed from
// a message that has it. Discord keeps the flag of an edit that omits
// flags; the server asks every edit of a V2 message to restate it, so that
// the payload, checked on its own, is checked by the V2 rules.
func checkV2Edit(old int, flags *int) []Violation {
	if old&FlagComponentsV2 == 0 || flags != nil && *flags&FlagComponentsV2 != 0 {
		return nil
	}
	return []Violation{{Path: "flags", Message: fmt.Sprintf("the components v2 flag (%d) cannot be removed from a message that has it: an edit must keep it", FlagComponentsV2)}}
}
