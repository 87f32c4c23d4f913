package grants

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// maxJudgeDepth bounds the walk through wrapper Inner links, so a malformed
// Analysis with a cycle cannot hang Decide.
const maxJudgeDepth = 40

// eachReasons are the composite reasons that composite = "each" tolerates.
var eachReasons = []string{classify.CompPipe, classify.CompAnd, classify.CompOr, classify.CompSeq, classify.CompNullRedir, classify.CompTest}

// allowScope ranks layers for allow rules: the user's grants for this
// project, then the user's global grants, then a trusted project config,
// then the hand-written configs.
var allowScope = []string{LayerProjectGrants, LayerGlobalGrants, LayerProject, LayerGlobal, LayerManaged}

type tracer struct{ lines []string }

func (t *tracer) add(format string, args ...any) {
	t.lines = append(t.lines, fmt.Sprintf(format, args...))
}

// view is what matching needs of one command, computed once per decision.
type view struct {
	text, base           string // words joined; the same with the command word's basename
	innerText, innerBase string // a wrapper's wrapped command, "" if none
	off                  []int  // byte offset of each word in text
	marked               bool
	m                    marks
	sp                   []span // the sensitive words' spans
	all                  []span // those and the untyped options' spans
	// cmd is the command as markCommand sees it (its program's name),
	// kept here: markCommand hands it to the specs' rules, so a copy on
	// the stack escaped, an allocation per command
	cmd classify.Command
}

type decider struct {
	a      *classify.Analysis
	s      *Settings
	tr     *tracer
	views  []view
	allows []int // indexes of usable allow rules in s.Rules, in scope order
	// each command's normalised tokens, for [[rule]] tables (structrules.go)
	toks    [][]string
	tokDone []bool
	t       *tiers // the path, network and package tiers (tiers.go): &tv
	tv      tiers
}

// judgement is the verdict on one command judged on its own (steps 6-9).
type judgement struct {
	ok bool
	v  Verdict
}

func deny(rule, reason, layer string) Verdict {
	return Verdict{Decision: Deny, Rule: rule, Reason: reason, Risk: RiskHigh, Layer: layer}
}

func ruleVerdict(d Decision, r *Rule, reason string) Verdict {
	return Verdict{Decision: d, Rule: r.Pattern, Reason: reason, Risk: RiskHigh, Layer: r.Layer, File: r.File, Line: r.Line}
}

func ruleWhere(r *Rule) string {
	if r.File == "" {
		return r.Layer
	}
	return fmt.Sprintf("%s %s:%d", r.Layer, r.File, r.Line)
}

func decide(a *classify.Analysis, s *Settings, f *Facts, tr *tracer) Verdict {
	v := decideSteps(a, s, f, tr)
	v = applyMode(a, s, v, tr)
	if tr != nil {
		line := fmt.Sprintf("decision: %s (rule %s, risk %s)", v.Decision, v.Rule, v.Risk)
		if v.Reason != "" {
			line += ": " + v.Reason
		}
		tr.add("%s", line)
		if v.Suggest != "" {
			tr.add("suggested grant: %s", v.Suggest)
		}
	}
	return v
}

