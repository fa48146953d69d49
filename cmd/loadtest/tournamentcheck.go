package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/tournament"
)

// tournamentPosts is what the bots posted in the tournament's channel, as
// the REST stub took it.
type tournamentPosts struct {
	rounds map[int]int // round → times its pairings were posted
	// roundAt is when each round's pairings were first posted.
	roundAt map[int]time.Time
	boards  map[int64]int // game → times its board was posted
	tables  []string      // the final tables' text
	other   int           // posts of none of those kinds
	// announcement is the message the create command's answer made,
	// which the bots redraw as the tournament goes on.
	announcement string
}

// checkTournament checks a tournament of players that the bots ran to its
// end, as stored (st, and the games of its boards) and as posted:
//
//   - every round started exactly once: rounds rounds, each posted once and
//     stored with a board per pair of players and a bye for an odd one out;
//   - every game accounted for: each board's game started once (its board
//     posted once), is over, and gave the result the board stores; no board
//     was posted of a game that is not a board's;
//   - the standings recomputed by internal/tournament from the results the
//     stored games give equal the bot's table from its stored results, and
//     the final table it posted, line for line as far as it is shown.
//
// It returns what it found right, in a line each, and the problems.
func checkTournament(st *tttbot.TournamentState, games map[int64]*tttbot.Game, posted tournamentPosts, players, rounds int) (summary, problems []string) {
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if st.Status != tttbot.TournamentFinished || st.Round != rounds {
		bad("tournament %s after round %d, want finished after round %d", st.Status, st.Round, rounds)
	}
	if active := len(st.Entrants); active != players {
		bad("%d entrants stored, want %d", active, players)
	}
	if st.MessageID != posted.announcement {
		bad("the announcement stored as message %q, want %q: the bots cannot redraw it", st.MessageID, posted.announcement)
	}

	// Rounds.
	boardsPer, byesPer := (players+1)/2, players%2
	perRound := map[int]int{}
	for _, tg := range st.Games {
		perRound[tg.Round]++
	}
	for r := 1; r <= max(rounds, len(perRound)); r++ {
		if posted.rounds[r] != 1 {
			bad("round %d: its pairings posted %d times, want once", r, posted.rounds[r])
		}
		if perRound[r] != boardsPer {
			bad("round %d: %d boards stored, want %d", r, perRound[r], boardsPer)
		}
	}
	for r, n := range posted.rounds {
		if r < 1 || r > rounds {
			bad("round %d of %d: its pairings posted %d times, want none", r, rounds, n)
		}
	}
	if len(problems) == 0 {
		summary = append(summary, fmt.Sprintf("rounds: %d, each started once (its pairings posted once, %d boards stored)", rounds, boardsPer))
	}

	// Games.
	before := len(problems)
	linked := map[int64]bool{}
	played, byes := 0, 0
	results := make([]tttbot.TournamentGame, len(st.Games))
	for i, tg := range st.Games {
		at := fmt.Sprintf("round %d board %d", tg.Round, tg.Board)
		results[i] = tg
		if tg.Black == "" {
			byes++
			if tg.Result != tttbot.ResultWhite || tg.GameID != 0 {
				bad("%s: a bye with result %s and game %d, want a win and no game", at, tg.Result, tg.GameID)
			}
			continue
		}
		g := games[tg.GameID]
		switch {
		case tg.GameID == 0 || g == nil:
			bad("%s: no game (game %d)", at, tg.GameID)
			continue
		case linked[tg.GameID]:
			bad("%s: game %d is another board's too", at, tg.GameID)
		case posted.boards[tg.GameID] != 1:
			bad("%s: the board of game %d posted %d times, want once", at, tg.GameID, posted.boards[tg.GameID])
		case g.Status.Open():
			bad("%s: game %d still %s", at, g.ID, g.Status)
		case g.XPlayer != tg.White || g.OPlayer != tg.Black || g.ChannelID != st.ChannelID || g.TurnTimeout != st.MoveTimeout:
			bad("%s: game %d is X %s against O %s in channel %s with moves of %s, want %s against %s in %s with moves of %s",
				at, g.ID, g.XPlayer, g.OPlayer, g.ChannelID, g.TurnTimeout, tg.White, tg.Black, st.ChannelID, st.MoveTimeout)
		}
		linked[tg.GameID] = true
		played++
		results[i].Result = resultOf(tg, g)
		if tg.Result != results[i].Result {
			bad("%s: result %s stored, but game %d (%s, %s, winner %q) gives %s", at, tg.Result, g.ID, g.Status, g.Reason, g.Winner, results[i].Result)
		}
	}
	for id, n := range posted.boards {
		if !linked[id] {
			bad("game %d: its board posted %d times, but it is no board's game", id, n)
		}
	}
	if want := rounds * (players / 2); played != want || byes != rounds*byesPer {
		bad("%d games and %d byes stored, want %d and %d", played, byes, want, rounds*byesPer)
	}
	if len(problems) == before {
		summary = append(summary, fmt.Sprintf("games: all %d accounted for (%d a round × %d rounds, %d byes), each posted once, over, and its board's result the one its stored game gives",
			played, players/2, rounds, byes))
	}

	// Standings.
	before = len(problems)
	seeds := st.Seeds()
	index := make(map[string]int, len(seeds))
	ps := make([]tournament.Player, len(seeds))
	for i, e := range seeds {
		index[e.Player] = i
		ps[i] = tournament.Player{Rating: e.Rating, Withdrawn: e.Withdrawn}
	}
	var rs []tournament.Round
	for _, tg := range results {
		for len(rs) < tg.Round {
			rs = append(rs, nil)
		}
		black := tournament.Bye
		if tg.Black != "" {
			black = index[tg.Black]
		}
		rs[tg.Round-1] = append(rs[tg.Round-1], tournament.Game{White: index[tg.White], Black: black, Result: pairingResult(tg.Result)})
	}
	again := tournament.Standings(ps, rs)
	table := st.Standings()
	if len(again) != len(table) {
		bad("standings: %d places recomputed, the bot's table has %d", len(again), len(table))
	}
	for i := range min(len(again), len(table)) {
		a, b := again[i], table[i]
		if seeds[a.Player].Player != b.Player || a.Rank != b.Rank || a.Points != b.Points || a.Buchholz != b.Buchholz || a.SonnebornBerger != b.SonnebornBerger {
			bad("standings, place %d: recomputed %s, the bot's table %d. %s %v pts, Buchholz %v, SB %v",
				i+1, placeText(a.Rank, seeds[a.Player].Player, a.Points, a.Buchholz, a.SonnebornBerger), b.Rank, b.Player, b.Points, b.Buchholz, b.SonnebornBerger)
		}
	}
	shown := 0
	switch {
	case len(posted.tables) != 1:
		bad("the final table posted %d times, want once", len(posted.tables))
	default:
		for _, m := range tableLine.FindAllStringSubmatch(posted.tables[0], -1) {
			rank, _ := strconv.Atoi(m[1])
			if rank < 1 || rank > len(again) || rank != shown+1 {
				bad("the posted table's line %q: rank %d out of order", m[0], rank)
				break
			}
			a := again[rank-1]
			if want := placeText(a.Rank, seeds[a.Player].Player, a.Points, a.Buchholz, a.SonnebornBerger); m[0] != want {
				bad("the posted table's line %q, recomputed %q", m[0], want)
			}
			shown++
		}
		if shown == 0 {
			bad("the posted final table shows no place")
		}
	}
	if len(problems) == before {
		clipped := ""
		if shown < len(again) {
			clipped = " (its first page; Next shows the rest)"
		}
		summary = append(summary, fmt.Sprintf("standings: the %d places recomputed from the stored games equal the bot's table; the posted final table shows %d of them%s, each equal",
			len(again), shown, clipped))
	}
	return summary, problems
}

