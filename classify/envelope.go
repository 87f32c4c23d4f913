package classify

// Agent envelopes: the plumbing an agent wraps around every command it runs.
//
// Claude Code runs each command as one bash -c string, roughly
//
//	source SNAPSHOT 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'CMD' < /dev/null && pwd -P >| /tmp/claude-XXXX-cwd
//
// Judged whole, that is a composite and every command would be asked. The
// envelope is recognised here by its syntax tree, against a table of the
// shapes each agent version produces: every part but the eval must be the
// known plumbing, byte for byte, and the parts that vary (the snapshot path,
// the cwd file, the eval argument) must be what the agent puts there. The
// caller judges only the payload and runs the whole string, unchanged but
// for the two files, which it handles itself (Envelope.Rewrite). Text
// that is not exactly a known shape is not an envelope: it is judged as the
// composite it is.

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Envelope is an agent's command envelope, recognised.
type Envelope struct {
	Agent   string // the agent whose plumbing it is ("claude")
	Shape   string // the table entry that matched
	Payload string // the command the agent was asked to run: the only part to judge
	// Snapshot is the file a snapshot-creation script writes
	// (RecognizeSnapshotScript); "" for an envelope.
	Snapshot string
	// Sourced is the shell snapshot a Claude envelope sources, and CwdFile
	// the file its last link writes the working directory to ("" when
	// the shape has none). See Rewrite.
	Sourced, CwdFile string

	text                     string
	srcWord, evalEnd, cwdAll span // where Rewrite cuts text (zero: absent)
}

// span is a byte range of an envelope's text.
type span struct{ start, end int }

// Rewrite returns a Claude envelope's text with the agent's file
// plumbing handed to the caller: the snapshot is sourced from the
// descriptor snapFD (/dev/fd/N; from /dev/null when snapFD < 0) and
// "pwd -P" writes to descriptor cwdFD instead of the cwd file, both closed
// for the payload's eval. Everything else is the text as it came, byte for
// byte. ok is false for an envelope without a cwd file (Gemini's).
//
// The caller then reads the snapshot itself (checked, and copied where it
// cannot change) and writes the cwd file itself (no-follow, the user's
// own regular file): bash, redirecting with >| and sourcing by path, would
// follow a link an agent planted at either.
func (e Envelope) Rewrite(snapFD, cwdFD int) (text string, ok bool) {
	if e.cwdAll.end == 0 || e.evalEnd.end == 0 || cwdFD < 0 {
		return "", false
	}
	if e.srcWord.end == 0 {
		snapFD = -1 // nothing sourced: nothing to close
	}
	var b strings.Builder
	at := 0
	if e.srcWord.end != 0 {
		b.WriteString(e.text[:e.srcWord.start])
		if snapFD >= 0 {
			b.WriteString("/dev/fd/" + itoa(snapFD))
		} else {
			b.WriteString("/dev/null")
		}
		at = e.srcWord.end
	}
	b.WriteString(e.text[at:e.evalEnd.end])
	b.WriteString(" " + itoa(cwdFD) + ">&-")
	if snapFD >= 0 {
		b.WriteString(" " + itoa(snapFD) + "<&-")
	}
	b.WriteString(e.text[e.evalEnd.end:e.cwdAll.start])
	b.WriteString("pwd -P >&" + itoa(cwdFD))
	b.WriteString(e.text[e.cwdAll.end:])
	return b.String(), true
}

// itoa is strconv.Itoa for the small numbers of descriptors.
func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// EnvelopeContext is where an agent's plumbing may point. The caller fills
// it from the environment; classify never reads it itself.
type EnvelopeContext struct {
	// SnapshotDirs are the directories a sourced shell snapshot may be in
	// (Claude: $CLAUDE_CONFIG_DIR/shell-snapshots, ~/.claude/shell-snapshots).
	SnapshotDirs []string
	// TempDirs are the directories the cwd file may be in ($TMPDIR, /tmp).
	TempDirs []string
}

// envPartKind is what one link of an envelope's && / || chain must be.
type envPartKind int

const (
	partExact  envPartKind = iota // the statement's text, byte for byte
	partSource                    // source SNAPSHOT 2>/dev/null
	partEval                      // eval PAYLOAD [< /dev/null]
	partCwd                       // pwd -P >| CWDFILE
)

