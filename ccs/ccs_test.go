//go:build cgo

package ccs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/guard-dev/guard/redact"
)

func TestAppendAudit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "guard") // missing: created
	s := Open(dir, redact.New([]string{"MY_TOKEN=envsecret-123"}))
	defer s.Close()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open touched the disk: %v", err)
	}
	base := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	if err := s.Append(rec("git status", "allow", base)); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(rec("GITHUB_TOKEN="+ghToken+" gh pr list", "ask", base.Add(time.Second))); err != nil {
		t.Fatal(err)
	}
	r := rec("curl -H 'x: envsecret-123' u", "deny", base.Add(2*time.Second))
	r.Cwd = "/home/envsecret-123"
	if err := s.Append(r); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode %v, want 0700", fi.Mode().Perm())
	}

	got, err := s.Audit(Query{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"curl -H 'x: [REDACTED:env:MY_TOKEN]' u",
		"GITHUB_TOKEN=[REDACTED:github] gh pr list",
		"git status",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Command != w {
			t.Errorf("record %d: command %q, want %q", i, got[i].Command, w)
		}
	}
	if got[0].Cwd != "/home/[REDACTED:env:MY_TOKEN]" {
		t.Errorf("cwd not redacted: %q", got[0].Cwd)
	}
	first := got[2]
	if !first.Time.Equal(base) || first.Agent != "test" || first.Rule != "r" || first.Answer != "rule" ||
		first.Mode != "shell" || first.Exit != 3 || first.DurationMS != 7 || first.HMAC != "abc" {
		t.Errorf("fields lost in the round trip: %+v", first)
	}

	// Nothing on disk holds a secret.
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, secret := range []string{ghToken, "envsecret-123"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds the secret %q", filepath.Base(f), secret)
			}
		}
	}
}

