package shim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/redact"
)

// Defaults, and where they can be changed (flag > GUARD_* environment > TOML > built-in).
const (
	defaultTimeout    = 10 * time.Minute // guard exec --timeout > GUARD_TIMEOUT > timeout in config
	defaultAskTimeout = 2 * time.Minute  // ask_timeout in config
	maxStdinScript    = classify.MaxTextBytes
)

// Modes, as recorded in the audit trail.
const (
	modeShell = "shell" // guard -c, bash/sh links, a script file operand
	modeStdin = "stdin" // the script came on stdin
	modeExec  = "exec"  // guard exec -- PROG ARGS…
)

// Answers, as recorded: how the decision was reached (ccs.Answer*).
const (
	answerRule      = "rule"      // a rule or the built-in sets, no human
	answerOnce      = "once"      // a human allowed this run
	answerProject   = "project"   // … and stored the suggested pattern for the project
	answerGlobal    = "global"    // … and stored it everywhere
	answerEdited    = "edited"    // … and stored a pattern they edited
	answerDeny      = "deny"      // a human refused
	answerTimeout   = "timeout"   // nobody answered in time
	answerCancelled = "cancelled" // the prompt ended without an answer (Ctrl-C, Esc, EOF, a signal)
	answerPending   = "pending"   // nobody could be asked: refused and left for guard approve
	answerRejected  = "rejected"  // a human rejected the same text recently
)

// Vias, as recorded: where the answer came from (ccs.Via*).
const (
	viaRule     = "rule"     // no human
	viaTerminal = "terminal" // guard's prompt on the human's terminal
	viaConsole  = "console"  // guard watch
	viaApprove  = "approve"  // guard approve --once, used now
)

// answered is who decided an ask, and how.
type answered struct{ answer, via string }

// allowed reports whether the answer lets the command run.
func (h answered) allowed() bool {
	switch h.answer {
	case answerOnce, answerProject, answerGlobal, answerEdited:
		return true
	}
	return false
}

// decision is what the record says was decided: a human's refusal is a deny.
func (h answered) decision() string {
	switch h.answer {
	case answerDeny, answerTimeout, answerCancelled, answerRejected:
		return string(grants.Deny)
	}
	return string(grants.Ask)
}

var byRule = answered{answerRule, viaRule}

// engine is what judging and remembering need from the other packages. The
// production wiring is in wire.go (grants, classify) and record.go (ccs);
// tests replace single functions.
type engine struct {
	analyze     func(text string, o classify.Options) *classify.Analysis
	analyzeArgv func(argv []string, o classify.Options) *classify.Analysis
	settings    func(cwd string) *grants.Settings
	decide      func(a *classify.Analysis, s *grants.Settings) grants.Verdict
	protected   func() []string
	// grantFile returns the file an answer stores its pattern in.
	grantFile   func(a Answer, cwd string) string
	projectRoot func(cwd string) string
	addRule     func(file, pattern string, until time.Time) error // until: zero for good
	// preview asks guard-cli what an allow pattern would have covered in
	// the audit (nil: no preview, the prompt says so).
	preview func(cwd, pattern string) (auditPreview, error)
	// journal opens the audit trail and pending store.
	journal func() (journal, error)
	// console returns the path of guard watch's socket ("" or nil: none).
	console func() string
	// consoleURL returns the address of the running web console (guard
	// ui), or "" (ConsoleURL).
	consoleURL func() string
	// trustConsole checks the process listening on the console socket
	// (pid and uid from SO_PEERCRED); nil: checkConsolePeer.
	trustConsole func(pid, uid int) error
	redact       func(string) string
	// redactor is the filter behind redact (the environment's secrets, the
	// settings' redact_patterns and the project's .guard/redact), for
	// output; nil: the environment's only.
	redactor func() *redact.Redactor
	// openTTY opens the human's terminal for a prompt.
	openTTY func() (*os.File, error)
	// trustTTY judges whether a human holds it (TrustTerminal).
	trustTTY func(tty *os.File, trusted []string) TTYTrust
	// listen starts delivering the signals guard forwards into c;
	// unlisten, when set, undoes that after the run (guard exits instead).
	listen   func(c chan<- os.Signal)
	unlisten func(c chan<- os.Signal)
	// children lists the processes a run must leave alone (nil: none).
	children func() map[int]bool
	// prepare readies what recording the run needs; it runs while the
	// command starts (nil: nothing to ready).
	prepare func()
	// confine says what a command allowed under s and v may touch (nil
	// engine field, or a nil result: unconfined). confine.go.
	confine func(j job, s *grants.Settings, v grants.Verdict) *confinement
	// confineNotice says, at most once a day, that the kernel cannot
	// confine commands here (nil: never said).
	confineNotice func(why string)
	// flushTelemetry starts guard-cli's telemetry flusher, detached, when
	// one is due at now (nil: never; telemetry.go).
	flushTelemetry func(now time.Time)
	// escalate counts a high-risk would-deny in dry_run for a project root
	// and reports the switch to enforce it caused (nil: no escalation).
	escalate func(root string, now time.Time, e grants.Escalation) (*grants.EscalationState, error)
}

