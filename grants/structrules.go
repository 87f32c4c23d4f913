package grants

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// Structured rules: [[rule]] tables beside the glob patterns. A rule names
// commands (by basename) and the arguments they must hold after flag
// normalisation (classify's Normalized tokens: rm -rf, -fr, -r -f and
// --recursive --force are one thing), and is tried on every simple command
// found anywhere in the text, through wrappers, bash -c, eval, xargs and
// find -exec, so wrapping cannot dodge it. Deny rules are tried with the
// deny patterns (step 3), ask rules with the ask patterns (step 4), allow
// rules with the allow grants (step 7). Each rule's examples must match it
// and its not_examples must not, checked when the file loads.

// maxRuleExamples bounds the examples a rule may list: each is parsed
// whenever the settings load, which is before every command.
const maxRuleExamples = 16

// StructRule is one [[rule]] table.
type StructRule struct {
	Kind     Decision // Allow, Ask or Deny (the table's effect)
	ID       string   // id = "…", else "rule-N" (N counts the file's tables from 1)
	Commands []string // basenames; empty: any command (then no argument lists)
	Contain  []string // args_contain as written: all of them
	Any      []string // args_any as written: at least one
	Regex    string   // args_regex as written
	Cwd      string   // cwd glob as written
	Agent    string   // agent = "…": only for this agent
	Reason   string   // shown in the refusal
	Examples []string // must match
	Not      []string // must not match
	Network  string   // network = "…": the confinement of a command this allow rule lets run
	Layer    string
	File     string
	Line     int  // line of the [[rule]] header
	N        int  // the table's number in its file, from 1
	Trusted  bool // false only for an allow rule of an untrusted project config

	re    *regexp.Regexp
	cwdRe *regexp.Regexp
	// per entry of Commands: the tokens args_contain and each args_any
	// entry stand for, under that command's own grammar
	norm []ruleTokens
}

type ruleTokens struct {
	contain []string
	any     [][]string
}

// ruleKeys are the keys a [[rule]] table may hold.
var ruleKeys = []string{"id", "command", "args_contain", "args_any", "args_regex", "cwd", "agent", "effect", "reason", "examples", "not_examples", "network"}

// parseStructRules reads the [[rule]] tables of one file (raw: the decoded
// value of the "rule" key, nil when absent). Errors read "file:line: rule
// N: problem", with the line of the table's header. With lenient (the
// committed project config), an allow rule guard refuses is left out with
// a warning instead of failing the file.
func parseStructRules(file, text string, raw any, lenient bool) (rules []StructRule, ignored []string, err error) {
	if raw == nil {
		return nil, nil, nil
	}
	tables, ok := raw.([]map[string]any)
	if !ok {
		list, isList := raw.([]any)
		if !isList {
			line, _ := locateKey(text, "rule")
			return nil, nil, fmt.Errorf("%s:%d: rule must be an array of tables ([[rule]])", file, line)
		}
		for _, e := range list {
			m, isMap := e.(map[string]any)
			if !isMap {
				line, _ := locateKey(text, "rule")
				return nil, nil, fmt.Errorf("%s:%d: rule must be an array of tables ([[rule]])", file, line)
			}
			tables = append(tables, m)
		}
	}
	lines := ruleHeaderLines(text)
	for n, t := range tables {
		line := 0
		if n < len(lines) {
			line = lines[n]
		} else {
			line, _ = locateKey(text, "rule")
		}
		r, err := parseStructRule(t, n+1)
		if err == nil && r.Kind == Allow {
			err = allowRuleProblem(&r)
			if err != nil && lenient {
				ignored = append(ignored, fmt.Sprintf("%s:%d: rule %d ignored: %v", file, line, n+1, err))
				continue
			}
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: rule %d: %w", file, line, n+1, err)
		}
		r.File, r.Line, r.N = file, line, n+1
		rules = append(rules, r)
	}
	return rules, ignored, nil
}

