package commands

import (
	"image/gif"
	"image/png"
	"io"
	"path"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestPictures: a game's pictures and the chart of /ttt stats come as
// components V2 messages whose gallery shows each uploaded file, with its
// alt text; the files decode as what they are named.
func TestPictures(t *testing.T) {
	got := map[string]*discordgo.InteractionResponseData{}
	for _, r := range tour(t, mustCatalog(), sourceLocale) {
		got[r.what] = r.data
	}
	tests := []struct {
		what    string
		files   []string // the files' extensions
		private bool
	}{
		{"pictures", []string{".gif", ".png"}, true},
		{"pictures of a game against the bot", []string{".gif", ".png"}, true},
		{"stats", []string{".png"}, false},
		{"stats of the loser", []string{".png"}, false},
		{"stats of a newcomer", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.what, func(t *testing.T) {
			d := got[tt.what]
			if d == nil {
				t.Fatalf("the tour has no %q", tt.what)
			}
			if private := d.Flags&discordgo.MessageFlagsEphemeral != 0; private != tt.private {
				t.Errorf("private: got %t, want %t", private, tt.private)
			}
			if len(d.Files) != len(tt.files) {
				t.Fatalf("got %d files, want %d", len(d.Files), len(tt.files))
			}
			if len(tt.files) == 0 {
				if d.Flags&discordgo.MessageFlagsIsComponentsV2 != 0 || d.Content == "" {
					t.Errorf("without pictures: flags %b, content %q; want a plain message", d.Flags, d.Content)
				}
				return
			}
			if d.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 || d.Content != "" {
				t.Errorf("flags %b, content %q: want components V2, without content", d.Flags, d.Content)
			}
			var g *discordgo.MediaGallery
			for _, c := range d.Components {
				if mg, ok := c.(discordgo.MediaGallery); ok {
					g = &mg
				}
			}
			if g == nil || len(g.Items) != len(d.Files) {
				t.Fatalf("gallery %+v: want one item per file", g)
			}
			for k, f := range d.Files {
				item := g.Items[k]
				if item.Media.URL != "attachment://"+f.Name || item.Description == nil || *item.Description == "" {
					t.Errorf("gallery item %d: %+v, want attachment://%s with alt text", k, item, f.Name)
				}
				if ext := path.Ext(f.Name); ext != tt.files[k] {
					t.Errorf("file %d: %s, want %s", k, f.Name, tt.files[k])
				}
				decode(t, f)
			}
		})
	}
}

// decode decodes f as its name says it is.
func decode(t *testing.T, f *discordgo.File) {
	t.Helper()
	var err error
	switch path.Ext(f.Name) {
	case ".gif":
		var g *gif.GIF
		if g, err = gif.DecodeAll(f.Reader); err == nil && len(g.Image) < 2 {
			t.Errorf("%s: %d frames, want a move's and the held one at least", f.Name, len(g.Image))
		}
		if want := "image/gif"; f.ContentType != want {
			t.Errorf("%s: content type %q, want %q", f.Name, f.ContentType, want)
		}
	case ".png":
		_, err = png.Decode(f.Reader)
		if want := "image/png"; f.ContentType != want {
			t.Errorf("%s: content type %q, want %q", f.Name, f.ContentType, want)
		}
	default:
		_, err = io.ReadAll(f.Reader)
		t.Errorf("%s: not a picture", f.Name)
	}
	if err != nil {
		t.Errorf("%s: %v", f.Name, err)
	}
}