// app is one run of guard as a shell or as guard exec.
type app struct {
	env    Env
	eng    engine
	warned bool // the audit warning was printed
	hinted bool // the project config's ignored rules were shown
	// ttyHinted: where else to answer was said, after a terminal guard
	// would not ask on
	ttyHinted bool
	j         journal
	jErr      error
	jOpen     bool
	// agentOnce and agentName: who asked, looked up once (see agent).
	agentOnce sync.Once
	agentName string
	// sum is the keyed hash of the job's text, made once (see textSum).
	sum, sumOf string
	sumErr     error
	// cur is the decision on the job about to run, for the store
	// (cache.go); cacheHit says the run was answered from the cache.
	cur      *runContext
	cacheHit bool
	// ran is how long the job's command ran (fork to reap), for the
	// record's overhead; startCounted: Env.Started went into one already.
	ran          time.Duration
	startCounted bool
	// root is the project root of the job being decided, and telemetry
	// says its settings export records (a flush may be due after it).
	root      string
	telemetry bool
	// conf is the boundary of the job about to run (nil: unconfined);
	// confined is what the record says of it.
	conf     *confinement
	confined string
	// inside: this guard runs inside another guard's boundary (confine.go)
	insideOnce sync.Once
	inside     bool
	// fileLimit is the file size limit guard was started with, when it
	// raised its own for its writes; the command gets it back (rlimit.go).
	fileLimit *unix.Rlimit
	// auditRequired: the settings of this run set audit_required.
	auditRequired bool
	// pre are the settings shell() loaded for preCwd (the real shell is
	// named there); the decision on a job in preCwd takes them, once.
	pre    *grants.Settings
	preCwd string
}

func newApp(env Env) *app {
	if env.Self == "" {
		if p, err := os.Executable(); err == nil {
			env.Self = p
		}
	}
	if env.Cwd == "" {
		if wd, err := os.Getwd(); err == nil {
			env.Cwd = wd
		}
	}
	return &app{env: env, eng: productionEngine(&env), fileLimit: raiseFileLimit()}
}

// Main runs guard as a shell (guard -c, bash/sh links, a script on stdin, an
// interactive shell) and returns the exit status.
func Main(env Env) int {
	a := newApp(env)
	defer a.close()
	return a.shell()
}

// Exec runs guard exec: argv is judged as the simple command it is and run
// without a shell, in cwd ("" = the current directory). timeout 0 takes the
// configured one.
func Exec(env Env, argv []string, timeout time.Duration, cwd string) int {
	a := newApp(env)
	defer a.close()
	return a.exec(argv, timeout, cwd)
}

// errorf prints one guard: error line.
func (a *app) errorf(format string, args ...any) {
	fmt.Fprintf(a.env.Stderr, "guard: error: "+format+"\n", args...)
}

// warnPending prints one warning about the request directory (a run asks
// at most once, so at most one per kind): what did not happen, and why.
// It is not an audit problem, and is not reported as one.
func (a *app) warnPending(what string, err error) {
	fmt.Fprintf(a.env.Stderr, "guard: warning: %s: %s\n", what, oneLine(a.eng.redact(err.Error())))
}

// job is one command to judge and run.
type job struct {
	mode    string
	text    string   // the text judged, recorded and shown
	argv    []string // guard exec: the argv judged (text is its display form)
	cwd     string
	timeout time.Duration // guard exec --timeout; 0: configured
	spec    runSpec       // what runs when allowed (Path "" for exec: looked up)
	// positional are the script's $0 $1 … (the words after -c TEXT), which
	// classify follows into commands like cat "$1"; nil when none apply.
	positional []string
	// funcs and aliases are those the running shell already has (an
	// interactive session), judged where they are called.
	funcs, aliases map[string]string
	// vars are the variables earlier lines of an interactive session set,
	// and noteVars is told those this text sets (classify's Assigned).
	vars     map[string]bool
	noteVars func(names []string)
	// shadow: the names an earlier line of the session made run another
	// program (classify.Options.Shadow).
	shadow map[string]string
	// envNames: the environment the text runs with, when guard knows it
	// exactly (classify.Options.EnvNames); nil otherwise.
	envNames map[string]bool
	// session is the agent's session id (guard hook); envelope names the
	// agent whose command envelope text was taken out of (classify.Envelope).
	session, envelope string
	// plumbing says why the text is the agent's own plumbing, run as it is
	// (envelope.go); hookCall: it is guard hook, run outside the guarded state.
	plumbing string
	hookCall bool
	// run runs the job once allowed; nil: runJob (a new process).
	run func(j job, lim limits) int
}

