package i18n

import "golang.org/x/text/language"

// ForAccept is the language to speak to a browser that sent header, an
// HTTP Accept-Language: the first of its languages, in its order of
// preference, that a catalog answers closely enough to be read by its
// speakers, as For matches a Discord locale; else the source.
func (c *Catalog) ForAccept(header string) *Language {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil {
		return c.source
	}
	for _, tag := range tags {
		if l, ok := c.langs[tag.String()]; ok {
			return l
		}
		if _, i, conf := c.matcher.Match(tag); conf >= language.High {
			return c.langs[c.codes[i]]
		}
	}
	return c.source
}
