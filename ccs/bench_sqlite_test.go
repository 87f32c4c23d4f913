//go:build cgo

package ccs

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkSQLiteInsert is the alternative it was measured against: open
// the database (WAL, busy timeout) and insert one row, per record.
func BenchmarkSQLiteInsert(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	dsn := fmt.Sprintf("file:%s?_journal_mode=WAL&_busy_timeout=5000&_txlock=immediate&_synchronous=NORMAL", path)
	setup, err := sql.Open("sqlite3", dsn)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := setup.Exec(schema); err != nil {
		b.Fatal(err)
	}
	setup.Close()
	r := rec("git log --oneline -n 20 -- ./cmd/guard/main.go", "allow", time.Now())
	for b.Loop() {
		db, err := sql.Open("sqlite3", dsn)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO audit (time, agent, cwd, command, sha256, decision, rule, answer, mode, exit, duration_ms)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.Time.UnixNano(), r.Agent, r.Cwd, r.Command, r.HMAC,
			r.Decision, r.Rule, r.Answer, r.Mode, r.Exit, r.DurationMS); err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}

// BenchmarkImport measures Audit's catching up: 1000 new journal lines
// imported and the newest 20 read back.
func BenchmarkImport(b *testing.B) {
	r := rec("git status", "allow", time.Now())
	for b.Loop() {
		b.StopTimer()
		s := Open(b.TempDir(), nil)
		for range 1000 {
			s.Append(r)
		}
		b.StartTimer()
		if _, err := s.Audit(Query{Limit: 20}); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