// ruleHeaderLines returns the line of each [[rule]] header, in order.
func ruleHeaderLines(text string) []int {
	var out []int
	for n, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "[[") {
			continue
		}
		name, _, ok := strings.Cut(l[2:], "]]")
		if ok && strings.Trim(strings.TrimSpace(name), `"'`) == "rule" {
			out = append(out, n+1)
		}
	}
	return out
}

func parseStructRule(t map[string]any, n int) (StructRule, error) {
	r := StructRule{ID: fmt.Sprintf("rule-%d", n), Trusted: true}
	for k := range t {
		if !slices.Contains(ruleKeys, k) {
			return r, fmt.Errorf("unknown key %q", k)
		}
	}
	str := func(key string) (string, error) {
		v, ok := t[key]
		if !ok {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s must be a string", key)
		}
		return s, nil
	}
	list := func(key string, oneOK bool) ([]string, error) {
		v, ok := t[key]
		if !ok {
			return nil, nil
		}
		if s, isStr := v.(string); isStr && oneOK {
			return []string{s}, nil
		}
		l, isList := v.([]any)
		if !isList && oneOK {
			return nil, fmt.Errorf("%s must be a string or an array of strings", key)
		}
		if !isList {
			return nil, fmt.Errorf("%s must be an array of strings", key)
		}
		out := make([]string, 0, len(l))
		for i, e := range l {
			s, isStr := e.(string)
			if !isStr {
				return nil, fmt.Errorf("%s entry %d is not a string", key, i+1)
			}
			out = append(out, s)
		}
		return out, nil
	}
	var err error
	effect, err := str("effect")
	if err != nil {
		return r, err
	}
	switch Decision(effect) {
	case Allow, Ask, Deny:
		r.Kind = Decision(effect)
	case "":
		return r, fmt.Errorf(`effect is missing: "allow", "ask" or "deny"`)
	default:
		return r, fmt.Errorf(`effect must be "allow", "ask" or "deny"`)
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"id", &r.ID}, {"args_regex", &r.Regex}, {"cwd", &r.Cwd}, {"agent", &r.Agent}, {"reason", &r.Reason}, {"network", &r.Network}} {
		s, err := str(f.key)
		if err != nil {
			return r, err
		}
		if s != "" {
			*f.dst = s
		}
	}
	if r.Network != "" {
		if err := checkNetwork(r.Network); err != nil {
			return r, err
		}
	}
	if strings.ContainsAny(r.ID, " \t\n") {
		return r, fmt.Errorf("id must be one word")
	}
	for _, f := range []struct {
		key   string
		dst   *[]string
		oneOK bool
	}{{"command", &r.Commands, true}, {"args_contain", &r.Contain, false}, {"args_any", &r.Any, false},
		{"examples", &r.Examples, false}, {"not_examples", &r.Not, false}} {
		if *f.dst, err = list(f.key, f.oneOK); err != nil {
			return r, err
		}
	}
	for _, c := range r.Commands {
		if c == "" || strings.ContainsAny(c, "/ \t\n") {
			return r, fmt.Errorf("command %q must be a command's name, without a directory", c)
		}
	}
	if len(r.Commands) == 0 && (len(r.Contain) > 0 || len(r.Any) > 0) {
		return r, fmt.Errorf("args_contain and args_any need a command: flags are read by the command's own grammar")
	}
	if len(r.Commands) == 0 && r.Regex == "" && r.Cwd == "" {
		return r, fmt.Errorf("a rule needs a command, args_regex or cwd: this one would match every command")
	}
	if len(r.Examples)+len(r.Not) > maxRuleExamples {
		return r, fmt.Errorf("more than %d examples and not_examples", maxRuleExamples)
	}
	if r.Regex != "" {
		if r.re, err = regexp.Compile(r.Regex); err != nil {
			return r, fmt.Errorf("args_regex does not compile: %v", regexpProblem(err))
		}
	}
	if r.Cwd != "" {
		if !strings.HasPrefix(r.Cwd, "/") && !strings.HasPrefix(r.Cwd, "~") && !strings.HasPrefix(r.Cwd, "*") {
			return r, fmt.Errorf("cwd must be an absolute glob (/srv/prod/**), or start with ~ or *")
		}
	}
	return r, nil
}

