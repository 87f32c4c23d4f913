package shim

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/internal/testproc"
)

// The test binary doubles as guard: with SHIM_TEST_AS_GUARD set it runs one
// guard process on a test engine (verdict from SHIM_TEST_VERDICT, journal in
// SHIM_TEST_JOURNAL). Links named bash or sh may point at it.
func TestMain(m *testing.M) {
	switch {
	case os.Getenv("SHIM_TEST_AS_TERMINAL") != "":
		os.Exit(testTerminalMain())
	case os.Getenv("SHIM_TEST_AS_AGENT") != "":
		os.Exit(testAgentMain())
	case os.Getenv("SHIM_TEST_AS_GUARD") != "":
		os.Exit(testGuardMain())
	}
	os.Exit(runTests(m))
}

// runTests runs the package's tests with HOME, every XDG directory and the
// managed policy in a temporary directory, for every test and every guard
// and shell they start: no test may read or write the real home (a shell's
// history, guard's grants, config or audit).
func runTests(m *testing.M) int {
	// every t.TempDir and the home under one directory, for the check
	// for strays
	tmp, err := testproc.Setup("gs")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	home, err := os.MkdirTemp("", "shim-test-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for k, v := range map[string]string{
		"HOME":                 home,
		"XDG_CONFIG_HOME":      filepath.Join(home, ".config"),
		"XDG_STATE_HOME":       filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME":       filepath.Join(home, ".cache"),
		"XDG_DATA_HOME":        filepath.Join(home, ".local", "share"),
		"GUARD_MANAGED_POLICY": filepath.Join(home, "etc", "guard", "policy.toml"),
		"HISTFILE":             filepath.Join(home, ".bash_history"),
	} {
		os.Setenv(k, v)
	}
	code := m.Run()
	// A process that still runs in the tests' directories outlived its
	// test: the run fails, naming it.
	if testproc.Check(os.Stderr, tmp) && code == 0 {
		code = 1
	}
	return code
}

func testGuardMain() int {
	cwd, _ := os.Getwd()
	self, _ := os.Executable()
	env := Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Args: os.Args,
		Getenv: os.Getenv, Environ: os.Environ(), Cwd: cwd, Now: time.Now, Self: self,
	}
	a := newApp(env)
	if v := os.Getenv("SHIM_TEST_VERDICT"); v != "real" { // real: classify and grants, config under HOME
		te := &testEngine{verdict: testVerdicts[v], dir: os.Getenv("SHIM_TEST_JOURNAL"), byText: v == "bytext"}
		a.eng = te.engine()
	}
	if os.Getenv("SHIM_TEST_REAL_TTY") == "1" {
		// the terminal and its judge as in production, settings from the
		// config files under XDG_CONFIG_HOME (trusted_terminals, ask_timeout)
		paths := grants.PathsFromEnv(os.Getenv)
		a.eng.openTTY = openControllingTTY
		a.eng.trustTTY = TrustTerminal
		a.eng.settings = func(cwd string) *grants.Settings { return grants.Load(paths, cwd) }
	}
	if len(os.Args) > 1 && os.Args[1] == "exec" {
		return a.exec(os.Args[2:], 0, "")
	}
	return a.shell()
}

var testVerdicts = map[string]grants.Verdict{
	"allow": {Decision: grants.Allow, Rule: "test-allow", Reason: "allowed by the test", Risk: grants.RiskLow},
	"deny":  {Decision: grants.Deny, Rule: "test-deny", Reason: "denied by the test", Risk: grants.RiskHigh},
	"ask": {Decision: grants.Ask, Rule: "unknown", Reason: "no grant covers it", Risk: grants.RiskHigh,
		Suggest: "npm install *"},
	"composite": {Decision: grants.Ask, Rule: "composite", Reason: "composite command", Risk: grants.RiskHigh, OnceOnly: true},
}

// testEngine decides with a fixed verdict and keeps its journal in files:
// audit.jsonl, pending.jsonl, once (lines "sha cwd"), grants-<file>.
type testEngine struct {
	verdict    grants.Verdict
	dir        string // "" : no journal (as if the state dir were unusable)
	tty        *os.File
	askTimeout time.Duration
	// trust judges te.tty; nil: a human's (the tests of the prompt itself)
	trust  func(tty *os.File, trusted []string) TTYTrust
	mu     sync.Mutex
	judged []string
	// byText: deny a text holding sudo or mkfs, allow the rest.
	byText bool
}

