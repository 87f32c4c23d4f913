package ccs

import (
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
