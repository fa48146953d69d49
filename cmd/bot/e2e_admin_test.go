package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/palette"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// bothModes runs test against a bot over the gateway and one in http mode.
func bothModes(t *testing.T, test func(t *testing.T, h *harness)) {
	for _, mode := range []struct {
		name  string
		start func(*testing.T) *harness
	}{{"gateway", newHarness}, {"http", newHTTPHarness}} {
		t.Run(mode.name, func(t *testing.T) { test(t, mode.start(t)) })
	}
}

// adminSays has admin run /ttt-admin command privately and fails unless the
// answer says every one of want.
func (h *harness) adminSays(t *testing.T, admin discordtest.User, ch, command string, opts []discordtest.Option, want ...string) *discordtest.Message {
	t.Helper()
	r := h.srv.Slash(t, admin, ch, "ttt-admin "+command, opts...).Wait(t)
	if !r.Ephemeral() {
		t.Fatalf("/ttt-admin %s: got a public answer %s", command, r.Data)
	}
	wantSays(t, r.Message, want...)
	return r.Message
}

// show has admin run /ttt-admin show and fails unless it says every one of
// want.
func (h *harness) show(t *testing.T, admin discordtest.User, ch string, want ...string) {
	t.Helper()
	h.adminSays(t, admin, ch, "show", nil, want...)
}

// TestAdminRegistered: /ttt-admin is registered for those who can manage
// the server, in servers only.
func TestAdminRegistered(t *testing.T) {
	h := newHarness(t)
	alice := h.srv.NewUser("alice")
	h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt help").Wait(t) // registration is done once /ttt works
	var admin *discordgo.ApplicationCommand
	h.srv.WaitCall(t, discordtest.RouteOverwriteGlobal)
	for _, c := range h.srv.Commands("") {
		if c.Name == "ttt-admin" {
			admin = c
		}
	}
	switch {
	case admin == nil:
		t.Fatal("no /ttt-admin registered")
	case admin.DefaultMemberPermissions == nil || *admin.DefaultMemberPermissions != discordgo.PermissionManageGuild:
		t.Errorf("default_member_permissions %v, want Manage Server", admin.DefaultMemberPermissions)
	case admin.Contexts == nil || !slices.Equal(*admin.Contexts, []discordgo.InteractionContextType{discordgo.InteractionContextGuild}):
		t.Errorf("contexts %v, want the guild only", admin.Contexts)
	case admin.DMPermission == nil || *admin.DMPermission:
		t.Errorf("dm_permission %v, want false", admin.DMPermission)
	}
}

