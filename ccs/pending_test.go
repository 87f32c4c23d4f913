package ccs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guard-dev/guard/redact"
)

func TestPending(t *testing.T) {
	s := Open(t.TempDir(), redact.New(nil))
	defer s.Close()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

	a, err := s.AddPending(Pending{Time: t0, Cwd: "/p", Root: "/p", Command: "npm install left-pad --token=hunter22", HMAC: "s1", Suggest: "npm install *"})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{6}$`).MatchString(a.ID) || a.Status != StatusPending {
		t.Fatalf("added %+v", a)
	}
	if a.Command != "npm install left-pad --token=[REDACTED:credential]" {
		t.Errorf("command not redacted: %q", a.Command)
	}
	// The same text in the same directory is the same request.
	again, err := s.AddPending(Pending{Time: t0.Add(time.Minute), Cwd: "/p", Command: "npm install left-pad", HMAC: "s1"})
	if err != nil || again.ID != a.ID {
		t.Fatalf("re-adding gave %+v, %v; want request %s", again, err, a.ID)
	}
	b, _ := s.AddPending(Pending{Time: t0.Add(2 * time.Minute), Cwd: "/q", Command: "make", HMAC: "s1"})
	c, _ := s.AddPending(Pending{Time: t0.Add(3 * time.Minute), Cwd: "/p", Command: "make", HMAC: "s2"})
	if b.ID == a.ID || c.ID == a.ID || b.ID == c.ID {
		t.Fatalf("ids not distinct: %s %s %s", a.ID, b.ID, c.ID)
	}

	list, err := s.ListPending()
	if err != nil || len(list) != 3 || list[0].ID != a.ID || list[1].ID != b.ID || list[2].ID != c.ID {
		t.Fatalf("ListPending = %+v, %v", list, err)
	}
	got, err := s.GetPending(a.ID)
	if err != nil || got.Suggest != "npm install *" || got.Root != "/p" || !got.Time.Equal(t0) || !got.Resolved.IsZero() {
		t.Fatalf("GetPending = %+v, %v", got, err)
	}
	if _, err := s.GetPending("ffffff"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetPending(unknown) err = %v", err)
	}

	// Answers.
	t1 := t0.Add(time.Hour)
	if err := s.Resolve(b.ID, StatusRejected, t1); err != nil {
		t.Fatal(err)
	}
	if err := s.Resolve(b.ID, StatusApprovedGlobal, t1); err == nil {
		t.Error("a rejected request was approved")
	}
	if err := s.Resolve(c.ID, "approved-forever", t1); err == nil {
		t.Error("a made-up status was accepted")
	}
	if err := s.Resolve("ffffff", StatusRejected, t1); !errors.Is(err, ErrNotFound) {
		t.Errorf("Resolve(unknown) err = %v", err)
	}
	if err := s.Resolve(a.ID, StatusApprovedOnce, t1); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetPending(a.ID); got.Status != StatusApprovedOnce || !got.Resolved.Equal(t1) {
		t.Errorf("after Resolve: %+v", got)
	}
	if list, _ := s.ListPending(); len(list) != 1 || list[0].ID != c.ID {
		t.Errorf("ListPending after answers = %+v", list)
	}
	// A new request for a text whose old one was answered is a new request.
	if d, _ := s.AddPending(Pending{Cwd: "/q", Command: "make", HMAC: "s1"}); d.ID == b.ID {
		t.Error("a rejected request came back as pending")
	}
}

func TestTakeOnce(t *testing.T) {
	s := Open(t.TempDir(), nil)
	defer s.Close()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	add := func(sha, cwd, status string, resolved time.Time) {
		t.Helper()
		p, err := s.AddPending(Pending{Time: t0, Cwd: cwd, Command: "c", HMAC: sha})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Resolve(p.ID, status, resolved); err != nil {
			t.Fatal(err)
		}
	}
	add("once", "/p", StatusApprovedOnce, t0)
	add("proj", "/p", StatusApprovedProject, t0)
	add("old", "/p", StatusApprovedOnce, t0.Add(-11*time.Minute))

	tests := []struct {
		sha, cwd string
		now      time.Time
		want     bool
	}{
		{"once", "/elsewhere", t0, false},           // other directory
		{"other", "/p", t0, false},                  // other text
		{"proj", "/p", t0, false},                   // not a once approval
		{"old", "/p", t0, false},                    // answered too long ago
		{"once", "/p", t0.Add(-time.Second), false}, // answered after now
		{"once", "/p", t0.Add(10 * time.Minute), true},
		{"once", "/p", t0.Add(10 * time.Minute), false}, // consumed
	}
	for _, tt := range tests {
		got, err := s.TakeOnce(tt.sha, tt.cwd, tt.now)
		if err != nil || got != tt.want {
			t.Errorf("TakeOnce(%s, %s, %v) = %v, %v; want %v", tt.sha, tt.cwd, tt.now, got, err, tt.want)
		}
	}
}

// TestTakeOnceUnredactedCwd: an approval is for the directory it was asked
// in, not for every directory that redacts the same (issue 22: one in
// proj/ghp_A was used in proj/ghp_B).
func TestTakeOnceUnredactedCwd(t *testing.T) {
	a, b := "/w/proj/ghp_x7Kq2Lm9Pz4Rt8Vw1Yb6Nc3Hd5Jf0Gs2Ae7A", "/w/proj/ghp_x7Kq2Lm9Pz4Rt8Vw1Yb6Nc3Hd5Jf0Gs2Ae7B"
	s := Open(t.TempDir(), redact.New(nil))
	defer s.Close()
	now := time.Now()
	p, err := s.AddPending(Pending{Time: now, Cwd: a, Command: "make", HMAC: "h"})
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.AddPending(Pending{Time: now, Cwd: b, Command: "make", HMAC: "h"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Cwd != q.Cwd || strings.Contains(p.Cwd, "x7Kq2") {
		t.Fatalf("the test needs two directories that redact alike: %q, %q", p.Cwd, q.Cwd)
	}
	if p.ID == q.ID {
		t.Fatal("a request in another directory that redacts alike was merged into the first")
	}
	if err := s.Resolve(p.ID, StatusApprovedOnce, now); err != nil {
		t.Fatal(err)
	}
	if took, err := s.TakeOnce("h", b, now); took || err != nil {
		t.Fatalf("the approval in %s was used in %s (%v)", a, b, err)
	}
	if took, err := s.TakeOnce("h", a, now); !took || err != nil {
		t.Fatalf("the approval was not used in its own directory (%v)", err)
	}
}

// TestTakeOnceRace lets many Stores race for one approval: exactly one wins.
func TestTakeOnceRace(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	now := time.Now()
	p, _ := s.AddPending(Pending{Cwd: "/p", Command: "c", HMAC: "x"})
	if err := s.Resolve(p.ID, StatusApprovedOnce, now); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for range 8 {
		wg.Go(func() {
			s := Open(dir, nil)
			defer s.Close()
			ok, err := s.TakeOnce("x", "/p", now)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d takers won, want 1", wins)
	}
}

// TestAddPendingRace adds the same request from many Stores at once: one
// request results.
func TestAddPendingRace(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	ids := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			s := Open(dir, nil)
			defer s.Close()
			p, err := s.AddPending(Pending{Cwd: "/p", Command: "c", HMAC: "x"})
			if err != nil {
				t.Error(err)
			}
			ids <- p.ID
		})
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		seen[id] = true
	}
	if len(seen) != 1 {
		t.Fatalf("ids %v, want one", seen)
	}
	s := Open(dir, nil)
	defer s.Close()
	if list, _ := s.ListPending(); len(list) != 1 {
		t.Fatal(fmt.Sprint("pending: ", list))
	}
}

func TestPendingDamagedFile(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	now := time.Now()
	a, err := s.AddPending(Pending{Time: now, Cwd: "/p", Command: "c", HMAC: "once"})
	if err != nil {
		t.Fatal(err)
	}
	// A torn file that still looks like an approval, and plain garbage.
	bad := filepath.Join(dir, pendingDirName, "abcdef.json")
	os.WriteFile(bad, []byte(`{"id":"abcdef","status":"approved-once","sha256":"once","cwd":"/p","command":"hunter2 sec`), 0o600)
	os.WriteFile(filepath.Join(dir, pendingDirName, "123456.json"), []byte("garbage hunter2"), 0o600)
	os.WriteFile(filepath.Join(dir, pendingDirName, "notes.txt"), []byte("not a request"), 0o600)
	os.WriteFile(filepath.Join(dir, pendingDirName, "abcdef.once"), nil, 0o600)
	os.WriteFile(filepath.Join(dir, pendingDirName, "fedcba.once"), nil, 0o600) // no request

	if list, err := s.ListPending(); err != nil || len(list) != 1 || list[0].ID != a.ID {
		t.Fatalf("ListPending = %+v, %v; want only %s", list, err, a.ID)
	}
	_, err = s.GetPending("abcdef")
	if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), bad+" is damaged") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("GetPending(damaged) err = %v", err)
	}
	if err := s.Resolve("abcdef", StatusRejected, now); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("Resolve(damaged) err = %v", err)
	}
	if took, err := s.TakeOnce("once", "/p", now); took || err != nil {
		t.Errorf("TakeOnce used a damaged file: %v, %v", took, err)
	}
	// The next AddPending removes markers of requests that are not
	// approved-once, and the files stay.
	if _, err := s.AddPending(Pending{Time: now, Cwd: "/p", Command: "d", HMAC: "other"}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"abcdef.once": false, "fedcba.once": false, "abcdef.json": true, "notes.txt": true} {
		if _, err := os.Stat(filepath.Join(dir, pendingDirName, name)); (err == nil) != want {
			t.Errorf("%s: exists = %v, want %v", name, err == nil, want)
		}
	}
	for _, id := range []string{"../../etc/passwd", "ABCDEF", "abcdefa", ""} {
		if _, err := s.GetPending(id); !errors.Is(err, ErrNotFound) {
			t.Errorf("GetPending(%q) err = %v, want ErrNotFound", id, err)
		}
	}
}

