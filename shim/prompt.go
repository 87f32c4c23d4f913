package shim

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/guard-dev/guard/redact"
)

// Answer is the human's answer to a prompt. The zero value is deny.
type Answer int

const (
	AnswerDeny    Answer = iota // refuse this run
	AnswerOnce                  // run this exact text this once
	AnswerProject               // run it, and store the pattern as a grant for this project
	AnswerGlobal                // run it, and store the pattern as a grant everywhere
)

func (a Answer) String() string {
	switch a {
	case AnswerOnce:
		return "once"
	case AnswerProject:
		return "project"
	case AnswerGlobal:
		return "global"
	}
	return "deny"
}

// Outcome is how a prompt ended, as the audit records it.
type Outcome string

const (
	OutcomeOnce      Outcome = "once"      // o: run this text once
	OutcomeProject   Outcome = "project"   // p: run, and grant the suggested pattern here
	OutcomeGlobal    Outcome = "global"    // g, confirmed with y: run, and grant it everywhere
	OutcomeEdited    Outcome = "edited"    // e: run, and grant a pattern the human changed (here or everywhere)
	OutcomeDeny      Outcome = "deny"      // d: refused
	OutcomeTimeout   Outcome = "timeout"   // no answer in time
	OutcomeCancelled Outcome = "cancelled" // Ctrl-C, Esc, Ctrl-D, a closed terminal or a signal
)

// Reply is how the human answered.
type Reply struct {
	Answer  Answer
	Pattern string // the pattern to store for AnswerProject and AnswerGlobal
	Outcome Outcome
	// For is how long a project grant counts ([t]: allow here for a
	// while); 0 is for good.
	For time.Duration
}

// Question is what the prompt shows. Command and Suggest must already be
// redacted; control characters in every field are shown escaped
// (redact.Visible), never sent raw, and a line says when there are any.
type Question struct {
	Command  string
	Cwd      string
	Root     string // the project "allow for this project" stores the grant for ("": not shown)
	Risk     string
	Reason   string
	Rule     string
	Suggest  string // pattern offered for p/g; "" offers allow once and deny only
	OnceOnly bool   // composite: allow once and deny only
	// ProjectOnly: the grant counts only for this project (a host, see
	// grants.ProjectOnly): "allow everywhere" is not offered.
	ProjectOnly bool
	// Unredacted is the command as the agent wrote it, secrets included;
	// "" offers no v. The human may view it once, on this terminal; it is
	// never stored or written anywhere else.
	Unredacted string
	// Typed: the person at this terminal typed the command (guard's
	// interactive shell), so the question speaks to them, not of an agent.
	Typed bool
	// Withdrawn, when it closes, ends the prompt with ErrAskWithdrawn: the
	// command that asked stopped waiting (guard watch).
	Withdrawn <-chan struct{}
	// Preview, when set, is asked about a pattern typed at e before it
	// can be stored: it tells what the pattern would have covered in the
	// audit, and refuses one that covers a command guard denies. nil
	// stores the pattern without a preview.
	Preview func(pattern string) GrantPreview
}

// GrantPreview is what a pattern typed at e would have covered: the lines
// to show (the count, some past commands, or why there is no preview),
// and why it must not be stored ("" when it may). The pattern is edited
// again when it is refused.
type GrantPreview struct {
	Lines   []string
	Refused string
}

// PromptEnd says why a prompt ended without an answer. Each is a deny.
type PromptEnd string

func (e PromptEnd) Error() string { return string(e) }

const (
	ErrAskTimeout   PromptEnd = "no answer in time"
	ErrAskEOF       PromptEnd = "the terminal closed"
	ErrAskCanceled  PromptEnd = "the prompt was cancelled"
	ErrAskSignal    PromptEnd = "guard was interrupted while asking"
	ErrAskWithdrawn PromptEnd = "the command stopped waiting"
)

// maxShownLines bounds how much of a long script the prompt prints.
const maxShownLines = 40

// pollSlice is how often a waiting prompt looks at the signals it caught.
const pollSlice = 100 * time.Millisecond

