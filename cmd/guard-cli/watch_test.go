package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/guard-dev/guard/shim"
)

// envTerminal makes the test binary play a terminal program: it holds a
// pty's master, starts its arguments on the pty (as their controlling
// terminal), copies its stdin (the human's keys) to the master and the
// master to its stdout (the screen), and exits with the child's status.
const envTerminal = "GUARD_TEST_AS_TERMINAL"

// envFakeConsole makes the test binary, started under another file name
// (a copy, so not guard's executable), listen on the console socket given
// and write what it receives to the file GUARD_TEST_FAKE_GOT.
const envFakeConsole = "GUARD_TEST_FAKE_CONSOLE"

func init() {
	if path := os.Getenv(envFakeConsole); path != "" {
		os.Exit(fakeConsole(path, os.Getenv("GUARD_TEST_FAKE_GOT")))
	}
	if os.Getenv(envTerminal) != "" {
		os.Exit(terminalMain())
	}
}

func terminalMain() int {
	master, tty, err := pty.Open()
	if err != nil {
		return 125
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	if name := os.Getenv(envTerminal); name != "1" {
		cmd.Args[0] = name // the test binary runs what testscript.Main names so
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, envTerminal+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
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
	if err != nil {
		return cmd.ProcessState.ExitCode()
	}
	return 0
}

// fakeConsole answers every request "once", as a console an agent planted
// would, and records what it was sent.
func fakeConsole(path, got string) int {
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return 1
	}
	os.WriteFile(got, nil, 0o600)
	for {
		c, err := ln.Accept()
		if err != nil {
			return 1
		}
		go func() {
			defer c.Close()
			c.Write([]byte(`{"answer":"once"}` + "\n"))
			c.SetReadDeadline(time.Now().Add(2 * time.Second))
			b, _ := io.ReadAll(c)
			f, _ := os.OpenFile(got, os.O_WRONLY|os.O_APPEND, 0o600)
			f.Write(b)
			f.Close()
		}()
	}
}

// console is guard watch running on a pseudo-terminal that a trusted
// terminal program holds (the test binary under another name, listed in
// trusted_terminals): keys written to it reach the pty as typed.
type console struct {
	cmd    *exec.Cmd
	keys   io.WriteCloser
	mu     sync.Mutex
	out    bytes.Buffer
	done   chan struct{}
	status int
}

func (c *console) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(b)
}

