package shim

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// forwarded are the signals guard passes on to the command's process group.
var forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGWINCH}

// defaultGrace is how long a command may take to exit after SIGTERM before
// guard sends SIGKILL.
const defaultGrace = 2 * time.Second

// runSpec is one command to run in its own process group.
type runSpec struct {
	Path                  string
	Argv                  []string
	Env                   []string
	Dir                   string
	Stdin, Stdout, Stderr *os.File
	Timeout               time.Duration    // 0: no timeout
	Grace                 time.Duration    // SIGTERM → SIGKILL; 0: defaultGrace
	Signals               <-chan os.Signal // signals guard received, to forward
}

// runResult is how a run ended.
type runResult struct {
	Exit     int  // the command's status as bash reports it (signal N → 128+N)
	TimedOut bool // killed at the timeout: guard exits ExitTimeout
}

// run starts the command and waits for it. The command gets the caller's own
// files (nothing is copied) and runs in a new process group; when stdin is
// the terminal and guard is in its foreground, the group gets the foreground
// and guard takes it back afterwards. Signals from sp.Signals go to the group.
// On timeout, or when guard itself is told to go (SIGTERM, SIGHUP): SIGTERM to
// the group and every descendant, SIGKILL after the grace, and nothing that the
// command started is left running. After SIGINT or SIGQUIT the command may
// go on (a trap), but once it ends whatever it left behind is killed too.
// The error is a failure to start.
func run(sp runSpec) (runResult, error) {
	if sp.Grace <= 0 {
		sp.Grace = defaultGrace
	}
	// Orphans of the command (daemons, double forks, setsid) reparent to guard
	// rather than to init, so they stay findable as guard's descendants.
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	before := directChildren() // guard's children from before (tests): never touched

	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	ttyFd := -1
	if sp.Stdin != nil && term.IsTerminal(int(sp.Stdin.Fd())) {
		fd := int(sp.Stdin.Fd())
		if fg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err == nil && fg == unix.Getpgrp() {
			// The child puts itself in the foreground between fork and exec,
			// so it can never read the terminal before it owns it.
			attr.Foreground = true
			attr.Ctty = fd
			ttyFd = fd
		}
	}
	var ttyState *term.State
	if ttyFd >= 0 {
		ttyState, _ = term.GetState(ttyFd)
	}
	cmd := &exec.Cmd{Path: sp.Path, Args: sp.Argv, Env: sp.Env, Dir: sp.Dir, SysProcAttr: attr}
	// Files go straight to the child (no copying goroutines); a nil file
	// must stay a nil interface, which exec turns into /dev/null.
	if sp.Stdin != nil {
		cmd.Stdin = sp.Stdin
	}
	if sp.Stdout != nil {
		cmd.Stdout = sp.Stdout
	}
	if sp.Stderr != nil {
		cmd.Stderr = sp.Stderr
	}
	if err := cmd.Start(); err != nil {
		return runResult{}, fmt.Errorf("start %s: %w", sp.Argv[0], err)
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var timeout, kill <-chan time.Time
	if sp.Timeout > 0 {
		t := time.NewTimer(sp.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var res runResult
	ending := false // the command is being made to stop: clean up after it
	terminate := func() {
		ending = true
		signalAll(pgid, before, syscall.SIGTERM)
		if kill == nil {
			kill = time.After(sp.Grace)
		}
	}
wait:
	for {
		select {
		case <-done:
			break wait
		case s := <-sp.Signals:
			sig, ok := s.(syscall.Signal)
			if !ok {
				continue
			}
			_ = unix.Kill(-pgid, sig)
			switch sig {
			case syscall.SIGTERM, syscall.SIGHUP:
				// guard is being told to go: make sure the command goes too.
				ending = true
				if kill == nil {
					kill = time.After(sp.Grace)
				}
			case syscall.SIGINT, syscall.SIGQUIT:
				// The command was interrupted: the shell may handle that and
				// go on, but what it leaves behind when it ends is cleared.
				ending = true
			}
		case <-timeout:
			res.TimedOut = true
			terminate()
		case <-kill:
			signalAll(pgid, before, syscall.SIGKILL)
		}
	}
	if ttyFd >= 0 {
		takeForeground(ttyFd)
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ttyState != nil && (res.TimedOut || ending || (ok && ws.Signaled())) {
			// A full-screen program killed mid-way leaves the terminal raw.
			_ = term.Restore(ttyFd, ttyState)
		}
	}
	if ending {
		reapAll(pgid, before)
	}
	res.Exit = exitStatus(cmd.ProcessState)
	return res, nil
}

// exitStatus is the status as bash reports it: the exit code, or 128+N for a
// death by signal N.
func exitStatus(ps *os.ProcessState) int {
	if ps == nil {
		return ExitFailure
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
		if ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ws.ExitStatus()
	}
	return ps.ExitCode()
}

// takeForeground makes guard's own group the terminal's foreground again.
// guard is in the background at that point, so SIGTTOU must be ignored for
// the call to succeed; it is ignored only after the child exec'd, so the
// child never inherits the ignored disposition.
func takeForeground(fd int) {
	signal.Ignore(syscall.SIGTTOU)
	defer signal.Reset(syscall.SIGTTOU)
	_ = unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, unix.Getpgrp())
}

// signalAll sends sig to the process group and to every descendant of guard
// (which, guard being a subreaper, includes those that left the group with
// setsid), except the pids in skip that existed before the run.
func signalAll(pgid int, skip map[int]bool, sig syscall.Signal) {
	_ = unix.Kill(-pgid, sig)
	for pid := range descendants(os.Getpid(), skip, nil) {
		_ = unix.Kill(pid, sig)
	}
}

// reapAll kills whatever the command left behind and waits for it, so that
// no descendant survives a timeout or guard's own termination. Processes can
// fork while being killed, hence the rounds.
func reapAll(pgid int, skip map[int]bool) {
	killed := map[int]bool{}
	for round := 0; round < 100; round++ {
		_ = unix.Kill(-pgid, syscall.SIGKILL)
		zombies := map[int]bool{}
		left := descendants(os.Getpid(), skip, zombies)
		for pid := range left {
			_ = unix.Kill(pid, syscall.SIGKILL)
			killed[pid] = true
		}
		for pid := range zombies {
			if !skip[pid] {
				killed[pid] = true
			}
		}
		// Orphans reparented to guard are guard's to reap; others are
		// reaped by their own (dying) parents.
		for pid := range killed {
			var ws unix.WaitStatus
			got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
			if got == pid || err != nil {
				delete(killed, pid)
			}
		}
		if len(left) == 0 && len(killed) == 0 && unix.Kill(-pgid, 0) != nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// descendants returns the pids below root in the process tree, read from
// /proc, without those in skip and their subtrees. A process already exited but not yet reaped
// (a zombie) is not counted: it runs nothing. Zombies that are root's own
// children are added to zombies when it is not nil.
func descendants(root int, skip, zombies map[int]bool) map[int]bool {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, state, err := procStat(pid)
		if err != nil {
			continue
		}
		if state == 'Z' || state == 'X' {
			if ppid == root && zombies != nil && !skip[pid] {
				zombies[pid] = true
			}
			continue
		}
		children[ppid] = append(children[ppid], pid)
	}
	out := map[int]bool{}
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !out[c] && !skip[c] {
				out[c] = true
				queue = append(queue, c)
			}
		}
	}
	return out
}

// directChildren returns guard's own children, from the kernel's per-thread
// lists (cheap: this runs before every command). Their subtrees are left
// alone when a run cleans up after itself. In guard there are none; in tests
// there may be.
func directChildren() map[int]bool {
	out := map[int]bool{}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return out
	}
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out[pid] = true
			}
		}
	}
	return out
}

// procStat reads a process's parent pid and state from /proc/PID/stat.
func procStat(pid int) (ppid int, state byte, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, err
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, errors.New("malformed stat")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 || len(f[0]) != 1 {
		return 0, 0, errors.New("malformed stat")
	}
	ppid, err = strconv.Atoi(f[1])
	return ppid, f[0][0], err
}
