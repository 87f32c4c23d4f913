package grants

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// What guard policy show needs: every rule with its source and whether it
// counts, each layer with its file and hash, and warnings about rules that
// cannot do what they say.

// ShownRule is one rule as guard policy show lists it.
type ShownRule struct {
	Rule
	Counts bool   // it takes part in decisions for this agent
	Why    string // why it does not, "" when it counts
}

// ShownLayer is one settings file as guard policy show lists it.
type ShownLayer struct {
	Layer
	SHA256 string // of the file's content, "" when it does not exist or cannot be read
}

// PolicyLayers lists the file-backed layers for cwd with their hashes.
func PolicyLayers(p Paths, cwd string) []ShownLayer {
	var out []ShownLayer
	for _, l := range RulesFiles(p, cwd) {
		sl := ShownLayer{Layer: l}
		if l.Exists {
			if data, err := readConfig(l.File); err == nil && data != nil {
				sum := sha256.Sum256(data)
				sl.SHA256 = hex.EncodeToString(sum[:])
			}
		}
		out = append(out, sl)
	}
	return out
}

// PolicyRules lists every rule of s (as ForAgent made it, or as loaded) and
// the rules of every [agents.NAME] profile not applied, each with whether
// it counts and why not.
func PolicyRules(s *Settings) []ShownRule {
	var out []ShownRule
	for _, r := range s.Rules {
		sr := ShownRule{Rule: r, Counts: true}
		switch {
		case r.Kind != Allow:
		case !s.allowCounts(&r):
			sr.Counts, sr.Why = false, s.allowWhyNot(&r)
		case r.Layer == LayerProject && !r.Trusted:
			sr.Counts, sr.Why = false, "the project config is not trusted (run guard trust)"
		}
		out = append(out, sr)
	}
	for _, ap := range s.Policy.Agents {
		if ap.Name == s.Policy.Agent && s.Policy.Agent != "" {
			continue // applied: its rules are in s.Rules
		}
		for _, r := range ap.Rules {
			out = append(out, ShownRule{Rule: r, Why: "only for agent " + ap.Name})
		}
	}
	return out
}

// PolicyWarnings are the problems guard policy show points out: what
// loading ignored, an untrusted project config trying to loosen, allow
// rules a deny or ask rule shadows, the same rule in two layers, and allow
// rules that can never match (their command is on the hard denylist, or
// the agent is not a power agent). opts judge patterns as classify would
// (Cwd, Home, Protected).
func PolicyWarnings(s *Settings, opts classify.Options) []string {
	var w []string
	w = append(w, s.Warnings...)
	w = append(w, s.Policy.Notes...)
	rules := PolicyRules(s)
	where := func(r *Rule) string { return ruleWhere(r) }
	for i := range rules {
		r := &rules[i].Rule
		if r.Agent != "" && s.Policy.Agent != r.Agent {
			if s.Policy.PowerAgents != nil && !slices.Contains(s.Policy.PowerAgents, r.Agent) && r.Kind == Allow {
				w = append(w, fmt.Sprintf("allow %q [%s, agents.%s] can never match: %s is not in the managed power_agents", r.Pattern, where(r), r.Agent, r.Agent))
			}
			continue
		}
		// the same rule twice
		for k := range i {
			o := &rules[k].Rule
			if o.Kind == r.Kind && o.Pattern == r.Pattern && o.Agent == r.Agent {
				w = append(w, fmt.Sprintf("%s %q [%s] repeats the same rule in %s", r.Kind, r.Pattern, where(r), where(o)))
				break
			}
		}
		if r.Kind != Allow {
			continue
		}
		// shadowed: a deny or ask rule matches everything the allow could
		probe := strings.ReplaceAll(r.Pattern, "*", "\x00")
		for k := range rules {
			o := &rules[k].Rule
			if o.Kind == Allow || (o.Agent != "" && o.Agent != s.Policy.Agent) {
				continue
			}
			if matchPattern(o.Pattern, probe, nil) {
				w = append(w, fmt.Sprintf("allow %q [%s] is shadowed: %s %q [%s] matches everything it allows", r.Pattern, where(r), o.Kind, o.Pattern, where(o)))
				break
			}
		}
		// never matches: the hard denylist denies its command
		text := strings.TrimSpace(strings.ReplaceAll(r.Pattern, "*", ""))
		if text == "" {
			continue
		}
		if a := classify.Analyze(text, opts); a.Fail == "" && len(a.Deny) > 0 {
			h, _ := classify.MostSevere(a.Deny)
			w = append(w, fmt.Sprintf("allow %q [%s] can never match: the hard denylist denies it (%s)", r.Pattern, where(r), h.ID))
		}
	}
	return w
}
