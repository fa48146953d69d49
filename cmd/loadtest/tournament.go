package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/tournament"
)

// A tournament through the bots (-tournament): an admin creates a Swiss in
// a channel, the simulated players click Join on the announcement, the
// organiser starts it, and the players play each board the bots post —
// read from the REST stub, as Discord would show it — until the final table
// is posted. Then tournamentcheck.go holds what was posted and stored
// against a recomputation from the stored games.

const (
	tournamentName = "Load Swiss"
	// The shortest round and move the command takes, so that a stalled
	// game ends at once and a stalled round within a minute.
	tournamentRoundMinutes = 1
	tournamentMoveSeconds  = 10
	// The sign-up is the organiser's to close: longer than any sign-up of
	// a run.
	tournamentSignupMinutes = 60
)

// tournamentStall is how long the driver waits for the next round's post
// (or the final table) before it calls the run stalled: a round's deadline
// ends it within tournamentRoundMinutes, and the timers claim it a second
// later.
const tournamentStall = 3 * time.Minute

// The posts the driver reads: a round's pairings, and the final table's
// lines, in the bot's default language (en-US).
var (
	roundHeading = regexp.MustCompile(`round (\d+) of \d+`)
	tableLine    = regexp.MustCompile(`(?m)^(\d+)\. <@(\d+)> — ([\d.]+) pts · Buchholz ([\d.]+) · SB ([\d.]+)$`)
	mentionRE    = regexp.MustCompile(`<@(\d+)>`)
	joinButton   = regexp.MustCompile(`^ttt:t:(\d+):j$`)
)

// tournamentRun is one tournament played through the bots.
type tournamentRun struct {
	o              loadOptions
	d              *driver
	posts          *postLog
	guild, channel string
	organiser      string
	players        []string
	workers        []*worker // each plays one board at a time

	id       int64    // the tournament's, from its Join button
	announce *session // the announcement's message
	shown    board    // and what it shows
	joinID   string
	startAns string // the organiser's answer to start

	posted tournamentPosts
	// The run's times: the create command sent, the start command
	// answered, the final table posted.
	began, started, finished time.Time
}

// playTournament runs the bots, plays a tournament through them, checks
// it, and prints the report.
func playTournament(ctx context.Context, stdout, stderr io.Writer, o loadOptions, dir string) error {
	// Nothing to warm up: every answer counts, each sent when the last is
	// answered.
	o.warmup, o.rate = 0, 0
	stderr = &syncWriter{w: stderr}
	rg, err := newRig(ctx, o, dir, stderr)
	if err != nil {
		return err
	}
	defer rg.close()
	o = rg.o
	if err := rg.start(ctx); err != nil {
		return err
	}
	t := &tournamentRun{o: o, d: newDriver(o, rg.ids, rg.key, rg.urls, &rg.stub.answers), posts: rg.stub.posts,
		guild: snowflake(idGuilds, 0), channel: snowflake(idChannels, 0), organiser: snowflake(idUsers, o.tournament),
		posted: tournamentPosts{rounds: map[int]int{}, roundAt: map[int]time.Time{}, boards: map[int64]int{}}}
	for i := range o.tournament {
		t.players = append(t.players, snowflake(idUsers, i))
	}
	for i := range max(1, min(o.concurrency, o.tournament/2)) {
		t.workers = append(t.workers, t.d.newWorker(i, 0, 0))
	}
	rep := &tournamentReport{opts: o}
	playErr := t.run(ctx, rg.anyDone)
	for i, b := range rg.bots {
		if err := b.exited(); err != nil {
			return fmt.Errorf("bot %d died: %w", i+1, err)
		}
	}
	if err := rg.stop(); err != nil {
		return err
	}
	rep.gather(t)
	if playErr == nil {
		if rep.dbProblems, err = rg.db.check(ctx, rep.acked); err != nil {
			return fmt.Errorf("check the database: %w", err)
		}
		st, games, err := rg.db.tournament(ctx, t.id)
		if err != nil {
			return fmt.Errorf("check the tournament: %w", err)
		}
		want := min(o.rounds, tournament.MaxSwissRounds(o.tournament))
		rep.summary, rep.problems = checkTournament(st, games, t.posted, o.tournament, want)
	}
	rep.print(stdout, playErr)
	if playErr != nil {
		return playErr
	}
	if rep.failed() {
		return errReported
	}
	return nil
}

// run plays the tournament from its creation to the final table.
func (t *tournamentRun) run(ctx context.Context, anyDone <-chan struct{}) error {
	t.began = time.Now()
	if err := t.create(ctx); err != nil {
		return err
	}
	if err := t.join(ctx); err != nil {
		return err
	}
	if err := t.start(ctx); err != nil {
		return err
	}
	return t.play(ctx, anyDone)
}

// tournamentCommand is /ttt tournament sub with its options.
func tournamentCommand(sub string, opts []jsonOption) commandData {
	return commandData{ID: "1100000000000000002", Name: "ttt", Type: discordgo.ChatApplicationCommand,
		Options: []jsonOption{{Name: "tournament", Type: discordgo.ApplicationCommandOptionSubCommandGroup,
			Options: []jsonOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}}}}
}

