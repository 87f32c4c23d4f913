package shim

import (
	"os"
	"os/signal"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/redact"
)

// productionEngine wires the real classify, grants and redact into one run.
func productionEngine(env *Env) engine {
	paths := grants.PathsFromEnv(env.getenv)
	red := redact.New(env.Environ)
	return engine{
		analyze:     classify.Analyze,
		analyzeArgv: classify.AnalyzeArgv,
		settings:    func(cwd string) *grants.Settings { return grants.Load(paths, cwd) },
		decide:      grants.Decide,
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
			return paths.ProjectGrants(grants.ProjectRoot(cwd))
		},
		addRule: func(file, pattern string) error {
			if err := grants.ValidatePattern(grants.Allow, pattern); err != nil {
				return err
			}
			return grants.AddRule(file, grants.Allow, pattern)
		},
		journal: func() (journal, error) { return openJournal(paths.StateDir, red, env) },
		redact:  red.String,
		openTTY: openControllingTTY,
		// guard exits right after the run, so signals are never stopped:
		// signal.Stop would cost the same thread round trips as Notify.
		listen: func(c chan<- os.Signal) func() {
			signal.Notify(c, forwarded...)
			return func() {}
		},
	}
}
