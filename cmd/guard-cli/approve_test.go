package main

import (
	"bytes"
	"errors"
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
)

// guardEnv is a guard installation in temp dirs: the test binary linked as
// "guard" (TestMain runs the CLI under that name) and HOME/XDG under a temp dir.
type guardEnv struct {
	bin  string
	env  []string
	proj string
}

func newGuardEnv(t *testing.T) *guardEnv {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin", "guard")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{home, filepath.Join(proj, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return &guardEnv{
		bin:  bin,
		proj: proj,
		env: []string{
			"PATH=" + os.Getenv("PATH"),
			"HOME=" + home,
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
			"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
			"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
			"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
			"GUARD_MANAGED_POLICY=" + filepath.Join(dir, "policy.toml"),
			"GUARD_NO_PROMPT=1",
		},
	}
}

// run runs guard without a terminal (new session, stdin /dev/null) in the project.
func (g *guardEnv) run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(g.bin, args...)
	cmd.Env = g.env
	cmd.Dir = g.proj
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// runTTY runs guard on a fresh pseudo-terminal (its controlling terminal and
// stdin), answers the confirmation with answer (or, when answer is "", expects
// none), and returns what the terminal showed and the exit status.

// runTTY runs guard ARGS on a terminal a trusted terminal program holds (a
// human's, by guard's rule: see termHost), answers the confirmation with
// answer (or, when answer is "", expects none), and returns what the terminal
// showed and the exit status.
func (g *guardEnv) runTTY(t *testing.T, answer string, args ...string) (screen string, code int) {
	t.Helper()
	c := g.inTerminal(t, "", args...)
	if answer != "" {
		c.waitFor(t, "confirm? [y/N]", 1)
		c.send(t, answer+"\r")
	}
	code = c.exited(t)
	return c.shown(), code
}

