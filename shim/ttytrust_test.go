package shim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want procInfo
		err  bool
	}{
		{"42 (bash) S 1 42 42 34816 42 4194560 1 2 3", procInfo{pid: 42, ppid: 1, pgrp: 42, session: 42, ttyNr: 34816, comm: "bash"}, false},
		// a program may call itself anything, parentheses and spaces included
		{"7 (a) S 1 2 3 4 (b) c) R 99 7 6 0 5", procInfo{pid: 7, ppid: 99, pgrp: 7, session: 6, ttyNr: 0, comm: "a) S 1 2 3 4 (b) c"}, false},
		{"8 () S 3 8 8 0", procInfo{pid: 8, ppid: 3, pgrp: 8, session: 8, comm: ""}, false},
		{"9 (x) S 1", procInfo{}, true},
		{"9 x S 1 2 3 4", procInfo{}, true},
		{"q (x) S 1 2 3 4", procInfo{}, true},
		{"9 (x) S 1 2 z 4", procInfo{}, true},
	} {
		got, err := parseStat([]byte(tc.in))
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("%q: got %+v %v", tc.in, got, err)
		}
	}
}

func TestParseTTYIndex(t *testing.T) {
	for in, want := range map[string]int{
		"pos:\t0\nflags:\t02\nmnt_id:\t28\nino:\t2\ntty-index:\t5\n": 5,
		"tty-index:\t300":            300,
		"pos:\t0\nflags:\t0100002\n": -1,
		"tty-index:\tx\n":            -1,
		"tty-index:\t-3\n":           -1,
		"":                           -1,
	} {
		n, ok := parseTTYIndex([]byte(in))
		if (want < 0 && ok) || (want >= 0 && (!ok || n != want)) {
			t.Errorf("%q: got %d %v, want %d", in, n, ok, want)
		}
	}
}

func TestPtyIndex(t *testing.T) {
	for _, tc := range []struct {
		major, minor uint32
		idx          int
		ok           bool
	}{
		{136, 0, 0, true}, {136, 5, 5, true}, {137, 3, 259, true}, {143, 255, 2047, true},
		{4, 1, 0, false}, {5, 0, 0, false}, {144, 0, 0, false}, {135, 9, 0, false},
	} {
		idx, ok := ptyIndex(tc.major, tc.minor)
		if idx != tc.idx || ok != tc.ok {
			t.Errorf("%d:%d: got %d %v", tc.major, tc.minor, idx, ok)
		}
	}
	// tty_nr packs major and minor as the kernel's new_encode_dev does
	for _, tc := range []struct {
		nr           int
		major, minor uint32
	}{{34816, 136, 0}, {34821, 136, 5}, {35072, 137, 0}, {1025, 4, 1}, {0x88 << 8, 136, 0}, {(136 << 8) | 0x10 | (2 << 20), 136, 0x210}} {
		if maj, min := ttyNrDev(tc.nr); maj != tc.major || min != tc.minor {
			t.Errorf("tty_nr %d: got %d:%d, want %d:%d", tc.nr, maj, min, tc.major, tc.minor)
		}
	}
}

func TestSSHFromHere(t *testing.T) {
	// the test's own environment is what /proc shows for it
	if os.Getenv("SSH_CONNECTION") != "" {
		t.Skip("the test runs in an ssh session")
	}
	if why := sshFromHere(os.Getpid()); why != "cannot tell where the ssh client is" {
		t.Errorf("no SSH_CONNECTION: %q", why)
	}
	for conn, want := range map[string]string{
		"127.0.0.1 5555 127.0.0.1 22":       "the ssh client runs on this machine, and may be the agent",
		"::1 5555 ::1 22":                   "the ssh client runs on this machine, and may be the agent",
		"10.0.0.5 5555 10.0.0.5 22":         "the ssh client runs on this machine, and may be the agent",
		"::ffff:127.0.0.1 5555 10.0.0.5 22": "the ssh client runs on this machine, and may be the agent",
		"192.0.2.7 5555 10.0.0.5 22":        "",
		"192.0.2.7 5555":                    "cannot tell where the ssh client is",
		"nonsense 1 10.0.0.5 22":            "cannot tell where the ssh client is",
	} {
		cmd := exec.Command("sleep", "5")
		cmd.Env = []string{"SSH_CONNECTION=" + conn}
		if err := cmd.Start(); err != nil {
			t.Skip(err)
		}
		time.Sleep(50 * time.Millisecond)
		got := sshFromHere(cmd.Process.Pid)
		cmd.Process.Kill()
		cmd.Wait()
		if got != want {
			t.Errorf("%q: got %q, want %q", conn, got, want)
		}
	}
}

