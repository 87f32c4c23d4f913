package shim

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
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
	Stdin, Stdout, Stderr *os.File      // nil: /dev/null
	Extra                 []*os.File    // the child's descriptors 3, 4, …
	Timeout               time.Duration // 0: no timeout
	Grace                 time.Duration // SIGTERM → SIGKILL; 0: defaultGrace
	// Signals carries the signals guard received, to forward to the group.
	Signals <-chan os.Signal
	// Meanwhile is work that must not delay the command: run calls it in a
	// goroutine right after the command started, and does not wait for it
	// (share its results through sync.Once or a channel). guard starts
	// delivering its signals into Signals there:
	// enabling signals takes the Go runtime a round trip between two
	// threads per signal (~0.3 ms in all), which then overlaps with the
	// command's own start-up instead of delaying it. A signal that comes
	// before that ends guard by its default action, and the command with it
	// (Pdeathsig); in that first fraction of a millisecond bash has not set
	// a trap yet either, so the command ends the same way.
	Meanwhile func()
	// Late, when set, is called with the first signal (other than
	// SIGWINCH) that arrives after the command was reaped, from the
	// goroutine that forwarded signals until then: once signals are
	// delivered to Signals their default action is gone, and guard, which
	// then writes the record, must still end promptly. nil: such signals
	// are dropped and the goroutine ends with the run.
	Late func(sig syscall.Signal)
	// Keep are processes run must never signal or reap: children the
	// calling process had before the run. guard itself has none (nil);
	// tests run many commands in one process.
	Keep map[int]bool
	// FileLimit is the file size limit the command gets, when guard raised
	// its own (rlimit.go); nil: guard's.
	FileLimit *unix.Rlimit
	// Capture, when set, holds the pipes that are the command's stdout
	// and stderr (Stdout and Stderr are their write ends): run forwards
	// and keeps what comes through them while it waits (capture.go).
	Capture *capture
	// Confine, when set, is the kernel boundary the command starts in
	// (confine.go); nil runs it unconfined.
	Confine *confinement
}