// regexpProblem is a regexp error without the expression it quotes.
func regexpProblem(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return string(se.Code)
	}
	return "invalid expression"
}

// allowRuleProblem refuses allow rules that would cover arbitrary code:
// one that names no command, or an interpreter or wrapper (bash, python,
// env, xargs, …), whose arguments a rule of "contains" cannot bound.
func allowRuleProblem(r *StructRule) error {
	if len(r.Commands) == 0 {
		return fmt.Errorf("an allow rule must name its command")
	}
	for _, c := range r.Commands {
		if runsAny(c) || strings.HasPrefix(c, "python") {
			return fmt.Errorf("an allow rule on %s covers every program it may run: use a pattern that names the script", c)
		}
	}
	return nil
}

// compileStructRules prepares rules loaded from one layer: the argument
// tokens under each command's grammar (home stands for ~ and $HOME), the
// cwd glob, and the examples, which are analysed as commands run in cwd.
// The error reads "file:line: rule N: example "…" does not match".
func compileStructRules(rules []StructRule, home, cwd string) error {
	var an *classify.Analyzer // one parser for every example
	for i := range rules {
		r := &rules[i]
		if r.Cwd != "" {
			g := r.Cwd
			if home != "" && (g == "~" || strings.HasPrefix(g, "~/")) {
				g = home + g[1:]
			}
			r.cwdRe = regexp.MustCompile(globRegexp(g))
		}
		r.norm = make([]ruleTokens, len(r.Commands))
		for k, c := range r.Commands {
			nt := &r.norm[k]
			nt.contain = classify.NormalizeArgs(c, r.Contain, home)
			for _, a := range r.Any {
				// read in the context of args_contain (git push -f:
				// -f is push's option), minus what that context gave
				with := classify.NormalizeArgs(c, append(slices.Clip(r.Contain), a), home)
				var own []string
				for _, tok := range with {
					if !slices.Contains(nt.contain, tok) {
						own = append(own, tok)
					}
				}
				if len(own) == 0 {
					own = with
				}
				nt.any = append(nt.any, own)
			}
		}
		if len(r.Examples) == 0 && len(r.Not) == 0 {
			continue
		}
		if an == nil {
			an = classify.NewAnalyzer(classify.Options{Cwd: cwd, Home: home})
		}
		for _, ex := range r.Examples {
			if !r.matchesText(an.Analyze(ex)) {
				return fmt.Errorf("%s:%d: rule %d: example %q does not match", r.File, r.Line, r.N, ex)
			}
		}
		for _, ex := range r.Not {
			if r.matchesText(an.Analyze(ex)) {
				return fmt.Errorf("%s:%d: rule %d: not_example %q matches", r.File, r.Line, r.N, ex)
			}
		}
	}
	return nil
}

// globRegexp turns a cwd glob into an anchored expression: * is any run of
// characters within one directory name, ** any run across them, ? one
// character; DIR/** also matches DIR itself.
func globRegexp(g string) string {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch {
		case strings.HasPrefix(g[i:], "/**") && i+3 == len(g):
			b.WriteString("(/.*)?")
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case g[i] == '*':
			b.WriteString("[^/]*")
		case g[i] == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		}
	}
	b.WriteString("$")
	return b.String()
}

// match is how far a rule matches one command.
type match uint8

const (
	noMatch    match = iota
	maybeMatch       // only if a word guard cannot know (a $VAR, a glob) turns out to be what the rule names
	fullMatch
)

// matchesText reports whether the rule certainly matches a command of a,
// its cwd and agent filters aside (the check of examples).
func (r *StructRule) matchesText(a *classify.Analysis) bool {
	if a == nil || a.Fail != "" {
		return false
	}
	for i := range a.Commands {
		c := &a.Commands[i]
		var toks []string
		if r.matchCommand(c, generated(a, c), func() []string {
			if toks == nil {
				toks = c.Normalized()
			}
			return toks
		}) == fullMatch {
			return true
		}
	}
	return false
}

