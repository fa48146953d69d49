package discordtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Violation is one way a payload breaks Discord's documented limits.
type Violation struct {
	// Path locates the field as Discord's error bodies do:
	// "components.0.components.5.label"; empty for the payload as a whole.
	Path    string
	Message string
}

func (v Violation) String() string {
	if v.Path == "" {
		return v.Message
	}
	return v.Path + ": " + v.Message
}

// Message flags (https://discord.com/developers/docs/resources/message#message-object-message-flags).
const (
	FlagSuppressEmbeds        = 1 << 2
	FlagEphemeral             = 1 << 6
	FlagLoading               = 1 << 7
	FlagSuppressNotifications = 1 << 12
	FlagComponentsV2          = 1 << 15
)

// Flags a bot may set: on interaction responses and follow-ups, on
// messages it posts in a channel (where ephemeral makes no sense), and on
// edits, which may set the components V2 flag but never clear it.
const (
	responseFlags = FlagSuppressEmbeds | FlagEphemeral | FlagSuppressNotifications | FlagComponentsV2
	channelFlags  = FlagSuppressEmbeds | FlagSuppressNotifications | FlagComponentsV2
	editFlags     = FlagSuppressEmbeds | FlagComponentsV2
)

// CheckMessage reports how a message payload (the body of a follow-up, an
// edit, or the data of an interaction callback) breaks Discord's limits:
// at most 5 action rows of at most 5 buttons, custom_ids of 1–100
// characters unique in the message, labels of at most 80 characters, a label
// or an emoji on every button, content of at most 2000 characters, embeds
// within their limits, and only the flags a bot may set. With the
// components V2 flag: components alone, no content, embeds, stickers or
// poll, at most 40 components counting nested ones, 4000 characters of
// text displays, each component where V2 allows it.
func CheckMessage(payload []byte) []Violation { return checkMessage(payload, responseFlags) }

func checkMessage(payload []byte, flags int) []Violation {
	var v any
	if err := json.Unmarshal(payload, &v); err != nil {
		return []Violation{{Message: "invalid JSON: " + err.Error()}}
	}
	c := &checker{}
	c.message("", v, flags)
	return c.vs
}

// CheckCommands reports how the body of a bulk overwrite of application
// commands breaks Discord's limits: names of 1–32 lower-case letters, digits,
// '-' or '_'; descriptions of 1–100 characters; at most 25 options and 25
// choices; required options first; at most 4000 characters in all, in each
// language; localizations keyed by Discord's locales, each within the
// limits of what it translates; and well-formed
// default_member_permissions, dm_permission, contexts and
// integration_types.
func CheckCommands(payload []byte) []Violation {
	var v any
	if err := json.Unmarshal(payload, &v); err != nil {
		return []Violation{{Message: "invalid JSON: " + err.Error()}}
	}
	c := &checker{}
	c.commands(v)
	return c.vs
}

type checker struct {
	vs      []Violation
	locales map[string]bool // the locales the commands are localized in
}

// Locales are the languages Discord knows, by the codes it sends as a
// user's or a guild's locale; they alone may key localizations
// (https://discord.com/developers/docs/reference#locales).
func Locales() []string {
	return []string{
		"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
		"pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
	}
}

// localizations checks a map of translations at path: keys that are
// Discord locales, each value checked by check.
func (c *checker) localizations(path string, v any, check func(path string, v any)) {
	if v == nil {
		return
	}
	m, ok := v.(map[string]any)
	if !ok {
		c.add(path, "must be an object of locale to text")
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(Locales(), k) {
			c.add(join(path, k), "%q is not a Discord locale", k)
			continue
		}
		if c.locales == nil {
			c.locales = map[string]bool{}
		}
		c.locales[k] = true
		check(join(path, k), m[k])
	}
}

// sizeIn is what a command, option or choice m counts towards the 4000
// characters in locale: its names, descriptions and values, translated
// where a translation is given.
func sizeIn(m map[string]any, locale string) int {
	text := func(key string) string {
		if l, ok := m[key+"_localizations"].(map[string]any); ok {
			if s, ok := l[locale].(string); ok {
				return s
			}
		}
		return str(m[key])
	}
	n := utf8.RuneCountInString(text("name")) + utf8.RuneCountInString(text("description"))
	switch v := m["value"].(type) {
	case string:
		n += utf8.RuneCountInString(v)
	case float64:
		n += len(strconv.FormatFloat(v, 'f', -1, 64))
	}
	for _, key := range []string{"options", "choices"} {
		list, _ := m[key].([]any)
		for _, o := range list {
			n += sizeIn(mapOf(o), locale)
		}
	}
	return n
}