// A pty whose master the test itself holds: the test is the agent's tree.
func TestTrustOwnPty(t *testing.T) {
	p := newPty(t)
	tr := TrustTerminal(p.tty, nil)
	if tr.Human || tr.Holder != os.Getpid() || !strings.Contains(tr.Why, "terminal held by the agent's process tree: ") ||
		!strings.Contains(tr.Why, fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("got %+v", tr)
	}
	// trusting the test's own program does not help: it is the agent's tree
	self, _ := os.Executable()
	if tr := TrustTerminal(p.tty, []string{self}); tr.Human {
		t.Errorf("trusted own program: got %+v", tr)
	}
}

func TestTrustNotATerminal(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if tr := TrustTerminal(f, nil); tr.Human {
		t.Errorf("/dev/null: %+v", tr)
	}
	if tr := TrustProcessTerminal(1<<30, nil); tr.Human || !strings.Contains(tr.Why, "cannot read process") {
		t.Errorf("no such process: %+v", tr)
	}
}

// guard's own prompt path, on a pty the test holds: no question, the
// pending request and the hint with the reason instead.
func TestMainOwnPtyDoesNotPrompt(t *testing.T) {
	r := newTestRun(t, "ask")
	p := newPty(t)
	r.te.tty = p.tty
	r.te.trust = TrustTerminal
	done := make(chan int, 1)
	go func() { done <- r.run("-c", "echo ran") }()
	// an agent that reads the screen and answers: it never gets the chance
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				p.master.Write([]byte("o\r"))
			}
		}
	}()
	var code int
	select {
	case code = <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("guard did not finish")
	}
	close(stop)
	if code != ExitRefused || r.out() != "" {
		t.Errorf("exit %d stdout %q", code, r.out())
	}
	want := fmt.Sprintf("(no grant covers it (terminal held by the agent's process tree: %s pid %d))", procName(procInfo{pid: os.Getpid()}), os.Getpid())
	if !strings.HasPrefix(r.errOut(), "guard: needs approval: echo ran ") || !strings.Contains(r.errOut(), want) {
		t.Errorf("stderr %q, want it to hold %q", r.errOut(), want)
	}
	if strings.Contains(p.shown(), "wants to run") {
		t.Errorf("prompted on the agent's pty: %q", p.shown())
	}
	if !strings.Contains(r.errOut(), "\nguard: hint: run guard watch in a terminal of your own, outside the agent and not inside tmux or screen: commands then wait there for your answer\n") {
		t.Errorf("no hint: %q", r.errOut())
	}
	if b, err := os.ReadFile(filepath.Join(r.te.dir, "pending.jsonl")); err != nil || !strings.Contains(string(b), "echo ran") {
		t.Errorf("pending: %s %v", b, err)
	}
}

// The test binary plays a terminal (SHIM_TEST_AS_TERMINAL): it holds a
// pty's master, starts its arguments on the pty, copies its stdin (the
// human's keys) to the master and the master to its stdout (the screen),
// and exits with the child's status. SHIM_TEST_CHILD (agent or guard) says
// what the child is; SHIM_TEST_CHILD_CTTY=1 gives the child the pty as its
// controlling terminal.
func testTerminalMain() int {
	master, tty, err := pty.Open()
	if err != nil {
		fmt.Fprintln(os.Stderr, "terminal:", err)
		return 125
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.Env = childEnvFor(os.Getenv("SHIM_TEST_CHILD"), "SHIM_TEST_AS_TERMINAL")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if os.Getenv("SHIM_TEST_CHILD_CTTY") == "1" {
		cmd.SysProcAttr.Setctty, cmd.SysProcAttr.Ctty = true, 0
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "terminal:", err)
		return 125
	}
	tty.Close()
	go io.Copy(master, os.Stdin)
	screen := make(chan struct{})
	go func() { io.Copy(os.Stdout, master); close(screen) }()
	err = cmd.Wait()
	select {
	case <-screen:
	case <-time.After(2 * time.Second):
	}
	return statusOf(err)
}

