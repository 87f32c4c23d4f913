package grants

import (
	"time"

	"github.com/guard-dev/guard/classify"
)

// Decision is the outcome of judging one command text.
type Decision string

const (
	Allow Decision = "allow"
	Ask   Decision = "ask"
	Deny  Decision = "deny"
)

// Risk grades a verdict: none (read-only inside the project), low (covered by a
// stored grant), high (novel, composite, destructive).
type Risk string

const (
	RiskNone Risk = "none"
	RiskLow  Risk = "low"
	RiskHigh Risk = "high"
)

// Verdict is the decision on one Analysis with why.
type Verdict struct {
	Decision Decision
	Rule     string // rule id ("rm-root", "builtin-readonly", "unknown", "composite", "exec-capable") or the pattern that decided
	Reason   string // one line an agent can act on
	Risk     Risk
	Layer    string // layer of the deciding rule: builtin, managed, global, global-grants, project-grants, project
	File     string // file of the deciding rule, "" for built-in
	Suggest  string // for ask on a simple command: a pattern to offer ("npm install *"), never interpreter-wide
	OnceOnly bool   // composite: only allow-once and deny may be offered
}

// Settings is the merged, loaded configuration. The zero value is not usable: use Load or Defaults.
type Settings struct {
	Unknown         Decision      // Ask or Deny for commands nothing covers
	Composite       string        // "ask" or "each"
	BuiltinReadonly bool          // allow the built-in read-only set
	Timeout         time.Duration // run timeout
	AskTimeout      time.Duration // prompt timeout
	NoTTYPrompt     bool          // never prompt on the terminal
	Rules           []Rule        // every rule from every layer, in layer order
	Err             error         // a config that failed to load: every decision denies with this
}

// Rule is one pattern from one layer.
type Rule struct {
	Kind    Decision // Allow, Ask or Deny
	Pattern string
	Layer   string
	File    string
	Line    int
	Trusted bool // for the project layer's allow rules: pinned by guard trust
}

// Decide is the pure decision. TEMPORARY STUB: being replaced.
func Decide(a *classify.Analysis, s *Settings) Verdict {
	return Verdict{Decision: Deny, Rule: "unimplemented", Reason: "grants not implemented yet", Risk: RiskHigh}
}
