package shim

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/grants"
)

// testRun is one in-process guard run on the test engine.
type testRun struct {
	t      *testing.T
	te     *testEngine
	env    Env
	vars   map[string]string
	dir    string // the run's cwd
	stdout string // paths of the captured streams
	stderr string
}

func newTestRun(t *testing.T, verdict string) *testRun {
	t.Helper()
	base := t.TempDir()
	state := filepath.Join(base, "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	cwd := filepath.Join(base, "project")
	if err := os.Mkdir(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	v, ok := testVerdicts[verdict]
	if !ok {
		t.Fatalf("no verdict %q", verdict)
	}
	r := &testRun{
		t: t, te: &testEngine{verdict: v, dir: state, askTimeout: 10 * time.Second}, dir: cwd,
		vars:   map[string]string{"PATH": os.Getenv("PATH"), "HOME": base},
		stdout: filepath.Join(base, "stdout"), stderr: filepath.Join(base, "stderr"),
	}
	self, _ := os.Executable()
	r.env = Env{Cwd: cwd, Now: time.Now, Self: self, Getenv: func(k string) string { return r.vars[k] }}
	return r
}

// run runs guard with args (argv[0] "guard" unless given) and returns the exit status.
func (r *testRun) run(args ...string) int {
	r.t.Helper()
	return r.do(func(a *app) int {
		a.env.Args = append([]string{"guard"}, args...)
		return a.shell()
	})
}

func (r *testRun) do(f func(*app) int) int {
	r.t.Helper()
	out, err := os.Create(r.stdout)
	if err != nil {
		r.t.Fatal(err)
	}
	defer out.Close()
	errf, err := os.Create(r.stderr)
	if err != nil {
		r.t.Fatal(err)
	}
	defer errf.Close()
	env := r.env
	if env.Stdin == nil {
		in, err := os.Open(os.DevNull)
		if err != nil {
			r.t.Fatal(err)
		}
		defer in.Close()
		env.Stdin = in
	}
	env.Stdout, env.Stderr = out, errf
	for k, v := range r.vars {
		env.Environ = append(env.Environ, k+"="+v)
	}
	a := &app{env: env, eng: r.te.engine()}
	return f(a)
}

func (r *testRun) out() string { b, _ := os.ReadFile(r.stdout); return string(b) }
func (r *testRun) errOut() string {
	b, _ := os.ReadFile(r.stderr)
	return string(b)
}
func (r *testRun) audit() []auditEntry { return readAudit(r.t, r.te.dir) }

func TestMainAllowRunsAndRecords(t *testing.T) {
	r := newTestRun(t, "allow")
	if got := r.run("-c", "echo hi; echo $0 $1; exit 3", "zero", "one"); got != 3 {
		t.Fatalf("exit %d, stderr %q", got, r.errOut())
	}
	if r.out() != "hi\nzero one\n" || r.errOut() != "" {
		t.Errorf("stdout %q stderr %q", r.out(), r.errOut())
	}
	recs := r.audit()
	if len(recs) != 1 {
		t.Fatalf("records: %+v", recs)
	}
	e := recs[0]
	if e.Decision != "allow" || e.Rule != "test-allow" || e.Answer != "rule" || e.Mode != "shell" || e.Exit != 3 ||
		e.Cwd != r.dir || e.HMAC != testSum("echo hi; echo $0 $1; exit 3") {
		t.Errorf("record %+v", e)
	}
}

func TestMainFlagOrders(t *testing.T) {
	r := newTestRun(t, "allow")
	for _, args := range [][]string{
		{"-c", "echo ok"}, {"-lc", "echo ok"}, {"-l", "-c", "echo ok"}, {"-c", "-l", "echo ok"},
		{"--login", "-c", "echo ok"}, {"-ec", "echo ok"}, {"-o", "pipefail", "-c", "echo ok"},
		{"--norc", "--noprofile", "-c", "echo ok"},
	} {
		if got := r.run(args...); got != 0 || r.out() != "ok\n" {
			t.Errorf("%q: exit %d stdout %q stderr %q", args, got, r.out(), r.errOut())
		}
	}
	// -x goes to the real shell unchanged: its trace is on stderr.
	if got := r.run("-xc", "echo ok"); got != 0 || !strings.Contains(r.errOut(), "+ echo ok") {
		t.Errorf("-xc: exit %d stderr %q", got, r.errOut())
	}
	// -e too: the first failure ends the script.
	if got := r.run("-ec", "false; echo no"); got != 1 || r.out() != "" {
		t.Errorf("-ec: exit %d stdout %q", got, r.out())
	}
	// -o pipefail too.
	if got := r.run("-o", "pipefail", "-c", "false | true"); got != 1 {
		t.Errorf("pipefail: exit %d", got)
	}
}

func TestMainEmptyCommand(t *testing.T) {
	r := newTestRun(t, "deny")
	if got := r.run("-c", ""); got != 0 || r.errOut() != "" {
		t.Errorf("exit %d stderr %q", got, r.errOut())
	}
	if len(r.audit()) != 0 {
		t.Errorf("an empty command was recorded")
	}
}

func TestMainUsageError(t *testing.T) {
	r := newTestRun(t, "allow")
	if got := r.run("-c"); got != ExitUsage || r.errOut() != "guard: error: -c: option requires an argument\n" {
		t.Errorf("exit %d stderr %q", got, r.errOut())
	}
}

func TestMainDeny(t *testing.T) {
	r := newTestRun(t, "deny")
	if got := r.run("-c", "sudo -n true"); got != ExitRefused {
		t.Fatalf("exit %d", got)
	}
	if r.out() != "" || r.errOut() != "guard: denied: test-deny: denied by the test\n" {
		t.Errorf("stdout %q stderr %q", r.out(), r.errOut())
	}
	if recs := r.audit(); len(recs) != 1 || recs[0].Decision != "deny" || recs[0].Exit != ExitRefused {
		t.Errorf("records %+v", recs)
	}
}

func TestMainDenyWithoutStateDir(t *testing.T) {
	r := newTestRun(t, "deny")
	r.te.dir = ""
	if got := r.run("-c", "sudo -n true"); got != ExitRefused {
		t.Fatalf("exit %d", got)
	}
	want := "guard: denied: test-deny: denied by the test\nguard: warning: audit not written: state directory is read-only\n"
	if r.errOut() != want {
		t.Errorf("stderr %q", r.errOut())
	}
	r.te.verdict = testVerdicts["allow"]
	if got := r.run("-c", "echo ran"); got != 0 || r.out() != "ran\n" {
		t.Errorf("allow without a state dir: exit %d stdout %q", got, r.out())
	}
	if n := strings.Count(r.errOut(), "warning"); n != 1 {
		t.Errorf("warned %d times: %q", n, r.errOut())
	}
}

func TestMainNeedsApproval(t *testing.T) {
	r := newTestRun(t, "ask")
	if got := r.run("-c", "npm install left-pad --token=s3cr3t"); got != ExitRefused {
		t.Fatalf("exit %d", got)
	}
	want := "guard: needs approval: npm install left-pad --token=[REDACTED:test] (no grant covers it); " +
		"to allow it here: guard grants add --project 'npm install *'  (or: guard approve 7)\n"
	if r.errOut() != want || r.out() != "" {
		t.Errorf("stdout %q stderr\n%q\nwant\n%q", r.out(), r.errOut(), want)
	}
	b, _ := os.ReadFile(filepath.Join(r.te.dir, "pending.jsonl"))
	if !strings.Contains(string(b), `"Suggest":"npm install *"`) || strings.Contains(string(b), "s3cr3t") {
		t.Errorf("pending: %s", b)
	}
	recs := r.audit()
	if len(recs) != 1 || recs[0].Decision != "ask" || recs[0].Answer != "pending" || strings.Contains(recs[0].Command, "s3cr3t") {
		t.Errorf("records %+v", recs)
	}
}

func TestMainNeedsApprovalComposite(t *testing.T) {
	r := newTestRun(t, "composite")
	r.run("-c", "ls | wc -l")
	want := "guard: needs approval: ls | wc -l (composite command); to allow it here: guard approve 7 --once\n"
	if r.errOut() != want {
		t.Errorf("stderr %q", r.errOut())
	}
}

func TestMainApprovedOnce(t *testing.T) {
	r := newTestRun(t, "ask")
	text := "echo approved"
	if err := appendLine(filepath.Join(r.te.dir, "once"), testSum(text)+" "+r.dir); err != nil {
		t.Fatal(err)
	}
	if got := r.run("-c", text); got != 0 || r.out() != "approved\n" {
		t.Fatalf("exit %d stdout %q stderr %q", got, r.out(), r.errOut())
	}
	if got := r.run("-c", text); got != ExitRefused {
		t.Errorf("second run: exit %d, the approval was for once", got)
	}
	recs := r.audit()
	if len(recs) != 2 || recs[0].Answer != "once" || recs[0].Via != "approve" || recs[1].Answer != "pending" || recs[1].Decision != "ask" {
		t.Errorf("records %+v", recs)
	}
}

func TestMainNoPromptEnv(t *testing.T) {
	r := newTestRun(t, "ask")
	p := newPty(t)
	r.te.tty = p.tty
	r.vars["GUARD_NO_PROMPT"] = "1"
	if got := r.run("-c", "npm install x"); got != ExitRefused || !strings.HasPrefix(r.errOut(), "guard: needs approval: ") {
		t.Errorf("exit %d stderr %q", got, r.errOut())
	}
	if strings.Contains(p.shown(), "answer") {
		t.Errorf("prompted although GUARD_NO_PROMPT=1")
	}
}

// askOnPty runs an ask verdict with a pty as the terminal and types keys.
func askOnPty(t *testing.T, verdict string, keys ...string) (*testRun, int, string) {
	t.Helper()
	r := newTestRun(t, verdict)
	p := newPty(t)
	r.te.tty = p.tty
	r.te.askTimeout = 10 * time.Second
	if len(keys) == 0 {
		r.te.askTimeout = time.Second
	}
	done := make(chan int, 1)
	go func() { done <- r.run("-c", "echo ran") }()
	if len(keys) > 0 {
		p.waitCue(t)
		p.typeKeys(t, keys)
	}
	select {
	case code := <-done:
		return r, code, p.shown()
	case <-time.After(15 * time.Second):
		t.Fatalf("guard did not finish; terminal:\n%s", p.shown())
	}
	return nil, 0, ""
}

func grantFiles(r *testRun) map[string]string {
	out := map[string]string{}
	for _, a := range []Answer{AnswerProject, AnswerGlobal} {
		if b, err := os.ReadFile(filepath.Join(r.te.dir, "grants-"+a.String())); err == nil {
			out[a.String()] = string(b)
		}
	}
	return out
}

func TestMainPromptAnswers(t *testing.T) {
	for _, tc := range []struct {
		keys           []string
		exit           int
		grants         map[string]string
		stderr         string
		answer, decide string // as recorded
	}{
		{[]string{"o\r"}, 0, map[string]string{}, "", "once", "ask"},
		{[]string{"p\r"}, 0, map[string]string{"project": "npm install *\n"}, "", "project", "ask"},
		{[]string{"g\r", "<cue>", "y\r"}, 0, map[string]string{"global": "npm install *\n"}, "", "global", "ask"},
		{[]string{"d\r"}, ExitRefused, map[string]string{}, "guard: denied: unknown: denied at the terminal\n", "deny", "deny"},
		{[]string{"\x03"}, ExitRefused, map[string]string{}, "guard: denied: unknown: the prompt was cancelled\n", "cancelled", "deny"},
		{[]string{"e\r", "<cue>", "\x15", "echo *\r", "<cue>", "p\r"}, 0, map[string]string{"project": "echo *\n"}, "", "edited", "ask"},
		{nil, ExitRefused, map[string]string{}, "guard: denied: unknown: no answer within 1s\n", "timeout", "deny"},
	} {
		r, code, shown := askOnPty(t, "ask", tc.keys...)
		if code != tc.exit || r.errOut() != tc.stderr {
			t.Errorf("keys %q: exit %d stderr %q", tc.keys, code, r.errOut())
		}
		if want := map[bool]string{true: "ran\n", false: ""}[tc.exit == 0]; r.out() != want {
			t.Errorf("keys %q: stdout %q", tc.keys, r.out())
		}
		if g := grantFiles(r); len(g) != len(tc.grants) || g["project"] != tc.grants["project"] || g["global"] != tc.grants["global"] {
			t.Errorf("keys %q: grants %q, want %q", tc.keys, g, tc.grants)
		}
		if !strings.Contains(shown, "echo ran") || !strings.Contains(shown, "no grant covers it") {
			t.Errorf("keys %q: terminal showed %q", tc.keys, shown)
		}
		if recs := r.audit(); len(recs) != 1 || recs[0].Answer != tc.answer || recs[0].Via != "terminal" || recs[0].Decision != tc.decide {
			t.Errorf("keys %q: records %+v", tc.keys, recs)
		}
	}
}

func TestMainPromptComposite(t *testing.T) {
	r, code, shown := askOnPty(t, "composite", "p\r", "<cue>", "g\r", "<cue>", "o\r")
	if code != 0 || len(grantFiles(r)) != 0 {
		t.Errorf("exit %d grants %v", code, grantFiles(r))
	}
	if strings.Contains(shown, "[p]") {
		t.Errorf("composite offered more than once/deny: %q", shown)
	}
}

func TestMainTimeout(t *testing.T) {
	r := newTestRun(t, "allow")
	r.vars["GUARD_TIMEOUT"] = "1s"
	pids := filepath.Join(r.dir, "pids")
	if got := r.run("-c", "sleep 30 & echo $! > pids; sleep 31"); got != ExitTimeout {
		t.Fatalf("exit %d stderr %q", got, r.errOut())
	}
	if r.errOut() != "guard: timed out after 1s\n" {
		t.Errorf("stderr %q", r.errOut())
	}
	for _, pid := range readPids(t, pids) {
		if alive(pid) {
			t.Errorf("pid %d survived", pid)
		}
	}
	if recs := r.audit(); len(recs) != 1 || recs[0].Exit != ExitTimeout {
		t.Errorf("records %+v", recs)
	}
	r.vars["GUARD_TIMEOUT"] = "soon"
	if got := r.run("-c", "true"); got != ExitFailure || !strings.Contains(r.errOut(), "GUARD_TIMEOUT") {
		t.Errorf("bad GUARD_TIMEOUT: exit %d stderr %q", got, r.errOut())
	}
}

func TestMainStdinScript(t *testing.T) {
	r := newTestRun(t, "allow")
	script := "echo one\necho two $1\nexit 4\n"
	in := filepath.Join(r.dir, "script")
	os.WriteFile(in, []byte(script), 0o600)
	f, _ := os.Open(in)
	defer f.Close()
	r.env.Stdin = f
	if got := r.run("-s", "arg"); got != 4 || r.out() != "one\ntwo arg\n" {
		t.Fatalf("exit %d stdout %q stderr %q", got, r.out(), r.errOut())
	}
	if len(r.te.judged) != 1 || r.te.judged[0] != script {
		t.Errorf("judged %q", r.te.judged)
	}
	if recs := r.audit(); len(recs) != 1 || recs[0].Mode != "stdin" {
		t.Errorf("records %+v", recs)
	}
}

func TestMainStdinTooLong(t *testing.T) {
	r := newTestRun(t, "allow")
	in := filepath.Join(r.dir, "script")
	os.WriteFile(in, []byte(strings.Repeat("#", maxStdinScript+1)), 0o600)
	f, _ := os.Open(in)
	defer f.Close()
	r.env.Stdin = f
	if got := r.run(); got != ExitRefused || !strings.HasPrefix(r.errOut(), "guard: denied: too-long: ") {
		t.Errorf("exit %d stderr %q", got, r.errOut())
	}
}

func TestMainScriptOperand(t *testing.T) {
	r := newTestRun(t, "allow")
	os.WriteFile(filepath.Join(r.dir, "s.sh"), []byte("echo script $1\n"), 0o600)
	if got := r.run("s.sh", "a b"); got != 0 || r.out() != "script a b\n" {
		t.Errorf("exit %d stdout %q stderr %q", got, r.out(), r.errOut())
	}
	if len(r.te.judged) != 1 || r.te.judged[0] != "bash s.sh 'a b'" {
		t.Errorf("judged %q", r.te.judged)
	}
}

func TestExecMode(t *testing.T) {
	r := newTestRun(t, "allow")
	code := r.do(func(a *app) int { return a.exec([]string{"sh", "-c", "echo $GUARD_ACTIVE; exit 5"}, 0, "") })
	if code != 5 || r.out() != "1\n" {
		t.Errorf("exit %d stdout %q stderr %q", code, r.out(), r.errOut())
	}
	recs := r.audit()
	if len(recs) != 1 || recs[0].Mode != "exec" || recs[0].Command != `sh -c 'echo $GUARD_ACTIVE; exit 5'` {
		t.Errorf("records %+v", recs)
	}
	code = r.do(func(a *app) int { return a.exec([]string{"no-such-program-xyz"}, 0, "") })
	if code != ExitNoProg || !strings.Contains(r.errOut(), "no-such-program-xyz: command not found") {
		t.Errorf("exit %d stderr %q", code, r.errOut())
	}
	code = r.do(func(a *app) int { return a.exec([]string{"sleep", "30"}, time.Second, "") })
	if code != ExitTimeout || r.errOut() != "guard: timed out after 1s\n" {
		t.Errorf("exec timeout: exit %d stderr %q", code, r.errOut())
	}
	other := t.TempDir()
	code = r.do(func(a *app) int { return a.exec([]string{"pwd"}, 0, other) })
	if code != 0 || r.out() != other+"\n" {
		t.Errorf("exec --cwd: exit %d stdout %q", code, r.out())
	}
	r.te.verdict = testVerdicts["deny"]
	code = r.do(func(a *app) int { return a.exec([]string{"sudo", "-n", "true"}, 0, "") })
	if code != ExitRefused || r.errOut() != "guard: denied: test-deny: denied by the test\n" {
		t.Errorf("exec deny: exit %d stderr %q", code, r.errOut())
	}
}

func TestChildEnv(t *testing.T) {
	got := childEnv([]string{"A=1", "GUARD_DEPTH=3", "GUARD_ACTIVE=0"}, 3, true)
	want := "A=1 GUARD_DEPTH=4 GUARD_ACTIVE=1"
	if strings.Join(got, " ") != want {
		t.Errorf("childEnv = %q", got)
	}
}

var _ = grants.Allow

// TestAgentName: GUARD_AGENT names the agent; without it, the parent
// process's name from /proc does, read once per run.
func TestAgentName(t *testing.T) {
	a := &app{env: Env{Getenv: func(k string) string { return map[string]string{"GUARD_AGENT": "claude"}[k] }}}
	if got := a.agent(); got != "claude" {
		t.Errorf("GUARD_AGENT: got %q", got)
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(os.Getppid()) + "/comm")
	if err != nil {
		t.Skip("no /proc")
	}
	a = &app{env: Env{Getenv: func(string) string { return "" }}}
	if got, want := a.agent(), strings.TrimSpace(string(b)); got != want || got == "" {
		t.Errorf("parent: got %q, want %q", got, want)
	}
}

// TestAuditRequiredLostAfterRun: with audit_required, a record that does
// not land after the command ran (here the command itself put a directory
// where the journal goes) is said as an error, not only a warning (issue 22).
func TestAuditRequiredLostAfterRun(t *testing.T) {
	r := newTestRun(t, "allow")
	code := r.do(func(a *app) int {
		a.eng.settings = func(string) *grants.Settings { return &grants.Settings{AuditRequired: true} }
		a.env.Args = []string{"guard", "-c", "mkdir " + filepath.Join(r.te.dir, "audit.jsonl")}
		return a.shell()
	})
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, r.errOut())
	}
	if want := "guard: error: audit_required is set and the audit record of this command was not written (it ran, exit 0): "; !strings.HasPrefix(r.errOut(), want) {
		t.Errorf("stderr %q, want a line starting %q", r.errOut(), want)
	}
	if n := strings.Count(r.errOut(), "\n"); n != 1 {
		t.Errorf("%d lines on stderr, want one: %q", n, r.errOut())
	}
}