func TestAuditQuery(t *testing.T) {
	s := Open(t.TempDir(), nil)
	defer s.Close()
	base := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for i, d := range []string{"allow", "deny", "allow", "ask", "deny"} {
		if err := s.Append(rec(fmt.Sprint("c", i), d, base.Add(time.Duration(i)*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		q    Query
		want string
	}{
		{Query{}, "c4 c3 c2 c1 c0"},
		{Query{Limit: 2}, "c4 c3"},
		{Query{Decision: "deny"}, "c4 c1"},
		{Query{Since: base.Add(2 * time.Minute)}, "c4 c3 c2"},
		{Query{Decision: "allow", Since: base.Add(time.Minute), Limit: 5}, "c2"},
		{Query{Decision: "nothing"}, ""},
	}
	for _, tt := range tests {
		got, err := s.Audit(tt.q)
		if err != nil {
			t.Fatal(err)
		}
		var cmds []string
		for _, r := range got {
			cmds = append(cmds, r.Command)
		}
		if g := strings.Join(cmds, " "); g != tt.want {
			t.Errorf("Audit(%+v) = %q, want %q", tt.q, g, tt.want)
		}
	}
}

func TestAuditEmpty(t *testing.T) {
	s := Open(filepath.Join(t.TempDir(), "nothing-yet"), nil)
	defer s.Close()
	got, err := s.Audit(Query{})
	if err != nil || len(got) != 0 {
		t.Fatalf("Audit on a new store = %v, %v", got, err)
	}
}

func TestNoDoubleImport(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	for i := range 3 {
		s.Append(rec(fmt.Sprint("a", i), "allow", time.Time{}))
	}
	for range 3 {
		if got, err := s.Audit(Query{}); err != nil || len(got) != 3 {
			t.Fatalf("Audit = %d records, %v; want 3", len(got), err)
		}
	}
	// A second Store (another process) sees the same, imports nothing again.
	s2 := Open(dir, nil)
	defer s2.Close()
	s2.Append(rec("b", "allow", time.Time{}))
	if got, err := s2.Audit(Query{}); err != nil || len(got) != 4 {
		t.Fatalf("Audit = %d records, %v; want 4", len(got), err)
	}
	if got, err := s.Audit(Query{}); err != nil || len(got) != 4 {
		t.Fatalf("Audit = %d records, %v; want 4", len(got), err)
	}
}

func TestLongCommandIsOneWrite(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	long := "echo " + strings.Repeat("é\"x", 20000) // escapes and multi-byte runes
	if err := s.Append(rec(long, "allow", time.Time{})); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, journalName))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > maxRecord || bytes.Count(b, []byte("\n")) != 1 {
		t.Fatalf("journal holds %d bytes in %d lines, want one line of at most %d", len(b), bytes.Count(b, []byte("\n")), maxRecord)
	}
	got, err := s.Audit(Query{})
	if err != nil || len(got) != 1 {
		t.Fatalf("Audit = %v, %v", got, err)
	}
	if !strings.HasPrefix(got[0].Command, "echo é\"x") || !strings.HasSuffix(got[0].Command, cutMark) {
		t.Errorf("cut command = %q", got[0].Command)
	}
}

// TestTornLines writes what a crash or a full disk can leave in the
// journal: a record cut short with the next one appended to it, a garbage
// line, and an unfinished last line.
func TestTornLines(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	s.Append(rec("one", "allow", time.Time{}))
	f, err := os.OpenFile(filepath.Join(dir, journalName), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"time":"2026-12-01T10:00:00Z","agent":"x","comm`) // torn
	f.Close()
	s.Append(rec("two", "allow", time.Time{})) // glued to the torn one
	f, _ = os.OpenFile(filepath.Join(dir, journalName), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("garbage line\n")
	f.WriteString(`{"time":"2026-12-01T10:00:00Z","command":"unfinished"`) // no newline yet
	f.Close()

	got, err := s.Audit(Query{})
	if err != nil {
		t.Fatal(err)
	}
	if cmds := commands(got); cmds != "one two" && cmds != "two one" {
		t.Fatalf("imported %q, want one and two", cmds)
	}
	// The unfinished line was not consumed: once it ends, it is imported.
	f, _ = os.OpenFile(filepath.Join(dir, journalName), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("}\n")
	f.Close()
	got, err = s.Audit(Query{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(commands(got), "unfinished") || len(got) != 3 {
		t.Fatalf("after the line ended: %q", commands(got))
	}
}

// TestRotation appends from many goroutines, each with its own Store (as
// separate processes would), into a journal that rotates every few records.
func TestRotation(t *testing.T) {
	dir := t.TempDir()
	const workers, each = 10, 60
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			s := Open(dir, nil)
			s.maxJournal = 2048
			defer s.Close()
			for i := range each {
				if err := s.Append(rec(fmt.Sprintf("w%d-%d", w, i), "allow", time.Time{})); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s := Open(dir, nil)
	defer s.Close()
	got, err := s.Audit(Query{})
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, got, workers*each)
	if _, err := os.Stat(filepath.Join(dir, oldJournalName)); err != nil {
		t.Errorf("journal never rotated: %v", err)
	}
}

// TestConcurrentImporters runs Audit from many goroutines with separate
// Stores while records are appended: no "database is locked", no record
// imported twice.
func TestConcurrentImporters(t *testing.T) {
	dir := t.TempDir()
	const appenders, each, auditors = 4, 50, 6
	var wg sync.WaitGroup
	errs := make(chan error, appenders+auditors)
	for a := range appenders {
		wg.Go(func() {
			s := Open(dir, nil)
			defer s.Close()
			for i := range each {
				if err := s.Append(rec(fmt.Sprintf("a%d-%d", a, i), "allow", time.Time{})); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for range auditors {
		wg.Go(func() {
			s := Open(dir, nil)
			defer s.Close()
			for range 15 {
				if _, err := s.Audit(Query{Limit: 3}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s := Open(dir, nil)
	defer s.Close()
	got, err := s.Audit(Query{})
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, got, appenders*each)
}

// TestConcurrentProcesses starts 50 processes that each append one record
// and 8 that import and query at the same time.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 58 processes")
	}
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for i := range 50 {
		c := exec.Command(self)
		c.Env = append(os.Environ(), envChildDir+"="+dir, envChildAppend+"="+strconv.Itoa(i))
		cmds = append(cmds, c)
		if i%6 == 0 {
			c := exec.Command(self)
			c.Env = append(os.Environ(), envChildDir+"="+dir, envChildAudit+"=3")
			cmds = append(cmds, c)
		}
	}
	var out [](*bytes.Buffer)
	for _, c := range cmds {
		var b bytes.Buffer
		c.Stderr = &b
		out = append(out, &b)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("child %d: %v: %s", i, err, out[i])
		}
	}
	s := Open(dir, nil)
	defer s.Close()
	got, err := s.Audit(Query{})
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, got, 50)
	for _, r := range got {
		if r.Agent != "proc" || r.Decision != "allow" || !strings.HasPrefix(r.Command, "echo ") {
			t.Errorf("corrupted record %+v", r)
		}
	}
}

// TestRotationProcesses has 20 processes append 30 records each into a
// journal that rotates every 4 KiB, while 4 more import.
func TestRotationProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 24 processes")
	}
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for i := range 24 {
		c := exec.Command(self)
		c.Env = append(os.Environ(), envChildDir+"="+dir, envChildMany+"=30")
		if i%6 == 5 {
			c.Env = append(os.Environ(), envChildDir+"="+dir, envChildAudit+"=10")
		}
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Error(err)
		}
	}
	s := Open(dir, nil)
	defer s.Close()
	got, err := s.Audit(Query{})
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, got, 20*30)
	if _, err := os.Stat(filepath.Join(dir, oldJournalName)); err != nil {
		t.Errorf("journal never rotated: %v", err)
	}
}

func TestDatabaseErrors(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	s.Append(rec("x", "allow", time.Time{}))
	os.WriteFile(filepath.Join(dir, dbName), bytes.Repeat([]byte("not a database "), 1000), 0o600)
	_, err := s.Audit(Query{})
	var de *DBError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v (%T), want a DBError", err, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "is not an SQLite database; move it aside") || strings.Contains(msg, "\n") {
		t.Errorf("message %q", msg)
	}

	for code, want := range map[sqlite3.ErrNo]string{
		sqlite3.ErrBusy:    "the guard database /x/audit.db is busy: another guard held it for too long; try again",
		sqlite3.ErrCorrupt: "the guard database /x/audit.db is damaged; move it aside",
		sqlite3.ErrFull:    "the guard database /x/audit.db cannot grow: the disk is full; free some space",
	} {
		got := explainDB("/x/audit.db", sqlite3.Error{Code: code}).Error()
		if !strings.HasPrefix(got, want) {
			t.Errorf("explainDB(%v) = %q, want %q…", code, got, want)
		}
	}
}

// TestWaitsForLock holds the database's write lock from another connection
// for a while: Audit waits for it instead of failing.
func TestWaitsForLock(t *testing.T) {
	dir := t.TempDir()
	holder := Open(dir, nil)
	defer holder.Close()
	holder.Append(rec("x", "allow", time.Time{}))
	if _, err := holder.Audit(Query{}); err != nil {
		t.Fatal(err)
	}
	db, _ := holder.database()
	tx, err := db.Begin() // BEGIN IMMEDIATE: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		tx.Rollback()
	}()
	s := Open(dir, nil)
	defer s.Close()
	s.Append(rec("y", "allow", time.Time{}))
	got, err := s.Audit(Query{})
	if err != nil || len(got) != 2 {
		t.Fatalf("Audit = %d records, %v", len(got), err)
	}
}

// TestImport is what guard-cli audit --import does for the hot binary:
// import, and rotate a journal that is due.
func TestImport(t *testing.T) {
	dir := t.TempDir()
	w := Open(dir, nil) // appends without ever rotating (8 MiB)
	defer w.Close()
	for i := range 20 {
		w.Append(rec(fmt.Sprint("a", i), "allow", time.Time{}))
	}
	s := Open(dir, nil)
	defer s.Close()
	s.maxJournal = 1 << 20
	if err := s.Import(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, oldJournalName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a journal under its limit was rotated: %v", err)
	}
	s.maxJournal = 1024
	if err := s.Import(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, oldJournalName)); err != nil {
		t.Fatalf("the full journal was not rotated: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, journalName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("audit.jsonl still there: %v", err)
	}
	w.Append(rec("b", "allow", time.Time{}))
	got, err := s.Audit(Query{})
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, got, 21)
}

// TestImporterProcesses wires the two binaries as guard does: 10 processes
// of a build without cgo (this package's tests, built with CGO_ENABLED=0)
// append 30 records each (45 KiB) into a journal that is full every 16 KiB,
// and their importer runs this binary, with SQLite, to Import. Only the
// importer can rotate below 64 KiB (maxBacklog), and no record is lost.
func TestImporterProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package without cgo")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip(err)
	}
	hot := filepath.Join(t.TempDir(), "ccs-nocgo.test")
	build := exec.Command(gobin, "test", "-c", "-o", hot, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build without cgo: %v\n%s", err, out)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for range 10 {
		c := exec.Command(hot)
		c.Env = append(os.Environ(), envChildDir+"="+dir, envChildMany+"=30", envChildImporter+"="+self)
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Error(err)
		}
	}
	s := Open(dir, nil)
	defer s.Close()
	got, err := s.Audit(Query{})
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, got, 10*30)
	if _, err := os.Stat(filepath.Join(dir, oldJournalName)); err != nil {
		t.Errorf("the importer never rotated the journal: %v", err)
	}
}