func (c *checker) add(path, format string, args ...any) {
	c.vs = append(c.vs, Violation{Path: path, Message: fmt.Sprintf(format, args...)})
}

func join(path string, key any) string {
	k := fmt.Sprint(key)
	if k == "" {
		return path
	}
	if path == "" {
		return k
	}
	return path + "." + k
}

// message checks a message body at path, allowing flags.
func (c *checker) message(path string, v any, flags int) {
	m, ok := v.(map[string]any)
	if !ok {
		c.add(path, "must be an object")
		return
	}
	if f, ok := m["flags"]; ok && f != nil {
		n, isInt := asInt(f)
		switch {
		case !isInt:
			c.add(join(path, "flags"), "must be an integer")
		case n&^flags != 0:
			c.add(join(path, "flags"), "flags %d not allowed (a bot may set %d)", n&^flags, flags)
		case n&FlagComponentsV2 != 0:
			c.v2Message(path, m)
			return
		}
	}
	if s, ok := c.optString(join(path, "content"), m["content"]); ok {
		if n := utf8.RuneCountInString(s); n > 2000 {
			c.add(join(path, "content"), "must be 2000 or fewer in length (got %d)", n)
		}
	}
	ids := map[string]bool{}
	if rows, ok := c.optArray(join(path, "components"), m["components"]); ok {
		if len(rows) > 5 {
			c.add(join(path, "components"), "at most 5 action rows (got %d)", len(rows))
		}
		for i, r := range rows {
			c.row(join(join(path, "components"), i), r, ids)
		}
	}
	if embeds, ok := c.optArray(join(path, "embeds"), m["embeds"]); ok {
		if len(embeds) > 10 {
			c.add(join(path, "embeds"), "at most 10 embeds (got %d)", len(embeds))
		}
		total := 0
		for i, e := range embeds {
			total += c.embed(join(join(path, "embeds"), i), e)
		}
		if total > 6000 {
			c.add(join(path, "embeds"), "embeds must total 6000 or fewer characters (got %d)", total)
		}
	}
}

func (c *checker) row(path string, v any, ids map[string]bool) {
	m, ok := v.(map[string]any)
	if !ok {
		c.add(path, "must be an object")
		return
	}
	switch t, _ := asInt(m["type"]); {
	case t == 1:
	case t >= 9:
		c.add(join(path, "type"), "component type %d needs the components v2 flag (%d)", t, FlagComponentsV2)
		return
	default:
		c.add(join(path, "type"), "top-level components must be action rows (type 1), got %v", m["type"])
		return
	}
	items, _ := m["components"].([]any)
	if len(items) == 0 || len(items) > 5 {
		c.add(join(path, "components"), "an action row holds 1 to 5 components (got %d)", len(items))
	}
	for i, it := range items {
		p := join(join(path, "components"), i)
		cm, ok := it.(map[string]any)
		if !ok {
			c.add(p, "must be an object")
			continue
		}
		switch t, _ := asInt(cm["type"]); t {
		case 2:
			c.button(p, cm, ids)
		case 3, 5, 6, 7, 8:
			if len(items) != 1 {
				c.add(p, "a select menu must be alone in its action row")
			}
			c.selectMenu(p, cm, t, ids)
		case 4:
			c.add(join(p, "type"), "text inputs belong in modals, not messages")
		default:
			c.add(join(p, "type"), "component type %v is not allowed in an action row", cm["type"])
		}
	}
}

