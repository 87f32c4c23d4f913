package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/shim"
)

// Limits of the console's side of the protocol (shim/console.go has guard's).
const (
	// watchReadRequest bounds how long a connection may take to send its
	// request line.
	watchReadRequest = 5 * time.Second
	// watchWriteAnswer bounds sending the answer.
	watchWriteAnswer = 2 * time.Second
	// watchMargin is taken off the time guard waits, so the console's
	// prompt ends (and says so) before guard gives up.
	watchMargin = time.Second
	// watchLockName keeps a second console from starting.
	watchLockName = "console.lock"
)

func (a *App) watchCommand() *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "answer guarded commands that need approval, live (the approval console)",
		UsageText: `guard watch

Run it in a terminal of your own, outside any agent. While it runs, a command
that needs approval and has no terminal guard trusts (an agent's tool call,
GUARD_NO_PROMPT=1) waits for your answer here, up to ask_timeout, instead of
being refused at once. Each request shows the agent, the directory, the
command (redacted) and why it is asked; answer as at guard's own prompt.
A deny here is remembered: the same command in the same project is refused
at once for reject_memory (1h).

Ctrl-C detaches: waiting commands are refused as needing approval, and
guard pending lists them. One console at a time. Refused when run from inside
a guarded command, or on a terminal that is not a human's.

example:
   guard watch`,
		Action: a.watch,
	}
}

// watchItem is one request waiting in the console.
type watchItem struct {
	req  shim.ConsoleRequest
	conn net.Conn
	gone chan struct{} // closed when guard stopped waiting
	got  time.Time
}

func (a *App) watch(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("watch takes no arguments")
	}
	if err := a.refuseInsideGuard("watch"); err != nil {
		return err
	}
	// Both the terminal it prompts on and the one it was started from must
	// be a human's.
	tty, err := a.humanTTY()
	if err != nil {
		return refused("watch "+err.Error(), a.humanHint("run guard watch yourself, in a terminal of your own, outside the agent", err))
	}
	defer tty.Close()
	paths := a.paths()
	ln, unlock, err := listenConsole(paths.StateDir)
	if err != nil {
		return err
	}
	defer unlock()
	defer ln.Close()

	store := a.openStore()
	defer store.Close()
	fmt.Fprintf(tty, "guard watch: answering requests for guard (Ctrl-C to detach)\r\n")
	a.listPendingOn(tty, store)

	reqs := make(chan *watchItem)
	go acceptRequests(ln, reqs)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)

	var queue []*watchItem
	detach := func() error {
		for _, it := range queue {
			it.conn.Close()
		}
		fmt.Fprintf(tty, "guard watch: detached\r\n")
		return nil
	}
	idle := false
	for {
		if len(queue) == 0 {
			if !idle {
				fmt.Fprintf(tty, "waiting for requests…\r\n")
				idle = true
			}
			select {
			case it := <-reqs:
				queue = append(queue, it)
			case <-sigs:
				return detach()
			}
			continue
		}
		idle = false
	drain:
		for {
			select {
			case it := <-reqs:
				queue = append(queue, it)
			default:
				break drain
			}
		}
		it := queue[0]
		queue = queue[1:]
		select {
		case <-it.gone:
			continue // guard stopped waiting before its turn
		default:
		}
		ans, detached := a.answerRequest(tty, store, paths, it, len(queue))
		if detached {
			it.conn.Close()
			return detach()
		}
		if ans != "" {
			b, _ := json.Marshal(shim.ConsoleAnswer{Answer: ans})
			it.conn.SetWriteDeadline(time.Now().Add(watchWriteAnswer))
			it.conn.Write(append(b, '\n'))
		}
		it.conn.Close()
	}
}

// listPendingOn shows the requests that were refused before the console
// was attached: those are answered with guard approve.
func (a *App) listPendingOn(tty io.Writer, store *ccs.Store) {
	list, err := store.ListPendingAt(a.Now(), a.pendingTTL())
	if err != nil {
		fmt.Fprintf(tty, "guard: warning: %s\r\n", oneLine(err.Error()))
		return
	}
	if len(list) == 0 {
		return
	}
	fmt.Fprintf(tty, "%d earlier request(s), answer with guard approve ID:\r\n", len(list))
	now := a.Now()
	for _, p := range list {
		fmt.Fprintf(tty, "  %s  %4s  %s\r\n", oneLine(p.ID), age(now.Sub(p.Time)), oneLine(p.Command))
		if note := shim.ControlNote(p.Command, p.Cwd, ""); note != "" {
			fmt.Fprintf(tty, "    %s\r\n", note)
		}
	}
}