// create has the organiser, an admin, announce the Swiss, and reads the
// announcement's Join button.
func (t *tournamentRun) create(ctx context.Context) error {
	w := t.workers[0]
	s := &session{guild: t.guild, channel: t.channel, admin: true}
	num := discordgo.ApplicationCommandOptionInteger
	data := tournamentCommand("create", []jsonOption{
		{Name: "name", Type: discordgo.ApplicationCommandOptionString, Value: tournamentName},
		{Name: "format", Type: discordgo.ApplicationCommandOptionString, Value: "swiss"},
		{Name: "rounds", Type: num, Value: t.o.rounds},
		{Name: "round_minutes", Type: num, Value: tournamentRoundMinutes},
		{Name: "move_seconds", Type: num, Value: tournamentMoveSeconds},
		{Name: "signup_minutes", Type: num, Value: tournamentSignupMinutes},
	})
	r, err := w.interact(ctx, kOrganise, s, t.organiser, discordgo.InteractionApplicationCommand, data, nil)
	if err != nil {
		return fmt.Errorf("create the tournament: %w", err)
	}
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.ephemeral() {
		return fmt.Errorf("create the tournament: got %s, want its announcement", r)
	}
	for _, id := range customIDs(r.Data.Components) {
		if m := joinButton.FindStringSubmatch(id); m != nil {
			t.id, _ = strconv.ParseInt(m[1], 10, 64)
			t.joinID = id
		}
	}
	if t.id == 0 {
		return fmt.Errorf("create the tournament: no Join button in %s", r.Data.Components)
	}
	t.announce = &session{guild: t.guild, channel: t.channel, msg: r.msgID}
	t.posted.announcement = r.msgID
	t.shown = board{content: r.Data.Content, components: r.Data.Components}
	return nil
}

// join has every player click Join, the workers' many at once.
func (t *tournamentRun) join(ctx context.Context) error {
	players := make(chan string)
	var wg sync.WaitGroup
	for _, w := range t.workers {
		wg.Go(func() {
			for p := range players {
				r, err := w.click(ctx, kJoin, t.announce, p, t.joinID, &t.shown)
				if err == nil && (r.Type != discordgo.InteractionResponseUpdateMessage || r.ephemeral()) {
					w.fail(kJoin, "player %s: got %s, want the announcement with them in", p, r)
				}
			}
		})
	}
	for _, p := range t.players {
		select {
		case players <- p:
		case <-ctx.Done():
		}
	}
	close(players)
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	refused := 0
	for _, w := range t.workers {
		refused += w.errs[kJoin]
	}
	if refused > 0 {
		return fmt.Errorf("%d of %d joins refused or failed", refused, len(t.players))
	}
	return nil
}

// start has the organiser close the sign-up: round 1 is posted.
func (t *tournamentRun) start(ctx context.Context) error {
	w := t.workers[0]
	s := &session{guild: t.guild, channel: t.channel, admin: true}
	data := tournamentCommand("start", []jsonOption{{Name: "id", Type: discordgo.ApplicationCommandOptionInteger, Value: t.id}})
	r, err := w.interact(ctx, kOrganise, s, t.organiser, discordgo.InteractionApplicationCommand, data, nil)
	if err != nil {
		return fmt.Errorf("start the tournament: %w", err)
	}
	t.started = time.Now()
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || !r.ephemeral() {
		return fmt.Errorf("start the tournament: got %s, want the organiser's private answer", r)
	}
	t.startAns = r.Data.Content
	return nil
}

// boardJob is a board the bots posted, for a worker to play.
type boardJob struct {
	msg  string
	b    board
	x, o string
}

