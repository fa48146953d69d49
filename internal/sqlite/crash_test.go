package sqlite

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/storetest"
)

// crashEnv names the database a re-executed test binary plays in until it
// is killed.
const crashEnv = "TTTBOT_SQLITE_CRASH_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		err := crashChild(path)
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// crashChild plays games in four goroutines until killed, writing one line
// "game ply cell" to stdout after each move the store acknowledged. It
// returns only on an error.
func crashChild(path string) error {
	ctx := context.Background()
	db, err := Open(ctx, path, Options{})
	if err != nil {
		return err
	}
	errc := make(chan error)
	for w := range 4 {
		go func() {
			rng := rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(w)))
			channel := fmt.Sprintf("crash-%d-%d", os.Getpid(), w)
			for {
				g := &tttbot.Game{ChannelID: channel, Rows: 5, Cols: 5, K: 4, Challenger: "x", Opponent: "o",
					XPlayer: "x", OPlayer: "o", Status: tttbot.StatusActive}
				if err := db.StartGame(ctx, g, nil); err != nil {
					errc <- err
					return
				}
				for g.Status == tttbot.StatusActive {
					pos, err := game.ParseIn(game.MustGeometry(g.Rows, g.Cols, g.K), g.Board)
					if err != nil {
						errc <- err
						return
					}
					free := pos.Empty().Cells()
					cell := free[rng.IntN(len(free))]
					if g, err = db.Play(ctx, tttbot.MoveRequest{GameID: g.ID, Player: g.Turn, Cell: cell, Version: g.Version}, nil); err != nil {
						errc <- err
						return
					}
					// One write of a short line: atomic on a pipe, unbuffered.
					fmt.Fprintf(os.Stdout, "%d %d %d\n", g.ID, g.Version-1, cell)
				}
			}
		}()
	}
	return <-errc
}

// TestCrashSafety kills a process that is playing at a random moment, a few
// times over the same database, and checks that every move it reported as
// acknowledged survived and that the database is intact.
func TestCrashSafety(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 3))
	total := 0
	for round := range 4 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}

		type ack struct {
			game      int64
			ply, cell int
		}
		var acks []ack
		first := make(chan struct{})
		var once sync.Once
		done := make(chan struct{})
		go func() {
			defer close(done)
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				var a ack
				if _, err := fmt.Sscan(sc.Text(), &a.game, &a.ply, &a.cell); err != nil {
					t.Errorf("child wrote %q: %v", sc.Text(), err)
					continue
				}
				acks = append(acks, a)
				once.Do(func() { close(first) })
			}
		}()
		select {
		case <-first:
		case <-done:
			cmd.Wait()
			t.Fatalf("round %d: child ended before its first move:\n%s", round, stderr.Bytes())
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			t.Fatalf("round %d: no move from the child in a minute", round)
		}
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		if err := cmd.Process.Kill(); err != nil { // SIGKILL
			t.Fatal(err)
		}
		<-done
		if err := cmd.Wait(); err == nil || cmd.ProcessState.Exited() {
			t.Fatalf("round %d: child was not killed: %v\n%s", round, err, stderr.Bytes())
		}

		integrity(t, path)
		db, err := Open(t.Context(), path, Options{})
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		games := map[int64]bool{}
		for _, a := range acks {
			var cell int
			if err := db.r.QueryRow("SELECT cell FROM moves WHERE game_id = ? AND ply = ?", a.game, a.ply).Scan(&cell); err != nil || cell != a.cell {
				t.Errorf("round %d: acknowledged move %+v: got cell %d, %v", round, a, cell, err)
			}
			games[a.game] = true
		}
		for id := range games {
			storetest.Replay(t, db, id)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: killed after %d acknowledged moves, all present", round, len(acks))
		total += len(acks)
	}
	if total == 0 {
		t.Fatal("no move acknowledged in any round")
	}
}
