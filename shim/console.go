package shim

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
)

// The approval console (guard watch) listens on a Unix socket in guard's
// state directory. When a command needs approval and no trusted terminal
// can be asked, guard connects, checks who is listening, sends the request
// as one JSON line and waits, up to the ask timeout, for one JSON line
// back. Without a console (no socket, or nobody listening) nothing changes:
// the command is refused as needing approval.

// ConsoleName is the console's socket, in guard's state directory.
const ConsoleName = "console.sock"

// Limits of the console protocol.
const (
	// MaxConsoleRequest bounds a request line: the command text (at most
	// classify.MaxTextBytes) as JSON, which can escape a byte as six.
	MaxConsoleRequest = 1 << 20
	// MaxConsoleAnswer bounds an answer line.
	MaxConsoleAnswer = 4 << 10
	// consoleWrite bounds sending the request.
	consoleWrite = 2 * time.Second
	// ConsoleSlack is how much longer than the ask timeout guard waits:
	// the console times its own prompt out first and says so.
	ConsoleSlack = 5 * time.Second
)

// ConsoleRequest is what guard sends the console. The console believes only
// Text and Cwd, and judges the text again itself.
type ConsoleRequest struct {
	ID        string `json:"id"` // the pending request, which the console answers
	Text      string `json:"text"`
	Cwd       string `json:"cwd"`
	Agent     string `json:"agent"`
	Mode      string `json:"mode"`
	TimeoutMS int64  `json:"timeout_ms"` // how long guard waits
}

// ConsoleAnswer is the console's reply: once, project, global or edited
// (run it; the console stored any grant), deny, timeout, or cancelled (the
// console went away: guard refuses as needing approval).
type ConsoleAnswer struct {
	Answer string `json:"answer"`
	// Message is what the human said to the agent with a deny; Where names
	// the console that answered ("" is guard watch).
	Message string `json:"message,omitempty"`
	Where   string `json:"where,omitempty"`
}

// saying is the tail of a refusal line that carries the human's message
// to the agent (": use make test instead"), redacted and on one line; ""
// without one.
func (a *app) saying(msg string) string {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return ""
	}
	return ": " + oneLine(a.eng.redact(msg))
}

// askConsole offers the request to an attached console and waits for its
// answer. ok is false when no trustworthy console answered: then the caller
// takes the needs-approval path.
func (a *app) askConsole(j job, v grants.Verdict, id, sum string, lim limits) (how answered, ok bool) {
	if a.eng.console == nil || id == "" {
		return answered{}, false
	}
	path := a.eng.console()
	if path == "" {
		return answered{}, false
	}
	conn, cred, err := dialConsole(path)
	if err != nil {
		return answered{}, false // no console: ENOENT, ECONNREFUSED, a full backlog
	}
	defer conn.Close()
	trust := a.eng.trustConsole
	if trust == nil {
		trust = func(pid, uid int) error { return checkConsolePeer(pid, uid, a.env.Self, lim.trusted) }
	}
	if err := trust(int(cred.Pid), int(cred.Uid)); err != nil {
		fmt.Fprintf(a.env.Stderr, "guard: warning: ignored %s: %s\n", ConsoleName, oneLine(err.Error()))
		return answered{}, false
	}
	req, err := json.Marshal(ConsoleRequest{
		ID: id, Text: j.text, Cwd: j.cwd, Agent: a.agent(), Mode: j.mode, TimeoutMS: lim.askTimeout.Milliseconds(),
	})
	if err != nil || len(req) >= MaxConsoleRequest {
		return answered{}, false
	}
	conn.SetWriteDeadline(time.Now().Add(consoleWrite))
	if _, err := conn.Write(append(req, '\n')); err != nil {
		return answered{}, false
	}
	conn.SetReadDeadline(time.Now().Add(lim.askTimeout + ConsoleSlack))
	// Said at once, in words the agent can pass on: the command waits, for
	// whom, how long, and where the answer goes.
	where := "in guard watch"
	if a.eng.consoleURL != nil {
		if u := a.eng.consoleURL(); u != "" {
			where = "at " + u + ", in guard watch"
		}
	}
	fmt.Fprintf(a.env.Stderr, "guard: waiting for approval: request %s, up to %s; answer it %s, or with guard approve %s in a terminal of your own\n",
		id, shortDuration(lim.askTimeout), where, id)
	w, _ := a.journal().(consoleWaiter)
	dropped := false
	if w != nil {
		if start, err := ccs.ProcessStart(os.Getpid()); err == nil {
			w.SetWaiting(id, os.Getpid(), start) // best effort: without it, a killed wait leaves the request listed
			defer func() {
				if dropped {
					w.DropPending(id)
				} else {
					w.SetWaiting(id, 0, 0) // it stays for guard approve
				}
			}()
		}
	}

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	type reply struct {
		ans ConsoleAnswer
		err error
	}
	got := make(chan reply, 1)
	go func() {
		var r reply
		r.ans, r.err = readAnswer(conn)
		got <- r
	}()
	// guard approve or reject in another terminal answers too: the request
	// file is looked at once a second.
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var r reply
wait:
	for {
		select {
		case r = <-got:
			break wait
		case sig := <-sigs:
			conn.Close()
			dropped = true // the command is gone: so is its request
			fmt.Fprintf(a.env.Stderr, "guard: denied: %s: guard was interrupted (%v) while waiting for guard watch\n", oneLine(v.Rule), sig)
			return answered{answerCancelled, viaConsole}, true
		case <-tick.C:
			if w == nil {
				continue
			}
			if how, done := a.approvedElsewhere(w, j, v, id, sum); done {
				conn.Close() // the console drops the request
				return how, true
			}
		}
	}
	switch {
	case errors.Is(r.err, os.ErrDeadlineExceeded) || r.err == nil && r.ans.Answer == answerTimeout:
		fmt.Fprintf(a.env.Stderr, "guard: denied: %s: no answer within %s in guard watch\n", oneLine(v.Rule), shortDuration(lim.askTimeout))
		fmt.Fprintf(a.env.Stderr, "guard: hint: the request stays pending: guard approve %s\n", id)
		return answered{answerTimeout, viaConsole}, true
	case r.err != nil:
		return answered{}, false // the console went away
	}
	switch r.ans.Answer {
	case answerOnce, answerProject, answerGlobal, answerEdited:
		return answered{r.ans.Answer, viaConsole}, true
	case answerDeny:
		where := "guard watch"
		if r.ans.Where == "ui" {
			where = "the web console"
		}
		fmt.Fprintf(a.env.Stderr, "guard: denied: %s: denied in %s%s\n", oneLine(v.Rule), where, a.saying(r.ans.Message))
		return answered{answerDeny, viaConsole}, true
	}
	return answered{}, false // cancelled, or not an answer
}

