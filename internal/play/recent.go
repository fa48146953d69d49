package play

import (
	"sync"
	"time"

	"github.com/tttbot/tttbot"
)

// recentGames bounds the games remembered: at most a few MB.
const recentGames = 4096

// recent holds the active games this process stored last, by ID, for
// moves (see MoveClick.Seen). Safe for concurrent use.
type recent struct {
	mu    sync.Mutex
	games map[int64]tttbot.Game
}

// put remembers g as stored now while it is active, or forgets it: moves
// are what the memory serves.
func (r *recent) put(g *tttbot.Game) {
	if g == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if g.Status != tttbot.StatusActive {
		delete(r.games, g.ID)
		return
	}
	if _, ok := r.games[g.ID]; !ok && len(r.games) >= recentGames {
		for id := range r.games { // any one: games move on or end soon
			delete(r.games, id)
			break
		}
	}
	r.games[g.ID] = *g
}

// settle remembers g, the game id as the store answered a change of it,
// or forgets id when the store refused the change as finished (ended,
// closed, past its deadline) or gone: most often changed elsewhere, so
// that what this process remembers of it no longer holds, and a next
// click reads it; when the memory was right, that read is all it costs.
// Other refusals (a stale board, a turn not the player's) say nothing of
// the memory, which the store's decisions never rely on (see
// tttbot.GameStore.Play).
func (r *recent) settle(id int64, g *tttbot.Game, err error) {
	switch tttbot.ErrorCode(err) {
	case "":
		r.put(g)
	case tttbot.EFINISHED, tttbot.ENOTFOUND:
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.games, id)
	}
}

// setMessage and setToken note in game id, if remembered, what the
// store's SetMessage and SetToken wrote: a move on the game as
// remembered is written only while those hold what it remembers.
func (r *recent) setMessage(id int64, messageID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if g, ok := r.games[id]; ok {
		g.MessageID = messageID
		r.games[id] = g
	}
}

func (r *recent) setToken(id int64, t tttbot.Token) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// As the store keeps it: to the millisecond, in UTC.
	if g, ok := r.games[id]; ok && t.Supersedes(g.Token) {
		g.Token = tttbot.Token{Value: t.Value, Expires: time.UnixMilli(t.Expires.UnixMilli()).UTC()}
		r.games[id] = g
	}
}

func (r *recent) get(id int64) (tttbot.Game, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	g, ok := r.games[id]
	return g, ok
}

// Remembered returns game id as this process last stored it, or nil when
// it does not remember it (see MoveClick.Seen).
func (s *Service) Remembered(id int64) *tttbot.Game {
	if g, ok := s.recent.get(id); ok {
		return &g
	}
	return nil
}