// The test binary plays an agent (SHIM_TEST_AS_AGENT): it runs guard (its
// arguments) and waits. SHIM_TEST_GUARD_CTTY=1 starts guard in a session of
// its own with stdin as its controlling terminal.
func testAgentMain() int {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = childEnvFor("guard", "SHIM_TEST_AS_AGENT")
	if os.Getenv("SHIM_TEST_GUARD_CTTY") == "1" {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	}
	return statusOf(cmd.Run())
}

// childEnvFor is this process's environment without its own role, with the
// child's.
func childEnvFor(child, own string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, own+"=") {
			env = append(env, kv)
		}
	}
	switch child {
	case "agent":
		env = append(env, "SHIM_TEST_AS_AGENT=1")
	case "guard":
		env = append(env, "SHIM_TEST_AS_GUARD=1")
	}
	return env
}

func statusOf(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return 125
	}
	return 0
}

// screen is what a terminal process showed, read as it comes.
type screen struct {
	mu  sync.Mutex
	out bytes.Buffer
}

func (s *screen) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(b)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

func (s *screen) waitFor(t *testing.T, text string) {
	t.Helper()
	for i := 0; i < 1000; i++ {
		if strings.Contains(s.String(), text) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("screen never showed %q; got:\n%s", text, s.String())
}

// terminalSetup is a temp HOME and XDG dirs, a global config, a journal,
// and links to the test binary under the names a terminal and an agent
// would have.
type terminalSetup struct {
	dir, journal, host, agent string
	env                       []string
	keepSysAdmin              bool // as root, start the terminal with cap_sys_admin
}

func newTerminalSetup(t *testing.T, config string) *terminalSetup {
	t.Helper()
	if m, tty, err := pty.Open(); err != nil {
		t.Skipf("no pty: %v", err)
	} else {
		m.Close()
		tty.Close()
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := &terminalSetup{dir: dir, journal: filepath.Join(dir, "journal"), host: filepath.Join(dir, "bin", "term-host"), agent: filepath.Join(dir, "bin", "agent")}
	for _, d := range []string{s.journal, filepath.Join(dir, "bin"), filepath.Join(dir, "config", "guard"), filepath.Join(dir, "home")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []string{s.host, s.agent} {
		if err := os.Link(self, l); err != nil {
			copyFile(t, self, l)
		}
	}
	config = strings.ReplaceAll(config, "HOST", s.host)
	if err := os.WriteFile(filepath.Join(dir, "config", "guard", "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "SHIM_TEST_") && !strings.HasPrefix(k, "GUARD_") &&
			!strings.HasPrefix(k, "XDG_") && k != "HOME" {
			s.env = append(s.env, kv)
		}
	}
	s.env = append(s.env, "HOME="+filepath.Join(dir, "home"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
		"GUARD_MANAGED_POLICY="+filepath.Join(dir, "policy.toml"),
		"SHIM_TEST_JOURNAL="+s.journal, "SHIM_TEST_VERDICT=ask", "SHIM_TEST_REAL_TTY=1")
	return s
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// terminalRun is a terminal process started by a test; keys written to
// keys reach the pty as typed.
type terminalRun struct {
	screen *screen
	keys   io.WriteCloser
	done   chan int
}

// start runs the terminal: host (a program path) with argv on its pty.
func (s *terminalSetup) start(t *testing.T, host string, env []string, argv ...string) *terminalRun {
	t.Helper()
	cmd := exec.Command(host, argv...)
	if os.Geteuid() == 0 && !s.keepSysAdmin {
		// As root, every process of the tree may type into any terminal
		// it holds (tiocsti with cap_sys_admin), and guard says so: the
		// tests of a human's terminal run without that capability.
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("root, and no setpriv to drop cap_sys_admin")
		}
		cmd = exec.Command(setpriv, append([]string{"--bounding-set", "-sys_admin", "--", host}, argv...)...)
	}
	cmd.Env = append(append(append([]string{}, s.env...), "SHIM_TEST_AS_TERMINAL=1"), env...)
	cmd.Dir = s.dir
	r := &terminalRun{screen: &screen{}, done: make(chan int, 1)}
	cmd.Stdout, cmd.Stderr = r.screen, r.screen
	keys, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r.keys = keys
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- statusOf(cmd.Wait()) }()
	t.Cleanup(func() { keys.Close(); cmd.Process.Kill() })
	return r
}

func (r *terminalRun) wait(t *testing.T) int {
	t.Helper()
	select {
	case code := <-r.done:
		return code
	case <-time.After(20 * time.Second):
		t.Fatalf("terminal did not finish; screen:\n%s", r.screen)
	}
	return 0
}

// answersIgnored types o, Enter every 50 ms until the run ends.
func (r *terminalRun) typeAnswers() chan<- struct{} {
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				r.keys.Write([]byte("o\r"))
			}
		}
	}()
	return stop
}

func (s *terminalSetup) pending(t *testing.T) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(s.journal, "pending.jsonl"))
	return string(b)
}