// settleTime is how long after a question is drawn keys are thrown away: no
// human reads that fast, so they were typed before, for something else.
const settleTime = 150 * time.Millisecond

// Prompt asks the human on tty, in raw mode. An answer is a key, then
// Enter: o (allow once), p (this project), g (everywhere; then y and Enter
// to confirm), e (edit the pattern, then p or g), v (view the unredacted
// command once), d (deny). Any other key shows the choices again. With
// q.OnceOnly or no suggested pattern only o and d are offered. Keys typed
// before the question, or within settleTime of it being drawn, are thrown
// away. No answer within timeout, EOF, Ctrl-C, Ctrl-D, Esc or a signal to
// guard all deny, with an error saying which (the Reply still says how it
// ended). The terminal's mode is restored on every path.
func Prompt(tty *os.File, q Question, timeout time.Duration) (Reply, error) {
	fd := int(tty.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return Reply{Outcome: OutcomeCancelled}, fmt.Errorf("terminal raw mode: %w", err)
	}
	defer func() { _ = term.Restore(fd, old) }()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	// Keys typed before the question was shown were not meant as its answer.
	_ = unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH)

	p := &prompter{tty: tty, q: q, timeout: timeout, keys: keyReader{fd: fd, deadline: time.Now().Add(timeout), sigs: sigs, withdrawn: q.Withdrawn}}
	r, err := p.ask()
	if err != nil {
		p.say("\r\n  denied: %s\r\n", err)
		out := OutcomeCancelled
		if errors.Is(err, ErrAskTimeout) {
			out = OutcomeTimeout
		}
		return Reply{Outcome: out}, err
	}
	return r, nil
}

// prompter writes the question and reads the answer.
type prompter struct {
	tty     *os.File
	q       Question
	timeout time.Duration
	keys    keyReader
	viewed  bool // the unredacted text was shown (it is shown once)
}

func (p *prompter) say(format string, args ...any) {
	fmt.Fprintf(p.tty, format, args...)
}

// cue waits out settleTime, throws away what was typed meanwhile, and then
// prints the line that asks for a key.
func (p *prompter) cue(format string, args ...any) {
	time.Sleep(settleTime)
	_ = unix.IoctlSetInt(p.keys.fd, unix.TCFLSH, unix.TCIFLUSH)
	p.keys.buf = nil
	p.say(format, args...)
}

// choose reads one answer: a key from valid, then Enter. It returns 0 when
// the human typed anything else (the caller shows the choices again).
func (p *prompter) choose(valid string) (byte, error) {
	var sel byte
	for {
		c, err := p.keys.next()
		if err != nil {
			return 0, err
		}
		switch {
		case c == 0x03 || c == 0x1b:
			return 0, ErrAskCanceled
		case c == 0x04:
			return 0, ErrAskEOF
		case c == '\r' || c == '\n':
			return sel, nil
		case sel == 0 && c < 0x80 && strings.IndexByte(valid, byte(unicode.ToLower(rune(c)))) >= 0:
			sel = byte(unicode.ToLower(rune(c)))
			p.say("%c", sel)
		default:
			return 0, nil
		}
	}
}