func decideSteps(a *classify.Analysis, s *Settings, f *Facts, tr *tracer) Verdict {
	if s == nil {
		return deny(RuleConfigError, "no settings loaded", LayerBuiltin)
	}
	if s.Err != nil {
		if tr != nil {
			tr.add("settings: %v", s.Err)
		}
		return deny(RuleConfigError, "config error: "+s.Err.Error(), LayerBuiltin)
	}
	if a == nil {
		return deny(classify.FailParse, "nothing to judge", LayerBuiltin)
	}
	if a.Fail != "" {
		if tr != nil {
			tr.add("parse: failed (%s): %s", a.Fail, a.FailReason)
		}
		reason := a.FailReason
		if reason == "" {
			reason = "the command cannot be judged: " + a.Fail
		}
		return deny(a.Fail, reason, LayerBuiltin)
	}
	if why := invalid(a); why != "" {
		return deny(RuleInvalid, "malformed analysis: "+why, LayerBuiltin)
	}
	d := &decider{a: a, s: s, tr: tr, views: make([]view, len(a.Commands)), tv: makeTiers(s, f)}
	d.t = &d.tv
	if tr != nil {
		d.traceParse()
	}

	// 2. hard denylist
	if len(a.Deny) > 0 {
		h, rest := classify.MostSevere(a.Deny)
		if tr != nil {
			tr.add("step 2 hard denylist: hit %s", h.ID)
		}
		return deny(h.ID, alsoHit(h.Reason, rest), LayerBuiltin)
	}
	if tr != nil {
		tr.add("step 2 hard denylist: no hit")
	}

	// 3. deny rules, on every command anywhere; then the tiers' deny
	// entries, on every path, host and package (tiers.go)
	if v, ok := d.plainRules(Deny); ok {
		return v
	}
	if v, ok := d.structRules(Deny); ok {
		return v
	}
	if v, ok := d.tierDenied(); ok {
		return v
	}
	// 4. built-in destructive patterns and ask rules
	if len(a.Ask) > 0 {
		h, rest := classify.MostSevere(a.Ask)
		if tr != nil {
			tr.add("step 4 built-in ask: hit %s", h.ID)
		}
		return Verdict{Decision: Ask, Rule: h.ID, Reason: alsoHit(h.Reason, rest), Risk: RiskHigh, Layer: LayerBuiltin, OnceOnly: true}
	}
	if tr != nil {
		tr.add("step 4 built-in ask: no hit")
	}
	if v, ok := d.plainRules(Ask); ok {
		v.OnceOnly = true
		return v
	}
	if v, ok := d.structRules(Ask); ok {
		v.OnceOnly = true
		return v
	}

	d.collectAllows()
	top := a.Top()
	if len(a.Commands) == 0 && len(a.Composite) == 0 {
		return Verdict{Decision: Allow, Rule: RuleEmpty, Reason: "nothing to run", Risk: RiskNone, Layer: LayerBuiltin}
	}
	// 5. composite; a redirect or heredoc that is a project write the
	// write tier allows makes nothing composite (tiers.go, redirectsOK),
	// and neither do 2>&1, >/dev/null, 2>/dev/null (issue 18: go test
	// ./... >/dev/null 2>&1 is as grantable as go test ./...)
	reasons := withoutNullRedirects(a.Composite)
	projectWrite, gap := false, (*access)(nil)
	if len(a.Redirects) > 0 {
		projectWrite, gap = d.t.redirectsOK(a)
	}
	if projectWrite {
		reasons = withoutRedirects(reasons)
		if tr != nil {
			tr.add("step 5 redirects: every target is a project write the tiers allow; composite reasons left: %d", len(reasons))
		}
	}
	var v Verdict
	if len(reasons) > 0 || len(top) != 1 {
		v = d.composite(top, reasons)
	} else {
		// 6-9. one simple command
		j := d.judge(top[0], &a.Commands[top[0]], 0)
		v = j.v
		if !j.ok && (v.Rule == RuleUnknown || v.Rule == RuleExecCapable || v.Rule == RuleUntyped || v.Rule == RuleEnvDump) && v.Suggest == "" {
			v.Suggest = Suggest(a.Commands[top[0]])
		}
	}
	if gap != nil && v.Decision == Ask && v.Rule == RuleComposite && v.Suggest == "" {
		// only a redirect outside the project keeps it composite: a tree
		// grant for its target would make it a project write
		if rest := withoutRedirects(reasons); len(rest) == 0 || d.eachEligible(rest) && len(top) > 0 {
			if tree := d.t.offerTree(gap.path, gap); tree != "" && !runsFromHere(gap.path) {
				verb := "writes"
				if gap.tier == TierRead {
					verb = "reads"
				}
				v.Suggest, v.OnceOnly = TierGrant(gap.tier, tree), false
				v.Reason = fmt.Sprintf("composite command (%s): a redirect %s %s, outside the project; a %s grant for %s makes it a project write",
					strings.Join(reasons, ", "), verb, gap.path, gap.tier, tree)
			}
		}
	}
	if v.Decision != Allow {
		return v
	}
	// 10. an allowed text still needs the tiers: every path it reads or
	// writes, and every host it reaches, granted
	if tv, ok := d.tierAsked(); ok {
		return tv
	}
	if projectWrite {
		v.Risk = maxRisk(v.Risk, RiskLow)
	}
	return v
}

// withoutNullRedirects drops the null-redirect reason: an fd duplicated
// or sent to /dev/null changes nothing a grant covers.
func withoutNullRedirects(reasons []string) []string {
	if !slices.Contains(reasons, classify.CompNullRedir) {
		return reasons
	}
	out := make([]string, 0, len(reasons))
	for _, r := range reasons {
		if r != classify.CompNullRedir {
			out = append(out, r)
		}
	}
	return out
}

// withoutRedirects drops the reasons a project write makes: redirect,
// heredoc.
func withoutRedirects(reasons []string) []string {
	out := make([]string, 0, len(reasons))
	for _, r := range reasons {
		if r != classify.CompRedirect && r != classify.CompHeredoc {
			out = append(out, r)
		}
	}
	return out
}

// tierDenied applies the tiers' deny entries to every path, host and
// package of the text.
func (d *decider) tierDenied() (Verdict, bool) {
	for _, check := range [...]func(*classify.Analysis) (Verdict, bool){d.t.denied, d.t.hostDenied, d.t.packagesDenied} {
		if v, ok := check(d.a); ok {
			if d.tr != nil {
				d.tr.add("step 3 tiers: %s", v.Reason)
			}
			return v, true
		}
	}
	if d.tr != nil {
		d.tr.add("step 3 tiers: no deny entry covers a path, host or package")
	}
	return Verdict{}, false
}