// envPart is one link: the operator before it (none for the first) and what
// the statement must be.
type envPart struct {
	op   syntax.BinCmdOperator // 0 for the first link
	kind envPartKind
	text string // partExact: the statement's exact text
}

// envelopeShape is one agent version's envelope, as the chain of its links.
type envelopeShape struct {
	id, agent string
	parts     []envPart
}

// Claude Code's links (cli buildExecCommand, 2.x). Each is joined to the
// next with " && "; the advisory ones carry their own "|| true".
var (
	claudeSource  = []envPart{{op: syntax.AndStmt, kind: partSource}, {op: syntax.OrStmt, text: "true"}}
	claudeBun     = []envPart{{op: syntax.AndStmt, text: `export BUN_OPTIONS="--smol${BUN_OPTIONS:+ $BUN_OPTIONS}"`}}
	claudeExtglob = []envPart{{op: syntax.AndStmt, text: "shopt -u extglob 2>/dev/null"}, {op: syntax.OrStmt, text: "true"}}
	claudeUnalias = []envPart{
		{op: syntax.AndStmt, text: `{ \builtin unalias -- 'unsetenv'; \builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1`},
		{op: syntax.OrStmt, text: "true"},
	}
	claudeTail = []envPart{{op: syntax.AndStmt, kind: partEval}, {op: syntax.AndStmt, kind: partCwd}}
)

// chain joins link groups into one shape; the first link has no operator.
func chain(groups ...[]envPart) []envPart {
	var out []envPart
	for _, g := range groups {
		out = append(out, g...)
	}
	out[0].op = 0
	return out
}

// envelopeShapes is the table: one entry per agent and version shape, each
// tested with strings captured from real runs (envelope_test.go).
var envelopeShapes = []envelopeShape{
	// 2.0–2.1.1xx: snapshot, extglob off, eval, cwd.
	{"claude-bash", "claude", chain(claudeSource, claudeExtglob, claudeTail)},
	// 2.1.1xx and later: also drops an unsetenv alias or function the snapshot may define.
	{"claude-bash-unalias", "claude", chain(claudeSource, claudeExtglob, claudeUnalias, claudeTail)},
	// CLAUDE_CODE_REMOTE: BUN_OPTIONS exported after the snapshot.
	{"claude-bash-remote", "claude", chain(claudeSource, claudeBun, claudeExtglob, claudeTail)},
	{"claude-bash-remote-unalias", "claude", chain(claudeSource, claudeBun, claudeExtglob, claudeUnalias, claudeTail)},
	// No snapshot (it failed or vanished: Claude runs a login shell instead).
	{"claude-bash-nosnapshot", "claude", chain(claudeExtglob, claudeTail)},
	{"claude-bash-nosnapshot-unalias", "claude", chain(claudeExtglob, claudeUnalias, claudeTail)},
}

// What the varying parts may be. Hand-written, not regular expressions:
// a package-level regexp is compiled at every guard start.

