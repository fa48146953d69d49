package play_test

import (
	"cmp"
	"errors"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/play"
)

const guild = "500"

// TestGuildRules: a guild's channels, role and cooldown refuse a game, as
// the typed refusals say, and then let it start; a rematch obeys them too.
func TestGuildRules(t *testing.T) {
	const role = "700"
	tests := []struct {
		name   string
		set    func(*tttbot.Settings)
		c      play.Challenge
		before func(t *testing.T, s *play.Service, c *clock) // what happens before the challenge
		want   error
	}{
		{"a channel the guild does not list", func(st *tttbot.Settings) { st.Channels = []string{"601", "602"} },
			play.Challenge{Place: play.Place{ChannelID: "603"}}, nil, tttbot.ErrChannelNotAllowed},
		{"a channel the guild lists", func(st *tttbot.Settings) { st.Channels = []string{"601", "602"} },
			play.Challenge{Place: play.Place{ChannelID: "602"}}, nil, nil},
		{"without the role", func(st *tttbot.Settings) { st.Role = role },
			play.Challenge{Roles: []string{"701"}}, nil, tttbot.ErrRoleNeeded},
		{"with the role", func(st *tttbot.Settings) { st.Role = role },
			play.Challenge{Roles: []string{"701", role}}, nil, nil},
		{"within the cooldown", func(st *tttbot.Settings) { st.Cooldown = time.Minute },
			play.Challenge{}, func(t *testing.T, s *play.Service, c *clock) {
				g := challenge(t, s, play.Challenge{Place: play.Place{GuildID: guild, ChannelID: "610"}, Challenger: alice, Opponent: bob})
				if _, err := s.Decline(t.Context(), g.ID, bob, g.Version, nil); err != nil {
					t.Fatal(err)
				}
				c.now = c.now.Add(59 * time.Second)
			}, tttbot.ErrCooldown},
		{"once the cooldown ran out", func(st *tttbot.Settings) { st.Cooldown = time.Minute },
			play.Challenge{}, func(t *testing.T, s *play.Service, c *clock) {
				challenge(t, s, play.Challenge{Place: play.Place{GuildID: guild, ChannelID: "610"}, Challenger: alice, Opponent: bob})
				c.now = c.now.Add(time.Minute)
			}, nil},
		{"another player's cooldown", func(st *tttbot.Settings) { st.Cooldown = time.Minute },
			play.Challenge{}, func(t *testing.T, s *play.Service, c *clock) {
				challenge(t, s, play.Challenge{Place: play.Place{GuildID: guild, ChannelID: "610"}, Challenger: carol, Opponent: bob})
			}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, db, c := newService(t, nil)
			if _, err := db.UpdateSettings(t.Context(), guild, func(st *tttbot.Settings) error { tt.set(st); return nil }); err != nil {
				t.Fatal(err)
			}
			if tt.before != nil {
				tt.before(t, s, c)
			}
			req := tt.c
			req.GuildID, req.Challenger, req.Opponent = guild, alice, bob
			req.ChannelID = cmp.Or(req.ChannelID, "601")
			_, err := s.Challenge(t.Context(), req)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			var ce *tttbot.CooldownError
			if errors.As(err, &ce) && ce.Left != time.Second {
				t.Errorf("got %s left, want 1s", ce.Left)
			}
			var che *tttbot.ChannelError
			if errors.As(err, &che) && len(che.Allowed) != 2 {
				t.Errorf("got allowed channels %v, want the guild's two", che.Allowed)
			}
		})
	}
}

