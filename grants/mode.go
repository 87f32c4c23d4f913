package grants

import (
	"fmt"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/guard-dev/guard/classify"
)

// Mode is how a verdict is applied: a team rolls guard out in dry_run
// (watch first), then enforces.
type Mode string

const (
	// ModeEnforce applies every verdict (the default).
	ModeEnforce Mode = "enforce"
	// ModeDryRun runs what would be denied or asked, and records it as
	// would-deny or would-ask.
	ModeDryRun Mode = "dry_run"
	// ModeOff runs everything but what blocks in every mode.
	ModeOff Mode = "off"
)

// Rule ids of the policy's own verdicts and records.
const (
	RuleEscalate = "escalate" // dry_run switched to enforce (an audit record)
)

// modeRank orders modes from the loosest; "" is enforce.
func modeRank(m Mode) int {
	switch m {
	case ModeOff:
		return 0
	case ModeDryRun:
		return 1
	}
	return 2
}

// parseMode reads a mode value from a config file.
func parseMode(key string, v any) (Mode, error) {
	s, _ := v.(string)
	switch Mode(s) {
	case ModeEnforce, ModeDryRun, ModeOff:
		return Mode(s), nil
	}
	return "", fmt.Errorf(`%s must be "enforce", "dry_run" or "off"`, key)
}

// Escalation is escalate = { after = N, within = "DUR" }: in dry_run, N
// high-risk would-deny verdicts within DUR switch the project to enforce.
type Escalation struct {
	After  int
	Within time.Duration
}

// Policy is the rollout and fleet part of the settings: the effective
// mode and why, the managed policy's switches, and the per-agent profiles.
// The zero value is enforce with nothing managed.
type Policy struct {
	Mode      Mode   // the effective mode ("" reads as enforce)
	ModeWhy   string // why: "default", "mode = \"dry_run\" in project FILE", "min_mode …", "escalated …"
	ModeLayer string // the layer that set it ("" for the default)
	ModeFile  string

	MinMode     Mode // managed floor ("" none)
	MinModeFile string

	Escalate     Escalation // After 0: no escalation
	EscalateFile string
	// Escalated is the state that switched this project from dry_run to
	// enforce (Load reads it from the state directory), nil when none.
	Escalated *EscalationState

	// NoUserGrants: the managed policy set allow_user_grants = false; only
	// its own allow rules and the built-in read-only set allow.
	NoUserGrants bool
	// PowerAgents are the agents the managed policy lets use power mode
	// (nil: every agent); others get safe behaviour (see ForAgent).
	PowerAgents []string
	// Agents are the [agents.NAME] profiles, in layer order.
	Agents []AgentProfile

	// Agent is the agent ForAgent applied ("" none); Safe: it is not one
	// of PowerAgents.
	Agent string
	Safe  bool

	// Notes are what guard policy show warns about that loading saw: an
	// untrusted project config trying to loosen a setting.
	Notes []string

	// layerMode is the mode the layers set, before agent, floor and escalation.
	layerMode              Mode
	layerWhy               string
	layerModeL, layerModeF string
	agentMode              Mode
	agentWhy               string
	bound                  map[string]bool // scalar keys the managed layer set
	agentRules             bool            // ForAgent added a profile's rules
	escalateBound          bool            // the managed policy set escalate
}

// Effective returns the mode in force ("" is enforce).
func (p *Policy) Effective() Mode {
	if p.Mode == "" {
		return ModeEnforce
	}
	return p.Mode
}

// policyConfig is the policy part of one parsed settings file.
type policyConfig struct {
	mode, minMode   Mode
	escalate        *Escalation
	allowUserGrants *bool
	powerAgents     []string // nil when unset
	agents          []agentConfig
	keyAt           map[string][2]int // key → line, col (for errors by layer)
}

// policyKeys are the top-level keys policyConfig reads.
func isPolicyKey(k toml.Key) bool {
	switch k[0] {
	case "mode", "min_mode", "escalate", "allow_user_grants", "power_agents", "agents":
		return true
	}
	return false
}

