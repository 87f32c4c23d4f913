package redact

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/corpus")

// TestCorpus runs realistic command output (testdata/corpus/*.txtar, as the
// tools print it, with fake but format-valid secrets) through the
// redactor. A file's "in" must come out as its "want"; a file with no
// "want" (benign-*) must come out byte for byte. Every file also goes
// through the Writer in small writes, which must agree.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	r := New(nil)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var in, want []byte
			wantAt := -1
			for i, f := range ar.Files {
				switch f.Name {
				case "in":
					in = f.Data
				case "want":
					want, wantAt = f.Data, i
				}
			}
			benign := strings.HasPrefix(filepath.Base(file), "benign-")
			if benign {
				want = in
			}
			got := r.Bytes(in)
			if *update && !benign {
				if wantAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					wantAt = len(ar.Files) - 1
				}
				ar.Files[wantAt].Data = got
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal(got, want) {
				t.Errorf("redacted output differs from want:\n%s", lineDiff(want, got))
			}
			for _, sizes := range [][]byte{{1}, {5, 3}, {200}} {
				if s := streamOf(t, r, in, sizes); !bytes.Equal(s, got) {
					t.Errorf("writes of %v differ from the whole buffer:\n%s", sizes, lineDiff(got, s))
				}
			}
		})
	}
}

// lineDiff shows the lines of a and b that differ.
func lineDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	var sb strings.Builder
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			sb.WriteString("- " + x + "\n+ " + y + "\n")
		}
	}
	return sb.String()
}

// benignCorpus is the "in" of every benign corpus file, repeated to 1 MiB.
func benignCorpus(tb testing.TB) []byte {
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "benign-*.txtar"))
	var one []byte
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "in" {
				one = append(one, f.Data...)
			}
		}
	}
	if len(one) == 0 {
		tb.Fatal("no benign corpus")
	}
	return bytes.Repeat(one, (1<<20)/len(one)+1)
}
