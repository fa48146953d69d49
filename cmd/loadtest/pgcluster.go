package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// pgBinDir holds PostgreSQL's server programs (initdb, pg_ctl), unless
// TTTBOT_PG_BIN names another directory.
const pgBinDir = "/usr/lib/postgresql/15/bin"

// pgCluster is a PostgreSQL server of the load test's own, in a temporary
// directory and on a free port, which the soak restarts and stops at will:
// a shared server (other tests use the one on 5432) is never touched.
type pgCluster struct {
	bin  string
	dir  string // data, socket and log, removed by remove
	port int
	as   string // the OS user that runs the server when the test runs as root
}

// startCluster creates a cluster under dir with initdb and starts it.
func startCluster(ctx context.Context, dir string) (*pgCluster, error) {
	c := &pgCluster{bin: pgBinDir, dir: filepath.Join(dir, "postgres")}
	if b := os.Getenv("TTTBOT_PG_BIN"); b != "" {
		c.bin = b
	}
	if err := os.Mkdir(c.dir, 0o700); err != nil {
		return nil, fmt.Errorf("postgresql cluster: %w", err)
	}
	if os.Geteuid() == 0 {
		// The server refuses to run as root: its files belong to postgres.
		c.as = "postgres"
		u, err := user.Lookup(c.as)
		if err != nil {
			return nil, fmt.Errorf("postgresql cluster as root: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		// The temporary directory above it must let postgres through.
		if err := os.Chmod(dir, 0o711); err != nil {
			return nil, err
		}
		if err := os.Chown(c.dir, uid, gid); err != nil {
			return nil, fmt.Errorf("postgresql cluster: %w", err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("postgresql cluster: %w", err)
	}
	c.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	if err := c.run(ctx, "initdb", "-D", c.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "-N"); err != nil {
		return nil, err
	}
	if err := c.pgCtl(ctx, "start"); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *pgCluster) data() string { return filepath.Join(c.dir, "data") }

// statements reports whether the server has pg_stat_statements to load,
// which counts the statements the bots run (see topStatements).
func (c *pgCluster) statements() bool {
	_, err := os.Stat(filepath.Join(c.bin, "..", "lib", "pg_stat_statements.so"))
	return err == nil
}

// cpu is the CPU time the server's processes have used.
func (c *pgCluster) cpu() time.Duration {
	pids, err := c.processes()
	if err != nil {
		return 0
	}
	var t time.Duration
	for _, pid := range pids {
		t += cpuTime(pid)
	}
	return t
}

// url is the cluster's database for the bots.
func (c *pgCluster) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// run runs one of the server's programs, as the server's user.
func (c *pgCluster) run(ctx context.Context, prog string, args ...string) error {
	path := filepath.Join(c.bin, prog)
	if c.as != "" {
		args = append([]string{"-u", c.as, "--", path}, args...)
		path = "runuser"
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = c.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w\n%s", prog, err, out)
	}
	return nil
}

// pgCtl runs pg_ctl's action (start, restart) and waits for the server to
// take connections. The server listens on loopback only, and its socket is
// in the cluster's directory.
func (c *pgCluster) pgCtl(ctx context.Context, action string, args ...string) error {
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1", c.port, c.dir)
	if c.statements() {
		opts += " -c shared_preload_libraries=pg_stat_statements"
	}
	return c.run(ctx, "pg_ctl", append([]string{action, "-w", "-t", "60", "-D", c.data(), "-l", filepath.Join(c.dir, "log"), "-o", opts}, args...)...)
}

// restart stops the server (fast: open transactions roll back) and starts
// it again.
func (c *pgCluster) restart(ctx context.Context) error { return c.pgCtl(ctx, "restart", "-m", "fast") }

// processes are the postmaster's PID and those of its children: the
// backends and the server's own workers.
func (c *pgCluster) processes() ([]int, error) {
	b, err := os.ReadFile(filepath.Join(c.data(), "postmaster.pid"))
	if err != nil {
		return nil, fmt.Errorf("postmaster's pid: %w", err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pm, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil {
		return nil, fmt.Errorf("postmaster's pid: %w", err)
	}
	pids := []int{pm}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if parentPID(pid) == pm {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// parentPID is pid's parent, or 0 when /proc does not tell.
func parentPID(pid int) int {
	f := procStat(pid)
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// signalAll sends sig to each of pids, and reports the first failure.
func signalAll(pids []int, sig syscall.Signal) error {
	var errs []error
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("signal %d: %w", pid, err))
		}
	}
	return errors.Join(errs...)
}

// remove stops the server at once and deletes the cluster. It uses a
// context of its own: it runs when the test's has ended too.
func (c *pgCluster) remove() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if pids, err := c.processes(); err == nil {
		signalAll(pids, syscall.SIGCONT) // a stopped server cannot stop
	}
	err := c.run(ctx, "pg_ctl", "stop", "-w", "-D", c.data(), "-m", "immediate")
	return errors.Join(err, os.RemoveAll(c.dir))
}
