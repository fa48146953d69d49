// Package i18n picks and fills translations: message catalogs in
// go-i18n's TOML files, one per locale and named by its code
// ("de.toml", "pt-BR.toml"), with CLDR plural rules; the catalog that
// answers a Discord locale, falling back by language and region to the
// source; and numbers written as each language writes them. It holds no
// text of its own: the catalogs live with the package that says things.
package i18n

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/pelletier/go-toml/v2"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Catalog is a set of languages loaded from message files. It is immutable
// once loaded and safe for concurrent use.
type Catalog struct {
	source  *Language
	langs   map[string]*Language // by code: For answers these at once, others through the matcher
	codes   []string             // the source first, then the others sorted
	files   map[string][]*goi18n.Message
	matcher language.Matcher // over codes, in that order
	tags    []language.Tag
}

// Language is one catalog of a Catalog. The zero value is not usable; get
// one from a Catalog.
type Language struct {
	code    string
	loc     *goi18n.Localizer
	printer *message.Printer
	// plainDigits: the language writes numbers below 1,000 as Go does, so
	// Int skips the printer for them, which boards fill in by the dozen.
	plainDigits bool
}

// Load reads every *.toml file at the root of fsys as the catalog of the
// locale its name gives; source is the code of the catalog the others
// translate and fall back to.
func Load(fsys fs.FS, source string) (*Catalog, error) {
	names, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		return nil, fmt.Errorf("list message files: %w", err)
	}
	srcTag, err := language.Parse(source)
	if err != nil {
		return nil, fmt.Errorf("source locale %q: %w", source, err)
	}
	b := goi18n.NewBundle(srcTag)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	c := &Catalog{langs: map[string]*Language{}, files: map[string][]*goi18n.Message{}}
	for _, name := range names {
		code := strings.TrimSuffix(path.Base(name), ".toml")
		tag, err := language.Parse(code)
		if err != nil {
			return nil, fmt.Errorf("message file %s: locale %q: %w", name, code, err)
		}
		f, err := b.LoadMessageFileFS(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("message file %s: %w", name, err)
		}
		if f.Tag != tag {
			return nil, fmt.Errorf("message file %s: read as %s, not %s", name, f.Tag, tag)
		}
		c.files[code] = f.Messages
		l := &Language{code: code, loc: goi18n.NewLocalizer(b, code), printer: message.NewPrinter(tag)}
		l.plainDigits = l.printer.Sprint(number.Decimal(-987)) == "-987"
		c.langs[code] = l
		c.codes = append(c.codes, code)
	}
	var ok bool
	if c.source, ok = c.langs[source]; !ok {
		return nil, fmt.Errorf("no message file for the source locale %q", source)
	}
	slices.SortFunc(c.codes, func(a, b string) int {
		switch {
		case a == source:
			return -1
		case b == source:
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, code := range c.codes {
		c.tags = append(c.tags, language.Make(code))
	}
	c.matcher = language.NewMatcher(c.tags)
	return c, nil
}

// match is the language closest to locale, when it is close enough to be
// read by its speakers (en-GB → en-US, es-MX → es-419, pt-PT → pt-BR),
// else the source.
func (c *Catalog) match(locale string) *Language {
	tag, err := language.Parse(locale)
	if err != nil {
		return c.source
	}
	_, i, conf := c.matcher.Match(tag)
	if conf < language.High {
		return c.source
	}
	return c.langs[c.codes[i]]
}

// For is the language to speak to someone whose Discord locale is locale:
// its own catalog, the closest one, or the source.
func (c *Catalog) For(locale string) *Language {
	if l, ok := c.langs[locale]; ok {
		return l
	}
	if locale == "" {
		return c.source
	}
	return c.match(locale)
}

// Lookup returns the language with exactly this code.
func (c *Catalog) Lookup(code string) (*Language, bool) {
	l, ok := c.langs[code]
	return l, ok
}

// Source is the language the others translate.
func (c *Catalog) Source() *Language { return c.source }

// Codes lists the catalogs' codes, the source first.
func (c *Catalog) Codes() []string { return slices.Clone(c.codes) }

// Messages returns the messages of the catalog code as its file holds
// them, for checks of translations against the source.
func (c *Catalog) Messages(code string) []*goi18n.Message { return c.files[code] }

// Code is the language's locale code, which is its file's name.
func (l *Language) Code() string { return l.code }

// T is message id filled with data. Int values in data are quantities,
// written as the language writes numbers; identifiers go in as strings.
// A message missing from the language comes from the source, and one
// missing there too is its ID: the catalog tests make sure neither
// happens.
func (l *Language) T(id string, data map[string]any) string {
	return l.localize(id, nil, data)
}

// N is message id in the plural form for n, filled with data and with n
// as "Count".
func (l *Language) N(id string, n int, data map[string]any) string {
	return l.localize(id, n, data)
}

// localize fills message id with a copy of data whose ints are written in
// the language's digits: the caller's map may be worded again, in another
// language or on another goroutine.
func (l *Language) localize(id string, count any, data map[string]any) string {
	var filled map[string]any // nil for a message without data: most of them
	if len(data) > 0 || count != nil {
		filled = make(map[string]any, len(data)+1)
	}
	for k, v := range data {
		if n, ok := v.(int); ok {
			v = l.Int(n)
		}
		filled[k] = v
	}
	if n, ok := count.(int); ok {
		filled["Count"] = l.Int(n)
	}
	s, err := l.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: filled, PluralCount: count, TemplateParser: fields{}})
	var missing *goi18n.MessageNotFoundErr
	if err != nil && (s == "" || !errors.As(err, &missing)) {
		return id
	}
	return s
}

// Int writes n with the language's digit grouping: 1,500, 1.500, 1 500.
func (l *Language) Int(n int) string {
	if l.plainDigits && n > -1000 && n < 1000 {
		return strconv.Itoa(n)
	}
	return l.printer.Sprint(number.Decimal(n))
}
