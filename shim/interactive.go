package shim

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-dev/guard/grants"
)

// An interactive session: guard started with no -c and no script file, on a
// terminal (a human typing, or an agent that keeps a shell on a PTY). guard
// reads one complete command at a time with a line editor, judges it exactly
// as guard -c would (judgeAndRun), and runs what is allowed in one persistent
// real shell, so that cd, variables, functions, aliases and set options carry
// over from line to line.
//
// The shell reads its script from a pipe (bash /dev/fd/3) and has the
// terminal as its stdin, stdout and stderr. For each allowed line guard
// writes
//
//	\eval ' LINE'
//	{ report of $?, pwd -P, declare -f, alias -p } >/proc/GUARD/fd/N
//
// so bash runs exactly the judged text (eval gets it as one quoted word: a
// line bash would parse differently from guard cannot swallow what follows),
// then reports on a pipe that only that one redirection opens: the commands
// themselves never inherit it, nor the script pipe. Each report carries a
// random nonce. The shell runs with job control (set -m), so a command gets
// its own process group and the terminal; Ctrl-C ends the command and the
// rest of its line, not the session (trap : INT); Ctrl-Z stops the job and
// the session goes on.

// modeInteractive is the audit mode of a line typed in a session.
const modeInteractive = "interactive"

// Prompts: the primary one names guard and the directory; "> " continues.
const promptContinue = "> "

// startTimeout bounds the wait for the shell's first report.
const startTimeout = 10 * time.Second

// sessionNames are the builtins and functions the session's own lines call:
// a function or alias of one of these names would run in place of guard's
// machinery, unjudged. A line that defines one is refused; a shell found to
// have one (through source) ends the session.
var sessionNames = map[string]bool{
	"builtin": true, "command": true, "eval": true, "exit": true, "enable": true,
	":": true, "printf": true, "pwd": true, "declare": true, "alias": true, "trap": true,
}

// errSessionEnded is a line that could not run because the shell is gone.
const errSessionEnded = constError("the session's shell has ended")

// session is one interactive guard and its shell.
type session struct {
	a       *app
	tty     *os.File // the terminal: guard's stdin
	fd      int
	out     io.Writer    // where the prompt and the editor's echo go
	fg      bool         // guard holds the terminal's foreground: hand it over per line
	bash    bool         // the shell is bash (functions and aliases are reported)
	pid     int          // the shell, leader of its own process group
	script  *os.File     // the shell reads its commands from here
	rpath   string       // where the shell opens the report pipe's write end
	rdir    string       // the private directory of rpath, removed at the end
	conf    *confinement // the shell's boundary (nil: unconfined)
	chunks  chan []byte
	exited  chan int // the shell's status when it ended
	ended   bool
	exit    int // the shell's status once ended
	pending []byte

	last int // the status of the last line ($? of the next one)
	cwd  string
	// intr: a SIGINT (Ctrl-C while guard judged the line, the terminal
	// not raw) arrived since the line was read: it does not run.
	intr           atomic.Bool
	funcs, aliases map[string]string
	// basePath is the PATH of the shell's first report; path and hashed
	// its PATH and hash table now, and shadow the names they make run
	// another program (shadow.go), recomputed when one of them changes.
	basePath, path string
	baseSet        bool
	hashed         map[string]string
	shadow         map[string]string
	shadowKey      string
	// vars are the variables lines of the session set (by their text, or
	// new in the shell's report since its first, baseVars): a later line
	// that expands one is judged with its value unknown, as a value the
	// text computed (classify.Options.SessionVars).
	vars, baseVars map[string]bool
}

// noteVar records a variable a line of the session set.
func (s *session) noteVar(name string) {
	if s.vars == nil {
		s.vars = map[string]bool{}
	}
	s.vars[name] = true
}

