package discordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"slices"
	"strconv"
	"strings"
)

// File is a file uploaded with a REST call or an endpoint's answer, as a
// files[n] part of a multipart/form-data body.
type File struct {
	Field       string // the form part's name: "files[n]"
	Filename    string
	ContentType string
	Data        []byte
}

// Attachment is a file attached to a message.
type Attachment struct {
	ID          string
	Filename    string
	ContentType string
	Data        []byte
}

// Discord's limits on uploads
// (https://discord.com/developers/docs/reference#uploading-files): 10
// attachments on a message, 10 MiB a file for a bot.
const (
	maxAttachments = 10
	maxFileSize    = 10 << 20
)

// isMultipart reports whether a Content-Type is multipart/form-data.
func isMultipart(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "multipart/form-data"
}

// parseMultipart reads a multipart/form-data body as Discord does: the
// JSON in payload_json, the files in parts named files[n], each with a
// filename. It returns the JSON ("{}" when there is none) and the files.
// Discord also takes the JSON's fields as parts of their own; the bot, as
// discordgo, uses payload_json, which alone the server accepts.
func parseMultipart(contentType string, body []byte) ([]byte, []File, []Violation) {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return nil, nil, []Violation{{Message: "multipart/form-data without a boundary"}}
	}
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	payload := []byte("{}")
	var files []File
	var vs []Violation
	seen := map[string]bool{}
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, append(vs, Violation{Message: "malformed multipart body: " + err.Error()})
		}
		name := p.FormName()
		data, err := io.ReadAll(p)
		if err != nil {
			return nil, nil, append(vs, Violation{Message: "malformed multipart body: " + err.Error()})
		}
		if seen[name] {
			vs = append(vs, Violation{Message: fmt.Sprintf("form field %q is sent twice", name)})
		}
		seen[name] = true
		switch _, isFile := uploadIndex(name); {
		case name == "payload_json":
			payload = data
		case isFile:
			if p.FileName() == "" {
				vs = append(vs, Violation{Path: name, Message: "a file needs a filename in its Content-Disposition"})
			}
			if len(data) > maxFileSize {
				vs = append(vs, Violation{Path: name, Message: fmt.Sprintf("file of %d bytes exceeds the %d bytes allowed", len(data), maxFileSize)})
			}
			files = append(files, File{Field: name, Filename: p.FileName(), ContentType: p.Header.Get("Content-Type"), Data: data})
		default:
			vs = append(vs, Violation{Message: fmt.Sprintf("unexpected form field %q: want payload_json and files[n]", name)})
		}
	}
	if len(files) > maxAttachments {
		vs = append(vs, Violation{Message: fmt.Sprintf("at most %d files (got %d)", maxAttachments, len(files))})
	}
	return payload, files, vs
}

// uploadIndex returns the n of a files[n] form name.
func uploadIndex(name string) (string, bool) {
	n, ok := strings.CutPrefix(name, "files[")
	n, ok2 := strings.CutSuffix(n, "]")
	if !ok || !ok2 {
		return "", false
	}
	if _, err := strconv.ParseUint(n, 10, 64); err != nil {
		return "", false
	}
	return n, true
}

// attach sets the attachments of m, a message being created (edit false)
// or edited, from the payload body and the files uploaded with it, and
// checks that every attachment://name the payload holds names one of them.
//
// The attachments field lists what the message keeps: the uploads, by the
// n of their files[n], and, on an edit, attachments it has, by ID; an
// upload a create does not list is attached too, one an edit does not list
// is dropped. Without the field, a create attaches every upload and an
// edit adds them to those the message has. s.mu must be held.
func (s *Server) attach(m *Message, body map[string]json.RawMessage, files []File, edit bool) []Violation {
	var vs []Violation
	uploads := map[string]File{}
	for _, f := range files {
		n, _ := uploadIndex(f.Field)
		uploads[n] = f
	}
	listed := map[string]bool{}
	var kept []Attachment
	if raw, ok := body["attachments"]; ok && string(raw) != "null" {
		var list []map[string]any
		if err := json.Unmarshal(raw, &list); err != nil {
			return []Violation{{Path: "attachments", Message: "must be an array of objects"}}
		}
		for i, a := range list {
			p := join("attachments", i)
			id := idString(a["id"])
			name, hasName := a["filename"].(string)
			if f, ok := uploads[id]; ok {
				if hasName && name != f.Filename {
					vs = append(vs, Violation{Path: join(p, "filename"), Message: fmt.Sprintf("%q is not the filename of the upload files[%s], %q", name, id, f.Filename)})
				}
				listed[id] = true
				kept = append(kept, s.newAttachment(f))
				continue
			}
			j := slices.IndexFunc(m.Attachments, func(a Attachment) bool { return a.ID == id })
			if !edit || j < 0 {
				vs = append(vs, Violation{Path: join(p, "id"), Message: fmt.Sprintf("%v names no file uploaded as files[n] and no attachment of the message", a["id"])})
				continue
			}
			kept = append(kept, m.Attachments[j])
		}
		if !edit {
			for _, f := range files {
				if n, _ := uploadIndex(f.Field); !listed[n] {
					kept = append(kept, s.newAttachment(f))
				}
			}
		}
	} else {
		if edit {
			kept = m.Attachments
		}
		for _, f := range files {
			kept = append(slices.Clip(kept), s.newAttachment(f))
		}
	}
	if len(kept) > maxAttachments {
		vs = append(vs, Violation{Path: "attachments", Message: fmt.Sprintf("at most %d attachments (got %d)", maxAttachments, len(kept))})
	}
	m.Attachments = kept
	for _, key := range []string{"components", "embeds"} {
		var v any
		json.Unmarshal(body[key], &v)
		attachmentRefs(key, v, func(path, name string) {
			if !slices.ContainsFunc(kept, func(a Attachment) bool { return a.Filename == name }) {
				vs = append(vs, Violation{Path: path, Message: fmt.Sprintf("attachment://%s names no file attached to the message", name)})
			}
		})
	}
	return vs
}

func (s *Server) newAttachment(f File) Attachment {
	return Attachment{ID: s.newID(), Filename: f.Filename, ContentType: f.ContentType, Data: f.Data}
}

// idString is an attachment ID as JSON gives it, a number or a string.
func idString(v any) string {
	if n, ok := asInt(v); ok {
		return strconv.Itoa(n)
	}
	s, _ := v.(string)
	return s
}

// attachmentRefs calls f with the path of each attachment://name string in
// v, and the name.
func attachmentRefs(path string, v any, f func(path, name string)) {
	switch v := v.(type) {
	case string:
		if name, ok := strings.CutPrefix(v, "attachment://"); ok {
			f(path, name)
		}
	case []any:
		for i, e := range v {
			attachmentRefs(join(path, i), e, f)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			attachmentRefs(join(path, k), v[k], f)
		}
	}
}