// TestAdminControls: the server's controls, end to end — who may use them,
// channels, role, cooldown, defaults, timeouts and show after each change.
func TestAdminControls(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		srv := h.srv
		admin := srv.NewAdminUser("admin")
		alice, bob, carol := srv.NewUser("alice"), srv.NewUser("bob"), srv.NewUser("carol")
		lobby, games, other := srv.NewChannel(), srv.NewChannel(), srv.NewChannel()

		// A member who cannot manage the server is refused, even when
		// Discord shows them the command, and nothing changes.
		wantEphemeral(t, srv.Slash(t, alice, lobby, "ttt-admin cooldown", discordtest.IntOption("seconds", 60)).Wait(t), "manage this server")
		wantEphemeral(t, srv.Slash(t, alice, lobby, "ttt-admin show").Wait(t), "manage this server")
		h.show(t, admin, lobby, "**Games may start in**: everywhere", "**Cooldown**: none (default: none)")

		// Channels: a game already running elsewhere goes on.
		running := h.startGame(other, alice, bob)
		h.adminSays(t, admin, lobby, "channels add", []discordtest.Option{discordtest.ChannelOption("channel", games)},
			"**Games may start in**: <#"+games+">")
		h.show(t, admin, lobby, "**Games may start in**: <#"+games+"> (default: everywhere)")
		wantEphemeral(t, srv.Slash(t, carol, lobby, "ttt challenge").Wait(t), "Try <#"+games+">")
		running, _ = h.play(running, alice, bob, 4)
		wantSays(t, running, bob.Mention()+", your turn")
		board := srv.Slash(t, carol, games, "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
		if len(freeCells(board)) != 9 {
			t.Fatalf("a game in the allowed channel:\n%s", board)
		}
		srv.Slash(t, carol, games, "ttt resign").Wait(t)
		h.adminSays(t, admin, lobby, "channels add", []discordtest.Option{discordtest.ChannelOption("channel", lobby)},
			"<#"+games+">, <#"+lobby+">")
		h.adminSays(t, admin, lobby, "channels remove", []discordtest.Option{discordtest.ChannelOption("channel", games)},
			"**Games may start in**: <#"+lobby+"> (default")
		wantEphemeral(t, srv.Slash(t, admin, lobby, "ttt-admin channels remove", discordtest.ChannelOption("channel", games)).Wait(t), "isn't on the list")
		h.adminSays(t, admin, lobby, "channels clear", nil, "**Games may start in**: everywhere")

		// Role: only members with it start or accept a game.
		players := srv.NewRole("players")
		h.adminSays(t, admin, lobby, "role set", []discordtest.Option{discordtest.RoleOption("role", players)}, "members with <@&"+players+">")
		h.show(t, admin, lobby, "**Who may start or accept a game**: members with <@&"+players+"> (default: anyone)")
		wantEphemeral(t, srv.Slash(t, carol, srv.NewChannel(), "ttt challenge").Wait(t), "certain role")
		carol.Roles = []string{players}
		ch := srv.NewChannel()
		msg := srv.Slash(t, carol, ch, "ttt challenge", discordtest.UserOption("opponent", bob)).Result(t)
		wantEphemeral(t, srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Wait(t), "certain role")
		bob.Roles = []string{srv.NewRole("other"), players}
		board = srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
		wantSays(t, board, "your turn")
		h.adminSays(t, admin, lobby, "role clear", nil, "anyone")
		bob.Roles, carol.Roles = nil, nil

		// Cooldown, on the test clock: the refusal says how long is left.
		h.adminSays(t, admin, lobby, "cooldown", []discordtest.Option{discordtest.IntOption("seconds", 90)}, "**Cooldown**: 90 seconds between two games")
		h.show(t, admin, lobby, "**Cooldown**: 90 seconds")
		ch = srv.NewChannel()
		srv.Slash(t, alice, ch, "ttt challenge").Result(t)
		srv.Slash(t, alice, ch, "ttt resign").Wait(t)
		h.clock.Advance(30 * time.Second)
		wantEphemeral(t, srv.Slash(t, alice, ch, "ttt challenge").Wait(t), "start another in 1 minute")
		h.clock.Advance(60 * time.Second)
		if m := srv.Slash(t, alice, ch, "ttt challenge").Result(t); m.Ephemeral() {
			t.Fatalf("after the cooldown: %s", m)
		}
		srv.Slash(t, alice, ch, "ttt resign").Wait(t)
		h.adminSays(t, admin, lobby, "cooldown", []discordtest.Option{discordtest.IntOption("seconds", 0)}, "**Cooldown**: none")

		// Defaults: a bare /ttt challenge takes them.
		h.adminSays(t, admin, lobby, "defaults", []discordtest.Option{discordtest.IntOption("size", 4),
			discordtest.StringOption("difficulty", "easy"), discordtest.StringOption("first", "me")},
			"4×4, 4 in a row, the challenger moves first, me at easy")
		h.show(t, admin, lobby, "**A bare /ttt challenge plays**: 4×4, 4 in a row, the challenger moves first, me at easy")
		ch = srv.NewChannel()
		board = srv.Slash(t, carol, ch, "ttt challenge").Result(t)
		if len(cells(board)) != 16 || len(freeCells(board)) != 16 || !strings.Contains(board.Text(), "(easy)") {
			t.Errorf("a bare challenge with the defaults 4×4, easy, me first:\n%s", board)
		}
		srv.Slash(t, carol, ch, "ttt resign").Wait(t)
		board = srv.Slash(t, carol, ch, "ttt challenge", discordtest.IntOption("size", 3)).Result(t)
		if len(cells(board)) != 9 {
			t.Errorf("a size asked for beats the default:\n%s", board)
		}
		srv.Slash(t, carol, ch, "ttt resign").Wait(t)
		h.adminSays(t, admin, lobby, "defaults", []discordtest.Option{discordtest.BoolOption("reset", true)}, "3×3, 3 in a row, random moves first, me at perfect")

		// Timeouts: within bounds, and a turn runs out at the server's.
		wantEphemeral(t, srv.Slash(t, admin, lobby, "ttt-admin timeouts", discordtest.StringOption("turn", "5s")).Wait(t), "15 seconds to 24 hours")
		wantEphemeral(t, srv.Slash(t, admin, lobby, "ttt-admin timeouts", discordtest.StringOption("challenge", "soon")).Wait(t), "not a duration")
		h.adminSays(t, admin, lobby, "timeouts", []discordtest.Option{discordtest.StringOption("turn", "30s"), discordtest.StringOption("challenge", "1h")},
			"**Timeouts**: challenges 1 hour, turns 30 seconds (default: challenges 2 minutes, turns 5 minutes)")
		h.show(t, admin, lobby, "challenges 1 hour, turns 30 seconds")
		ch = srv.NewChannel()
		board = h.startGame(ch, alice, bob)
		board, _ = h.play(board, alice, bob, 0)
		h.clock.Advance(30*time.Second + tttbot.DeadlineGrace)
		srv.WaitMessage(t, ch, board.ID, func(m *discordtest.Message) bool {
			return strings.Contains(m.Text(), bob.Mention()+" ran out of time")
		})

		// Simultaneous games replace /ttt settings, which points there.
		wantEphemeral(t, srv.Slash(t, admin, lobby, "ttt settings", discordtest.BoolOption("simultaneous_games", true)).Wait(t), "/ttt-admin simultaneous")
		h.adminSays(t, admin, lobby, "simultaneous", []discordtest.Option{discordtest.BoolOption("allow", true)}, "**Several games at once in a channel**: allowed")
		h.show(t, admin, lobby, "**Several games at once in a channel**: allowed (default: as the bot is configured)")
		srv.Slash(t, alice, lobby, "ttt challenge", discordtest.UserOption("opponent", bob)).Result(t)
		if m := srv.Slash(t, carol, lobby, "ttt challenge").Result(t); m.Ephemeral() {
			t.Errorf("a second game in the channel once allowed: %s", m)
		}

		h.adminSays(t, admin, lobby, "language", []discordtest.Option{discordtest.StringOption("locale", "pt-BR")}, "Português (Brasil)")
		h.show(t, admin, lobby, "**Language of public messages**: Português (Brasil)")
		h.adminSays(t, admin, lobby, "language", []discordtest.Option{discordtest.StringOption("locale", "server")}, "Discord's server language")
	})
}