// parse reads one key of the policy part. Errors read "file:line:col: problem".
func (pc *policyConfig) parse(k toml.Key, raw map[string]any, text, file string, lenient bool) error {
	last := k[len(k)-1]
	errAt := func(key, format string, args ...any) error {
		line, col := locateKey(text, key)
		return fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
	}
	if pc.keyAt == nil {
		pc.keyAt = map[string][2]int{}
	}
	line, col := locateKey(text, k[0])
	if _, ok := pc.keyAt[k[0]]; !ok {
		pc.keyAt[k[0]] = [2]int{line, col}
	}
	switch {
	case len(k) == 1 && (k[0] == "mode" || k[0] == "min_mode"):
		m, err := parseMode(k[0], raw[k[0]])
		if err != nil {
			return errAt(k[0], "%v", err)
		}
		if k[0] == "mode" {
			pc.mode = m
		} else {
			pc.minMode = m
		}
	case k[0] == "escalate":
		tbl, ok := raw["escalate"].(map[string]any)
		if !ok {
			return errAt("escalate", `escalate must be a table like { after = 3, within = "1h" }`)
		}
		if len(k) > 1 {
			return nil // read whole with the table
		}
		e := &Escalation{}
		for key, v := range tbl {
			switch key {
			case "after":
				n, ok := v.(int64)
				if !ok || n < 1 || n > 1000 {
					return errAt("after", "escalate.after must be a whole number from 1 to 1000")
				}
				e.After = int(n)
			case "within":
				s, _ := v.(string)
				d, err := time.ParseDuration(s)
				if err != nil || d <= 0 {
					return errAt("within", `escalate.within must be a positive duration like "1h"`)
				}
				e.Within = d
			default:
				return errAt(key, "unknown key %q", "escalate."+key)
			}
		}
		if e.After == 0 || e.Within == 0 {
			return errAt("escalate", `escalate needs both after and within, like { after = 3, within = "1h" }`)
		}
		pc.escalate = e
	case len(k) == 1 && k[0] == "allow_user_grants":
		b, ok := raw[last].(bool)
		if !ok {
			return errAt(last, "allow_user_grants must be true or false")
		}
		pc.allowUserGrants = &b
	case len(k) == 1 && k[0] == "power_agents":
		list, ok := raw[last].([]any)
		if !ok {
			return errAt(last, "power_agents must be an array of agent names")
		}
		pc.powerAgents = []string{}
		for _, e := range list {
			s, ok := e.(string)
			if !ok || s == "" {
				return errAt(last, "power_agents must be an array of agent names")
			}
			pc.powerAgents = append(pc.powerAgents, s)
		}
	case k[0] == "agents":
		return pc.parseAgent(k, raw, text, file, lenient)
	default:
		return errAt(last, "unknown key %q", k.String())
	}
	return nil
}

// managedOnly are the keys only the managed policy may set.
var managedOnly = [...]string{"min_mode", "allow_user_grants", "power_agents"}

// mergePolicy applies one layer's policy part: the most specific layer that
// sets mode wins (an untrusted project config only makes it stricter);
// min_mode, allow_user_grants and power_agents come only from the managed
// policy.
func (s *Settings) mergePolicy(pc *policyConfig, layer, file string, trusted bool, bound map[string]bool) error {
	p := &s.Policy
	if layer != LayerManaged {
		for _, k := range managedOnly {
			if at, ok := pc.keyAt[k]; ok {
				return fmt.Errorf("%s:%d:%d: %s is read only from the managed policy (%s)", file, at[0], at[1], k, DefaultManaged)
			}
		}
	} else {
		p.bound = bound
	}
	if pc.mode != "" {
		if trusted || modeRank(pc.mode) > modeRank(p.layerMode) {
			p.layerMode, p.layerModeL, p.layerModeF = pc.mode, layer, file
			p.layerWhy = fmt.Sprintf("mode = %q in %s %s", pc.mode, layer, file)
		} else {
			p.Notes = append(p.Notes, fmt.Sprintf("%s: mode = %q ignored: the project config is not trusted, and may only make the mode stricter (run guard trust)", file, pc.mode))
		}
	}
	if pc.minMode != "" {
		p.MinMode, p.MinModeFile = pc.minMode, file
	}
	if e := pc.escalate; e != nil {
		// the managed policy's escalation binds, and an untrusted project
		// config may only make it stricter: fewer events, a longer window
		cur := p.Escalate
		stricter := cur.After == 0 || e.After <= cur.After && e.Within >= cur.Within
		if stricter || trusted && !p.escalateBound {
			p.Escalate, p.EscalateFile = *e, file
		} else {
			p.Notes = append(p.Notes, fmt.Sprintf("%s: escalate ignored: it is looser than the one in %s, which binds here", file, p.EscalateFile))
		}
		p.escalateBound = p.escalateBound || layer == LayerManaged
	}
	if pc.allowUserGrants != nil {
		p.NoUserGrants = !*pc.allowUserGrants
	}
	if pc.powerAgents != nil {
		p.PowerAgents = pc.powerAgents
	}
	for i := range pc.agents {
		p.Agents = append(p.Agents, pc.agents[i].profile(layer, file, trusted))
	}
	return nil
}