func TestPendingPrune(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	add := func(sha string, at time.Time) Pending {
		t.Helper()
		p, err := s.AddPending(Pending{Time: at, Cwd: "/p", Command: "c", HMAC: sha})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	rejected := add("rejected", t0)
	s.Resolve(rejected.ID, StatusRejected, t0)
	used := add("used", t0)
	s.Resolve(used.ID, StatusApprovedOnce, t0)
	if took, _ := s.TakeOnce("used", "/p", t0); !took {
		t.Fatal("approval not taken")
	}
	global := add("global", t0)
	s.Resolve(global.ID, StatusApprovedGlobal, t0.Add(2*24*time.Hour)) // answered late: kept
	waiting := add("waiting", t0)                                      // never answered for a week: gone
	recent := add("recent", t0.Add(2*24*time.Hour))                    // never answered, but recent: kept

	add("new", t0.Add(8*24*time.Hour))
	for _, tt := range []struct {
		p    Pending
		kept bool
	}{{rejected, false}, {used, false}, {global, true}, {waiting, false}, {recent, true}} {
		_, err := s.GetPending(tt.p.ID)
		if kept := err == nil; kept != tt.kept {
			t.Errorf("request %s (%s): kept = %v, want %v (%v)", tt.p.ID, tt.p.HMAC, kept, tt.kept, err)
		}
	}
}

func TestPendingReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores permissions")
	}
	t.Run("state dir", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "ro")
		os.Mkdir(dir, 0o500)
		_, err := Open(dir, nil).AddPending(Pending{Cwd: "/p", Command: "c", HMAC: "x"})
		if err == nil || err.Error() != "add pending request: create request directory: "+dir+" is not writable: permission denied" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("request dir", func(t *testing.T) {
		dir := t.TempDir()
		s := Open(dir, nil)
		p, err := s.AddPending(Pending{Cwd: "/p", Command: "c", HMAC: "x"})
		if err != nil {
			t.Fatal(err)
		}
		pdir := filepath.Join(dir, pendingDirName)
		os.Chmod(pdir, 0o500)
		defer os.Chmod(pdir, 0o700)
		_, err = s.AddPending(Pending{Cwd: "/p", Command: "c", HMAC: "y"})
		if err == nil || !strings.Contains(err.Error(), pdir+" is not writable") {
			t.Fatalf("err = %v", err)
		}
		if err := s.Resolve(p.ID, StatusApprovedOnce, time.Now()); err == nil || !strings.Contains(err.Error(), pdir+" is not writable") {
			t.Fatalf("err = %v", err)
		}
		// Reading still works.
		if list, err := s.ListPending(); err != nil || len(list) != 1 {
			t.Fatalf("ListPending = %v, %v", list, err)
		}
		if took, err := s.TakeOnce("x", "/p", time.Now()); took || err != nil {
			t.Fatalf("TakeOnce = %v, %v", took, err)
		}
	})
}