// The agent holds the pty and runs guard on it: no prompt, whatever it types.
func TestTerminalAgentPtyDoesNotPrompt(t *testing.T) {
	s := newTerminalSetup(t, "ask_timeout = \"10s\"\n")
	self, _ := os.Executable()
	// the "terminal" program is not trusted here: it is an agent's pty driver
	r := s.start(t, s.host, []string{"SHIM_TEST_CHILD=guard", "SHIM_TEST_CHILD_CTTY=1"}, self, "-c", "echo ran")
	stop := r.typeAnswers()
	code := r.wait(t)
	close(stop)
	out := r.screen.String()
	if code != ExitRefused || strings.Contains(out, "wants to run") || strings.Contains(out, "\nran") {
		t.Errorf("exit %d; screen:\n%s", code, out)
	}
	if !strings.Contains(out, "guard: needs approval: echo ran (no grant covers it (terminal held by the agent's process tree: term-host pid ") {
		t.Errorf("screen:\n%s", out)
	}
	if !strings.Contains(s.pending(t), "echo ran") {
		t.Errorf("no pending request: %q", s.pending(t))
	}
}

// The agent pads the tree between its pty and guard (perl, sh -c): the
// holder is above the nearest program, but it is no terminal.
func TestTerminalPaddedTreeDoesNotPrompt(t *testing.T) {
	perl, err := exec.LookPath("perl")
	if err != nil {
		t.Skip("no perl")
	}
	s := newTerminalSetup(t, "ask_timeout = \"10s\"\n")
	self, _ := os.Executable()
	r := s.start(t, s.host, []string{"SHIM_TEST_CHILD=guard", "SHIM_TEST_CHILD_CTTY=1"},
		"/bin/sh", "-c", `"$0" -e 'exit(system(@ARGV) >> 8)' -- sh -c '"$0" "$@"; exit $?' "$1" -c 'echo ran'`, perl, self)
	stop := r.typeAnswers()
	code := r.wait(t)
	close(stop)
	out := r.screen.String()
	if code != ExitRefused || strings.Contains(out, "wants to run") {
		t.Errorf("exit %d; screen:\n%s", code, out)
	}
	if !strings.Contains(out, "(terminal held by term-host pid ") || !strings.Contains(out, ": not a known terminal program)") {
		t.Errorf("screen:\n%s", out)
	}
	// the hint names the routes that work from here, once
	hint := "guard: hint: run guard watch in a terminal of your own, outside the agent and not inside tmux or screen: commands then wait there for your answer; or list " +
		s.host + " in trusted_terminals in " + filepath.Join(s.dir, "config", "guard", "config.toml")
	if strings.Count(out, hint) != 1 {
		t.Errorf("want the hint %q once; screen:\n%s", hint, out)
	}
}

// A terminal the user trusts, above the agent: guard asks there, and the
// answer typed through it counts.
func TestTerminalTrustedHostPrompts(t *testing.T) {
	for _, answer := range []struct {
		keys []string
		code int
	}{
		{[]string{"o\r"}, 0},
		{[]string{"d\r"}, ExitRefused},
	} {
		s := newTerminalSetup(t, "ask_timeout = \"10s\"\ntrusted_terminals = [\"HOST\"]\n")
		self, _ := os.Executable()
		r := s.start(t, s.host, []string{"SHIM_TEST_CHILD=agent", "SHIM_TEST_GUARD_CTTY=1"}, s.agent, self, "-c", "echo ran")
		r.screen.waitFor(t, "(deny in 10s): ")
		for _, k := range answer.keys {
			r.keys.Write([]byte(k))
		}
		code := r.wait(t)
		out := r.screen.String()
		if code != answer.code || !strings.Contains(out, "the agent wants to run:") {
			t.Errorf("keys %q: exit %d; screen:\n%s", answer.keys, code, out)
		}
		if ran := strings.Contains(out, "\nran"); ran != (answer.code == 0) {
			t.Errorf("keys %q: ran %v; screen:\n%s", answer.keys, ran, out)
		}
		if s.pending(t) != "" {
			t.Errorf("pending request although the human answered: %s", s.pending(t))
		}
	}
}

