//go:build !cgo

package ccs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// These tests run only in a binary without SQLite, as guard's hot one is:
//
//	CGO_ENABLED=0 go test ./ccs/

func TestNoSQLite(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	if err := s.Append(rec("git status", "allow", time.Time{})); err != nil {
		t.Fatal(err)
	}
	want := "the guard database " + filepath.Join(dir, dbName) + " is unavailable: this guard binary was built without SQLite"
	_, err := s.Audit(Query{})
	var de *DBError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), want) {
		t.Errorf("Audit err = %v, want a DBError saying %q", err, want)
	}
	if err := s.Import(); !errors.As(err, &de) {
		t.Errorf("Import err = %v, want a DBError", err)
	}
	if _, err := os.Stat(filepath.Join(dir, dbName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a database file was made: %v", err)
	}
}

// fill appends n records through s.
func fill(t *testing.T, s *Store, n int) {
	t.Helper()
	for i := range n {
		if err := s.Append(rec(fmt.Sprint("r", i), "allow", time.Time{})); err != nil {
			t.Fatal(err)
		}
	}
}

func size(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return fi.Size()
}

// TestImporter: once the journal is full, the Append that notices calls
// the importer (which here rotates the journal itself, as guard-cli audit
// --import would) and then writes its record to the new journal.
func TestImporter(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	s.maxJournal = 1024
	calls := 0
	s.SetImporter(func() error {
		calls++
		return os.Rename(filepath.Join(dir, journalName), filepath.Join(dir, oldJournalName))
	})
	fill(t, s, 8) // about 1.3 KiB
	if calls != 1 {
		t.Fatalf("importer called %d times, want 1", calls)
	}
	old, cur := size(t, filepath.Join(dir, oldJournalName)), size(t, filepath.Join(dir, journalName))
	if old < 1024 || cur <= 0 || cur >= 1024 {
		t.Fatalf("after rotation: audit.jsonl.1 %d bytes, audit.jsonl %d bytes", old, cur)
	}
}

// TestImporterFails: a failing importer is not called again by every
// Append (importBackoff), and the journal is rotated anyway once it is
// maxBacklog times its limit.
func TestImporterFails(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	s.maxJournal = 1024
	calls := 0
	s.SetImporter(func() error { calls++; return errors.New("guard-cli: not found") })
	fill(t, s, 40) // about 6.5 KiB
	if calls != 1 {
		t.Errorf("importer called %d times, want 1", calls)
	}
	if old := size(t, filepath.Join(dir, oldJournalName)); old < maxBacklog*1024 {
		t.Errorf("audit.jsonl.1 has %d bytes: not rotated at %d", old, maxBacklog*1024)
	}
}

// TestNoImporter: without an importer the journal grows to maxBacklog
// times its limit, then is rotated.
func TestNoImporter(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	s.maxJournal = 1024
	fill(t, s, 20)
	if old := size(t, filepath.Join(dir, oldJournalName)); old != -1 {
		t.Errorf("rotated below the backlog limit (%d bytes)", old)
	}
	fill(t, s, 20)
	if old := size(t, filepath.Join(dir, oldJournalName)); old < maxBacklog*1024 {
		t.Errorf("audit.jsonl.1 has %d bytes, want at least %d", old, maxBacklog*1024)
	}
}
