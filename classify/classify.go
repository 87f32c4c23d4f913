package classify

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Analyzer analyzes many texts with the same options, reusing its parser.
// It is not safe for concurrent use.
type Analyzer struct {
	opt    Options
	parser *syntax.Parser
}

// NewAnalyzer returns an Analyzer for the caller described by opt.
func NewAnalyzer(opt Options) *Analyzer {
	return &Analyzer{opt: opt, parser: syntax.NewParser(syntax.Variant(syntax.LangBash))}
}

// Analyze is the package-level Analyze with the Analyzer's options and parser.
func (z *Analyzer) Analyze(text string) *Analysis {
	return analyze(text, z.opt, z.parser)
}

// Analyze parses text as bash and returns everything guard needs to decide
// on it. It never fails: text that cannot be judged comes back with Fail set.
func Analyze(text string, opt Options) *Analysis {
	return analyze(text, opt, nil)
}

func analyze(text string, opt Options, parser *syntax.Parser) (a *Analysis) {
	aa := &analysisAlloc{a: Analysis{Text: text}}
	a = &aa.a
	defer func() {
		// A bug in guard must not let a command through: fail closed.
		if r := recover(); r != nil {
			a = &Analysis{Text: text, Fail: FailParse, FailReason: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	if len(text) > MaxTextBytes {
		a.Fail, a.FailReason = FailTooLong, fmt.Sprintf("command is %d bytes, over the %d byte limit", len(text), MaxTextBytes)
		return a
	}
	if strings.IndexByte(text, 0) >= 0 {
		a.Fail, a.FailReason = FailParse, "command contains a NUL byte"
		return a
	}
	// The walker, the first commands' room and the first directory come
	// in one allocation: every text needs them.
	wa := &walkerAlloc{w: walker{opt: opt, a: a, parent: -1, parser: parser, pos: opt.Positional, top: text}}
	w := &wa.w
	a.Commands = aa.cmds[:0]
	w.info = wa.info[:0]
	if opt.Cwd != "" {
		wa.dir[0] = path.Clean(opt.Cwd)
		w.dirs = wa.dir[:]
	}
	w.comp = &a.Composite
	w.funcBodies = maps.Clone(opt.Funcs)
	w.aliases = maps.Clone(opt.Aliases)
	for name := range opt.SessionVars {
		// an earlier line set it: its value is the session's, unknown here
		w.setVar(name, varState{dyn: true})
	}
	f, err := w.parse(text)
	if err != nil {
		a.Fail, a.FailReason = FailParse, err.Error()
		return a
	}
	w.src = text
	w.stmts(f.Stmts, "top level")
	if w.fail == "" {
		w.forkBombs()
		w.uncertainCalls()
	}
	secrets := w.secrets()
	if w.fail != "" {
		*a = Analysis{Text: text, Fail: w.fail, FailReason: w.failReason, Secrets: secrets}
		return a
	}
	w.judge()
	a.Secrets = secrets
	return a
}

// secrets returns the literal values the argument model types as
// passwords (mysql -pSECRET, sshpass -p SECRET, htpasswd -b F U SECRET)
// and the values of password variables set for a command (PGPASSWORD=…),
// each once: every record of the text redacts them.
func (w *walker) secrets() []string {
	var out []string
	add := func(v string) {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	for c := range w.a.Commands {
		if len(w.info[c].fields) == 0 || w.a.Commands[c].Name == "" {
			continue
		}
		for _, as := range w.a.Commands[c].Assigns {
			if name, v, ok := strings.Cut(as, "="); ok && secretVar(name) {
				add(v)
			}
		}
		if SpecFor(w.a.Commands[c].Name) == nil {
			continue
		}
		p := w.words(c)
		for _, wd := range p.Words {
			if wd.Role == RoleSecret && wd.Arg < len(w.info[c].fields) && !w.info[c].fields[wd.Arg].dyn {
				add(wd.Val)
			}
		}
	}
	return out
}

// secretVar reports a variable whose value is a password or token.
func secretVar(name string) bool {
	n := strings.ToUpper(name)
	switch n {
	case "SSHPASS", "MYSQL_PWD", "REDISCLI_AUTH", "PGPASSWORD":
		return true
	}
	for _, w := range []string{"PASSWORD", "PASSWD", "TOKEN", "SECRET", "API_KEY", "ACCESS_KEY", "PRIVATE_KEY"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// AnalyzeArgv judges an argv (guard exec) as the simple command it is: each
// word is quoted for bash and the result analyzed as text.
func AnalyzeArgv(argv []string, opt Options) *Analysis {
	text, err := QuoteArgv(argv)
	if err != nil {
		return &Analysis{Text: strings.Join(argv, " "), Fail: FailParse, FailReason: err.Error()}
	}
	return Analyze(text, opt)
}

// QuoteArgv renders argv as bash text that runs exactly that argv.
func QuoteArgv(argv []string) (string, error) {
	if len(argv) == 0 {
		return "", fmt.Errorf("empty command")
	}
	var sb strings.Builder
	for i, s := range argv {
		q, err := syntax.Quote(s, syntax.LangBash)
		if err != nil {
			return "", fmt.Errorf("argument %d: %w", i, err)
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(q)
	}
	return sb.String(), nil
}

// walker walks one command text (and the scripts nested in it), collecting
// commands. It lives for one Analyze call.
type walker struct {
	opt Options
	a   *Analysis
	src string // the text currently being walked (nested scripts have their own)

	vars    map[string]varState
	aliases map[string]string
	dirs    []string // the directories the shell may be in; nil when unknown
	depth   int
	cond    int  // >0 inside a branch, loop, function or background: assignments are not certain
	conc    int  // >0 inside a pipeline or background: calls run concurrently
	subst   bool // inside a command or process substitution
	parent  int  // the command running the current nested script, or -1
	where   string
	comp    *[]string // where composite reasons of the current script go
	fn      string    // the function whose body is being walked

	fail, failReason string

	info    []cmdInfo             // per command, beside a.Commands
	funcs   map[string][]funcCall // calls made inside each function body
	argSubs *[]int                // commands of substitutions met while expanding words
	redirs  []redirTarget
	parser  *syntax.Parser

	aliasDepth  int
	nestedBytes int

	funcBodies map[string]string // the text of each function defined so far
	expanding  map[string]bool   // functions whose call is being judged (no recursion)
	funcDefs   map[string][]funcDef
	funcCalls  []int // the calls judged by a body (Command.Func), in walk order

	// pos are the positional parameters of the script being walked ($0
	// first); nil when unknown. nextPos, when set, are those of the nested
	// script about to be walked (bash -c TEXT ARG0 ARG…); otherwise a nested
	// script (eval, trap, text piped into a shell) keeps the current ones.
	pos     []string
	nextPos *[]string

	oldDirs  []string   // $OLDPWD: where cd - goes back to; nil when unknown
	dirStack [][]string // pushd's stack, for popd

	pidVars map[string]bool // loop variables over every process's id (for p in $(pgrep .))

	top      string          // the whole text analyzed
	written  map[string]bool // the names the text may write (writers), once asked
	readonly map[string]bool // variables declared readonly (unset leaves them)
	links    []madeLink      // links the text makes (ln -s ~ h): paths through them reach their targets
}

// analysisAlloc is an Analysis with room for its first commands, in one
// allocation (analyze).
type analysisAlloc struct {
	a    Analysis
	cmds [4]Command
}

// walkerAlloc is a walker with room for its first commands' info and its
// first directory (analyze).
type walkerAlloc struct {
	w    walker
	info [4]cmdInfo
	dir  [1]string
}

// cmdInfo keeps what the rules need about a command beyond the public fields.
type cmdInfo struct {
	fields    []field
	dirs      []string
	substCmds []int // commands run by substitutions in this command's words
	stdinText string
	stdinLit  bool // stdinText holds the literal text fed on stdin
	state     bool // writes shell state that changes what later commands run (rules_state.go)
	readStdin bool // a shell or interpreter that runs its standard input
	downloads bool
	fromFind  bool  // run by find -exec for every file found: recursive by nature
	fedBy     int32 // 1 + the command whose output is this one's stdin (a | b), 0 when none; int32 keeps cmdInfo its size
	// parsed is the argv typed by its spec (words), computed on first use;
	// parsedArgs the argv it parsed (tar's old form rewritten).
	parsed     *Parsed
	parsedArgs []string
	resolved   []resolved // the paths of its words, once asked (walker.paths)
}

type funcCall struct {
	name       string
	concurrent bool
}

type redirTarget struct {
	op    syntax.RedirOperator
	paths []string
	dyn   bool
	cmd   int
}

func (w *walker) parse(text string) (*syntax.File, error) {
	if w.parser == nil {
		w.parser = syntax.NewParser(syntax.Variant(syntax.LangBash))
	}
	return w.parser.Parse(strings.NewReader(text), "")
}

func (w *walker) failWith(id, reason string) {
	if w.fail == "" {
		w.fail, w.failReason = id, reason
	}
}

func (w *walker) addComp(reason string) {
	for _, r := range *w.comp {
		if r == reason {
			return
		}
	}
	*w.comp = append(*w.comp, reason)
}

// enter increases the nesting depth; it reports false (and fails the
// analysis) past the limit.
func (w *walker) enter() bool {
	w.depth++
	if w.depth > MaxDepth {
		w.failWith(FailTooDeep, fmt.Sprintf("command nests deeper than %d levels", MaxDepth))
		return false
	}
	return true
}

func (w *walker) leave() { w.depth-- }

func (w *walker) stmts(list []*syntax.Stmt, where string) {
	if len(list) > 1 {
		w.addComp(CompSeq)
	}
	for _, s := range list {
		if w.fail != "" {
			return
		}
		w.stmt(s, where)
	}
}

func (w *walker) stmt(s *syntax.Stmt, where string) {
	if s.Negated {
		w.addComp(CompNegate)
	}
	if s.Background || s.Coprocess || s.Disown {
		w.addComp(CompBackground)
		w.cond++
		w.conc++
		defer func() { w.cond--; w.conc-- }()
	}
	first := len(w.a.Commands)
	w.command(s.Cmd, where)
	cmd := -1
	if len(w.a.Commands) > first {
		cmd = w.effective(first)
	}
	for _, r := range s.Redirs {
		w.redirect(r, cmd)
	}
}

func (w *walker) command(c syntax.Command, where string) {
	if w.fail != "" || c == nil {
		return
	}
	switch x := c.(type) {
	case *syntax.CallExpr:
		w.call(x, where)
	case *syntax.BinaryCmd:
		w.binary(x, where)
	case *syntax.Subshell:
		w.addComp(CompSubshell)
		if !w.enter() {
			return
		}
		vars, dirs := w.saveScope()
		w.stmts(x.Stmts, "( … )")
		w.restoreScope(vars, dirs)
		w.leave()
	case *syntax.Block:
		w.addComp(CompGroup)
		if !w.enter() {
			return
		}
		w.stmts(x.Stmts, "{ … }")
		w.leave()
	case *syntax.IfClause:
		w.addComp(CompIf)
		w.branch(func() {
			for cl := x; cl != nil; cl = cl.Else {
				w.stmts(cl.Cond, "if condition")
				w.stmts(cl.Then, "if body")
			}
		})
	case *syntax.WhileClause:
		w.addComp(CompLoop)
		w.endlessForks(x.Cond, x.Until, x.Do)
		w.branch(func() {
			w.stmts(x.Cond, "loop condition")
			w.stmts(x.Do, "loop body")
		})
	case *syntax.ForClause:
		w.addComp(CompLoop)
		w.branch(func() {
			switch l := x.Loop.(type) {
			case *syntax.WordIter:
				inert := true // every value is a literal word without code in it
				items := len(w.a.Commands)
				for _, it := range l.Items {
					fs, _ := w.fields(it, nil)
					for _, f := range fs {
						inert = inert && !f.dyn && !strings.ContainsAny(f.val, "$`[")
					}
				}
				w.noteLoopPids(l.Name.Value, items) // for p in $(pgrep .)
				w.noteAssigned(l.Name.Value)
				if strings.HasPrefix(l.Name.Value, "GUARD_") {
					w.hitDeny("guard-self", -1)
				}
				w.setVar(l.Name.Value, varState{dyn: true, inert: inert})
			default:
				if cl, ok := l.(*syntax.CStyleLoop); ok && cl.Cond == nil {
					w.endlessForks(nil, false, x.Do) // for ((;;))
				}
				w.walkNested(l)
			}
			w.stmts(x.Do, "loop body")
		})
	case *syntax.CaseClause:
		w.addComp(CompCase)
		w.fields(x.Word, nil)
		w.branch(func() {
			for _, it := range x.Items {
				w.stmts(it.Stmts, "case branch")
			}
		})
	case *syntax.FuncDecl:
		w.addComp(CompFunction)
		name := ""
		if x.Name != nil {
			name = x.Name.Value
		}
		if w.funcs == nil {
			w.funcs = map[string][]funcCall{}
		}
		if _, ok := w.funcs[name]; !ok {
			w.funcs[name] = nil
		}
		if strings.HasPrefix(name, "GUARD_") {
			w.hitDeny("guard-self", -1)
		}
		if w.funcDefs == nil {
			w.funcDefs = map[string][]funcDef{}
		}
		w.funcDefs[name] = append(w.funcDefs[name], funcDef{at: len(w.a.Commands), cond: w.cond > 0})
		prev := w.fn
		w.fn = name
		w.branch(func() {
			if b, ok := x.Body.Cmd.(*syntax.Block); ok && len(x.Body.Redirs) == 0 {
				w.stmts(b.Stmts, "function "+name)
				return
			}
			w.stmt(x.Body, "function "+name)
		})
		w.fn = prev
		// kept to judge each call with its arguments: f() { rm -rf "$1"; }; f /
		if w.funcBodies == nil {
			w.funcBodies = map[string]string{}
		}
		body := x.Body
		if b, ok := body.Cmd.(*syntax.Block); ok && len(body.Redirs) == 0 && len(b.Stmts) > 0 {
			w.funcBodies[name] = w.src[b.Stmts[0].Pos().Offset():b.Stmts[len(b.Stmts)-1].End().Offset()]
		} else {
			w.funcBodies[name] = w.source(body)
		}
	case *syntax.TimeClause:
		if x.Stmt != nil {
			w.stmt(x.Stmt, where)
		}
	case *syntax.DeclClause:
		w.decl(x)
	case *syntax.CoprocClause:
		w.addComp(CompBackground)
		w.branch(func() { w.stmt(x.Stmt, "coproc") })
	case *syntax.TestDecl:
		w.addComp(CompOther)
		if x.Body != nil {
			w.stmt(x.Body, where)
		}
	case *syntax.TestClause:
		w.addComp(CompTest)
		w.walkNested(c)
		w.testCode(x.X)
	default:
		// (( )), let: nothing runs but the substitutions inside.
		w.addComp(CompOther)
		w.walkNested(c)
	}
}

// branch walks code that may or may not run: assignments inside become
// uncertain, and afterwards the directory may be where it was or anywhere
// the branch moved it.
func (w *walker) branch(f func()) {
	if !w.enter() {
		return
	}
	before := append([]string(nil), w.dirs...)
	known := w.dirs != nil
	w.cond++
	f()
	w.cond--
	w.leave()
	if !known || w.dirs == nil {
		w.dirs = nil
		return
	}
	w.dirs = unionDirs(before, w.dirs)
}

func unionDirs(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, d := range b {
		dup := false
		for _, e := range out {
			if e == d {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, d)
		}
	}
	if len(out) > 8 {
		return nil
	}
	return out
}

func (w *walker) saveScope() (map[string]varState, []string) {
	var vars map[string]varState
	if len(w.vars) > 0 {
		vars = make(map[string]varState, len(w.vars))
		for k, v := range w.vars {
			vars[k] = v
		}
	}
	// dirs is never changed in place, only replaced: sharing it is safe.
	return vars, w.dirs
}

func (w *walker) restoreScope(vars map[string]varState, dirs []string) {
	w.vars, w.dirs = vars, dirs
}

func (w *walker) binary(x *syntax.BinaryCmd, where string) {
	switch x.Op {
	case syntax.Pipe, syntax.PipeAll:
		w.addComp(CompPipe)
		w.pipeline(x)
	case syntax.AndStmt:
		w.addComp(CompAnd)
		w.stmt(x.X, where)
		w.cond++
		w.stmt(x.Y, where)
		w.cond--
	case syntax.OrStmt:
		w.addComp(CompOr)
		w.stmt(x.X, where)
		w.branch(func() { w.stmt(x.Y, where) })
	default:
		w.stmt(x.X, where)
		w.stmt(x.Y, where)
	}
}

// pipeline walks each part of a | b | c (each runs in a subshell) and then
// judges what flows between them: a download into a shell, literal text
// into a shell.
func (w *walker) pipeline(x *syntax.BinaryCmd) {
	var parts []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 && !s.Negated && !s.Background {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		parts = append(parts, s)
	}
	flatten(x.X)
	flatten(x.Y)
	eff := make([]int, len(parts))
	w.conc++
	for i, s := range parts {
		vars, dirs := w.saveScope()
		first := len(w.a.Commands)
		w.stmt(s, "pipeline part "+strconv.Itoa(i+1))
		w.restoreScope(vars, dirs)
		eff[i] = -1
		if len(w.a.Commands) > first {
			eff[i] = w.effective(first)
		}
		if w.fail != "" {
			w.conc--
			return
		}
	}
	w.conc--
	downloaded := false // a downloader feeds this part, directly or not
	for i := 1; i < len(parts); i++ {
		if p := eff[i-1]; p >= 0 && w.downloadsAny(p, 0) {
			downloaded = true
		}
		c := eff[i]
		if c < 0 {
			continue
		}
		w.info[c].fedBy = int32(eff[i-1] + 1)
		if downloaded && w.runsStdin(c, 0) {
			w.hitDeny("download-exec", c)
		}
		if w.a.Commands[c].Name == "xargs" && eff[i-1] >= 0 {
			// echo / | xargs rm -rf: judge the inner command with the
			// literal words it will be given.
			if text, ok := w.literalOutput(eff[i-1]); ok {
				w.feedXargs(c, text, "xargs, fed by "+w.a.Commands[eff[i-1]].Name)
			}
			continue
		}
		if !w.shellStdin(c) {
			continue
		}
		if p := eff[i-1]; p >= 0 {
			if text, ok := w.literalOutput(p); ok {
				w.nestedScript(c, text, "piped into "+w.a.Commands[c].Name)
			}
		}
	}
}

// feedXargs judges the command xargs c runs with the literal input text it
// reads (from a pipe, a heredoc or a here-string) as its arguments.
func (w *walker) feedXargs(c int, text, where string) {
	cm := &w.a.Commands[c]
	if cm.Name != "xargs" || len(cm.Inner) == 0 {
		return
	}
	fs := append([]field(nil), w.info[cm.Inner[0]].fields...)
	replaced := false
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	for k := range fs {
		if strings.Contains(fs[k].val, "{}") && !fs[k].dyn {
			// xargs -I{} cmd {}: the input takes the place of {}
			v := strings.ReplaceAll(fs[k].val, "{}", line)
			fs[k] = field{val: v, pat: v}
			replaced = true
		}
	}
	if !replaced {
		for _, word := range strings.Fields(text) {
			fs = append(fs, field{val: word, pat: word})
		}
	}
	w.innerCommand(c, fs, where)
}

// effective follows a command's transparent wrappers to what finally runs.
func (w *walker) effective(i int) int {
	for n := 0; n < 64; n++ {
		c := &w.a.Commands[i]
		if c.Wrap != WrapTransparent || len(c.Inner) != 1 {
			return i
		}
		i = c.Inner[0]
	}
	return i
}

// literalOutput returns what echo, printf or cat-with-heredoc print when
// all their words are literal.
func (w *walker) literalOutput(i int) (string, bool) {
	c := &w.a.Commands[i]
	if w.info[i].stdinLit && c.Name == "cat" && len(c.Args) == 1 {
		return w.info[i].stdinText, true
	}
	for _, d := range c.Dynamic {
		if d {
			return "", false
		}
	}
	switch c.Name {
	case "echo":
		args := c.Args[1:]
		escapes := false
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
			if strings.Contains(args[0], "e") {
				escapes = true
			}
			args = args[1:]
		}
		s := strings.Join(args, " ")
		if escapes {
			s = decodeANSIC(s)
		}
		return s, true
	case "printf":
		if len(c.Args) < 2 {
			return "", false
		}
		a := c.Args[1:]
		if a[0] == "--" {
			a = a[1:]
		}
		if len(a) == 0 || strings.HasPrefix(a[0], "-") {
			return "", false
		}
		return printfValue(a[0], a[1:])
	}
	return "", false
}

func (w *walker) substitution(stmts []*syntax.Stmt, reason, where string) {
	w.addComp(reason)
	if !w.enter() {
		return
	}
	prevSubst := w.subst
	w.subst = true
	first := len(w.a.Commands)
	vars, dirs := w.saveScope()
	w.stmts(stmts, where)
	w.restoreScope(vars, dirs)
	w.subst = prevSubst
	w.leave()
	if w.argSubs != nil {
		for i := first; i < len(w.a.Commands); i++ {
			*w.argSubs = append(*w.argSubs, i)
		}
	}
}

func (w *walker) setVar(name string, v varState) {
	if v.ref == "" {
		name = w.refTarget(name) // r=/ through declare -n r=x sets x
		if cur, ok := w.vars[name]; ok && cur.integer && !v.integer && !v.isList {
			v.integer = true
			if !v.dyn {
				n, ok := w.integerValue(v.val)
				v = varState{val: n, dyn: !ok, integer: true}
			}
		}
		if cur, ok := w.vars[name]; ok && cur.caseAttr != 0 && v.caseAttr == 0 && !v.isList {
			v = withCase(v, cur.caseAttr)
		}
	}
	if w.cond > 0 {
		v = varState{dyn: true, inert: v.inert || !v.dyn && !strings.ContainsAny(v.val, "$`[")}
	}
	if w.vars == nil {
		w.vars = map[string]varState{}
	}
	w.vars[name] = v
}

// assign records NAME=value (bare, or through declare/export/local).
func (w *walker) assign(as *syntax.Assign, cmd int) {
	if as.Name == nil {
		return
	}
	name := as.Name.Value
	if strings.HasPrefix(name, "GUARD_") {
		w.hitDeny("guard-self", cmd)
	}
	if cur, ok := w.lookup(name); ok && cur.isAssoc && (as.Array != nil || as.Index != nil) {
		w.walkNested(as)
		if !w.assocAssign(name, cur, as) {
			w.setVar(name, varState{dyn: true})
		}
		return
	}
	if as.Array != nil && as.Index == nil && !as.Append {
		// x=(-rf /): a literal array is followed, "${x[@]}" gives its words
		var elems []string
		lit := true
		for _, e := range as.Array.Elems {
			if e.Value == nil {
				lit = false
				break
			}
			if e.Index != nil {
				// a=([0]=/ [1]=x): an index that is the next position is
				// the same as none; a gap or a key is not modelled
				if n, ok := constArith(e.Index); !ok || n != len(elems) {
					lit = false
					break
				}
			}
			fs, err := w.fields(e.Value, nil)
			if err != nil {
				lit = false
				break
			}
			for _, f := range fs {
				lit = lit && !f.dyn
				elems = append(elems, f.val)
			}
		}
		if lit {
			first := ""
			if len(elems) > 0 {
				first = elems[0]
			}
			w.setVar(name, varState{val: first, list: elems, isList: true})
			return
		}
	}
	if as.Array != nil || as.Index != nil || as.Append {
		w.walkNested(as)
		if w.elemAssign(name, as) {
			return
		}
		w.setVar(name, varState{dyn: true})
		return
	}
	if as.Value == nil {
		if !as.Naked {
			w.setVar(name, varState{val: ""})
		}
		return
	}
	fs, err := w.fields(as.Value, nil)
	if err != nil {
		w.failWith(FailTooLong, err.Error())
		return
	}
	// An assignment's value is not split: join what expansion produced.
	val, dyn := "", false
	for i, f := range fs {
		if i > 0 {
			val += " "
		}
		val += f.val
		dyn = dyn || f.dyn
	}
	if len(val) > maxVarBytes {
		w.failWith(FailTooLong, fmt.Sprintf("variable %s grows past %d bytes", name, maxVarBytes))
		return
	}
	// A value computed by an expansion ($(…), $((…)), $y) is taken as data:
	// what reads text into a variable (read, printf -v, ${x:=…}) is not.
	w.setVar(name, varState{val: val, dyn: dyn, inert: dyn})
}

// maxVarBytes caps a variable's value: doubling assignments (a=$a$a …)
// would otherwise grow without bound.
const maxVarBytes = 64 << 10

func (w *walker) decl(x *syntax.DeclClause) {
	if w.declQuery(x) {
		return // declare -p NAME prints a variable: no assignment, nothing runs
	}
	w.addComp(CompAssign)
	w.a.Declared = true
	nameref, integer, assoc := x.Variant.Value == "nameref", false, false
	var caseAttr byte // declare -l, declare -u: the last one given wins
	readonly := x.Variant.Value == "readonly"
	for _, as := range x.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			fs, _ := w.fields(as.Value, nil)
			for _, f := range fs {
				// declare 'a[$(id)]=1' evaluates the subscript: code
				// hidden in a quoted word
				if !f.dyn && codeInSubscript(f.val) {
					w.hitDeny("hidden-exec", -1)
				}
				if !f.dyn && strings.HasPrefix(f.val, "-") && strings.Contains(f.val, "n") {
					nameref = true
				}
				if !f.dyn && strings.HasPrefix(f.val, "-") && strings.Contains(f.val, "i") {
					integer = true
				}
				if !f.dyn && strings.HasPrefix(f.val, "-") && strings.Contains(f.val, "A") {
					assoc = true
				}
				if !f.dyn && strings.HasPrefix(f.val, "-") {
					for _, c := range []byte{'l', 'u'} {
						if strings.IndexByte(f.val, c) > 0 {
							caseAttr |= c // -l with -u (bash leaves the case alone then): neither
						}
					}
				}
				if !f.dyn && strings.HasPrefix(f.val, "-") && strings.Contains(f.val, "r") {
					readonly = true
				}
				if !f.dyn && strings.Contains(f.val, "=") {
					w.assignValue(f.val)
				}
			}
			continue
		}
		if as.Name != nil && (!as.Naked || as.Value != nil || as.Array != nil) {
			w.stateAssign(as.Name.Value)
		}
		if as.Name != nil && as.Naked && as.Value == nil && as.Name.Value == "PATH" && (x.Variant.Value == "local" ||
			x.Variant.Value == "declare" || x.Variant.Value == "typeset") {
			w.hitAsk("shell-state", -1) // local PATH starts empty: ls then runs ./ls
		}
		if as.Name != nil && as.Value != nil {
			if fs, _ := w.fields(as.Value, nil); len(fs) == 1 && !fs[0].dyn {
				// declare -n ref='a[$(id)]': the name is evaluated at each use
				if nameref && codeInSubscript(fs[0].val) {
					w.hitDeny("hidden-exec", -1)
				}
				// declare -n r=GUARD_POLICY; r=x sets guard's own variable
				if nameref && strings.HasPrefix(fs[0].val, "GUARD_") {
					w.hitDeny("guard-self", -1)
				}
				w.assignValue(as.Name.Value + "=" + fs[0].val)
				if nameref && isIdent(fs[0].val) && w.cond == 0 {
					// declare -n r=x: $r reads x, r=/ sets x
					if w.vars == nil {
						w.vars = map[string]varState{}
					}
					w.vars[as.Name.Value] = varState{ref: fs[0].val}
					continue
				}
			}
			if nameref {
				// declare -n r='a[0]' or a name guard cannot read: $r is
				// whatever that names, not the text
				w.setVar(as.Name.Value, varState{dyn: true})
				continue
			}
		}
		if readonly && as.Name != nil {
			if w.readonly == nil {
				w.readonly = map[string]bool{}
			}
			w.readonly[w.refTarget(as.Name.Value)] = true // unset cannot clear it
		}
		if integer && as.Name != nil {
			// declare -i n=1+1: every value assigned is evaluated
			if w.vars == nil {
				w.vars = map[string]varState{}
			}
			cur, ok := w.vars[w.refTarget(as.Name.Value)]
			if !ok {
				cur = varState{dyn: true} // declare -i X keeps what X had, from the environment too
			}
			cur.integer = true
			w.vars[w.refTarget(as.Name.Value)] = cur
		}
		if caseAttr != 0 && as.Name != nil {
			// declare -l x=/ETC: the value assigned, and every later one,
			// is lowered (what x held before is left as it was)
			if w.vars == nil {
				w.vars = map[string]varState{}
			}
			cur, ok := w.vars[w.refTarget(as.Name.Value)]
			if !ok {
				cur = varState{dyn: true}
			}
			cur.caseAttr = caseAttr
			w.vars[w.refTarget(as.Name.Value)] = cur
		}
		if assoc && as.Name != nil {
			w.declareAssoc(as.Name.Value)
		}
		w.assign(as, -1)
	}
}

// declQuery reports declare -p NAME… (or typeset -p) of names that hold
// no secret: it only prints those variables. declare -p alone prints
// them all.
func (w *walker) declQuery(x *syntax.DeclClause) bool {
	if x.Variant == nil || x.Variant.Value != "declare" && x.Variant.Value != "typeset" || len(x.Args) < 2 {
		return false
	}
	for k, as := range x.Args {
		if !as.Naked || as.Index != nil {
			return false
		}
		v := ""
		switch {
		case as.Name != nil && as.Value == nil:
			v = as.Name.Value // declare -p NAME: a name, never expanded
		case as.Name == nil && as.Value != nil:
			fs, _ := w.fields(as.Value, nil)
			if len(fs) != 1 || fs[0].dyn {
				return false
			}
			v = fs[0].val
		default:
			return false
		}
		if k == 0 {
			if v != "-p" {
				return false
			}
			continue
		}
		if !syntax.ValidName(v) || MaySecretName(v) {
			return false
		}
	}
	return true
}

// secretWords are the parts of a variable's name that say it may hold a
// secret, or a URL or connection string that embeds one (DATABASE_URL).
var secretWords = []string{"KEY", "TOKEN", "SECRET", "PASS", "PWD", "CRED", "AUTH", "PRIVATE", "SESSION", "COOKIE", "SIG", "CERT",
	"URL", "URI", "DSN", "CONN", "SALT", "OTP", "API", "LOGIN", "ACCOUNT", "NPMRC", "NETRC", "HEADER", "PROXY"}

// MaySecretName reports a variable name that may hold a secret, read
// broadly (printenv NAME and declare -p NAME print it, and only a name
// that is not one is read-only): PWD and OLDPWD, the directories, aside.
// SecretName (secrets.go) is the narrow reading: a name whose value is a
// secret, whose printing is denied.
func MaySecretName(n string) bool {
	u := strings.ToUpper(n)
	if u == "PWD" || u == "OLDPWD" {
		return false
	}
	for _, w := range secretWords {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

// assignValue judges NAME=VALUE set outside any command (export, declare,
// a bare assignment) when a program runs VALUE as a command line
// (GIT_SSH_COMMAND, PAGER): a denylisted payload is denied where it is set.
func (w *walker) assignValue(as string) {
	name, v, ok := strings.Cut(as, "=")
	if !ok || v == "" || !envCommand(name) || w.depth >= MaxDepth-1 {
		return
	}
	for _, cmd := range envCommandLines(name, v) {
		sub := analyze(cmd, w.opt, nil)
		for _, h := range sub.Deny {
			w.hitDeny(h.ID, -1)
		}
		for _, h := range sub.Ask {
			w.hitAsk(h.ID, -1)
		}
	}
}

// aliasValue judges an alias's text as the command line it becomes: an
// alias whose text is denied (alias ls='rm -rf /') is denied where it is
// defined, since the session that expands it may be a later one. Asks
// wait for the use, which is judged expanded.
func (w *walker) aliasValue(v string) {
	if v == "" || w.depth >= MaxDepth-1 {
		return
	}
	for _, h := range analyze(v, w.opt, nil).Deny {
		w.hitDeny(h.ID, -1)
	}
}

// testCode finds code hidden in a [[ ]] test: an arithmetic comparison
// (-eq, -lt, …) or -v evaluates a subscript in its operand, even one
// written inside quotes: [[ 'a[$(id)]' -eq 0 ]] runs id.
func (w *walker) testCode(x syntax.TestExpr) {
	switch t := x.(type) {
	case *syntax.BinaryTest:
		switch t.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			for _, side := range []syntax.TestExpr{t.X, t.Y} {
				if wd, ok := side.(*syntax.Word); ok {
					w.wordCode(wd)
				}
			}
		default:
			w.testCode(t.X)
			w.testCode(t.Y)
		}
	case *syntax.UnaryTest:
		if t.Op == syntax.TsVarSet || t.Op == syntax.TsRefVar {
			if wd, ok := t.X.(*syntax.Word); ok {
				w.wordCode(wd)
			}
			return
		}
		w.testCode(t.X)
	case *syntax.ParenTest:
		w.testCode(t.X)
	}
}

// wordCode hits hidden-exec for a word whose value holds a subscript with code.
func (w *walker) wordCode(wd *syntax.Word) {
	fs, _ := w.fields(wd, nil)
	for _, f := range fs {
		if !f.dyn && codeInSubscript(f.val) {
			w.hitDeny("hidden-exec", -1)
		}
	}
}

// call handles one simple command: expand its words, record it, unwrap it.
func (w *walker) call(x *syntax.CallExpr, where string) {
	if len(x.Args) == 0 {
		w.addComp(CompAssign)
		for _, as := range x.Assigns {
			if as.Name != nil {
				w.stateAssign(as.Name.Value)
				w.noteAssigned(as.Name.Value)
			}
			if as.Name != nil && as.Value != nil && envCommand(as.Name.Value) {
				if fs, _ := w.fields(as.Value, nil); len(fs) == 1 && !fs[0].dyn {
					w.assignValue(as.Name.Value + "=" + fs[0].val)
				}
			}
			w.assign(as, -1)
		}
		return
	}
	pos := x.Pos() // before brace expansion rewrites the words
	idx := len(w.a.Commands)
	w.a.Commands = append(w.a.Commands, Command{Parent: w.parent})
	w.info = append(w.info, cmdInfo{})
	var subs []int
	prevSubs := w.argSubs
	w.argSubs = &subs
	var assigns []string
	if len(x.Assigns) > 0 {
		w.addComp(CompAssign)
		for _, as := range x.Assigns {
			if as.Name != nil && strings.HasPrefix(as.Name.Value, "GUARD_") {
				w.hitDeny("guard-self", idx)
			}
			val := ""
			if as.Value != nil {
				fs, _ := w.fields(as.Value, nil)
				for _, f := range fs {
					val += f.val
				}
			}
			if as.Name != nil {
				assigns = append(assigns, as.Name.Value+"="+val)
			}
		}
	}
	var fs []field
	for _, word := range x.Args {
		var err error
		fs, err = w.fields(word, fs)
		if err != nil {
			w.failWith(FailTooLong, err.Error())
			break
		}
	}
	w.argSubs = prevSubs
	if prevSubs != nil {
		*prevSubs = append(*prevSubs, subs...)
	}
	if w.fail != "" {
		return
	}
	if len(fs) == 0 {
		fs = []field{{val: "", dyn: true, pat: "*"}}
	}
	if al, ok := w.aliases[fs[0].val]; ok && !fs[0].dyn && w.aliasDepth < 8 {
		// An alias defined earlier in the text: judge what it expands to.
		text := al
		for _, f := range fs[1:] {
			text += " " + QuoteWord(f.val)
		}
		w.fill(idx, fs, where, pos)
		w.aliasDepth++
		w.nestedScript(idx, text, "alias "+fs[0].val)
		w.aliasDepth--
		w.info[idx].substCmds = subs
		return
	}
	if p, ok := w.opt.Shadow[fs[0].val]; ok && !fs[0].dyn && w.aliasDepth < 8 && w.funcBodies[fs[0].val] == "" {
		// an earlier line of the session made this name run another
		// program (PATH, the command hash): judge that program, and ask
		text := QuoteWord(p)
		for _, f := range fs[1:] {
			text += " " + QuoteWord(f.val)
		}
		w.fill(idx, fs, where, pos)
		w.info[idx].state = true
		w.aliasDepth++
		w.nestedScript(idx, text, "the program "+fs[0].val+" now names")
		w.aliasDepth--
		w.info[idx].substCmds = subs
		return
	}
	w.info[idx].substCmds = subs // before fill: unwrapping reads them
	w.fill(idx, fs, where, pos)
	if body, ok := w.funcBodies[fs[0].val]; ok && !fs[0].dyn && !w.expanding[fs[0].val] {
		// a call of a function defined earlier: its body with these
		// arguments as $1 …
		callPos := make([]string, 0, len(fs))
		for _, f := range fs {
			if f.dyn {
				callPos = nil
				break
			}
			callPos = append(callPos, f.val)
		}
		if w.expanding == nil {
			w.expanding = map[string]bool{}
		}
		w.expanding[fs[0].val] = true
		w.nextPos = &callPos
		w.nested(idx, body, "function "+fs[0].val, false)
		w.nextPos = nil
		delete(w.expanding, fs[0].val)
		w.a.Commands[idx].Func = true
		w.funcCalls = append(w.funcCalls, idx)
	}
	w.a.Commands[idx].Assigns = assigns
	for _, as := range assigns {
		// PROMPT_COMMAND=… bash -i, GIT_SSH_COMMAND=… git fetch: the
		// program runs the value as a command line
		w.envAssign(idx, as)
	}
	w.afterCall(idx)
}

// fill sets up command idx from its fields and unwraps it.
func (w *walker) fill(idx int, fs []field, where string, pos syntax.Pos) {
	c := &w.a.Commands[idx]
	c.Args = make([]string, len(fs))
	c.Dynamic = make([]bool, len(fs))
	for i, f := range fs {
		c.Args[i] = f.val
		c.Dynamic[i] = f.dyn
		c.Tainted = c.Tainted || f.tainted
	}
	if fs[0].glob {
		c.Dynamic[0] = true
	}
	if !c.Dynamic[0] {
		c.Name = ProgramName(path.Base(c.Args[0]))
		if c.Args[0] == "" {
			c.Name = ""
		}
	}
	if c.Dynamic[0] {
		// "$(which sudo)" -n true runs sudo: a lookup's answer is the name
		c.Name = ProgramName(w.lookedUp(idx, fs[0]))
	}
	c.Pos = strconv.Itoa(int(pos.Line())) + ":" + strconv.Itoa(int(pos.Col()))
	c.Where = where
	c.Depth = w.depth
	c.Parent = w.parent
	c.Subst = w.subst
	if len(w.dirs) > 0 {
		c.Dir = w.dirs[0]
	}
	c.DirUnknown = w.dirs == nil && w.opt.Cwd != ""
	w.info[idx].fields = fs
	w.info[idx].dirs = w.dirs
	w.info[idx].downloads = downloaders(c.Name)
	if w.fn != "" && c.Name != "" {
		w.funcs[w.fn] = append(w.funcs[w.fn], funcCall{name: c.Args[0], concurrent: w.conc > 0})
	}
	if w.fn == "" && c.Name != "" && w.conc > 0 {
		// A function called concurrently at top level (:|: &) counts too.
		if w.funcs == nil {
			w.funcs = map[string][]funcCall{}
		}
		w.funcs[""] = append(w.funcs[""], funcCall{name: c.Args[0], concurrent: true})
	}
	w.unwrap(idx)
}

// lookedUp returns NAME when the command word is wholly a substitution
// that looks a command up ($(which NAME), `command -v NAME`, $(type -P
// NAME)), "" otherwise.
func (w *walker) lookedUp(idx int, f field) string {
	src := strings.Trim(f.val, `"`)
	if !(strings.HasPrefix(src, "$(") && strings.HasSuffix(src, ")") || strings.HasPrefix(src, "`") && strings.HasSuffix(src, "`")) {
		return ""
	}
	subs := w.info[idx].substCmds
	if len(subs) != 1 {
		return ""
	}
	sc := &w.a.Commands[subs[0]]
	if len(sc.Args) < 2 || sc.Dynamic[len(sc.Args)-1] {
		return ""
	}
	switch sc.Name {
	case "which", "command", "type", "whereis", "hash":
		return path.Base(sc.Args[len(sc.Args)-1])
	}
	return ""
}

// cdPath adds the directories a relative cd reaches through CDPATH
// (CDPATH=/ cd etc is cd /etc); a CDPATH guard cannot know makes the
// directory unknown.
func (w *walker) cdPath(idx int, fs []field) {
	args := fs[1:]
	for len(args) > 0 && strings.HasPrefix(args[0].val, "-") && !args[0].dyn {
		args = args[1:]
	}
	if len(args) == 0 || args[0].dyn || strings.HasPrefix(args[0].val, "/") || strings.HasPrefix(args[0].val, ".") {
		return
	}
	val, set, dyn := "", false, false
	for _, as := range w.a.Commands[idx].Assigns {
		if v, ok := strings.CutPrefix(as, "CDPATH="); ok {
			val, set = v, true
		}
	}
	if !set {
		if v, ok := w.vars["CDPATH"]; ok {
			val, set, dyn = v.val, true, v.dyn
		}
	}
	if !set || val == "" {
		return
	}
	if dyn {
		w.dirs = nil
		return
	}
	for _, e := range strings.Split(val, ":") {
		if strings.HasPrefix(e, "/") {
			w.dirs = append(w.dirs, path.Join(e, args[0].val))
		}
	}
}

// afterCall tracks the state a command changes for the rest of the text:
// the directory, aliases, variables it reads into.
func (w *walker) afterCall(idx int) {
	c := &w.a.Commands[idx]
	if c.Dynamic[0] {
		return
	}
	fs := w.info[idx].fields
	w.noteState(idx)
	if e := w.effective(idx); e != idx && !w.a.Commands[e].Dynamic[0] {
		w.noteState(e) // command enable -f, builtin set -k
	}
	switch c.Name {
	case "ln":
		w.noteLink(fs)
	case "cd":
		prev := w.dirs
		if len(fs) > 1 && fs[1].val == "-" && !fs[1].dyn {
			w.dirs = w.oldDirs // cd - goes back
		} else {
			w.changeDir(fs[1:])
			w.cdPath(idx, fs)
		}
		w.oldDirs = prev
	case "pushd":
		prev := w.dirs
		switch {
		case len(fs) == 1:
			// pushd alone swaps the top two
			if n := len(w.dirStack); n > 0 {
				w.dirs, w.dirStack[n-1] = w.dirStack[n-1], w.dirs
			} else {
				w.dirs = nil
			}
		case strings.HasPrefix(fs[1].val, "+") || strings.HasPrefix(fs[1].val, "-") && fs[1].val != "-":
			w.dirs = nil // rotations: not followed
		default:
			w.changeDir(fs[1:])
			w.dirStack = append(w.dirStack, prev)
		}
		w.oldDirs = prev
	case "popd":
		prev := w.dirs
		if n := len(w.dirStack); n > 0 && len(fs) == 1 {
			w.dirs, w.dirStack = w.dirStack[n-1], w.dirStack[:n-1]
		} else {
			w.dirs = nil
		}
		w.oldDirs = prev
	case "set", "shift":
		w.setPositional(idx) // set -- / ; rm -rf "$1"
	case "hash":
		// hash -p PATH NAME: NAME runs PATH from now on, like an alias
		for i := 1; i+2 < len(fs); i++ {
			if fs[i].val == "-p" && !fs[i+1].dyn {
				if w.aliases == nil {
					w.aliases = map[string]string{}
				}
				for _, f := range fs[i+2:] {
					if !f.dyn {
						w.aliases[f.val] = fs[i+1].val
					}
				}
				break
			}
		}
	case "alias":
		for _, f := range fs[1:] {
			if k := strings.IndexByte(f.val, '='); k > 0 && !f.dyn {
				if w.aliases == nil {
					w.aliases = map[string]string{}
				}
				w.aliases[f.val[:k]] = f.val[k+1:]
				w.aliasValue(f.val[k+1:])
			}
		}
	case "read", "mapfile", "readarray", "getopts", "printf", "unset", "export", "declare", "typeset", "local", "readonly":
		for _, f := range fs[1:] {
			name := f.val
			if k := strings.IndexByte(name, '='); k > 0 {
				name = name[:k]
			}
			if strings.HasPrefix(name, "GUARD_") {
				w.hitDeny("guard-self", idx)
			}
			if !strings.HasPrefix(name, "-") && name != "" {
				if c.Name == "unset" {
					if hasShort(fs, 'f') || hasShort(fs, 'n') {
						delete(w.vars, name) // unset -f: a function, the variable may stay
					} else if w.readonly[w.refTarget(name)] {
						// unset of a readonly variable fails: it keeps its value
					} else if name == "HOME" || name == "PWD" || name == "OLDPWD" || name == "IFS" {
						delete(w.vars, name) // ~ falls back to the passwd entry; IFS to its default
					} else {
						w.setVar(name, varState{val: "", unset: true}) // unset X; rm -rf "$X"/ is rm -rf /
					}
				} else if c.Name != "printf" {
					w.setVar(name, varState{dyn: true})
				}
			}
		}
		if c.Name == "printf" {
			for i := 1; i < len(fs); i++ {
				name, rest := "", i+1
				switch {
				case fs[i].val == "-v" && i+1 < len(fs):
					name, rest = fs[i+1].val, i+2
				case strings.HasPrefix(fs[i].val, "-v") && len(fs[i].val) > 2:
					name = fs[i].val[2:] // printf -vNAME
				default:
					continue
				}
				if strings.HasPrefix(name, "GUARD_") {
					w.hitDeny("guard-self", idx)
				}
				// printf -v d %s ~/.ssh: the value is known when the format
				// and its arguments are
				v := varState{dyn: true}
				if rest < len(fs) {
					lit := true
					args := make([]string, 0, len(fs)-rest)
					for _, f := range fs[rest:] {
						lit = lit && !f.dyn
						args = append(args, f.val)
					}
					if s, ok := printfValue(args[0], args[1:]); lit && ok {
						v = varState{val: s}
					}
				}
				if base, key, ok := strings.Cut(name, "["); ok && (base == "BASH_CMDS" || base == "BASH_ALIASES") {
					// printf -v 'BASH_CMDS[ls]' %s /bin/sh: ls runs /bin/sh
					if key, ok := strings.CutSuffix(key, "]"); ok && !v.dyn {
						w.shadowName(key, base, v.val)
					}
					break
				}
				w.setVar(name, v)
				break
			}
		}
	}
}

func (w *walker) changeDir(args []field) {
	for len(args) > 0 && (args[0].val == "-P" || args[0].val == "-L" || args[0].val == "-e" || args[0].val == "-@" || args[0].val == "--") {
		args = args[1:]
	}
	if len(args) == 0 {
		if w.opt.Home != "" {
			w.dirs = []string{w.opt.Home}
		} else {
			w.dirs = nil
		}
		return
	}
	f := args[0]
	if f.dyn || f.glob || f.val == "-" || strings.HasPrefix(f.val, "~") {
		w.dirs = nil
		return
	}
	if path.IsAbs(f.val) {
		w.dirs = []string{path.Clean(f.val)}
		return
	}
	if w.dirs == nil {
		return
	}
	next := make([]string, len(w.dirs))
	for i, d := range w.dirs {
		next[i] = path.Join(d, f.val)
	}
	w.dirs = w.throughLinks(next) // ln -s ~ h; cd h/.config: in both, for the rules
}

// nestedScript parses text as a script that command c runs (bash -c, eval,
// text piped into a shell) and walks it as c's inner commands.
func (w *walker) nestedScript(c int, text, where string) {
	w.nested(c, text, where, true)
}

// nested walks a nested script. strict: the text is exactly what the shell
// will run, so text that does not parse fails the analysis; otherwise it is
// an approximation (a script built at run time) and only marks c opaque.
func (w *walker) nested(c int, text, where string, strict bool) {
	if w.fail != "" {
		return
	}
	w.nestedBytes += len(text)
	if len(text) > MaxTextBytes || w.nestedBytes > 4*MaxTextBytes {
		w.failWith(FailTooLong, fmt.Sprintf("%s: nested scripts exceed %d bytes", where, 4*MaxTextBytes))
		return
	}
	if !w.enter() {
		return
	}
	defer w.leave()
	f, err := w.parse(text)
	if err != nil {
		if strict {
			w.failWith(FailParse, fmt.Sprintf("%s: %v", where, err))
		}
		w.a.Commands[c].Opaque = true
		return
	}
	prevSrc, prevParent, prevComp, prevWhere, prevPos := w.src, w.parent, w.comp, w.where, w.pos
	if w.nextPos != nil {
		w.pos, w.nextPos = *w.nextPos, nil
	}
	defer func() { w.pos = prevPos }()
	var comp []string
	w.src, w.parent, w.comp = text, c, &comp
	first := len(w.a.Commands)
	w.stmts(f.Stmts, where)
	w.src, w.parent, w.comp, w.where = prevSrc, prevParent, prevComp, prevWhere
	cm := &w.a.Commands[c]
	cm.Wrap = WrapShell
	cm.InnerComposite = append(cm.InnerComposite, comp...)
	for i := first; i < len(w.a.Commands); i++ {
		if w.a.Commands[i].Parent == c {
			cm = &w.a.Commands[c]
			cm.Inner = append(cm.Inner, i)
		}
	}
}

// innerCommand records the command a wrapper runs, from its fields.
func (w *walker) innerCommand(c int, fs []field, where string) int {
	if w.fail != "" || len(fs) == 0 {
		return -1
	}
	if !w.enter() {
		return -1
	}
	defer w.leave()
	idx := len(w.a.Commands)
	w.a.Commands = append(w.a.Commands, Command{})
	w.info = append(w.info, cmdInfo{})
	prevParent := w.parent
	w.parent = c
	pos := syntax.Pos{}
	w.fill(idx, fs, where, pos)
	w.a.Commands[idx].Pos = w.a.Commands[c].Pos
	w.parent = prevParent
	cm := &w.a.Commands[c]
	cm.Inner = append(cm.Inner, idx)
	return idx
}

func (w *walker) redirect(r *syntax.Redirect, cmd int) {
	var subs []int
	prevSubs := w.argSubs
	w.argSubs = &subs
	defer func() {
		w.argSubs = prevSubs
		if prevSubs != nil {
			*prevSubs = append(*prevSubs, subs...)
		}
		if cmd >= 0 && w.info[cmd].readStdin {
			for _, s := range subs {
				if downloaders(w.a.Commands[w.effective(s)].Name) {
					w.hitDeny("download-exec", cmd)
				}
			}
		}
	}()
	if r.Hdoc != nil {
		w.addComp(CompHeredoc)
		w.a.Redirects = append(w.a.Redirects, Redirect{Cmd: cmd, Op: "<<", Top: w.comp == &w.a.Composite})
		// Unquoted heredocs expand substitutions in the outer shell.
		w.walkNested(r.Hdoc)
		if cmd >= 0 {
			text := w.source(r.Hdoc)
			w.info[cmd].stdinText, w.info[cmd].stdinLit = text, true
			if !strings.ContainsAny(text, "$`\\") {
				w.readInto(cmd, text) // read d <<EOF: / EOF, as from a here-string
			}
			w.feedXargs(cmd, text, "xargs, fed by a heredoc")
			if w.shellStdin(cmd) {
				w.nestedScript(cmd, text, "heredoc into "+w.a.Commands[cmd].Name)
			}
		}
		return
	}
	if r.Op == syntax.WordHdoc {
		w.addComp(CompHeredoc)
		w.a.Redirects = append(w.a.Redirects, Redirect{Cmd: cmd, Op: "<<<", Top: w.comp == &w.a.Composite})
		fs, _ := w.fields(r.Word, nil)
		if cmd >= 0 && len(fs) == 1 && fs[0].dyn && w.info[cmd].readStdin {
			w.a.Commands[cmd].Opaque = true
		}
		if cmd >= 0 && len(fs) == 1 && fs[0].dyn {
			w.feedXargsField(cmd, fs[0], "xargs, fed by a here-string") // xargs rm -rf <<< ${X:-/}
		}
		if cmd >= 0 && len(fs) == 1 && !fs[0].dyn {
			w.readInto(cmd, fs[0].val)
			w.info[cmd].stdinText, w.info[cmd].stdinLit = fs[0].val+"\n", true
			w.feedXargs(cmd, fs[0].val, "xargs, fed by a here-string")
			if w.shellStdin(cmd) {
				w.nestedScript(cmd, fs[0].val, "here-string into "+w.a.Commands[cmd].Name)
			}
		}
		return
	}
	first := len(w.a.Commands)
	fs, err := w.fields(r.Word, nil)
	if err != nil || len(fs) != 1 {
		w.addComp(CompRedirect)
		w.a.Redirects = append(w.a.Redirects, Redirect{Cmd: cmd, Op: r.Op.String(), Dynamic: true, Rel: true, Top: w.comp == &w.a.Composite})
		return
	}
	f := fs[0]
	if r.Op == syntax.RdrIn && cmd >= 0 && w.shellStdin(cmd) && len(w.a.Commands) > first {
		// bash < <(echo 'cmd'): the substitution's output is the script.
		if text, ok := w.literalOutput(w.effective(first)); ok {
			w.nestedScript(cmd, text, "process substitution into "+w.a.Commands[cmd].Name)
		}
	}
	switch r.Op {
	case syntax.DplIn, syntax.DplOut:
		if !f.dyn && (f.val == "-" || isDigits(f.val)) {
			w.addComp(CompNullRedir)
			return
		}
	case syntax.RdrOut, syntax.AppOut, syntax.RdrIn, syntax.RdrAll, syntax.AppAll, syntax.ClbOut:
		if !f.dyn && (f.val == "/dev/null" || f.val == "/dev/stdout" || f.val == "/dev/stderr") {
			w.addComp(CompNullRedir)
			return
		}
	}
	w.addComp(CompRedirect)
	if (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut) && cmd >= 0 && (strings.HasPrefix(f.pat, "/dev/tcp/") || strings.HasPrefix(f.pat, "/dev/udp/")) {
		// reading from the network: a shell fed this way runs a download
		w.info[cmd].downloads = true
		if w.info[cmd].readStdin {
			w.hitDeny("download-exec", cmd)
		}
	}
	rt := redirTarget{op: r.Op, dyn: f.dyn, cmd: cmd}
	var rel bool
	rt.paths, rel = w.resolve(f, w.dirs)
	w.redirs = append(w.redirs, rt)
	w.a.Redirects = append(w.a.Redirects, Redirect{Cmd: cmd, Op: r.Op.String(), Paths: rt.paths, Dynamic: f.dyn, Rel: rel || len(rt.paths) == 0,
		Top: w.comp == &w.a.Composite})
	if (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut) && cmd >= 0 && w.info[cmd].readStdin {
		// A shell reading a file: opaque, like bash script.sh.
		w.a.Commands[cmd].Opaque = true
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// resolve turns a field into the absolute paths it may name, given the
// directories the shell may be in. rel reports a relative path whose
// directory is unknown (paths then holds the path as written).
func (w *walker) resolve(f field, dirs []string) (paths []string, rel bool) {
	p := f.pat
	if p == "" {
		return nil, false
	}
	if strings.HasPrefix(p, "~root/") || p == "~root" {
		p = "/root" + p[len("~root"):]
	}
	if strings.HasPrefix(p, "/") {
		return w.throughLinks([]string{procRoot(path.Clean(p))}), false
	}
	if strings.HasPrefix(p, "~") {
		return []string{p}, true
	}
	if dirs == nil {
		return []string{p}, true
	}
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = procRoot(path.Join(d, p))
	}
	return w.throughLinks(out), false
}

// procRoot sees through /proc/PID/root, a link to the root directory:
// /proc/self/root/etc/shadow is /etc/shadow.
func procRoot(p string) string {
	if !strings.HasPrefix(p, "/proc/") {
		return p
	}
	rest := p[len("/proc/"):]
	k := strings.IndexByte(rest, '/')
	if k < 0 {
		return p
	}
	if after, ok := strings.CutPrefix(rest[k:], "/root"); ok && (after == "" || after[0] == '/') {
		if after == "" {
			return "/"
		}
		return after
	}
	return p
}

// oneDir returns the directory the shell is in, when it is known for sure.
func (w *walker) oneDir() (string, bool) {
	if len(w.dirs) == 1 {
		return w.dirs[0], true
	}
	return "", false
}

// runsStdin reports whether command c, or anything it runs or substitutes
// (sh -c 'cat | sh', tee >(sh)), is a shell or interpreter that runs what
// arrives on its standard input.
func (w *walker) runsStdin(c, depth int) bool {
	if depth > MaxDepth {
		return true
	}
	if w.info[c].readStdin {
		return true
	}
	for _, i := range w.a.Commands[c].Inner {
		if w.runsStdin(i, depth+1) {
			return true
		}
	}
	for _, i := range w.info[c].substCmds {
		if w.runsStdin(i, depth+1) {
			return true
		}
	}
	return false
}

// downloadsAny reports whether command c, or anything it runs (watch curl …,
// bash -c 'curl …'), downloads from the network.
func (w *walker) downloadsAny(c, depth int) bool {
	if w.info[c].downloads {
		return true
	}
	if depth > MaxDepth {
		return true
	}
	for _, i := range w.a.Commands[c].Inner {
		if w.downloadsAny(i, depth+1) {
			return true
		}
	}
	return false
}

// shellStdin reports a command that runs its standard input as shell
// script (sh, bash -s, source /dev/stdin, at, parallel): literal text fed
// to it is parsed as such. python3 - or node read other languages: their
// input stays opaque.
func (w *walker) shellStdin(c int) bool {
	if !w.info[c].readStdin {
		return false
	}
	_, interp := interpreterName(w.a.Commands[c].Name)
	return !interp && w.a.Commands[c].Name != "sed" && w.a.Commands[c].Name != "awk" && w.a.Commands[c].Name != "gawk"
}

// funcDef is one definition of a function met in the text: at is the
// number of commands recorded before it (the walk's order), cond that it
// sits in a branch, loop, function or background, so may not run.
type funcDef struct {
	at   int
	cond bool
}

// uncertainCalls makes opaque each call judged by a function's body when
// the text leaves which body runs uncertain: the name is defined more than
// once, or after the call (a loop may run the call again after it), or
// where it may not run; or the text unsets something (unset -f drops the
// function: a program of that name runs instead), or runs a script guard
// cannot read (source, eval of a computed text), which may define it.
func (w *walker) uncertainCalls() {
	if len(w.funcCalls) == 0 {
		return
	}
	all := false
	for i := range w.a.Commands {
		c := &w.a.Commands[i]
		if (c.Opaque && !c.Func) || c.Name == "unset" || c.Name == "source" || c.Name == "." {
			all = true
			break
		}
	}
	for _, idx := range w.funcCalls {
		c := &w.a.Commands[idx]
		defs := w.funcDefs[c.Args[0]]
		if all || len(defs) > 1 || len(defs) == 1 && (defs[0].at > idx || defs[0].cond) {
			c.Opaque = true
		}
	}
}

// noteAssigned records a variable the text sets (Analysis.Assigned).
func (w *walker) noteAssigned(name string) {
	if !slices.Contains(w.a.Assigned, name) {
		w.a.Assigned = append(w.a.Assigned, name)
	}
}
