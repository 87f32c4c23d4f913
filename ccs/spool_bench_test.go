package ccs

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/guard-dev/guard/redact"
)

// BenchmarkSaveRun is what the lean guard pays to store one small run:
// one record appended to the spool under a shared flock (the choice).
func BenchmarkSaveRun(b *testing.B) {
	c := OpenCache(b.TempDir())
	r := &Run{Time: time.Now(), Command: "go test ./...", Cwd: "/p", Bytes: 12, Chunks: []Chunk{{Stdout, []byte("ok  example\n")}}}
	for i := 0; i < b.N; i++ {
		r.ID = ""
		if err := c.Save(r, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunFilePerRun is the alternative the spool replaced: a file per
// run, written and renamed into a spool directory.
func BenchmarkRunFilePerRun(b *testing.B) {
	dir := b.TempDir()
	r := &Run{Time: time.Now(), Command: "go test ./...", Cwd: "/p", Bytes: 12, Chunks: []Chunk{{Stdout, []byte("ok  example\n")}}}
	for i := 0; i < b.N; i++ {
		r.ID = newRunID(time.Now())
		if err := writeRunFile(filepath.Join(dir, r.ID+".run"), r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCaptureSmall is the in-memory part of capturing a small run:
// the redactor for the environment, the capture and its redaction.
func BenchmarkCaptureSmall(b *testing.B) {
	env := []string{"HOME=/root", "PATH=/usr/bin:/bin", "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "LANG=C"}
	for i := 0; i < b.N; i++ {
		red := redact.New(env)
		var c Capture
		c.Add(Stdout, []byte("ok  example 0.1s\n"))
		c.Output(red)
	}
}