// UIURLName is the file, in guard's state directory, where a running web
// console (guard ui) writes its address, for the lines that tell where a
// request can be answered.
const UIURLName = "ui.url"

// maxUIURL bounds the address file.
const maxUIURL = 1024

// ConsoleURL returns the address of the running web console as written in
// stateDir's ui.url, or "" when there is none or it cannot be believed: the
// file must be a regular file of this user's, readable by no one else
// (0600), and hold one loopback http(s) address. Nothing else is checked
// (the page may have stopped since); it names a place to look, it grants
// nothing.
func ConsoleURL(stateDir string) string {
	path := filepath.Join(stateDir, UIURLName)
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return ""
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG ||
		st.Mode&0o777 != 0o600 || int(st.Uid) != os.Getuid() || st.Size > maxUIURL {
		return ""
	}
	buf := make([]byte, maxUIURL+1)
	n, err := syscall.Read(fd, buf)
	if err != nil || n > maxUIURL {
		return ""
	}
	u := strings.TrimSpace(string(buf[:n]))
	if !loopbackURL(u) {
		return ""
	}
	return u
}

// loopbackURL reports an http(s) address on this machine's loopback
// (127.0.0.1, [::1] or localhost, with a port), of printable ASCII.
func loopbackURL(u string) bool {
	for i := 0; i < len(u); i++ {
		if u[i] <= ' ' || u[i] >= 0x7f {
			return false
		}
	}
	rest, ok := strings.CutPrefix(u, "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(u, "https://"); !ok {
			return false
		}
	}
	host, _, _ := strings.Cut(rest, "/")
	for _, h := range []string{"127.0.0.1:", "[::1]:", "localhost:"} {
		if port, ok := strings.CutPrefix(host, h); ok {
			return port != "" && strings.Trim(port, "0123456789") == "" && len(port) <= 5
		}
	}
	return false
}

// consoleWaiter is what a journal offers a guard that waits in the console: its
// request marked as waited for, dropped when the wait is killed, and read
// again for an answer given with guard approve or reject.
type consoleWaiter interface {
	SetWaiting(id string, pid int, start uint64) error
	DropPending(id string) error
	PendingAnswer(id string) (status, message string, err error)
	TakeOnce(sum, cwd string, now time.Time) (bool, error)
}