// termHost makes the terminal program and writes the global config that
// trusts it, with extra settings.
func (g *guardEnv) termHost(t *testing.T, extra string) string {
	t.Helper()
	host := filepath.Join(filepath.Dir(g.bin), "term-host")
	if _, err := os.Stat(host); err != nil {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(exe)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(host, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(filepath.Dir(g.proj), "home", ".config", "guard", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	if err := os.WriteFile(cfg, []byte(extra+"trusted_terminals = ['"+host+"']\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return host
}

// inTerminal runs guard ARGS in the trusted terminal. guard-cli runs as the
// test binary itself, named guard-cli (as guard would exec it when installed
// beside it): guard then knows it by its path for its own program.
func (g *guardEnv) inTerminal(t *testing.T, extra string, args ...string) *console {
	t.Helper()
	return g.inTerminalAs(t, shim.CLIName, extra, args...)
}

// inTerminalAs runs the test binary as prog (guard or guard-cli) with ARGS
// in the trusted terminal.
func (g *guardEnv) inTerminalAs(t *testing.T, prog, extra string, args ...string) *console {
	t.Helper()
	host := g.termHost(t, extra)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(host, append([]string{exe}, args...)...)
	cmd.Env = append(append([]string{}, g.env...), envTerminal+"="+prog)
	cmd.Dir = g.proj
	c := &console{cmd: cmd, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = c, c
	keys, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.keys = keys
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cmd.Wait(); c.status = cmd.ProcessState.ExitCode(); close(c.done) }()
	t.Cleanup(func() {
		keys.Close()
		cmd.Process.Kill()
		<-c.done
	})
	return c
}

func (g *guardEnv) startWatch(t *testing.T, extra string) *console {
	t.Helper()
	c := g.inTerminal(t, extra, "watch")
	c.waitFor(t, "waiting for requests", 1)
	return c
}

// exited waits for the terminal's program to end and returns its status.
func (c *console) exited(t *testing.T) int {
	t.Helper()
	select {
	case <-c.done:
		return c.status
	case <-time.After(15 * time.Second):
		t.Fatalf("the terminal's program did not end; it showed:\n%s", c.shown())
	}
	return 0
}

func (c *console) shown() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.String()
}

// waitFor waits until the console has shown s n times.
func (c *console) waitFor(t *testing.T, s string, n int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for strings.Count(c.shown(), s) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the console did not show %q %d times; it showed:\n%s", s, n, c.shown())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (c *console) send(t *testing.T, keys string) {
	t.Helper()
	if _, err := c.keys.Write([]byte(keys)); err != nil {
		t.Fatal(err)
	}
}

// asked is what the console shows when it waits for an answer.
const asked = "answer, then enter (deny in"

type result struct {
	stdout, stderr string
	code           int
}

// runAsync runs guard without a terminal in the background.
func (g *guardEnv) runAsync(t *testing.T, args ...string) <-chan result {
	ch := make(chan result, 1)
	go func() {
		o, e, code := g.run(t, args...)
		ch <- result{o, e, code}
	}()
	return ch
}

func waitResult(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("the guarded command did not finish")
	}
	return result{}
}

func TestWatchAnswers(t *testing.T) {
	g := newGuardEnv(t)
	c := g.startWatch(t, "")
	for i, tc := range []struct {
		key, file  string
		code       int
		answer     string
		grant      string // "project", "global" or ""
		wantStderr string
	}{
		{"o", "made-o", 0, "once", "", ""},
		{"p", "made-p", 0, "project", "project", ""},
		{"g", "made-g", 0, "global", "global", ""}, // confirmed with y below
		{"d", "made-d", exitRefused, "deny", "", "guard: denied: unknown: denied in guard watch\n"},
	} {
		cmd := "touch " + tc.file
		ch := g.runAsync(t, "-c", cmd)
		c.waitFor(t, asked, i+1)
		if !strings.Contains(c.shown(), "agent ") || !strings.Contains(c.shown(), cmd) {
			t.Errorf("the console does not show the request:\n%s", c.shown())
		}
		c.send(t, tc.key+"\r")
		if tc.key == "g" {
			c.waitFor(t, "[y] then enter to confirm", 1)
			c.send(t, "y\r")
		}
		r := waitResult(t, ch)
		r.stderr = cutWaiting(t, r.stderr)
		if r.code != tc.code || r.stderr != tc.wantStderr {
			t.Errorf("%s answered %s: status %d, stderr %q", cmd, tc.key, r.code, r.stderr)
		}
		_, err := os.Stat(filepath.Join(g.proj, tc.file))
		if ran := err == nil; ran != (tc.code == 0) {
			t.Errorf("%s answered %s: ran %v", cmd, tc.key, ran)
		}
		out, _, _ := g.run(t, "audit", "--json", "-n", "1")
		want := `"answer":"` + tc.answer + `","via":"console"`
		if !strings.Contains(out, want) || !strings.Contains(out, cmd) {
			t.Errorf("%s answered %s: audit %s, want %s", cmd, tc.key, out, want)
		}
		if tc.grant != "" {
			out, _, _ := g.run(t, "grants", "list")
			if !regexp.MustCompile(`allow +touch `+tc.file+` +`+tc.grant+`-grants`).MatchString(out) || strings.Contains(out, "root not recorded") {
				t.Errorf("answer %s stored no grant:\n%s", tc.key, out)
			}
		}
	}
	// The deny is a rejection the agent's retry learns of, and a deny in
	// the audit.
	r := waitResult(t, g.runAsync(t, "-c", "touch made-d"))
	if r.code != exitRefused || !strings.Contains(r.stderr, "rejected by the human at") {
		t.Errorf("retry after a deny in the console: %d %q", r.code, r.stderr)
	}
	out, _, _ := g.run(t, "audit", "--decision", "deny")
	if !strings.Contains(out, "console") || !strings.Contains(out, "touch made-d") {
		t.Errorf("guard audit --decision deny lacks the console's deny:\n%s", out)
	}
	// Nothing a console writes keeps a plain hash of a text.
	plain := sha256.Sum256([]byte("touch made-o"))
	if out, err := exec.Command("grep", "-r", hex.EncodeToString(plain[:]), filepath.Dir(g.proj)).CombinedOutput(); err == nil {
		t.Errorf("a plain sha256 of a command is on disk:\n%s", out)
	}
}

// waitingLine is the line a command that waits in the console says at once.
var waitingLine = regexp.MustCompile(`^guard: waiting for approval: request ([0-9a-f]{6}), up to 2m; answer it in guard watch, or with guard approve ([0-9a-f]{6}) in a terminal of your own\n`)

// cutWaiting checks that stderr starts with the waiting line and returns
// the rest.
func cutWaiting(t *testing.T, stderr string) string {
	t.Helper()
	m := waitingLine.FindStringSubmatch(stderr)
	if m == nil || m[1] != m[2] {
		t.Errorf("no waiting line first: %q", stderr)
		return stderr
	}
	return stderr[len(m[0]):]
}

// A command killed while it waits in the console leaves guard pending.
func TestWatchKilledWaitGoes(t *testing.T) {
	g := newGuardEnv(t)
	c := g.startWatch(t, "")
	cmd := exec.Command(g.bin, "-c", "touch made-k")
	cmd.Env, cmd.Dir = g.env, g.proj
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, asked, 1)
	if out, _, _ := g.run(t, "pending", "--json"); !strings.Contains(out, `"command":"touch made-k","suggest":"touch made-k","waiting":true`) {
		t.Errorf("the waiting request is not listed as waiting: %s", out)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if out, _, _ := g.run(t, "pending"); strings.Contains(out, "made-k") {
		t.Errorf("the killed command's request is still pending:\n%s", out)
	}
	c.waitFor(t, "guard stopped waiting; nothing stored", 1) // and it left the console
}

// guard approve in another terminal answers a command waiting in the
// console.
func TestWatchApprovedElsewhere(t *testing.T) {
	g := newGuardEnv(t)
	c := g.startWatch(t, "")
	ch := g.runAsync(t, "-c", "touch made-a")
	c.waitFor(t, asked, 1)
	out, _, _ := g.run(t, "pending", "--json")
	m := regexp.MustCompile(`"id":"([0-9a-f]{6})"`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no request: %s", out)
	}
	id := m[1]
	if screen, code := g.runTTY(t, "y", "approve", id); code != 0 {
		t.Fatalf("approve: %d\n%s", code, screen)
	}
	r := waitResult(t, ch)
	if rest := cutWaiting(t, r.stderr); r.code != 0 || rest != "" {
		t.Errorf("after guard approve: status %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(g.proj, "made-a")); err != nil {
		t.Error("the command did not run")
	}
	out, _, _ = g.run(t, "audit", "--json", "-n", "1")
	if !strings.Contains(out, `"answer":"once","via":"approve"`) {
		t.Errorf("audit: %s", out)
	}
}

func TestWatchDetach(t *testing.T) {
	g := newGuardEnv(t)
	c := g.startWatch(t, "")
	ch := g.runAsync(t, "-c", "touch made-x")
	c.waitFor(t, asked, 1)
	// A second request waits behind the first.
	ch2 := g.runAsync(t, "-c", "touch made-z")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if out, _, _ := g.run(t, "pending"); strings.Contains(out, "made-z") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second request was never stored")
		}
	}
	time.Sleep(200 * time.Millisecond) // and offered to the console
	c.send(t, "\x03")
	for _, r := range []result{waitResult(t, ch), waitResult(t, ch2)} {
		r.stderr = cutWaiting(t, r.stderr)
		if r.code != exitRefused || !strings.HasPrefix(r.stderr, "guard: needs approval: touch made-") || !strings.Contains(r.stderr, "guard approve ") {
			t.Errorf("after detach: status %d, stderr %q", r.code, r.stderr)
		}
	}
	var r result
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("the console did not exit on Ctrl-C:\n%s", c.shown())
	}
	if _, err := os.Stat(filepath.Join(g.proj, "made-x")); err == nil {
		t.Error("the command ran")
	}
	// With the console gone, guard refuses at once again.
	start := time.Now()
	r = waitResult(t, g.runAsync(t, "-c", "touch made-y"))
	if r.code != exitRefused || !strings.HasPrefix(r.stderr, "guard: needs approval: ") || time.Since(start) > 5*time.Second {
		t.Errorf("without a console: status %d, stderr %q after %s", r.code, r.stderr, time.Since(start))
	}
}

func TestWatchTimeout(t *testing.T) {
	g := newGuardEnv(t)
	c := g.startWatch(t, "ask_timeout = \"2s\"\n")
	r := waitResult(t, g.runAsync(t, "-c", "touch made-t"))
	if r.code != exitRefused || !strings.Contains(r.stderr, "no answer within 2s in guard watch\nguard: hint: the request stays pending: guard approve ") {
		t.Errorf("timeout: status %d, stderr %q", r.code, r.stderr)
	}
	out, _, _ := g.run(t, "audit", "--json", "-n", "1")
	if !strings.Contains(out, `"decision":"deny","rule":"unknown","answer":"timeout","via":"console"`) {
		t.Errorf("timeout not recorded: %s", out)
	}
	// The request stays pending for guard approve, and the console goes on.
	if out, _, _ := g.run(t, "pending"); !strings.Contains(out, "touch made-t") {
		t.Errorf("timed-out request not pending:\n%s", out)
	}
	c.waitFor(t, "waiting for requests", 2)
}

// While the web console runs (its address in ui.url), the waiting line
// names it first.
func TestWatchWaitingNamesPage(t *testing.T) {
	g := newGuardEnv(t)
	state := filepath.Join(filepath.Dir(g.proj), "home", ".local", "state", "guard")
	os.MkdirAll(state, 0o700)
	if err := os.WriteFile(filepath.Join(state, shim.UIURLName), []byte("http://127.0.0.1:43211/\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	g.startWatch(t, "ask_timeout = \"1s\"\n")
	r := waitResult(t, g.runAsync(t, "-c", "touch made-u"))
	want := regexp.MustCompile(`^guard: waiting for approval: request ([0-9a-f]{6}), up to 1s; answer it at http://127\.0\.0\.1:43211/, in guard watch, or with guard approve ([0-9a-f]{6}) in a terminal of your own\n`)
	if m := want.FindStringSubmatch(r.stderr); r.code != exitRefused || m == nil || m[1] != m[2] {
		t.Errorf("status %d, stderr %q", r.code, r.stderr)
	}
}

func TestWatchSecondConsole(t *testing.T) {
	g := newGuardEnv(t)
	g.startWatch(t, "")
	c := g.inTerminal(t, "", "watch")
	if code := c.exited(t); code != exitUsage || !strings.Contains(c.shown(), "guard: error: a console is already attached (pid ") {
		t.Errorf("second console: status %d:\n%s", code, c.shown())
	}
}

// TestWatchAgentTerminal: on a terminal whose master the caller holds (an
// agent's pty), guard watch refuses to start.
func TestWatchAgentTerminal(t *testing.T) {
	g := newGuardEnv(t)
	screen, code := g.runAgentTTY(t, "", "watch")
	if code != exitRefused || !strings.Contains(screen, "guard: denied: watch needs a human's terminal, and this one is not (terminal held by") ||
		!strings.Contains(screen, "guard: hint: run guard watch yourself, in a terminal of your own, outside the agent, not inside tmux or screen; to vouch for this terminal's program, list its path in trusted_terminals in ") {
		t.Errorf("watch on the test's own pty: status %d:\n%s", code, screen)
	}
}

func TestWatchStaleSocket(t *testing.T) {
	g := newGuardEnv(t)
	state := filepath.Join(filepath.Dir(g.proj), "home", ".local", "state", "guard")
	os.MkdirAll(state, 0o700)
	// A socket nobody listens on, as a console killed with SIGKILL leaves.
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: filepath.Join(state, shim.ConsoleName)}); err != nil {
		t.Fatal(err)
	}
	syscall.Close(fd)
	r := waitResult(t, g.runAsync(t, "-c", "touch made-s"))
	if r.code != exitRefused || !strings.HasPrefix(r.stderr, "guard: needs approval: ") {
		t.Errorf("with a stale socket: status %d, stderr %q", r.code, r.stderr)
	}
	c := g.startWatch(t, "")
	ch := g.runAsync(t, "-c", "touch made-s")
	c.waitFor(t, asked, 1)
	c.send(t, "o\r")
	if r := waitResult(t, ch); r.code != 0 {
		t.Errorf("after replacing the stale socket: status %d, stderr %q", r.code, r.stderr)
	}
	fi, err := os.Stat(filepath.Join(state, shim.ConsoleName))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket %v, %v; want mode 0600", fi, err)
	}
	if fi, err := os.Stat(state); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state directory %v, %v; want mode 0700", fi, err)
	}
}

