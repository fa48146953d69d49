package main

import (
	"bytes"
	"encoding/xml"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bot render writes the four sample pictures, each decoding as its kind.
func TestRenderCmd(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runSub(t, renderCmd, "", "-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"chart.png", "chart.svg", "replay.gif", "final.png"} {
		path := filepath.Join(dir, name)
		if !strings.Contains(out, path) {
			t.Errorf("output %q does not name %s", out, path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(name) {
		case ".png":
			_, err = png.Decode(bytes.NewReader(b))
		case ".gif":
			var g *gif.GIF
			if g, err = gif.DecodeAll(bytes.NewReader(b)); err == nil && len(g.Image) != len(sampleReplay)+1 {
				t.Errorf("replay.gif: %d frames, want %d", len(g.Image), len(sampleReplay)+1)
			}
		case ".svg":
			err = xml.Unmarshal(b, new(struct {
				XMLName xml.Name `xml:"svg"`
			}))
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, _, err := runSub(t, renderCmd, "", "-dir", filepath.Join(dir, "missing")); err == nil {
		t.Error("render into a missing directory: no error")
	}
}
