package ccs

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkAppend is the hot path: one record, redacted and appended to
// the journal, as one guard process does it (a fresh Store each time).
func BenchmarkAppend(b *testing.B) {
	dir := b.TempDir()
	r := rec("git log --oneline -n 20 -- ./cmd/guard/main.go", "allow", time.Now())
	for b.Loop() {
		s := Open(dir, nil)
		if err := s.Append(r); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkTakeOnce is the look guard takes for an approval whenever it
// must ask: here 20 requests wait, none approved.
func BenchmarkTakeOnce(b *testing.B) {
	dir := b.TempDir()
	s := Open(dir, nil)
	for i := range 20 {
		if _, err := s.AddPending(Pending{Cwd: "/p", Command: "c", HMAC: fmt.Sprint(i)}); err != nil {
			b.Fatal(err)
		}
	}
	now := time.Now()
	for b.Loop() {
		if took, err := s.TakeOnce("x", "/p", now); took || err != nil {
			b.Fatal(took, err)
		}
	}
}

// BenchmarkAddPending stores a new request (a synced file) among 20.
func BenchmarkAddPending(b *testing.B) {
	dir := b.TempDir()
	s := Open(dir, nil)
	for i := range 20 {
		s.AddPending(Pending{Cwd: "/p", Command: "c", HMAC: fmt.Sprint(i)})
	}
	i := 0
	for b.Loop() {
		p, err := s.AddPending(Pending{Cwd: "/p", Command: "c", HMAC: fmt.Sprint("new", i)})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.Remove(filepath.Join(dir, pendingDirName, p.ID+".json"))
		i++
		b.StartTimer()
	}
}
