//go:build cgo

package ccs

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test if fn has not returned after d: a hang is a
// failure, not a stuck test run.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s still running after %s: guard would hang", what, d)
	}
}

// TestStateNeverHangs puts a FIFO, a dangling symlink and a directory at
// every name in the state directory that the store opens, and at the
// directory itself: every operation returns (with an error or not), none
// waits for ever.
func TestStateNeverHangs(t *testing.T) {
	names := []string{"", journalName, oldJournalName, lockName, lostName, importName, dbName,
		pendingDirName, filepath.Join(pendingDirName, pendingLockName), filepath.Join(pendingDirName, "abcdef.json"),
		filepath.Join(pendingDirName, "abcdef.once")}
	plants := map[string]func(string) error{
		"fifo":     func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"dangling": func(p string) error { return os.Symlink(p+".gone/x", p) },
		"dir":      func(p string) error { return os.Mkdir(p, 0o700) },
	}
	for _, name := range names {
		for kind, plant := range plants {
			t.Run(name+"/"+kind, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "state")
				path := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := plant(path); err != nil {
					t.Fatal(err)
				}
				s := Open(dir, nil)
				defer s.Close()
				within(t, 10*time.Second, "the store", func() {
					err := s.Append(rec("x", "allow", time.Time{}))
					if name == journalName && kind != "dangling" &&
						(err == nil || !strings.Contains(err.Error(), "audit.jsonl: not a regular file")) {
						t.Errorf("Append: %v", err)
					}
					s.Probe()
					s.NoteLost(time.Now())
					s.Lost()
					s.AddPending(Pending{Cwd: "/p", Command: "x", HMAC: "ab"})
					s.TakeOnce("ab", "/p", time.Now())
					s.ListPending()
					s.GetPending("abcdef")
					s.Resolve("abcdef", StatusApprovedOnce, time.Now())
					s.Import()
					s.Audit(Query{})
				})
			})
		}
	}
}

// TestHeldJournalLock: a process that holds the journal lock exclusively
// (flock on another open file description behaves as another process)
// delays an append by the bound, not for ever, and the record is not lost.
func TestHeldJournalLock(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	if err := s.Append(rec("before", "allow", time.Time{})); err != nil {
		t.Fatal(err)
	}
	l, err := s.lock(syscall.LOCK_EX)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	within(t, 10*time.Second, "Append", func() {
		if err := s.Append(rec("held", "allow", time.Time{})); err != nil {
			t.Errorf("Append under a held lock: %v", err)
		}
	})
	if d := time.Since(start); d < lockWait {
		t.Errorf("Append took %s: it did not wait for the lock", d)
	}
	within(t, 10*time.Second, "Import", func() {
		if err := s.Import(); err == nil || !strings.Contains(err.Error(), "held by another process") {
			t.Errorf("Import under a held lock: %v", err)
		}
	})
	l.Close()
	got, err := s.Audit(Query{})
	if err != nil || commands(got) != "held before" {
		t.Fatalf("Audit = %q, %v", commands(got), err)
	}
}

// TestLostMarker counts lost records and keeps the last time.
func TestLostMarker(t *testing.T) {
	s := Open(t.TempDir(), nil)
	if n, _, err := s.Lost(); n != 0 || err != nil {
		t.Fatalf("Lost = %d, %v", n, err)
	}
	s.ensureDir()
	t1 := time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC)
	s.NoteLost(t1.Add(-time.Hour))
	if err := s.NoteLost(t1); err != nil {
		t.Fatal(err)
	}
	if n, last, err := s.Lost(); n != 2 || !last.Equal(t1) || err != nil {
		t.Fatalf("Lost = %d, %s, %v", n, last, err)
	}
}

// TestRotationLockHeld: a rotation that cannot get the journal lock (a
// reader holds it shared past the bound) does not cost the record.
func TestRotationLockHeld(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	s.maxJournal = 1 // every append to a non-empty journal rotates
	for i := 0; i < 3; i++ {
		if err := s.Append(rec("fill", "allow", time.Time{})); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Open(dir, nil).lock(syscall.LOCK_SH)
	if err != nil {
		t.Fatal(err)
	}
	within(t, 20*time.Second, "Append", func() {
		if err := s.Append(rec("while-rotation-blocked", "allow", time.Time{})); err != nil {
			t.Errorf("Append: %v", err)
		}
	})
	l.Close()
	got, err := s.Audit(Query{})
	if err != nil || !strings.Contains(commands(got), "while-rotation-blocked") {
		t.Fatalf("Audit = %q, %v", commands(got), err)
	}
}