// runAgentTTY runs guard ARGS on a pty the test itself holds, as an agent
// that drives its own terminal would, typing answer when it is asked.
func (g *guardEnv) runAgentTTY(t *testing.T, answer string, args ...string) (screen string, code int) {
	t.Helper()
	cmd := exec.Command(g.bin, args...)
	cmd.Env = g.env
	cmd.Dir = g.proj
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	var mu sync.Mutex
	var out bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// The agent types its answer at once and again, whatever is shown.
	for i := 0; i < 5; i++ {
		ptmx.Write([]byte(answer + "\r"))
		time.Sleep(50 * time.Millisecond)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // let the reader drain the terminal
	mu.Lock()
	defer mu.Unlock()
	return out.String(), code
}

// pendingID asks the agent's command (refused for want of a terminal) and
// returns the id guard pending shows for it.
func (g *guardEnv) pendingID(t *testing.T, command string) string {
	t.Helper()
	_, stderr, code := g.run(t, "-c", command)
	if code != exitRefused || !strings.HasPrefix(stderr, "guard: needs approval: ") {
		t.Fatalf("guard -c %q: status %d, stderr %q; want 126 and needs approval", command, code, stderr)
	}
	stdout, stderr, code := g.run(t, "pending")
	if code != 0 {
		t.Fatalf("guard pending: status %d: %s", code, stderr)
	}
	for _, line := range strings.Split(stdout, "\n") {
		if strings.Contains(line, command) {
			return strings.Fields(line)[0]
		}
	}
	t.Fatalf("guard pending does not list %q:\n%s", command, stdout)
	return ""
}

func (g *guardEnv) decision(t *testing.T, command string) string {
	t.Helper()
	stdout, stderr, code := g.run(t, "check", "--", command)
	if code != 0 {
		t.Fatalf("guard check %q: status %d: %s", command, code, stderr)
	}
	return strings.Fields(stdout)[0]
}

func TestApproveProjectStoresPattern(t *testing.T) {
	g := newGuardEnv(t)
	id := g.pendingID(t, "npm run lint")
	screen, code := g.runTTY(t, "y", "approve", id, "--project")
	if code != 0 {
		t.Fatalf("approve: status %d; terminal:\n%s", code, screen)
	}
	if !strings.Contains(screen, "npm run lint") || !strings.Contains(screen, "npm run *") {
		t.Errorf("the terminal did not show the request and the pattern:\n%s", screen)
	}
	if d := g.decision(t, "npm run fmt"); d != "allow" {
		t.Errorf("after approve --project: npm run fmt is %s, want allow", d)
	}
	stdout, _, _ := g.run(t, "grants", "list")
	if !strings.Contains(stdout, "project-grants") {
		t.Errorf("the pattern is not in the project grants:\n%s", stdout)
	}
	if stdout, _, _ := g.run(t, "pending"); strings.Contains(stdout, "npm run lint") {
		t.Errorf("the approved request is still pending:\n%s", stdout)
	}
	if stdout, _, _ := g.run(t, "audit", "--json"); !strings.Contains(stdout, `"command":"guard approve `+id+` --project","hmac":"`) ||
		!strings.Contains(stdout, `"rule":"approved-project","answer":"project","via":"approve","mode":"cli"`) {
		t.Errorf("the approval is not in the audit trail:\n%s", stdout)
	}
}

func TestApproveAnswerNoStoresNothing(t *testing.T) {
	g := newGuardEnv(t)
	id := g.pendingID(t, "npm run lint")
	screen, code := g.runTTY(t, "n", "approve", id, "--global")
	if code != exitRefused {
		t.Fatalf("approve answered n: status %d, want %d; terminal:\n%s", code, exitRefused, screen)
	}
	if d := g.decision(t, "npm run lint"); d != "ask" {
		t.Errorf("after a cancelled approve: %s, want ask", d)
	}
	if stdout, _, _ := g.run(t, "pending"); !strings.Contains(stdout, "npm run lint") {
		t.Errorf("the cancelled request is no longer pending:\n%s", stdout)
	}
}

func TestApproveOnceRunsOnce(t *testing.T) {
	g := newGuardEnv(t)
	const cmd = "touch approved-once"
	id := g.pendingID(t, cmd)
	if screen, code := g.runTTY(t, "y", "approve", id); code != 0 {
		t.Fatalf("approve --once: status %d; terminal:\n%s", code, screen)
	}
	if _, stderr, code := g.run(t, "-c", cmd); code != 0 {
		t.Fatalf("first run after approve --once: status %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(g.proj, "approved-once")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}
	if _, _, code := g.run(t, "-c", cmd); code != exitRefused {
		t.Errorf("second run after approve --once: status %d, want %d", code, exitRefused)
	}
}

func TestReject(t *testing.T) {
	g := newGuardEnv(t)
	id := g.pendingID(t, "npm run lint")
	if screen, code := g.runTTY(t, "y", "reject", id); code != 0 {
		t.Fatalf("reject: status %d; terminal:\n%s", code, screen)
	}
	if stdout, _, _ := g.run(t, "pending"); strings.Contains(stdout, "npm run lint") {
		t.Errorf("the rejected request is still pending:\n%s", stdout)
	}
	if d := g.decision(t, "npm run lint"); d != "ask" {
		t.Errorf("after reject: %s, want ask", d)
	}
	if stdout, _, _ := g.run(t, "audit", "--json", "--decision", "deny"); !strings.Contains(stdout, `"answer":"deny","via":"approve","mode":"cli"`) {
		t.Errorf("the rejection is not in the audit trail:\n%s", stdout)
	}
	// The agent's retry learns the answer instead of making a new request.
	_, stderr, code := g.run(t, "-c", "npm run lint")
	if code != exitRefused || !regexp.MustCompile(`^guard: denied: rejected by the human at \d\d:\d\d; do not retry\n$`).MatchString(stderr) {
		t.Errorf("retry after reject: status %d, stderr %q", code, stderr)
	}
	if stdout, _, _ := g.run(t, "audit", "--json", "-n", "1"); !strings.Contains(stdout, `"decision":"deny","rule":"unknown","answer":"rejected"`) {
		t.Errorf("the refused retry is not recorded as rejected:\n%s", stdout)
	}
	// Another text is still asked about.
	if _, stderr, _ := g.run(t, "-c", "npm run fmt"); !strings.HasPrefix(stderr, "guard: needs approval: ") {
		t.Errorf("another text after reject: %q", stderr)
	}
}

func TestApproveRefusedWithoutTerminal(t *testing.T) {
	g := newGuardEnv(t)
	id := g.pendingID(t, "npm run lint")
	stdout, stderr, code := g.run(t, "approve", id, "--global")
	if code != exitRefused {
		t.Errorf("status %d, want %d", code, exitRefused)
	}
	if stdout != "" || !strings.HasPrefix(stderr, "guard: denied: approve needs a human at a terminal\n") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	if d := g.decision(t, "npm run lint"); d != "ask" {
		t.Errorf("after a refused approve: %s, want ask", d)
	}
}

func TestApproveUnknownOrResolved(t *testing.T) {
	g := newGuardEnv(t)
	screen, code := g.runTTY(t, "", "approve", "ffffff")
	if code != exitUsage || !strings.Contains(screen, "guard: error: request ffffff") {
		t.Errorf("approve of an unknown id: status %d; terminal:\n%s", code, screen)
	}
	id := g.pendingID(t, "npm run lint")
	if screen, code := g.runTTY(t, "y", "reject", id); code != 0 {
		t.Fatalf("reject: status %d; terminal:\n%s", code, screen)
	}
	screen, code = g.runTTY(t, "", "approve", id, "--global")
	if code != exitUsage || !strings.Contains(screen, "is already rejected") {
		t.Errorf("approve of a rejected request: status %d; terminal:\n%s", code, screen)
	}
	if d := g.decision(t, "npm run lint"); d != "ask" {
		t.Errorf("after approving a rejected request: %s, want ask", d)
	}
}

func TestApproveRefusedOnAgentTerminal(t *testing.T) {
	// An agent that runs guard approve on a pty it drives, outside any
	// guard shell, and types y: refused, and the request stays pending.
	g := newGuardEnv(t)
	id := g.pendingID(t, "make build")
	screen, code := g.runAgentTTY(t, "y", "approve", id, "--project")
	if code != 126 || !strings.Contains(screen, "needs a human's terminal, and this one is not (terminal held by") {
		t.Errorf("exit %d, terminal:\n%s", code, screen)
	}
	if strings.Contains(screen, "confirm?") {
		t.Errorf("the agent's terminal was asked to confirm:\n%s", screen)
	}
	out, _, _ := g.run(t, "pending")
	if !strings.Contains(out, id) {
		t.Errorf("request %s no longer pending:\n%s", id, out)
	}
	if _, _, code := g.run(t, "-c", "make build"); code != 126 {
		t.Errorf("make build ran (exit %d) after an agent's approve", code)
	}
}