// A trusted terminal directly above guard (a human typed the command in
// it) is a human's too; a GUARD_ACTIVE terminal (started by a guarded
// command) is not.
func TestTerminalTrustedHostDirect(t *testing.T) {
	s := newTerminalSetup(t, "ask_timeout = \"10s\"\ntrusted_terminals = [\"HOST\"]\n")
	self, _ := os.Executable()
	r := s.start(t, s.host, []string{"SHIM_TEST_CHILD=guard", "SHIM_TEST_CHILD_CTTY=1"}, self, "-c", "echo ran")
	r.screen.waitFor(t, "(deny in 10s): ")
	r.keys.Write([]byte("o\r"))
	if code := r.wait(t); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, r.screen)
	}

	r = s.start(t, s.host, []string{"SHIM_TEST_CHILD=guard", "SHIM_TEST_CHILD_CTTY=1", "GUARD_ACTIVE=1"}, self, "-c", "echo ran")
	stop := r.typeAnswers()
	code := r.wait(t)
	close(stop)
	if out := r.screen.String(); code != ExitRefused || !strings.Contains(out, "which a command run by guard started)") {
		t.Errorf("exit %d; screen:\n%s", code, out)
	}
}

// A trusted terminal above an agent that shares guard's controlling
// terminal: where the kernel lets the agent push keys into it (TIOCSTI),
// guard does not ask.
func TestTerminalAgentSharesTerminal(t *testing.T) {
	s := newTerminalSetup(t, "ask_timeout = \"10s\"\ntrusted_terminals = [\"HOST\"]\n")
	self, _ := os.Executable()
	r := s.start(t, s.host, []string{"SHIM_TEST_CHILD=agent", "SHIM_TEST_CHILD_CTTY=1"}, s.agent, self, "-c", "echo ran")
	if !tiocstiAllowed() {
		r.screen.waitFor(t, "(deny in 10s): ")
		r.keys.Write([]byte("o\r"))
		if code := r.wait(t); code != 0 {
			t.Errorf("exit %d; screen:\n%s", code, r.screen)
		}
		return
	}
	code := r.wait(t)
	if out := r.screen.String(); code != ExitRefused || !strings.Contains(out, "(the agent (agent pid ") ||
		!strings.Contains(out, "shares this terminal and the kernel lets it type into it (tiocsti); sysctl dev.tty.legacy_tiocsti=0 closes that)") {
		t.Errorf("exit %d; screen:\n%s", code, out)
	}
}

// TrustProcessTerminal judges another process, as the approval console's
// peer check will.
func TestTrustProcessTerminal(t *testing.T) {
	s := newTerminalSetup(t, "")
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	// term-host → agent → sh → sleep: sh judged from here with and
	// without trust (sh holds the terminal as its controlling one)
	r := s.start(t, s.host, []string{"SHIM_TEST_CHILD=agent", "SHIM_TEST_GUARD_CTTY=1"}, s.agent, "/bin/sh", "-c", sleep+" 1; exit 0")
	var pid int
	for i := 0; i < 200 && pid == 0; i++ {
		time.Sleep(10 * time.Millisecond)
		pid = findChild(t, sleep)
	}
	if pid == 0 {
		t.Fatal("sleep never started")
	}
	st, err := readStat(pid)
	if err != nil {
		t.Fatal(err)
	}
	pid = st.ppid
	// the agent is the nearest program above sh; the terminal's holder,
	// above it, is trusted or not
	if tr := TrustProcessTerminal(pid, nil); tr.Human || !strings.Contains(tr.Why, "not a known terminal program") {
		t.Errorf("untrusted: %+v", tr)
	}
	tr := TrustProcessTerminal(pid, []string{s.host})
	if tiocstiAllowed() {
		// sleep, below sh, shares the terminal and may type into it
		if tr.Human || !strings.HasPrefix(tr.Why, "a process of the agent's tree (sleep pid ") || !strings.Contains(tr.Why, "(tiocsti)") {
			t.Errorf("trusted, tiocsti: %+v", tr)
		}
	} else if !tr.Human || !strings.HasPrefix(tr.Why, "held by term-host pid ") {
		t.Errorf("trusted: %+v", tr)
	}
	r.wait(t)
}