func (p *prompter) ask() (Reply, error) {
	q := p.q
	if q.Typed {
		p.say("\r\nguard: you asked to run:\r\n")
	} else {
		p.say("\r\nguard: the agent wants to run:\r\n")
	}
	p.showCommand(q.Command)
	if note := ControlNote(q.Command+q.Suggest+q.Reason, q.Cwd+q.Root, ""); note != "" {
		p.say("  %s\r\n", note)
	}
	if q.Cwd != "" {
		p.say("  in:     %s\r\n", redact.Visible(q.Cwd))
	}
	if q.Root != "" && !q.OnceOnly && q.Suggest != "" {
		p.say("  project: %s\r\n", redact.Visible(q.Root))
	}
	p.say("  risk:   %s\r\n", redact.Visible(q.Risk))
	reason := q.Reason
	if q.Rule != "" {
		reason += " [" + q.Rule + "]"
	}
	p.say("  why:    %s\r\n", redact.Visible(reason))
	full := !q.OnceOnly && q.Suggest != ""
	if full {
		p.say("  grant:  %s\r\n", redact.Visible(q.Suggest))
	}
	for {
		valid, line := "od", "[o] allow once"
		if full && q.ProjectOnly {
			valid, line = "opted", line+"  [p] allow for this project  [t] … for a while  [e] edit pattern"
		} else if full {
			valid, line = "optged", line+"  [p] allow for this project  [t] … for a while  [g] allow everywhere  [e] edit pattern"
		}
		if q.Unredacted != "" && !p.viewed {
			valid, line = valid+"v", line+"  [v] view unredacted"
		}
		p.say("  %s  [d] deny\r\n", line)
		p.cue("  answer, then enter (deny in %s): ", shortDuration(p.timeout))
		c, err := p.choose(valid)
		if err != nil {
			return Reply{}, err
		}
		switch c {
		case 'o':
			p.say("\r\n  allow once\r\n")
			return Reply{Answer: AnswerOnce, Outcome: OutcomeOnce}, nil
		case 'd':
			p.say("\r\n  deny\r\n")
			return Reply{Answer: AnswerDeny, Outcome: OutcomeDeny}, nil
		case 'p':
			p.say("\r\n  allow for this project: %s\r\n", redact.Visible(q.Suggest))
			return Reply{Answer: AnswerProject, Pattern: q.Suggest, Outcome: OutcomeProject}, nil
		case 't':
			d, err := p.askFor(q.Suggest)
			if err != nil {
				return Reply{}, err
			}
			if d > 0 {
				return Reply{Answer: AnswerProject, Pattern: q.Suggest, Outcome: OutcomeProject, For: d}, nil
			}
		case 'g':
			ok, err := p.confirmGlobal(q.Suggest)
			if err != nil {
				return Reply{}, err
			}
			if ok {
				return Reply{Answer: AnswerGlobal, Pattern: q.Suggest, Outcome: OutcomeGlobal}, nil
			}
		case 'e':
			return p.edit(q.Suggest, q.ProjectOnly)
		case 'v':
			p.viewed = true
			p.say("\r\n")
			if q.Unredacted == q.Command {
				p.say("  nothing was redacted\r\n")
			} else {
				p.say("  unredacted (shown once, never stored):\r\n")
				p.showCommand(q.Unredacted)
			}
		default:
			p.say("\r\n")
		}
	}
}

// showCommand prints a command's lines, escaped, up to maxShownLines.
func (p *prompter) showCommand(text string) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if i == maxShownLines {
			p.say("    … %d more lines not shown\r\n", len(lines)-i)
			break
		}
		// A tab is laid out, not escaped: it cannot move the cursor back.
		p.say("    %s\r\n", redact.Visible(strings.ReplaceAll(l, "\t", "    ")))
	}
}

// defaultFor is what [t] offers: a grant for the rest of a working session.
const defaultFor = 2 * time.Hour

// askFor asks how long a project grant of pattern should count: Enter
// takes defaultFor; 0 means the human went back (or typed no duration).
func (p *prompter) askFor(pattern string) (time.Duration, error) {
	p.say("\r\n")
	p.cue("  allow %s here for how long? (enter: %s, or e.g. 30m, 1d; esc to deny): ", redact.Visible(pattern), shortDuration(defaultFor))
	line, err := p.readLine("")
	if err != nil {
		return 0, err
	}
	if line == "" {
		line = shortDuration(defaultFor)
	}
	d, ok := parseFor(line)
	if !ok {
		p.say("\r\n  not a duration like 30m, 2h or 1d\r\n")
		return 0, nil
	}
	p.say("\r\n  allow for this project for %s: %s\r\n", shortDuration(d), redact.Visible(pattern))
	return d, nil
}

