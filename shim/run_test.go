package shim

import (
	"bytes"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bashPath is the real bash the run tests use.
func bashPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH")
	}
	return p
}

// runBash runs text with bash -c in a fresh spec; files default to /dev/null.
func runBash(t *testing.T, text string, mod func(*runSpec)) runResult {
	t.Helper()
	sp := runSpec{
		Path: bashPath(t), Argv: []string{"bash", "-c", text},
		Env: os.Environ(), Dir: t.TempDir(), Grace: 300 * time.Millisecond, Keep: directChildren(),
	}
	if mod != nil {
		mod(&sp)
	}
	res, err := run(sp)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res
}

func TestRunExitStatus(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"true", 0},
		{"exit 7", 7},
		{"exit 255", 255},
		{"kill -TERM $$", 128 + int(syscall.SIGTERM)},
		{"kill -KILL $$", 128 + int(syscall.SIGKILL)},
		{"kill -SEGV $$", 128 + int(syscall.SIGSEGV)},
	} {
		res := runBash(t, tc.text, nil)
		if res.Exit != tc.want || res.TimedOut {
			t.Errorf("%q: got %+v, want exit %d", tc.text, res, tc.want)
		}
	}
}

func TestRunByteExact(t *testing.T) {
	dir := t.TempDir()
	data := make([]byte, 1<<20)
	if _, err := rand.Read(data); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		t.Fatal(err)
	}
	stdin, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	res := runBash(t, "cat", func(sp *runSpec) { sp.Stdin, sp.Stdout = stdin, stdout })
	if res.Exit != 0 {
		t.Fatalf("exit %d", res.Exit)
	}
	got, err := os.ReadFile(stdout.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("output differs from input: %d bytes vs %d", len(got), len(data))
	}
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	_, state, err := procStat(pid)
	return err == nil && state != 'Z' && state != 'X'
}

// readPids reads the pids a test command wrote, one per line.
func readPids(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pid file: %v", err)
		}
		pids = append(pids, n)
	}
	return pids
}

func TestRunTimeoutKillsTree(t *testing.T) {
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	// A backgrounded sleep, one that left the group with setsid, one that
	// ignores SIGTERM, and the shell itself ignoring SIGTERM: all must go.
	text := `trap "" TERM
sleep 30 & echo $! >> pids
( setsid sleep 31 & echo $! >> pids )
sleep 32 & echo $! >> pids
echo $$ >> pids
wait`
	start := time.Now()
	res := runBash(t, text, func(sp *runSpec) { sp.Timeout, sp.Dir = time.Second, dir })
	if !res.TimedOut {
		t.Fatalf("not timed out: %+v", res)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("took %v", el)
	}
	got := readPids(t, pids)
	if len(got) != 4 {
		t.Fatalf("pids: %v", got)
	}
	for _, pid := range got {
		if alive(pid) {
			t.Errorf("pid %d survived the timeout", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func TestRunForwardsSignals(t *testing.T) {
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	sigs := make(chan os.Signal, 1)
	text := `trap 'echo got TERM; exit 3' TERM; trap 'echo got HUP' HUP; touch ready; sleep 10 & wait`
	go signalWhenReady(dir, sigs, syscall.SIGTERM)
	res := runBash(t, text, func(sp *runSpec) { sp.Stdout, sp.Signals, sp.Dir = out, sigs, dir })
	if res.Exit != 3 {
		t.Errorf("exit %d, want 3 from the trap", res.Exit)
	}
	b, _ := os.ReadFile(out.Name())
	if string(b) != "got TERM\n" {
		t.Errorf("stdout %q", b)
	}
}

func TestRunStartFailure(t *testing.T) {
	_, err := run(runSpec{Path: "/nonexistent/prog", Argv: []string{"prog"}})
	if err == nil {
		t.Fatal("no error for a missing program")
	}
}

// directChildren returns the test process's own children, from the
// kernel's per-thread lists: what runSpec.Keep must protect when tests run
// several commands in one process.
func directChildren() map[int]bool {
	out := map[int]bool{}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return out
	}
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out[pid] = true
			}
		}
	}
	return out
}

// TestRunMeanwhile: Meanwhile runs while the command does, and run does not
// wait for it; signals sent once it is done are forwarded.
func TestRunMeanwhile(t *testing.T) {
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	sigs := make(chan os.Signal, 1)
	done := make(chan struct{})
	text := `trap 'echo got INT; exit 4' INT; touch ready; sleep 10 & wait`
	res := runBash(t, text, func(sp *runSpec) {
		sp.Stdout, sp.Signals, sp.Dir = out, sigs, dir
		sp.Meanwhile = func() {
			defer close(done)
			signalWhenReady(dir, sigs, syscall.SIGINT)
		}
	})
	<-done
	if res.Exit != 4 {
		t.Errorf("exit %d, want 4 from the trap", res.Exit)
	}
	// run returns while a slow Meanwhile is still busy (one that waited
	// for it would return only after the 10 s sleep)
	start := time.Now()
	res = runBash(t, "true", func(sp *runSpec) { sp.Meanwhile = func() { time.Sleep(10 * time.Second) } })
	if el := time.Since(start); res.Exit != 0 || el > 5*time.Second {
		t.Errorf("exit %d after %v", res.Exit, el)
	}
}

// signalWhenReady sends sig once the test command has created dir/ready
// (giving up after 5 s).
func signalWhenReady(dir string, sigs chan<- os.Signal, sig os.Signal) {
	for i := 0; i < 500; i++ {
		if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
			sigs <- sig
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