// findChild finds the newest process below the test running prog.
func findChild(t *testing.T, prog string) int {
	t.Helper()
	ents, _ := os.ReadDir("/proc")
	best := 0
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		if exe, _, err := procExe(pid); err == nil && exe == prog && descendsFrom(pid, os.Getpid()) && pid > best {
			best = pid
		}
	}
	return best
}

// sshSession accepts only a session that root's sshd started: not the
// test's own, whatever its shape.
func TestSSHSessionNotHere(t *testing.T) {
	chain, err := ancestors(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	maj, min := ttyNrDev(chain[0].ttyNr)
	for agent := range chain {
		if h, ok := sshSession(chain, agent, maj, min); ok {
			t.Errorf("agent at %d: accepted holder %d", agent, h)
		}
	}
	// a made-up chain: the leader's parent is no sshd
	fake := []procInfo{{pid: os.Getpid(), session: 1, ttyNr: 34816}, {pid: 1, session: 1, ttyNr: 34816, comm: "bash"}, {pid: 0, comm: "sshd"}}
	if _, ok := sshSession(fake, 0, 136, 0); ok {
		t.Error("accepted a session with no sshd above it")
	}
}

// BenchmarkTrustTerminal is what judging a terminal costs (the whole
// /proc scan); it runs only when guard must ask.
func BenchmarkTrustTerminal(b *testing.B) {
	master, tty, err := pty.Open()
	if err != nil {
		b.Skip(err)
	}
	defer master.Close()
	defer tty.Close()
	for b.Loop() {
		if TrustTerminal(tty, nil).Human {
			b.Fatal("own pty judged a human's")
		}
	}
}

// TestHostByNameNotTrustedAsRoot: as root, a program copied under a
// terminal emulator's name into a root-owned directory passes the
// "installed by root" check; it must not count as the human's terminal.
func TestHostByNameNotTrustedAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: a user cannot make a root-owned copy")
	}
	src, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(t.TempDir(), "xterm")
	if err := os.WriteFile(fake, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(fake, "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if kind, why := hostOf(cmd.Process.Pid, nil); kind != notHost {
		t.Errorf("a root-owned copy named xterm: got kind %d (%q), want notHost", kind, why)
	}
	// the same program listed in trusted_terminals is the human's choice
	if kind, _ := hostOf(cmd.Process.Pid, []string{fake}); kind != emulator {
		t.Errorf("listed in trusted_terminals: got kind %d, want emulator", kind)
	}
}

// A console (no pseudo-terminal) counts only when trusted_terminals lists
// its device: by path, by glob, or by another path to the same device.
func TestConsoleListed(t *testing.T) {
	null := uint64(0)
	if fi, err := os.Stat(os.DevNull); err == nil {
		null = uint64(fi.Sys().(*syscall.Stat_t).Rdev)
	}
	for _, tc := range []struct {
		dev     string
		rdev    uint64
		trusted []string
		want    bool
	}{
		{"/dev/tty2", 0, nil, false},
		{"/dev/tty2", 0, []string{"/dev/tty2"}, true},
		{"/dev/tty2", 0, []string{"/dev/tty1"}, false},
		{"/dev/tty12", 0, []string{"/dev/tty[0-9]*"}, true},
		{"/dev/ttyS0", 0, []string{"/dev/tty[0-9]*"}, false},
		{"/dev/ttyS0", 0, []string{"/dev/ttyS*"}, true},
		// a program path is no device
		{"/dev/tty2", 0, []string{"/usr/bin/xterm"}, false},
		// another name for the same device
		{"/dev/ttyX", null, []string{os.DevNull}, true},
		{"/dev/ttyX", null + 1, []string{os.DevNull}, false},
	} {
		if got := consoleListed(tc.dev, tc.rdev, tc.trusted); got != tc.want {
			t.Errorf("%s in %q: got %v", tc.dev, tc.trusted, got)
		}
	}
}

