package grants

import (
	"fmt"
	"slices"
	"time"

	"github.com/BurntSushi/toml"
)

// AgentProfile is one [agents.NAME] table of one layer: settings and rules
// for that agent only.
//
//	[agents.codex]
//	unknown   = "deny"
//	composite = "each"
//	timeout   = "2m"
//	mode      = "dry_run"
//	[agents.codex.permissions.bash]
//	allow = ["go test *"]
//	ask   = ["git commit *"]
//	deny  = ["git push *"]
//
// It is the narrowest scope, so among the user's own layers it wins for
// loosening: its allow rules are tried before every other layer's, and its
// scalars override theirs. It never loosens what binds: deny rules of every
// layer and the hard denylist still apply, a value the managed policy set
// may only be made stricter, the managed min_mode is a floor, and a profile
// in an untrusted project config may only make things stricter (its allow
// rules count after guard trust).
type AgentProfile struct {
	Name      string
	Layer     string
	File      string
	Trusted   bool
	Unknown   Decision      // "" unset
	Composite string        // "" unset
	Timeout   time.Duration // 0 unset
	Mode      Mode          // "" unset
	Rules     []Rule        // Agent set to Name
}

// agentConfig is one parsed [agents.NAME] table.
type agentConfig struct {
	name, unknown, composite string
	mode                     Mode
	timeout                  time.Duration
	rules                    []Rule // Layer and File set by profile
}

func (pc *policyConfig) agent(name string) *agentConfig {
	for i := range pc.agents {
		if pc.agents[i].name == name {
			return &pc.agents[i]
		}
	}
	pc.agents = append(pc.agents, agentConfig{name: name})
	return &pc.agents[len(pc.agents)-1]
}

// parseAgent reads one key under [agents].
func (pc *policyConfig) parseAgent(k toml.Key, raw map[string]any, text, file string, lenient bool) error {
	last := k[len(k)-1]
	errAt := func(key, format string, args ...any) error {
		line, col := locateKey(text, key)
		return fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
	}
	agents, ok := raw["agents"].(map[string]any)
	if !ok {
		return errAt("agents", "agents must be a table of [agents.NAME] tables")
	}
	if len(k) == 1 {
		return nil
	}
	name := k[1]
	tbl, ok := agents[name].(map[string]any)
	if !ok || name == "" {
		return errAt(name, "agents.%s must be a table", name)
	}
	ac := pc.agent(name)
	if len(k) == 2 {
		return nil
	}
	key := k[2]
	v := tbl[key]
	switch {
	case len(k) == 3 && key == "unknown":
		s, _ := v.(string)
		if s != "ask" && s != "deny" {
			return errAt(key, `agents.%s.unknown must be "ask" or "deny"`, name)
		}
		ac.unknown = s
	case len(k) == 3 && key == "composite":
		s, _ := v.(string)
		if s != "ask" && s != "each" {
			return errAt(key, `agents.%s.composite must be "ask" or "each"`, name)
		}
		ac.composite = s
	case len(k) == 3 && key == "timeout":
		s, _ := v.(string)
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return errAt(key, `agents.%s.timeout must be a positive duration like "10m"`, name)
		}
		ac.timeout = d
	case len(k) == 3 && key == "mode":
		m, err := parseMode("agents."+name+".mode", v)
		if err != nil {
			return errAt(key, "%v", err)
		}
		ac.mode = m
	case key == "permissions" && len(k) <= 4:
		perm, _ := tbl["permissions"].(map[string]any)
		if perm == nil {
			return errAt(key, "agents.%s.permissions must be a table", name)
		}
		if len(k) == 4 && k[3] != "bash" {
			return errAt(k[3], "unknown key %q (a profile takes permissions.bash)", k.String())
		}
		if len(k) == 4 {
			if _, ok := perm["bash"].(map[string]any); !ok {
				return errAt(k[3], "agents.%s.permissions.bash must be a table", name)
			}
		}
	case key == "permissions" && len(k) == 5 && k[3] == "bash" && (last == "allow" || last == "ask" || last == "deny"):
		perm, _ := tbl["permissions"].(map[string]any)
		bash, _ := perm["bash"].(map[string]any)
		list, ok := bash[last].([]any)
		if !ok {
			return errAt(last, "%s must be an array of strings", k.String())
		}
		kind := Decision(last)
		headLine, _ := locateKey(text, "agents."+name)
		var at lineCursor // the entries come in the text's order
		for n, e := range list {
			pat, ok := e.(string)
			if !ok {
				return errAt(last, "%s entry %d is not a string", k.String(), n+1)
			}
			line, col := locatePatternAt(text, pat, headLine, &at)
			headLine = line // the list is in the text's order: the next entry is at or after this one
			if err := ValidatePattern(kind, pat); err != nil {
				if lenient && kind == Allow {
					continue // the committed project config: refused allow rules are left out
				}
				return fmt.Errorf("%s:%d:%d: %s pattern %q: %v", file, line, col, kind, pat, err)
			}
			ac.rules = append(ac.rules, Rule{Kind: kind, Pattern: pat, Line: line, Agent: name})
		}
	default:
		return errAt(last, "unknown key %q (a profile takes unknown, composite, timeout, mode and permissions.bash)", k.String())
	}
	return nil
}