// answerRequest judges the request's text again (trusting only the text
// and the directory), asks the human, stores what the answer stores and
// returns the answer to send ("" sends none: guard falls back to needing
// approval). detached is set when the human detached the console.
func (a *App) answerRequest(tty *os.File, store *ccs.Store, paths grants.Paths, it *watchItem, waiting int) (ans string, detached bool) {
	req := it.req
	ck := a.newChecker(req.Cwd, req.Agent, false, io.Discard) // judged as the agent that asked
	an := ck.an.Analyze(req.Text)
	v := grants.DecideWith(an, ck.settings, shim.Facts(an, ck.settings, ck.home))
	red := ck.red
	shown := red.String(req.Text)
	more := ""
	if waiting > 0 {
		more = fmt.Sprintf(" · %d more waiting", waiting)
	}
	fmt.Fprintf(tty, "\r\n── request %s · agent %s · %s · %s%s\r\n", oneLine(req.ID), oneLine(dash(red.String(req.Agent))),
		oneLine(red.String(req.Cwd)), it.got.Local().Format(time.TimeOnly), more)
	// The prompt notes control characters in the command and directory it
	// shows; the agent's name is shown only here.
	note := shim.ControlNote("", "", red.String(req.Agent))
	if v.Decision == grants.Allow || v.Decision == grants.Deny {
		note = shim.ControlNote(shown, red.String(req.Cwd), red.String(req.Agent))
	}
	if note != "" {
		fmt.Fprintf(tty, "  %s\r\n", note)
	}
	switch v.Decision {
	case grants.Allow:
		// A grant was added since guard asked: nothing to ask.
		fmt.Fprintf(tty, "  %s\r\n  allowed by %s\r\n", oneLine(shown), oneLine(dash(v.Rule)))
		a.resolvePending(store, req, ccs.StatusUsed)
		return ccs.AnswerOnce, false
	case grants.Deny:
		fmt.Fprintf(tty, "  %s\r\n  denied by %s: %s\r\n", oneLine(shown), oneLine(dash(v.Rule)), oneLine(red.String(v.Reason)))
		return ccs.AnswerDeny, false
	}
	suggest := red.String(v.Suggest)
	timeout := ck.settings.AskTimeout
	if d := time.Duration(req.TimeoutMS)*time.Millisecond - watchMargin; d < timeout {
		timeout = d
	}
	if timeout < time.Second {
		timeout = time.Second
	}
	q := shim.Question{Command: shown, Cwd: red.String(req.Cwd), Root: red.String(grants.ProjectRoot(req.Cwd)), Risk: string(v.Risk),
		Reason: red.String(v.Reason), Rule: v.Rule, Suggest: suggest, OnceOnly: v.OnceOnly, Unredacted: req.Text,
		Withdrawn: it.gone, Preview: a.watchPreview(store, req.Cwd)}
	reply, err := shim.Prompt(tty, q, timeout)
	select {
	case <-it.gone:
		fmt.Fprintf(tty, "  guard stopped waiting; nothing stored\r\n")
		return "", false
	default:
	}
	switch {
	case errors.Is(err, shim.ErrAskTimeout):
		return ccs.AnswerTimeout, false // the request stays pending
	case err != nil:
		return "", true
	}
	switch reply.Answer {
	case shim.AnswerDeny:
		a.resolvePending(store, req, ccs.StatusRejected)
		return ccs.AnswerDeny, false
	case shim.AnswerOnce:
		a.resolvePending(store, req, ccs.StatusUsed)
		return ccs.AnswerOnce, false
	}
	pattern := reply.Pattern
	file, status, name := paths.ProjectGrants(grants.ProjectRoot(req.Cwd)), ccs.StatusApprovedProject, ccs.AnswerProject
	if reply.Answer == shim.AnswerGlobal {
		file, status, name = paths.GlobalGrants(), ccs.StatusApprovedGlobal, ccs.AnswerGlobal
	}
	if reply.Outcome == shim.OutcomeEdited || pattern != suggest {
		name = ccs.AnswerEdited
	}
	var until time.Time
	if reply.For > 0 {
		until = a.Now().Add(reply.For)
	}
	err = grants.ValidatePattern(grants.Allow, pattern)
	if err == nil {
		err = grants.AddRuleUntil(file, grants.Allow, pattern, until)
	}
	if err == nil && status == ccs.StatusApprovedProject {
		_ = grants.RecordRoot(paths, grants.ProjectRoot(req.Cwd)) // names the folder in guard grants list
	}
	if err != nil {
		// The human allowed this run; only remembering it failed.
		fmt.Fprintf(tty, "guard: warning: grant not stored: %s\r\n", oneLine(err.Error()))
	} else {
		fmt.Fprintf(tty, "  stored allow %s in %s\r\n", oneLine(classify.QuoteWord(pattern)), oneLine(file))
	}
	a.resolvePending(store, req, status)
	return name, false
}

// watchPreview is the Preview of the pattern typed at e in guard watch:
// the denylist probe, then the audit's past commands (grantPreview), as
// at the prompt of guard -c.
func (a *App) watchPreview(store *ccs.Store, cwd string) func(string) shim.GrantPreview {
	return func(pattern string) shim.GrantPreview {
		if err := grants.ValidatePattern(grants.Allow, pattern); err != nil {
			return shim.GrantPreview{Refused: err.Error()}
		}
		if why := grants.CoversDenied(pattern, classify.Options{Cwd: cwd, Home: a.Getenv("HOME")}); why != "" {
			return shim.GrantPreview{Refused: why}
		}
		pv, err := a.grantPreview(store, pattern, "")
		if err != nil {
			return shim.GrantPreview{Lines: []string{"no preview of past commands: " + oneLine(err.Error()) + "; only the denylist was checked"}}
		}
		return shim.GrantPreview{Lines: shim.PreviewLines(pattern, pv.Matched, pv.Examples, pv.Note), Refused: pv.Refused}
	}
}

