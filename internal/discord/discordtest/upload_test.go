package discordtest

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"
)

// part is a part of a multipart body: payload_json when filename is "".
type part struct{ field, filename, data string }

func file(n int, name string) part { return part{fmt.Sprintf("files[%d]", n), name, name + " bytes"} }

// multipartBody encodes parts as discordgo does.
func multipartBody(t *testing.T, parts ...part) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		if p.field == "payload_json" {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, p.field))
		} else {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, p.field, p.filename))
		}
		pw, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		pw.Write([]byte(p.data))
	}
	w.Close()
	return w.FormDataContentType(), b.Bytes()
}

func payload(json string) part { return part{field: "payload_json", data: json} }

// send makes a REST call to srv with a multipart body and returns the status.
func send(t *testing.T, srv *Server, method, path string, parts ...part) int {
	t.Helper()
	ct, body := multipartBody(t, parts...)
	r, err := http.NewRequest(method, srv.URL()+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Authorization", "Bot "+srv.Token())
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

const embedA = `{"content":"chart","embeds":[{"image":{"url":"attachment://a.png"}}]}`

// The server takes multipart bodies as Discord does — payload_json checked
// like a JSON body, files in files[n] parts — and refuses what Discord
// refuses: a reference attachment://name to no file the message has,
// attachments metadata that names no upload or another filename, a file
// without a filename, a part that is neither, a field twice, more than 10
// files, a file over 10 MiB.
func TestUploads(t *testing.T) {
	many := []part{payload(`{"content":"x"}`)}
	for n := range 11 {
		many = append(many, file(n, fmt.Sprintf("%d.png", n)))
	}
	tests := []struct {
		name  string
		parts []part
		want  string // a substring of the one failure; "" for none
	}{
		{"embed of the file", []part{payload(embedA), file(0, "a.png")}, ""},
		{"files alone", []part{file(0, "a.png")}, ""},
		{"metadata of the file", []part{payload(`{"content":"x","attachments":[{"id":0,"filename":"a.png"}]}`), file(0, "a.png")}, ""},
		{"reference to no file", []part{payload(`{"content":"x","embeds":[{"image":{"url":"attachment://b.png"}}]}`), file(0, "a.png")},
			"embeds.0.image.url: attachment://b.png names no file"},
		{"metadata of no upload", []part{payload(`{"content":"x","attachments":[{"id":1}]}`), file(0, "a.png")}, "attachments.0.id"},
		{"metadata of another name", []part{payload(`{"content":"x","attachments":[{"id":0,"filename":"b.png"}]}`), file(0, "a.png")},
			`"b.png" is not the filename of the upload files[0]`},
		{"file without a filename", []part{payload(`{"content":"x"}`), {"files[0]", "", "data"}}, "needs a filename"},
		{"unknown field", []part{payload(`{"content":"x"}`), {"file", "a.png", "data"}}, `unexpected form field "file"`},
		{"payload twice", []part{payload(`{"content":"x"}`), payload(`{"content":"y"}`)}, "sent twice"},
		{"11 files", many, "at most 10 files"},
		{"file over 10 MiB", []part{payload(`{"content":"x"}`), {"files[0]", "big.png", strings.Repeat("x", 10<<20+1)}}, "exceeds"},
		{"payload checked", []part{payload(`{"content":"` + strings.Repeat("x", 2001) + `"}`), file(0, "a.png")}, "2000 or fewer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{TB: t}
			srv := NewServerWith(rec, Options{})
			ch := srv.NewChannel()
			status := send(t, srv, http.MethodPost, "/channels/"+ch+"/messages", tt.parts...)
			failures := rec.failures()
			if tt.want == "" {
				msgs := srv.Messages(ch)
				if status != http.StatusOK || len(failures) > 0 || len(msgs) != 1 || len(msgs[0].Attachments) != 1 {
					t.Fatalf("got %d, failures %q, messages %v; want the message posted with its file", status, failures, msgs)
				}
				if a := msgs[0].Attachments[0]; a.Filename != "a.png" || string(a.Data) != "a.png bytes" {
					t.Errorf("got attachment %+v, want a.png", a)
				}
				return
			}
			if status != http.StatusBadRequest || len(failures) != 1 || !strings.Contains(failures[0], tt.want) {
				t.Errorf("got %d, failures %q; want 400 and one failure with %q", status, failures, tt.want)
			}
			if msgs := srv.Messages(ch); len(msgs) != 0 {
				t.Errorf("got messages %v, want none", msgs)
			}
		})
	}
}

// An edit keeps the files its attachments field lists, by ID for those the
// message has and by files[n] for new ones, and drops the rest; without
// the field, it adds its uploads to the files the message has. A reference
// to a file the edit drops is refused.
func TestUploadEdits(t *testing.T) {
	tests := []struct {
		name  string
		parts func(old string) []part
		want  []string // the files after the edit; nil for a refusal
	}{
		{"new file listed", func(string) []part {
			return []part{payload(`{"content":"x","attachments":[{"id":0}]}`), file(0, "b.png")}
		}, []string{"b.png"}},
		{"old and new listed", func(old string) []part {
			return []part{payload(`{"attachments":[{"id":"` + old + `"},{"id":0}]}`), file(0, "b.png")}
		}, []string{"a.png", "b.png"}},
		{"no attachments field", func(string) []part { return []part{payload(`{"content":"y"}`), file(0, "b.png")} }, []string{"a.png", "b.png"}},
		{"new file unlisted", func(string) []part {
			return []part{payload(`{"content":"x","attachments":[]}`), file(0, "b.png")}
		}, []string{}},
		{"reference to a dropped file", func(string) []part {
			return []part{payload(`{"embeds":[{"image":{"url":"attachment://a.png"}}],"attachments":[{"id":0}]}`), file(0, "b.png")}
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{TB: t}
			srv := NewServerWith(rec, Options{})
			ch := srv.NewChannel()
			if status := send(t, srv, http.MethodPost, "/channels/"+ch+"/messages", payload(embedA), file(0, "a.png")); status != http.StatusOK {
				t.Fatalf("post: got %d", status)
			}
			m := srv.Messages(ch)[0]
			status := send(t, srv, http.MethodPatch, "/channels/"+ch+"/messages/"+m.ID, tt.parts(m.Attachments[0].ID)...)
			after := srv.Message(ch, m.ID)
			var got []string
			for _, a := range after.Attachments {
				got = append(got, a.Filename)
			}
			if tt.want == nil {
				if f := rec.failures(); status != http.StatusBadRequest || len(f) != 1 || !strings.Contains(f[0], "names no file") || len(got) != 1 {
					t.Errorf("got %d, failures %q, files %q; want 400, one failure, a.png kept", status, f, got)
				}
				return
			}
			if status != http.StatusOK || fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %d, files %q; want 200, %q", status, got, tt.want)
			}
		})
	}
}
