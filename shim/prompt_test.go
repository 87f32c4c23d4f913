package shim

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// ptyTerm is a pseudo-terminal: the prompt gets the tty end, the test plays
// the human on the master end.
type ptyTerm struct {
	master, tty *os.File
	mu          sync.Mutex
	out         bytes.Buffer
}

func newPty(t *testing.T) *ptyTerm {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	p := &ptyTerm{master: master, tty: tty}
	t.Cleanup(func() { tty.Close(); master.Close() })
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			p.mu.Lock()
			p.out.Write(b[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return p
}

// waitFor waits until the terminal showed s.
func (p *ptyTerm) waitFor(t *testing.T, s string) {
	t.Helper()
	for i := 0; i < 500; i++ {
		p.mu.Lock()
		ok := strings.Contains(p.out.String(), s)
		p.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("terminal never showed %q; got:\n%s", s, p.shown())
}

func (p *ptyTerm) shown() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

func (p *ptyTerm) termios(t *testing.T) *unix.Termios {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(p.tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio
}

type promptResult struct {
	a   Answer
	pat string
	err error
}

// ask runs Prompt on the pty, types keys once the question is up, and checks
// that the terminal mode was restored.
func ask(t *testing.T, q Question, timeout time.Duration, keys ...string) promptResult {
	t.Helper()
	p := newPty(t)
	before := p.termios(t)
	done := make(chan promptResult, 1)
	go func() {
		a, pat, err := Prompt(p.tty, q, timeout)
		done <- promptResult{a, pat, err}
	}()
	p.waitFor(t, "answer (deny in")
	for _, k := range keys {
		if k == "<close>" {
			p.master.Close()
			continue
		}
		if k == "<wait-pattern>" {
			p.waitFor(t, "pattern (enter")
			continue
		}
		if _, err := p.master.Write([]byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	var r promptResult
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("prompt did not return; terminal:\n%s", p.shown())
	}
	after := p.termios(t)
	if before.Lflag != after.Lflag || before.Iflag != after.Iflag || before.Oflag != after.Oflag || before.Cflag != after.Cflag {
		t.Errorf("terminal mode not restored: before %+v after %+v", before, after)
	}
	return r
}

var npmQ = Question{Command: "npm install left-pad", Risk: "high", Reason: "no grant covers it", Rule: "unknown", Suggest: "npm install *"}

func TestPromptAnswers(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want Answer
		pat  string
		err  error
	}{
		{[]string{"o"}, AnswerOnce, "", nil},
		{[]string{"p"}, AnswerProject, "npm install *", nil},
		{[]string{"g"}, AnswerGlobal, "npm install *", nil},
		{[]string{"d"}, AnswerDeny, "", nil},
		{[]string{"x", "z", "P"}, AnswerProject, "npm install *", nil},
		{[]string{"\x03"}, AnswerDeny, "", ErrAskCanceled},
		{[]string{"\x1b"}, AnswerDeny, "", ErrAskCanceled},
		{[]string{"\x04"}, AnswerDeny, "", ErrAskEOF},
		{[]string{"\x1b[A", "o"}, AnswerOnce, "", nil}, // an arrow key is not Esc
		// edit: erase "*", type "left-pad", accept, store for the project
		{[]string{"e", "<wait-pattern>", "\x7f", "left-pad\r", "p"}, AnswerProject, "npm install left-pad", nil},
		// edit: clear the line, type a new one, store everywhere
		{[]string{"e", "<wait-pattern>", "\x15", "npm ci\r", "g"}, AnswerGlobal, "npm ci", nil},
		{[]string{"e", "<wait-pattern>", "\r", "d"}, AnswerDeny, "", nil},
		{[]string{"e", "<wait-pattern>", "\x1b"}, AnswerDeny, "", ErrAskCanceled},
		{[]string{"e", "<wait-pattern>", "\x15\r"}, AnswerDeny, "", nil}, // empty pattern
	} {
		r := ask(t, npmQ, 10*time.Second, tc.keys...)
		if r.a != tc.want || r.pat != tc.pat || !errors.Is(r.err, tc.err) {
			t.Errorf("keys %q: got %v %q %v, want %v %q %v", tc.keys, r.a, r.pat, r.err, tc.want, tc.pat, tc.err)
		}
	}
}

func TestPromptOnceOnly(t *testing.T) {
	q := Question{Command: "ls | wc -l", Risk: "high", Reason: "composite", OnceOnly: true, Suggest: "ignored *"}
	// p, g and e are not offered: they are ignored until o.
	r := ask(t, q, 10*time.Second, "p", "g", "e", "o")
	if r.a != AnswerOnce || r.err != nil {
		t.Errorf("got %v %v", r.a, r.err)
	}
}

func TestPromptTimeout(t *testing.T) {
	r := ask(t, npmQ, time.Second)
	if r.a != AnswerDeny || !errors.Is(r.err, ErrAskTimeout) {
		t.Errorf("got %v %v", r.a, r.err)
	}
}

func TestPromptHangup(t *testing.T) {
	// No reader goroutine here: a pending read would keep the master open.
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer tty.Close()
	done := make(chan promptResult, 1)
	go func() {
		a, pat, err := Prompt(tty, npmQ, 10*time.Second)
		done <- promptResult{a, pat, err}
	}()
	var seen []byte
	b := make([]byte, 4096)
	for !bytes.Contains(seen, []byte("answer (deny in")) {
		n, err := master.Read(b)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, b[:n]...)
	}
	master.Close()
	select {
	case r := <-done:
		if r.a != AnswerDeny || !errors.Is(r.err, ErrAskEOF) {
			t.Errorf("got %v %v", r.a, r.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("prompt did not notice the hangup")
	}
}

func TestPromptShowsControlCharsEscaped(t *testing.T) {
	p := newPty(t)
	q := Question{Command: "echo hi\x1b[2K\rfake\u202e", Risk: "high", Reason: "x", OnceOnly: true}
	done := make(chan struct{})
	go func() { Prompt(p.tty, q, 10*time.Second); close(done) }()
	p.waitFor(t, "answer (deny in")
	p.master.Write([]byte("d"))
	<-done
	out := p.shown()
	if strings.Contains(out, "\x1b[2K") || strings.Contains(out, "\u202e") {
		t.Errorf("raw control sequence reached the terminal: %q", out)
	}
	if !strings.Contains(out, `echo hi\x1b[2K\x0dfake\u202e`) {
		t.Errorf("escaped command not shown: %q", out)
	}
}

func TestVisibleAndDuration(t *testing.T) {
	if got := visible("a\tb\x00"); got != `a    b\x00` {
		t.Errorf("visible: %q", got)
	}
	for d, want := range map[time.Duration]string{2 * time.Minute: "2m", 1500 * time.Millisecond: "1.5s", time.Hour: "1h", 90 * time.Second: "1m30s"} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