// approvedElsewhere looks whether request id was answered with guard
// approve or reject while guard waited in the console.
func (a *app) approvedElsewhere(w consoleWaiter, j job, v grants.Verdict, id, sum string) (answered, bool) {
	st, msg, err := w.PendingAnswer(id)
	if err != nil {
		return answered{}, false
	}
	switch st {
	case ccs.StatusApprovedOnce:
		if ok, err := w.TakeOnce(sum, j.cwd, a.env.now()); err == nil && ok {
			return answered{answerOnce, viaApprove}, true
		}
	case ccs.StatusApprovedProject:
		return answered{answerProject, viaApprove}, true
	case ccs.StatusApprovedGlobal:
		return answered{answerGlobal, viaApprove}, true
	case ccs.StatusRejected:
		fmt.Fprintf(a.env.Stderr, "guard: denied: %s: rejected with guard reject or in the web console; do not retry%s\n", oneLine(v.Rule), a.saying(msg))
		return answered{answerDeny, viaApprove}, true
	}
	return answered{}, false
}

// readAnswer reads one answer line of at most MaxConsoleAnswer bytes.
func readAnswer(r io.Reader) (ConsoleAnswer, error) {
	line, err := bufio.NewReader(io.LimitReader(r, MaxConsoleAnswer)).ReadBytes('\n')
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return ConsoleAnswer{}, err
	}
	var ans ConsoleAnswer
	if err := json.Unmarshal(line, &ans); err != nil {
		return ConsoleAnswer{}, fmt.Errorf("console answer: %w", err)
	}
	return ans, nil
}

// dialConsole connects to the socket without blocking (a console whose
// backlog is full counts as none) and returns the connection, which has
// deadlines, and the credentials of the process that listens.
func dialConsole(path string) (*os.File, *unix.Ucred, error) {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	if err := unix.Connect(fd, &unix.SockaddrUnix{Name: path}); err != nil {
		unix.Close(fd)
		return nil, nil, err
	}
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		unix.Close(fd)
		return nil, nil, err
	}
	return os.NewFile(uintptr(fd), path), cred, nil
}

// checkConsolePeer decides whether the process listening on the console
// socket may answer for the human: it runs as this user, its program is
// guard's own (self, or guard-cli beside it), no guard shell is among its
// ancestors (so no guarded command started it), and its terminal is a
// human's.
func checkConsolePeer(pid, uid int, self string, trusted []string) error {
	if uid != os.Getuid() {
		return fmt.Errorf("its listener runs as uid %d, not %d", uid, os.Getuid())
	}
	exe, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return fmt.Errorf("cannot tell what program listens on it (pid %d)", pid)
	}
	mine := false
	for _, p := range Binaries(self) {
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, exe) {
			mine = true
			break
		}
	}
	if !mine {
		return fmt.Errorf("its listener (pid %d) is not guard watch", pid)
	}
	switch g := GuardShellAncestor(self, pid); {
	case g > 0:
		return fmt.Errorf("its listener (pid %d) was started under guard (pid %d)", pid, g)
	case g < 0:
		return fmt.Errorf("cannot read the ancestry of its listener (pid %d)", pid)
	}
	if t := TrustProcessTerminal(pid, trusted); !t.Human {
		return fmt.Errorf("its listener's terminal is not a human's: %s", t.Why)
	}
	return nil
}

// GuardShellAncestor returns the pid of the nearest process, pid itself or
// an ancestor, that runs guard's own executable (self, or guard-cli beside
// it) as a shell (guard -c …, a bash/sh link), or 0. Where /proc cannot
// tell, it returns -1: a caller that must not trust what it cannot see
// treats that as a refusal.
func GuardShellAncestor(self string, pid int) int {
	var mine []os.FileInfo
	for _, p := range Binaries(self) {
		if fi, err := os.Stat(p); err == nil {
			mine = append(mine, fi)
		}
	}
	for n := 0; pid > 1 && n < 256; n++ {
		dir := "/proc/" + strconv.Itoa(pid)
		if exe, err := os.Stat(dir + "/exe"); err == nil {
			for _, m := range mine {
				if !os.SameFile(m, exe) {
					continue
				}
				if b, err := os.ReadFile(dir + "/cmdline"); err == nil &&
					IsShellInvocation(strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")) {
					return pid
				}
			}
		}
		st, err := readStat(pid)
		if err != nil {
			return -1
		}
		pid = st.ppid
	}
	return 0
}
