package tttbot

// ErrHintVsPeople refuses a hint in a game between people: the solver would
// play for one of them.
var ErrHintVsPeople = &Error{Code: EINVALID, Message: "hints are for games against the bot"}

// Assist marks g, seen at version, as played with a hint, asked by user:
// only the human player of an active game against the bot, on their turn,
// may ask, and only of the position they saw (ErrStale). The
// position does not change, and so neither does the version: the board's
// buttons stay good. Asking again changes nothing more.
func (g *Game) Assist(user string, version int) error {
	switch {
	case !g.HasPlayer(user):
		return ErrNotAPlayer
	case !g.VsBot():
		return ErrHintVsPeople
	case g.Status == StatusPending:
		return ErrNotStarted
	case g.Status != StatusActive:
		return ErrGameOver
	case g.Turn != user:
		return ErrNotYourTurn
	case version != g.Version:
		return ErrStale
	}
	g.Assisted = true
	return nil
}