func (a *app) shell() int {
	args := a.env.Args
	if len(args) == 0 {
		args = []string{"guard"}
	}
	inv, err := parseShellArgs(args[1:])
	if err != nil {
		a.errorf("%v", err)
		return ExitUsage
	}
	n, err := depth(&a.env)
	if err != nil {
		a.errorf("%v", err)
		return ExitFailure
	}
	// The settings are loaded here (and the decision takes them): the
	// real shell may be named in them.
	a.pre, a.preCwd = a.eng.settings(a.env.Cwd), a.env.Cwd
	realShell := ""
	if a.pre != nil {
		realShell = a.pre.RealShell
	}
	shellPath, err := newShellFinder(&a.env).find(realShell, args[0])
	if err != nil {
		a.errorf("%v", err)
		return ExitFailure
	}
	if f := startupFileFlag(inv.Flags); f != "" && (inv.HasC || len(inv.Operands) > 0 || !isTTY(a.env.Stdin)) {
		// bash -i sources the file named: code that nobody judged
		return a.refuse(job{mode: modeShell, cwd: a.env.Cwd, text: inv.Text}, ruleStartupFile,
			f+" makes the shell run a file unjudged; run the command without it")
	}
	name := dispatchName(args[0])
	if name == "" {
		name = filepath.Base(shellPath)
	}
	j := job{mode: modeShell, cwd: a.env.Cwd}
	childArgv := append([]string{shellPath}, inv.Flags...)
	var files *envelopeFiles
	switch {
	case inv.HasC:
		if inv.Text == "" {
			return 0 // -c '' is a valid empty command
		}
		j.text = inv.Text
		if e, ok := a.envelope(args[0], inv.Text); ok {
			// judge (and record) the agent's command; run the whole
			// envelope, its files handled by guard (envelope_run.go)
			j.text, j.envelope = e.Payload, e.Agent
			if e.CwdFile != "" {
				if files, err = a.checkEnvelope(e); err != nil {
					return a.refuse(job{mode: modeShell, cwd: a.env.Cwd, text: e.Payload, envelope: e.Agent}, ruleSnapshot, err.Error())
				}
			}
		} else {
			var snapshot string
			j.plumbing, j.hookCall, snapshot = a.plumbing(args[0], inv.Text) // envelope.go
			if snapshot != "" {
				j.run = func(j job, lim limits) int {
					exit := a.runJob(j, lim)
					a.recordSnapshot(snapshot) // as written: no later rewrite is first seen
					return exit
				}
			}
		}
		childArgv = append(childArgv, "-c", inv.Text)
		if files != nil {
			textAt := len(childArgv) - 1
			j.run = func(j job, lim limits) int { return a.runEnvelope(j, lim, files, textAt) }
		}
		childArgv = append(childArgv, inv.Operands...)
		j.positional = inv.Operands
		if len(j.positional) == 0 {
			j.positional = []string{name}
		}
	case len(inv.Operands) > 0 && !inv.ReadStdin:
		// bash script.sh args: judged as the command that runs the script.
		j.text = quoteArgv(append([]string{name}, inv.Operands...))
		childArgv = append(childArgv, inv.Operands...)
	case a.env.Stdin != nil && term.IsTerminal(int(a.env.Stdin.Fd())):
		// Someone is typing: every line is judged (interactive.go), each
		// with the settings as they are when it is typed.
		a.pre = nil
		return a.interactive(shellPath, inv.Flags, n)
	default:
		text, err := readScript(a.env.Stdin)
		if err != nil {
			rule := "stdin-unreadable"
			if errors.Is(err, errTooLong) {
				rule = classify.FailTooLong
			}
			return a.refuse(job{mode: modeStdin, cwd: a.env.Cwd, text: text}, rule, err.Error())
		}
		if text == "" {
			return 0
		}
		j.mode, j.text = modeStdin, text
		childArgv = append(withoutS(childArgv), "-c", text)
		j.positional = append([]string{name}, inv.Operands...)
		if len(inv.Operands) > 0 {
			childArgv = append(childArgv, name)
			childArgv = append(childArgv, inv.Operands...)
		}
	}
	j.spec = runSpec{
		Path: shellPath, Argv: childArgv, Env: childEnv(a.env.Environ, n, true), Dir: a.env.Cwd,
		Stdin: a.env.Stdin, Stdout: a.env.Stdout, Stderr: a.env.Stderr,
	}
	if j.hookCall {
		j.spec.Env = safeEnviron(a.env.Environ) // the agent's own hook: not a guarded command
	}
	if (j.mode == modeShell && inv.HasC || j.mode == modeStdin) && j.envelope == "" && !j.hookCall {
		j.envNames = KnownEnv(j.spec.Env, inv.Flags)
	}
	return a.judgeAndRun(j)
}