// parseFor reads a duration as the prompt takes it: Go's (30m, 2h) or days
// (1d), positive and at most a year.
func parseFor(s string) (time.Duration, bool) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days := 0
		for _, c := range []byte(n) {
			if c < '0' || c > '9' || days > 366 {
				return 0, false
			}
			days = days*10 + int(c-'0')
		}
		return time.Duration(days) * 24 * time.Hour, n != "" && days > 0 && days <= 366
	}
	d, err := time.ParseDuration(s)
	return d, err == nil && d > 0 && d <= 366*24*time.Hour
}

// readLine reads a line the human types on the prompt, starting from
// initial (shown already), with backspace and Ctrl-U. Esc and Ctrl-C
// cancel, Ctrl-D is the end of the terminal.
func (p *prompter) readLine(initial string) (string, error) {
	line := []byte(initial)
	for {
		c, err := p.keys.next()
		if err != nil {
			return "", err
		}
		switch {
		case c == '\r' || c == '\n':
			return strings.TrimSpace(string(line)), nil
		case c == 0x03 || c == 0x1b:
			return "", ErrAskCanceled
		case c == 0x04:
			return "", ErrAskEOF
		case c == 0x7f || c == 0x08:
			if len(line) > 0 {
				_, size := utf8.DecodeLastRune(line)
				line = line[:len(line)-size]
				p.say("\b \b")
			}
		case c == 0x15: // Ctrl-U
			p.say("%s", strings.Repeat("\b \b", utf8.RuneCount(line)))
			line = line[:0]
		case c >= 0x20:
			line = append(line, c)
			if c < 0x80 || utf8.FullRune(line[lastRuneStart(line):]) {
				p.say("%s", line[lastRuneStart(line):])
			}
		}
	}
}

// confirmGlobal asks again before a pattern is granted in every project.
func (p *prompter) confirmGlobal(pattern string) (bool, error) {
	p.say("\r\n  allow %s in every project?\r\n", redact.Visible(pattern))
	p.cue("  [y] then enter to confirm, any other key to go back: ")
	c, err := p.choose("y")
	if err != nil || c != 'y' {
		p.say("\r\n")
		return false, err
	}
	p.say("\r\n  allow everywhere: %s\r\n", redact.Visible(pattern))
	return true, nil
}

// edit lets the human change the pattern, then choose where to store it.
func (p *prompter) edit(pattern string, projectOnly bool) (Reply, error) {
	orig := pattern
	p.say("\r\n")
	for {
		p.cue("  pattern (enter to accept, esc to deny): %s", redact.Visible(pattern))
		var err error
		pattern, err = p.readLine(pattern)
		if err != nil {
			return Reply{}, err
		}
		if pattern == "" || !utf8.ValidString(pattern) {
			p.say("\r\n  empty or invalid pattern: deny\r\n")
			return Reply{Answer: AnswerDeny, Outcome: OutcomeDeny}, nil
		}
		if p.q.Preview == nil {
			break
		}
		p.say("\r\n")
		pv := p.q.Preview(pattern)
		for _, l := range pv.Lines {
			p.say("  %s\r\n", redact.Visible(l))
		}
		if pv.Refused == "" {
			break
		}
		p.say("  refused: %s\r\n", redact.Visible(pv.Refused))
	}
	outcome := func(o Outcome) Outcome {
		if pattern != orig {
			return OutcomeEdited
		}
		return o
	}
	for {
		choices, valid := "[p] allow for this project  [t] … for a while  [g] allow everywhere  [d] deny", "ptgd"
		if projectOnly {
			choices, valid = "[p] allow for this project  [t] … for a while  [d] deny", "ptd"
		}
		p.say("\r\n  %s\r\n", choices)
		p.cue("  answer, then enter: ")
		c, err := p.choose(valid)
		if err != nil {
			return Reply{}, err
		}
		switch c {
		case 'p':
			p.say("\r\n  allow for this project: %s\r\n", redact.Visible(pattern))
			return Reply{Answer: AnswerProject, Pattern: pattern, Outcome: outcome(OutcomeProject)}, nil
		case 't':
			d, err := p.askFor(pattern)
			if err != nil {
				return Reply{}, err
			}
			if d > 0 {
				return Reply{Answer: AnswerProject, Pattern: pattern, Outcome: outcome(OutcomeProject), For: d}, nil
			}
		case 'g':
			ok, err := p.confirmGlobal(pattern)
			if err != nil {
				return Reply{}, err
			}
			if ok {
				return Reply{Answer: AnswerGlobal, Pattern: pattern, Outcome: outcome(OutcomeGlobal)}, nil
			}
		case 'd':
			p.say("\r\n  deny\r\n")
			return Reply{Answer: AnswerDeny, Outcome: OutcomeDeny}, nil
		}
	}
}

