package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/redact"
	"github.com/guard-dev/guard/shim"
)

func (a *App) checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "decide on a command without running it",
		UsageText: `guard check [--json] [--stdin] [--cwd DIR] [--exit-code] -- CMD

Prints the decision (allow, ask or deny), the rule that decided and why.
Exits 0 whenever a decision was made, whatever it was: read the output.
With --exit-code, for scripts, the status says it: 0 allow, 1 ask, 2 deny
(with --stdin, the strictest of all lines).
With --stdin, reads one command per line and answers one line per command,
in order, as soon as each is decided.

example:
   guard check -- 'rm -rf /'
   guard check --json -- 'git push --force'
   printf '%s\n' 'ls' 'sudo true' | guard check --stdin --json`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per command (fields: docs/formats.md)"},
			&cli.BoolFlag{Name: "stdin", Usage: "read one command per line from stdin"},
			&cli.StringFlag{Name: "cwd", Usage: "judge as if run in `DIR`", Value: ""},
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 on ask and 2 on deny"},
		},
		Action: a.check,
	}
}

// checker decides command texts with settings loaded once; everything is
// reused across lines so that --stdin stays fast.
type checker struct {
	opt      classify.Options // the Analyzer's, for fork
	an       *classify.Analyzer
	settings *grants.Settings
	home     string        // for the path tiers' facts (shim.Facts)
	res      shim.Resolver // where paths pointed, remembered across the lines of --stdin
	red      *redact.Redactor
	scratch  []byte // the text being redacted, reused (checker.redact)
	json     bool
	buf      []byte // the JSON answer being written, reused
	landlock int    // the kernel's Landlock ABI, asked once (shim.LandlockABI)
	out      io.Writer
	stderr   io.Writer // hints
	worst    int       // 0 allow, 1 ask, 2 deny: the strictest decision so far
	colour   bool      // colour the decision word (a terminal, NO_COLOR unset)
	obj      checkJSON
}

// checkJSON is the machine-readable contract (shim.CheckJSON, which guard
// hook opencode|pi prints too).
type checkJSON = shim.CheckJSON

// newChecker loads the settings for cwd as they apply to agent (its
// [agents.NAME] profile, power_agents, [[rule]] tables naming it).
func (a *App) newChecker(cwd, agent string, asJSON bool, out io.Writer) *checker {
	p := a.paths()
	opt := classify.Options{
		Cwd:       cwd,
		Home:      a.Getenv("HOME"),
		Protected: a.protected(p),
		// judged as guard -c would judge it in this environment
		EnvNames: shim.KnownEnv(a.Environ, nil),
	}
	c := &checker{
		opt:      opt,
		an:       classify.NewAnalyzer(opt),
		settings: grants.Load(p, cwd).As(agent),
		home:     a.Getenv("HOME"),
		red:      a.redactor(),
		json:     asJSON,
		out:      out,
		stderr:   a.Stderr,
		colour:   !asJSON && out == io.Writer(a.Stdout) && useColour(term.IsTerminal(int(a.Stdout.Fd())), a.Getenv),
	}
	if asJSON {
		c.landlock = shim.LandlockABI()
	}
	// What loading ignored (a project config's refused allow rules), on
	// stderr so that --json stays one object per command.
	for _, w := range c.settings.Warnings {
		fmt.Fprintf(a.Stderr, "guard: hint: %s\n", oneLine(c.redact(w)))
	}
	return c
}

// decide judges one command text and writes the answer.
func (c *checker) decide(text string) error {
	return c.decideSized(text, len(text))
}

// decideSized judges text, which is the first bytes of a line of size
// bytes: a line over the limit is kept only in part, and denied with the
// size it really had.
func (c *checker) decideSized(text string, size int) error {
	var hint bool
	c.buf, hint = c.answer(c.buf[:0], text, size)
	if hint {
		// on stderr, so that --json stays one object per command
		fmt.Fprintf(c.stderr, "guard: hint: %s\n", grants.UntrustedHint)
	}
	if _, err := c.out.Write(c.buf); err != nil {
		return fmt.Errorf("write answer: %w", err)
	}
	return nil
}

