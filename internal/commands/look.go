package commands

import (
	"context"
	"sync"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/health"
)

// lookTTL is how long a guild's look — its marks and language — is kept
// in memory before it is read again. A stale look only draws a board in
// the old marks: the settings that decide a rule are read by the store in
// the transaction that applies them, never from here. A change made
// through this handler takes effect at once.
const lookTTL = time.Minute

// looks caches the settings of guilds for drawing their boards.
type looks struct {
	mu sync.Mutex
	m  map[string]cachedLook
}

type cachedLook struct {
	s  *tttbot.Settings
	at time.Time
}

// look returns the settings a guild's public messages are drawn with: its
// marks, and its Locale for the language. It never fails: when the store
// does, the board is drawn in the default look.
func (h *Handler) look(ctx context.Context, guildID string) *tttbot.Settings {
	if guildID == "" {
		return &tttbot.Settings{}
	}
	now := h.opts.Now()
	h.looks.mu.Lock()
	c, ok := h.looks.m[guildID]
	h.looks.mu.Unlock()
	if ok && now.Sub(c.at) < lookTTL && !now.Before(c.at) {
		return c.s
	}
	s, err := h.store.Settings(ctx, guildID)
	if err != nil {
		h.logger(ctx).Log(ctx, health.Level(err), "read guild settings", "guild", guildID, "err", err)
		return &tttbot.Settings{GuildID: guildID}
	}
	h.cacheLook(s, now)
	return s
}

// cacheLook keeps s, read at time at, as its guild's look.
func (h *Handler) cacheLook(s *tttbot.Settings, at time.Time) {
	h.looks.mu.Lock()
	defer h.looks.mu.Unlock()
	if h.looks.m == nil {
		h.looks.m = map[string]cachedLook{}
	}
	// Guilds come and go; a full cache starts over rather than grow.
	if len(h.looks.m) >= maxLooks {
		clear(h.looks.m)
	}
	h.looks.m[s.GuildID] = cachedLook{s: s, at: at}
}

// maxLooks bounds the cache: a few hundred bytes a guild.
const maxLooks = 10000