// loosenNotes says what an untrusted project config tried to loosen, for
// guard policy show (Load applies only the stricter values).
func (s *Settings) loosenNotes(fc *fileConfig, file string) {
	p := &s.Policy
	note := func(key, val string) {
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %s = %s ignored: the project config is not trusted, and may only make settings stricter (run guard trust)", file, key, val))
	}
	if fc.set["unknown"] && fc.unknown == "ask" && s.Unknown == Deny {
		note("unknown", `"ask"`)
	}
	if fc.set["composite"] && fc.composite == "each" && s.Composite == "ask" {
		note("composite", `"each"`)
	}
	if fc.set["timeout"] && fc.timeout > s.Timeout {
		note("timeout", fmt.Sprintf("%q", fc.timeoutText))
	}
	if fc.set["builtin_readonly"] && *fc.builtinReadonly && !s.BuiltinReadonly {
		note("builtin_readonly", "true")
	}
	if fc.set["audit_required"] && !*fc.auditRequired && s.AuditRequired {
		note("audit_required", "false")
	}
	if n := len(fc.allow); n > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %d allow %s ignored until the project config is trusted (run guard trust)", file, n, pluralRule(n)))
	}
}

func pluralRule(n int) string {
	if n == 1 {
		return "rule"
	}
	return "rules"
}

// settle computes the effective mode: the layers' mode, then the agent
// profile's, raised to the managed min_mode, enforce for an agent that is
// not a power agent, and enforce when dry_run escalated.
func (s *Settings) settle() {
	p := &s.Policy
	m, why, layer, file := p.layerMode, p.layerWhy, p.layerModeL, p.layerModeF
	if m == "" {
		m, why = ModeEnforce, "default"
	}
	if p.agentMode != "" {
		m, why, layer, file = p.agentMode, p.agentWhy, "", ""
	}
	if p.MinMode != "" && modeRank(m) < modeRank(p.MinMode) {
		why = fmt.Sprintf("min_mode = %q in the managed policy %s (a floor; %s asked for %q)", p.MinMode, p.MinModeFile, why, m)
		m, layer, file = p.MinMode, LayerManaged, p.MinModeFile
	}
	if p.Safe && m != ModeEnforce {
		m, why, layer, file = ModeEnforce, fmt.Sprintf("agent %q is not in the managed power_agents: safe behaviour enforces", p.Agent), LayerManaged, s.managedFile()
	}
	if m == ModeDryRun && p.Escalated != nil {
		e := p.Escalated
		why = fmt.Sprintf("escalated from dry_run at %s after %d high-risk would-deny within %s (guard policy reset undoes it)",
			e.At.UTC().Format(time.RFC3339), e.Events, durText(e.Within))
		m, layer, file = ModeEnforce, "", ""
	}
	p.Mode, p.ModeWhy, p.ModeLayer, p.ModeFile = m, why, layer, file
}

// managedFile is the managed policy's file as the mode's source.
func (s *Settings) managedFile() string {
	for _, r := range s.Rules {
		if r.Layer == LayerManaged {
			return r.File
		}
	}
	return s.Policy.MinModeFile
}

// applyMode is decide's last step: the risk grade, then the mode. In
// dry_run and off a deny or ask verdict becomes allow, with Would saying
// what enforce would have done; the verdicts that block in every mode stay:
// fail-closed ones (parse errors, config errors, a malformed analysis), the
// hard denylist, and self-protection (which is on the denylist).
func applyMode(a *classify.Analysis, s *Settings, v Verdict, tr *tracer) Verdict {
	v.Risk = gradeRisk(a, s, v)
	if s == nil {
		return v
	}
	v.Mode = s.Policy.Effective()
	if v.Mode == ModeEnforce || v.Decision == Allow || blocksInEveryMode(v) {
		return v
	}
	if tr != nil {
		tr.add("mode %s: would %s (%s), runs", v.Mode, v.Decision, s.Policy.ModeWhy)
	}
	v.Would, v.Decision = v.Decision, Allow
	return v
}