func TestParseDevName(t *testing.T) {
	for in, want := range map[string]string{
		"MAJOR=4\nMINOR=2\nDEVNAME=tty2\n": "/dev/tty2",
		"DEVNAME=ttyS0":                    "/dev/ttyS0",
		"MAJOR=4\n":                        "",
		"DEVNAME=\n":                       "",
		"DEVNAME=../etc/x\n":               "",
		"DEVNAME=/dev/x\n":                 "",
	} {
		got, err := parseDevName([]byte(in))
		if got != want || (err == nil) != (want != "") {
			t.Errorf("%q: got %q %v", in, got, err)
		}
	}
}

func TestParseCapEff(t *testing.T) {
	for in, want := range map[string][2]bool{
		"Name:\tx\nCapEff:\t000001fffeffffff\n": {true, true},
		"CapEff:\t0000000000000000\n":           {false, true},
		"CapEff:\t0000000000200000":             {true, true},
		"CapEff:\t00000000001fffff":             {false, true},
		"CapEff:\tzz\n":                         {false, false},
		"Name:\tx\n":                            {false, false},
	} {
		has, ok := parseCapEff([]byte(in), capSysAdmin)
		if [2]bool{has, ok} != want {
			t.Errorf("%q: got %v %v", in, has, ok)
		}
	}
}

