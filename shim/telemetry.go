package shim

import (
	"os"
	"syscall"
	"time"

	"github.com/guard-dev/guard/ccs"
)

// flusherNice is the flusher's scheduling priority (nice).
const flusherNice = 10

// startFlusher starts guard-cli telemetry flush, detached, when a flush is
// due in stateDir at now ([telemetry] is set). What it costs guard's hot
// path: one stat of the due file, and a fork and exec once a minute at
// most (ccs.ClaimFlush). guard never waits for the flusher: it runs in a
// session of its own with its output on /dev/null, and outlives guard.
// Any failure here only delays the export to the next due time.
func startFlusher(stateDir string, env *Env, now time.Time) {
	if !ccs.ClaimFlush(stateDir, now) {
		return
	}
	// Only the guard-cli next to guard, as for the import: this runs
	// unjudged, so a guard-cli on the agent's PATH must not be it.
	cli, err := FindCLI(env.Self, "")
	if err != nil {
		return
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer null.Close()
	fd := null.Fd()
	pid, err := syscall.ForkExec(cli, []string{CLIName, "telemetry", "flush", "--background"}, &syscall.ProcAttr{
		Env:   env.Environ,
		Files: []uintptr{fd, fd, fd},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return
	}
	// Nice 10 from its first instruction on (its package inits run before
	// it could lower its own): the flusher must not compete with the
	// agent's next command for the CPU.
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, pid, flusherNice)
	// guard usually exits first (the flusher is then init's to reap); a
	// guard that lives on (an interactive shell) reaps it when it ends.
	go func() {
		var ws syscall.WaitStatus
		for {
			if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
				return
			}
		}
	}()
}
