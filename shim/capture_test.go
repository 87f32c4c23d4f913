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

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/redact"
)

// captured runs text under capture with the agent's stdout and stderr
// being files, and returns what the agent got and what was kept.
func captured(t *testing.T, text string, merged bool, red *redact.Redactor) (out, errOut []byte, chunks []ccs.Chunk, res runResult) {
	t.Helper()
	dir := t.TempDir()
	stdout, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	stderr := stdout
	if !merged {
		if stderr, err = os.Create(filepath.Join(dir, "err")); err != nil {
			t.Fatal(err)
		}
		defer stderr.Close()
	}
	c, err := newCapture(stdout, stderr, true, red)
	if err != nil {
		t.Fatal(err)
	}
	c.keep.SetRedactor(func() *redact.Redactor { return redact.New(nil) }) // as prepareStore does
	res = runBash(t, text, func(sp *runSpec) {
		sp.Stdout, sp.Stderr, sp.Capture = c.write[ccs.Stdout], c.write[ccs.Stderr], c
	})
	out, _ = os.ReadFile(stdout.Name())
	if !merged {
		errOut, _ = os.ReadFile(stderr.Name())
	}
	chunks, _ = c.keep.Output(redact.New(nil))
	return out, errOut, chunks, res
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
	out, errOut, chunks, res := captured(t, "cat "+in+"; cat "+in+" >&2; exit 3", false, nil)
	if res.Exit != 3 || !bytes.Equal(out, data) || !bytes.Equal(errOut, data) {
		t.Fatalf("exit %d, stdout %d bytes, stderr %d bytes", res.Exit, len(out), len(errOut))
	}
	if !bytes.Equal(joined(chunks, ccs.Stdout), data) || !bytes.Equal(joined(chunks, ccs.Stderr), data) {
		t.Error("the store kept other bytes than the agent got")
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
	out, _, chunks, _ := captured(t, script.String(), true, nil)
	if string(out) != want.String() || string(joined(chunks, ccs.Stdout)) != want.String() {
		t.Errorf("merged output reordered:\n%.80q", out)
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
	dir := t.TempDir()
	f, _ := os.Create(filepath.Join(dir, "out"))
	defer f.Close()
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