func (a *app) exec(argv []string, timeout time.Duration, cwd string) int {
	if len(argv) == 0 || argv[0] == "" {
		a.errorf("exec needs a program: guard exec -- PROG ARGS...")
		return ExitUsage
	}
	if cwd == "" {
		cwd = a.env.Cwd
	}
	n, err := depth(&a.env)
	if err != nil {
		a.errorf("%v", err)
		return ExitFailure
	}
	j := job{
		mode: modeExec, text: quoteArgv(argv), argv: argv, cwd: cwd, timeout: timeout,
		spec: runSpec{
			Argv: argv, Env: childEnv(a.env.Environ, n, true), Dir: cwd,
			Stdin: a.env.Stdin, Stdout: a.env.Stdout, Stderr: a.env.Stderr,
		},
	}
	return a.judgeAndRun(j)
}

// ruleStartupFile refuses a shell command line that names a start-up file.
const ruleStartupFile = "shell-startup-file"

// startupFileFlag returns --rcfile or --init-file when flags hold one: with
// -i, bash sources the file before the command (an interactive session
// drops it instead, see sessionFlags).
func startupFileFlag(flags []string) string {
	for _, f := range flags {
		if f == "--rcfile" || f == "--init-file" {
			return f
		}
	}
	return ""
}

// isTTY reports whether f is a terminal.
func isTTY(f *os.File) bool { return f != nil && term.IsTerminal(int(f.Fd())) }

// constError is an error that can be a constant.
type constError string

func (e constError) Error() string { return string(e) }

// errTooLong marks a script longer than guard judges.
const errTooLong = constError("too long to judge")

// readScript reads the whole script from stdin, up to the size guard judges.
func readScript(r io.Reader) (string, error) {
	if r == nil {
		return "", nil
	}
	b, err := io.ReadAll(io.LimitReader(r, maxStdinScript+1))
	if err != nil {
		return "", fmt.Errorf("read script from stdin: %w", err)
	}
	if len(b) > maxStdinScript {
		return "", fmt.Errorf("script on stdin is longer than %d KiB: %w", maxStdinScript>>10, errTooLong)
	}
	return string(b), nil
}