// lastRuneStart returns where the last (possibly incomplete) UTF-8 sequence
// in b starts.
func lastRuneStart(b []byte) int {
	i := len(b) - 1
	for i > 0 && i > len(b)-utf8.UTFMax && !utf8.RuneStart(b[i]) {
		i--
	}
	return i
}

// keyReader reads single keys from a raw terminal with a deadline, and stops
// when guard catches a signal.
type keyReader struct {
	fd       int
	deadline time.Time
	sigs     <-chan os.Signal
	buf      []byte
	// withdrawn closes when the question no longer needs an answer.
	withdrawn <-chan struct{}
}

// next returns the next key byte. Escape sequences (arrow keys and the like)
// are skipped whole; a lone Esc is returned as 0x1b.
func (k *keyReader) next() (byte, error) {
	for {
		c, err := k.byte()
		if err != nil || c != 0x1b {
			return c, err
		}
		if len(k.buf) == 0 || (k.buf[0] != '[' && k.buf[0] != 'O') {
			return c, nil
		}
		// CSI/SS3 sequence: skip to its final byte.
		k.buf = k.buf[1:]
		for len(k.buf) > 0 {
			f := k.buf[0]
			k.buf = k.buf[1:]
			if f >= 0x40 && f <= 0x7e {
				break
			}
		}
	}
}

func (k *keyReader) byte() (byte, error) {
	for len(k.buf) == 0 {
		select {
		case <-k.sigs:
			return 0, ErrAskSignal
		case <-k.withdrawn:
			return 0, ErrAskWithdrawn
		default:
		}
		left := time.Until(k.deadline)
		if left <= 0 {
			return 0, ErrAskTimeout
		}
		wait := min(left, pollSlice)
		fds := []unix.PollFd{{Fd: int32(k.fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(wait/time.Millisecond)+1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("read terminal: %w", err)
		}
		if n == 0 {
			continue
		}
		if fds[0].Revents&unix.POLLIN == 0 {
			return 0, ErrAskEOF // hung up or closed
		}
		b := make([]byte, 64)
		m, err := unix.Read(k.fd, b)
		if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) {
			continue
		}
		if m <= 0 || err != nil {
			return 0, ErrAskEOF
		}
		k.buf = b[:m]
	}
	c := k.buf[0]
	k.buf = k.buf[1:]
	return c, nil
}

// ControlNote is the line a view that shows a request adds when its
// command, its directory or the agent's name holds control characters
// (redact.HasControl), which the view shows escaped: a written-out \x1b
// and a real ESC would look alike otherwise. It is "" when none does.
func ControlNote(command, dir, agent string) string {
	var what []string
	for _, part := range [...]struct{ name, text string }{
		{"command", command}, {"directory", dir}, {"agent name", agent},
	} {
		if redact.HasControl(part.text) {
			what = append(what, "the "+part.name)
		}
	}
	switch len(what) {
	case 0:
		return ""
	case 1:
		return "note: " + what[0] + " holds control characters, shown escaped"
	}
	return "note: " + strings.Join(what[:len(what)-1], ", ") + " and " + what[len(what)-1] + " hold control characters, shown escaped"
}

// ShortDuration prints 2m instead of 2m0s, 1h instead of 1h0m0s, and 1.5s
// as is.
func ShortDuration(d time.Duration) string { return shortDuration(d) }

func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