// resolvePending marks the request guard stored before it asked, but only
// if that request is for this very text (its keyed hash) and directory:
// the console does not take guard's word for the ID.
func (a *App) resolvePending(store *ccs.Store, req shim.ConsoleRequest, status string) {
	p, err := store.GetPending(req.ID)
	if err != nil || p.Status != ccs.StatusPending {
		return
	}
	sum, err := store.Sum(req.Text)
	if err != nil || p.HMAC != sum {
		return
	}
	// the directory by its keyed hash: two that redact alike are not one
	if cwdSum, err := store.SumCwd(req.Cwd); err != nil || p.CwdHMAC != cwdSum {
		return
	}
	_ = store.Resolve(req.ID, status, a.Now())
}

// errAttached is why a second console does not start.
func errAttached(pid int32) error {
	who := ""
	if pid > 0 {
		who = fmt.Sprintf(" (pid %d)", pid)
	}
	return &cliError{code: exitUsage, kind: "error", msg: "a console is already attached" + who,
		hint: "answer there, or stop it first"}
}

// listenConsole takes the console lock (one console at a time) and listens
// on console.sock in stateDir (directory 0700, socket 0600). A socket left
// by a console that died is removed, but only after connecting to it
// failed. unlock releases the lock.
func listenConsole(stateDir string) (ln *net.UnixListener, unlock func(), err error) {
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return nil, nil, failure(fmt.Errorf("create state directory: %w", err), "")
	}
	lock, err := os.OpenFile(filepath.Join(stateDir, watchLockName), os.O_RDWR|os.O_CREATE|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, nil, failure(fmt.Errorf("open console lock: %w", err), "")
	}
	if fi, err := lock.Stat(); err != nil || !fi.Mode().IsRegular() {
		lock.Close()
		return nil, nil, failure(fmt.Errorf("%s is not a regular file", lock.Name()), "remove it")
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		return nil, nil, errAttached(peerPID(filepath.Join(stateDir, shim.ConsoleName)))
	}
	unlock = func() { lock.Close() }
	path := filepath.Join(stateDir, shim.ConsoleName)
	ln, err = listenUnix(path)
	if errors.Is(err, syscall.EADDRINUSE) {
		c, derr := net.DialTimeout("unix", path, time.Second)
		if derr == nil {
			c.Close()
			unlock()
			return nil, nil, errAttached(peerPID(path))
		}
		if fi, lerr := os.Lstat(path); errors.Is(derr, syscall.ECONNREFUSED) && lerr == nil && fi.Mode()&os.ModeSocket != 0 {
			os.Remove(path) // nobody listens: a console that died left it
			ln, err = listenUnix(path)
		}
	}
	if err != nil {
		unlock()
		return nil, nil, failure(fmt.Errorf("listen on %s: %w", path, err), "")
	}
	return ln, unlock, nil
}

// listenUnix listens on path, created 0600 from the start.
func listenUnix(path string) (*net.UnixListener, error) {
	old := syscall.Umask(0o177)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	syscall.Umask(old)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// peerPID is the pid of the process listening on path, or 0.
func peerPID(path string) int32 {
	c, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		return 0
	}
	defer c.Close()
	cred, err := ucred(c.(*net.UnixConn))
	if err != nil {
		return 0
	}
	return cred.Pid
}

func ucred(c *net.UnixConn) (*unix.Ucred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	var cred *unix.Ucred
	var cerr error
	err = raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	})
	if err == nil {
		err = cerr
	}
	return cred, err
}

// acceptRequests reads one request from each connection and hands it on;
// connections from another user, or that do not send a request in time,
// are closed.
func acceptRequests(ln *net.UnixListener, reqs chan<- *watchItem) {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			return // closed: the console is detaching
		}
		go func() {
			it, err := readRequest(c)
			if err != nil {
				c.Close()
				return
			}
			reqs <- it
		}()
	}
}

func readRequest(c *net.UnixConn) (*watchItem, error) {
	cred, err := ucred(c)
	if err != nil || int(cred.Uid) != os.Getuid() {
		return nil, errors.New("not this user")
	}
	c.SetReadDeadline(time.Now().Add(watchReadRequest))
	r := bufio.NewReader(io.LimitReader(c, shim.MaxConsoleRequest))
	line, err := r.ReadBytes('\n')
	if err != nil {
		return nil, err
	}
	var req shim.ConsoleRequest
	if err := json.Unmarshal(line, &req); err != nil || req.Text == "" || !filepath.IsAbs(req.Cwd) {
		return nil, errors.New("not a request")
	}
	c.SetReadDeadline(time.Time{})
	it := &watchItem{req: req, conn: c, gone: make(chan struct{}), got: time.Now()}
	go func() {
		// guard sends nothing more: a read that ends means it stopped waiting.
		var b [1]byte
		r.Read(b[:])
		close(it.gone)
	}()
	return it, nil
}