// interactive runs the session and returns the status of its last line.
func (a *app) interactive(shellPath string, flags []string, depth int) int {
	s := &session{a: a, tty: a.env.Stdin, fd: int(a.env.Stdin.Fd()), cwd: a.env.Cwd}
	s.out = a.env.Stdin
	if a.env.Stderr != nil && term.IsTerminal(int(a.env.Stderr.Fd())) {
		s.out = a.env.Stderr
	}
	s.bash = filepath.Base(shellPath) == "bash"
	if fg, err := unix.IoctlGetInt(s.fd, unix.TIOCGPGRP); err == nil && fg == unix.Getpgrp() {
		s.fg = true
	}
	env := childEnv(a.env.Environ, depth, true)
	// The session's shell is confined once, at its start, as the
	// settings of its directory say; every line runs inside that.
	if set := a.eng.settings(a.env.Cwd); set != nil {
		if refused, exit := a.confineJob(job{mode: modeInteractive, cwd: a.env.Cwd, text: "guard (interactive session)"}, set, grants.Verdict{}, a.env.now()); refused {
			return exit
		}
		s.conf = a.conf
	}
	if err := s.start(shellPath, sessionFlags(flags), env); err != nil {
		a.errorf("start the session's shell: %v", err)
		return ExitFailure
	}
	defer s.stop()
	// guard ends when told to (SIGTERM, SIGHUP), wherever it is, even
	// waiting for a key: the shell and what it runs go too, and the
	// terminal is restored. SIGINT does not end a session, as it does not
	// end an interactive bash: at the prompt Ctrl-C is a key, during a
	// command it goes to the command, and while guard judges a line (the
	// terminal not raw) it cancels that line; a prompt or a wait for the
	// console that is under way takes it as its deny.
	orig, _ := term.GetState(s.fd)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer signal.Stop(sigs)
	// ending is held by whichever ends guard: the signal's cleanup, once
	// it has begun, or the session's own return. Killing the shell ends the
	// session, and its return must not exit guard before the cleanup has
	// reached every job.
	var ending sync.Mutex
	defer ending.Lock()
	go func() {
		var sig syscall.Signal
		for got := range sigs {
			if got == syscall.SIGINT {
				s.intr.Store(true)
				continue
			}
			if g, ok := got.(syscall.Signal); ok {
				sig = g
				break
			}
		}
		ending.Lock() // (never unlocked: this goroutine exits guard)
		// the shell's group and every job it started (each in a group
		// of its own), all guard's descendants: as a subreaper guard
		// keeps the orphans of a dying shell among them
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
		for round := 0; round < 20; round++ {
			pids := descendants(os.Getpid(), nil, nil)
			if len(pids) == 0 {
				break
			}
			for pid := range pids {
				_ = unix.Kill(pid, sig)
				_ = unix.Kill(pid, syscall.SIGCONT)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if orig != nil {
			_ = term.Restore(s.fd, orig)
		}
		a.close()
		os.Exit(128 + int(sig))
	}()
	if _, err := s.send(s.prelude(), startTimeout); err != nil {
		a.errorf("start the session's shell: %v", err)
		return ExitFailure
	}
	if s.ended {
		return s.exit
	}
	return s.loop()
}

// sessionFlags keeps the shell options that make sense for the session's
// shell: set options (-e, -u, -x, -o pipefail, …), not those that make it
// interactive, a login shell, read a startup file or read stdin.
func sessionFlags(flags []string) []string {
	var out []string
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		if strings.HasPrefix(f, "--") {
			if longOpts[f] {
				i++ // --rcfile FILE, --init-file FILE
				continue
			}
			if f == "--posix" || f == "--restricted" || f == "--verbose" {
				out = append(out, f)
			}
			continue
		}
		kept := []byte{f[0]}
		for _, ch := range []byte(f[1:]) {
			if strings.IndexByte("ilsD", ch) < 0 {
				kept = append(kept, ch)
			}
		}
		if len(kept) > 1 {
			out = append(out, string(kept))
		}
		// the words of -o NAME and -O NAME follow in order
		n := strings.Count(f, "o") + strings.Count(f, "O")
		out = append(out, flags[i+1:i+1+n]...)
		i += n
	}
	return out
}

// start starts the shell, reading its script from a pipe and with the
// terminal as stdin, stdout and stderr, in its own process group.
func (s *session) start(shellPath string, flags, env []string) error {
	sr, sw, err := os.Pipe()
	if err != nil {
		return err
	}
	defer sr.Close()
	// The report comes through a FIFO in a private directory under /tmp:
	// a confined shell may not open guard's descriptors through /proc
	// (Landlock keeps it from every process outside its boundary). guard
	// holds it open for reading and writing, so the shell's open never
	// blocks and guard never sees an end before it closes it.
	dir, err := os.MkdirTemp("", "guard-session-")
	if err != nil {
		sw.Close()
		return err
	}
	s.rdir = dir
	s.rpath = filepath.Join(dir, "report")
	if err := unix.Mkfifo(s.rpath, 0o600); err != nil {
		sw.Close()
		return err
	}
	rr, err := os.OpenFile(s.rpath, os.O_RDWR, 0)
	if err != nil {
		sw.Close()
		return err
	}
	keepWriter := rr
	files, closeFiles, err := childFiles(s.a.env.Stdin, s.a.env.Stdout, s.a.env.Stderr)
	if err != nil {
		sw.Close()
		rr.Close()
		os.RemoveAll(dir)
		return err
	}
	defer closeFiles()
	files = append(files, sr.Fd())
	argv := append(append([]string{shellPath}, flags...), "/dev/fd/3")
	for i, kv := range env {
		if strings.HasPrefix(kv, "HISTFILE=") {
			env[i] = "HISTFILE=/dev/null"
		}
	}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if s.fg {
		// The shell starts in the foreground, or its job control would
		// never hand the terminal to the commands it runs (bash decides
		// that once, at start). guard takes it back after the prelude.
		attr.Foreground, attr.Ctty = true, s.fd
	}
	pid, release, err := startProcess(s.conf, s.a.fileLimit, shellPath, argv, &syscall.ProcAttr{Dir: s.a.env.Cwd, Env: env, Files: files, Sys: attr})
	if err != nil {
		sw.Close()
		rr.Close()
		os.RemoveAll(dir)
		return fmt.Errorf("start %s: %w", shellPath, err)
	}
	s.pid, s.script = pid, sw
	s.exited = make(chan int, 1)
	go func() {
		var ws syscall.WaitStatus
		for {
			_, err := syscall.Wait4(pid, &ws, 0, nil)
			if err != syscall.EINTR {
				break
			}
		}
		keepWriter.Close()
		release()
		os.RemoveAll(s.rdir)
		s.exited <- waitStatus(ws)
	}()
	s.chunks = make(chan []byte, 16)
	go func() {
		for {
			b := make([]byte, 32<<10)
			n, err := rr.Read(b)
			if n > 0 {
				s.chunks <- b[:n]
			}
			if err != nil {
				close(s.chunks)
				return
			}
		}
	}()
	return nil
}

// stop ends the shell (EOF on its script) and waits for it.
func (s *session) stop() {
	if s.script != nil {
		s.script.Close()
	}
	if !s.ended {
		s.exit = <-s.exited
		s.ended = true
	}
}

// prelude readies the shell: the script descriptor closed for commands,
// no history file, job control, Ctrl-C ends a line and not the shell.
func (s *session) prelude() string {
	if s.bash {
		return "exec 3<&-\nunset HISTFILE\nset -m\ntrap : INT\nshopt -s expand_aliases\n"
	}
	return "exec 3<&-\nset -m\ntrap : INT\n"
}

// sentinel is the shell text that reports $?, the directory, functions,
// aliases, disabled builtins, the hash table, PATH and the names of the
// shell's variables, framed by the nonce.
func (s *session) sentinel(nonce string) string {
	if s.bash {
		return `{ \builtin printf '%s\0%s\0' ` + nonce + ` "$?"; \builtin pwd -P; \builtin printf '\0'; ` +
			`\builtin declare -f; \builtin printf '\0'; \builtin alias -p; \builtin printf '\0'; ` +
			`\builtin enable -n; \builtin printf '\0'; \builtin hash -l; ` +
			`\builtin printf '\0%s\0' "$PATH"; \builtin compgen -v; \builtin printf '\0%s\0' ` + nonce + `; } >|` + s.rpath + " 2>/dev/null\n"
	}
	return `{ command printf '%s\0%s\0' ` + nonce + ` "$?"; command pwd -P; command printf '\0\0\0\0\0%s\0\0%s\0' "$PATH" ` + nonce +
		`; } >|` + s.rpath + " 2>/dev/null\n"
}

// send hands the terminal to the shell, writes text and the sentinel, and
// waits for the report (or for the shell to end). It returns the status of
// text; when the shell ended, s.ended is set and the status is its own.
// A timeout (0: none) bounds the wait: the shell's start, when nothing of
// the user's runs yet, must not hang guard.
func (s *session) send(text string, timeout time.Duration) (int, error) {
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	if s.ended {
		return s.exit, errSessionEnded
	}
	nonce := newNonce()
	state, _ := term.GetState(s.fd)
	if s.fg {
		giveForeground(s.fd, s.pid)
	}
	defer func() {
		if s.fg {
			takeForeground(s.fd)
		}
		if state != nil {
			// a program that ended mid-way may leave the terminal raw
			_ = term.Restore(s.fd, state)
		}
	}()
	if _, err := s.script.WriteString(text + s.sentinel(nonce)); err != nil {
		s.exit, s.ended = <-s.exited, true
		return s.exit, nil
	}
	for {
		if st, ok, err := s.takeReport(nonce); ok || err != nil {
			return st, err
		}
		select {
		case b, ok := <-s.chunks:
			if !ok {
				s.chunks = nil
				continue
			}
			s.pending = append(s.pending, b...)
		case st := <-s.exited:
			s.exit, s.ended = st, true
			return st, nil
		case <-expired:
			_ = unix.Kill(-s.pid, syscall.SIGKILL)
			return 0, errors.New("the shell did not report within " + shortDuration(timeout))
		}
	}
}

// giveForeground makes group pgid the terminal's foreground. guard may be in
// the background when it does (the shell started in the foreground): a
// guard started from an interactive shell is not the session leader, its
// group is not orphaned, and TIOCSPGRP from the background would stop it
// with SIGTTOU. So SIGTTOU is ignored for the call, as in takeForeground.
func giveForeground(fd, pgid int) {
	signal.Ignore(syscall.SIGTTOU)
	defer signal.Reset(syscall.SIGTTOU)
	_ = unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, pgid)
}