// claudeSnapshotName: snapshot-(bash|zsh|sh)-DIGITS-[a-z0-9]+.sh
func claudeSnapshotName(name string) bool {
	rest, ok := strings.CutPrefix(name, "snapshot-")
	if !ok {
		return false
	}
	shell, rest, ok := strings.Cut(rest, "-")
	if !ok || (shell != "bash" && shell != "zsh" && shell != "sh") {
		return false
	}
	num, rest, ok := strings.Cut(rest, "-")
	if !ok || !allOf(num, 1, -1, isDigit) {
		return false
	}
	id, ok := strings.CutSuffix(rest, ".sh")
	return ok && allOf(id, 1, -1, func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' })
}

// claudeCwdName: claude-[0-9a-f]{1,16}-cwd
func claudeCwdName(name string) bool {
	mid, ok := strings.CutPrefix(name, "claude-")
	if !ok {
		return false
	}
	mid, ok = strings.CutSuffix(mid, "-cwd")
	return ok && allOf(mid, 1, 16, func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' })
}

// geminiDirName: gemini-shell-[A-Za-z0-9]{6}
func geminiDirName(name string) bool {
	id, ok := strings.CutPrefix(name, "gemini-shell-")
	return ok && allOf(id, 6, 6, func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' })
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// allOf reports whether s has between lo and hi bytes (hi < 0: no upper
// bound), each of which ok accepts.
func allOf(s string, lo, hi int, ok func(byte) bool) bool {
	if len(s) < lo || hi >= 0 && len(s) > hi {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// maxEnvelopeLinks bounds the chain walked: no shape has more.
const maxEnvelopeLinks = 16

// RecognizeEnvelope reports whether text is exactly one of the known agent
// envelopes (Claude Code's eval chains in envelopeShapes, Gemini CLI's
// jobs-recording subshell), and if so which, and its payload. Anything else, a look-alike
// with one link more, one redirect more or one path elsewhere, is not.
func RecognizeEnvelope(text string, ctx EnvelopeContext) (env Envelope, ok bool) {
	defer func() {
		// a bug here must not recognise anything
		if recover() != nil {
			env, ok = Envelope{}, false
		}
	}()
	if len(text) > MaxTextBytes || strings.IndexByte(text, 0) >= 0 {
		// A NUL is no part of any agent's plumbing, and the parser reads
		// a word's value without it: the checked path would not be the
		// text's (an argv or a C string ends there anyway).
		return Envelope{}, false
	}
	if strings.HasPrefix(text, geminiPrefix) {
		return recognizeGemini(text, ctx)
	}
	if !strings.Contains(text, "eval ") {
		return Envelope{}, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) != 1 || len(f.Last) != 0 {
		return Envelope{}, false
	}
	links, ok := flattenChain(f.Stmts[0], nil)
	if !ok {
		return Envelope{}, false
	}
	for _, sh := range envelopeShapes {
		if e, ok := matchShape(text, sh, links, ctx); ok {
			e.Agent, e.Shape, e.text = sh.agent, sh.id, text
			return e, true
		}
	}
	return Envelope{}, false
}

// link is one statement of a flat && / || chain and the operator before it.
type link struct {
	op syntax.BinCmdOperator
	st *syntax.Stmt
}

// flattenChain turns a left-nested chain (a && b || c parses as (a && b) || c)
// into its links. A statement that carries anything of its own (negation,
// &, redirects or comments on the chain itself) is not a plain chain.
func flattenChain(st *syntax.Stmt, out []link) ([]link, bool) {
	if len(out) > maxEnvelopeLinks || !plainStmt(st) {
		return nil, false
	}
	b, isBin := st.Cmd.(*syntax.BinaryCmd)
	if !isBin {
		return append(out, link{st: st}), true
	}
	if len(st.Redirs) != 0 || (b.Op != syntax.AndStmt && b.Op != syntax.OrStmt) {
		return nil, false
	}
	out, ok := flattenChain(b.X, out)
	if !ok || !plainStmt(b.Y) {
		return nil, false
	}
	if _, nested := b.Y.Cmd.(*syntax.BinaryCmd); nested {
		return nil, false
	}
	return append(out, link{op: b.Op, st: b.Y}), true
}

func plainStmt(st *syntax.Stmt) bool {
	return st != nil && st.Cmd != nil && !st.Negated && !st.Background && !st.Coprocess && len(st.Comments) == 0
}

// matchShape matches the links against one shape and returns the
// envelope's payload, the files it names and where they are in text.
func matchShape(text string, sh envelopeShape, links []link, ctx EnvelopeContext) (Envelope, bool) {
	var e Envelope
	if len(links) != len(sh.parts) {
		return e, false
	}
	found := false
	for i, p := range sh.parts {
		l := links[i]
		if l.op != p.op {
			return e, false
		}
		src := stmtText(text, l.st)
		switch p.kind {
		case partExact:
			if src != p.text {
				return e, false
			}
		case partSource:
			if !matchSource(text, l.st, src, ctx) {
				return e, false
			}
			w := l.st.Cmd.(*syntax.CallExpr).Args[1]
			e.Sourced, _ = literalWord(w)
			e.srcWord = span{int(w.Pos().Offset()), int(w.End().Offset())}
		case partCwd:
			if !matchCwd(text, l.st, src, ctx) {
				return e, false
			}
			e.CwdFile, _ = literalWord(l.st.Redirs[0].Word)
			e.cwdAll = span{int(l.st.Pos().Offset()), int(l.st.End().Offset())}
		case partEval:
			s, ok := matchEval(text, l.st, src)
			if !ok {
				return e, false
			}
			e.Payload, found = s, true
			e.evalEnd = span{int(l.st.Pos().Offset()), int(l.st.End().Offset())}
		}
	}
	return e, found
}

func stmtText(text string, st *syntax.Stmt) string {
	start, end := st.Pos().Offset(), st.End().Offset()
	if start > end || int(end) > len(text) {
		return ""
	}
	return text[start:end]
}

func wordText(text string, w *syntax.Word) string {
	start, end := w.Pos().Offset(), w.End().Offset()
	if start > end || int(end) > len(text) {
		return ""
	}
	return text[start:end]
}

// call returns the statement's call when it has exactly n words and no
// assignments.
func call(st *syntax.Stmt, n int) (*syntax.CallExpr, bool) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) != 0 || len(c.Args) != n {
		return nil, false
	}
	return c, true
}

// matchSource: source SNAPSHOT 2>/dev/null, SNAPSHOT a literal path to a
// snapshot file in one of the snapshot directories.
func matchSource(text string, st *syntax.Stmt, src string, ctx EnvelopeContext) bool {
	c, ok := call(st, 2)
	if !ok || wordText(text, c.Args[0]) != "source" {
		return false
	}
	if src != "source "+wordText(text, c.Args[1])+" 2>/dev/null" {
		return false
	}
	p, ok := literalWord(c.Args[1])
	if !ok || !inDir(p, ctx.SnapshotDirs) {
		return false
	}
	return claudeSnapshotName(filepath.Base(p))
}

// matchCwd: pwd -P >| CWDFILE, CWDFILE a claude-ID-cwd file in a temp dir.
func matchCwd(text string, st *syntax.Stmt, src string, ctx EnvelopeContext) bool {
	c, ok := call(st, 2)
	if !ok || len(st.Redirs) != 1 {
		return false
	}
	r := st.Redirs[0]
	if r.Op != syntax.ClbOut || r.N != nil || r.Word == nil {
		return false
	}
	if src != "pwd -P >| "+wordText(text, r.Word) || wordText(text, c.Args[0]) != "pwd" || wordText(text, c.Args[1]) != "-P" {
		return false
	}
	p, ok := literalWord(r.Word)
	if !ok || !inDir(p, ctx.TempDirs) {
		return false
	}
	return claudeCwdName(filepath.Base(p))
}

// matchEval: eval PAYLOAD, with < /dev/null or without (a heredoc brings
// its own stdin). PAYLOAD is one literal word: quoted, never expanded.
func matchEval(text string, st *syntax.Stmt, src string) (string, bool) {
	c, ok := call(st, 2)
	if !ok || wordText(text, c.Args[0]) != "eval" {
		return "", false
	}
	w := "eval " + wordText(text, c.Args[1])
	if src != w && src != w+" < /dev/null" {
		return "", false
	}
	return literalWord(c.Args[1])
}

// literalWord returns a word's value when it has no expansion of any kind:
// single quotes, double quotes around plain text, and plain text without
// glob, brace or tilde characters.
func literalWord(w *syntax.Word) (string, bool) {
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return "", false
				}
			}
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[]{}") || (i == 0 && strings.HasPrefix(p.Value, "~")) {
				return "", false
			}
		default:
			return "", false
		}
	}
	return wordValue(w), true
}

