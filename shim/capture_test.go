package shim

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/redact"
)

// captured runs text under capture with the agent's stdout and stderr
// being files (read back after the run), and returns what the agent got and
// what was kept.
func captured(t *testing.T, text string, merged bool, red *redact.Redactor) (out, errOut []byte, chunks []ccs.Chunk, res runResult) {
	return capturedTo(t, "file", text, merged, red)
}

// capturedTo is captured with the agent's ends being dest: "file", or
// "pipe" (read by the test as the agent would: the command's output then
// passes through guard).
func capturedTo(t *testing.T, dest, text string, merged bool, red *redact.Redactor) (out, errOut []byte, chunks []ccs.Chunk, res runResult) {
	t.Helper()
	var files [2]*os.File
	var got [2]chan []byte
	for i := range 2 {
		if i == 1 && merged {
			files[1] = files[0]
			break
		}
		if dest == "file" {
			f, err := os.Create(filepath.Join(t.TempDir(), "out"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			files[i] = f
			continue
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		files[i] = w
		got[i] = make(chan []byte, 1)
		go func(c chan<- []byte) {
			b, _ := io.ReadAll(r)
			r.Close()
			c <- b
		}(got[i])
	}
	c, err := newCapture(files[0], files[1], true, red)
	if err != nil {
		t.Fatal(err)
	}
	if (c.back[ccs.Stdout] != nil) != (dest == "file" && red == nil) {
		t.Fatalf("dest %s: read back %v", dest, c.back[ccs.Stdout] != nil)
	}
	c.keep.SetRedactor(func() *redact.Redactor { return redact.New(nil) }) // as prepareStore does
	res = runBash(t, text, func(sp *runSpec) {
		sp.Stdout, sp.Stderr, sp.Capture = c.write[ccs.Stdout], c.write[ccs.Stderr], c
	})
	outs := [2][]byte{}
	for i := range 2 {
		if i == 1 && merged {
			break
		}
		if dest == "file" {
			outs[i], _ = os.ReadFile(files[i].Name())
			continue
		}
		files[i].Close()
		outs[i] = <-got[i]
	}
	chunks, _ = c.keep.Output(redact.New(nil))
	return outs[0], outs[1], chunks, res
}

func joined(chunks []ccs.Chunk, stream int) []byte {
	var b []byte
	for _, c := range chunks {
		if c.Stream == stream {
			b = append(b, c.Data...)
		}
	}
	return b
}

// TestCaptureByteExact: the agent gets every byte of both streams, and the
// store keeps the same.
func TestCaptureByteExact(t *testing.T) {
	dir := t.TempDir()
	data := make([]byte, 1<<20)
	rand.Read(data)
	in := filepath.Join(dir, "in")
	os.WriteFile(in, data, 0o600)
	for _, dest := range []string{"file", "pipe"} {
		out, errOut, chunks, res := capturedTo(t, dest, "cat "+in+"; cat "+in+" >&2; exit 3", false, nil)
		if res.Exit != 3 || !bytes.Equal(out, data) || !bytes.Equal(errOut, data) {
			t.Fatalf("%s: exit %d, stdout %d bytes, stderr %d bytes", dest, res.Exit, len(out), len(errOut))
		}
		// random bytes now and then hold something that redacts (a
		// label and a value): the store keeps what redaction makes of them
		want := redact.New(nil).Bytes(data)
		if !bytes.Equal(joined(chunks, ccs.Stdout), want) || !bytes.Equal(joined(chunks, ccs.Stderr), want) {
			t.Errorf("%s: the store kept other bytes than the agent got", dest)
		}
	}
}

// TestCaptureMergedOrder: with stdout and stderr one file (2>&1), their
// interleaving is exactly the command's.
func TestCaptureMergedOrder(t *testing.T) {
	var script, want strings.Builder
	for i := 0; i < 200; i++ {
		script.WriteString("echo o" + string(rune('0'+i%10)) + "; echo e >&2; ")
		want.WriteString("o" + string(rune('0'+i%10)) + "\ne\n")
	}
	for _, dest := range []string{"file", "pipe"} {
		out, _, chunks, _ := capturedTo(t, dest, script.String(), true, nil)
		if string(out) != want.String() || string(joined(chunks, ccs.Stdout)) != want.String() {
			t.Errorf("%s: merged output reordered:\n%.80q", dest, out)
		}
	}
}

// TestCaptureLive: output reaches the agent while the command still runs.
func TestCaptureLive(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, err := newCapture(w, w, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan time.Time, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		if line == "first\n" {
			got <- time.Now()
		}
		io.Copy(io.Discard, r)
	}()
	start := time.Now()
	runBash(t, "echo first; sleep 1.5; echo second", func(sp *runSpec) {
		sp.Stdout, sp.Stderr, sp.Capture = c.write[ccs.Stdout], c.write[ccs.Stderr], c
	})
	w.Close()
	select {
	case at := <-got:
		if at.Sub(start) > time.Second {
			t.Errorf("first line arrived after %v: held back", at.Sub(start))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("first line never arrived")
	}
}

// TestCaptureRedactLive: redact_live keeps a secret from the agent, a line at
// a time, and holds a private key block until it ends.
func TestCaptureRedactLive(t *testing.T) {
	red := redact.New(nil)
	dir := t.TempDir()
	key := "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234567890abcdefghij\nqrstuvwxyzABCDEFGHIJ0987654321\n-----END RSA PRIVATE KEY-----\n"
	os.WriteFile(filepath.Join(dir, "k"), []byte(key), 0o600)
	text := "echo token ghp_abcdefghijklmnopqrstuvwxyz0123456789; head -c 40 " + dir + "/k; sleep 0.2; tail -c +41 " + dir + "/k; echo plain"
	out, _, _, _ := captured(t, text, false, red)
	s := string(out)
	if strings.Contains(s, "ghp_abcdef") || strings.Contains(s, "MIIEpAIB") || strings.Contains(s, "qrstuvwxyzABCDEF") || !strings.Contains(s, "plain\n") {
		t.Errorf("agent saw:\n%s", s)
	}
}

// TestCaptureBackgroundHolder: a background process that keeps the pipe
// open does not hold guard beyond the drain bound, and the run is marked
// cut (never served).
func TestCaptureBackgroundHolder(t *testing.T) {
	start := time.Now()
	r, f, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer f.Close()
	go io.Copy(io.Discard, r)
	c, err := newCapture(f, f, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	runBash(t, "echo hi; (sleep 5 &) ; true", func(sp *runSpec) {
		sp.Stdout, sp.Stderr, sp.Capture = c.write[ccs.Stdout], c.write[ccs.Stderr], c
	})
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("guard waited %v for a background process", d)
	}
	if !c.cut {
		t.Error("output held open by a background process was not marked cut")
	}
}

func TestDetaches(t *testing.T) {
	for text, want := range map[string]bool{
		"npm run dev &":                 true,
		"sleep 1 & wait":                true,
		"nohup ./server":                true,
		"setsid ./server":               true,
		"bash -c 'server &'":            true,
		"go test ./...":                 false,
		"git status && git diff":        false,
		"make 2>&1 | tee build.log":     false,
		"echo '&' and 'nohup' in words": false,
	} {
		if got := detaches(classify.Analyze(text, classify.Options{Cwd: "/p"})); got != want {
			t.Errorf("detaches(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestCaptureReadBack: a stream that goes to the agent's regular file is
// not piped; what the command appended after the agent's own text is kept,
// from a write-only handle, and only that.
func TestCaptureReadBack(t *testing.T) {
	name := filepath.Join(t.TempDir(), "out")
	os.WriteFile(name, []byte("the agent's own text\n"), 0o600)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := newCapture(f, f, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.back[ccs.Stdout] == nil || c.read[ccs.Stdout] != nil {
		t.Fatal("a regular file was piped")
	}
	res := runBash(t, "echo one; echo two >&2; exit 4", func(sp *runSpec) {
		sp.Stdout, sp.Stderr, sp.Capture = c.write[ccs.Stdout], c.write[ccs.Stderr], c
	})
	chunks, _ := c.keep.Output(redact.New(nil))
	if res.Exit != 4 || string(joined(chunks, ccs.Stdout)) != "one\ntwo\n" || c.keep.Truncated() {
		t.Errorf("exit %d, kept %q (truncated %v)", res.Exit, joined(chunks, ccs.Stdout), c.keep.Truncated())
	}
	if _, err := f.Write([]byte("after\n")); err != nil {
		t.Errorf("the agent's file was closed: %v", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "the agent's own text\none\ntwo\nafter\n" {
		t.Errorf("the agent's file holds %q", b)
	}
}

// TestCaptureReadBackOffset: with a handle that does not append, the
// output starts where the agent's handle stood; past the limit the run is
// kept cut short and marked truncated.
func TestCaptureReadBackOffset(t *testing.T) {
	name := filepath.Join(t.TempDir(), "out")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("header\n")
	c, err := newCapture(f, f, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.keep.SetLimit(1000)
	runBash(t, "seq 1 1000", func(sp *runSpec) {
		sp.Stdout, sp.Stderr, sp.Capture = c.write[ccs.Stdout], c.write[ccs.Stderr], c
	})
	chunks, _ := c.keep.Output(redact.New(nil))
	kept := string(joined(chunks, ccs.Stdout))
	if !strings.HasPrefix(kept, "1\n2\n3\n") || len(kept) != 1000 || !c.keep.Truncated() {
		t.Errorf("kept %d bytes starting %.20q, truncated %v", len(kept), kept, c.keep.Truncated())
	}
}

// TestCapturePipeGrows: a stream past bigPipeAt moves through 1 MiB pipes,
// the agent's included, so a command that prints at full speed costs a
// wake-up per MiB, not per 64 KiB; a short output leaves the agent's pipe
// as it was.
func TestCapturePipeGrows(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{{"head -c 3000000 /dev/zero", bigPipe}, {"echo short", 64 << 10}} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go io.Copy(io.Discard, r)
		c, err := newCapture(w, w, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.keep.SetLimit(ccs.MaxRecord)
		runBash(t, tc.text, func(sp *runSpec) {
			sp.Stdout, sp.Stderr, sp.Capture = c.write[ccs.Stdout], c.write[ccs.Stderr], c
		})
		got, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
		if err != nil || got != tc.want {
			t.Errorf("%s: the agent's pipe holds %d bytes (%v), want %d", tc.text, got, err, tc.want)
		}
		w.Close()
		r.Close()
	}
}

// TestCaptureReadBackHolder: a process the command left running in its
// group may still write to the agent's file after guard read it back: the
// run is marked cut (kept, never served), and guard does not wait for it.
func TestCaptureReadBackHolder(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tc := range []struct {
		text string
		cut  bool
	}{{"echo hi; (sleep 3; echo late) &", true}, {"echo hi", false}} {
		c, err := newCapture(f, f, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		runBash(t, tc.text, func(sp *runSpec) {
			sp.Stdout, sp.Stderr, sp.Capture = c.write[ccs.Stdout], c.write[ccs.Stderr], c
		})
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: guard waited %v", tc.text, d)
		}
		if c.cut != tc.cut {
			t.Errorf("%s: cut %v, want %v", tc.text, c.cut, tc.cut)
		}
	}
}