// takeReport finds the report framed by nonce in what was read so far and
// takes the session's state from it.
func (s *session) takeReport(nonce string) (int, bool, error) {
	start := bytes.Index(s.pending, []byte(nonce+"\x00"))
	if start < 0 {
		return 0, false, nil
	}
	body := s.pending[start+len(nonce)+1:]
	end := bytes.Index(body, []byte("\x00"+nonce+"\x00"))
	if end < 0 {
		return 0, false, nil
	}
	fields := strings.Split(string(body[:end]), "\x00")
	s.pending = append(s.pending[:0], body[end+len(nonce)+2:]...)
	if len(fields) != 8 {
		return 0, true, errors.New("the shell's report is malformed")
	}
	st, err := strconv.Atoi(fields[0])
	if err != nil {
		return 0, true, errors.New("the shell's report is malformed")
	}
	s.cwd = strings.TrimSuffix(fields[1], "\n")
	s.path = fields[6]
	names := strings.Fields(fields[7])
	if !s.baseSet {
		s.basePath, s.baseSet = s.path, true
		s.baseVars = map[string]bool{}
		for _, n := range names {
			s.baseVars[n] = true
		}
	}
	for _, n := range names {
		if !s.baseVars[n] {
			s.noteVar(n) // set by a line: read f, printf -v f, declare f=…
		}
	}
	if !s.bash {
		s.noteShadow()
		return st, true, nil
	}
	if fields[4] != "" {
		return st, true, fmt.Errorf("builtins were disabled (%s)", oneLine(strings.TrimSpace(fields[4])))
	}
	if s.funcs, err = functionBodies(fields[2]); err != nil {
		return st, true, fmt.Errorf("read the shell's functions: %w", err)
	}
	if s.aliases, err = aliasValues(fields[3]); err != nil {
		return st, true, fmt.Errorf("read the shell's aliases: %w", err)
	}
	if s.hashed, err = hashEntries(fields[5]); err != nil {
		return st, true, fmt.Errorf("read the shell's hash table: %w", err)
	}
	s.noteShadow()
	for name := range s.funcs {
		if sessionNames[name] {
			return st, true, fmt.Errorf("the shell now has a function named %s, which guard's session relies on", name)
		}
	}
	for name := range s.aliases {
		if sessionNames[name] {
			return st, true, fmt.Errorf("the shell now has an alias named %s, which guard's session relies on", name)
		}
	}
	return st, true, nil
}

