package ccs

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guard-dev/guard/redact"
)

func TestSumKey(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, nil)
	defer s.Close()
	a, err := s.Sum("git push --token=ab12")
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, keyName))
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Size() != keySize {
		t.Fatalf("key file: %v, %v", fi, err)
	}
	plain := sha256.Sum256([]byte("git push --token=ab12"))
	if len(a) != 64 || a == hex.EncodeToString(plain[:]) {
		t.Fatalf("Sum = %q: not a keyed hash", a)
	}
	// Another store of the same install reads the same key.
	s2 := Open(dir, nil)
	defer s2.Close()
	if b, err := s2.Sum("git push --token=ab12"); err != nil || b != a {
		t.Fatalf("same install: %q, %v; want %q", b, err, a)
	}
	if c, _ := s2.Sum("git push --token=ab13"); c == a {
		t.Fatal("two texts, one hash")
	}
	// Another install has another key.
	s3 := Open(t.TempDir(), nil)
	defer s3.Close()
	if c, _ := s3.Sum("git push --token=ab12"); c == a || c == "" {
		t.Fatalf("other install: %q", c)
	}
	// No temporary file is left behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestSumKeyNotRegular(t *testing.T) {
	for name, mk := range map[string]func(path string) error{
		"fifo":    func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"dir":     func(p string) error { return os.Mkdir(p, 0o700) },
		"symlink": func(p string) error { return os.Symlink("/dev/zero", p) },
		"short":   func(p string) error { return os.WriteFile(p, []byte("short"), 0o600) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := mk(filepath.Join(dir, keyName)); err != nil {
				t.Fatal(err)
			}
			s := Open(dir, nil)
			defer s.Close()
			done := make(chan error, 1)
			go func() { _, err := s.Sum("x"); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), keyName) {
					t.Fatalf("Sum with a %s key = %v; want an error naming the key", name, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("Sum hangs on a %s at the key's path", name)
			}
		})
	}
}

func TestSumKeyRace(t *testing.T) {
	dir := t.TempDir()
	sums := make(chan string, 8)
	for range 8 {
		go func() {
			s := Open(dir, nil)
			defer s.Close()
			v, err := s.Sum("same")
			if err != nil {
				t.Error(err)
			}
			sums <- v
		}()
	}
	first := <-sums
	for range 7 {
		if v := <-sums; v != first {
			t.Fatalf("racing first uses made two keys: %q, %q", first, v)
		}
	}
}

func TestRejected(t *testing.T) {
	s := Open(t.TempDir(), redact.New(nil))
	defer s.Close()
	t0 := time.Date(2026, 12, 1, 14, 2, 0, 0, time.Local)
	p, err := s.AddPending(Pending{Time: t0, Cwd: "/p/sub", Root: "/p", Command: "make deploy", HMAC: "h1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, found, _ := s.Rejected("h1", "/p", t0, time.Hour); found {
		t.Fatal("a pending request counts as rejected")
	}
	if err := s.Resolve(p.ID, StatusRejected, t0); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		hmac, root string
		at         time.Duration
		want       bool
	}{
		{"h1", "/p", time.Minute, true},
		{"h1", "/p", 59 * time.Minute, true},
		{"h1", "/p", time.Hour, false}, // the window has passed
		{"h2", "/p", time.Minute, false},
		{"h1", "/q", time.Minute, false},
		{"", "/p", time.Minute, false},
	} {
		got, found, err := s.Rejected(c.hmac, c.root, t0.Add(c.at), time.Hour)
		if err != nil || found != c.want || found && !got.Resolved.Equal(t0) {
			t.Errorf("Rejected(%q, %q, +%s) = %+v, %v, %v; want %v", c.hmac, c.root, c.at, got, found, err, c.want)
		}
	}
}