// blocksInEveryMode reports a verdict no mode relaxes: every built-in deny
// but unknown = "deny" (fail-closed verdicts, the hard denylist, guard's
// self-protection).
func blocksInEveryMode(v Verdict) bool {
	return v.Decision == Deny && v.Layer == LayerBuiltin && v.Rule != RuleUnknown
}

// finishPolicy settles the mode after every layer merged: the escalation
// switch is read (only when escalation is configured) and the floor and
// switch applied.
func (s *Settings) finishPolicy(p Paths, root string) {
	if s.Policy.Escalate.After > 0 {
		st, err := ReadEscalation(p, root)
		if err != nil && s.Err == nil {
			s.Err = err
		}
		s.Policy.Escalated = st
	}
	s.settle()
}

// durText prints a duration without zero units: 1h, not 1h0m0s.
func durText(d time.Duration) string {
	t := d.String()
	if strings.HasSuffix(t, "m0s") {
		t = strings.TrimSuffix(t, "0s")
	}
	if strings.HasSuffix(t, "h0m") {
		t = strings.TrimSuffix(t, "0m")
	}
	return t
}

// Policy returns what the policy decided, whatever the mode: Would when
// the mode relaxed the verdict, else Decision. guard policy test and
// anything that explains rules (not what runs) should read this.
func (v Verdict) Policy() Decision {
	if v.Would != "" {
		return v.Would
	}
	return v.Decision
}

// renderTop writes the policy part's top-level keys for a grants file that
// guard rewrites (store.go's render), so that guard grants add|rm keep them.
func (pc *policyConfig) renderTop(b *strings.Builder) {
	if pc.mode != "" {
		fmt.Fprintf(b, "mode = %s\n", tomlString(string(pc.mode)))
	}
	if pc.minMode != "" {
		fmt.Fprintf(b, "min_mode = %s\n", tomlString(string(pc.minMode)))
	}
	if e := pc.escalate; e != nil {
		fmt.Fprintf(b, "escalate = { after = %d, within = %s }\n", e.After, tomlString(durText(e.Within)))
	}
	if pc.allowUserGrants != nil {
		fmt.Fprintf(b, "allow_user_grants = %t\n", *pc.allowUserGrants)
	}
	if pc.powerAgents != nil {
		q := make([]string, len(pc.powerAgents))
		for i, a := range pc.powerAgents {
			q[i] = tomlString(a)
		}
		fmt.Fprintf(b, "power_agents = [%s]\n", strings.Join(q, ", "))
	}
}

// renderTables writes the [agents.NAME] tables (after every other table).
func (pc *policyConfig) renderTables(b *strings.Builder) {
	for _, ac := range pc.agents {
		name := tomlKey(ac.name)
		fmt.Fprintf(b, "\n[agents.%s]\n", name)
		if ac.unknown != "" {
			fmt.Fprintf(b, "unknown = %s\n", tomlString(ac.unknown))
		}
		if ac.composite != "" {
			fmt.Fprintf(b, "composite = %s\n", tomlString(ac.composite))
		}
		if ac.timeout > 0 {
			fmt.Fprintf(b, "timeout = %s\n", tomlString(durText(ac.timeout)))
		}
		if ac.mode != "" {
			fmt.Fprintf(b, "mode = %s\n", tomlString(string(ac.mode)))
		}
		if len(ac.rules) == 0 {
			continue
		}
		fmt.Fprintf(b, "[agents.%s.permissions.bash]\n", name)
		for _, k := range []Decision{Allow, Ask, Deny} {
			var q []string
			for _, r := range ac.rules {
				if r.Kind == k {
					q = append(q, tomlString(r.Pattern))
				}
			}
			if len(q) > 0 {
				fmt.Fprintf(b, "%s = [%s]\n", k, strings.Join(q, ", "))
			}
		}
	}
}

// tomlKey quotes a table key unless it is a bare key.
func tomlKey(k string) string {
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return tomlString(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}