// TestGuildRole: without the guild's role a member can neither accept a
// challenge nor ask for a rematch; a stranger's rematch is refused as
// one first.
func TestGuildRole(t *testing.T) {
	const role = "700"
	s, db, _ := newService(t, scripted{0, 1, 2, 3, 4, 5, 6, 7, 8})
	g := challenge(t, s, play.Challenge{Place: play.Place{GuildID: guild}, Challenger: alice, Opponent: bob, First: play.FirstMe})
	if _, err := db.UpdateSettings(t.Context(), guild, func(st *tttbot.Settings) error { st.Role = role; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Accept(t.Context(), g.ID, bob, []string{"701"}, g.Version, nil); !errors.Is(err, tttbot.ErrRoleNeeded) {
		t.Fatalf("accept without the role: got %v, want %v", err, tttbot.ErrRoleNeeded)
	}
	g, err := s.Accept(t.Context(), g.ID, bob, []string{role}, g.Version, nil)
	if err != nil {
		t.Fatalf("accept with the role: %v", err)
	}
	if _, err := s.Resign(t.Context(), g.ChannelID, alice); err != nil {
		t.Fatal(err)
	}
	g, _ = db.Game(t.Context(), g.ID)
	// The game's own refusal comes before the guild's.
	if _, err := s.Rematch(t.Context(), g.ID, carol, nil, play.Place{GuildID: guild, ChannelID: "c1"}, nil); !errors.Is(err, play.ErrNotInGame) {
		t.Errorf("a stranger's rematch without the role: got %v, want %v", err, play.ErrNotInGame)
	}
	if _, err := s.Rematch(t.Context(), g.ID, alice, nil, play.Place{GuildID: guild, ChannelID: "c1"}, nil); !errors.Is(err, tttbot.ErrRoleNeeded) {
		t.Errorf("rematch without the role: got %v, want %v", err, tttbot.ErrRoleNeeded)
	}
	if _, err := s.Rematch(t.Context(), g.ID, alice, []string{role}, play.Place{GuildID: guild, ChannelID: "c1"}, nil); err != nil {
		t.Errorf("rematch with the role: %v", err)
	}
}

// TestGuildDefaults: what a challenge leaves out comes from the guild's
// defaults, else the built-in ones; what it says wins.
func TestGuildDefaults(t *testing.T) {
	tests := []struct {
		name      string
		defaults  tttbot.Defaults
		c         play.Challenge
		wantShape tttbot.Shape
		wantLevel ai.Level
		wantX     string
	}{
		{"built-in", tttbot.Defaults{}, play.Challenge{First: play.FirstMe}, tttbot.Shape{Rows: 3, Cols: 3, K: 3}, ai.Perfect, alice},
		{"the guild's", tttbot.Defaults{Size: 5, K: 5, Level: "easy", First: play.FirstThem}, play.Challenge{},
			tttbot.Shape{Rows: 5, Cols: 5, K: 5}, ai.Easy, bot},
		{"asked for", tttbot.Defaults{Size: 5, K: 5, Level: "easy", First: play.FirstThem},
			play.Challenge{Rows: 4, Cols: 4, K: 3, Level: ai.Hard, First: play.FirstMe}, tttbot.Shape{Rows: 4, Cols: 4, K: 3}, ai.Hard, alice},
		{"a size asked for, the guild's win too long for it", tttbot.Defaults{Size: 5, K: 5},
			play.Challenge{Rows: 4, Cols: 4, First: play.FirstMe}, tttbot.Shape{Rows: 4, Cols: 4, K: 4}, ai.Perfect, alice},
		{"a win asked for on the guild's size", tttbot.Defaults{Size: 4},
			play.Challenge{K: 3, First: play.FirstMe}, tttbot.Shape{Rows: 4, Cols: 4, K: 3}, ai.Perfect, alice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, db, _ := newService(t, scripted{0, 1, 2, 3, 4, 5, 6, 7, 8})
			if _, err := db.UpdateSettings(t.Context(), guild, func(st *tttbot.Settings) error { st.Defaults = tt.defaults; return nil }); err != nil {
				t.Fatal(err)
			}
			c := tt.c
			c.GuildID, c.ChannelID, c.Challenger = guild, "c1", alice
			r, err := s.Challenge(t.Context(), c)
			if err != nil {
				t.Fatal(err)
			}
			g := r.Game
			if g.Shape() != tt.wantShape || ai.Level(g.BotLevel) != tt.wantLevel || g.XPlayer != tt.wantX {
				t.Errorf("got %s, level %s, X %s; want %s, level %s, X %s", g.Shape(), g.BotLevel, g.XPlayer, tt.wantShape, tt.wantLevel, tt.wantX)
			}
		})
	}
}

// TestGuildTimeouts: a guild's timeouts set the deadlines of its
// challenges and turns, read when each starts; the bot's own turn keeps
// its short grace.
func TestGuildTimeouts(t *testing.T) {
	s, db, c := newService(t, scripted{4, 0, 1, 2, 3, 5, 6, 7, 8})
	set := func(challenge, turn time.Duration) {
		t.Helper()
		if _, err := db.UpdateSettings(t.Context(), guild, func(st *tttbot.Settings) error {
			st.ChallengeTimeout, st.TurnTimeout = challenge, turn
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	set(time.Hour, 30*time.Second)
	g := challenge(t, s, play.Challenge{Place: play.Place{GuildID: guild}, Challenger: alice, Opponent: bob, First: play.FirstMe})
	if want := c.now.Add(time.Hour); !g.Deadline.Equal(want) {
		t.Errorf("challenge deadline %s, want %s", g.Deadline, want)
	}
	g, err := s.Accept(t.Context(), g.ID, bob, nil, g.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := c.now.Add(30 * time.Second); !g.Deadline.Equal(want) {
		t.Errorf("first turn's deadline %s, want %s", g.Deadline, want)
	}
	set(0, 2*time.Minute)
	c.now = c.now.Add(10 * time.Second)
	r, err := s.Move(t.Context(), play.MoveClick{GameID: g.ID, User: alice, Cell: 0, Version: g.Version, Seen: g})
	if err != nil {
		t.Fatal(err)
	}
	if want := c.now.Add(2 * time.Minute); !r.Game.Deadline.Equal(want) {
		t.Errorf("after a move, deadline %s, want %s", r.Game.Deadline, want)
	}

	// Against the bot: the human's turn runs the guild's timeout.
	b := challenge(t, s, play.Challenge{Place: play.Place{GuildID: guild, ChannelID: "c2"}, Challenger: carol, First: play.FirstMe, Level: ai.Easy})
	if want := c.now.Add(2 * time.Minute); !b.Deadline.Equal(want) {
		t.Errorf("game against the bot: deadline %s, want %s", b.Deadline, want)
	}
	r, err = s.Move(t.Context(), play.MoveClick{GameID: b.ID, User: carol, Cell: 8, Version: b.Version, Seen: b})
	if err != nil {
		t.Fatal(err)
	}
	if r.Game.Turn != carol || !r.Game.Deadline.Equal(c.now.Add(2*time.Minute)) {
		t.Errorf("after the bot's answer: turn %s, deadline %s", r.Game.Turn, r.Game.Deadline)
	}
	// Settings out of bounds are refused and change nothing.
	if _, err := db.UpdateSettings(t.Context(), guild, func(st *tttbot.Settings) error { st.TurnTimeout = time.Second; return nil }); !errors.Is(err, tttbot.ErrBadSettings) {
		t.Errorf("a 1s turn: got %v, want %v", err, tttbot.ErrBadSettings)
	}
	if st, _ := db.Settings(t.Context(), guild); st.TurnTimeout != 2*time.Minute {
		t.Errorf("after a refused change: turn timeout %s, want 2m", st.TurnTimeout)
	}
}

// TestRematchForgotten: a rematch against a player who was forgotten is
// refused.
func TestRematchForgotten(t *testing.T) {
	s, db, _ := newService(t, nil)
	g := challenge(t, s, play.Challenge{Place: play.Place{GuildID: guild}, Challenger: alice, Opponent: bob, First: play.FirstMe})
	g, err := s.Accept(t.Context(), g.ID, bob, nil, g.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ForgetPlayer(t.Context(), bob, time.Time{}); err != nil {
		t.Fatal(err)
	}
	g, _ = db.Game(t.Context(), g.ID)
	if _, err := s.Rematch(t.Context(), g.ID, alice, nil, play.Place{GuildID: guild, ChannelID: "c1"}, nil); !errors.Is(err, play.ErrForgotten) {
		t.Errorf("got %v, want %v", err, play.ErrForgotten)
	}
}