func (c *checker) button(path string, m map[string]any, ids map[string]bool) {
	style, _ := asInt(m["style"])
	if style < 1 || style > 5 {
		c.add(join(path, "style"), "button style must be 1 to 5 (got %v)", m["style"])
		return
	}
	label, _ := m["label"].(string)
	if n := utf8.RuneCountInString(label); n > 80 {
		c.add(join(path, "label"), "must be 80 or fewer in length (got %d)", n)
	}
	emoji, hasEmoji := m["emoji"].(map[string]any)
	if hasEmoji {
		name, _ := emoji["name"].(string)
		id, _ := emoji["id"].(string)
		if name == "" && id == "" {
			c.add(join(path, "emoji"), "an emoji needs a name or an id")
		}
	}
	// Discord trims labels, so a label of spaces counts as none.
	if strings.TrimSpace(label) == "" && !hasEmoji {
		c.add(path, "a button needs a label or an emoji")
	}
	url, _ := m["url"].(string)
	_, hasID := m["custom_id"]
	if style == 5 {
		if url == "" {
			c.add(join(path, "url"), "a link button needs a url")
		}
		if hasID {
			c.add(join(path, "custom_id"), "a link button cannot have a custom_id")
		}
		return
	}
	if url != "" {
		c.add(join(path, "url"), "only link buttons (style 5) have a url")
	}
	c.customID(join(path, "custom_id"), m["custom_id"], ids)
}

func (c *checker) selectMenu(path string, m map[string]any, typ int, ids map[string]bool) {
	c.customID(join(path, "custom_id"), m["custom_id"], ids)
	if s, _ := m["placeholder"].(string); utf8.RuneCountInString(s) > 150 {
		c.add(join(path, "placeholder"), "must be 150 or fewer in length")
	}
	if n, ok := asInt(m["min_values"]); ok && (n < 0 || n > 25) {
		c.add(join(path, "min_values"), "must be 0 to 25")
	}
	if n, ok := asInt(m["max_values"]); ok && (n < 1 || n > 25) {
		c.add(join(path, "max_values"), "must be 1 to 25")
	}
	if typ != 3 {
		return
	}
	opts, _ := m["options"].([]any)
	if len(opts) == 0 || len(opts) > 25 {
		c.add(join(path, "options"), "a string select has 1 to 25 options (got %d)", len(opts))
	}
	for i, o := range opts {
		p := join(join(path, "options"), i)
		om, _ := o.(map[string]any)
		c.length(join(p, "label"), om["label"], 1, 100)
		c.length(join(p, "value"), om["value"], 1, 100)
		if d, ok := om["description"].(string); ok && utf8.RuneCountInString(d) > 100 {
			c.add(join(p, "description"), "must be 100 or fewer in length")
		}
	}
}

func (c *checker) customID(path string, v any, ids map[string]bool) {
	id, ok := v.(string)
	if !ok || id == "" {
		c.add(path, "a custom_id is required")
		return
	}
	if n := utf8.RuneCountInString(id); n > 100 {
		c.add(path, "must be 100 or fewer in length (got %d)", n)
	}
	if ids[id] {
		c.add(path, "custom_id %q is used twice in the message", id)
	}
	ids[id] = true
}

// embed checks one embed and returns its character count.
func (c *checker) embed(path string, v any) int {
	m, ok := v.(map[string]any)
	if !ok {
		c.add(path, "must be an object")
		return 0
	}
	total := 0
	text := func(p string, v any, max int) {
		s, _ := v.(string)
		n := utf8.RuneCountInString(s)
		total += n
		if n > max {
			c.add(p, "must be %d or fewer in length (got %d)", max, n)
		}
	}
	text(join(path, "title"), m["title"], 256)
	text(join(path, "description"), m["description"], 4096)
	if f, ok := m["footer"].(map[string]any); ok {
		text(join(path, "footer.text"), f["text"], 2048)
	}
	if a, ok := m["author"].(map[string]any); ok {
		text(join(path, "author.name"), a["name"], 256)
	}
	fields, _ := m["fields"].([]any)
	if len(fields) > 25 {
		c.add(join(path, "fields"), "at most 25 fields (got %d)", len(fields))
	}
	for i, f := range fields {
		fm, _ := f.(map[string]any)
		p := join(join(path, "fields"), i)
		text(join(p, "name"), fm["name"], 256)
		text(join(p, "value"), fm["value"], 1024)
	}
	return total
}

// Command and option names: Discord's regular expression, lower case.
var nameRE = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

