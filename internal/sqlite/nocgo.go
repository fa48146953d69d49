//go:build !cgo

package sqlite

// tttbot stores its games with mattn/go-sqlite3, which is C compiled through
// cgo. Built without cgo (CGO_ENABLED=0, or no C compiler found), that
// package compiles to a stub and this package fails with errors that do not
// say why; this undefined name says it first. Go has no #error directive.
var _ = tttbot_needs_cgo__install_a_C_compiler_such_as_gcc_and_build_with_CGO_ENABLED_1
