package shim

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/redact"
)

// The command context store, from guard's side: which runs are captured
// and kept, and which are answered from the cache. Everything here is
// cgo-free files (package ccs's Cache); guard-cli indexes them in SQLite.

// answerCache is how a served hit is recorded.
const answerCache = "cache"

// maxFlightWait bounds how long a guard waits for another guard running
// the same cacheable command before running it itself.
const maxFlightWait = 5 * time.Minute

// envRefresh marks the guard a stale hit started to refresh its entry: it
// runs the command (never serves it) and stores the result under the key
// the stale hit had: its value says whether that run's stdout and stderr
// were one file ("merged") or two ("split"), as the key records.
const envRefresh = "GUARD_CACHE_REFRESH"

// runContext is what the store needs of the decision on the job that is
// about to run.
type runContext struct {
	an     *classify.Analysis
	ctx    *grants.Context
	byRule bool   // allowed by a rule, no human: a background refresh may run it again
	root   string // the project root the settings were loaded for
}

// storeRun is one run on its way into the store.
type storeRun struct {
	a     *app
	j     job
	cache *ccs.Cache
	cap   *capture
	red   *redact.Redactor
	rule  *grants.CacheRule
	key   string
	racy  ccs.Racy // the files whose content the key stands for
	// uncached says why a run the rule matched has no key: a fresh-run
	// flag, or what the fingerprint could not stand for. guard context
	// show prints it.
	uncached string
	flight   *ccs.Flight
	start    time.Time
}

// isTerminal reports whether f is a terminal (nil is /dev/null: not one).
func isTerminal(f *os.File) bool {
	return f != nil && term.IsTerminal(int(f.Fd()))
}

// prepareStore decides what happens to the job's output: served from the
// cache (served true: exit is the status to return), captured into the
// store, redacted live, or passed through untouched (nil). It changes sp
// to capture.
func (a *app) prepareStore(j job, sp *runSpec, lim limits) (st *storeRun, exit int, served bool) {
	rc := a.cur
	if rc == nil || rc.ctx == nil || sp.Stdout == nil || sp.Stderr == nil || startedClosed(sp.Stdout) || startedClosed(sp.Stderr) ||
		a.insideBoundary() {
		// (a stream closed when guard started stays closed: nothing to
		// pipe; a guard inside another's boundary stores nothing)
		return nil, 0, false
	}
	c := rc.ctx
	tty := isTerminal(sp.Stdout) || isTerminal(sp.Stderr)
	keep := a.env.getenv("GUARD_NO_CACHE") != "1" && (!tty || c.CaptureTTY) && !grants.IsSensitive(rc.an, c)
	if detaches(rc.an) {
		// A job left running would write into guard's pipe after guard
		// is gone, and die of SIGPIPE: it gets the agent's own files.
		return nil, 0, false
	}
	if !keep && !c.RedactLive {
		return nil, 0, false
	}
	st = &storeRun{a: a, j: j, start: a.env.now()}
	st.cache = ccs.OpenCache(grants.PathsFromEnv(a.env.getenv).CacheDir)
	st.cache.SetImporter(a.startImport)
	// An agent's envelope runs more than the command judged (its own
	// bookkeeping around it): that is never answered from the cache.
	if keep && j.envelope == "" && j.plumbing == "" {
		if rule, argv := grants.CacheRuleFor(rc.an, c); rule != nil {
			st.rule = rule
			if fresh := freshFlag(rc.an); fresh != "" {
				// what the user asked for: a run past every cache
				st.uncached = fresh + " asks for a fresh run"
			} else if key, racy, err := ccs.Key(ccs.KeyInput{
				Argv: argv, Cwd: j.cwd, KeyEnv: rule.KeyEnv, Getenv: a.env.getenv,
				Stdin: ccs.StdinClass(sp.Stdin), Watch: rule.Watch, Reads: reads(rc.an, j.cwd), Environ: a.env.Environ,
				Skip: grants.PathsFromEnv(a.env.getenv).Protected(), Merged: a.merged(sp),
				// no Now: the racy window is measured on the clock that
				// stamps the files, not on env.now
			}); err != nil {
				st.uncached = ccs.Reason(err)
			} else {
				st.key, st.racy = key, racy
				if exit, ok := st.lookup(sp, lim, argv, rc); ok {
					return nil, exit, true
				}
			}
		}
	}
	var live *redact.Redactor
	if c.RedactLive {
		live = st.redactor()
	}
	cp, err := newCapture(sp.Stdout, sp.Stderr, keep, live)
	if err != nil {
		st.flight.Release()
		a.storeWarn(err)
		return nil, 0, false
	}
	if cp.keep != nil {
		cp.keep.SetRedactor(st.redactor) // a long output is redacted while it runs
		if st.key == "" {
			cp.keep.SetLimit(ccs.MaxRecord) // only a record: its head is enough
		}
	}
	st.cap = cp
	sp.Stdout, sp.Stderr = cp.write[ccs.Stdout], cp.write[ccs.Stderr]
	sp.Capture = cp
	return st, 0, false
}