// noteShadow recomputes the names the shell's PATH and hash table make
// run another program, when either (or the directory, for a relative PATH
// entry) changed since the last time.
func (s *session) noteShadow() {
	var key strings.Builder
	key.WriteString(s.path + "\x00" + s.cwd + "\x00")
	names := slices.Sorted(maps.Keys(s.hashed))
	for _, name := range names {
		key.WriteString(name + "=" + s.hashed[name] + "\x00")
	}
	if s.path == s.basePath && len(s.hashed) == 0 {
		s.shadow, s.shadowKey = nil, ""
		return
	}
	if key.String() == s.shadowKey {
		return
	}
	s.shadow, s.shadowKey = shadowed(s.basePath, s.path, s.cwd, s.hashed), key.String()
}

// newNonce returns a random word that frames one report.
func newNonce() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "g" + hex.EncodeToString(b[:])
}

// loop reads, judges and runs lines until exit or EOF.
func (s *session) loop() int {
	ed := newLineEditor(s.tty, s.out)
	var buf strings.Builder
	for !s.ended {
		prompt := promptContinue
		if buf.Len() == 0 {
			prompt = s.prompt()
		}
		line, err := ed.readLine(prompt)
		switch {
		case errors.Is(err, errInterrupted):
			buf.Reset()
			continue
		case errors.Is(err, io.EOF) && buf.Len() > 0:
			fmt.Fprintf(s.a.env.Stderr, "guard: error: unexpected end of input: the unfinished command was not run\n")
			buf.Reset()
			continue
		case err != nil:
			return s.last
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
		text := buf.String()
		// (longer than guard judges: judged now, and refused as too long)
		if !complete(text) && buf.Len() <= maxStdinScript {
			continue
		}
		buf.Reset()
		if strings.TrimSpace(text) == "" {
			continue
		}
		s.line(strings.TrimSuffix(text, "\n"))
	}
	return s.exit
}

// line judges one complete command and runs it when allowed.
func (s *session) line(text string) {
	if name := definesSessionName(text); name != "" {
		s.last = s.a.refuse(job{mode: modeInteractive, cwd: s.cwd, text: text}, "guard-session",
			"defines "+name+", which guard's interactive session relies on")
		return
	}
	j := job{mode: modeInteractive, text: text, cwd: s.cwd, funcs: s.funcs, aliases: s.aliases, shadow: s.shadow, run: s.run,
		vars: s.vars, noteVars: func(names []string) {
			for _, n := range names {
				s.noteVar(n)
			}
		}}
	s.intr.Store(false)
	s.last = s.a.judgeAndRun(j)
	if s.ended {
		s.last = s.exit
	}
}

// run runs an allowed line in the session's shell (judgeAndRun's runner).
// There is no timeout: a session runs editors and long builds.
func (s *session) run(j job, _ limits) int {
	if s.intr.Load() {
		// Ctrl-C while guard judged it: the human took the line back
		fmt.Fprintf(s.a.env.Stderr, "guard: interrupted: the line was not run\n")
		return 128 + int(syscall.SIGINT)
	}
	var b strings.Builder
	if s.last != 0 {
		// $? of the line is the status of the one before ("&& :" keeps
		// set -e and an ERR trap from firing on it)
		fmt.Fprintf(&b, "( exit %d ) && :\n", s.last&0xff)
	}
	// (eval ' TEXT': a text that starts with - is no option of eval's, in
	// bash or sh, and a blank before a command changes nothing)
	b.WriteString(`\eval ' ` + strings.ReplaceAll(j.text, "'", `'\''`) + "'\n")
	st, err := s.send(b.String(), 0)
	if err != nil {
		s.a.errorf("%v; ending the session", err)
		_ = unix.Kill(-s.pid, syscall.SIGKILL)
		s.exit, s.ended = ExitFailure, true
		return ExitFailure
	}
	return st
}

// prompt is "guard:DIR$ ", DIR the last element of the working directory.
func (s *session) prompt() string {
	dir := filepath.Base(s.cwd)
	if home := s.a.env.getenv("HOME"); home != "" && s.cwd == filepath.Clean(home) {
		dir = "~"
	}
	if s.cwd == "" {
		dir = "?"
	}
	// a directory's name must not send escape sequences to the terminal
	dir = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x9b {
			return '?'
		}
		return r
	}, dir)
	return "guard:" + dir + "$ "
}

