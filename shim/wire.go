package shim

import (
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/redact"
)

// productionEngine wires the real classify, grants and redact into one run.
func productionEngine(env *Env) engine {
	paths := grants.PathsFromEnv(env.getenv)
	// The redactor is built on first use (tens of microseconds, for every
	// environment value that looks secret): for an allowed command that is
	// its record, and prepare builds it while the command starts.
	//
	// It adds the redact_patterns of the settings and the project's
	// .guard/redact file (both can only add redaction), read on that first
	// use, from the settings this run loaded (or loads them, on a path that
	// needs redaction before the decision).
	var loaded atomic.Pointer[grants.Settings]
	red := sync.OnceValue(func() *redact.Redactor {
		s := loaded.Load()
		if s == nil {
			s = grants.Load(paths, env.Cwd)
		}
		pats := s.RedactPatterns
		if s.Root != "" {
			// invalid lines are matched as literal text; an unreadable
			// file adds nothing (it could only have added)
			more, _ := redact.ReadPatternFile(redact.ProjectFile(s.Root))
			pats = append(pats[:len(pats):len(pats)], more...)
		}
		return redact.New(env.Environ, redact.WithPatterns(pats...))
	})
	// One store per run, opened on first use (no I/O). prepare reads its
	// hash key while the command starts, so the record after it only hashes.
	store := sync.OnceValues(func() (journal, error) { return openJournal(paths.StateDir, red(), env) })
	return engine{
		analyze:     classify.Analyze,
		analyzeArgv: classify.AnalyzeArgv,
		settings: func(cwd string) *grants.Settings {
			s := grants.Load(paths, cwd)
			loaded.CompareAndSwap(nil, s)
			return s
		},
		decide: func(a *classify.Analysis, s *grants.Settings) grants.Verdict {
			// the path tiers' facts from the disk (facts.go); none for a
			// text that names no path
			return grants.DecideWith(a, s, Facts(a, s, env.getenv("HOME")))
		},
		protected: func() []string {
			// guard's own files, and the binary itself: an agent that
			// replaced it would unguard every later command
			return append(paths.Protected(), Binaries(env.Self)...)
		},
		projectRoot: grants.ProjectRoot,
		grantFile: func(a Answer, cwd string) string {
			if a == AnswerGlobal {
				return paths.GlobalGrants()
			}
			root := grants.ProjectRoot(cwd)
			_ = grants.RecordRoot(paths, root) // names the folder in guard grants list; the grant matters more
			return paths.ProjectGrants(root)
		},
		addRule: func(file, pattern string, until time.Time) error {
			if _, _, tier := grants.ParseTierGrant(pattern); tier {
				return grants.AddRuleUntil(file, grants.Allow, pattern, until) // a tree, host or package: its table
			}
			if err := grants.ValidatePattern(grants.Allow, pattern); err != nil {
				return err
			}
			return grants.AddRuleUntil(file, grants.Allow, pattern, until)
		},
		preview: func(cwd, pattern string) (auditPreview, error) {
			return cliPreview(env.Self, env.Environ, cwd, pattern)
		},
		journal:    store,
		console:    func() string { return filepath.Join(paths.StateDir, ConsoleName) },
		consoleURL: func() string { return ConsoleURL(paths.StateDir) },
		redact:     func(s string) string { return red().String(s) },
		redactor:   red,
		prepare: func() {
			red()
			if j, err := store(); err == nil {
				_, _ = j.Sum("") // reads (or makes) the key; an error is the record's to report
			}
		},
		flushTelemetry: func(now time.Time) { startFlusher(paths.StateDir, env, now) },
		escalate: func(root string, now time.Time, e grants.Escalation) (*grants.EscalationState, error) {
			return grants.NoteWouldDeny(paths, root, now, e)
		},
		confine: func(j job, s *grants.Settings, v grants.Verdict) *confinement {
			return newConfinement(s, v, j.cwd, j.text, env.getenv, paths, env.Self)
		},
		confineNotice: func(why string) { confineNotice(paths.StateDir, env.Stderr, why) },
		openTTY:       openControllingTTY,
		// a prompt is shown only on a terminal a human holds
		trustTTY: TrustTerminal,
		// guard exits right after the run, so signals are never stopped:
		// signal.Stop would cost the same thread round trips as Notify.
		listen: func(c chan<- os.Signal) { signal.Notify(c, forwarded...) },
	}
}