// wordValue is the value of a word literalWord accepted, as bash removes
// its quotes: a backslash outside quotes keeps the next character (and
// drops a newline); inside double quotes it escapes only $ ` " \ and a
// newline; single quotes keep everything. (mvdan's expand would do the
// same, at the cost of its package init on every guard run: TestLean.)
func wordValue(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				unescape(&b, q.(*syntax.Lit).Value, "$`\"\\\n")
			}
		case *syntax.Lit:
			unescape(&b, p.Value, "")
		}
	}
	return b.String()
}

// unescape writes s with its backslash escapes resolved: only before a
// character in special (any character when special is "").
func unescape(b *strings.Builder, s, special string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++ // a line continuation: both go
		case special == "" || strings.IndexByte(special, next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
}

// inDir reports whether p is a clean absolute path directly inside one of
// dirs.
func inDir(p string, dirs []string) bool {
	if !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return false
	}
	d := filepath.Dir(p)
	for _, want := range dirs {
		if want != "" && filepath.Clean(want) == d {
			return true
		}
	}
	return false
}

// Snapshot-creation scripts: at the start of a session Claude Code runs its
// shell with -c -l and a script that writes the snapshot every later
// envelope sources (cli getSnapshotScript): SNAPSHOT_FILE=PATH, the user's
// rc file sourced, then echo, declare, alias, shopt … appended to
// "$SNAPSHOT_FILE". It is recognised by what it can do, not by its exact
// text (which holds the user's PATH, aliases and functions): every command
// is one of the plumbing commands below, with the arguments it may have;
// every write goes to "$SNAPSHOT_FILE" or /dev/null; the only file sourced
// is the user's own rc file; nothing is defined, backgrounded or
// substituted into a process. The caller adds what text cannot show: that
// no guarded command started it, and that the snapshot does not exist yet
// (a script that rewrote the live snapshot would run unjudged later).

