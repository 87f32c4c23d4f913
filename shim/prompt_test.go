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
	cues        int // questions waited for (waitCue)
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
	r   Reply
	err error
}

// cueMark is in every line that asks for a key (and in no other line the
// tests' questions show).
const cueMark = "enter"

// waitCue waits for the next line asking for a key: keys typed earlier are
// thrown away by the prompt.
func (p *ptyTerm) waitCue(t *testing.T) {
	t.Helper()
	p.cues++
	for i := 0; i < 500; i++ {
		p.mu.Lock()
		n := strings.Count(p.out.String(), cueMark)
		p.mu.Unlock()
		if n >= p.cues {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("terminal never asked for key %d; got:\n%s", p.cues, p.shown())
}

// typeKeys types keys on the master: "<cue>" waits for the next question,
// "<close>" hangs up.
func (p *ptyTerm) typeKeys(t *testing.T, keys []string) {
	t.Helper()
	for _, k := range keys {
		switch k {
		case "<close>":
			p.master.Close()
		case "<cue>":
			p.waitCue(t)
		default:
			if _, err := p.master.Write([]byte(k)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// ask runs Prompt on the pty, types keys once the question is up, and checks
// that the terminal mode was restored.
func ask(t *testing.T, q Question, timeout time.Duration, keys ...string) promptResult {
	t.Helper()
	r, _ := askShown(t, q, timeout, keys...)
	return r
}

func askShown(t *testing.T, q Question, timeout time.Duration, keys ...string) (promptResult, string) {
	t.Helper()
	p := newPty(t)
	before := p.termios(t)
	done := make(chan promptResult, 1)
	go func() {
		r, err := Prompt(p.tty, q, timeout)
		done <- promptResult{r, err}
	}()
	if len(keys) == 0 || keys[0] != "<early>" {
		p.waitCue(t)
	} else {
		keys = keys[1:]
		p.waitFor(t, "the agent wants to run:")
	}
	p.typeKeys(t, keys)
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
	return r, p.shown()
}

var npmQ = Question{Command: "npm install left-pad", Risk: "high", Reason: "no grant covers it", Rule: "unknown", Suggest: "npm install *"}

func TestPromptAnswers(t *testing.T) {
	for _, tc := range []struct {
		keys    []string
		want    Answer
		pat     string
		outcome Outcome
		err     error
	}{
		{[]string{"o\r"}, AnswerOnce, "", OutcomeOnce, nil},
		{[]string{"p\r"}, AnswerProject, "npm install *", OutcomeProject, nil},
		{[]string{"g\r", "<cue>", "y\r"}, AnswerGlobal, "npm install *", OutcomeGlobal, nil},
		{[]string{"d\r"}, AnswerDeny, "", OutcomeDeny, nil},
		// an unknown key shows the choices again; so does a second key before enter
		{[]string{"x", "<cue>", "o", "z", "<cue>", "P\r"}, AnswerProject, "npm install *", OutcomeProject, nil},
		// enter alone answers nothing
		{[]string{"\r", "<cue>", "o\r"}, AnswerOnce, "", OutcomeOnce, nil},
		// g needs y: anything else goes back to the choices
		{[]string{"g\r", "<cue>", "\r", "<cue>", "g\r", "<cue>", "n", "<cue>", "d\r"}, AnswerDeny, "", OutcomeDeny, nil},
		{[]string{"g\r", "<cue>", "\x03"}, AnswerDeny, "", OutcomeCancelled, ErrAskCanceled},
		{[]string{"\x03"}, AnswerDeny, "", OutcomeCancelled, ErrAskCanceled},
		{[]string{"o\x03"}, AnswerDeny, "", OutcomeCancelled, ErrAskCanceled},
		{[]string{"\x1b"}, AnswerDeny, "", OutcomeCancelled, ErrAskCanceled},
		{[]string{"\x04"}, AnswerDeny, "", OutcomeCancelled, ErrAskEOF},
		{[]string{"\x1b[A", "o\r"}, AnswerOnce, "", OutcomeOnce, nil}, // an arrow key is not Esc
		// edit: erase "*", type "left-pad", accept, store for the project
		{[]string{"e\r", "<cue>", "\x7f", "left-pad\r", "<cue>", "p\r"}, AnswerProject, "npm install left-pad", OutcomeEdited, nil},
		// edit: clear the line, type a new one, store everywhere (confirmed)
		{[]string{"e\r", "<cue>", "\x15", "npm ci\r", "<cue>", "g\r", "<cue>", "y\r"}, AnswerGlobal, "npm ci", OutcomeEdited, nil},
		// edit: g without y goes back to p, g, d
		{[]string{"e\r", "<cue>", "\x15", "npm ci\r", "<cue>", "g\r", "<cue>", "x", "<cue>", "p\r"}, AnswerProject, "npm ci", OutcomeEdited, nil},
		// edit, unchanged: what it was stored as
		{[]string{"e\r", "<cue>", "\r", "<cue>", "p\r"}, AnswerProject, "npm install *", OutcomeProject, nil},
		{[]string{"e\r", "<cue>", "\r", "<cue>", "d\r"}, AnswerDeny, "", OutcomeDeny, nil},
		{[]string{"e\r", "<cue>", "\x1b"}, AnswerDeny, "", OutcomeCancelled, ErrAskCanceled},
		{[]string{"e\r", "<cue>", "\x15\r"}, AnswerDeny, "", OutcomeDeny, nil}, // empty pattern
	} {
		r := ask(t, npmQ, 10*time.Second, tc.keys...)
		if r.r.Answer != tc.want || r.r.Pattern != tc.pat || r.r.Outcome != tc.outcome || !errors.Is(r.err, tc.err) {
			t.Errorf("keys %q: got %v %q %q %v, want %v %q %q %v", tc.keys, r.r.Answer, r.r.Pattern, r.r.Outcome, r.err, tc.want, tc.pat, tc.outcome, tc.err)
		}
	}
}

// t stores the project grant for a while: enter takes 2h, or a duration
// typed; anything else goes back to the choices.
func TestPromptFor(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want Answer
		pat  string
		d    time.Duration
	}{
		{[]string{"t\r", "<cue>", "\r"}, AnswerProject, "npm install *", 2 * time.Hour},
		{[]string{"t\r", "<cue>", "30m\r"}, AnswerProject, "npm install *", 30 * time.Minute},
		{[]string{"t\r", "<cue>", "1d\r"}, AnswerProject, "npm install *", 24 * time.Hour},
		{[]string{"t\r", "<cue>", "soon\r", "<cue>", "d\r"}, AnswerDeny, "", 0},
		{[]string{"t\r", "<cue>", "0s\r", "<cue>", "p\r"}, AnswerProject, "npm install *", 0},
		{[]string{"e\r", "<cue>", "\x7f", "left-pad\r", "<cue>", "t\r", "<cue>", "3h\r"}, AnswerProject, "npm install left-pad", 3 * time.Hour},
	} {
		r := ask(t, npmQ, 10*time.Second, tc.keys...)
		if r.r.Answer != tc.want || r.r.Pattern != tc.pat || r.r.For != tc.d || r.err != nil {
			t.Errorf("keys %q: got %v %q %v %v", tc.keys, r.r.Answer, r.r.Pattern, r.r.For, r.err)
		}
	}
	for in, want := range map[string]time.Duration{"2h": 2 * time.Hour, "1d": 24 * time.Hour, "366d": 366 * 24 * time.Hour, "367d": 0, "0d": 0, "d": 0, "-1h": 0, "x": 0} {
		if got, ok := parseFor(in); got != want && ok || !ok && want != 0 {
			t.Errorf("parseFor(%q) = %v %v", in, got, ok)
		}
	}
}

func TestPromptKeyWithoutEnter(t *testing.T) {
	// o alone answers nothing: the prompt runs out of time.
	r := ask(t, npmQ, 1500*time.Millisecond, "o")
	if r.r.Answer != AnswerDeny || r.r.Outcome != OutcomeTimeout || !errors.Is(r.err, ErrAskTimeout) {
		t.Errorf("got %+v %v", r.r, r.err)
	}
}

func TestPromptEarlyKeysIgnored(t *testing.T) {
	// "Early" is the test's intent, not a promise: on a loaded machine its
	// keys can reach the terminal after the question has settled, where they
	// count. So each case passes when one of three tries behaves as it must;
	// a prompt that took early keys would fail all three.
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		keys    []string
		ok      func(promptResult) bool
	}{
		// Typed as soon as the question starts to show: thrown away.
		{"early o, enter", 1500 * time.Millisecond, []string{"<early>", "o\r"},
			func(r promptResult) bool { return r.r.Answer == AnswerDeny && errors.Is(r.err, ErrAskTimeout) }},
		// And the prompt still takes the answer typed after.
		{"early g, then p", 10 * time.Second, []string{"<early>", "g\r", "<cue>", "p\r"},
			func(r promptResult) bool { return r.r.Answer == AnswerProject && r.err == nil }},
		// Early keys before the confirmation of g do not confirm it.
		{"g, early y", 10 * time.Second, []string{"g\r", "y\r", "<cue>", "x", "<cue>", "d\r"},
			func(r promptResult) bool { return r.r.Answer == AnswerDeny && r.err == nil }},
	} {
		var got []promptResult
		for try := 0; try < 3; try++ {
			r := ask(t, npmQ, tc.timeout, tc.keys...)
			if tc.ok(r) {
				got = nil
				break
			}
			got = append(got, r)
		}
		if got != nil {
			t.Errorf("%s: every try took the early keys: %+v", tc.name, got)
		}
	}
}

func TestPromptView(t *testing.T) {
	q := Question{Command: "export STRIPE=[REDACTED:stripe]; echo done", Unredacted: "export STRIPE=sk_live_abc\x1b[2J; echo done",
		Risk: "high", Reason: "composite", OnceOnly: true}
	r, shown := askShown(t, q, 10*time.Second, "v\r", "<cue>", "d\r")
	if r.r.Answer != AnswerDeny || r.err != nil {
		t.Errorf("got %+v %v", r.r, r.err)
	}
	if strings.Count(shown, "[v] view unredacted") != 1 {
		t.Errorf("v offered other than once: %q", shown)
	}
	if !strings.Contains(shown, `    export STRIPE=sk_live_abc\x1b[2J; echo done`) || strings.Contains(shown, "\x1b[2J") {
		t.Errorf("unredacted text not shown escaped: %q", shown)
	}
	// v is offered once: a second v shows the choices again.
	_, shown = askShown(t, q, 10*time.Second, "v\r", "<cue>", "v\r", "<cue>", "d\r")
	if strings.Count(shown, "sk_live_abc") != 1 {
		t.Errorf("unredacted text shown %d times", strings.Count(shown, "sk_live_abc"))
	}
	q.Unredacted = q.Command
	_, shown = askShown(t, q, 10*time.Second, "v\r", "<cue>", "o\r")
	if !strings.Contains(shown, "nothing was redacted") {
		t.Errorf("equal text: %q", shown)
	}
	q.Unredacted = ""
	if _, shown = askShown(t, q, 10*time.Second, "d\r"); strings.Contains(shown, "[v]") {
		t.Errorf("v offered with nothing to view: %q", shown)
	}
}

func TestPromptOnceOnly(t *testing.T) {
	q := Question{Command: "ls | wc -l", Risk: "high", Reason: "composite", OnceOnly: true, Suggest: "ignored *"}
	// p, g and e are not offered: each shows the choices again.
	r := ask(t, q, 10*time.Second, "p\r", "<cue>", "g\r", "<cue>", "e\r", "<cue>", "o\r")
	if r.r.Answer != AnswerOnce || r.err != nil {
		t.Errorf("got %v %v", r.r, r.err)
	}
}

func TestPromptTimeout(t *testing.T) {
	r := ask(t, npmQ, time.Second)
	if r.r.Answer != AnswerDeny || r.r.Outcome != OutcomeTimeout || !errors.Is(r.err, ErrAskTimeout) {
		t.Errorf("got %v %v", r.r, r.err)
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
		r, err := Prompt(tty, npmQ, 10*time.Second)
		done <- promptResult{r, err}
	}()
	var seen []byte
	b := make([]byte, 4096)
	for !bytes.Contains(seen, []byte("(deny in")) {
		n, err := master.Read(b)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, b[:n]...)
	}
	master.Close()
	select {
	case r := <-done:
		if r.r.Answer != AnswerDeny || r.r.Outcome != OutcomeCancelled || !errors.Is(r.err, ErrAskEOF) {
			t.Errorf("got %v %v", r.r, r.err)
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
	p.waitCue(t)
	p.master.Write([]byte("d\r"))
	<-done
	out := p.shown()
	if strings.Contains(out, "\x1b[2K") || strings.Contains(out, "\u202e") {
		t.Errorf("raw control sequence reached the terminal: %q", out)
	}
	if !strings.Contains(out, `echo hi\x1b[2K\rfake\u202e`) {
		t.Errorf("escaped command not shown: %q", out)
	}
	if !strings.Contains(out, "note: the command holds control characters, shown escaped\r\n") {
		t.Errorf("no note: %q", out)
	}
}

func TestControlNote(t *testing.T) {
	for _, tt := range []struct{ cmd, dir, agent, want string }{
		{"ls", "/src", "claude", ""},
		{"cat <<EOF\n\tx\nEOF", "/src", "claude", ""}, // newlines and tabs are ordinary
		{"ls\x1b[2K", "/src", "", "note: the command holds control characters, shown escaped"},
		{"ls", "/src/\u202e", "", "note: the directory holds control characters, shown escaped"},
		{"ls\r", "/src/\u202e", "x\x1b", "note: the command, the directory and the agent name hold control characters, shown escaped"},
	} {
		if got := ControlNote(tt.cmd, tt.dir, tt.agent); got != tt.want {
			t.Errorf("ControlNote(%q, %q, %q) = %q, want %q", tt.cmd, tt.dir, tt.agent, got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{2 * time.Minute: "2m", 1500 * time.Millisecond: "1.5s", time.Hour: "1h", 90 * time.Second: "1m30s"} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestPromptShowsProject(t *testing.T) {
	// "allow for this project" names the project it stores the grant for.
	q := npmQ
	q.Cwd, q.Root = "/src/app/web", "/src/app"
	if _, shown := askShown(t, q, 10*time.Second, "d\r"); !strings.Contains(shown, "project: /src/app\r\n") {
		t.Errorf("project root not shown: %q", shown)
	}
	// A composite offers no project grant: no project line.
	q.OnceOnly = true
	if _, shown := askShown(t, q, 10*time.Second, "d\r"); strings.Contains(shown, "project:") {
		t.Errorf("project shown for a once-only question: %q", shown)
	}
}

// A command the person at the terminal typed (guard's interactive shell)
// is theirs: the question says "you", not "the agent".
func TestPromptTypedSaysYou(t *testing.T) {
	q := npmQ
	q.Typed = true
	r, shown := askShown(t, q, 10*time.Second, "o\r")
	if r.r.Answer != AnswerOnce || !strings.Contains(shown, "guard: you asked to run:") || strings.Contains(shown, "the agent") {
		t.Errorf("got %v; screen:\n%s", r.r.Answer, shown)
	}
}

// A pattern typed at e is previewed before it can be stored: the preview's
// lines are shown, and a refused pattern is edited again.
func TestPromptEditPreview(t *testing.T) {
	q := npmQ
	var asked []string
	q.Preview = func(pattern string) GrantPreview {
		asked = append(asked, pattern)
		if pattern == "npm *" {
			return GrantPreview{Refused: "too wide"}
		}
		return GrantPreview{Lines: []string{"preview: " + pattern + " covers 3"}}
	}
	r, shown := askShown(t, q, 10*time.Second, "e\r", "<cue>", "\x15npm *\r", "<cue>", "\x15npm ci\r", "<cue>", "p\r")
	if r.err != nil || r.r.Answer != AnswerProject || r.r.Pattern != "npm ci" || r.r.Outcome != OutcomeEdited {
		t.Fatalf("got %+v %v", r.r, r.err)
	}
	if strings.Join(asked, "|") != "npm *|npm ci" {
		t.Errorf("previewed %q", asked)
	}
	for _, want := range []string{"refused: too wide", "preview: npm ci covers 3"} {
		if !strings.Contains(shown, want) {
			t.Errorf("terminal does not show %q:\n%s", want, shown)
		}
	}
	// refused, then Esc: deny, nothing stored
	r = ask(t, q, 10*time.Second, "e\r", "<cue>", "\x15npm *\r", "<cue>", "\x1b")
	if r.r.Answer != AnswerDeny || !errors.Is(r.err, ErrAskCanceled) {
		t.Errorf("refused then esc: got %+v %v", r.r, r.err)
	}
}

// The prompt's preview in guard -c: the denylist probe refuses without
// the audit, and when guard-cli's preview cannot be had the prompt says
// so (fail closed: the probe still stands).
func TestPromptPreviewFailsClosed(t *testing.T) {
	a := &app{env: Env{Getenv: func(k string) string { return map[string]string{"HOME": "/home/u"}[k] }},
		eng: engine{redact: func(s string) string { return s },
			preview: func(cwd, pattern string) (auditPreview, error) {
				return auditPreview{}, errors.New("guard-cli gave no answer within 5s")
			}}}
	pv := a.promptPreview("/home/u/p")
	if got := pv("rm -rf *"); !strings.Contains(got.Refused, "(rm-root)") {
		t.Errorf("rm -rf *: %+v", got)
	}
	if got := pv("bash *"); got.Refused == "" {
		t.Errorf("bash *: %+v", got)
	}
	got := pv("npm ci *")
	if got.Refused != "" || len(got.Lines) != 1 || !strings.Contains(got.Lines[0], "no preview of past commands: guard-cli gave no answer within 5s; only the denylist was checked") {
		t.Errorf("npm ci *: %+v", got)
	}
	a.eng.preview = func(cwd, pattern string) (auditPreview, error) {
		return auditPreview{Matched: 2, Examples: []string{"npm ci", "npm ci --x"}, Refused: "covers a denied one"}, nil
	}
	got = pv("npm ci *")
	if got.Refused != "covers a denied one" || len(got.Lines) != 3 {
		t.Errorf("npm ci * with the audit: %+v", got)
	}
}