// withoutS drops -s from the flags: the script now comes with -c.
func withoutS(argv []string) []string {
	out := argv[:1:1]
	for i, f := range argv[1:] {
		if len(f) > 1 && f[0] == '-' && f[1] != '-' && (i == 0 || !optTakesArg(argv[i])) {
			f = "-" + strings.ReplaceAll(f[1:], "s", "")
			if f == "-" {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// optTakesArg reports whether the flag word f consumes the following word.
func optTakesArg(f string) bool {
	if strings.HasPrefix(f, "--") {
		return longOpts[f]
	}
	return len(f) > 1 && (f[0] == '-' || f[0] == '+') && strings.ContainsAny(f[1:], "oO")
}

// childEnv is the caller's environment plus GUARD_ACTIVE=1 (for a guarded
// command) and the nesting depth, without what a shell would run from it
// (see shellSafe).
func childEnv(environ []string, depth int, active bool) []string {
	out := make([]string, 0, len(environ)+2)
	for _, kv := range environ {
		if strings.HasPrefix(kv, "GUARD_DEPTH=") || (active && strings.HasPrefix(kv, "GUARD_ACTIVE=")) || !shellSafe(kv) {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "GUARD_DEPTH="+strconv.Itoa(depth+1))
	if active {
		out = append(out, "GUARD_ACTIVE=1")
	}
	return out
}

// shellCodeVars are the variables whose value bash (or sh) runs as code, or
// which turn on what does, before or beside the command guard judged:
// BASH_ENV and ENV name a file sourced at start-up, SHELLOPTS and BASHOPTS
// set options at start-up (xtrace, then PS4 is expanded for every
// command), PS4 is expanded with xtrace, PROMPT_COMMAND and PS0 run around
// each interactive command. The agent sets guard's environment (it is the
// agent's $SHELL), so guard drops them all from what the command gets: a
// judged ls must not source evil.sh on the way. Dropping is safe (the
// command runs as if they were never set) and costs nothing to judge.
var shellCodeVars = []string{"BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "PS0"}

// shellSafe reports whether a NAME=VALUE entry may reach the shell guard
// runs: not one of shellCodeVars, and not an exported function
// (BASH_FUNC_NAME%%=() { …; }, or BASH_FUNC_NAME()= before bash 4.3-p27),
// which bash defines at start-up and a judged "ls" would then call.
func shellSafe(kv string) bool {
	name, _, _ := strings.Cut(kv, "=")
	if strings.HasPrefix(name, "BASH_FUNC_") {
		return false
	}
	for _, v := range shellCodeVars {
		if name == v {
			return false
		}
	}
	return true
}

// safeEnviron is environ without what shellSafe refuses.
func safeEnviron(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if shellSafe(kv) {
			out = append(out, kv)
		}
	}
	return out
}

// quoteArgv writes argv as a shell would need it typed. An argument no
// shell can pass (a NUL byte) stays in the text, where classify refuses it.
func quoteArgv(argv []string) string {
	text, err := classify.QuoteArgv(argv)
	if err != nil {
		return strings.Join(argv, " ")
	}
	return text
}

// limits are the run's settings after the environment had its say.
type limits struct {
	timeout      time.Duration
	askTimeout   time.Duration
	rejectMemory time.Duration
	noPrompt     bool
	trusted      []string // trusted_terminals
}

func (a *app) limits(j job, s *grants.Settings) (limits, error) {
	// reject_memory has its default in grants.Defaults ("0s" turns it off).
	l := limits{timeout: defaultTimeout, askTimeout: defaultAskTimeout, rejectMemory: s.RejectMemory}
	if s.Timeout > 0 {
		l.timeout = s.Timeout
	}
	if v := a.env.getenv("GUARD_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return l, fmt.Errorf("GUARD_TIMEOUT=%q is not a positive duration like 90s or 10m", v)
		}
		l.timeout = d
	}
	if j.timeout > 0 {
		l.timeout = j.timeout
	}
	if s.AskTimeout > 0 {
		l.askTimeout = s.AskTimeout
	}
	l.noPrompt = s.NoTTYPrompt || a.env.getenv("GUARD_NO_PROMPT") == "1"
	l.trusted = s.TrustedTerminals
	return l, nil
}

// judgeAndRun decides on the job, asks when it must, runs what is allowed and
// records the decision. Every path that cannot decide refuses.
func (a *app) judgeAndRun(j job) int {
	start := a.env.now()
	opts := classify.Options{Cwd: j.cwd, Home: a.env.getenv("HOME"), Protected: a.eng.protected(), Positional: j.positional,
		Funcs: j.funcs, Aliases: j.aliases, Shadow: j.shadow, EnvNames: j.envNames, SessionVars: j.vars}
	var an *classify.Analysis
	if j.argv != nil {
		an = a.eng.analyzeArgv(j.argv, opts)
	} else {
		an = a.eng.analyze(j.text, opts)
	}
	if j.noteVars != nil {
		j.noteVars(an.Assigned)
	}
	if base := a.eng.redact; len(an.Secrets) > 0 {
		// passwords the argument model found (mysql -pX) are redacted in every record too
		a.eng.redact = func(s string) string { return base(redact.Values(s, an.Secrets)) }
		defer func() { a.eng.redact = base }()
	}
	var s *grants.Settings
	if a.pre != nil && a.preCwd == j.cwd {
		s, a.pre = a.pre, nil // loaded by shell() for the real shell
	} else {
		s = a.eng.settings(j.cwd)
	}
	if s == nil {
		s = &grants.Settings{Unknown: grants.Deny, Err: errors.New("settings not loaded")}
	}
	if s.AgentMatters() { // [agents.NAME], power_agents, a [[rule]] naming one
		s = s.As(a.agent())
	}
	if j.mode == modeInteractive {
		// a line typed in the interactive shell: its assignments, loops
		// and functions are judged part by part (grants.Settings.Person)
		p := *s
		p.Person = true
		s = &p
	}
	a.root, a.telemetry = s.Root, s.Telemetry.Enabled()
	v := plumbingVerdict(j, a.eng.decide(an, s))
	// A project config's allow rules guard ignored: said when they may be
	// why a command is refused or asked (once a session), never beside an
	// allowed command's own stderr, which the agent reads as the command's.
	if v.Decision != grants.Allow && !a.hinted {
		for _, w := range s.Warnings {
			fmt.Fprintf(a.env.Stderr, "guard: hint: %s\n", oneLine(a.eng.redact(w)))
		}
		a.hinted = len(s.Warnings) > 0
	}
	if v.Decision != grants.Allow && grants.WouldAllowTrusted(an, s, nil, v) {
		fmt.Fprintf(a.env.Stderr, "guard: hint: %s\n", grants.UntrustedHint)
	}
	lim, err := a.limits(j, s)
	if err != nil {
		a.errorf("%v", err)
		a.record(j, v, "deny", byRule, ExitFailure, start)
		return ExitFailure
	}
	a.auditRequired = s.AuditRequired
	if s.AuditRequired && v.Decision != grants.Deny {
		// Checked before asking: a human should not answer in vain.
		if err := a.probeAudit(); err != nil {
			// guard's state is broken, not the command: 125, not a refusal.
			a.errorf("audit_required is set and the audit record cannot be written, so the command did not run: %s",
				oneLine(a.eng.redact(err.Error())))
			a.noteLost()
			return ExitFailure
		}
	}
	how := byRule
	switch v.Decision {
	case grants.Allow:
	case grants.Ask:
		if how = a.askOrTicket(j, v, lim); !how.allowed() {
			return a.refusedAsk(j, v, how, start)
		}
	default:
		return a.deny(j, v, start)
	}
	run := a.runJob
	if j.run != nil {
		run = j.run
	}
	a.cur, a.cacheHit = &runContext{an: an, ctx: &s.Context, byRule: how == byRule && v.Would == "", root: s.Root}, false
	if refused, exit := a.confineJob(j, s, v, start); refused {
		return exit
	}
	exit := run(j, lim)
	if v.Would != "" {
		// dry_run or off let a deny or ask run: recorded as what enforce
		// would have done (policy.go)
		a.recordWould(j, v, s, exit, start)
		return exit
	}
	if a.cacheHit {
		how.answer = answerCache
	}
	a.record(j, v, string(v.Decision), how, exit, start)
	return exit
}

// deny refuses on a verdict: the message first, then the record, so that the
// refusal never waits on the disk.
func (a *app) deny(j job, v grants.Verdict, start time.Time) int {
	rule := v.Rule
	if rule == "" {
		rule = "deny"
	}
	fmt.Fprintf(a.env.Stderr, "guard: denied: %s: %s\n", oneLine(rule), oneLine(a.eng.redact(v.Reason)))
	a.record(j, v, "deny", byRule, ExitRefused, start)
	return ExitRefused
}

// refuse denies without a verdict (the text could not even be read whole).
func (a *app) refuse(j job, rule, reason string) int {
	return a.deny(j, grants.Verdict{Decision: grants.Deny, Rule: rule, Reason: reason, Risk: grants.RiskHigh}, a.env.now())
}

// refusedAsk reports an ask that did not end in allow: the human said no
// (or did not answer), or nobody could be asked and the request is pending.
func (a *app) refusedAsk(j job, v grants.Verdict, how answered, start time.Time) int {
	a.record(j, v, how.decision(), how, ExitRefused, start)
	return ExitRefused
}

// ask resolves an ask verdict: an approval given with guard approve --once,
// else a recent rejection of the same text, else the human at a trusted
// terminal, else the human at guard watch, else a pending request. It
// reports who answered, and how.
func (a *app) ask(j job, v grants.Verdict, lim limits) answered {
	sum, err := a.textSum(j.text)
	if err != nil {
		a.warn(err)
	}
	if jr := a.journal(); jr != nil && sum != "" {
		ok, err := jr.TakeOnce(sum, j.cwd, a.env.now())
		if err != nil {
			// not an audit problem: say what failed, once, and go on asking
			a.warnPending("approvals from guard approve were not checked", err)
		}
		if ok {
			return answered{answerOnce, viaApprove}
		}
		at, msg, found, err := jr.Rejected(sum, a.eng.projectRoot(j.cwd), a.env.now(), lim.rejectMemory)
		if err != nil {
			a.warnPending("rejections from guard reject were not checked", err)
		}
		if found {
			fmt.Fprintf(a.env.Stderr, "guard: denied: rejected by the human at %s; do not retry%s\n", at.Local().Format("15:04"), a.saying(msg))
			return answered{answerRejected, viaRule}
		}
	}
	shown := a.eng.redact(j.text)
	// A pattern is made from the command's words: a secret in them is shown
	// (and stored) redacted, which also keeps it from matching anything.
	v.Suggest = a.eng.redact(v.Suggest)
	var tty *os.File
	var tt TTYTrust
	if !lim.noPrompt {
		tty, tt = a.terminal(lim.trusted)
	}
	why := tt.Why
	if tty == nil {
		id := a.addPending(j, v, shown, sum)
		if how, ok := a.askConsole(j, v, id, sum, lim); ok {
			return how
		}
		if why != "" {
			v.Reason += " (" + why + ")" // why the human was not asked
		}
		a.needsApproval(v, shown, id)
		if why != "" && !a.ttyHinted {
			// There is a terminal, but guard will not ask on it: say once
			// where an answer can come from instead.
			config := grants.PathsFromEnv(a.env.getenv).GlobalConfig()
			hint := tt.Hint(config)
			if j.mode == modeInteractive {
				hint = tt.TypedHint(config)
			}
			fmt.Fprintf(a.env.Stderr, "guard: hint: %s\n", oneLine(hint))
			a.ttyHinted = true
		}
		return answered{answerPending, viaRule}
	}
	defer tty.Close()
	q := Question{
		Command: shown, Cwd: j.cwd, Root: a.eng.projectRoot(j.cwd), Risk: string(v.Risk), Reason: a.eng.redact(v.Reason), Rule: v.Rule,
		Suggest: v.Suggest, OnceOnly: v.OnceOnly, Unredacted: j.text, ProjectOnly: grants.ProjectOnly(v.Suggest),
		Typed: j.mode == modeInteractive, Preview: a.promptPreview(j.cwd),
	}
	reply, err := Prompt(tty, q, lim.askTimeout)
	ans, pattern := reply.Answer, reply.Pattern
	how := answered{string(reply.Outcome), viaTerminal}
	if how.answer == "" {
		how.answer = answerCancelled // a Prompt that says nothing of how it ended denied
	}
	switch {
	case err != nil:
		why := err.Error()
		if errors.Is(err, ErrAskTimeout) {
			why = "no answer within " + shortDuration(lim.askTimeout)
		}
		fmt.Fprintf(a.env.Stderr, "guard: denied: %s: %s\n", oneLine(v.Rule), oneLine(why))
		return how
	case ans == AnswerDeny:
		fmt.Fprintf(a.env.Stderr, "guard: denied: %s: denied at the terminal\n", oneLine(v.Rule))
		return answered{answerDeny, viaTerminal}
	case ans == AnswerProject || ans == AnswerGlobal:
		file := a.eng.grantFile(ans, j.cwd)
		var until time.Time
		if reply.For > 0 {
			until = a.env.now().Add(reply.For)
		}
		if err := a.eng.addRule(file, pattern, until); err != nil {
			// The human allowed this run; only remembering it failed.
			fmt.Fprintf(a.env.Stderr, "guard: warning: grant not stored: %s\n", oneLine(err.Error()))
		}
	}
	if !how.allowed() {
		how.answer = answerOnce // an allowing Answer whatever the Outcome says
	}
	return how
}

// terminal opens the human's terminal for a prompt. It returns nil when
// there is none, and also the verdict (with why) when the terminal is not
// a human's.
func (a *app) terminal(trusted []string) (*os.File, TTYTrust) {
	tty, err := a.eng.openTTY()
	if err != nil || tty == nil {
		return nil, TTYTrust{}
	}
	if t := a.eng.trustTTY(tty, trusted); !t.Human {
		tty.Close()
		return nil, t
	}
	return tty, TTYTrust{}
}

// openControllingTTY opens /dev/tty for a prompt. It fails when there is no
// controlling terminal, or when guard is not in its foreground: a background
// guard would be stopped by the terminal, or fight the foreground for keys.
func openControllingTTY() (*os.File, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	fd := int(tty.Fd())
	fg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	if err != nil || !term.IsTerminal(fd) || fg != unix.Getpgrp() {
		tty.Close()
		return nil, errors.New("guard is not in the terminal's foreground")
	}
	return tty, nil
}

// addPending records a pending request and returns its id ("" when it
// could not be stored).
func (a *app) addPending(j job, v grants.Verdict, shown, sum string) string {
	jr := a.journal()
	if jr == nil || sum == "" {
		return ""
	}
	id, err := jr.AddPending(pendingRequest{
		Time: a.env.now(), Cwd: j.cwd, Root: a.eng.projectRoot(j.cwd), Command: shown, HMAC: sum, Suggest: v.Suggest,
	})
	if err != nil {
		a.warnPending("the request was not saved for guard approve", err)
	}
	return id
}

// needsApproval prints the one line that tells the human how to approve a
// pending request.
func (a *app) needsApproval(v grants.Verdict, shown, id string) {
	how := ""
	if v.Suggest != "" && !v.OnceOnly {
		how = "guard grants add --project " + classify.QuoteWord(v.Suggest)
	}
	page := ""
	if id != "" && a.eng.consoleURL != nil {
		if u := a.eng.consoleURL(); u != "" {
			page = ", or at " + u
		}
	}
	switch {
	case how != "" && id != "":
		how += "  (or: guard approve " + id + page + ")"
	case id != "":
		how = "guard approve " + id + " --once" + page
	case how == "":
		how = "run it yourself, or allow it once from a terminal"
	}
	fmt.Fprintf(a.env.Stderr, "guard: needs approval: %s (%s); to allow it here: %s\n",
		oneLine(shown), oneLine(a.eng.redact(v.Reason)), how)
}

// runJob runs an allowed job and returns guard's exit status.
func (a *app) runJob(j job, lim limits) int {
	sp := j.spec
	if sp.Path == "" {
		path, err := lookPath(sp.Argv[0], a.env.getenv("PATH"), j.cwd)
		if err != nil {
			a.errorf("%s: %v", oneLine(a.eng.redact(sp.Argv[0])), err)
			if errors.Is(err, os.ErrPermission) {
				return ExitRefused
			}
			return ExitNoProg
		}
		sp.Path = path
	}
	sp.Timeout = lim.timeout
	sp.Confine = a.conf
	sp.FileLimit = a.fileLimit
	st, exit, served := a.prepareStore(j, &sp, lim)
	if served {
		return exit
	}
	sigs := make(chan os.Signal, 8)
	listened := make(chan struct{})
	sp.Signals = sigs
	sp.Meanwhile = func() {
		// What the record needs first: enabling signals takes longer
		// (thread round trips that compete with the starting command),
		// and no shell has set a trap this early anyway.
		a.agent()
		if a.eng.prepare != nil {
			a.eng.prepare()
		}
		a.eng.listen(sigs)
		close(listened)
	}
	if a.eng.children != nil {
		sp.Keep = a.eng.children()
	}
	if a.eng.unlisten == nil {
		// guard exits after the run: a signal while it records ends it
		// now (128+N), and the record not written is counted as lost.
		sp.Late = func(sig syscall.Signal) { a.noteLost(); os.Exit(128 + int(sig)) }
	}
	res, err := run(sp)
	a.ran += res.Ran
	st.done(res, err)
	if a.eng.unlisten != nil && err == nil {
		// (a command that never started never ran Meanwhile)
		<-listened
		a.eng.unlisten(sigs)
	}
	if err != nil {
		a.errorf("%s", oneLine(a.eng.redact(err.Error())))
		return ExitFailure
	}
	if res.TimedOut {
		fmt.Fprintf(a.env.Stderr, "guard: timed out after %s\n", shortDuration(lim.timeout))
		return ExitTimeout
	}
	return res.Exit
}

// lookPath finds prog the way exec finds it: a name with a slash is a path
// (relative to cwd), else the first executable in an absolute PATH entry.
func lookPath(prog, path, cwd string) (string, error) {
	if strings.Contains(prog, "/") {
		if !filepath.IsAbs(prog) {
			prog = filepath.Join(cwd, prog)
		}
		fi, err := os.Stat(prog)
		if err != nil {
			return "", errors.New("no such file")
		}
		if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
			return "", fmt.Errorf("not executable: %w", os.ErrPermission)
		}
		return prog, nil
	}
	if path == "" {
		path = defaultPath
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if cand := filepath.Join(dir, prog); executable(cand) {
			return cand, nil
		}
	}
	return "", errors.New("command not found")
}

// textSum is the keyed hash of a command text, as recorded and as
// approvals match it, made once per run and only when something is written
// or looked up (the key is read from the state directory). It is "" with an
// error when no key can be had: then nothing matches it. The caller warns.
func (a *app) textSum(text string) (string, error) {
	if a.sumOf == text && (a.sum != "" || a.sumErr != nil) {
		return a.sum, a.sumErr
	}
	jr := a.journal()
	if jr == nil {
		return "", nil // warned already
	}
	a.sum, a.sumErr = jr.Sum(text)
	a.sumOf = text
	if a.sumErr != nil {
		a.sum = ""
	}
	return a.sum, a.sumErr
}

// oneLine keeps a message on one line, an agent reads stderr line by line,
// and shows control characters escaped: the same line may reach a human's
// terminal.
func oneLine(s string) string { return redact.Visible(s) }

// KnownEnv returns the names of the variables a shell started with env
// and flags has before the text runs, or nil when something else may set
// variables first: a login shell's profile, BASH_ENV or ENV, exported
// functions.
func KnownEnv(env, flags []string) map[string]bool {
	for _, f := range flags {
		if f == "--login" || f == "-i" || f == "--rcfile" || f == "--init-file" || len(f) > 1 && f[0] == '-' && f[1] != '-' && strings.ContainsAny(f[1:], "li") {
			return nil
		}
	}
	names := make(map[string]bool, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name == "BASH_ENV" || name == "ENV" || strings.HasPrefix(name, "BASH_FUNC_") {
			return nil
		}
		names[name] = true
	}
	return names
}