// TestPendingProcesses has 30 processes each add a request of their own
// and the same shared one, and race for 10 approvals of one text: every
// approval is used exactly once, no request is lost or doubled.
func TestPendingProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 30 processes")
	}
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	const procs, approvals = 30, 10
	now := time.Now()
	for range approvals {
		p, err := s.AddPending(Pending{Time: now, Cwd: "/p", Command: "c", HMAC: "once"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Resolve(p.ID, StatusApprovedOnce, now); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i := range procs {
		c := exec.Command(self)
		c.Env = append(os.Environ(), envChildDir+"="+dir, envChildPending+"="+strconv.Itoa(i))
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, c), append(outs, &out)
	}
	took := 0
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("child %d: %v: %s", i, err, outs[i])
		}
		took += strings.Count(outs[i].String(), "took")
	}
	if took != approvals {
		t.Errorf("%d approvals taken, want %d", took, approvals)
	}
	list, err := s.ListPending()
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, p := range list {
		count[p.HMAC]++
	}
	if len(list) != procs+1 || count["shared"] != 1 {
		t.Errorf("%d pending requests (%d shared), want %d (1 shared)", len(list), count["shared"], procs+1)
	}
	for i := range procs {
		if count[fmt.Sprint("own-", i)] != 1 {
			t.Errorf("request of child %d: %d times", i, count[fmt.Sprint("own-", i)])
		}
	}
	if again, err := s.TakeOnce("once", "/p", now); again || err != nil {
		t.Errorf("an approval was left or reused: %v, %v", again, err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, pendingDirName))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestOnceMarker: an approved-once request has its marker until it is