// TestWatchFakeListener: a listener that is not guard's own program is
// ignored, is sent nothing, and its "once" lets nothing run.
func TestWatchFakeListener(t *testing.T) {
	g := newGuardEnv(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(t.TempDir(), "agent-console")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fake, data, 0o700); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(filepath.Dir(g.proj), "home", ".local", "state", "guard")
	os.MkdirAll(state, 0o700)
	sock := filepath.Join(state, shim.ConsoleName)
	got := filepath.Join(t.TempDir(), "got")
	cmd := exec.Command(fake)
	cmd.Env = append(os.Environ(), envFakeConsole+"="+sock, "GUARD_TEST_FAKE_GOT="+got)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, err := os.Stat(got); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the fake console did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	r := waitResult(t, g.runAsync(t, "-c", "touch made-f --token=hunter2hunter2"))
	if r.code != exitRefused || !strings.Contains(r.stderr, "guard: needs approval: touch made-f") ||
		!strings.Contains(r.stderr, "is not guard watch") {
		t.Errorf("with a fake console: status %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(g.proj, "made-f")); err == nil {
		t.Error("the fake console's answer let the command run")
	}
	time.Sleep(100 * time.Millisecond)
	if b, _ := os.ReadFile(got); len(b) != 0 {
		t.Errorf("guard sent the fake console %q", b)
	}
	// guard watch does not take over a socket someone listens on.
	c := g.inTerminal(t, "", "watch")
	if code := c.exited(t); code != exitUsage || !strings.Contains(c.shown(), "already attached") {
		t.Errorf("watch beside a live listener: %d:\n%s", code, c.shown())
	}
}

// TestWatchSignalWhileWaiting: SIGTERM ends a guard that waits for the
// console at once, with a deny, and the command never runs.
func TestWatchSignalWhileWaiting(t *testing.T) {
	g := newGuardEnv(t)
	c := g.startWatch(t, "")
	cmd := exec.Command(g.bin, "-c", "touch made-sig")
	cmd.Env = g.env
	cmd.Dir = g.proj
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, asked, 1)
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitRefused || time.Since(start) > 3*time.Second {
		t.Errorf("SIGTERM while waiting: %v, status %d after %s", err, code, time.Since(start))
	}
	if !strings.Contains(stderr.String(), "guard: denied: unknown: guard was interrupted (terminated) while waiting for guard watch") {
		t.Errorf("stderr %q", stderr.String())
	}
	out, _, _ := g.run(t, "audit", "--json", "-n", "1")
	if !strings.Contains(out, `"answer":"cancelled","via":"console"`) {
		t.Errorf("not recorded as cancelled: %s", out)
	}
	// The console is told guard stopped waiting; an answer then stores nothing.
	c.send(t, "p\r")
	c.waitFor(t, "guard stopped waiting; nothing stored", 1)
	if _, err := os.Stat(filepath.Join(g.proj, "made-sig")); err == nil {
		t.Error("the command ran")
	}
}

