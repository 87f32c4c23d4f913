package grants

// Package approvals: an install that names packages needs each one
// approved as ecosystem:name@version. See docs/tiers.md.

import (
	"fmt"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// packageDecision applies the packages entries to p: an entry names
// ecosystem:name@version exactly, or (deny and ask entries, and brew's
// allow entries) ecosystem:name for every version.
func (t *tiers) packageDecision(p classify.Package) (Decision, *Rule) {
	full, bare := p.String(), p.Ecosystem+":"+p.Name
	var found Decision
	var by *Rule
	for i := range t.s.Tiers {
		r := &t.s.Tiers[i]
		if r.Tier != TierPackages {
			continue
		}
		match := r.Pattern == full || r.Pattern == bare && (r.Kind != Allow || p.Ecosystem == "brew")
		if !match {
			continue
		}
		if r.Kind == Allow && (!tierAllowLayer(TierPackages, r.Layer) || r.Layer == LayerProject && !r.Trusted) {
			continue
		}
		if rank(r.Kind) > rank(found) {
			found, by = r.Kind, r
		}
	}
	return found, by
}

// packagesDenied returns the first package of any command a deny entry names.
func (t *tiers) packagesDenied(a *classify.Analysis) (Verdict, bool) {
	for i := range a.Commands {
		pi := classify.Packages(transparentInner(&a.Commands[i]))
		if pi == nil {
			continue
		}
		for _, p := range pi.Packages {
			if k, r := t.packageDecision(p); k == Deny {
				return Verdict{Decision: Deny, Rule: RulePackageDeny, Risk: RiskHigh, Layer: r.Layer, File: r.File, Line: r.Line,
					Reason: fmt.Sprintf("%s installs %s, which a packages deny entry names", a.Commands[i].Name, p)}, true
			}
		}
	}
	return Verdict{}, false
}

// packageJudgement decides an install that names packages: every package
// approved allows it (risk high, whatever grant covers the command); an
// unpinned one is asked about once, with how to pin; the others are asked
// about with the approvals to store.
func (t *tiers) packageJudgement(c *classify.Command, pi *classify.PackageInstall) judgement {
	name := c.Name
	if pi.Dynamic {
		return judgement{v: Verdict{Decision: Ask, Rule: RulePackagePin, Risk: RiskHigh, Layer: LayerBuiltin, OnceOnly: true,
			Reason: name + " installs a package named at run time, which no approval can cover"}}
	}
	var missing []string
	var approved []string
	for _, p := range pi.Packages {
		k, r := t.packageDecision(p)
		switch {
		case k == Allow:
			approved = append(approved, p.String())
			continue
		case k == Ask:
			return judgement{v: Verdict{Decision: Ask, Rule: RulePackage, Risk: RiskHigh, Layer: r.Layer, File: r.File, Line: r.Line, OnceOnly: true,
				Reason: fmt.Sprintf("%s installs %s, which a packages ask entry names", name, p)}}
		case p.Unversioned():
			asked := ""
			if p.Asked != "" {
				asked = " (" + p.Asked + " is not one version)"
			}
			return judgement{v: Verdict{Decision: Ask, Rule: RulePackagePin, Risk: RiskHigh, Layer: LayerBuiltin, OnceOnly: true,
				Reason: fmt.Sprintf("%s installs %s without an exact version%s: pin one (%s) to approve it", name, p, asked, pi.Pin)}}
		}
		missing = append(missing, p.String())
	}
	if len(missing) > 0 {
		return judgement{v: Verdict{Decision: Ask, Rule: RulePackage, Risk: RiskHigh, Layer: LayerBuiltin,
			Suggest: TierGrant(TierPackages, strings.Join(missing, " ")),
			Reason:  fmt.Sprintf("%s installs %s, not approved yet", name, strings.Join(missing, ", "))}}
	}
	return judgement{ok: true, v: Verdict{Decision: Allow, Rule: RulePackage, Risk: RiskHigh, Layer: LayerBuiltin,
		Reason: "approved packages: " + strings.Join(approved, ", ")}}
}
