package i18n

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/nicksnyder/go-i18n/v2/i18n/template"
)

// fields is the template language of the catalogs: text with values filled
// in, {{.Name}}, and nothing else. go-i18n's default, text/template, spent
// most of a board's rendering on reflection for the same result; the
// catalogs need no logic, and a text that tries some fails to parse.
type fields struct{}

func (fields) Cacheable() bool { return true }

// Parse splits src into literal runs and the names between them.
func (fields) Parse(src, left, right string) (template.ParsedTemplate, error) {
	if left == "" {
		left = "{{"
	}
	if right == "" {
		right = "}}"
	}
	var t filled
	for {
		i := strings.Index(src, left)
		if i < 0 {
			t.parts = append(t.parts, src)
			return &t, nil
		}
		j := strings.Index(src[i:], right)
		if j < 0 {
			return nil, fmt.Errorf("%q opens an action it does not close", src)
		}
		name := strings.TrimSpace(src[i+len(left) : i+j])
		if !strings.HasPrefix(name, ".") || len(name) == 1 || strings.ContainsFunc(name[1:], func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
		}) {
			return nil, fmt.Errorf("%q: only values, such as {{.Name}}, can be filled in, not {{%s}}", src, name)
		}
		t.parts = append(t.parts, src[:i])
		t.names = append(t.names, name[1:])
		src = src[i+j+len(right):]
	}
}

// filled is a parsed text: parts[0], the value of names[0], parts[1], ...
type filled struct {
	parts []string
	names []string
}

func (t *filled) Execute(data any) (string, error) {
	if len(t.names) == 0 {
		return t.parts[0], nil
	}
	values, ok := data.(map[string]any)
	if !ok {
		return "", fmt.Errorf("template data is %T, not a map", data)
	}
	var b strings.Builder
	for i, name := range t.names {
		b.WriteString(t.parts[i])
		v, ok := values[name]
		if !ok {
			return "", fmt.Errorf("no value for {{.%s}}", name)
		}
		if s, ok := v.(string); ok {
			b.WriteString(s)
		} else {
			fmt.Fprint(&b, v)
		}
	}
	b.WriteString(t.parts[len(t.names)])
	return b.String(), nil
}