// used; TakeOnce reads no request without one.
func TestOnceMarker(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	now := time.Now()
	marker := func(id string) bool {
		_, err := os.Stat(filepath.Join(dir, pendingDirName, id+onceSuffix))
		return err == nil
	}
	a, _ := s.AddPending(Pending{Cwd: "/p", Command: "c", HMAC: "a"})
	b, _ := s.AddPending(Pending{Cwd: "/p", Command: "c", HMAC: "b"})
	s.Resolve(a.ID, StatusApprovedOnce, now)
	s.Resolve(b.ID, StatusApprovedProject, now)
	if !marker(a.ID) || marker(b.ID) {
		t.Fatalf("markers: approved-once %v, approved-project %v", marker(a.ID), marker(b.ID))
	}
	// Without its marker an approval is not seen (the marker is always
	// made first, so only a hand-made file can lack one).
	os.Remove(filepath.Join(dir, pendingDirName, a.ID+onceSuffix))
	if took, _ := s.TakeOnce("a", "/p", now); took {
		t.Fatal("TakeOnce read a request without a marker")
	}
	os.WriteFile(filepath.Join(dir, pendingDirName, a.ID+onceSuffix), nil, 0o600)
	if took, err := s.TakeOnce("a", "/p", now); !took || err != nil {
		t.Fatalf("TakeOnce = %v, %v", took, err)
	}
	if marker(a.ID) {
		t.Error("marker left after use")
	}
}

