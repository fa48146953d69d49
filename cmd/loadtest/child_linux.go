package main

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill the bot if the load test dies first, so
// a crashed run leaves no bot behind.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
