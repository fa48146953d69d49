package main

import (
	"crypto/ed25519"
	"os"
	"testing"
	"time"
)

// The driver shares the bot's cores: what it spends per interaction is
// taken from the bot. These measure its two biggest parts besides the
// signature: reading the bot's answer, and writing the next click.

func BenchmarkReadAnswer(b *testing.B) {
	for _, name := range answers {
		body, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var r response
				if err := decodeAnswer(body, &r); err != nil {
					b.Fatal(err)
				}
				if _, err := parseBoard(&r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkClickBody(b *testing.B) {
	for _, name := range answers {
		r := readTestAnswer(b, name)
		cur, err := parseBoard(&r)
		if err != nil {
			b.Fatal(err)
		}
		d := newDriver(loadOptions{seed: 1}, newRunIDs(time.Now()), ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)), []string{"http://127.0.0.1:1/"}, nil)
		w := d.newWorker(0, 0, 2)
		s := &session{guild: snowflake(idGuilds, 1), channel: snowflake(idChannels, 1), humans: w.players, msg: "1500000000000000001", cur: cur}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w.clickBody(s, s.humans[0], s.cur.ids[0], &s.cur)
			}
		})
	}
}
