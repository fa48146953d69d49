package tttbot

import "time"

// Room is what the room rules know of the channel a game is to open in
// (created, or accepted), as a store reads it in the transaction that
// opens it: the other open games there that the rules must know of.
type Room struct {
	// PlayerGame are the two players of another open game in the channel
	// in which one of the game's RoomPlayers plays; nil when none.
	PlayerGame []string
	// Occupied reports whether the channel holds another open game. The
	// rules ask it only of a game that must hold its channel alone (see
	// Settings.Shares), so a store may leave it unread otherwise.
	Occupied bool
}

// RoomPlayers are the players of g that the room rules keep to one open
// game per channel: both, but the bot, which may play many people at
// once. The challenger of a game against the bot is the human.
func (g *Game) RoomPlayers() [2]string {
	if g.VsBot() {
		return [2]string{g.Challenger, g.Challenger}
	}
	return [2]string{g.Challenger, g.Opponent}
}

// Room applies the room rules to game g, which actor opens in its channel,
// r: neither of g's RoomPlayers may be in another open game there
// (ErrPlayerBusy when actor is, else ErrOpponentBusy), and the channel may
// hold no other open game (ErrChannelBusy) unless s allows simultaneous
// games, or leaves them unset and def does, or g is a tournament's. exclusive reports whether g
// holds the channel alone, which the schema then enforces.
func (s *Settings) Room(g *Game, actor string, r Room, def bool) (exclusive bool, err error) {
	switch {
	case len(r.PlayerGame) > 0 && (r.PlayerGame[0] == actor || r.PlayerGame[1] == actor):
		return false, ErrPlayerBusy
	case len(r.PlayerGame) > 0:
		return false, ErrOpponentBusy
	}
	allow := s.Shares(def) || g.InTournament
	if !allow && r.Occupied {
		return false, ErrChannelBusy
	}
	return !allow, nil
}

// Shares reports whether a game opened under s may share its channel with
// other open games: s allows simultaneous games, or leaves them unset and
// def does.
func (s *Settings) Shares(def bool) bool {
	if s.Simultaneous != nil {
		return *s.Simultaneous
	}
	return def
}

// Accept starts challenge g as r asks, under its guild's settings s, in
// its channel's room (see Room, with def): r completed for g first (see
// AcceptRequest.Prepare), the game's own refusals next (see Game.Accept),
// then the guild's role (MayPlay), then the room. The first turn runs from
// stored, when the store writes the change, as a move's next turn does
// (see Play), for as long as s's turn timeout when it sets one.
func (s *Settings) Accept(g *Game, r AcceptRequest, room Room, def bool, stored time.Time) error {
	if r.Prepare != nil {
		if err := r.Prepare(&r, g); err != nil {
			return err
		}
	}
	if err := g.Accept(r); err != nil {
		return err
	}
	if err := s.MayPlay(r.Roles); err != nil {
		return err
	}
	s.Retime(g, g.countFrom(r.At, stored))
	if _, err := s.Room(g, r.Player, room, def); err != nil {
		return err
	}
	g.clicked(r.Click)
	return nil
}

// Play makes move m and its Answer on g, as Game.PlayAnswered does, under
// its guild's settings s, and returns the moves made. stored is when the
// store writes them: the next turn runs from then rather than from when
// the last of them was made, so that a database that held the move takes
// nothing of the next player's time. It is as long as the request asked
// (Deadline less At), or s's turn timeout when it sets one. A request not
// completed for g's version is completed first (see MoveRequest.Prepare).
func (s *Settings) Play(g *Game, m MoveRequest, stored time.Time) ([]Move, error) {
	if m.Prepare != nil && m.Prepared != g.Version {
		if err := m.Prepare(&m, g); err != nil {
			return nil, err
		}
	}
	moves, err := g.PlayAnswered(m)
	if err != nil {
		return nil, err
	}
	s.Retime(g, g.countFrom(moves[len(moves)-1].At, stored))
	g.clicked(m.Click)
	return moves, nil
}

// countFrom moves the deadline of g's turn, asked for as counted from at,
// to count from stored when that is later, and returns the time the turn
// counts from.
func (g *Game) countFrom(at, stored time.Time) time.Time {
	held := stored.Sub(at)
	if held <= 0 || g.Status != StatusActive || g.Deadline.IsZero() {
		return at
	}
	g.Deadline = g.Deadline.Add(held)
	return stored
}

// Change runs fn, which changes g through its domain methods, and when it
// succeeds stamps g as a new version changed at time at: every change
// bumps the version that clicks carry. finished reports whether the
// change ended the game, whose results and ratings a store then records
// with it.
func (g *Game) Change(at time.Time, fn func(*Game) error) (finished bool, err error) {
	was := g.Status
	if err := fn(g); err != nil {
		return false, err
	}
	g.Version++
	g.UpdatedAt = at
	return g.Status == StatusFinished && was != StatusFinished, nil
}