// lookup serves the key's entry when it may be served, waiting for
// another guard that is running the same command (single flight). Else
// it leaves st holding the key's lock, so that others wait for this run.
func (st *storeRun) lookup(sp *runSpec, lim limits, argv []string, rc *runContext) (int, bool) {
	refresh := st.a.env.getenv(envRefresh) != ""
	if !refresh {
		if exit, ok := st.serve(sp, argv, rc); ok {
			return exit, true
		}
	}
	fl, waited := st.cache.Acquire(st.key, min(lim.timeout, maxFlightWait))
	st.flight = fl
	if !waited && !refresh && fl != nil {
		// Taken at once, but another guard may have run the command and
		// let the lock go between the look above and this one: look again
		// under the lock, or this guard would run it a second time.
		if exit, ok := st.serve(sp, argv, rc); ok {
			fl.Release()
			st.flight = nil
			return exit, true
		}
		return 0, false
	}
	if waited && !refresh {
		// Served or not, the lock is let go: when the run waited for gave
		// nothing to serve (it failed, printed a secret, was killed), this
		// one runs without holding the others back one after another.
		exit, ok := st.serve(sp, argv, rc)
		fl.Release()
		st.flight = nil
		return exit, ok
	}
	return 0, false
}

// serve replays the key's entry if it is fresh enough, with the note on
// stderr, and starts a background refresh of a stale one.
func (st *storeRun) serve(sp *runSpec, argv []string, rc *runContext) (int, bool) {
	e := st.cache.Lookup(st.key)
	if e == nil {
		return 0, false
	}
	// the rule as it is now, not as it was when the entry was stored
	e.TTL, e.Stale, e.CacheFailures = st.rule.TTL, st.rule.Stale, st.rule.CacheFailures
	now := st.a.env.now()
	if !e.Servable(now) || !e.Racy.Holds() {
		return 0, false
	}
	for _, c := range e.Chunks {
		f := sp.Stdout
		if c.Stream == ccs.Stderr {
			f = sp.Stderr
		}
		if _, err := f.Write(c.Data); err != nil {
			break // the agent went away; the status still stands
		}
	}
	age := now.Sub(e.Time)
	if rc.ctx.CacheNote {
		fmt.Fprintf(sp.Stderr, "guard: cached %s ago (ttl %s); GUARD_NO_CACHE=1 to rerun\n",
			shortDuration(age.Truncate(time.Second)), shortDuration(e.TTL))
	}
	_ = st.cache.NoteHit(e, now)
	st.a.cacheHit = true
	if e.Stale > 0 && age >= e.Stale && rc.byRule && !st.cache.Busy(st.key) {
		st.a.refresh(st.j, argv, sameFile(sp.Stdout, sp.Stderr))
	}
	return e.Exit, true
}

