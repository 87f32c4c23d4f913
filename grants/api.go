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

// Layer names, in the order settings are merged.
const (
	LayerBuiltin       = "builtin"
	LayerManaged       = "managed"
	LayerGlobal        = "global"
	LayerGlobalGrants  = "global-grants"
	LayerProjectGrants = "project-grants"
	LayerProject       = "project"
)

// Rule ids of the verdicts that no pattern decides.
const (
	RuleConfigError     = "config-error"
	RuleInvalid         = "invalid-analysis"
	RuleEmpty           = "empty"
	RuleComposite       = "composite"
	RuleCompositeEach   = "composite-each"
	RuleDynamicCommand  = "dynamic-command"
	RuleExecCapable     = "exec-capable"
	RuleUntyped         = "untyped-option" // an option guard cannot type, under a '*' (closed world)
	RuleBuiltinReadonly = "builtin-readonly"
	RuleEnvDump         = "env-dump"
	RuleUnknown         = "unknown"
)

// Verdict is the decision on one Analysis with why.
type Verdict struct {
	Decision Decision
	Rule     string // rule id ("rm-root", "builtin-readonly", "unknown", "composite", "exec-capable") or the pattern that decided
	Reason   string // one line an agent can act on
	Risk     Risk
	Layer    string // layer of the deciding rule: builtin, managed, global, global-grants, project-grants, project
	File     string // file of the deciding rule, "" for built-in
	Line     int    // line of the deciding pattern in File, 0 for built-in
	Suggest  string // for ask on a simple command: a pattern to offer ("npm install *"), never interpreter-wide
	OnceOnly bool   // only allow-once and deny may be offered: composite text, or an ask that a stored allow could never override

	// Mode is the rollout mode the verdict was applied in (mode.go); Would
	// is what enforce would have decided when the mode let a deny or ask
	// run (Decision is then Allow), "" otherwise.
	Mode  Mode
	Would Decision

	// Network is the network of the [[rule]] that allowed the command
	// (network = "none" | "hosts" | "open"), "" when it names none: see
	// Settings.ConfineFor.
	Network string
}

// Settings is the merged, loaded configuration. The zero value is not usable: use Load or Defaults.
type Settings struct {
	// Root is the project root Load found for the working directory: what
	// "inside the project" means for a '*' grant's writes ("" when unknown:
	// each command's own directory stands in).
	Root      string
	Unknown   Decision // Ask or Deny for commands nothing covers
	Composite string   // "ask" or "each"
	// Person: the text is a line typed in guard's interactive shell. It is
	// judged part by part as composite = "each" judges |, &&, || and ;,
	// and so are its plain assignments (x=5), loops and function
	// definitions. Set by the caller for one decision, never loaded from
	// a file.
	Person          bool
	BuiltinReadonly bool          // allow the built-in read-only set
	Timeout         time.Duration // run timeout
	AskTimeout      time.Duration // prompt timeout
	NoTTYPrompt     bool          // never prompt on the terminal
	RejectMemory    time.Duration // how long a rejected text is refused without asking again
	PendingTTL      time.Duration // how long a pending request waits for guard approve before it expires
	AuditRequired   bool          // refuse to run a command whose audit record cannot be written
	Rules           []Rule        // every rule from every layer, in layer order
	// Tiers are the entries of [permissions.read], [permissions.write],
	// [permissions.http] and [permissions.packages] from every layer, in
	// layer order (Rule.Tier says which; Pattern holds the path, host or
	// package). See docs/tiers.md.
	Tiers    []Rule
	Err      error    // a config that failed to load: every decision denies with this
	Warnings []string // "file:line:col: problem" for what loading ignored (a project config's refused allow rules)

	// TrustedTerminals are executables the user vouches for as terminal
	// hosts (absolute paths), read only from the managed and global configs.
	TrustedTerminals []string

	// RealShell is the shell guard runs commands with (real_shell: an
	// absolute path), read only from the managed and global configs; the
	// managed one wins. "": found on PATH after guard's own directory.
	RealShell string

	// RedactPatterns are the redact_patterns of every layer (any layer may
	// add redaction; none can take it away).
	RedactPatterns []string

	// Structured holds every [[rule]] table from every layer, in layer
	// order (structrules.go).
	Structured []StructRule
	// Agent names the agent that runs the command (GUARD_AGENT, else the
	// parent process's name), for [[rule]] tables with agent = "…"; the
	// caller sets it after Load, when UsesAgent says a rule asks.
	Agent string

	// Policy is the rollout mode, the managed policy's switches and the
	// per-agent profiles (mode.go, managed.go, agents.go).
	Policy Policy

	// Context is the command context store's settings (cache.go).
	Context Context

	// Confine is what the kernel is asked to hold a command to
	// ([confine], confine.go); ConfineFor adds a rule's own network.
	Confine Confine

	// Telemetry is where guard-cli's flusher exports the audit records
	// ([telemetry], telemetry.go): the managed policy's or the global
	// config's, never a project's.
	Telemetry Telemetry
}

// Rule is one pattern from one layer.
type Rule struct {
	Kind    Decision // Allow, Ask or Deny
	Pattern string
	Layer   string
	File    string
	Line    int
	Trusted bool   // for the project layer's allow rules: pinned by guard trust
	Agent   string // from an [agents.NAME] profile: applies only to that agent (see Settings.ForAgent)
	// Expires is when an allow rule stops counting (zero: never), and
	// Expired says that it has, at the time Load ran: decide skips it.
	Expires time.Time
	Expired bool
	// Tier is "" for a bash pattern, else TierRead, TierWrite, TierHTTP or
	// TierPackages: Pattern is then an absolute path (a tree), a host, or
	// ecosystem:name@version.
	Tier string
}

// Layer is one file-backed settings layer, for `guard grants list`.
type Layer struct {
	Name    string // managed, global, global-grants, project-grants, project
	File    string // where the layer lives, whether or not it exists
	Exists  bool   // the file exists
	Trusted bool   // project layer: the file's hash equals the pinned one
}

// Decide is the pure decision on a, under s: no disk, no clock. A nil or
// failed Analysis, nil Settings or Settings.Err deny.
func Decide(a *classify.Analysis, s *Settings) Verdict {
	return decide(a, s, nil, nil)
}

// DecideWith is Decide with the facts the path tiers need from the disk
// (the home directory, the real project root, symlinks resolved), which
// the caller gathers first: [TierPaths] lists the paths to resolve. It is
// as pure as Decide; Decide is DecideWith(a, s, nil), which takes every
// path as written.
func DecideWith(a *classify.Analysis, s *Settings, f *Facts) Verdict {
	return decide(a, s, f, nil)
}

// Explain returns the same Verdict as Decide and a readable trace: the
// commands found, each rule tried with its layer and file:line, and why it
// matched or not. The trace holds command text: redact it before storing.
func Explain(a *classify.Analysis, s *Settings) (Verdict, []string) {
	return ExplainWith(a, s, nil)
}

// ExplainWith is Explain with the facts of DecideWith.
func ExplainWith(a *classify.Analysis, s *Settings, f *Facts) (Verdict, []string) {
	var t tracer
	v := decide(a, s, f, &t)
	return v, t.lines
}
