//go:build shimstub

package shim

import (
	"errors"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
)

// TEMPORARY until grants.Load/AddRule and ccs land.
func productionEngine(env *Env) engine {
	return engine{
		analyze: classify.Analyze, analyzeArgv: classify.AnalyzeArgv,
		settings:    func(string) *grants.Settings { return &grants.Settings{} },
		decide:      grants.Decide,
		protected:   func() []string { return nil },
		projectRoot: func(c string) string { return c },
		grantFile:   func(Answer, string) string { return "" },
		addRule:     func(string, string) error { return errors.New("stub") },
		journal:     func() (journal, error) { return nil, errors.New("stub") },
		redact:      func(s string) string { return s },
		openTTY:     openControllingTTY,
	}
}