// tierAsked applies the read, write and network tiers to an allowed text.
func (d *decider) tierAsked() (Verdict, bool) {
	for _, check := range [...]func(*classify.Analysis) (Verdict, bool){d.t.asked, d.t.hostAsked} {
		if v, ok := check(d.a); ok {
			if d.tr != nil {
				d.tr.add("step 10 tiers: %s", v.Reason)
			}
			return v, true
		}
	}
	if d.tr != nil {
		d.tr.add("step 10 tiers: every path and host is granted")
	}
	return Verdict{}, false
}

// invalid returns why an Analysis breaks its own invariants, or "".
func invalid(a *classify.Analysis) string {
	n := len(a.Commands)
	for i := range a.Commands {
		c := &a.Commands[i]
		if c.Parent < -1 || c.Parent >= n || c.Parent == i {
			return fmt.Sprintf("command %d: parent %d out of range", i, c.Parent)
		}
		for _, k := range c.Inner {
			if k < 0 || k >= n || k == i {
				return fmt.Sprintf("command %d: inner %d out of range", i, k)
			}
		}
		if c.Dynamic != nil && len(c.Dynamic) != len(c.Args) {
			return fmt.Sprintf("command %d: %d dynamic marks for %d words", i, len(c.Dynamic), len(c.Args))
		}
		if c.InnerStart < 0 || c.InnerStart > len(c.Args) {
			return fmt.Sprintf("command %d: inner start %d out of range", i, c.InnerStart)
		}
	}
	for _, h := range a.Ask {
		if h.Cmd < -1 || h.Cmd >= n {
			return "ask hit command out of range"
		}
	}
	return ""
}

func (d *decider) traceParse() {
	a := d.a
	comp := "not composite"
	if len(a.Composite) > 0 {
		comp = "composite: " + strings.Join(a.Composite, ", ")
	}
	d.tr.add("parse: %d simple command(s), %s", len(a.Commands), comp)
	for i := range a.Commands {
		c := &a.Commands[i]
		where := c.Where
		if where == "" {
			where = "top level"
		}
		extra := ""
		switch c.Wrap {
		case classify.WrapTransparent:
			extra = ", wrapper"
		case classify.WrapShell:
			extra = ", runs a shell script"
		case classify.WrapGenerated:
			extra = ", runs generated commands"
		}
		if c.Opaque {
			extra += ", opaque script"
		}
		if dyn(c, 0) {
			extra += ", dynamic command word"
		}
		d.tr.add("command %d at %s (%s, depth %d%s): %s", i+1, c.Pos, where, c.Depth, extra, strings.Join(c.Args, " "))
	}
}

func dyn(c *classify.Command, i int) bool {
	return c.Dynamic != nil && i < len(c.Dynamic) && c.Dynamic[i]
}

// textView returns the joined texts of command i (or of c when i < 0).
func (d *decider) view(i int, c *classify.Command) *view {
	var v *view
	if i >= 0 {
		v = &d.views[i]
		if v.off != nil {
			return v
		}
	} else {
		v = new(view)
	}
	v.off = make([]int, len(c.Args))
	var b strings.Builder
	for k, w := range c.Args {
		if k > 0 {
			b.WriteByte(' ')
		}
		v.off[k] = b.Len()
		b.WriteString(w)
	}
	v.text = b.String()
	v.base = v.text
	if len(c.Args) > 0 {
		if name := commandName(c); name != c.Args[0] {
			v.base = name + v.text[len(c.Args[0]):]
		}
	}
	if (c.Wrap == classify.WrapTransparent || c.Wrap == classify.WrapGenerated) && c.InnerStart > 0 && c.InnerStart < len(c.Args) {
		v.innerText = v.text[v.off[c.InnerStart]:]
		first := c.Args[c.InnerStart]
		v.innerBase = path.Base(first) + v.innerText[len(first):]
	}
	return v
}

func commandName(c *classify.Command) string {
	if c.Name != "" {
		return c.Name
	}
	if len(c.Args) == 0 {
		return ""
	}
	return path.Base(c.Args[0])
}

// marked returns v with c's sensitive words and their byte spans filled in.
func (d *decider) marked(v *view, c *classify.Command) *view {
	if v.marked {
		return v
	}
	v.marked = true
	v.cmd = *c
	v.cmd.Name = commandName(c)
	v.m.root = d.s.Root
	v.m.tiers = d.t
	markCommand(&v.cmd, &v.m)
	for k, s := range v.m.sens {
		sp := span{v.off[k], v.off[k] + len(c.Args[k])}
		if s {
			v.sp = append(v.sp, sp)
		}
		if s || k < len(v.m.untyped) && v.m.untyped[k] {
			v.all = append(v.all, sp)
		}
	}
	return v
}