func (c *checker) commands(v any) {
	cmds, ok := v.([]any)
	if !ok {
		c.add("", "must be an array of commands")
		return
	}
	seen := map[string]bool{}
	chat := 0
	for i, cmd := range cmds {
		p := strconv.Itoa(i)
		m, ok := cmd.(map[string]any)
		if !ok {
			c.add(p, "must be an object")
			continue
		}
		typ := 1
		if t, ok := m["type"]; ok && t != nil {
			typ, _ = asInt(t)
		}
		name, _ := m["name"].(string)
		key := strconv.Itoa(typ) + "/" + name
		if seen[key] {
			c.add(join(p, "name"), "command %q is defined twice", name)
		}
		seen[key] = true
		c.access(p, m)
		switch typ {
		case 1:
			chat++
			c.name(join(p, "name"), m["name"])
			c.localizations(join(p, "name_localizations"), m["name_localizations"], c.name)
			c.length(join(p, "description"), m["description"], 1, 100)
			c.localizations(join(p, "description_localizations"), m["description_localizations"], c.description)
			size := utf8.RuneCountInString(name) + len([]rune(str(m["description"])))
			size += c.options(join(p, "options"), m["options"], 0)
			if size > 4000 {
				c.add(p, "a command's names, descriptions and choices must total 4000 or fewer characters (got %d)", size)
			}
			for _, l := range slices.Sorted(maps.Keys(c.locales)) {
				if size := sizeIn(m, l); size > 4000 {
					c.add(p, "a command's names, descriptions and choices must total 4000 or fewer characters in each language (got %d in %s)", size, l)
				}
			}
		case 2, 3:
			c.length(join(p, "name"), m["name"], 1, 32)
			if str(m["description"]) != "" {
				c.add(join(p, "description"), "user and message commands have no description")
			}
			if opts, _ := m["options"].([]any); len(opts) > 0 {
				c.add(join(p, "options"), "user and message commands have no options")
			}
		default:
			c.add(join(p, "type"), "command type must be 1, 2 or 3 (got %v)", m["type"])
		}
	}
	if chat > 100 {
		c.add("", "at most 100 chat input commands (got %d)", chat)
	}
}

// access checks who a command is for: default_member_permissions, a
// permission bitfield as a string of digits; dm_permission, a boolean;
// contexts (0 guild, 1 bot DM, 2 private channel) and integration_types
// (0 guild install, 1 user install), arrays of distinct known values.
func (c *checker) access(path string, m map[string]any) {
	if v, ok := m["default_member_permissions"]; ok && v != nil {
		s, isString := v.(string)
		if _, err := strconv.ParseUint(s, 10, 64); !isString || err != nil {
			c.add(join(path, "default_member_permissions"), "must be a permission bitfield as a string of digits (got %v)", v)
		}
	}
	if v, ok := m["dm_permission"]; ok && v != nil {
		if _, isBool := v.(bool); !isBool {
			c.add(join(path, "dm_permission"), "must be a boolean")
		}
	}
	for _, f := range []struct {
		key string
		max int
	}{{"contexts", 2}, {"integration_types", 1}} {
		v, ok := m[f.key]
		if !ok || v == nil {
			continue
		}
		list, isArray := v.([]any)
		if !isArray || len(list) == 0 {
			c.add(join(path, f.key), "must be a non-empty array")
			continue
		}
		seen := map[int]bool{}
		for i, e := range list {
			n, isInt := asInt(e)
			if !isInt || n < 0 || n > f.max || seen[n] {
				c.add(join(join(path, f.key), i), "must be a distinct value from 0 to %d (got %v)", f.max, e)
			}
			seen[n] = true
		}
	}
}

// options checks the options of a command (parent 0), a subcommand (1) or a
// subcommand group (2), and returns the characters they count towards the
// 4000 limit.
func (c *checker) options(path string, v any, parent int) int {
	opts, ok := c.optArray(path, v)
	if !ok {
		return 0
	}
	if len(opts) > 25 {
		c.add(path, "at most 25 options (got %d)", len(opts))
	}
	size := 0
	names := map[string]bool{}
	subs, optional := 0, false
	for i, o := range opts {
		p := join(path, i)
		m, ok := o.(map[string]any)
		if !ok {
			c.add(p, "must be an object")
			continue
		}
		typ, _ := asInt(m["type"])
		name := str(m["name"])
		c.name(join(p, "name"), m["name"])
		c.localizations(join(p, "name_localizations"), m["name_localizations"], c.name)
		c.length(join(p, "description"), m["description"], 1, 100)
		c.localizations(join(p, "description_localizations"), m["description_localizations"], c.description)
		size += utf8.RuneCountInString(name) + utf8.RuneCountInString(str(m["description"]))
		if names[name] {
			c.add(join(p, "name"), "option %q is defined twice", name)
		}
		names[name] = true
		switch {
		case typ < 1 || typ > 11:
			c.add(join(p, "type"), "option type must be 1 to 11 (got %v)", m["type"])
		case typ == 1 || typ == 2:
			subs++
			if parent == 1 || typ == 2 && parent == 2 {
				c.add(join(p, "type"), "subcommands nest at most as group > subcommand")
			}
			size += c.options(join(p, "options"), m["options"], typ)
		default:
			if parent == 2 {
				c.add(join(p, "type"), "a subcommand group holds only subcommands")
			}
			if m["required"] == true && optional {
				c.add(join(p, "required"), "required options must come before optional ones")
			}
			if m["required"] != true {
				optional = true
			}
			size += c.choices(join(p, "choices"), m, typ)
		}
	}
	if subs > 0 && subs < len(opts) {
		c.add(path, "subcommands cannot be mixed with other options")
	}
	return size
}

