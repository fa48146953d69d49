package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed static
var staticFiles embed.FS

// asset is an embedded file served under a name that holds its content's
// hash, so that browsers keep it for good and a new version has a new
// name.
type asset struct {
	body, gzipped []byte
	typ           string
}

// assets are the embedded files by their fingerprinted names, and those
// names by the files' own.
type assets struct {
	byName map[string]*asset
	urls   map[string]string // "style.css" → "/static/style.3f2a….css"
}

func loadAssets(prefix string) (*assets, error) {
	a := &assets{byName: map[string]*asset{}, urls: map[string]string{}}
	err := fs.WalkDir(staticFiles, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := staticFiles.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		base, ext := path.Base(p), path.Ext(p)
		name := strings.TrimSuffix(base, ext) + "." + hex.EncodeToString(sum[:6]) + ext
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression) // a valid level: no error
		w.Write(body)
		w.Close()
		a.byName[name] = &asset{body: body, gzipped: z.Bytes(), typ: mime.TypeByExtension(ext)}
		a.urls[base] = prefix + "/static/" + name
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("web assets: %w", err)
	}
	return a, nil
}

// url is the address of the embedded file name.
func (a *assets) url(name string) string { return a.urls[name] }

// assetCache keeps a fingerprinted file for a year: its name changes with
// its content.
const assetCache = "public, max-age=31536000, immutable"

// static serves an embedded file by its fingerprinted name.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	f := s.assets.byName[r.PathValue("name")]
	if f == nil {
		s.fail(w, r, http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", assetCache)
	h.Set("Content-Type", f.typ)
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", `"`+r.PathValue("name")+`"`)
	if notModified(r, h.Get("ETag"), time.Time{}) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	if acceptsGzip(r) && len(f.gzipped) < len(body) {
		body = f.gzipped
		h.Set("Content-Encoding", "gzip")
	}
	w.Write(body)
}