// plainRules applies deny or ask rules of every layer to every command
// found anywhere (and to each wrapper's wrapped words), matching the command
// word as written and by its basename.
func (d *decider) plainRules(kind Decision) (Verdict, bool) {
	step := "step 3"
	if kind == Ask {
		step = "step 4"
	}
	for ri := range d.s.Rules {
		r := &d.s.Rules[ri]
		if r.Kind != kind {
			continue
		}
		hit := -1
		for i := range d.a.Commands {
			c := &d.a.Commands[i]
			if len(c.Args) == 0 {
				continue
			}
			v := d.view(i, c)
			if matchPattern(r.Pattern, v.text, nil) || matchPattern(r.Pattern, v.base, nil) ||
				(v.innerText != "" && (matchPattern(r.Pattern, v.innerText, nil) || matchPattern(r.Pattern, v.innerBase, nil))) {
				hit = i
				break
			}
		}
		if hit < 0 {
			if d.tr != nil {
				d.tr.add("%s %s %q [%s]: no command matches", step, kind, r.Pattern, ruleWhere(r))
			}
			continue
		}
		if d.tr != nil {
			d.tr.add("%s %s %q [%s]: matches command %d", step, kind, r.Pattern, ruleWhere(r), hit+1)
		}
		reason := fmt.Sprintf("%s rule %q (%s)", kind, r.Pattern, r.Layer)
		return ruleVerdict(kind, r, reason), true
	}
	if d.tr != nil {
		d.tr.add("%s %s rules: none matches", step, kind)
	}
	return Verdict{}, false
}

func (d *decider) collectAllows() {
	// one allocation for the list, not one per growth
	d.allows = make([]int, 0, len(d.s.Rules))
	// an agent's own profile is the narrowest scope: its allows first
	if d.s.Policy.agentRules {
		for _, layer := range allowScope {
			d.collectLayer(layer, true)
		}
	}
	for _, layer := range allowScope {
		d.collectLayer(layer, false)
	}
	// rules with a layer name this package does not know still count, last
	for ri := range d.s.Rules {
		r := &d.s.Rules[ri]
		if r.Kind == Allow && !slices.Contains(allowScope, r.Layer) && d.s.allowCounts(r) {
			d.allows = append(d.allows, ri)
		}
	}
}

// collectLayer adds the usable allow rules of one layer (of the agent's
// profile, or not).
func (d *decider) collectLayer(layer string, agentPass bool) {
	for ri := range d.s.Rules {
		r := &d.s.Rules[ri]
		if r.Kind != Allow || r.Layer != layer || (r.Agent != "") != agentPass {
			continue
		}
		if why := d.s.allowWhyNot(r); why != "" {
			if d.tr != nil {
				d.tr.add("allow %q [%s]: skipped, %s", r.Pattern, ruleWhere(r), why)
			}
			continue
		}
		if r.Layer == LayerProject && !r.Trusted {
			if d.tr != nil {
				d.tr.add("allow %q [%s]: skipped, project config not trusted (run guard trust)", r.Pattern, ruleWhere(r))
			}
			continue
		}
		d.allows = append(d.allows, ri)
	}
}