// complete reports whether text is one or more whole commands: the parser
// needs no more input (an open quote, heredoc, if/for/{, a trailing && or
// |, a trailing backslash all need more). A syntax error is complete: it is
// judged (and refused) as guard -c would.
func complete(text string) bool {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	f, err := p.Parse(strings.NewReader(text), "")
	if err != nil {
		// (a quoted heredoc delimiter left open is not flagged incomplete)
		var perr syntax.ParseError
		if errors.As(err, &perr) && strings.HasPrefix(perr.Text, "unclosed here-document") {
			return false
		}
		return !syntax.IsIncomplete(err)
	}
	body := strings.TrimSuffix(text, "\n")
	if n := len(body) - len(strings.TrimRight(body, `\`)); n%2 == 0 {
		return true
	}
	// A backslash at the end of the line continues it, except in a comment.
	inComment := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.Comment); ok && int(c.End().Offset()) >= len(body) {
			inComment = true
		}
		return !inComment
	})
	return inComment
}

// definesSessionName returns the name of a function or alias the text
// defines (literally) that the session's machinery calls, or enable.
func definesSessionName(text string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		return ""
	}
	found := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl:
			if x.Name != nil && sessionNames[x.Name.Value] {
				found = "a function named " + x.Name.Value
			}
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				break
			}
			switch x.Args[0].Lit() {
			case "enable":
				found = "enable (builtins turned off)"
			case "alias":
				for _, w := range x.Args[1:] {
					lit, ok := w.Parts[0].(*syntax.Lit)
					if !ok {
						found = "an alias whose name guard cannot read"
						break
					}
					if name, _, _ := strings.Cut(lit.Value, "="); sessionNames[name] {
						found = "an alias named " + name
					}
				}
			}
		}
		return found == ""
	})
	return found
}

// functionBodies takes `declare -f` output apart: each function's body, as
// classify keeps the bodies of functions defined in a text.
func functionBodies(dump string) (map[string]string, error) {
	if strings.TrimSpace(dump) == "" {
		return nil, nil
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(dump), "")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, st := range f.Stmts {
		if d, ok := st.Cmd.(*syntax.DeclClause); ok && d.Variant.Value == "declare" {
			continue // declare -fx NAME: the function is exported
		}
		fd, ok := st.Cmd.(*syntax.FuncDecl)
		if !ok || fd.Name == nil {
			return nil, errors.New("unexpected text among the functions")
		}
		body := fd.Body
		if b, ok := body.Cmd.(*syntax.Block); ok && len(body.Redirs) == 0 {
			if len(b.Stmts) == 0 {
				out[fd.Name.Value] = ":"
				continue
			}
			out[fd.Name.Value] = dump[b.Stmts[0].Pos().Offset():b.Stmts[len(b.Stmts)-1].End().Offset()]
			continue
		}
		out[fd.Name.Value] = dump[body.Pos().Offset():body.End().Offset()]
	}
	return out, nil
}

// aliasValues takes `alias -p` output apart (alias NAME='VALUE' lines).
func aliasValues(dump string) (map[string]string, error) {
	if strings.TrimSpace(dump) == "" {
		return nil, nil
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(dump), "")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, st := range f.Stmts {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) != 2 || call.Args[0].Lit() != "alias" {
			return nil, errors.New("unexpected text among the aliases")
		}
		var sb strings.Builder
		for _, p := range call.Args[1].Parts {
			switch x := p.(type) {
			case *syntax.Lit:
				v := x.Value
				for i := 0; i < len(v); i++ {
					if v[i] == '\\' && i+1 < len(v) {
						i++
					}
					sb.WriteByte(v[i])
				}
			case *syntax.SglQuoted:
				sb.WriteString(x.Value)
			default:
				return nil, errors.New("unexpected quoting among the aliases")
			}
		}
		name, value, ok := strings.Cut(sb.String(), "=")
		if !ok {
			return nil, errors.New("unexpected text among the aliases")
		}
		out[name] = value
	}
	return out, nil
}

// errInterrupted is Ctrl-C at the prompt: the line (and any unfinished
// command) is dropped.
const errInterrupted = constError("interrupted")

// lineEditor reads lines with golang.org/x/term's editor (history in memory,
// arrow keys, Ctrl-A/E/K/U/W), in raw mode only while a line is read.
type lineEditor struct {
	fd   int
	keys *ctrlCReader
	t    *term.Terminal
}

func newLineEditor(tty *os.File, out io.Writer) *lineEditor {
	k := &ctrlCReader{r: tty}
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{k, out}, "")
	return &lineEditor{fd: int(tty.Fd()), keys: k, t: t}
}

func (e *lineEditor) readLine(prompt string) (string, error) {
	old, err := term.MakeRaw(e.fd)
	if err != nil {
		return "", fmt.Errorf("terminal raw mode: %w", err)
	}
	defer term.Restore(e.fd, old)
	if w, h, err := term.GetSize(e.fd); err == nil && w > 0 && h > 0 {
		_ = e.t.SetSize(w, h)
	}
	e.t.SetPrompt(prompt)
	line, err := e.t.ReadLine()
	if e.keys.interrupted {
		e.keys.interrupted = false
		return "", errInterrupted
	}
	if errors.Is(err, term.ErrPasteIndicator) {
		err = nil
	}
	return line, err
}

// ctrlCReader passes the terminal's bytes to the editor, turning Ctrl-C into
// the end of a line that is then dropped (the editor itself would report
// Ctrl-C as EOF, which ends a session). Keys typed after a Ctrl-C in the
// same read are dropped with it.
type ctrlCReader struct {
	r           io.Reader
	cr          bool // a Ctrl-C was seen: the next read ends the line
	interrupted bool
}

func (k *ctrlCReader) Read(p []byte) (int, error) {
	if k.cr {
		k.cr, k.interrupted = false, true
		p[0] = '\r'
		return 1, nil
	}
	n, err := k.r.Read(p)
	if i := bytes.IndexByte(p[:n], 3); i >= 0 {
		if i == 0 {
			k.interrupted = true
			p[0] = '\r'
			return 1, nil
		}
		k.cr = true
		return i, nil
	}
	return n, err
}