// runResult is how a run ended.
type runResult struct {
	Exit     int  // the command's status as bash reports it (signal N → 128+N)
	TimedOut bool // killed at the timeout: guard exits ExitTimeout
	// Killed: the command died of a signal, or guard was told to stop it
	// (a signal it forwarded): its output is not a result to keep.
	Killed bool
	// Ran is how long the command ran, from just before the fork to the
	// wait that reaped it (the record's overhead is guard's time less this).
	Ran time.Duration
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
//
// The wait is a plain wait4 on the calling goroutine, and the timeout and
// the forwarding run from timers and one goroutine: every extra thread the
// Go runtime has to start or wake is paid on every command (see
// bench/overhead.sh).
func run(sp runSpec) (runResult, error) {
	if sp.Grace <= 0 {
		sp.Grace = defaultGrace
	}
	// Orphans of the command (daemons, double forks, setsid) reparent to guard
	// rather than to init, so they stay findable as guard's descendants.
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

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
	files, closeFiles, err := childFiles(sp.Stdin, sp.Stdout, sp.Stderr)
	if err != nil {
		return runResult{}, err
	}
	for _, f := range sp.Extra {
		files = append(files, f.Fd())
	}
	meanwhile := sp.Meanwhile
	if sp.Confine != nil && meanwhile != nil {
		// Drawing the boundary takes a few hundred microseconds on
		// another thread: the Meanwhile work (signals among it) is done
		// in that time, before the fork, so a signal is never lost to
		// guard's default action while the command runs.
		ready, work := make(chan struct{}), meanwhile
		go func() {
			work()
			close(ready)
		}()
		sp.Confine.before, meanwhile = ready, nil
	}
	forked := time.Now()
	pid, release, err := startProcess(sp.Confine, sp.FileLimit, sp.Path, sp.Argv, &syscall.ProcAttr{Dir: sp.Dir, Env: sp.Env, Files: files, Sys: attr})
	closeFiles()
	defer release()
	if sp.Capture != nil {
		sp.Capture.started()
	}
	if err != nil {
		if sp.Capture != nil {
			sp.Capture.closeAll()
		}
		return runResult{}, fmt.Errorf("start %s: %w", sp.Argv[0], err)
	}
	w := &waiter{pgid: pid, keep: sp.Keep, grace: sp.Grace}
	// One goroutine does the Meanwhile work, then forwards signals until
	// the command has been reaped. run never waits for it: a guard exits
	// right after the run, and the waiter drops what comes too late.
	stop := make(chan struct{})
	go func() {
		if meanwhile != nil {
			meanwhile()
		}
		for {
			select {
			case <-stop:
				if sp.Late != nil {
					lateSignal(sp.Signals, sp.Late)
				}
				return
			case s := <-sp.Signals:
				if sig, ok := s.(syscall.Signal); ok && !w.forward(sig) && sp.Late != nil && sig != syscall.SIGWINCH {
					sp.Late(sig)
					return
				}
			}
		}
	}()
	if sp.Timeout > 0 {
		t := time.AfterFunc(sp.Timeout, w.timeout)
		defer t.Stop()
	}
	var ws syscall.WaitStatus
	// Nothing to read while it runs (no output, or only the agent's files,
	// read back after): the capture finishes once the command is reaped.
	unpiped := sp.Capture != nil && !sp.Capture.piped()
	pumped := sp.Capture == nil || unpiped
	if !pumped {
		if pidfd, perr := unix.PidfdOpen(pid, 0); perr == nil {
			// forward output until the command exits: no extra thread
			sp.Capture.pump(pidfd, nil)
			unix.Close(pidfd)
			pumped = true
		}
	}
	var reaped chan struct{}
	if !pumped {
		// no pidfd (Linux before 5.3): the pipes are read beside the wait
		reaped = make(chan struct{})
		done := make(chan struct{})
		go func() {
			sp.Capture.pump(-1, func() bool {
				select {
				case <-reaped:
					return true
				default:
					return false
				}
			})
			close(done)
		}()
		defer func() { <-done }()
	}
	for {
		_, err = syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}
	ran := time.Since(forked)
	if reaped != nil {
		close(reaped)
	}
	if sp.Capture != nil && sp.Capture.readsBack() && unix.Kill(-pid, 0) == nil {
		// Something the command started still runs and may write to the
		// agent's file after guard read it back: keep the run, never
		// serve it (the pipes tell guard the same by staying open).
		sp.Capture.cut = true
	}
	if unpiped {
		sp.Capture.finish()
	}
	close(stop)
	res, ending := w.finish()
	if err == nil && interrupted(ws) {
		// Ctrl-C (or Ctrl-\) typed at the terminal goes to the command's
		// group, not to guard: the command dying of it is how guard learns
		// of it. Clean up as for a SIGINT sent to guard itself, so that a
		// background job does not outlive an interrupted command either way.
		ending = true
	}
	if err != nil {
		// Only a bug makes wait4 on our own child fail: the status is unknown.
		return runResult{}, fmt.Errorf("wait for %s: %w", sp.Argv[0], err)
	}
	if ttyFd >= 0 {
		takeForeground(ttyFd)
		if ttyState != nil && (res.TimedOut || ending || ws.Signaled()) {
			// A full-screen program killed mid-way leaves the terminal raw.
			_ = term.Restore(ttyFd, ttyState)
		}
	}
	if ending {
		reapAll(pid, sp.Keep)
	}
	res.Exit = waitStatus(ws)
	res.Killed = ending || ws.Signaled()
	res.Ran = ran
	return res, nil
}

// startProcess forks and execs path, inside c's boundary when c is not nil.
// release ends what the start left running for the child's sake (the
// confined thread its parent-death signal is tied to); call it once the
// child was reaped.
func startProcess(c *confinement, lim *unix.Rlimit, path string, argv []string, pa *syscall.ProcAttr) (pid int, release func(), err error) {
	if c == nil {
		pid, err = forkExec(lim, path, argv, pa)
		return pid, func() {}, err
	}
	pid, release, err = c.start(lim, path, argv, pa)
	if err != nil {
		return 0, func() {}, err
	}
	return pid, release, nil
}

// childFiles returns the descriptors the child gets as 0, 1 and 2: the
// caller's files, or /dev/null for nil ones, and none (closed) for a
// stdout or stderr that was closed when guard started (startedClosed);
// closeFiles closes what it opened.
func childFiles(in, out, errf *os.File) (fds []uintptr, closeFiles func(), err error) {
	var opened []*os.File
	closeFiles = func() {
		for _, f := range opened {
			f.Close()
		}
	}
	for i, f := range []*os.File{in, out, errf} {
		if i > 0 && startedClosed(f) {
			fds = append(fds, ^uintptr(0)) // -1: closed in the child
			continue
		}
		if f == nil {
			// read-only for stdin, write-only for the others, as os/exec
			// opens it: a read-write /dev/null on 1 or 2 is what a nested
			// guard takes for a descriptor that was closed (startedClosed)
			mode := os.O_WRONLY
			if i == 0 {
				mode = os.O_RDONLY
			}
			if f, err = os.OpenFile(os.DevNull, mode, 0); err != nil {
				closeFiles()
				return nil, nil, fmt.Errorf("open %s: %w", os.DevNull, err)
			}
			opened = append(opened, f)
		}
		fds = append(fds, f.Fd())
	}
	return fds, closeFiles, nil
}

// waiter is what the timeout timer, the grace timer and the forwarding
// goroutine share while run waits for the command.
type waiter struct {
	pgid  int
	keep  map[int]bool
	grace time.Duration

	mu       sync.Mutex
	done     bool // the command was reaped: its pid may be reused, signal nothing
	timedOut bool
	ending   bool // the command is being made to stop: clean up after it
	kill     *time.Timer
}

// forward passes a signal guard received on to the command's group. It
// reports false when the command was reaped already (nothing was sent).
func (w *waiter) forward(sig syscall.Signal) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return false
	}
	_ = unix.Kill(-w.pgid, sig)
	switch sig {
	case syscall.SIGTERM, syscall.SIGHUP:
		// guard is being told to go: make sure the command goes too.
		w.ending = true
		w.killLater()
	case syscall.SIGINT, syscall.SIGQUIT:
		// The command was interrupted: the shell may handle that and go
		// on, but what it leaves behind when it ends is cleared.
		w.ending = true
	}
	return true
}