// TestAdminMarks: custom marks on a played board; an emoji the bot cannot
// use is refused with the reason.
func TestAdminMarks(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		srv := h.srv
		admin, alice := srv.NewAdminUser("admin"), srv.NewUser("alice")
		party := srv.NewEmoji(srv.GuildID(), "party", true)
		foreign := srv.NewEmoji("9999", "elsewhere", false)
		reserved := srv.NewEmoji(srv.GuildID(), "vip", false, srv.NewRole("vip"))
		ch := srv.NewChannel()

		for _, tt := range []struct {
			x, want string
		}{
			{foreign.String(), "isn't one of this server's emojis"},
			{reserved.String(), "reserved for some roles"},
			{"X", "A mark is one emoji"},
			{"🐱🐶", "can't be X's mark"},
		} {
			wantEphemeral(t, srv.Slash(t, admin, ch, "ttt-admin marks", discordtest.StringOption("x", tt.x)).Wait(t), tt.want)
		}
		h.show(t, admin, ch, "**Marks**: X ❌, O ⭕ (default")
		h.adminSays(t, admin, ch, "marks", []discordtest.Option{discordtest.StringOption("x", party.String()), discordtest.StringOption("o", "🐶")},
			"**Marks**: X "+party.String()+", O 🐶")
		h.show(t, admin, ch, "**Marks**: X "+party.String()+", O 🐶")

		board := srv.Slash(t, alice, ch, "ttt challenge", discordtest.StringOption("first", "me"), discordtest.StringOption("difficulty", "easy")).Result(t)
		wantSays(t, board, party.String()+" "+alice.Mention()+" vs 🐶")
		board = srv.Click(t, alice, board, cells(board)[4].CustomID).Result(t)
		var xs, os int
		for _, b := range cells(board) {
			switch {
			case b.Emoji == party.ID && b.Label == "":
				xs++
			case b.Emoji == "🐶" && b.Label == "":
				os++
			case b.Emoji != "" || b.Label != "\u200b":
				t.Errorf("cell %d,%d: emoji %q label %q", b.Row, b.Col, b.Emoji, b.Label)
			}
		}
		if xs != 1 || os != 1 {
			t.Errorf("got %d cells with X's mark and %d with O's, want 1 and 1:\n%s", xs, os, board)
		}
		h.playBot(alice, board)

		h.adminSays(t, admin, ch, "marks", []discordtest.Option{discordtest.BoolOption("reset", true)}, "**Marks**: X ❌, O ⭕")
		board = srv.Slash(t, alice, srv.NewChannel(), "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
		board = srv.Click(t, alice, board, cells(board)[4].CustomID).Result(t)
		if b := cells(board)[4]; b.Label != "X" || b.Emoji != "" {
			t.Errorf("after reset: center cell label %q emoji %q, want X", b.Label, b.Emoji)
		}
		wantSays(t, board, "❌ "+alice.Mention())
	})
}