// answer judges text (see decideSized), notes the decision in c.worst and
// appends the answer to dst. hint: the untrusted hint applies (the caller
// prints it).
func (c *checker) answer(dst []byte, text string, size int) (out []byte, hint bool) {
	an := c.an.Analyze(text)
	if size > len(text) && an.Fail == classify.FailTooLong {
		an.FailReason = fmt.Sprintf("command is %d bytes, over the %d byte limit", size, classify.MaxTextBytes)
	}
	f := c.res.Facts(an, c.settings, c.home)
	v := grants.DecideWith(an, c.settings, f)
	switch v.Decision {
	case grants.Deny:
		c.worst = 2
	case grants.Ask:
		c.worst = max(c.worst, 1)
	}
	hint = v.Decision != grants.Allow && grants.WouldAllowTrusted(an, c.settings, f, v)
	if c.json {
		return c.appendJSON(dst, an, v), hint
	}
	return c.appendText(dst, v), hint
}

// fork returns a checker for another goroutine: the same settings,
// redactor and output format, its own parser, path memory and buffers.
func (c *checker) fork() *checker {
	d := *c
	d.an = classify.NewAnalyzer(c.opt)
	d.res = shim.Resolver{}
	d.scratch, d.buf, d.obj = nil, nil, checkJSON{}
	d.worst = 0
	return &d
}

func (c *checker) appendJSON(dst []byte, an *classify.Analysis, v grants.Verdict) []byte {
	o := &c.obj
	o.Command = c.redact(an.Text)
	o.Decision = string(v.Decision)
	o.Rule = v.Rule
	o.Reason = c.redact(v.Reason)
	o.Risk = string(v.Risk)
	o.Composite = len(an.Composite) > 0
	if o.Commands == nil {
		o.Commands = make([][]string, 0, 4)
	}
	o.Commands = o.Commands[:0]
	for i := range an.Commands {
		o.Commands = append(o.Commands, c.redactArgs(an.Commands[i].Args))
	}
	o.Layer = v.Layer
	o.File = v.File
	o.Suggest = c.redact(v.Suggest)
	o.Mode, o.Would = "", string(v.Would)
	o.Confined = shim.ConfinedForABI(c.settings, v, c.landlock)
	if v.Mode != grants.ModeEnforce {
		o.Mode = string(v.Mode) // said only when it is not the default
	}
	return o.AppendJSON(dst)
}

// redact returns s with every secret replaced, as Redactor.String does,
// copying s into a buffer kept across lines rather than a new one: check
// --stdin redacts every word of every line.
func (c *checker) redact(s string) string {
	c.scratch = append(c.scratch[:0], s...)
	out, changed := c.red.Redact(c.scratch)
	if !changed {
		return s
	}
	return string(out)
}

// redactArgs returns args with secrets replaced, allocating only when needed.
func (c *checker) redactArgs(args []string) []string {
	var out []string
	for i, s := range args {
		r := c.redact(s)
		if r != s && out == nil {
			out = make([]string, len(args))
			copy(out, args[:i])
		}
		if out != nil {
			out[i] = r
		}
	}
	if out != nil {
		return out
	}
	if args == nil {
		return []string{}
	}
	return args
}

func (c *checker) appendText(dst []byte, v grants.Verdict) []byte {
	decision := string(v.Decision)
	if c.colour {
		decision = colourDecision(decision)
	}
	dst = fmt.Appendf(dst, "%s  %s  %s\n", decision, oneLine(v.Rule), oneLine(c.redact(v.Reason)))
	if v.Decision == grants.Ask && v.Suggest != "" && !v.OnceOnly {
		dst = fmt.Appendf(dst, "suggest  guard grants add --project %s\n", oneLine(classify.QuoteWord(c.redact(v.Suggest))))
	}
	return dst
}

func (a *App) check(c *cli.Context) error {
	cwd, err := a.cwdOr(c.String("cwd"))
	if err != nil {
		return err
	}
	if c.Bool("stdin") {
		if c.Args().Present() {
			return usageError("check --stdin takes no command arguments")
		}
		return a.checkStdin(cwd, c.Bool("json"), c.Bool("exit-code"))
	}
	if !c.Args().Present() {
		return usageError("check needs a command: guard check -- CMD")
	}
	ck := a.newChecker(cwd, a.Getenv("GUARD_AGENT"), c.Bool("json"), a.Stdout)
	if err := ck.decide(joinArgs(c.Args().Slice())); err != nil {
		return failure(err, "")
	}
	if c.Bool("exit-code") && ck.worst > 0 {
		return statusError(ck.worst)
	}
	return nil
}