// compositeOK reports whether composite reasons pass the composite rule on
// their own: none, or composite = "each" and only tolerated reasons.
func (d *decider) eachEligible(reasons []string) bool {
	if d.s.Composite != "each" && !d.s.Person {
		return false
	}
	for _, r := range reasons {
		switch {
		case (d.s.Composite == "each" || d.s.Person) && slices.Contains(eachReasons, r):
		case d.s.Person && slices.Contains(personReasons, r):
			if r == classify.CompAssign && !d.plainAssignments() {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// personReasons are the composite reasons a line typed in the
// interactive shell (Settings.Person) is judged part by part for, beside
// composite = "each"'s: the parts of a loop or a function's body are
// commands like any other, and a plain assignment runs nothing. A person
// types name=bob; greet $name or cd x && make as one thought.
var personReasons = []string{classify.CompAssign, classify.CompLoop, classify.CompFunction}

// plainAssignments reports whether the text's assignments are plain: bare
// ones or a for loop's variable (not NAME=value before a command, which
// sets the command's environment, nor declare or export), of names bash
// and programs give no meaning to. Those are upper case (PATH, HOME,
// IFS, PS4, LD_PRELOAD, …), so a plain name has a lower-case letter, and
// is none of the few lower-case ones that mean something.
func (d *decider) plainAssignments() bool {
	if d.a.Declared {
		return false
	}
	for i := range d.a.Commands {
		if len(d.a.Commands[i].Assigns) > 0 {
			return false
		}
	}
	for _, name := range d.a.Assigned {
		if strings.ToUpper(name) == name || slices.Contains(meaningfulLower, name) {
			return false
		}
	}
	return true
}

// meaningfulLower are lower-case variables that change what bash or the
// programs it runs do.
var meaningfulLower = []string{"http_proxy", "https_proxy", "ftp_proxy", "all_proxy", "no_proxy", "auto_resume", "histchars"}

func maxRisk(a, b Risk) Risk {
	rank := func(r Risk) int {
		switch r {
		case RiskNone:
			return 0
		case RiskLow:
			return 1
		}
		return 2
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

func (d *decider) composite(top []int, reasons []string) Verdict {
	if len(reasons) == 0 {
		reasons = []string{classify.CompOther}
	}
	list := strings.Join(reasons, ", ")
	ask := Verdict{Decision: Ask, Rule: RuleComposite, Risk: RiskHigh, Layer: LayerBuiltin, OnceOnly: true,
		Reason: "composite command (" + list + "): allow once or deny"}
	if len(top) == 0 && d.s.Person && d.eachEligible(reasons) {
		// x=5 typed in the interactive shell: nothing runs
		if d.tr != nil {
			d.tr.add("step 5 composite (%s): typed in the interactive shell, and nothing runs", list)
		}
		return Verdict{Decision: Allow, Rule: RuleCompositeEach, Reason: "a plain assignment runs nothing", Risk: RiskNone, Layer: LayerBuiltin}
	}
	if len(top) == 0 || !d.eachEligible(reasons) {
		if d.tr != nil {
			d.tr.add("step 5 composite (%s): composite = %q, asks", list, d.s.Composite)
		}
		return ask
	}
	risk := RiskNone
	blocked, blockedAt, blockedSug := -1, 0, ""
	for n, i := range top {
		j := d.judge(i, &d.a.Commands[i], 0)
		if !j.ok {
			if d.tr != nil {
				d.tr.add("step 5 composite each: part %d is not allowed on its own (%s)", n+1, j.v.Rule)
			}
			ask.Reason = fmt.Sprintf("composite command (%s) with part %d not allowed on its own (%s): allow once or deny", list, n+1, j.v.Rule)
			grantable := j.v.Rule == RuleUnknown || j.v.Rule == RuleUntyped || j.v.Rule == RulePackage && j.v.Suggest != "" && !j.v.OnceOnly
			if !grantable || strings.Contains(j.v.Reason, "not read-only here") {
				// a grant would not make this part safe: a name computed
				// at run time, a directory guard lost track of
				return ask
			}
			sug := j.v.Suggest
			switch c := &d.a.Commands[i]; {
			case sug != "":
			case c.Func:
				// a function whose body is one command: that command is
				// what a grant names (f() { make test; }; f → make test);
				// no grant names the function itself
				if len(c.Inner) == 1 && c.Inner[0] >= 0 {
					sug = Suggest(d.a.Commands[c.Inner[0]])
				}
			default:
				sug = Suggest(*c)
			}
			if blocked >= 0 {
				if sug != "" && sug == blockedSug {
					// the same command again (a function's body where it
					// is defined and where it is called): one grant
					continue
				}
				return ask
			}
			blocked, blockedAt, blockedSug = i, n+1, sug
			continue
		}
		risk = maxRisk(risk, j.v.Risk)
	}
	if blocked >= 0 {
		// Only one part is missing, and only for want of a grant: offer
		// that part's pattern, which lets this composite through next time.
		if sug := blockedSug; sug != "" {
			ask.Suggest, ask.OnceOnly = sug, false
			ask.Reason = fmt.Sprintf("composite command (%s): part %d (%s) is not allowed yet; allowing %q lets it through", list, blockedAt, d.a.Commands[blocked].Name, sug)
		}
		return ask
	}
	if d.tr != nil {
		d.tr.add("step 5 composite each: every part is allowed on its own")
	}
	return Verdict{Decision: Allow, Rule: RuleCompositeEach, Reason: "every part of the composite (" + list + ") is allowed on its own",
		Risk: risk, Layer: LayerBuiltin}
}

// innerOf returns the commands a wrapper runs: its Inner links, or for a
// transparent wrapper without them, a command made of Args[InnerStart:].
func (d *decider) innerOf(c *classify.Command) ([]int, []*classify.Command) {
	if len(c.Inner) > 0 {
		cs := make([]*classify.Command, len(c.Inner))
		for k, i := range c.Inner {
			cs[k] = &d.a.Commands[i]
		}
		return c.Inner, cs
	}
	if c.Wrap == classify.WrapTransparent && c.InnerStart > 0 && c.InnerStart < len(c.Args) {
		in := &classify.Command{Args: c.Args[c.InnerStart:], Parent: -1, Dir: c.Dir, Depth: c.Depth + 1}
		if c.Dynamic != nil {
			in.Dynamic = c.Dynamic[c.InnerStart:]
		}
		in.Name = classify.ProgramName(path.Base(in.Args[0]))
		return []int{-1}, []*classify.Command{in}
	}
	return nil, nil
}

// passThroughWrappers run the wrapped command unchanged and write nothing
// of their own, so a command under them is judged as if typed alone
// (chrt 10 go test ./... is allowed by "go test *"): those without an
// entry in classify; the entries say it of theirs (classify.Spec.
// PassThrough: timeout, nice, nohup, env, time without -o, …). Other
// wrappers that classify sees through (strace, script, valgrind, chroot,
// …) are still judged by what they run for the denylist, but need a
// grant to be allowed.
//
// Like the package's other sets it is a switch, not a map: a map literal
// is built by init code in every guard process.
func passThroughWrappers(name string) bool {
	switch name {
	case "chrt", "guard":
		return true
	}
	return false
}

// passThroughShells run a script that classify parsed, in bash's syntax
// (fish and csh scripts are not bash; script -c writes a log file), as
// passThroughWrappers: env -S, watch and flock -c say it in their entries.
func passThroughShells(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "rbash",
		"eval", "trap", "guard":
		return true
	}
	return false
}

// passThrough reports whether transparent wrapper c lets its command be
// judged alone: a pass-through wrapper whose own options write nothing
// (GNU time -o FILE writes FILE).
func passThrough(c *classify.Command) bool {
	if c.Func {
		return true // a function's call runs its body, judged as its parts
	}
	name := commandName(c)
	if s := classify.SpecFor(name); s != nil && s.PassThrough != nil {
		var own []string // the wrapper's words before its command
		if c.InnerStart > 1 {
			own = c.Args[1:min(c.InnerStart, len(c.Args))]
		}
		return s.PassThrough(name, c.Wrap == classify.WrapShell, own) // the wrapper's entry says (timeout, env, time without -o)
	}
	if c.Wrap == classify.WrapShell {
		return passThroughShells(name)
	}
	return passThroughWrappers(name)
}

// wrapperAssigns reports whether a transparent wrapper sets variables for
// the command it runs (env LD_PRELOAD=x ls): that changes what runs.
func wrapperAssigns(c *classify.Command) bool {
	for k := 1; k < c.InnerStart && k < len(c.Args); k++ {
		w := c.Args[k]
		if i := strings.IndexByte(w, '='); i > 0 && !strings.HasPrefix(w, "-") {
			return true
		}
	}
	return false
}

func (d *decider) unknown(c *classify.Command, why string) Verdict {
	dec := d.s.Unknown
	if dec != Ask {
		dec = Deny
	}
	name := commandName(c)
	if len(c.Args) > 0 && classify.ProgramName(path.Base(c.Args[0])) == name {
		name = path.Base(c.Args[0]) // as written: podman, not docker
	}
	reason := "no grant covers " + name
	if why != "" {
		reason += " (" + why + ")"
	}
	return Verdict{Decision: dec, Rule: RuleUnknown, Reason: reason, Risk: RiskHigh, Layer: LayerBuiltin}
}

// judge decides one command on its own: steps 6 to 9.
func (d *decider) judge(i int, c *classify.Command, depth int) judgement {
	if depth > maxJudgeDepth {
		return judgement{v: deny(classify.FailTooDeep, "wrappers nest too deep", LayerBuiltin)}
	}
	tr := d.tr
	if len(c.Args) == 0 {
		return judgement{v: d.unknown(c, "empty command")}
	}
	name := commandName(c)
	if dyn(c, 0) {
		if tr != nil {
			tr.add("step 6 command %s: the command word is dynamic", label(i))
		}
		return judgement{v: Verdict{Decision: Ask, Rule: RuleDynamicCommand, Reason: "the command word is not literal, so no grant can cover it",
			Risk: RiskHigh, Layer: LayerBuiltin, OnceOnly: true}}
	}
	// package installs are decided by package approvals, not by grants
	if pi := classify.Packages(c); pi != nil {
		j := d.t.packageJudgement(c, pi)
		if tr != nil {
			tr.add("command %s: installs packages: %s", label(i), j.v.Reason)
		}
		return j
	}
	v := d.marked(d.view(i, c), c)
	if d.s.BuiltinReadonly && classify.HelpQuery(c) && !v.m.all {
		// TOOL --help, TOOL --version, whatever TOOL is: it prints and exits
		if tr != nil {
			tr.add("step 8 command %s: %s --help/--version only prints", label(i), name)
		}
		return judgement{ok: true, v: Verdict{Decision: Allow, Rule: RuleBuiltinReadonly, Reason: name + " only prints its help or version",
			Risk: RiskNone, Layer: LayerBuiltin}}
	}

	// 7. allow grants; step 6's exec-capable check is a '*' that matches
	// only when it may cover sensitive words.
	execReason, execRuleID := "", RuleExecCapable
	var execRule *Rule
	for _, ri := range d.allows {
		r := &d.s.Rules[ri]
		strict := matchPattern(r.Pattern, v.text, v.all) && (!v.m.all || !strings.Contains(r.Pattern, "*"))
		if strict {
			if tr != nil {
				tr.add("step 7 command %s: allow %q [%s] matches", label(i), r.Pattern, ruleWhere(r))
			}
			out := ruleVerdict(Allow, r, fmt.Sprintf("allowed by %q (%s)", r.Pattern, r.Layer))
			out.Risk = RiskLow
			return judgement{ok: true, v: out}
		}
		execOK := matchPattern(r.Pattern, v.text, v.sp) && (!v.m.all || !strings.Contains(r.Pattern, "*"))
		if v.m.any && !execOK && matchPattern(r.Pattern, v.text, nil) {
			if tr != nil {
				tr.add("step 6 command %s: allow %q [%s] would match, but its * may not cover an exec-capable argument: %s", label(i), r.Pattern, ruleWhere(r), v.m.reason)
			}
			if execReason == "" {
				execReason, execRule = "exec-capable argument: "+v.m.reason, r
			}
			continue
		}
		if v.m.ureason != "" && execOK {
			if tr != nil {
				tr.add("step 6 command %s: allow %q [%s] would match, but its * may not cover an option guard cannot type: %s", label(i), r.Pattern, ruleWhere(r), v.m.ureason)
			}
			if execReason == "" {
				execReason, execRuleID, execRule = v.m.ureason, RuleUntyped, r
			}
			continue
		}
		if tr != nil {
			tr.add("step 7 command %s: allow %q [%s]: no match", label(i), r.Pattern, ruleWhere(r))
		}
	}

	if out, ok := d.structAllow(i, c, v); ok {
		return judgement{ok: true, v: out}
	}

	// a benchmark runner is judged by what it runs (hyperfine 'make test'
	// is make test), when its own options write nothing outside the
	// project and every command it runs is allowed
	if j, ok := d.payload(i, c, v, depth); ok {
		return j
	}

	// wrappers judged by what they run
	var innerFail *Verdict
	switch c.Wrap {
	case classify.WrapTransparent, classify.WrapShell:
		if c.Opaque {
			// ls | sh, bash < file, bash -c "$X": what it runs is not known,
			// so it cannot be judged by what it runs.
			if tr != nil {
				tr.add("command %s: %s runs a script guard cannot read, not transparent", label(i), name)
			}
			f := d.unknown(c, name+" runs a script guard cannot read")
			innerFail = &f
			break
		}
		if !passThrough(c) {
			// strace -o FILE, script LOG, valgrind --log-file: the
			// wrapper itself writes or changes how things run.
			if tr != nil {
				tr.add("command %s: %s is not a pass-through wrapper: it needs a grant of its own", label(i), name)
			}
			f := d.unknown(c, name+" is not a pass-through wrapper: its own options write files or change what runs")
			innerFail = &f
			break
		}
		if c.Wrap == classify.WrapTransparent && wrapperAssigns(c) {
			if tr != nil {
				tr.add("command %s: %s sets variables for the command it runs, not transparent", label(i), name)
			}
			f := d.unknown(c, name+" sets variables for the command it runs")
			innerFail = &f
			break
		}
		if c.Wrap == classify.WrapShell && len(c.InnerComposite) > 0 && !d.eachEligible(c.InnerComposite) {
			f := Verdict{Decision: Ask, Rule: RuleComposite, Risk: RiskHigh, Layer: LayerBuiltin, OnceOnly: true,
				Reason: name + " runs a composite script (" + strings.Join(c.InnerComposite, ", ") + "): allow once or deny"}
			innerFail = &f
			break
		}
		idx, cs := d.innerOf(c)
		if len(cs) == 0 {
			if c.Wrap == classify.WrapShell {
				return judgement{ok: true, v: Verdict{Decision: Allow, Rule: RuleEmpty, Reason: name + " runs an empty script", Risk: RiskNone, Layer: LayerBuiltin}}
			}
			break
		}
		var first Verdict
		risk := RiskNone
		for k := range cs {
			j := d.judge(idx[k], cs[k], depth+1)
			if !j.ok {
				f := j.v
				innerFail = &f
				break
			}
			if k == 0 {
				first = j.v
			}
			risk = maxRisk(risk, j.v.Risk)
		}
		if innerFail == nil {
			if tr != nil {
				tr.add("command %s: %s is transparent and everything it runs is allowed", label(i), name)
			}
			first.Risk = risk
			return judgement{ok: true, v: first}
		}
	}

	// An option a '*' grant cannot cover asks, unless the built-in
	// read-only set (which reads the options itself) allows the command:
	// a grant of ls * must not make ls -la ask where no grant allows it.
	execAsk := judgement{v: Verdict{Decision: Ask, Rule: execRuleID, Reason: execReason, Risk: RiskHigh}}
	if execRule != nil {
		execAsk.v.Layer, execAsk.v.File, execAsk.v.Line = execRule.Layer, execRule.File, execRule.Line
	}
	untypedOnly := execReason != "" && execRuleID == RuleUntyped
	if execReason != "" && !untypedOnly {
		return execAsk
	}
	if innerFail != nil {
		return judgement{v: *innerFail}
	}

	// tee into the project is a project write, like a redirect (tiers.go)
	if d.t.teeOK(c) {
		if tr != nil {
			tr.add("command %s: tee writes only where the write tier allows", label(i))
		}
		return judgement{ok: true, v: Verdict{Decision: Allow, Rule: RuleProjectWrite, Reason: "tee writes only inside the project",
			Risk: RiskLow, Layer: LayerBuiltin}}
	}

	// 8. built-in read-only set
	if d.s.BuiltinReadonly {
		if envDump(c) {
			if tr != nil {
				tr.add("step 8 command %s: %s without a command prints the environment", label(i), name)
			}
			return judgement{v: Verdict{Decision: Ask, Rule: RuleEnvDump, Reason: name + " prints the whole environment, secrets included",
				Risk: RiskHigh, Layer: LayerBuiltin}}
		}
		ok, why := readOnly(c, &v.m)
		if ok {
			if tr != nil {
				tr.add("step 8 command %s: in the built-in read-only set", label(i))
			}
			return judgement{ok: true, v: Verdict{Decision: Allow, Rule: RuleBuiltinReadonly, Reason: name + " only reads",
				Risk: RiskNone, Layer: LayerBuiltin}}
		}
		if tr != nil {
			if why == "" {
				why = "not in the set"
			}
			tr.add("step 8 command %s: built-in read-only set: %s", label(i), why)
		}
		if untypedOnly {
			return execAsk
		}
		if why != "" && why != "not in the set" {
			return judgement{v: d.unknown(c, why)}
		}
	} else if tr != nil {
		tr.add("step 8: built-in read-only set is off (builtin_readonly = false)")
	}
	if untypedOnly {
		return execAsk
	}
	if tr != nil {
		tr.add("step 9 command %s: nothing covers it, unknown = %q", label(i), d.s.Unknown)
	}
	return judgement{v: d.unknown(c, "")}
}

// payloadRunners run the command lines they are given, unchanged, and
// are judged by them.
func payloadRunners(name string) bool { return name == "hyperfine" }

// payload judges a payload runner (hyperfine) by the commands it runs: ok
// when its only sensitive words are those command lines (no --shell, no
// write outside the project, no option guard cannot type) and each
// command is allowed on its own.
func (d *decider) payload(i int, c *classify.Command, v *view, depth int) (judgement, bool) {
	if i < 0 || !payloadRunners(commandName(c)) || c.Wrap != classify.WrapNone || c.Opaque {
		return judgement{}, false
	}
	p := c.Words()
	for k, s := range v.m.sens {
		if k < len(v.m.untyped) && v.m.untyped[k] {
			return judgement{}, false
		}
		if !s {
			continue
		}
		program := false
		for _, wd := range p.Words {
			if wd.Arg == k && wd.Role == classify.RoleProgram && wd.Name != "shell" && wd.Name != "S" {
				program = true
			}
			if wd.Name != "" && wd.Arg == k-1 && wd.Role == classify.RoleProgram && wd.Name != "shell" && wd.Name != "S" {
				program = true // -p CMD: the option word before its value
			}
		}
		if !program {
			return judgement{}, false
		}
	}
	var first Verdict
	risk, n := RiskNone, 0
	for k := range d.a.Commands {
		if d.a.Commands[k].Parent != i {
			continue
		}
		j := d.judge(k, &d.a.Commands[k], depth+1)
		if !j.ok {
			return judgement{}, false
		}
		if n == 0 {
			first = j.v
		}
		n++
		risk = maxRisk(risk, j.v.Risk)
	}
	if n == 0 {
		return judgement{}, false
	}
	if d.tr != nil {
		d.tr.add("command %s: %s is judged by what it runs, and everything it runs is allowed", label(i), commandName(c))
	}
	first.Risk = risk
	return judgement{ok: true, v: first}, true
}

func label(i int) string {
	if i < 0 {
		return "(wrapped)"
	}
	return fmt.Sprint(i + 1)
}

// alsoHit appends the other rules that hit to the most severe one's reason.
func alsoHit(reason string, rest []string) string {
	if len(rest) == 0 {
		return reason
	}
	return reason + " (also: " + strings.Join(rest, ", ") + ")"
}
