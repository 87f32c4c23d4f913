package ccs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAppendErrors(t *testing.T) {
	t.Run("state dir under a file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		os.WriteFile(file, nil, 0o600)
		err := Open(filepath.Join(file, "state"), nil).Append(rec("x", "allow", time.Time{}))
		if err == nil || !strings.HasPrefix(err.Error(), "write audit record: create state directory") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("device", func(t *testing.T) {
		// (this was the disk-full case: /dev/full is no journal either)
		dir := t.TempDir()
		if err := os.Symlink("/dev/full", filepath.Join(dir, journalName)); err != nil {
			t.Skip(err)
		}
		err := Open(dir, nil).Append(rec("x", "allow", time.Time{}))
		if err == nil || !strings.Contains(err.Error(), "audit.jsonl: not a regular file (a character device)") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("read-only dir", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root ignores permissions")
		}
		dir := filepath.Join(t.TempDir(), "ro")
		os.Mkdir(dir, 0o500)
		err := Open(dir, nil).Append(rec("x", "allow", time.Time{}))
		if err == nil || !strings.Contains(err.Error(), "not writable") {
			t.Fatalf("err = %v", err)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 0 {
			t.Errorf("left %v behind", entries)
		}
	})
}

// TestRecordTelemetryFields: the fields the telemetry flusher exports
// (project, overhead) go through the journal and the import unchanged.
func TestRecordTelemetryFields(t *testing.T) {
	if !haveSQLite {
		t.Skip("no SQLite")
	}
	s := Open(t.TempDir(), nil)
	defer s.Close()
	r := rec("make", "allow", time.Time{})
	r.Project, r.OverheadUS, r.Answer = "/home/u/proj", 812, "cache"
	if err := s.Append(r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Audit(Query{})
	if err != nil || len(got) != 1 {
		t.Fatal(got, err)
	}
	if got[0].Project != "/home/u/proj" || got[0].OverheadUS != 812 || got[0].Answer != "cache" || got[0].ID == 0 {
		t.Errorf("record = %+v", got[0])
	}
}

// TestClaimFlush: a missing due file is due; a claim moves it a minute on,
// so the next guard does not start a second flusher; SetFlushDue (the
// flusher's backoff) moves it wherever it says.
func TestClaimFlush(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	if !ClaimFlush(dir, now) {
		t.Fatal("a missing due file was not due")
	}
	if ClaimFlush(dir, now.Add(time.Second)) {
		t.Fatal("claimed twice within a minute")
	}
	if !ClaimFlush(dir, now.Add(FlushEvery+time.Second)) {
		t.Fatal("not due a minute later")
	}
	if err := SetFlushDue(dir, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if ClaimFlush(dir, now.Add(30*time.Minute)) {
		t.Fatal("claimed during the backoff")
	}
	if !ClaimFlush(dir, now.Add(61*time.Minute)) {
		t.Fatal("not due after the backoff")
	}
}

// BenchmarkClaimFlushNotDue is what [telemetry] adds to a record when no
// flush is due: one stat.
func BenchmarkClaimFlushNotDue(b *testing.B) {
	dir := b.TempDir()
	if err := SetFlushDue(dir, time.Now().Add(time.Hour)); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	for b.Loop() {
		if ClaimFlush(dir, now) {
			b.Fatal("due")
		}
	}
}