// TestWatchListenerUnderGuard: a listener that is guard's own program but
// was started by a guarded command (an agent running it) cannot answer.
func TestWatchListenerUnderGuard(t *testing.T) {
	g := newGuardEnv(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(filepath.Dir(g.bin), "fakeconsole")
	if err := os.Symlink(exe, fake); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(filepath.Dir(g.proj), "home")
	cfg := filepath.Join(home, ".config", "guard", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	if err := os.WriteFile(cfg, []byte("[permissions.bash]\nallow = ['"+fake+"']\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(home, ".local", "state", "guard")
	os.MkdirAll(state, 0o700)
	got := filepath.Join(t.TempDir(), "got")
	cmd := exec.Command(g.bin, "-c", fake)
	cmd.Env = append(append([]string{}, g.env...), envFakeConsole+"="+filepath.Join(state, shim.ConsoleName), "GUARD_TEST_FAKE_GOT="+got)
	cmd.Dir = g.proj
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(got); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the guarded listener did not start")
		}
	}
	r := waitResult(t, g.runAsync(t, "-c", "touch made-u"))
	if r.code != exitRefused || !strings.Contains(r.stderr, "was started under guard") || !strings.Contains(r.stderr, "guard: needs approval: touch made-u") {
		t.Errorf("with a guarded listener: status %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(g.proj, "made-u")); err == nil {
		t.Error("the guarded listener's answer let the command run")
	}
}

// TestWatchNotASocket: a file that is not a socket at console.sock is
// neither removed nor taken for a console.
func TestWatchNotASocket(t *testing.T) {
	g := newGuardEnv(t)
	state := filepath.Join(filepath.Dir(g.proj), "home", ".local", "state", "guard")
	os.MkdirAll(state, 0o700)
	sock := filepath.Join(state, shim.ConsoleName)
	if err := syscall.Mkfifo(sock, 0o600); err != nil {
		t.Fatal(err)
	}
	r := waitResult(t, g.runAsync(t, "-c", "touch made-n"))
	if r.code != exitRefused || !strings.HasPrefix(r.stderr, "guard: needs approval: ") {
		t.Errorf("with a FIFO at console.sock: status %d, stderr %q", r.code, r.stderr)
	}
	c := g.inTerminal(t, "", "watch")
	if code := c.exited(t); code != exitFailure || !strings.Contains(c.shown(), "guard: error: listen on "+sock) {
		t.Errorf("watch with a FIFO at console.sock: %d:\n%s", code, c.shown())
	}
	if fi, err := os.Lstat(sock); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("watch replaced what was at console.sock: %v, %v", fi, err)
	}
}

// TestWatchQueue: requests wait their turn, and the console says how many.
func TestWatchQueue(t *testing.T) {
	g := newGuardEnv(t)
	c := g.startWatch(t, "")
	first := g.runAsync(t, "-c", "touch made-1")
	c.waitFor(t, asked, 1)
	rest := []<-chan result{g.runAsync(t, "-c", "touch made-2"), g.runAsync(t, "-c", "touch made-3")}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if out, _, _ := g.run(t, "pending"); strings.Contains(out, "made-2") && strings.Contains(out, "made-3") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the requests were never stored")
		}
	}
	time.Sleep(300 * time.Millisecond) // and offered to the console
	c.send(t, "o\r")
	if r := waitResult(t, first); r.code != 0 {
		t.Fatalf("first: %d %q", r.code, r.stderr)
	}
	c.waitFor(t, asked, 2)
	if !strings.Contains(c.shown(), " · 1 more waiting") {
		t.Errorf("the console does not count the waiting request:\n%s", c.shown())
	}
	c.send(t, "o\r")
	c.waitFor(t, asked, 3)
	c.send(t, "o\r")
	for _, ch := range rest {
		if r := waitResult(t, ch); r.code != 0 {
			t.Errorf("queued request: %d %q", r.code, r.stderr)
		}
	}
}

