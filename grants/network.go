package grants

// The network tier: a command that reaches a host needs that host granted
// for this project. See docs/tiers.md.

import (
	"fmt"
	"slices"

	"github.com/guard-dev/guard/classify"
)

// hostAccesses lists the hosts every command of the text reaches (once).
func (t *tiers) hostAccesses(a *classify.Analysis) []hostAccess {
	if t.hostsK != nil {
		return t.hostsK
	}
	t.hostsK = []hostAccess{}
	for i := range a.Commands {
		c := &a.Commands[i]
		if c.Name == "" {
			continue
		}
		c = transparentInner(c)
		hosts, unknown := classify.Hosts(c)
		for _, h := range hosts {
			t.hostsK = append(t.hostsK, hostAccess{cmd: i, name: c.Name, host: h})
		}
		if unknown {
			t.hostsK = append(t.hostsK, hostAccess{cmd: i, name: c.Name, unknown: true})
		}
	}
	return t.hostsK
}

// transparentInner returns the command a transparent wrapper runs when
// classify did not list it on its own, else c.
func transparentInner(c *classify.Command) *classify.Command {
	for depth := 0; depth < maxJudgeDepth && c.Wrap == classify.WrapTransparent && len(c.Inner) == 0 &&
		c.InnerStart > 0 && c.InnerStart < len(c.Args); depth++ {
		in := &classify.Command{Args: c.Args[c.InnerStart:], Parent: -1, Dir: c.Dir, DirUnknown: c.DirUnknown}
		if c.Dynamic != nil {
			in.Dynamic = c.Dynamic[c.InnerStart:]
		}
		in.Name = baseName(in.Args[0])
		c = in
	}
	return c
}

func baseName(w string) string {
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] == '/' {
			return w[i+1:]
		}
	}
	return w
}

// hostDecision applies the http entries to host: deny and ask entries of
// every layer, allow entries only at project scope (this project's grants,
// a trusted project config, the managed policy). Hosts match exactly:
// api.example.com is not example.com.
func (t *tiers) hostDecision(host string) (Decision, *Rule) {
	var found Decision
	var by *Rule
	for i := range t.s.Tiers {
		r := &t.s.Tiers[i]
		if r.Tier != TierHTTP || r.Pattern != host {
			continue
		}
		if r.Kind == Allow && (!tierAllowLayer(TierHTTP, r.Layer) || r.Layer == LayerProject && !r.Trusted) {
			continue
		}
		if rank(r.Kind) > rank(found) {
			found, by = r.Kind, r
		}
	}
	return found, by
}

// hostDenied returns the first host a deny entry names.
func (t *tiers) hostDenied(a *classify.Analysis) (Verdict, bool) {
	for _, h := range t.hostAccesses(a) {
		if h.unknown {
			continue
		}
		if k, r := t.hostDecision(h.host); k == Deny {
			return Verdict{Decision: Deny, Rule: RuleNetworkDeny, Risk: RiskHigh, Layer: r.Layer, File: r.File, Line: r.Line,
				Reason: fmt.Sprintf("%s reaches %s, which an http deny entry names", h.name, h.host)}, true
		}
	}
	return Verdict{}, false
}

// hostAsked returns the first host this project has not granted: an ask
// whose answer stores the host for this project ("[http] HOST"), or, for a
// host guard cannot read, allow-once only.
func (t *tiers) hostAsked(a *classify.Analysis) (Verdict, bool) {
	for _, h := range t.hostAccesses(a) {
		if h.unknown {
			return Verdict{Decision: Ask, Rule: RuleNetworkUnseen, Risk: RiskHigh, Layer: LayerBuiltin, OnceOnly: true,
				Reason: h.name + " reaches a host named at run time, which no grant can cover"}, true
		}
		k, r := t.hostDecision(h.host)
		switch k {
		case Allow:
			continue
		case Ask:
			return Verdict{Decision: Ask, Rule: RuleNetwork, Risk: RiskHigh, Layer: r.Layer, File: r.File, Line: r.Line, OnceOnly: true,
				Reason: fmt.Sprintf("%s reaches %s, which an http ask entry names", h.name, h.host)}, true
		}
		return Verdict{Decision: Ask, Rule: RuleNetwork, Risk: RiskHigh, Layer: LayerBuiltin, Suggest: TierGrant(TierHTTP, h.host),
			Reason: fmt.Sprintf("%s reaches %s, a host this project has not granted", h.name, h.host)}, true
	}
	return Verdict{}, false
}

// registries are the public package registries of the toolchains guard
// knows: a confined command with network = "hosts" reaches them through
// guard's proxy without a grant (downloads there are judged as package
// installs, see packages.go).
var registries = []string{
	"proxy.golang.org", "sum.golang.org", "index.golang.org",
	"registry.npmjs.org", "registry.yarnpkg.com",
	"pypi.org", "files.pythonhosted.org",
	"crates.io", "index.crates.io", "static.crates.io",
	"rubygems.org", "index.rubygems.org",
	"repo.maven.apache.org", "repo1.maven.org",
}

// HostAllowed reports whether a confined command may reach host (lowercase,
// no port) through guard's proxy: a built-in registry or an http allow
// entry at project scope, and no deny or ask entry. grant is what would
// allow it when it may not.
func (s *Settings) HostAllowed(host string) (ok bool, grant string) {
	t := tiers{s: s}
	k, _ := t.hostDecision(host)
	switch {
	case k == Deny:
		return false, ""
	case k == Allow:
		return true, ""
	case k == "" && slices.Contains(registries, host):
		return true, ""
	}
	return false, "guard grants add --project " + classify.QuoteWord(TierGrant(TierHTTP, host))
}