// TestAdminResetRatings: reset-ratings clears this server's leaderboard and
// leaves the global one.
func TestAdminResetRatings(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		srv := h.srv
		admin, alice, bob := srv.NewAdminUser("admin"), srv.NewUser("alice"), srv.NewUser("bob")
		ch := srv.NewChannel()
		h.play(h.startGame(ch, alice, bob), alice, bob, 0, 3, 1, 4, 2)
		wantSays(t, srv.Slash(t, bob, ch, "ttt stats", discordtest.UserOption("user", alice)).Result(t), "1 won, 0 lost")

		wantEphemeral(t, srv.Slash(t, admin, ch, "ttt-admin reset-ratings", discordtest.BoolOption("confirm", false)).Wait(t), "Nothing cleared")
		wantSays(t, srv.Slash(t, bob, ch, "ttt stats", discordtest.UserOption("user", alice)).Result(t), "1 won, 0 lost")
		h.adminSays(t, admin, ch, "reset-ratings", []discordtest.Option{discordtest.BoolOption("confirm", true)}, "leaderboard is cleared: 2 ratings deleted")
		wantSays(t, srv.Slash(t, bob, ch, "ttt stats", discordtest.UserOption("user", alice)).Result(t), "No rated games yet")
		wantSays(t, srv.Slash(t, bob, srv.NewDMChannel(), "ttt stats", discordtest.UserOption("user", alice)).Result(t), "1 won, 0 lost")
		wantSays(t, srv.Slash(t, bob, ch, "ttt history").Result(t), "lost to "+alice.Mention())
		checkDB(t, h)
	})
}

