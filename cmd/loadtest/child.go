package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// freeAddr finds a free loopback port for the bot, which keeps it across a
// restart.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// child is a bot under load.
type child struct {
	cmd    *exec.Cmd
	done   chan struct{} // closed when the process has exited
	err    error         // its exit, once done
	killed atomic.Bool   // on purpose, by kill
}

// startChild runs bin with the config at cfg, and godebug added to its
// GODEBUG (see withGodebug), and waits until base/healthz answers.
func startChild(ctx context.Context, bin, cfg, base, godebug string, stderr io.Writer) (*child, error) {
	cmd := exec.Command(bin, "run", "-config", cfg)
	env := []string{"DISCORD_TOKEN=loadtest-token"}
	for _, kv := range os.Environ() {
		// The config names the database and the token.
		if !strings.HasPrefix(kv, "TTTBOT_DATABASE_PATH=") && !strings.HasPrefix(kv, "TTTBOT_DATABASE_URL=") && !strings.HasPrefix(kv, "DISCORD_TOKEN=") {
			env = append(env, kv)
		}
	}
	cmd.Env, cmd.Stderr = withGodebug(env, godebug), stderr
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the bot: %w", err)
	}
	c := &child{cmd: cmd, done: make(chan struct{})}
	go func() { c.err = cmd.Wait(); close(c.done) }()
	deadline := time.Now().Add(time.Minute)
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return c, nil
			}
		}
		select {
		case <-c.done:
			return nil, fmt.Errorf("the bot exited at start-up: %v", c.err)
		case <-ctx.Done():
			c.kill()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.kill()
			return nil, errors.New("the bot was not healthy within a minute")
		}
	}
}

// exited returns why the bot exited, or nil while it runs.
func (c *child) exited() error {
	select {
	case <-c.done:
		if c.err == nil {
			return errors.New("exit status 0")
		}
		return c.err
	default:
		return nil
	}
}

// kill sends SIGKILL and waits for the process to go.
func (c *child) kill() {
	c.killed.Store(true)
	c.cmd.Process.Kill()
	<-c.done
}

// stop asks the bot to shut down (SIGTERM) and waits for it.
func (c *child) stop() error {
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("stop the bot: %w", err)
	}
	select {
	case <-c.done:
		if c.err != nil {
			return fmt.Errorf("the bot's shutdown: %w", c.err)
		}
		return nil
	case <-time.After(30 * time.Second):
		c.kill()
		return errors.New("the bot did not stop within 30s")
	}
}

// cpuTime is the CPU time the bot has used, or 0 where /proc does not tell.
func (c *child) cpuTime() time.Duration { return cpuTime(c.cmd.Process.Pid) }

// cpuTime is the CPU time process pid has used, or 0 where /proc does not
// tell.
func cpuTime(pid int) time.Duration {
	// utime and stime are the 12th and 13th fields after the command name.
	f := procStat(pid)
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return clockTicks(user + sys)
}

// clockTicks is n of /proc's clock ticks (USER_HZ, 100 a second) as a
// duration.
func clockTicks(n int64) time.Duration { return time.Duration(n) * time.Second / 100 }

// machineBusy is the CPU time every process on the machine has used, the
// kernel's included, and the machine's CPUs; 0 where /proc does not tell.
func machineBusy() (time.Duration, int) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	return parseMachineBusy(string(b))
}

// parseMachineBusy reads /proc/stat: the busy time from its first line,
// the sum over the CPUs of all but idle and iowait (guest time is in user
// already), and the CPUs from the lines of each.
func parseMachineBusy(stat string) (time.Duration, int) {
	line, rest, _ := strings.Cut(stat, "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0
	}
	var busy int64
	for i, name := range []string{"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"} {
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return 0, 0
		}
		if name != "idle" && name != "iowait" {
			busy += n
		}
	}
	cpus := 0
	for l := range strings.Lines(rest) {
		if strings.HasPrefix(l, "cpu") {
			cpus++
		}
	}
	return clockTicks(busy), cpus
}

// procStat is the fields of /proc/PID/stat after the command's name, or
// nil where /proc does not tell.
func procStat(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.Fields(rest)
}

// peakRSS is the process's peak resident memory in bytes (VmHWM), or 0 where
// /proc does not tell.
func (c *child) peakRSS() int64 { return c.status("VmHWM:") }

// rss is the process's resident memory in bytes now (VmRSS), or 0 where
// /proc does not tell.
func (c *child) rss() int64 { return c.status("VmRSS:") }

// status is the field of /proc/PID/status, in kB, in bytes.
func (c *child) status(field string) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
