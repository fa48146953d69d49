package web

import (
	"embed"
	"fmt"
	"html/template"
	"io"

	"github.com/tttbot/tttbot/internal/i18n"
)

//go:embed templates
var templateFiles embed.FS

// templates are the pages, each parsed with the shared layout.
type templates struct{ byName map[string]*template.Template }

func loadTemplates() (*templates, error) {
	t := &templates{byName: map[string]*template.Template{}}
	for _, name := range []string{"leaderboard", "profile", "game", "tournament", "error"} {
		p, err := template.ParseFS(templateFiles, "templates/base.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web template %s: %w", name, err)
		}
		t.byName[name] = p
	}
	return t, nil
}

func (t *templates) execute(w io.Writer, name string, v view) error {
	return t.byName[name].ExecuteTemplate(w, "base", v)
}

// view is what every page's template gets: the language, the assets and
// the page's own data.
type view struct {
	Lang          string
	Style, Script string
	Icon          string
	Page          any
	l             *i18n.Language
}

// T is message id in the page's language.
func (v view) T(id string) string { return v.l.T(id, nil) }

// scripted pages load the replay's script.
type scripted interface{ script() bool }

func (s *Server) view(l *i18n.Language, data any) view {
	v := view{Lang: l.Code(), Style: s.assets.url("style.css"), Icon: s.assets.url("favicon.svg"), Page: data, l: l}
	if p, ok := data.(scripted); ok && p.script() {
		v.Script = s.assets.url("replay.js")
	}
	return v
}
