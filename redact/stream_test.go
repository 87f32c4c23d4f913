package redact

import (
	"bytes"
	"strings"
	"testing"
)

// streamOf runs text through a Writer cut into writes of the given sizes
// (cycled; 0 counts as 1).
func streamOf(t testing.TB, r *Redactor, text []byte, sizes []byte) []byte {
	var buf bytes.Buffer
	w := r.Writer(&buf)
	for i, k := 0, 0; i < len(text); k++ {
		n := 1
		if len(sizes) > 0 {
			n = max(1, int(sizes[k%len(sizes)]))
		}
		n = min(n, len(text)-i)
		if _, err := w.Write(text[i : i+n]); err != nil {
			t.Fatal(err)
		}
		i += n
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// streamSeeds are texts whose chunked redaction must equal the whole-buffer
// one: every table entry, and multi-line blocks.
func streamSeeds() []string {
	var seeds []string
	for _, tt := range redactTests {
		seeds = append(seeds, tt.in)
	}
	for _, tt := range formatTests {
		seeds = append(seeds, tt.in)
	}
	for _, tt := range keepTests {
		seeds = append(seeds, tt)
	}
	for _, tt := range classTests {
		seeds = append(seeds, tt.in)
	}
	seeds = append(seeds,
		"a\n"+pem+"\nb\n",
		"-----BEGIN ENCRYPTED "+"PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\n"+pemBody+"\n"+pemBody[:30]+"\nnot base64 here\n",
		"x\n-----BEGIN "+"PRIVATE KEY-----\n"+pemBody+"\n",
		"-----BEGIN "+"PRIVATE KEY-----\n\n\nafter",
		strings.Repeat("line "+ghp+" password=abc\n", 3),
	)
	return seeds
}

// TestStreamEqualsWhole cuts every seed into writes of 1, 2, 3, 7 and 64
// bytes and at every single position.
func TestStreamEqualsWhole(t *testing.T) {
	r := New([]string{"X_TOKEN=envsecretvalue99"})
	for _, s := range streamSeeds() {
		text := []byte(s)
		want := r.Bytes(text)
		for _, sizes := range [][]byte{{1}, {2}, {3}, {7}, {64}, {1, 5, 2}} {
			if got := streamOf(t, r, text, sizes); !bytes.Equal(got, want) {
				t.Errorf("chunks %v of %q:\n got %q\nwant %q", sizes, s, got, want)
			}
		}
		for i := 0; i <= len(text); i++ {
			var buf bytes.Buffer
			w := r.Writer(&buf)
			w.Write(text[:i])
			w.Write(text[i:])
			w.Close()
			if !bytes.Equal(buf.Bytes(), want) {
				t.Fatalf("split at %d of %q:\n got %q\nwant %q", i, s, buf.Bytes(), want)
			}
		}
	}
}

// TestStreamLongLines checks the 64 KiB pieces of a line with no newline:
// the writer passes them on before the line ends, and still agrees with the
// whole buffer.
func TestStreamLongLines(t *testing.T) {
	r := New(nil)
	var b strings.Builder
	for b.Len() < 3*maxLine {
		b.WriteString("word " + ghp + " ")
	}
	b.WriteString(strings.Repeat("A", 2*maxLine)) // no separator at all
	text := []byte(b.String())
	want := r.Bytes(text)
	if bytes.Contains(want, []byte(ghp)) {
		t.Fatal("token survived in a long line")
	}
	var out bytes.Buffer
	w := r.Writer(&out)
	w.Write(text[:2*maxLine+10])
	if out.Len() == 0 {
		t.Fatal("nothing passed on after 2×64 KiB of one line")
	}
	if held := w.(*Stream).Buffered(); held > maxLine+carry {
		t.Fatalf("writer holds %d bytes, more than one piece and its seam", held)
	}
	w.Write(text[2*maxLine+10:])
	w.Close()
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatal("long line: stream differs from whole buffer")
	}
	for _, sizes := range [][]byte{{255}, {100, 3}} {
		if got := streamOf(t, r, text, sizes); !bytes.Equal(got, want) {
			t.Fatalf("long line in chunks %v differs", sizes)
		}
	}
}

// TestStreamLineDelay checks the live-redaction promise: a complete line is
// passed on by the Write that completes it.
func TestStreamLineDelay(t *testing.T) {
	r := New(nil)
	var out bytes.Buffer
	w := r.Writer(&out)
	w.Write([]byte("first line token=abc123def\nsecond"))
	if got := out.String(); got != "first line token=[REDACTED:credential]\n" {
		t.Fatalf("after one line: %q", got)
	}
	w.Write([]byte(" half\n"))
	if got := out.String(); !strings.HasSuffix(got, "second half\n") {
		t.Fatalf("after two lines: %q", got)
	}
	w.Close()
}

func FuzzRedactStream(f *testing.F) {
	for _, s := range streamSeeds() {
		f.Add(s, []byte{1})
		f.Add(s, []byte{3, 17, 1})
	}
	r := New([]string{"X_TOKEN=envsecretvalue99"})
	f.Fuzz(func(t *testing.T, text string, sizes []byte) {
		want := r.Bytes([]byte(text))
		if got := streamOf(t, r, []byte(text), sizes); !bytes.Equal(got, want) {
			t.Fatalf("stream differs from whole buffer:\n got %q\nwant %q", got, want)
		}
		if again := r.Bytes(want); !bytes.Equal(again, want) {
			t.Fatalf("not idempotent:\n once %q\ntwice %q", want, again)
		}
	})
}

// TestConcurrent redacts from many goroutines with one Redactor: the lazy
// compilation must be safe (run with -race).
func TestConcurrent(t *testing.T) {
	r := New([]string{"X_TOKEN=envsecretvalue99"})
	seeds := streamSeeds()
	done := make(chan bool)
	for g := range 8 {
		go func() {
			for i, s := range seeds {
				if (i+g)%3 == 0 {
					streamOf(t, r, []byte(s), []byte{7})
				} else {
					r.String(s)
				}
			}
			done <- true
		}()
	}
	for range 8 {
		<-done
	}
}

func TestStreamRedacted(t *testing.T) {
	r := New(nil)
	for in, want := range map[string]bool{"plain\nlines\n": false, "a\npassword=hunter2\n": true, "x\n" + pem: true} {
		s := r.Stream(&bytes.Buffer{})
		s.Write([]byte(in))
		s.Close()
		if s.Redacted() != want {
			t.Errorf("Redacted() after %q = %v, want %v", in, s.Redacted(), want)
		}
	}
}