// timeout ends the command: SIGTERM to all of it now, SIGKILL after the grace.
func (w *waiter) timeout() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	w.timedOut, w.ending = true, true
	signalAll(w.pgid, w.keep, syscall.SIGTERM)
	w.killLater()
}

// killLater arms the SIGKILL that follows a SIGTERM. Call with mu held.
func (w *waiter) killLater() {
	if w.kill != nil {
		return
	}
	w.kill = time.AfterFunc(w.grace, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.done {
			signalAll(w.pgid, w.keep, syscall.SIGKILL)
		}
	})
}

// finish marks the command reaped and reports how the run went.
func (w *waiter) finish() (res runResult, ending bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	if w.kill != nil {
		w.kill.Stop()
	}
	return runResult{TimedOut: w.timedOut}, w.ending
}

// interrupted reports whether the command ended by SIGINT or SIGQUIT: killed
// by it, or a shell that exited with its status (128+N) after one.
func interrupted(ws syscall.WaitStatus) bool {
	switch {
	case ws.Signaled():
		return ws.Signal() == syscall.SIGINT || ws.Signal() == syscall.SIGQUIT
	case ws.Exited():
		return ws.ExitStatus() == 128+int(syscall.SIGINT) || ws.ExitStatus() == 128+int(syscall.SIGQUIT)
	}
	return false
}

// lateSignal waits on c for a signal that asks guard to go (SIGWINCH is
// ignored) and passes it to late. See runSpec.Late.
func lateSignal(c <-chan os.Signal, late func(syscall.Signal)) {
	for s := range c {
		if sig, ok := s.(syscall.Signal); ok && sig != syscall.SIGWINCH {
			late(sig)
			return
		}
	}
}

// waitStatus is the status as bash reports it: the exit code, or 128+N for
// a death by signal N.
func waitStatus(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
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