// TestWatchIdleCtrlC: Ctrl-C with nothing to answer detaches cleanly and
// removes the socket.
func TestWatchIdleCtrlC(t *testing.T) {
	g := newGuardEnv(t)
	c := g.startWatch(t, "")
	c.send(t, "\x03")
	if code := c.exited(t); code != 0 || !strings.Contains(c.shown(), "guard watch: detached") {
		t.Errorf("Ctrl-C while idle: status %d:\n%s", code, c.shown())
	}
	sock := filepath.Join(filepath.Dir(g.proj), "home", ".local", "state", "guard", shim.ConsoleName)
	if _, err := os.Lstat(sock); err == nil {
		t.Errorf("%s left behind", sock)
	}
}

// A pattern typed at e in guard watch is previewed against the audit
// before it is stored: one that covers a command the denylist refused is
// refused and edited again, one the denylist probe finds likewise, and the
// narrower one shows what it would have allowed.
func TestWatchEditPreview(t *testing.T) {
	g := newGuardEnv(t)
	if _, _, code := g.run(t, "-c", "touch early; sudo -n true"); code != exitRefused {
		t.Fatalf("the denylisted command was not refused: %d", code)
	}
	c := g.startWatch(t, "")
	ch := g.runAsync(t, "-c", "touch made-e")
	c.waitFor(t, asked, 1)
	c.send(t, "e\r")
	c.waitFor(t, "pattern (enter to accept", 1)
	c.send(t, "\x15touch *\r")
	c.waitFor(t, "refused: 'touch *' would cover touch early; sudo -n true, which the built-in denylist refused on ", 1)
	c.waitFor(t, "pattern (enter to accept", 2)
	c.send(t, "\x15rm -rf *\r")
	c.waitFor(t, "refused: 'rm -rf *' would cover rm -rf /, which the built-in denylist refuses (rm-root)", 1)
	c.waitFor(t, "pattern (enter to accept", 3)
	c.send(t, "\x15touch made-*\r")
	c.waitFor(t, "preview: 'touch made-*' covers no command in the audit", 1)
	c.waitFor(t, "answer, then enter: ", 1)
	c.send(t, "p\r")
	if r := waitResult(t, ch); r.code != 0 {
		t.Fatalf("touch made-e after an edited grant: %d %q", r.code, r.stderr)
	}
	out, _, _ := g.run(t, "grants", "list")
	if !regexp.MustCompile(`allow +touch made-\* +project-grants`).MatchString(out) || strings.Contains(out, "'touch *'") {
		t.Errorf("the stored grants:\n%s", out)
	}
}