// matchCommand tells how the rule's command, argument and regex conditions
// hold for c; toks returns c's normalised tokens. For a deny or ask rule, a
// word that is not literal ($X, "$(…)") or holds glob characters may stand
// for what the rule names, and so may the arguments xargs or find -exec add
// to a command (hidden): that is a maybeMatch. An allow rule matches only
// commands whose every word is literal.
func (r *StructRule) matchCommand(c *classify.Command, hidden bool, toks func() []string) match {
	if len(c.Args) == 0 || dyn(c, 0) {
		return noMatch
	}
	res := fullMatch
	if r.Kind == Allow && slices.Contains(c.Dynamic, true) {
		return noMatch
	}
	name := commandName(c)
	if len(r.Commands) > 0 {
		k := slices.Index(r.Commands, name)
		if k < 0 && r.Kind != Allow && wild(name) {
			k = slices.IndexFunc(r.Commands, func(cmd string) bool { return wildMatch(name, cmd) })
			res = maybeMatch
		}
		if k < 0 {
			return noMatch
		}
		nt := &r.norm[k]
		if len(nt.contain) > 0 || len(nt.any) > 0 {
			got := toks()
			has := func(t string) match {
				if slices.Contains(got, t) {
					return fullMatch
				}
				if r.Kind != Allow && (hidden || slices.ContainsFunc(got, func(g string) bool { return wild(g) && wildMatch(g, t) })) {
					return maybeMatch
				}
				return noMatch
			}
			for _, t := range nt.contain {
				res = min(res, has(t))
			}
			if len(nt.any) > 0 {
				best := noMatch
				for _, alt := range nt.any {
					m := fullMatch
					for _, t := range alt {
						m = min(m, has(t))
					}
					best = max(best, m)
				}
				res = min(res, best)
			}
			if res == noMatch {
				return noMatch
			}
		}
	}
	if r.re != nil {
		words := name
		if len(c.Args) > 1 {
			words += " " + strings.Join(c.Args[1:], " ")
		}
		if !r.re.MatchString(words) {
			if r.Kind == Allow || !hidden && !slices.Contains(c.Dynamic, true) {
				return noMatch
			}
			res = maybeMatch
		}
	}
	return res
}

// generated reports whether c is run by xargs, parallel or find -exec,
// which add arguments guard cannot see.
func generated(a *classify.Analysis, c *classify.Command) bool {
	return c.Parent >= 0 && c.Parent < len(a.Commands) && a.Commands[c.Parent].Wrap == classify.WrapGenerated
}

// wild reports whether a word may stand for other words when it runs: a
// glob, or the source text of an expansion.
func wild(w string) bool {
	return strings.ContainsAny(w, "*?[$`")
}

// wildMatch reports whether word w, read as a pattern, may be s: glob
// characters and every expansion ($X, ${…}, $(…), `…`) stand for any run of
// characters, '/' included, and quotes are dropped. It errs towards a match.
func wildMatch(w, s string) bool {
	return wildStar(wildPattern(w), s)
}