func (c *checker) choices(path string, opt map[string]any, typ int) int {
	choices, ok := c.optArray(path, opt["choices"])
	if !ok || len(choices) == 0 {
		return 0
	}
	if !slices.Contains([]int{3, 4, 10}, typ) {
		c.add(path, "only string, integer and number options have choices")
	}
	if opt["autocomplete"] == true {
		c.add(path, "choices and autocomplete exclude each other")
	}
	if len(choices) > 25 {
		c.add(path, "at most 25 choices (got %d)", len(choices))
	}
	size := 0
	for i, ch := range choices {
		p := join(path, i)
		m := mapOf(ch)
		c.length(join(p, "name"), m["name"], 1, 100)
		c.localizations(join(p, "name_localizations"), m["name_localizations"], func(path string, v any) { c.length(path, v, 1, 100) })
		size += utf8.RuneCountInString(str(m["name"]))
		switch val := m["value"].(type) {
		case string:
			size += utf8.RuneCountInString(val)
			if typ != 3 {
				c.add(join(p, "value"), "must be a number")
			}
			c.length(join(p, "value"), val, 1, 100)
		case float64:
			size += len(strconv.FormatFloat(val, 'f', -1, 64))
			if typ == 3 {
				c.add(join(p, "value"), "must be a string")
			}
		default:
			c.add(join(p, "value"), "a choice needs a value")
		}
	}
	return size
}

func (c *checker) name(path string, v any) {
	s, _ := v.(string)
	if !nameRE.MatchString(s) {
		c.add(path, "name %q must be 1–32 letters, digits, '-' or '_'", s)
	} else if strings.ToLower(s) != s {
		c.add(path, "name %q must be lower case", s)
	}
}

// description checks a command's or option's description.
func (c *checker) description(path string, v any) { c.length(path, v, 1, 100) }

func (c *checker) length(path string, v any, min, max int) {
	s, ok := v.(string)
	n := utf8.RuneCountInString(s)
	if !ok || n < min || n > max {
		c.add(path, "must be between %d and %d in length (got %q)", min, max, s)
	}
}

// optString returns v as a string; absent or null is no string and no
// violation.
func (c *checker) optString(path string, v any) (string, bool) {
	if v == nil {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		c.add(path, "must be a string")
	}
	return s, ok
}

func (c *checker) optArray(path string, v any) ([]any, bool) {
	if v == nil {
		return nil, false
	}
	a, ok := v.([]any)
	if !ok {
		c.add(path, "must be an array")
	}
	return a, ok
}

func asInt(v any) (int, bool) {
	f, ok := v.(float64)
	if !ok || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

func str(v any) string { s, _ := v.(string); return s }

func mapOf(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// formError is Discord's 400 body for an invalid form: the violations
// nested by path under "errors", each leaf holding "_errors".
func formError(vs []Violation) map[string]any {
	errs := map[string]any{}
	for _, v := range vs {
		node := errs
		if v.Path != "" {
			for _, seg := range strings.Split(v.Path, ".") {
				next, ok := node[seg].(map[string]any)
				if !ok {
					next = map[string]any{}
					node[seg] = next
				}
				node = next
			}
		}
		list, _ := node["_errors"].([]any)
		node["_errors"] = append(list, map[string]any{"code": "INVALID", "message": v.Message})
	}
	return map[string]any{"code": 50035, "message": "Invalid Form Body", "errors": errs}
}
