package shim

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ticketApp is a guard run in cwd at time now, with extra environment.
func ticketApp(t *testing.T, cwd string, now time.Time, env map[string]string) *app {
	t.Helper()
	self, _ := os.Executable()
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return os.Getenv(k)
	}
	a := newApp(Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: getenv, Environ: os.Environ(),
		Cwd: cwd, Now: func() time.Time { return now }, Self: self})
	t.Cleanup(a.close)
	return a
}

func as(p agentProc) func() (agentProc, error) { return func() (agentProc, error) { return p, nil } }

// TestTicketHostile: a ticket lets exactly one run of exactly the approved
// text, in its directory, from the agent that asked, within its lifetime.
func TestTicketHostile(t *testing.T) {
	now := time.Now()
	cwd, other := t.TempDir(), t.TempDir()
	me := agentProc{pid: 4242, start: 777}
	j := job{text: "touch approved", cwd: cwd, envelope: "claude"}
	leave := func(a *app, j job, who agentProc) {
		t.Helper()
		if err := a.writeTicket(j, who); err != nil {
			t.Fatal(err)
		}
	}

	a := ticketApp(t, cwd, now, nil)
	leave(a, j, me)
	if a.takeTicket(j, as(agentProc{pid: 4243, start: 777})) {
		t.Error("another process took the ticket")
	}
	if a.takeTicket(j, as(agentProc{pid: 4242, start: 778})) {
		t.Error("a process that reused the agent's pid took the ticket")
	}
	if a.takeTicket(job{text: "touch approved; rm -rf ~", cwd: cwd}, as(me)) {
		t.Error("another text took the ticket")
	}
	if a.takeTicket(job{text: "touch approved", cwd: other}, as(me)) {
		t.Error("the same text in another directory took the ticket")
	}
	nested := ticketApp(t, cwd, now, map[string]string{"GUARD_DEPTH": "1"})
	if nested.takeTicket(j, as(me)) {
		t.Error("a guard nested inside the command took the ticket")
	}
	if !a.takeTicket(j, as(me)) {
		t.Fatal("the agent could not take its own ticket")
	}
	if a.takeTicket(j, as(me)) {
		t.Error("a ticket was used twice")
	}

	// expired: left 11 minutes ago
	old := ticketApp(t, cwd, now.Add(-ticketTTL-time.Minute), nil)
	leave(old, j, me)
	if a.takeTicket(j, as(me)) {
		t.Error("an expired ticket was taken")
	}
	// from the future (a clock set back, or a forged file): refused too
	future := ticketApp(t, cwd, now.Add(time.Hour), nil)
	leave(future, j, me)
	if a.takeTicket(j, as(me)) {
		t.Error("a ticket that expires beyond the lifetime was taken")
	}

	// a link in the ticket directory is not read
	dir, _ := a.ticketDir(false)
	key, _ := a.ticketKey(j)
	src := filepath.Join(t.TempDir(), "t")
	leave(a, job{text: "x", cwd: cwd}, me)
	names, _ := ticketNames(dir)
	for _, n := range names {
		if !strings.HasPrefix(n, key) {
			os.Rename(filepath.Join(dir, n), src)
		}
	}
	if err := os.Symlink(src, filepath.Join(dir, key+".link")); err != nil {
		t.Fatal(err)
	}
	if a.takeTicket(j, as(me)) {
		t.Error("a symbolic link was taken as a ticket")
	}
}

// TestTicketSingleUseUnderRace: of many takers at once, one wins.
func TestTicketSingleUseUnderRace(t *testing.T) {
	cwd := t.TempDir()
	me := agentProc{pid: 99, start: 1}
	j := job{text: "touch race", cwd: cwd, envelope: "claude"}
	if err := ticketApp(t, cwd, time.Now(), nil).writeTicket(j, me); err != nil {
		t.Fatal(err)
	}
	var won atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ticketApp(t, cwd, time.Now(), nil).takeTicket(j, as(me)) {
				won.Add(1)
			}
		}()
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Errorf("%d takers won", won.Load())
	}
}