// wildPattern turns a word into a pattern of literal bytes, '*' (any run)
// and '?' (any one byte).
func wildPattern(w string) string {
	var b strings.Builder
	star := func() {
		if !strings.HasSuffix(b.String(), "*") {
			b.WriteByte('*')
		}
	}
	for i := 0; i < len(w); i++ {
		switch ch := w[i]; ch {
		case '"', '\'':
		case '*':
			star()
		case '?':
			b.WriteByte('?')
		case '[':
			if j := strings.IndexByte(w[i+1:], ']'); j >= 0 {
				i += j + 1
				b.WriteByte('?')
			} else {
				b.WriteByte(ch)
			}
		case '`':
			if j := strings.IndexByte(w[i+1:], '`'); j >= 0 {
				i += j + 1
			} else {
				i = len(w)
			}
			star()
		case '$':
			i = skipExpansion(w, i)
			star()
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// skipExpansion returns the index of the last byte of the expansion that
// starts with the '$' at w[i].
func skipExpansion(w string, i int) int {
	if i+1 >= len(w) {
		return i
	}
	switch open := w[i+1]; open {
	case '{', '(':
		closer := byte('}')
		if open == '(' {
			closer = ')'
		}
		depth := 0
		for j := i + 1; j < len(w); j++ {
			switch w[j] {
			case open:
				depth++
			case closer:
				depth--
				if depth == 0 {
					return j
				}
			}
		}
		return len(w) - 1
	}
	j := i + 1
	for j < len(w) && (w[j] == '_' || w[j] >= 'a' && w[j] <= 'z' || w[j] >= 'A' && w[j] <= 'Z' || w[j] >= '0' && w[j] <= '9') {
		j++
	}
	if j == i+1 && strings.IndexByte("@*#?$!-", w[j]) >= 0 {
		j++
	}
	return j - 1
}

// wildStar matches s against a pattern of literal bytes, '*' and '?'.
func wildStar(p, s string) bool {
	pi, si := 0, 0
	nextP, nextS := -1, -1
	for si < len(s) || pi < len(p) {
		if pi < len(p) {
			switch p[pi] {
			case '*':
				nextP, nextS = pi, si+1
				pi++
				continue
			case '?':
				if si < len(s) {
					pi++
					si++
					continue
				}
			default:
				if si < len(s) && s[si] == p[pi] {
					pi++
					si++
					continue
				}
			}
		}
		if nextP >= 0 && nextS <= len(s) {
			pi, si = nextP, nextS
			continue
		}
		return false
	}
	return true
}

// matchFilters reports whether the rule's cwd and agent conditions hold
// for c under s. A directory guard lost track of (cd "$X") matches a deny
// or ask rule's cwd and never an allow rule's.
func (r *StructRule) matchFilters(c *classify.Command, s *Settings) bool {
	if r.Agent != "" && !strings.EqualFold(r.Agent, s.Agent) {
		return false
	}
	if r.cwdRe != nil {
		if c.Dir == "" || c.DirUnknown {
			return r.Kind != Allow
		}
		if !r.cwdRe.MatchString(path.Clean(c.Dir)) {
			return false
		}
	}
	return true
}

func (r *StructRule) where() string {
	return fmt.Sprintf("%s %s:%d", r.Layer, r.File, r.Line)
}

func (r *StructRule) verdict() Verdict {
	reason := r.Reason
	if reason == "" {
		reason = fmt.Sprintf("%s rule %s (%s)", r.Kind, r.ID, r.Layer)
	}
	return Verdict{Decision: r.Kind, Rule: r.ID, Reason: reason, Risk: RiskHigh, Layer: r.Layer, File: r.File, Line: r.Line}
}

// tokensOf returns command i's normalised tokens, computed once per decision.
func (d *decider) tokensOf(i int, c *classify.Command) func() []string {
	return func() []string {
		if i < 0 {
			return c.Normalized()
		}
		if d.toks == nil {
			d.toks = make([][]string, len(d.a.Commands))
			d.tokDone = make([]bool, len(d.a.Commands))
		}
		if !d.tokDone[i] {
			d.toks[i], d.tokDone[i] = c.Normalized(), true
		}
		return d.toks[i]
	}
}

// structRules applies the deny or ask [[rule]] tables of every layer to
// every command found anywhere in the text. A rule that only may match (a
// word is not known until it runs) asks, after every rule had its chance
// to match for certain.
func (d *decider) structRules(kind Decision) (Verdict, bool) {
	if len(d.s.Structured) == 0 {
		return Verdict{}, false
	}
	step := "step 3"
	if kind == Ask {
		step = "step 4"
	}
	var maybe *StructRule
	maybeAt := 0
	for ri := range d.s.Structured {
		r := &d.s.Structured[ri]
		if r.Kind != kind {
			continue
		}
		for i := range d.a.Commands {
			c := &d.a.Commands[i]
			m := r.matchCommand(c, generated(d.a, c), d.tokensOf(i, c))
			if m == noMatch || !r.matchFilters(c, d.s) {
				continue
			}
			if m == maybeMatch {
				if maybe == nil {
					maybe, maybeAt = r, i
				}
				continue
			}
			if d.tr != nil {
				d.tr.add("%s %s rule %s [%s]: matches command %d", step, kind, r.ID, r.where(), i+1)
			}
			return r.verdict(), true
		}
		if d.tr != nil {
			d.tr.add("%s %s rule %s [%s]: no command matches for certain", step, kind, r.ID, r.where())
		}
	}
	if maybe != nil {
		if d.tr != nil {
			d.tr.add("%s %s rule %s [%s]: command %d may match: a word is not known until it runs", step, kind, maybe.ID, maybe.where(), maybeAt+1)
		}
		v := maybe.verdict()
		v.Decision, v.OnceOnly = Ask, true
		v.Reason = fmt.Sprintf("may be what %s rule %s forbids (%s): a word is not known until it runs", kind, maybe.ID, v.Reason)
		return v, true
	}
	return Verdict{}, false
}

// structAllow applies the allow [[rule]] tables to command c judged on its
// own (step 7). A wrapper is never allowed by a rule (it is judged by what
// it runs), nor a command with an exec-capable or sensitive argument.
func (d *decider) structAllow(i int, c *classify.Command, v *view) (Verdict, bool) {
	if len(d.s.Structured) == 0 {
		return Verdict{}, false
	}
	for ri := range d.s.Structured {
		r := &d.s.Structured[ri]
		if r.Kind != Allow {
			continue
		}
		if !r.Trusted {
			if d.tr != nil {
				d.tr.add("allow rule %s [%s]: skipped, project config not trusted (run guard trust)", r.ID, r.where())
			}
			continue
		}
		if why := d.s.allowWhyNot(&Rule{Kind: Allow, Layer: r.Layer}); why != "" {
			if d.tr != nil {
				d.tr.add("allow rule %s [%s]: skipped, %s", r.ID, r.where(), why)
			}
			continue
		}
		if r.matchCommand(c, false, d.tokensOf(i, c)) != fullMatch || !r.matchFilters(c, d.s) {
			continue
		}
		if c.Wrap != classify.WrapNone || c.Opaque || v.m.any || v.m.ureason != "" {
			if d.tr != nil {
				d.tr.add("step 7 command %s: allow rule %s [%s] matches, but does not cover a wrapper, an exec-capable argument or an option guard cannot type", label(i), r.ID, r.where())
			}
			continue
		}
		if d.tr != nil {
			d.tr.add("step 7 command %s: allow rule %s [%s] matches", label(i), r.ID, r.where())
		}
		out := r.verdict()
		if r.Reason == "" {
			out.Reason = fmt.Sprintf("allowed by rule %s (%s)", r.ID, r.Layer)
		}
		out.Risk = RiskLow
		out.Network = r.Network
		return out, true
	}
	return Verdict{}, false
}

// addStructRules compiles one layer's [[rule]] tables and appends them.
func (s *Settings) addStructRules(rules []StructRule, layer string, trust bool, home, cwd string) error {
	if len(rules) == 0 {
		return nil
	}
	if home == NoHome {
		home = ""
	}
	for i := range rules {
		rules[i].Layer = layer
		rules[i].Trusted = layer != LayerProject || trust || rules[i].Kind != Allow
	}
	if err := compileStructRules(rules, home, cwd); err != nil {
		return err
	}
	s.Structured = append(s.Structured, rules...)
	return nil
}

// UsesAgent reports whether a [[rule]] table names an agent: only then
// must the caller find out which agent runs the command (Settings.Agent).
func (s *Settings) UsesAgent() bool {
	for i := range s.Structured {
		if s.Structured[i].Agent != "" {
			return true
		}
	}
	return false
}