// snapshotVar is the variable the script writes through.
const snapshotVar = "SNAPSHOT_FILE"

// snapshotCommand returns the check of a command a snapshot script runs,
// of its literal arguments (nil: any arguments; they only print or read),
// and whether the script may run it at all. Exec-capable commands are
// pinned to the exact programs Claude uses. A switch, not a map: a map
// literal is built at init, in every run of guard.
func snapshotCommand(name string) (check func(args []string) bool, known bool) {
	switch name {
	case "echo", "printf", "[", "test", "exit", ":", "true", "cut", "head", "base64", "grep":
		return nil, true
	case "read":
		return onlyArgs("func", "-r"), true
	case "declare":
		return onlyArgs("-f", "-F", "-p", "$func"), true
	case "typeset":
		return onlyArgs("-f", "-F", "-p", "+f", "$func"), true
	case "shopt":
		return onlyArgs("-p"), true
	case "set":
		return onlyArgs("-o"), true
	case "setopt", "alias", "cat":
		return noArgs, true
	case "command":
		return func(a []string) bool { return len(a) == 2 && a[0] == "-v" }, true
	case "sed":
		return onlyArgs("s/^alias //g", "s/^/alias -- /", "s/^alias //", "s/^/alias -- /g"), true
	case "awk":
		return onlyArgs(`{print "set -o " $1}`), true
	}
	return nil, false
}

func onlyArgs(allowed ...string) func([]string) bool {
	return func(args []string) bool {
		for _, a := range args {
			ok := false
			for _, w := range allowed {
				ok = ok || a == w
			}
			if !ok {
				return false
			}
		}
		return true
	}
}

func noArgs(args []string) bool { return len(args) == 0 }

// snapshotAssignable reports the variables a snapshot script may set.
func snapshotAssignable(name string) bool {
	return name == "encoded_func" || name == "func" || name == "SOURCE_EXIT_CODE"
}

// RecognizeSnapshotScript reports whether text is Claude Code's
// snapshot-creation script, and the snapshot path it writes (in Payload's
// place: Envelope.Snapshot). rcFiles are the rc files it may source.
func RecognizeSnapshotScript(text string, ctx EnvelopeContext, rcFiles []string) (env Envelope, ok bool) {
	defer func() {
		if recover() != nil {
			env, ok = Envelope{}, false
		}
	}()
	if len(text) > MaxTextBytes || strings.IndexByte(text, 0) >= 0 || !strings.HasPrefix(strings.TrimSpace(text), snapshotVar+"=") {
		return Envelope{}, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) < 3 {
		return Envelope{}, false
	}
	// 1. SNAPSHOT_FILE=PATH, alone
	first, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(first.Args) != 0 || len(first.Assigns) != 1 || len(f.Stmts[0].Redirs) != 0 || !plainStmt(f.Stmts[0]) {
		return Envelope{}, false
	}
	as := first.Assigns[0]
	if as.Name == nil || as.Name.Value != snapshotVar || as.Append || as.Naked || as.Index != nil || as.Array != nil || as.Value == nil {
		return Envelope{}, false
	}
	path, ok := literalWord(as.Value)
	if !ok || !inDir(path, ctx.SnapshotDirs) || !claudeSnapshotName(filepath.Base(path)) {
		return Envelope{}, false
	}
	// 2. the rest: plumbing only
	good := true
	for _, st := range f.Stmts[1:] {
		syntax.Walk(st, func(n syntax.Node) bool {
			if !good {
				return false
			}
			good = snapshotNode(n, rcFiles)
			return good
		})
	}
	if !good {
		return Envelope{}, false
	}
	return Envelope{Agent: "claude", Shape: "claude-snapshot", Snapshot: path}, true
}