func (te *testEngine) engine() engine {
	return engine{
		analyze: func(text string, o classify.Options) *classify.Analysis {
			te.mu.Lock()
			te.judged = append(te.judged, text)
			te.mu.Unlock()
			return &classify.Analysis{Text: text}
		},
		analyzeArgv: func(argv []string, o classify.Options) *classify.Analysis {
			return &classify.Analysis{Text: quoteArgv(argv)}
		},
		settings: func(string) *grants.Settings { return &grants.Settings{AskTimeout: te.askTimeout} },
		decide: func(an *classify.Analysis, _ *grants.Settings) grants.Verdict {
			if te.byText {
				if strings.Contains(an.Text, "sudo") || strings.Contains(an.Text, "mkfs") {
					return testVerdicts["deny"]
				}
				return testVerdicts["allow"]
			}
			return te.verdict
		},
		protected:   func() []string { return nil },
		projectRoot: func(cwd string) string { return cwd },
		grantFile: func(a Answer, cwd string) string {
			return filepath.Join(te.dir, "grants-"+a.String())
		},
		addRule: func(file, pattern string, until time.Time) error {
			if !until.IsZero() {
				pattern += " until " + until.UTC().Format(time.RFC3339)
			}
			return appendLine(file, pattern)
		},
		journal: func() (journal, error) {
			if te.dir == "" {
				return nil, errors.New("state directory is read-only")
			}
			return &fileJournal{dir: te.dir}, nil
		},
		redact: func(s string) string { return strings.ReplaceAll(s, "s3cr3t", "[REDACTED:test]") },
		openTTY: func() (*os.File, error) {
			if te.tty == nil {
				return nil, errors.New("no terminal")
			}
			fd, err := unix.Dup(int(te.tty.Fd()))
			if err != nil {
				return nil, err
			}
			return os.NewFile(uintptr(fd), "tty"), nil
		},
		trustTTY: func(tty *os.File, trusted []string) TTYTrust {
			if te.trust == nil {
				return TTYTrust{Human: true, Why: "the test says so"}
			}
			return te.trust(tty, trusted)
		},
		// Tests run many guards in one process: undo each Notify, and
		// leave the other tests' children alone.
		listen: func(c chan<- os.Signal) {
			signal.Notify(c, forwarded...)
			if p := os.Getenv("SHIM_TEST_LISTENING"); p != "" {
				os.WriteFile(p, nil, 0o600) // startGuard waits for it
			}
		},
		unlisten: signal.Stop,
		children: directChildren,
	}
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(line + "\n")
	return err
}

type fileJournal struct{ dir string }

func (f *fileJournal) Append(e auditEntry) error {
	b, _ := json.Marshal(e)
	return appendLine(filepath.Join(f.dir, "audit.jsonl"), string(b))
}

func (f *fileJournal) AddPending(p pendingRequest) (string, error) {
	b, _ := json.Marshal(p)
	return "7", appendLine(filepath.Join(f.dir, "pending.jsonl"), string(b))
}

func (f *fileJournal) Close() error { return nil }

// testSum stands in for the keyed hash in the test journal.
func testSum(text string) string {
	s := sha256.Sum256([]byte(text))
	return hex.EncodeToString(s[:])
}

func (f *fileJournal) Sum(text string) (string, error) { return testSum(text), nil }

func (f *fileJournal) Rejected(sum, root string, now time.Time, window time.Duration) (time.Time, string, bool, error) {
	return time.Time{}, "", false, nil
}

func (f *fileJournal) TakeOnce(sha, cwd string, now time.Time) (bool, error) {
	path := filepath.Join(f.dir, "once")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	want := sha + " " + cwd
	var keep []string
	found := false
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l == want && !found {
			found = true
			continue
		}
		keep = append(keep, l)
	}
	return found, os.WriteFile(path, []byte(strings.Join(keep, "\n")), 0o600)
}

// readAudit reads the test journal's records.
func readAudit(t *testing.T, dir string) []auditEntry {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "audit.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []auditEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e auditEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}