// TestTicketEndToEnd runs guard as Claude's bash (real processes, the real
// engine): the agent's ticket lets the approved command run once without a
// prompt; a deny stays a deny; text outside an envelope is not let through.
func TestTicketEndToEnd(t *testing.T) {
	st := newShimTree(t)
	cwd := t.TempDir()
	cwdFile := filepath.Join(os.TempDir(), "claude-e2e9-cwd")
	t.Cleanup(func() { os.Remove(cwdFile) })
	envelope := func(cmd string) string {
		return `shopt -u extglob 2>/dev/null || true && eval '` + cmd + `' < /dev/null && pwd -P >| ` + cwdFile
	}
	self, _ := os.Executable()
	// guard as the shell sees this test process as guard (same binary) and
	// the process above it as the agent, as the hook here does
	who, err := agentOf(self)
	if err != nil {
		t.Skipf("cannot tell the agent process: %v", err)
	}
	leave := func(text string) {
		t.Helper()
		if err := ticketApp(t, cwd, time.Now(), nil).writeTicket(job{text: text, cwd: cwd}, who); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (int, string) {
		t.Helper()
		cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "real", args...)
		cmd.Dir = cwd
		cmd.Env = append(cmd.Env, "GUARD_NO_PROMPT=1")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		return exitCode(t, cmd.Run()), errb.String()
	}

	leave("touch made")
	if code, errOut := run("-c", envelope("touch made")); code != 0 {
		t.Fatalf("approved command: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(cwd, "made")); err != nil {
		t.Fatal("the approved command did not run")
	}
	if b, _ := os.ReadFile(cwdFile); strings.TrimSpace(string(b)) == "" {
		t.Error("the envelope's cwd file was not written: the envelope did not run whole")
	}
	if code, errOut := run("-c", envelope("touch made")); code != ExitRefused || !strings.Contains(errOut, "needs approval") {
		t.Errorf("second run without a ticket: exit %d: %s", code, errOut)
	}

	leave("sudo -n true")
	if code, errOut := run("-c", envelope("sudo -n true")); code != ExitRefused || !strings.Contains(errOut, "guard: denied: privilege") {
		t.Errorf("a ticket for a denied command: exit %d: %s", code, errOut)
	}

	leave("touch plain")
	if code, errOut := run("-c", "touch plain"); code != ExitRefused || !strings.Contains(errOut, "needs approval") {
		t.Errorf("a ticket outside an envelope: exit %d: %s", code, errOut)
	}
	// a look-alike envelope is judged whole: the ticket for its eval does not apply
	leave("touch inner")
	look := `shopt -u extglob 2>/dev/null || true && eval 'touch inner' < /dev/null && touch extra && pwd -P >| ` + cwdFile
	if code, errOut := run("-c", look); code != ExitRefused {
		t.Errorf("a look-alike envelope: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(cwd, "extra")); err == nil {
		t.Error("the look-alike's extra command ran")
	}
}

// TestSnapshotScriptRuns: Claude's snapshot-creation script, run through
// guard's bash link by the agent itself, runs as plumbing, once: rewriting
// an existing snapshot, or the same script from inside a guarded command,
// is judged as the composite it is.
func TestSnapshotScriptRuns(t *testing.T) {
	st := newShimTree(t)
	dir := filepath.Join(os.Getenv("HOME"), ".claude", "shell-snapshots")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "snapshot-bash-1788557415117-t9snap.sh")
	script := "SNAPSHOT_FILE=" + snap + `
      # No user config file to source

      # First, create/clear the snapshot file
      echo "# Snapshot file" >| "$SNAPSHOT_FILE"
      echo "# Unset all aliases to avoid conflicts with functions" >> "$SNAPSHOT_FILE"
      echo "unalias -a 2>/dev/null || true" >> "$SNAPSHOT_FILE"
      echo "shopt -s expand_aliases" >> "$SNAPSHOT_FILE"
      echo "export PATH=/usr/bin\:/bin" >> "$SNAPSHOT_FILE"
      if [ ! -f "$SNAPSHOT_FILE" ]; then
        echo "Error: Snapshot file was not created at $SNAPSHOT_FILE" >&2
        exit 1
      fi
    `
	run := func(extra ...string) (int, string) {
		t.Helper()
		cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "real", "-c", "-l", script)
		cmd.Env = append(cmd.Env, append([]string{"GUARD_NO_PROMPT=1"}, extra...)...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		return exitCode(t, cmd.Run()), errb.String()
	}
	// The snapshot directory is protected (it is sourced before every
	// command): written from a guarded command, or over an existing
	// snapshot, the script is not plumbing and guard-self denies it.
	if code, errOut := run("GUARD_ACTIVE=1"); code != ExitRefused || !strings.Contains(errOut, "denied: guard-self") {
		t.Errorf("from inside a guarded command: exit %d: %s", code, errOut)
	}
	if code, errOut := run(); code != 0 {
		t.Fatalf("Claude's snapshot script: exit %d: %s", code, errOut)
	}
	if b, err := os.ReadFile(snap); err != nil || !strings.HasPrefix(string(b), "# Snapshot file\n") {
		t.Fatalf("snapshot not written: %q %v", b, err)
	}
	if code, errOut := run(); code != ExitRefused || !strings.Contains(errOut, "denied: guard-self") {
		t.Errorf("rewriting an existing snapshot: exit %d: %s", code, errOut)
	}
}

// TestTicketNotLeft: no ticket when nobody will be asked (Claude's
// bypassPermissions) or when the hook runs inside a guarded command (an
// agent forging one with its own guard hook claude).
func TestTicketNotLeft(t *testing.T) {
	cwd := t.TempDir()
	for _, tc := range []struct {
		mode string
		env  map[string]string
	}{
		{"bypassPermissions", nil},
		{"dontAsk", nil},
		{"", nil},
		{"default", map[string]string{"GUARD_ACTIVE": "1"}},
	} {
		a := ticketApp(t, cwd, time.Now(), tc.env)
		j := job{text: "touch forged-" + tc.mode, cwd: cwd}
		a.leaveTicket(j, tc.mode)
		dir, _ := a.ticketDir(true)
		key, _ := a.ticketKey(j)
		names, _ := ticketNames(dir)
		for _, n := range names {
			if strings.HasPrefix(n, key) {
				t.Errorf("mode %q env %v: a ticket was left", tc.mode, tc.env)
			}
		}
	}
}