// The decision on who may type into a terminal, on made-up scan results.
func TestInjectorWhy(t *testing.T) {
	const tiocsti = "shares this terminal and the kernel lets it type into it (tiocsti)"
	const sysAdmin = "holds this terminal with cap_sys_admin (as root)"
	for _, tc := range []struct {
		name   string
		users  []termUser
		agent  int
		legacy bool
		want   string // a part of the reason, "" for none
	}{
		{"nobody", nil, 10, true, ""},
		{"outside the tree", []termUser{{pid: 5, ctty: true, fd: true, sysAdmin: true}}, 10, true, ""},
		{"agent shares, no legacy", []termUser{{pid: 10, ctty: true, fd: true, inTree: true, name: "agent"}}, 10, false, ""},
		{"agent shares, legacy", []termUser{{pid: 10, ctty: true, fd: true, inTree: true, name: "agent"}}, 10, true, "the agent (agent pid 10) " + tiocsti},
		{"agent holds an fd, legacy", []termUser{{pid: 10, fd: true, inTree: true, name: "agent"}}, 10, true, ""},
		{"agent holds an fd as root", []termUser{{pid: 10, fd: true, inTree: true, sysAdmin: true, name: "agent"}}, 10, false, "the agent (agent pid 10) " + sysAdmin},
		{"its child as root", []termUser{{pid: 11, fd: true, inTree: true, sysAdmin: true, name: "python3"}}, 10, false, "a process of the agent's tree (python3 pid 11) " + sysAdmin},
		{"the agent named first", []termUser{{pid: 11, ctty: true, inTree: true, name: "sh"}, {pid: 10, ctty: true, inTree: true, name: "agent"}}, 10, true, "the agent (agent pid 10)"},
		{"no agent: another process", []termUser{{pid: 7, ctty: true, inTree: true, name: "x"}}, 0, true, "another process (x pid 7) " + tiocsti},
	} {
		got := injectorWhy(tc.users, tc.agent, tc.legacy, false)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// On a virtual console before Linux 6.7, any holder may paste into it
// (TIOCLINUX), capability or not.
func TestInjectorWhyVTPaste(t *testing.T) {
	agent := []termUser{{pid: 10, fd: true, inTree: true, name: "agent"}}
	if got := injectorWhy(agent, 10, false, true); !strings.Contains(got, "the agent (agent pid 10) holds this virtual console, and before linux 6.7 any holder may paste into it (tioclinux)") {
		t.Errorf("paste open: %q", got)
	}
	if got := injectorWhy(agent, 10, false, false); got != "" {
		t.Errorf("paste closed: %q", got)
	}
	outside := []termUser{{pid: 5, fd: true, name: "getty"}}
	if got := injectorWhy(outside, 10, true, true); got != "" {
		t.Errorf("a holder outside the agent's tree: %q", got)
	}
	for release, want := range map[string][3]int{
		"6.1.0-18-amd64": {6, 1, 1}, "6.7": {6, 7, 1}, "5.15.0-91-generic": {5, 15, 1}, "6.18.44-fc-v1252": {6, 18, 1},
		"x": {0, 0, 0}, "6.x": {6, 0, 0},
	} {
		ma, mi, ok := kernelVersion(release)
		if (ok != (want[2] == 1)) || ok && (ma != want[0] || mi != want[1]) {
			t.Errorf("%q: %d.%d %v", release, ma, mi, ok)
		}
	}
}

// The scan finds a process of the agent's tree that holds a device, and
// judges it by its capability; /dev/full plays the console (nothing else
// holds it, unlike /dev/null, which test runners pass down).
func TestInjectionScan(t *testing.T) {
	const dev = "/dev/full"
	full, err := os.OpenFile(dev, os.O_RDWR, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	fi, err := full.Stat()
	if err != nil {
		t.Fatal(err)
	}
	rdev := uint64(fi.Sys().(*syscall.Stat_t).Rdev)
	major, minor := uint32((rdev>>8)&0xfff), uint32((rdev&0xff)|((rdev>>12)&0xfff00))
	self, err := readStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	start := func(stdio *os.File) *exec.Cmd {
		cmd := exec.Command("sleep", "30")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdio, stdio, stdio
		if err := cmd.Start(); err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	holder := start(full)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	other := start(w)
	var users []termUser
	for i := 0; i < 200; i++ { // until exec has replaced the test binary's copy
		if users, err = terminalUsers(major, minor); err != nil {
			t.Fatal(err)
		}
		if exe, _, _ := procExe(holder.Process.Pid); filepath.Base(exe) == "sleep" {
			if exe, _, _ := procExe(other.Process.Pid); filepath.Base(exe) == "sleep" {
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	found := false
	for _, u := range users {
		found = found || (u.pid == holder.Process.Pid && u.fd)
		if u.pid == other.Process.Pid {
			t.Errorf("a process that holds no %s was listed: %+v", dev, u)
		}
	}
	if !found {
		t.Fatalf("the holder %d was not found: %+v", holder.Process.Pid, users)
	}
	chain := []procInfo{self}
	why := injectionWhy(chain, holder.Process.Pid, major, minor)
	if procSysAdmin(holder.Process.Pid) {
		if !strings.Contains(why, fmt.Sprintf("the agent (sleep pid %d) holds this terminal with cap_sys_admin", holder.Process.Pid)) {
			t.Errorf("root holder: %q", why)
		}
	} else if why != "" {
		t.Errorf("a holder without cap_sys_admin or the terminal as its own: %q", why)
	}
	if why := injectionWhy(chain, other.Process.Pid, major, minor); why != "" {
		t.Errorf("an agent that holds nothing: %q", why)
	}
	// judged as a console: refused until listed
	tr := judgeConsole(chain, major, minor, nil)
	if tr.Human || tr.Console != dev || !strings.Contains(tr.Why, dev+" is a console, not a pseudo-terminal: it counts as a human's only when listed in trusted_terminals") {
		t.Errorf("unlisted: %+v", tr)
	}
	if tr := judgeConsole(chain, major, minor, []string{"/dev/fu?l"}); tr.Console != "" || strings.Contains(tr.Why, "only when listed") {
		t.Errorf("listed: %+v", tr)
	}
}

// As root, an agent holding the terminal may type into it (tiocsti with
// cap_sys_admin): a trusted terminal above it is not asked.
func TestTerminalRootAgentRefused(t *testing.T) {
	if !procSysAdmin(os.Getpid()) {
		t.Skip("needs cap_sys_admin")
	}
	s := newTerminalSetup(t, "ask_timeout = \"10s\"\ntrusted_terminals = [\"HOST\"]\n")
	s.keepSysAdmin = true
	self, _ := os.Executable()
	r := s.start(t, s.host, []string{"SHIM_TEST_CHILD=agent", "SHIM_TEST_GUARD_CTTY=1"}, s.agent, self, "-c", "echo ran")
	stop := r.typeAnswers()
	code := r.wait(t)
	close(stop)
	if out := r.screen.String(); code != ExitRefused || strings.Contains(out, "wants to run") ||
		!strings.Contains(out, "(the agent (agent pid ") || !strings.Contains(out, "holds this terminal with cap_sys_admin (as root), which lets it type into it (tiocsti))") {
		t.Errorf("exit %d; screen:\n%s", code, out)
	}
}