// play reads the bots' posts in the tournament's channel and hands each
// new board to a worker, until the final table is posted. A round not
// posted within tournamentStall of the last stalls the run.
func (t *tournamentRun) play(ctx context.Context, anyDone <-chan struct{}) (err error) {
	ctx, cancel := context.WithCancel(ctx)
	jobs := make(chan boardJob, t.o.rounds*(t.o.tournament/2+1))
	var wg sync.WaitGroup
	for _, w := range t.workers {
		wg.Go(func() {
			defer w.hangUpAll()
			for j := range jobs {
				t.playBoard(ctx, w, j)
			}
		})
	}
	defer func() {
		if err != nil {
			cancel() // the workers' games are left
		}
		close(jobs)
		wg.Wait()
		cancel()
	}()
	stall := time.NewTimer(tournamentStall)
	defer stall.Stop()
	seen := 0
	for {
		posts, changed := t.posts.since(seen)
		seen += len(posts)
		for _, p := range posts {
			if p.channel != t.channel {
				continue
			}
			job, round, table := t.read(p)
			switch {
			case job != nil:
				if t.posted.boards[job.b.game]++; t.posted.boards[job.b.game] > 1 {
					continue // posted again: the check counts it
				}
				select {
				case jobs <- *job:
				case <-ctx.Done():
					return ctx.Err()
				}
			case round > 0:
				if t.posted.rounds[round]++; t.posted.rounds[round] == 1 {
					t.posted.roundAt[round] = p.at
				}
				stall.Reset(tournamentStall)
			case table != "":
				t.posted.tables = append(t.posted.tables, table)
				t.finished = p.at
			default:
				t.posted.other++
			}
		}
		if len(t.posted.tables) > 0 {
			return nil
		}
		select {
		case <-changed:
		case <-stall.C:
			return fmt.Errorf("stalled: nothing posted for %s after round %d's pairings (the organiser's start was answered %q)",
				tournamentStall, len(t.posted.rounds), t.startAns)
		case <-anyDone:
			return errors.New("a bot exited during the tournament")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// read tells what a post in the channel is: a board to play, a round's
// pairings (its number), or the final table (its text).
func (t *tournamentRun) read(p channelPost) (job *boardJob, round int, table string) {
	text := shownText(p.data)
	if b, err := parseBoard(&response{Data: &p.data}); err == nil && len(b.marks) > 0 {
		// The board's header names X, then O.
		var names []string
		for _, m := range mentionRE.FindAllStringSubmatch(text, -1) {
			if len(names) == 0 || names[len(names)-1] != m[1] {
				names = append(names, m[1])
			}
		}
		j := &boardJob{msg: p.id, b: b}
		if len(names) >= 2 {
			j.x, j.o = names[0], names[1]
		}
		return j, 0, ""
	}
	if tableLine.MatchString(text) {
		return nil, 0, text
	}
	if m := roundHeading.FindStringSubmatch(text); m != nil {
		round, _ = strconv.Atoi(m[1])
	}
	return nil, round, ""
}

// playBoard plays one board: to its end, or until a player resigns (a
// share -resign of the games) or both walk away and leave it to the move
// timeout (a share -abandon), after a move at least.
func (t *tournamentRun) playBoard(ctx context.Context, w *worker, j boardJob) {
	if j.x == "" {
		w.fail(kMove, "the board of game %d names no two players", j.b.game)
		return
	}
	s := &session{guild: t.guild, channel: t.channel, humans: []string{j.x, j.o}, x: j.x, game: j.b.game, msg: j.msg, cur: j.b}
	w.games = append(w.games, s.game)
	rng := rand.New(rand.NewPCG(t.o.seed, uint64(s.game)))
	fate, at := "played out", -1
	switch f := rng.Float64(); {
	case f < t.o.abandon && len(j.b.free) > 2:
		fate, at = "walked away", 1+rng.IntN(len(j.b.free)-2)
	case f < t.o.abandon+t.o.resign:
		fate, at = "resigned", rng.IntN(len(j.b.free))
	}
	for moved := 0; len(s.cur.free) > 0; moved++ {
		if moved == at {
			if fate == "walked away" {
				w.letGo = append(w.letGo, s.game)
			} else if !t.resign(ctx, w, s) {
				return
			}
			w.sessions[fate]++
			return
		}
		if err := w.move(ctx, s); err != nil {
			return // counted by fail, or the run stopped
		}
	}
	w.sessions["played out"]++
}

// resign has the player to move click the board's Resign: the answer must
// be the board, over.
func (t *tournamentRun) resign(ctx context.Context, w *worker, s *session) bool {
	id := commands.CustomID{Action: commands.ActResign, GameID: s.game}.String()
	r, err := w.click(ctx, kResign, s, s.toMove(), id, &s.cur)
	if err != nil {
		return false
	}
	b, err := parseBoard(r)
	if err != nil || r.Type != discordgo.InteractionResponseUpdateMessage || r.ephemeral() || b.game != s.game || len(b.free) > 0 {
		w.fail(kResign, "got %s (%v), want the board of game %d over", r, err, s.game)
		return false
	}
	return true
}

// textComponent is a component as shownText reads it.
type textComponent struct {
	Type       int             `json:"type"`
	Content    string          `json:"content"`
	CustomID   string          `json:"custom_id"`
	Components []textComponent `json:"components"`
}

const textDisplayType = 10

// shownText is a message's text: its content and its text displays.
func shownText(d responseData) string {
	text := d.Content
	walkComponents(d.Components, func(c textComponent) {
		if c.Type == textDisplayType {
			text += "\n" + c.Content
		}
	})
	return text
}

// customIDs lists the custom IDs of a message's components.
func customIDs(raw json.RawMessage) []string {
	var out []string
	walkComponents(raw, func(c textComponent) {
		if c.CustomID != "" {
			out = append(out, c.CustomID)
		}
	})
	return out
}

func walkComponents(raw json.RawMessage, f func(textComponent)) {
	var top []textComponent
	if len(raw) == 0 || json.Unmarshal(raw, &top) != nil {
		return
	}
	var walk func([]textComponent)
	walk = func(cs []textComponent) {
		for _, c := range cs {
			f(c)
			walk(c.Components)
		}
	}
	walk(top)
}
