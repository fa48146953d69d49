package pgtest

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
)

// Main runs the tests of a package whose tests need Var, after Announce:
// call it from the package's TestMain.
func Main(m *testing.M) {
	announce(callerPackage())
	os.Exit(m.Run())
}

// Announce prints one line when Var is unset, saying that the calling
// package's PostgreSQL tests skip and how to run them: for a TestMain that
// does more than Main.
func Announce() { announce(callerPackage()) }

func announce(pkg string) {
	if os.Getenv(Var) != "" {
		return
	}
	w, closeW := goStderr()
	defer closeW()
	fmt.Fprintf(w, "%s: PostgreSQL tests skipped: set %s=postgres://postgres@127.0.0.1:5432/test?sslmode=disable to run them\n", pkg, Var)
}

// callerPackage is the import path of the function that called the caller.
func callerPackage() string {
	pc, _, _, _ := runtime.Caller(2)
	name := runtime.FuncForPC(pc).Name() // path/to/pkg_test.TestMain
	dot := strings.LastIndex(name, "/") + 1
	dot += strings.Index(name[dot:], ".")
	return strings.TrimSuffix(name[:dot], "_test")
}

// goStderr is the standard error of the go command that runs the test
// binary, when that is a terminal or a pipe: go test ./... shows nothing a
// passing package prints, so a line to the binary's own standard error
// would go unseen. Elsewhere it is os.Stderr. A file is not reopened, as
// its new offset would write over the go command's output.
func goStderr() (w io.Writer, closeW func()) {
	path := fmt.Sprintf("/proc/%d/fd/2", os.Getppid())
	if info, err := os.Stat(path); err == nil && info.Mode()&(os.ModeNamedPipe|os.ModeCharDevice) != 0 {
		if f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0); err == nil {
			return f, func() { f.Close() }
		}
	}
	return os.Stderr, func() {}
}