// checkStdin answers one line per input line, in order. Output is buffered and
// flushed whenever the input has nothing more buffered, that is, just before a
// read that could block: a caller talking over a pipe gets each answer as soon
// as it is decided, and a big file is answered in large writes.
//
// The lines read before such a read (at most maxBatch) are judged together,
// on every core (stdinBatch): a line's answer depends on nothing but its
// text, and they are written in input order.
func (a *App) checkStdin(cwd string, asJSON, exitCode bool) error {
	// Each line allocates a little and keeps nothing: with the collector's
	// default target a third of the time went to collecting (50,000 lines:
	// 21,000-22,000 lines/s at the default, 24,000-28,000 at 400).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	w := bufio.NewWriterSize(a.Stdout, 64<<10)
	b := &stdinBatch{workers: []*checker{a.newChecker(cwd, a.Getenv("GUARD_AGENT"), asJSON, w)}, stderr: a.Stderr, out: w}
	r := bufio.NewReaderSize(a.Stdin, 64<<10)
	var long []byte // a line that did not fit in the reader's buffer
	size := 0       // the bytes of that line, kept or not
	for {
		if r.Buffered() == 0 {
			if err := b.answer(); err != nil {
				return failure(err, "")
			}
			if err := w.Flush(); err != nil {
				return failure(fmt.Errorf("write answers: %w", err), "")
			}
		}
		chunk, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// Keep at most one buffer past the limit: classify denies it as
			// too long, and the answer gives the size counted here.
			if len(long) <= classify.MaxTextBytes {
				long = append(long, chunk...)
			}
			size += len(chunk)
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return failure(fmt.Errorf("read commands: %w", err), "")
		}
		if len(chunk) == 0 && len(long) == 0 && err != nil {
			break // EOF after the last line
		}
		line := chunk
		size += len(trimEOL(chunk))
		if long != nil {
			if len(long) <= classify.MaxTextBytes {
				long = append(long, chunk...)
			}
			line, long = long, nil
		}
		line = trimEOL(line)
		b.add(string(line), max(size, len(line)))
		size = 0
		if b.n == maxBatch {
			if derr := b.answer(); derr != nil {
				return failure(derr, "")
			}
		}
		if err != nil {
			break
		}
	}
	if err := b.answer(); err != nil {
		return failure(err, "")
	}
	if err := w.Flush(); err != nil {
		return failure(fmt.Errorf("write answers: %w", err), "")
	}
	if worst := b.worst(); exitCode && worst > 0 {
		return statusError(worst)
	}
	return nil
}

// maxBatch bounds the lines check --stdin holds before answering.
const maxBatch = 256

// stdinBatch holds the lines of check --stdin read and not yet answered,
// and the checkers that judge them: the first made by newChecker, the
// others forked from it when a batch first has more than one line.
type stdinBatch struct {
	workers []*checker
	lines   []pendingLine // lines[:n] are the batch; the rest keep their buffers
	n       int
	stderr  io.Writer
	out     io.Writer
}

// pendingLine is a line read and, once judged, its answer.
type pendingLine struct {
	text string
	size int
	out  []byte
	hint bool
}

func (b *stdinBatch) add(text string, size int) {
	if b.n == len(b.lines) {
		b.lines = append(b.lines, pendingLine{})
	}
	l := &b.lines[b.n]
	l.text, l.size = text, size
	b.n++
}

// answer judges the batch, each line by one of the workers, and writes the
// answers (and hints) in the order the lines came.
func (b *stdinBatch) answer() error {
	lines := b.lines[:b.n]
	b.n = 0
	if len(lines) == 0 {
		return nil
	}
	if len(lines) > 1 && len(b.workers) == 1 {
		for range min(runtime.GOMAXPROCS(0), 8) - 1 {
			b.workers = append(b.workers, b.workers[0].fork())
		}
	}
	if len(lines) == 1 || len(b.workers) == 1 {
		c := b.workers[0]
		for i := range lines {
			lines[i].out, lines[i].hint = c.answer(lines[i].out[:0], lines[i].text, lines[i].size)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for _, c := range b.workers {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(lines); i = int(next.Add(1) - 1) {
					lines[i].out, lines[i].hint = c.answer(lines[i].out[:0], lines[i].text, lines[i].size)
				}
			})
		}
		wg.Wait()
	}
	for i := range lines {
		if lines[i].hint {
			// on stderr, so that --json stays one object per command
			fmt.Fprintf(b.stderr, "guard: hint: %s\n", grants.UntrustedHint)
		}
		if _, err := b.out.Write(lines[i].out); err != nil {
			return fmt.Errorf("write answer: %w", err)
		}
		lines[i].text = "" // not kept past its batch
	}
	return nil
}

// worst is the strictest decision of every line answered: 0 allow, 1 ask,
// 2 deny.
func (b *stdinBatch) worst() int {
	w := 0
	for _, c := range b.workers {
		w = max(w, c.worst)
	}
	return w
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}