// snapshotNode judges one node of a snapshot script.
func snapshotNode(n syntax.Node, rcFiles []string) bool {
	switch n := n.(type) {
	case *syntax.Stmt:
		return !n.Background && !n.Coprocess
	case *syntax.DeclClause:
		// declare -f, declare -F, declare -f "$func" (typeset in zsh): no
		// variable is set, nothing is exported
		check, _ := snapshotCommand(n.Variant.Value)
		if (n.Variant.Value != "declare" && n.Variant.Value != "typeset") || check == nil {
			return false
		}
		args := make([]string, len(n.Args))
		for i, as := range n.Args {
			if !as.Naked || as.Name != nil || as.Value == nil {
				return false
			}
			if args[i] = wordSource(as.Value); args[i] == "" {
				return false
			}
		}
		return check(args)
	case *syntax.FuncDecl, *syntax.ProcSubst, *syntax.CoprocClause, *syntax.LetClause,
		*syntax.TestDecl, *syntax.TimeClause, *syntax.ExtGlob, *syntax.ForClause, *syntax.ArithmCmd,
		*syntax.ArithmExp:
		return false // definitions, and loops or arithmetic that set variables (for PATH in …)
	case *syntax.ParamExp:
		return n.Exp == nil || (n.Exp.Op != syntax.AssignUnset && n.Exp.Op != syntax.AssignUnsetOrNull)
	case *syntax.Assign:
		if n.Naked && n.Name == nil {
			return true // a declare flag, judged with its clause
		}
		return n.Name != nil && snapshotAssignable(n.Name.Value) && n.Index == nil && n.Array == nil
	case *syntax.Redirect:
		return snapshotRedirect(n)
	case *syntax.CallExpr:
		if len(n.Args) == 0 {
			return true // assignments only, judged one by one
		}
		if len(n.Assigns) != 0 {
			return false // VAR=x cmd: an environment for the command
		}
		words := make([]string, len(n.Args))
		for i, w := range n.Args {
			s, ok := literalWord(w)
			if !ok {
				s = wordSource(w)
			}
			words[i] = s
		}
		if words[0] == "source" || words[0] == "." {
			return len(words) == 2 && isOneOfStr(words[1], rcFiles)
		}
		// the command word is plain text: no quotes, no expansion
		if len(n.Args[0].Parts) != 1 {
			return false
		}
		name, plain := n.Args[0].Parts[0].(*syntax.Lit)
		if !plain {
			return false
		}
		check, known := snapshotCommand(name.Value)
		if !known {
			return false
		}
		return check == nil || check(words[1:])
	}
	return true
}

// wordSource prints a word as written (for the few arguments that are a
// variable, like "$func").
func wordSource(w *syntax.Word) string {
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, w); err != nil {
		return ""
	}
	return strings.Trim(b.String(), `"`)
}

// snapshotRedirect: writes go to "$SNAPSHOT_FILE" or /dev/null; reads come
// from /dev/null or a here-document; descriptors may be duplicated.
func snapshotRedirect(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.DplOut, syntax.DplIn:
		s, ok := literalWord(r.Word)
		return ok && (s == "1" || s == "2" || s == "-")
	case syntax.Hdoc, syntax.DashHdoc:
		return true // data, written where the command's other redirects say
	case syntax.RdrIn:
		s, ok := literalWord(r.Word)
		return ok && s == "/dev/null"
	case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll:
		if s, ok := literalWord(r.Word); ok {
			return s == "/dev/null"
		}
		return isSnapshotVar(r.Word)
	}
	return false
}

// isSnapshotVar reports whether w is exactly $SNAPSHOT_FILE, "$SNAPSHOT_FILE"
// or ${SNAPSHOT_FILE}.
func isSnapshotVar(w *syntax.Word) bool {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == snapshotVar && !pe.Excl && !pe.Length && !pe.Width &&
		pe.Index == nil && pe.Slice == nil && pe.Repl == nil && pe.Exp == nil
}

func isOneOfStr(s string, list []string) bool {
	for _, x := range list {
		if x != "" && s == x {
			return true
		}
	}
	return false
}

// Gemini CLI (packages/core: ShellExecutionService and the shell tool) runs
// bash -c with the command pasted, unquoted, into a subshell that records
// background jobs, after its shopt guard:
//
//	shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=/tmp/gemini-shell-XXXXXX/bgpids.tmp
//	(
//	  trap 'jobs -p > "$_bgpids_file"' EXIT
//	CMD
//	)
//	__code=$?
//	exit $__code
//
// The command is raw text, so it could close the subshell and add commands
// after it: the shape is matched on the syntax tree too (exactly these five
// statements, the subshell closing where the wrapper closes it), and the
// payload may not touch the wrapper's variables.
const (
	geminiPrefix = "shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file="
	geminiTrap   = "\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n"
	geminiSuffix = "\n)\n__code=$?\nexit $__code"
)