// TestForgetMe: a player erased keeps nothing of theirs: name, ratings; an
// open game of theirs is resigned; their opponent's replay still works.
func TestForgetMe(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		srv := h.srv
		alice, bob, carol := srv.NewUser("alice"), srv.NewUser("bob"), srv.NewUser("carol")
		ch, ch2 := srv.NewChannel(), srv.NewChannel()
		h.play(h.startGame(ch, alice, bob), alice, bob, 0, 3, 1, 4, 2)
		open := h.startGame(ch2, carol, alice)
		open, _ = h.play(open, carol, alice, 4)

		wantEphemeral(t, srv.Slash(t, alice, ch, "ttt forget-me", discordtest.BoolOption("confirm", false)).Wait(t), "Nothing erased")
		r := srv.Slash(t, alice, ch, "ttt forget-me", discordtest.BoolOption("confirm", true)).Wait(t)
		wantEphemeral(t, r, "I have forgotten you")
		wantSays(t, r.Message, "Your name is erased", "2 ratings", "1 open game", "In 2 stored games")

		// The open game is resigned, and its board says so.
		got := srv.WaitMessage(t, ch2, open.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "resigned") })
		wantSays(t, got, "a forgotten player* resigned", carol.Mention()+" wins")
		wantBoard(t, "closed by an erasure", got, palette.X, commands.ActRematch, "v")
		wantSays(t, srv.Slash(t, carol, ch2, "ttt stats").Result(t), "1 won, 0 lost")

		// Nothing of alice's ratings is left; bob's history replays.
		wantSays(t, srv.Slash(t, bob, ch, "ttt stats", discordtest.UserOption("user", alice)).Result(t), "No rated games yet")
		hist := srv.Slash(t, bob, ch, "ttt history").Result(t)
		wantSays(t, hist, "lost to *a forgotten player*")
		if strings.Contains(hist.Text(), alice.Mention()) {
			t.Errorf("bob's history still names alice:\n%s", hist)
		}
		replay := srv.Click(t, bob, hist, hist.Button(t, "Replay 1").CustomID).Result(t)
		wantSays(t, replay, "Move 5 of 5: ❌ *a forgotten player* played C1.", "*a forgotten player* wins")
		replay = srv.Click(t, bob, replay, replay.Button(t, "⏮").CustomID).Result(t)
		wantSays(t, replay, "The empty board; 5 moves to go.")
		checkDB(t, h)
		noTrace(t, h, alice)
	})
}

// noTrace fails if the bot's database still holds u's ID or name anywhere.
func noTrace(t *testing.T, h *harness, u discordtest.User) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+h.db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"SELECT count(*) FROM players WHERE id = ?1 OR name = ?2",
		"SELECT count(*) FROM games WHERE ?1 IN (challenger_id, opponent_id, x_player_id, o_player_id, ifnull(turn_id, ''), ifnull(winner_id, ''))",
		"SELECT count(*) FROM moves WHERE player_id = ?1",
		"SELECT count(*) FROM results WHERE ?1 IN (player_id, opponent_id)",
		"SELECT count(*) FROM ratings WHERE player_id = ?1",
		"SELECT count(*) FROM bot_records WHERE player_id = ?1",
	} {
		var n int
		if err := db.QueryRow(q, u.ID, u.Username).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%d rows still hold %s: %s", n, u.Username, q)
		}
	}
}

// checkDB fails unless the bot's database passes sqlite.Check.
func checkDB(t *testing.T, h *harness) {
	t.Helper()
	problems, err := sqlite.Check(t.Context(), h.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Errorf("database check: %v", problems)
	}
}

// TestForgetCmd: `bot forget` erases a player as /ttt forget-me does.
func TestForgetCmd(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.srv.NewUser("alice"), h.srv.NewUser("bob"), h.srv.NewUser("carol")
	ch, ch2 := h.srv.NewChannel(), h.srv.NewChannel()
	h.play(h.startGame(ch, alice, bob), alice, bob, 0, 3, 1, 4, 2)
	open, _ := h.play(h.startGame(ch2, carol, alice), carol, alice, 4)
	h.stop()

	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[database]\npath = "+strconv.Quote(h.db)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runSub(t, forgetCmd, "", "-config", cfg, alice.ID)
	if err != nil {
		t.Fatalf("forget: %v\n%s", err, errOut)
	}
	if want := "forgot " + alice.ID + ": name erased, 2 ratings and 0 records against the bot deleted, 1 open games ended first, 2 games now anonymous"; !strings.Contains(out, want) {
		t.Errorf("got %q, want %q", out, want)
	}
	checkDB(t, h)
	noTrace(t, h, alice)

	// The board of the game it ended shows it at its next click.
	h.start()
	h.srv.WaitReady(t)
	wantEphemeral(t, h.srv.Click(t, carol, open, freeCells(open)[0].CustomID).Wait(t), "over")
	got := h.srv.WaitMessage(t, ch2, open.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "resigned") })
	wantSays(t, got, "*a forgotten player* resigned", carol.Mention()+" wins")
	for _, args := range [][]string{{"-config", cfg, "alice"}, {"-config", cfg}} {
		if _, _, err := runSub(t, forgetCmd, "", args...); err == nil {
			t.Errorf("forget %q: got no error", args)
		}
	}
}
