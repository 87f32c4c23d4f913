package grants

import (
	"slices"

	"github.com/guard-dev/guard/classify"
)

// UntrustedHint is what guard says when the project config's allow rules,
// ignored until guard trust pins the file (or again after it changed),
// would have allowed a command that was asked or refused.
const UntrustedHint = ".guard/config.toml allows this but is not trusted: run guard trust"

// WouldAllowTrusted reports whether a trusted project config would have
// allowed what v, decided under s with facts f, did not: the same decision
// with the project config's allow rules counted. It decides again only when
// v is not an allow and there is such a rule, so it costs nothing on the
// way of an allowed command.
func WouldAllowTrusted(a *classify.Analysis, s *Settings, f *Facts, v Verdict) bool {
	if s == nil || s.Err != nil || v.Decision == Allow {
		return false
	}
	untrusted := func(layer string, kind Decision, trusted bool) bool {
		return layer == LayerProject && kind == Allow && !trusted
	}
	has := slices.ContainsFunc(s.Rules, func(r Rule) bool { return untrusted(r.Layer, r.Kind, r.Trusted) }) ||
		slices.ContainsFunc(s.Tiers, func(r Rule) bool { return untrusted(r.Layer, r.Kind, r.Trusted) }) ||
		slices.ContainsFunc(s.Structured, func(r StructRule) bool { return untrusted(r.Layer, r.Kind, r.Trusted) })
	if !has {
		return false // the copy below is the cost of every refusal otherwise
	}
	t := *s
	found := false
	trust := func(rules []Rule) []Rule {
		var out []Rule
		for i, r := range rules {
			if r.Layer == LayerProject && r.Kind == Allow && !r.Trusted {
				if out == nil {
					out = slices.Clone(rules)
				}
				out[i].Trusted, found = true, true
			}
		}
		if out == nil {
			return rules
		}
		return out
	}
	t.Rules, t.Tiers = trust(s.Rules), trust(s.Tiers)
	var st []StructRule
	for i, r := range s.Structured {
		if r.Layer == LayerProject && r.Kind == Allow && !r.Trusted {
			if st == nil {
				st = slices.Clone(s.Structured)
			}
			st[i].Trusted, found = true, true
		}
	}
	if st != nil {
		t.Structured = st
	}
	if !found {
		return false
	}
	return decide(a, &t, f, nil).Decision == Allow
}