// profile fixes the layer of a parsed table.
func (ac *agentConfig) profile(layer, file string, trusted bool) AgentProfile {
	p := AgentProfile{Name: ac.name, Layer: layer, File: file, Trusted: trusted, Unknown: Decision(ac.unknown),
		Composite: ac.composite, Timeout: ac.timeout, Mode: ac.mode}
	for _, r := range ac.rules {
		r.Layer, r.File, r.Trusted = layer, file, layer != LayerProject || trusted
		p.Rules = append(p.Rules, r)
	}
	return p
}

// NeedsAgent reports whether the settings depend on which agent asks:
// there are [agents.NAME] profiles or the managed policy names
// power_agents. When false, ForAgent returns s itself.
func (s *Settings) NeedsAgent() bool {
	return s != nil && (len(s.Policy.Agents) > 0 || s.Policy.PowerAgents != nil)
}

// ForAgent returns the settings as they apply to the agent name (from
// GUARD_AGENT or the agent's hook; "" when unknown): its [agents.NAME]
// profiles applied, in layer order, and, when the managed policy names
// power_agents and name is not among them, safe behaviour. Safe behaviour
// is: unknown = "deny", no allow rule of any layer counts (only the
// built-in read-only set allows), and the mode is enforce. s itself is not
// changed; when nothing depends on the agent, ForAgent returns s.
func (s *Settings) ForAgent(name string) *Settings {
	if !s.NeedsAgent() {
		return s
	}
	c := *s
	c.Rules = slices.Clone(s.Rules)
	p := &c.Policy
	p.Agent = name
	p.Notes = slices.Clone(s.Policy.Notes)
	for _, ap := range s.Policy.Agents {
		if ap.Name != name {
			continue
		}
		c.applyProfile(&ap)
	}
	if p.PowerAgents != nil && !slices.Contains(p.PowerAgents, name) {
		p.Safe = true // no allow rule counts (allowCounts)
		c.Unknown = Deny
	}
	c.settle()
	return &c
}

// applyProfile merges one profile into c: scalars by the rules of merge
// (the managed layer's values bind, an untrusted project may only
// tighten), rules added with Agent set.
func (c *Settings) applyProfile(ap *AgentProfile) {
	p := &c.Policy
	loosen := func(key string) bool {
		return ap.Trusted && (ap.Layer == LayerManaged || !p.bound[key])
	}
	if ap.Unknown != "" && (loosen("unknown") || ap.Unknown == Deny) {
		c.Unknown = ap.Unknown
	}
	if ap.Composite != "" && (loosen("composite") || ap.Composite == "ask") {
		c.Composite = ap.Composite
	}
	if ap.Timeout > 0 && (loosen("timeout") || ap.Timeout < c.Timeout) {
		c.Timeout = ap.Timeout
	}
	if ap.Mode != "" {
		cur := p.agentMode
		if cur == "" {
			cur = p.layerMode
		}
		if ap.Trusted || modeRank(ap.Mode) > modeRank(cur) {
			p.agentMode = ap.Mode
			p.agentWhy = fmt.Sprintf("agents.%s.mode = %q in %s %s", ap.Name, ap.Mode, ap.Layer, ap.File)
		}
	}
	c.Rules = append(c.Rules, ap.Rules...)
	p.agentRules = p.agentRules || len(ap.Rules) > 0
}

// AgentMatters reports whether the settings depend on which agent asks:
// an [agents.NAME] profile, the managed power_agents, or a [[rule]] with
// agent = "…". Finding the agent costs a look at /proc; callers skip it
// when nothing depends on the answer.
func (s *Settings) AgentMatters() bool {
	return s.NeedsAgent() || s.UsesAgent()
}

// As returns the settings as they apply to the agent name: ForAgent's
// profiles and power_agents, and Agent set for the [[rule]] tables that
// name one. It is s itself when nothing depends on the agent.
func (s *Settings) As(name string) *Settings {
	c := s.ForAgent(name)
	if c.UsesAgent() && c.Agent != name {
		if c == s {
			cp := *s
			c = &cp
		}
		c.Agent = name
	}
	return c
}
