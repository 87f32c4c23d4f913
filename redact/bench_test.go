package redact

import (
	"io"
	"strings"
	"testing"
)

// benchInputs are 1 MiB of text: build-log-like lines without any trigger,
// the same with a secret every 4 KiB, and short commands as guard records
// them.
func benchInputs() map[string][]byte {
	line := "ok  \tgithub.com/example/project/internal/pkg\t0.123s\tcoverage: 81.2% of statements\n"
	plain := strings.Repeat(line, (1<<20)/len(line))
	var mixed strings.Builder
	for mixed.Len() < 1<<20 {
		mixed.WriteString(strings.Repeat(line, 50))
		mixed.WriteString("export GITHUB_TOKEN=" + ghp + " url=https://u:p4ssw0rd@h/x\n")
	}
	return map[string][]byte{
		"plain-1MiB":   []byte(plain),
		"secrets-1MiB": []byte(mixed.String()),
		"labels-1MiB":  []byte(strings.Repeat("password=hunter2 [REDACTED:credential] ", (1<<20)/39)),
		"command":      []byte("git log --oneline -n 20 -- ./cmd/guard/main.go | head -5"),
		"command-url":  []byte("git clone https://github.com/guard-dev/guard.git /tmp/x && cd /tmp/x"),
	}
}

func BenchmarkRedact(b *testing.B) {
	r := New([]string{"GITHUB_TOKEN=" + ghp, "AWS_SECRET_ACCESS_KEY=" + awsSecret})
	for name, in := range benchInputs() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				r.Bytes(in)
			}
		})
	}
}

func BenchmarkWriter(b *testing.B) {
	r := New(nil)
	in := benchInputs()["plain-1MiB"]
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		w := r.Writer(io.Discard)
		for off := 0; off < len(in); off += 4096 {
			w.Write(in[off:min(off+4096, len(in))])
		}
		w.Close()
	}
}

// BenchmarkBaseline is bytes.IndexByte-free work of the same size (a sum
// of bytes), to tell a slow machine from slow code: compare MB/s.
func BenchmarkBaseline(b *testing.B) {
	in := benchInputs()["plain-1MiB"]
	b.SetBytes(int64(len(in)))
	var sink byte
	for b.Loop() {
		var s byte
		for _, c := range in {
			s += c
		}
		sink += s
	}
	_ = sink
}

// BenchmarkNew is what the shim pays once per recorded command: building
// the tables (nothing is compiled until a trigger is seen).
func BenchmarkNew(b *testing.B) {
	env := []string{"HOME=/home/u", "PATH=/usr/bin:/bin", "GITHUB_TOKEN=" + ghp, "AWS_SECRET_ACCESS_KEY=" + awsSecret}
	for b.Loop() {
		New(env)
	}
}

// BenchmarkCorpus redacts the benign corpus (ordinary output of go, npm,
// docker, kubectl, grep), all of it, as one buffer.
func BenchmarkCorpus(b *testing.B) {
	in := benignCorpus(b)
	r := New(nil)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		r.Bytes(in)
	}
}