func recognizeGemini(text string, ctx EnvelopeContext) (Envelope, bool) {
	rest := strings.TrimPrefix(text, geminiPrefix)
	pathWord, body, ok := strings.Cut(rest, geminiTrap)
	if !ok || !strings.HasSuffix(body, geminiSuffix) {
		return Envelope{}, false
	}
	payload := strings.TrimSuffix(body, geminiSuffix)
	if strings.TrimSpace(payload) == "" || strings.Contains(payload, "_bgpids_file") || strings.Contains(payload, "__code") {
		return Envelope{}, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) != 5 {
		return Envelope{}, false
	}
	// 1. the shopt guard; 2. _bgpids_file=PATH, alone
	if c, ok := call(f.Stmts[0], 7); !ok || len(f.Stmts[0].Redirs) != 0 || !plainStmt(f.Stmts[0]) || wordText(text, c.Args[0]) != "shopt" {
		return Envelope{}, false
	}
	as, ok := f.Stmts[1].Cmd.(*syntax.CallExpr)
	if !ok || len(as.Args) != 0 || len(as.Assigns) != 1 || len(f.Stmts[1].Redirs) != 0 || !plainStmt(f.Stmts[1]) {
		return Envelope{}, false
	}
	a := as.Assigns[0]
	if a.Name == nil || a.Name.Value != "_bgpids_file" || a.Value == nil || a.Append || a.Index != nil || wordText(text, a.Value) != pathWord {
		return Envelope{}, false
	}
	p, ok := literalWord(a.Value)
	if !ok || filepath.Base(p) != "bgpids.tmp" || !geminiDirName(filepath.Base(filepath.Dir(p))) ||
		!inDir(filepath.Dir(p), ctx.TempDirs) {
		return Envelope{}, false
	}
	// 3. the subshell: the trap, then the payload, closed where the wrapper closes it
	st := f.Stmts[2]
	sub, ok := st.Cmd.(*syntax.Subshell)
	if !ok || len(st.Redirs) != 0 || !plainStmt(st) || len(sub.Stmts) < 2 ||
		int(sub.Rparen.Offset()) != len(text)-len(geminiSuffix)+1 ||
		stmtText(text, sub.Stmts[0]) != `trap 'jobs -p > "$_bgpids_file"' EXIT` {
		return Envelope{}, false
	}
	// the payload runs in the wrapper's shell: it must not be able to set the
	// variable the trap writes through, however it spells the name
	for _, ps := range sub.Stmts[1:] {
		if !cannotAssign(ps) {
			return Envelope{}, false
		}
	}
	// 4. __code=$?  5. exit $__code: fixed text, checked by the suffix
	return Envelope{Agent: "gemini", Shape: "gemini-bgpids", Payload: payload}, true
}

// assigningBuiltin reports the builtins that set variables whose names
// they are given (or run text that could): a payload that uses one is
// judged whole.
func assigningBuiltin(name string) bool {
	switch name {
	case "eval", "read", "mapfile", "readarray", "getopts", "source", ".",
		"builtin", "command", "alias", "trap", "enable", "let", "unset",
		"declare", "typeset", "local", "export", "readonly":
		return true
	}
	return false
}

// cannotAssign reports whether st provably sets no variable by a name it
// computes: only plain NAME=value assignments (whose names are in the text)
// and commands named in plain text that are not assigning builtins.
func cannotAssign(st *syntax.Stmt) bool {
	ok := true
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DeclClause, *syntax.LetClause, *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.ForClause,
			*syntax.CoprocClause:
			ok = false
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				ok = false
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				break
			}
			name, lit := "", len(n.Args[0].Parts) == 1
			if lit {
				l, isLit := n.Args[0].Parts[0].(*syntax.Lit)
				lit = isLit
				if isLit {
					name = l.Value
				}
			}
			if !lit || assigningBuiltin(name) {
				ok = false
			}
			if name == "printf" {
				for _, w := range n.Args[1:] {
					if s, isLit := literalWord(w); !isLit || strings.HasPrefix(s, "-v") {
						ok = false
					}
				}
			}
		}
		return ok
	})
	return ok
}