// done stores the run, redacted, unless it was killed, timed out or did
// not start, and lets the guards waiting on its key go.
func (st *storeRun) done(res runResult, err error) {
	if st == nil {
		return
	}
	defer st.flight.Release()
	if st.cap == nil || st.cap.keep == nil || err != nil || res.TimedOut || res.Killed {
		return
	}
	a := st.a
	if st.key == "" && st.cap.keep.Empty() {
		// Nothing to read again: the run's record is in the audit trail.
		// (Most commands an agent runs print nothing: mkdir, git add, cd.)
		return
	}
	chunks, redacted := st.cap.keep.Output(st.redactor())
	if secrets := a.cur.an.Secrets; len(secrets) > 0 {
		for i, c := range chunks {
			if v := redact.Values(string(c.Data), secrets); v != string(c.Data) {
				chunks[i].Data, redacted = []byte(v), true
			}
		}
	}
	var n int64
	for _, c := range chunks {
		n += int64(len(c.Data))
	}
	now := a.env.now()
	// the directories are redacted as the journal's are: a directory's
	// name may hold a secret (a clone named after a token)
	red := st.redactor()
	r := &ccs.Run{
		Time: st.start.UTC(), Agent: a.agent(), Cwd: red.String(st.j.cwd), Root: red.String(a.cur.root),
		Command: a.eng.redact(st.j.text), Exit: res.Exit, DurationMS: now.Sub(st.start).Milliseconds(),
		Redacted: redacted, Truncated: st.cap.keep.Truncated() || st.cap.cut, Bytes: n, Chunks: chunks,
	}
	if st.key != "" {
		r.Key, r.Rule, r.Racy = st.key, st.rule.Match, st.racy
		r.TTL, r.Stale, r.CacheFailures = st.rule.TTL, st.rule.Stale, st.rule.CacheFailures
	} else if st.uncached != "" {
		r.Rule, r.Uncached = st.rule.Match, a.eng.redact(st.uncached)
	}
	if err := st.cache.Save(r, now); err != nil {
		a.storeWarn(err)
	}
}

// storeWarn says once that the output was not stored; the command's own
// result is untouched.
func (a *app) storeWarn(err error) {
	fmt.Fprintf(a.env.Stderr, "guard: warning: output not stored: %s\n", oneLine(a.eng.redact(err.Error())))
}

// startImport starts guard-cli context --import in the background, to move
// the spool into the database; guard does not wait for it.
func (a *app) startImport() {
	cli, err := FindCLI(a.env.Self, "")
	if err != nil {
		return
	}
	cmd := exec.Command(cli, "context", "--import")
	cmd.Env = a.env.Environ
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		_ = cmd.Process.Release()
	}
}

// refresh reruns a stale entry's command in the background, detached, with
// nothing for input or output: guard exec stores its result.
func (a *app) refresh(j job, argv []string, merged bool) {
	if a.env.Self == "" {
		return
	}
	cmd := exec.Command(a.env.Self, append([]string{"exec", "--cwd", j.cwd, "--"}, argv...)...)
	cmd.Args[0] = "guard" // whichever of guard's programs this is, it reads its command line as guard's
	env := make([]string, 0, len(a.env.Environ)+2)
	for _, kv := range a.env.Environ {
		if !strings.HasPrefix(kv, envRefresh+"=") && !strings.HasPrefix(kv, "GUARD_NO_PROMPT=") {
			env = append(env, kv)
		}
	}
	streams := "split"
	if merged {
		streams = "merged"
	}
	cmd.Env = append(env, envRefresh+"="+streams, "GUARD_NO_PROMPT=1")
	cmd.Dir = j.cwd
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		_ = cmd.Process.Release()
	}
}

// NoCache is env with GUARD_NO_CACHE=1, for guard exec --no-cache: the run
// is neither served from the cache nor stored.
func NoCache(env Env) Env {
	get := env.Getenv
	env.Getenv = func(k string) string {
		if k == "GUARD_NO_CACHE" {
			return "1"
		}
		if get == nil {
			return ""
		}
		return get(k)
	}
	env.Environ = append(append([]string(nil), env.Environ...), "GUARD_NO_CACHE=1")
	return env
}

// merged reports whether the run's stdout and stderr count as one file for
// the key: they are, or this guard refreshes an entry whose run's were.
func (a *app) merged(sp *runSpec) bool {
	switch a.env.getenv(envRefresh) {
	case "merged":
		return true
	case "split":
		return false
	}
	return sameFile(sp.Stdout, sp.Stderr)
}

