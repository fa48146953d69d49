package main

import (
	"bytes"
	"crypto/ed25519"
	"image"
	"image/gif"
	"image/png"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// TestPicturesEndToEnd: /ttt stats comes with the rating chart, and the
// Pictures button of a game's replay with its replay as a GIF and its
// final position as a PNG, each shown by a media gallery that refers to
// its attachment, both ways in.
func TestPicturesEndToEnd(t *testing.T) {
	for _, mode := range []string{config.ModeGateway, config.ModeHTTP} {
		t.Run(mode, func(t *testing.T) {
			h := startHarness(t, modeKey(mode), discordtest.Options{})
			alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
			ch := h.srv.NewChannel()
			h.play(h.startGame(ch, alice, bob), alice, bob, 0, 1, 3, 4, 6)

			stats := h.srv.Slash(t, alice, ch, "ttt stats").Result(t)
			wantSays(t, stats, "Stats of "+alice.Mention(), "1 won, 0 lost, 0 drawn")
			wantChart(t, stats)

			hist := h.srv.Slash(t, bob, ch, "ttt history").Result(t)
			replay := h.srv.Click(t, bob, hist, hist.Button(t, "Replay 1").CustomID).Result(t)
			pics := h.srv.Click(t, bob, replay, replay.Button(t, "Pictures").CustomID).Result(t)
			wantGamePictures(t, pics, 5)
		})
	}
}

// TestPicturesDeferred: pictures held up by a stalled database past
// discord.defer_after come after the deferral with their files — the
// chart in the edit of /ttt stats' thinking message, a game's pictures in
// a private follow-up of the click — both ways in. PostgreSQL only:
// SQLite, in WAL mode, does not hold up reads.
func TestPicturesDeferred(t *testing.T) {
	for _, mode := range []string{config.ModeGateway, config.ModeHTTP} {
		t.Run(mode, func(t *testing.T) {
			url := pgtest.URL(t)
			// The waits outlast the stores' own limits on a stalled database.
			h := startHarnessWith(t, modeKey(mode), discordtest.Options{Timeout: 30 * time.Second}, func(h *harness) {
				h.configure = func(c *config.Config) {
					c.Database.URL = config.DatabaseURL(url)
					c.Discord.DeferAfter = config.Duration{Duration: 200 * time.Millisecond}
				}
			})
			alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
			ch := h.srv.NewChannel()
			h.play(h.startGame(ch, alice, bob), alice, bob, 0, 1, 3, 4, 6)

			release := pgtest.LockTable(t, url, "rating_history")
			stats := h.srv.Slash(t, alice, ch, "ttt stats")
			if r := stats.Wait(t); r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
				t.Fatalf("stats on a stalled database: got type %d, want 5", r.Type)
			}
			release()
			wantChart(t, stats.Result(t))

			replay := h.srv.Slash(t, bob, ch, "ttt history").Result(t)
			replay = h.srv.Click(t, bob, replay, replay.Button(t, "Replay 1").CustomID).Result(t)
			release = pgtest.LockTable(t, url, "moves")
			click := h.srv.Click(t, bob, replay, replay.Button(t, "Pictures").CustomID)
			if r := click.Wait(t); r.Type != discordgo.InteractionResponseDeferredMessageUpdate {
				t.Fatalf("pictures on a stalled database: got type %d, want 6", r.Type)
			}
			release()
			h.srv.WaitCalls(t, discordtest.RouteFollowup, 1)
			f := click.Followups()
			if len(f) != 1 || !f[0].Ephemeral() {
				t.Fatalf("follow-ups of the click: got %v, want the pictures, privately", f)
			}
			wantGamePictures(t, f[0], 5)
		})
	}
}

// modeKey is the harness's key for mode: none over the gateway.
func modeKey(mode string) ed25519.PrivateKey {
	if mode == config.ModeHTTP {
		return ed25519.NewKeyFromSeed([]byte("tttbot-e2e-http-harness-key-0123"))
	}
	return nil
}

// wantChart checks that m shows the rating chart: a 640×320 PNG.
func wantChart(t *testing.T, m *discordtest.Message) {
	t.Helper()
	data := galleryFile(t, m, "rating.png")
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("rating.png: %v", err)
	}
	if got := img.Bounds().Size(); got != image.Pt(640, 320) {
		t.Errorf("rating.png: %v, want 640×320", got)
	}
}

// wantGamePictures checks that m, private, shows a game of moves moves: a
// GIF of a frame per move and a held one, and a PNG.
func wantGamePictures(t *testing.T, m *discordtest.Message, moves int) {
	t.Helper()
	if !m.Ephemeral() {
		t.Errorf("pictures are public, want them private")
	}
	wantSays(t, m, "in pictures", "🟩 best")
	var anim, final []byte
	for _, a := range m.Attachments {
		switch {
		case bytes.HasPrefix(a.Data, []byte("GIF8")):
			anim = galleryFile(t, m, a.Filename)
		case bytes.HasPrefix(a.Data, []byte("\x89PNG")):
			final = galleryFile(t, m, a.Filename)
		}
	}
	g, err := gif.DecodeAll(bytes.NewReader(anim))
	if err != nil {
		t.Fatalf("the replay: %v", err)
	}
	if len(g.Image) != moves+1 {
		t.Errorf("the replay: %d frames, want %d", len(g.Image), moves+1)
	}
	if _, err := png.Decode(bytes.NewReader(final)); err != nil {
		t.Errorf("the final position: %v", err)
	}
}

// galleryFile is the data of m's attachment name, which a media gallery
// of m must show with alt text.
func galleryFile(t *testing.T, m *discordtest.Message, name string) []byte {
	t.Helper()
	if !m.V2() {
		t.Fatalf("message is not components V2:\n%s", m)
	}
	shown := false
	var walk func([]discordtest.Component)
	walk = func(cs []discordtest.Component) {
		for _, c := range cs {
			for _, it := range c.Items {
				shown = shown || it.Media.URL == "attachment://"+name && it.Description != ""
			}
			walk(c.Components)
		}
	}
	walk(m.Components)
	if !shown {
		t.Errorf("no gallery item shows %s with alt text:\n%s", name, m)
	}
	for _, a := range m.Attachments {
		if a.Filename == name {
			return a.Data
		}
	}
	t.Fatalf("no attachment %s:\n%s", name, m)
	return nil
}