// resultOf is the result game g gives board tg. A game ended on time with
// no move made is lost by both when its round's deadline ended it (the
// bot's rule), by X alone when X's own move timeout did: the game does not
// tell which, so the board's stored result, either, is taken.
func resultOf(tg tttbot.TournamentGame, g *tttbot.Game) tttbot.TournamentResult {
	r := tttbot.TournamentResultOf(tg, g)
	if tg.Result == tttbot.ResultBothLose && g.Reason == tttbot.ReasonTimeout && !strings.ContainsAny(g.Board, "XO") {
		return tttbot.ResultBothLose
	}
	return r
}

func pairingResult(r tttbot.TournamentResult) tournament.Result {
	switch r {
	case tttbot.ResultWhite:
		return tournament.WhiteWins
	case tttbot.ResultBlack:
		return tournament.BlackWins
	case tttbot.ResultDraw:
		return tournament.Draw
	case tttbot.ResultBothLose:
		return tournament.BothLose
	}
	return tournament.Pending
}

// placeText is a line of the final table as the bot words it in en-US.
func placeText(rank int, player string, pts, buchholz, sb float64) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	return fmt.Sprintf("%d. <@%s> — %s pts · Buchholz %s · SB %s", rank, player, f(pts), f(buchholz), f(sb))
}