func TestParseStartTime(t *testing.T) {
	for in, want := range map[string]uint64{
		"42 (bash) S 1 42 42 34816 42 4194560 1 2 3 4 5 6 7 8 20 0 1 0 98765 100 200": 98765,
		"7 (a) b) c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 555 1":            555,
	} {
		if got, err := parseStartTime([]byte(in)); err != nil || got != want {
			t.Errorf("%q: got %d %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1 (x) S 1 2", "1 x S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"} {
		if _, err := parseStartTime([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

// A request a guard waits for is listed while that guard lives, and goes
// when it dies; SetWaiting(0) keeps it for guard approve; DropPending and
// ClearPending remove it; expired requests are not listed.
func TestPendingWaiting(t *testing.T) {
	s := Open(t.TempDir(), nil)
	defer s.Close()
	now := time.Now()
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	pid := cmd.Process.Pid
	start, err := ProcessStart(pid)
	if err != nil {
		t.Skip(err)
	}
	a, _ := s.AddPending(Pending{Time: now, Cwd: "/p", Command: "a", HMAC: "a"})
	b, _ := s.AddPending(Pending{Time: now, Cwd: "/p", Command: "b", HMAC: "b"})
	if err := s.SetWaiting(a.ID, pid, start); err != nil {
		t.Fatal(err)
	}
	if err := s.SetWaiting(b.ID, pid, start+1); err != nil { // another process, same pid
		t.Fatal(err)
	}
	ids := func() string {
		list, err := s.ListPendingAt(now, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range list {
			out = append(out, p.Command)
		}
		return strings.Join(out, " ")
	}
	if got := ids(); got != "a" {
		t.Errorf("waiting, alive: got %q", got)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if got := ids(); got != "" {
		t.Errorf("waiter dead: got %q", got)
	}
	if err := s.SetWaiting(a.ID, 0, 0); err != nil {
		t.Fatal(err)
	}
	if got := ids(); got != "a" {
		t.Errorf("no longer waited for: got %q", got)
	}
	if list, _ := s.ListPendingAt(now.Add(2*time.Hour), time.Hour); len(list) != 0 {
		t.Errorf("expired: %+v", list)
	}
	if n, err := s.ClearPending(now.Add(-time.Minute)); err != nil || n != 1 { // only b, whose waiter is gone
		t.Errorf("clear older: %d %v", n, err)
	}
	if err := s.DropPending(a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetPending(a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("dropped: %v", err)
	}
	c, _ := s.AddPending(Pending{Time: now, Cwd: "/p", Command: "c", HMAC: "c"})
	s.Resolve(c.ID, StatusRejected, now)
	d, _ := s.AddPending(Pending{Time: now, Cwd: "/p", Command: "d", HMAC: "d"})
	if n, err := s.ClearPending(time.Time{}); err != nil || n != 1 {
		t.Errorf("clear all: %d %v", n, err)
	}
	if _, err := s.GetPending(c.ID); err != nil {
		t.Errorf("an answered request was cleared: %v", err)
	}
	if _, err := s.GetPending(d.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("d not cleared: %v", err)
	}
}

// A rejection may carry a message for the agent: kept redacted and short,
// returned with the rejection, and only on a rejection.
func TestRejectMessage(t *testing.T) {
	s := Open(t.TempDir(), redact.New(nil))
	defer s.Close()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	a, err := s.AddPending(Pending{Time: t0, Cwd: "/p", Root: "/p", Command: "make deploy", HMAC: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.AddPending(Pending{Time: t0, Cwd: "/p", Root: "/p", Command: "make test", HMAC: "s2"})
	if err := s.ResolveWith(b.ID, StatusApprovedOnce, "no", t0); err == nil {
		t.Errorf("an approval took a message")
	}
	msg := "  use make test instead, token=hunter22 " + strings.Repeat("x", 600)
	if err := s.ResolveWith(a.ID, StatusRejected, msg, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	got, found, err := s.Rejected("s1", "/p", t0.Add(2*time.Minute), time.Hour)
	if err != nil || !found {
		t.Fatalf("Rejected: %v %v", found, err)
	}
	if !strings.HasPrefix(got.Message, "use make test instead, token=[REDACTED") || len(got.Message) > maxMessage {
		t.Errorf("message kept as %q (%d bytes)", got.Message, len(got.Message))
	}
	if strings.Contains(got.Message, "hunter22") {
		t.Errorf("the message keeps a secret: %q", got.Message)
	}
}