func TestResolveUsed(t *testing.T) {
	s := Open(t.TempDir(), nil)
	defer s.Close()
	now := time.Now()
	p, _ := s.AddPending(Pending{Time: now, Cwd: "/p", Command: "make", HMAC: "h"})
	if err := s.Resolve(p.ID, StatusUsed, now); err != nil {
		t.Fatal(err)
	}
	if took, _ := s.TakeOnce("h", "/p", now); took {
		t.Fatal("a request answered once in the console let its text run again")
	}
	if took, _ := s.TakeOnce("", "/p", now); took {
		t.Fatal("the empty hash matched")
	}
}

// TestImportLegacy reads a journal line written before the hash was keyed
// into a database made by the first schema, which is migrated.
func TestImportLegacy(t *testing.T) {
	if !haveSQLite {
		t.Skip("no SQLite")
	}
	dir := t.TempDir()
	db, err := sql.Open("sqlite3", filepath.Join(dir, dbName))
	if err != nil {
		t.Fatal(err)
	}
	v1 := strings.NewReplacer("hmac ", "sha256 ", "via         TEXT NOT NULL DEFAULT '',\n", "",
		",\n\trisk        TEXT NOT NULL DEFAULT '',\n\tpolicy_mode TEXT NOT NULL DEFAULT '',\n\tsession     TEXT NOT NULL DEFAULT '',\n\tconfined    TEXT NOT NULL DEFAULT '',\n\tproject     TEXT NOT NULL DEFAULT '',\n\toverhead_us INTEGER NOT NULL DEFAULT 0", "").Replace(schema)
	if _, err := db.Exec(v1 + `PRAGMA user_version = 1;
		INSERT INTO audit (time, agent, cwd, command, sha256, decision, rule, answer, mode, exit, duration_ms)
		VALUES (1, 'a', '/', 'old', 'oldsum', 'allow', '', 'user', 'shell', 0, 0);`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	line := `{"time":"2026-01-01T00:00:00Z","agent":"old","cwd":"/","command":"echo old","sha256":"abc","decision":"allow","rule":"","answer":"rule","mode":"shell","exit":0,"duration_ms":0}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, journalName), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	s := Open(dir, nil)
	defer s.Close()
	if err := s.Append(Record{Command: "echo new", HMAC: "def", Decision: "deny", Answer: AnswerDeny, Via: ViaConsole}); err != nil {
		t.Fatal(err)
	}
	recs, err := s.Audit(Query{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Record{}
	for _, r := range recs {
		got[r.Command] = r
	}
	if got["echo old"].HMAC != "abc" || got["old"].HMAC != "oldsum" || got["echo new"].HMAC != "def" || got["echo new"].Via != ViaConsole {
		t.Fatalf("records after migration: %+v", recs)
	}
}

// BenchmarkSumFirst is what the keyed hash costs a run of guard: read the
// key once, hash one command.
func BenchmarkSumFirst(b *testing.B) {
	dir := b.TempDir()
	if _, err := Open(dir, nil).Sum("warm"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Open(dir, nil).Sum("git log --oneline -n 20 -- ./cmd/guard/main.go"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHMACSHA256 holds guard's own HMAC to crypto/hmac and to RFC 4231's
// test case 2.
func TestHMACSHA256(t *testing.T) {
	got := hmacSHA256([]byte("Jefe"), []byte("what do ya want for nothing?"))
	if want := "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"; hex.EncodeToString(got[:]) != want {
		t.Errorf("RFC 4231 case 2: got %x", got)
	}
	for _, keyLen := range []int{0, 1, 32, 63, 64, 65, 200} {
		key := bytes.Repeat([]byte{byte(keyLen)}, keyLen)
		for _, msg := range []string{"", "git status", strings.Repeat("x", 1000)} {
			m := hmac.New(sha256.New, key)
			m.Write([]byte(msg))
			want := m.Sum(nil)
			if got := hmacSHA256(key, []byte(msg)); !bytes.Equal(got[:], want) {
				t.Errorf("key %d bytes, msg %d bytes: got %x, want %x", keyLen, len(msg), got, want)
			}
		}
	}
}