// redactor is the secret filter for this run's output: the one the audit
// uses (the environment's secrets, redact_patterns, .guard/redact), built
// on first use (tens of microseconds: every secret-looking environment
// value).
func (st *storeRun) redactor() *redact.Redactor {
	if st.red == nil {
		if st.a.eng.redactor != nil {
			st.red = st.a.eng.redactor()
		} else {
			st.red = redact.New(st.a.env.Environ)
		}
	}
	return st.red
}

// freshFlag returns the first word of the text that asks its program for
// a fresh run, past its own caches (classify's Opt.Fresh: go test
// -count=1, make -B, pytest --cache-clear…): such a run is never answered
// from guard's cache either.
func freshFlag(an *classify.Analysis) string {
	for i := range an.Commands {
		if f := an.Commands[i].Words().Fresh; f != "" {
			return f
		}
	}
	return ""
}

// readRoles are the roles of words that name a path the command may read.
var readRoles = []classify.Role{classify.RoleRead, classify.RoleMeta, classify.RoleUse, classify.RoleDir,
	classify.RoleProgram, classify.RoleUnknown}

// recursive are programs that read everything under a directory operand
// (or under "." when given none) without being asked.
var recursive = map[string]bool{"du": true, "find": true, "gfind": true, "tree": true, "rg": true, "ag": true, "ack": true, "fd": true, "fdfind": true}

// listers read "." when they are given no path.
var listers = map[string]bool{"ls": true, "dir": true, "vdir": true, "du": true, "find": true, "gfind": true, "tree": true, "rg": true, "ag": true, "ack": true, "fd": true, "fdfind": true}

// reads returns the paths the argument model says the text's commands
// read, absolute (against each command's directory), for the fingerprint:
// it takes them wherever they are, outside the project or ignored by git
// in it. A directory the command recurses into (grep -r, du, make -C, a
// word no spec types) is read whole.
func reads(an *classify.Analysis, cwd string) []ccs.Read {
	var out []ccs.Read
	for i := range an.Commands {
		cmd := &an.Commands[i]
		dir := cmd.Dir
		if dir == "" {
			dir = cwd
		}
		p := cmd.Words()
		deep := recursive[cmd.Name] || p.Has("recursive", "R", "r", "dereference-recursive")
		n := len(out)
		for _, w := range p.ByRole(readRoles...) {
			if cmd.Wrap != classify.WrapNone && cmd.Wrap != classify.WrapShell && cmd.InnerStart > 0 && w.Arg >= cmd.InnerStart {
				continue // the wrapped command's words: its own entry reads them
			}
			v := w.Val
			switch {
			case w.Role != classify.RoleUnknown:
			case w.Name != "" && !strings.HasPrefix(cmd.Args[w.Arg], "--") && !strings.Contains(v, "/"):
				continue // the rest of a bundle of flags the spec does not know (ls -la)
			case strings.HasPrefix(v, "-"):
				_, v, _ = strings.Cut(v, "=") // --file=PATH, where no spec says
			}
			if v == "" || v == "-" {
				continue
			}
			if !strings.HasPrefix(v, "/") {
				v = dir + "/" + v // as the kernel resolves it: no lexical cleaning past a link
			}
			switch w.Role {
			case classify.RoleDir, classify.RoleProgram, classify.RoleUnknown:
				out = append(out, ccs.Read{Path: v, Deep: true})
			default:
				out = append(out, ccs.Read{Path: v, Deep: deep})
			}
		}
		if len(out) == n && listers[cmd.Name] {
			out = append(out, ccs.Read{Path: dir, Deep: deep})
		}
	}
	return out
}

// detachers are programs whose purpose is to leave something running
// after the command returns.
var detachers = map[string]bool{"nohup": true, "setsid": true, "disown": true, "daemonize": true, "start-stop-daemon": true}

// detaches reports whether the text may leave a process running that
// still writes to the command's stdout or stderr: a background job (&,
// coproc, disown) anywhere in it, or a detaching wrapper.
func detaches(an *classify.Analysis) bool {
	if an == nil {
		return true
	}
	if slices.Contains(an.Composite, classify.CompBackground) {
		return true
	}
	for i := range an.Commands {
		cmd := &an.Commands[i]
		if detachers[cmd.Name] || slices.Contains(cmd.InnerComposite, classify.CompBackground) {
			return true
		}
	}
	return false
}
