package classify

import (
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// maxFields caps how many words one command may expand to (brace expansion
// can grow exponentially); past it the text is refused as too long.
const maxFields = 4096

// field is one word of a command after expansion.
type field struct {
	val  string // the literal value; for a dynamic field, its source text
	dyn  bool   // not provably literal
	pat  string // the value with every unknown part replaced by '*' (for path checks)
	glob bool   // holds unquoted glob characters: names files guard cannot see
	// tainted: holds a value this text computed at run time
	tainted bool
	// tilde and homeVar record that the word was written relative to the
	// user's home (~, $HOME), which some rules treat specially.
	home bool
}

// varState is what the walker knows about one shell variable.
type varState struct {
	val    string
	dyn    bool
	list   []string // an array's elements, when isList
	isList bool
	// assoc: an associative array's elements (declare -A), when isAssoc
	assoc   map[string]string
	isAssoc bool
	inert   bool // unknown, but only ever a literal word without $ ` [ (a loop over literal words)
	// ref: a nameref (declare -n) to this variable; reads and writes go there
	ref string
	// integer: declare -i; what is assigned is evaluated as arithmetic
	integer bool
	// caseAttr: declare -l ('l') or -u ('u'); what is assigned is lowered
	// or raised, so declare -l x=/ETC holds /etc
	caseAttr byte
	// unset: nothing set the variable, or unset cleared it (val is "");
	// ${x-/} gives / then, and ${x+/} nothing
	unset bool
}

// part is one piece of a word during expansion.
type part struct {
	s     string
	pat   string
	dyn   bool
	split bool // unquoted expansion: subject to IFS field splitting
	home  bool
	glob  bool // unquoted glob characters
	taint bool // a value this text computed at run time
}

// fields expands one word into zero or more fields, following literal
// variables, $IFS, ANSI-C quoting, tilde and brace expansion.
func (w *walker) fields(word *syntax.Word, out []field) ([]field, error) {
	// The source text is taken before brace splitting rewrites the word.
	src := w.source(word)
	if syntax.SplitBraces(word) {
		return w.braceFields(word, src, out)
	}
	out = w.wordFields(word, src, out)
	if len(out) > maxFields {
		return out, errTooMany
	}
	return out, nil
}

// braceFields expands a word holding brace expansions; kept apart so the
// common word pays nothing for the iterator.
func (w *walker) braceFields(word *syntax.Word, src string, out []field) ([]field, error) {
	if braceCount(word.Parts) > maxFields {
		return out, errTooMany
	}
	var words []*syntax.Word
	expandBraces(word, func(bw *syntax.Word) bool {
		words = append(words, bw)
		return len(words) <= maxFields
	})
	if len(words) > maxFields {
		return out, errTooMany
	}
	for _, bw := range words {
		out = w.wordFields(bw, src, out)
		if len(out) > maxFields {
			return out, errTooMany
		}
	}
	return out, nil
}

type tooMany struct{}

func (tooMany) Error() string { return "the command expands to too many words" }

var errTooMany error = tooMany{}

func (w *walker) wordFields(word *syntax.Word, src string, out []field) []field {
	var parts []part
	parts = w.wordParts(word.Parts, false, parts, true)
	dyn := false
	for _, p := range parts {
		if p.dyn {
			dyn = true
			break
		}
	}
	if dyn {
		// A word that is not provably literal stays one field holding its
		// source text; pat keeps what is known, with '*' for the rest.
		var pat strings.Builder
		home, taint := false, false
		for i, p := range parts {
			pat.WriteString(p.pat)
			if i == 0 && p.home {
				home = true
			}
			taint = taint || p.taint
		}
		return append(out, field{val: src, dyn: true, pat: pat.String(), home: home, tainted: taint})
	}
	// Literal word: apply IFS splitting to the parts that came from unquoted
	// expansions. A word with no splittable part is exactly one field, even
	// when empty ("" is an argument).
	anySplit := false
	for _, p := range parts {
		if p.split {
			anySplit = true
			break
		}
	}
	if !anySplit {
		var s string
		if len(parts) == 1 {
			s = parts[0].s // a plain word: no copy
		} else {
			var sb strings.Builder
			for _, p := range parts {
				sb.WriteString(p.s)
			}
			s = sb.String()
		}
		home := len(parts) > 0 && parts[0].home
		glob := false
		for _, p := range parts {
			glob = glob || p.glob
		}
		return append(out, field{val: s, pat: s, home: home, glob: glob})
	}
	ifs := w.ifs()
	var cur strings.Builder
	have := false // cur holds a field (possibly empty, from quotes)
	home := false
	flush := func() {
		if have {
			s := cur.String()
			out = append(out, field{val: s, pat: s, home: home})
		}
		cur.Reset()
		have = false
		home = false
	}
	for i, p := range parts {
		if !p.split {
			if i == 0 && p.home {
				home = true
			}
			cur.WriteString(p.s)
			have = true
			continue
		}
		for _, r := range p.s {
			if strings.ContainsRune(ifs, r) {
				flush()
				continue
			}
			cur.WriteRune(r)
			have = true
		}
	}
	flush()
	return out
}

// ifs returns the field separators in force.
func (w *walker) ifs() string {
	if v, ok := w.vars["IFS"]; ok && !v.dyn {
		return v.val
	}
	return " \t\n"
}

// wordParts flattens word parts into literal and dynamic pieces. first is
// true for the first part of a word (where an unquoted ~ expands).
func (w *walker) wordParts(wps []syntax.WordPart, quoted bool, out []part, first bool) []part {
	for i, wp := range wps {
		first := first && i == 0
		switch x := wp.(type) {
		case *syntax.Lit:
			s := x.Value
			if quoted {
				s = unescapeDouble(s)
				out = append(out, part{s: s, pat: s})
				continue
			}
			home := false
			if first && strings.HasPrefix(s, "~") {
				s2, ok := w.tilde(s)
				switch {
				case ok:
					s, home = s2, true
				case s2 != s:
					s = s2 // ~+ is the directory the shell is in
				case s == "~" || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, "~+") || strings.HasPrefix(s, "~-"):
					// a home or directory guard cannot know
					out = append(out, part{dyn: true, pat: "*" + strings.TrimLeft(s, "~+-")})
					continue
				}
			}
			s = unescapeUnquoted(s)
			// A glob matches files guard cannot see: its pattern stays,
			// literal for path checks (rm -rf /*).
			out = append(out, part{s: s, pat: s, home: home, glob: hasGlob(x.Value)})
		case *syntax.SglQuoted:
			s := x.Value
			if x.Dollar {
				s = decodeANSIC(s)
			}
			out = append(out, part{s: s, pat: s})
		case *syntax.DblQuoted:
			out = w.wordParts(x.Parts, true, out, false)
		case *syntax.ParamExp:
			v, ok := w.param(x)
			if !ok {
				taint := false
				if x.Param != nil {
					_, taint = w.vars[x.Param.Value]
					if x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
						// ${d:=value} assigns: d is computed here from now on
						w.setVar(x.Param.Value, varState{dyn: true})
						taint = true
					}
				}
				pat := "*"
				if x.Exp != nil && (x.Exp.Op == syntax.DefaultUnsetOrNull || x.Exp.Op == syntax.DefaultUnset ||
					x.Exp.Op == syntax.AssignUnsetOrNull || x.Exp.Op == syntax.AssignUnset) && x.Exp.Word != nil {
					// ${X:-/}, ${X:=/usr}: path rules take the default as what
					// it names, the side that can do harm when X is unset
					if fs, err := w.fields(x.Exp.Word, nil); err == nil && len(fs) == 1 && !fs[0].dyn {
						pat = fs[0].val
					}
				}
				out = append(out, part{dyn: true, pat: pat, taint: taint})
				w.walkNested(x)
				continue
			}
			// "$@" makes one word per parameter: split it like an
			// unquoted expansion (over-splitting a parameter with a space
			// only makes guard see more words, never fewer).
			at := x.Param != nil && (x.Param.Value == "@" || (x.Param.Value == "*" && !quoted)) || isListAll(x)
			p := part{s: v, pat: v, split: !quoted || at}
			if x.Param != nil && x.Param.Value == "HOME" && first {
				p.home = true
			}
			out = append(out, p)
		case *syntax.CmdSubst:
			compBefore := len(*w.comp)
			first := len(w.a.Commands)
			w.substitution(x.Stmts, CompCmdSubst, "$(…)")
			if text, ok := w.substLiteral(x.Stmts, first); ok {
				// "$(cat <<'EOF' … EOF)", "$(printf 'a\nb')": a literal
				// built by a command that only prints it; the
				// substitution and its heredoc are not composite syntax
				*w.comp = (*w.comp)[:compBefore]
				out = append(out, part{s: text, pat: text, split: !quoted})
				continue
			}
			if text, certain, ok := w.substPath(x.Stmts, first); ok {
				// $(dirname /x), $(realpath /): a path computed from a
				// literal; realpath's answer is only a guess for path
				// rules unless it is /
				if certain {
					out = append(out, part{s: text, pat: text, split: !quoted})
				} else {
					out = append(out, part{dyn: true, pat: text})
				}
				continue
			}
			out = append(out, part{dyn: true, pat: "*"})
		case *syntax.ProcSubst:
			w.substitution(x.Stmts, CompProcSubst, "<(…)")
			out = append(out, part{dyn: true, pat: "*"})
		case *syntax.ArithmExp:
			w.walkNested(wp)
			if v, ok := constArith(x.X); ok {
				// $((-1)), $[1]: numbers only, so the value is known
				s := strconv.Itoa(v)
				out = append(out, part{s: s, pat: s, split: !quoted})
				continue
			}
			out = append(out, part{dyn: true, pat: "*"})
		default:
			// Extended globs and anything newer: unknown value, but still
			// look inside for substitutions that run.
			w.walkNested(wp)
			out = append(out, part{dyn: true, pat: "*"})
		}
	}
	return out
}

// tilde expands a leading ~ or ~/...; ~user stays as written (its home is
// unknown, path rules match on what follows).
func (w *walker) tilde(s string) (string, bool) {
	rest := s[1:]
	if rest == "" || rest[0] == '/' {
		home := w.opt.Home
		if v, ok := w.vars["HOME"]; ok {
			if v.dyn {
				return s, false
			}
			home = v.val
		}
		if home == "" {
			return s, false
		}
		return home + rest, true
	}
	if rest == "+" || strings.HasPrefix(rest, "+/") {
		if d, ok := w.oneDir(); ok {
			return d + rest[1:], false
		}
	}
	if rest == "-" || strings.HasPrefix(rest, "-/") {
		if len(w.oldDirs) == 1 {
			return w.oldDirs[0] + rest[1:], false
		}
	}
	return s, false
}

// param resolves a simple $name or ${name} whose value the text itself set,
// or that guard knows ($HOME, $IFS, $PWD). Anything else is dynamic.
func (w *walker) param(pe *syntax.ParamExp) (string, bool) {
	if v, ok, handled := w.paramMore(pe); handled {
		return v, ok
	}
	if v, ok := w.lookup(paramName(pe)); ok && v.isAssoc && pe.Index != nil {
		return assocElem(v, pe)
	}
	if v, ok := w.lookup(paramName(pe)); ok && v.isList && pe.Index != nil && !pe.Excl && !pe.Length && pe.Slice == nil && pe.Repl == nil && pe.Exp == nil {
		// ${x[@]}, ${x[*]}, ${x[N]} of a literal array
		if wd, ok := pe.Index.(*syntax.Word); ok && len(wd.Parts) == 1 {
			if l, ok := wd.Parts[0].(*syntax.Lit); ok && (l.Value == "@" || l.Value == "*") {
				return strings.Join(v.list, " "), true
			}
		}
		// an indexed array's subscript is arithmetic: ${a[1-1]}, ${a[n]},
		// ${a[$n]}, ${a[-1]} (from the end)
		n, ok := w.subscript(pe.Index)
		if !ok {
			return "", false
		}
		if n < 0 {
			n += len(v.list)
			if n < 0 {
				return "", false // bash: bad array subscript
			}
		}
		if n < len(v.list) {
			return v.list[n], true
		}
		return "", true
	}
	if pe.Exp != nil && pe.Param != nil && !pe.Excl && !pe.Length && pe.Index == nil && pe.Slice == nil && pe.Repl == nil {
		return w.paramOp(pe)
	}
	if pe.Slice != nil && pe.Param != nil && pe.Exp == nil && !pe.Excl && !pe.Length && pe.Index == nil && pe.Repl == nil {
		// ${HOME:0:1} computes "/": a substring of a known value
		plain := *pe
		plain.Slice = nil
		v, ok := w.param(&plain)
		if !ok || pe.Slice.Offset == nil {
			return "", false
		}
		off, ok := constArith(pe.Slice.Offset)
		if !ok {
			return "", false
		}
		if off < 0 {
			off = max(len(v)+off, 0)
		}
		off = min(off, len(v))
		v = v[off:]
		if pe.Slice.Length != nil {
			n, ok := constArith(pe.Slice.Length)
			if !ok {
				return "", false
			}
			if n < 0 {
				n = max(len(v)+n, 0)
			}
			v = v[:min(n, len(v))]
		}
		return v, true
	}
	if pe.Param == nil || pe.Excl || pe.Length || pe.Width || pe.Index != nil ||
		pe.Slice != nil || pe.Repl != nil || pe.Names != 0 || pe.Exp != nil ||
		pe.NestedParam != nil || len(pe.Modifiers) > 0 {
		return "", false
	}
	name := pe.Param.Value
	if v, ok := w.lookup(name); ok {
		return v.val, !v.dyn
	}
	if pos := w.pos; pos != nil {
		// The script's own parameters ($1, $@): for the text, the words
		// after bash -c TEXT; for a nested bash -c, the words after its
		// script.
		switch {
		case name == "@" || name == "*":
			if len(pos) > 1 {
				return strings.Join(pos[1:], " "), true
			}
			return "", true
		case name == "#":
			return strconv.Itoa(max(len(pos)-1, 0)), true
		case isDigits(name):
			if n, err := strconv.Atoi(name); err == nil && n < len(pos) {
				return pos[n], true
			}
			return "", true
		}
	}
	if w.unsetCertain(name) {
		return "", true // "$UNSET"/ is / when nothing sets UNSET
	}
	switch name {
	case "FUNCNAME":
		// inside a function body, the function's own name: f() { $FUNCNAME|$FUNCNAME& }
		return w.fn, w.fn != ""
	case "HOME":
		return w.opt.Home, w.opt.Home != ""
	case "IFS":
		return " \t\n", true
	case "PWD":
		if d, ok := w.oneDir(); ok {
			return d, true
		}
	case "OLDPWD":
		if len(w.oldDirs) == 1 {
			return w.oldDirs[0], true
		}
	}
	return "", false
}

// subscript evaluates an indexed array's subscript when it is certain: a
// constant expression, or a lone variable (n, $n, ${n}) whose known value
// is a number.
func (w *walker) subscript(x syntax.ArithmExpr) (int, bool) {
	if n, ok := constArith(x); ok {
		return n, true
	}
	wd, ok := x.(*syntax.Word)
	if !ok || len(wd.Parts) != 1 {
		return 0, false
	}
	val := ""
	switch p := wd.Parts[0].(type) {
	case *syntax.Lit:
		if !isIdent(p.Value) {
			return 0, false
		}
		v, known := w.lookup(p.Value)
		switch {
		case !known && w.unsetCertain(p.Value):
			return 0, true // a name nothing sets counts as 0
		case !known || v.dyn || v.isList:
			return 0, false
		}
		val = v.val
	case *syntax.ParamExp:
		v, known := w.param(p)
		if !known {
			return 0, false
		}
		val = v
	default:
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(val))
	return n, err == nil
}

// walkNested finds substitutions hidden in a node guard does not expand
// (arithmetic, parameter operators) and analyzes the commands they run.
func (w *walker) walkNested(n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.CStyleLoop:
			w.arithmetic(x)
		case *syntax.UnaryTest:
			// [[ -v 'a[$(id)]' ]] evaluates the subscript
			if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
				if wd, ok := x.X.(*syntax.Word); ok && codeInSubscript(w.flatText(wd)) {
					w.hitDeny("hidden-exec", -1)
				}
			}
		case *syntax.BinaryArithm:
			if (x.Op == syntax.Assgn || (x.Op >= syntax.AddAssgn && x.Op <= syntax.PowAssgn)) && isGuardName(x.X) {
				w.hitDeny("guard-self", -1)
			}
		case *syntax.UnaryArithm:
			if (x.Op == syntax.Inc || x.Op == syntax.Dec) && isGuardName(x.X) {
				w.hitDeny("guard-self", -1)
			}
		case *syntax.ParamExp:
			if x.Param != nil && strings.HasPrefix(x.Param.Value, "GUARD_") && (x.Exp != nil &&
				(x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) || x.Names != 0) {
				w.hitDeny("guard-self", -1) // ${GUARD_X:=…}, ${!GUARD_*}
			}
			w.paramCode(x)
		case *syntax.CmdSubst:
			w.substitution(x.Stmts, CompCmdSubst, "$(…)")
			return false
		case *syntax.ProcSubst:
			w.substitution(x.Stmts, CompProcSubst, "<(…)")
			return false
		}
		return true
	})
}

// source returns the text of a node as written.
func (w *walker) source(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(w.src) || start > end {
		return ""
	}
	return w.src[start:end]
}

// hasGlob reports glob syntax: * or ?, or a [ with a ] after it (a lone
// [ is the test command).
func hasGlob(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	k := strings.IndexByte(s, '[')
	return k >= 0 && strings.IndexByte(s[k+1:], ']') >= 0
}

// unescapeUnquoted removes the backslashes of an unquoted literal:
// \x is x, and a backslash-newline pair disappears.
func unescapeUnquoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// unescapeDouble removes the backslashes that escape inside double quotes:
// before $ ` " \ and newline; other backslashes stay.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// decodeANSIC decodes the body of a $'…' string as bash does.
func decodeANSIC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case '\\', '\'', '"', '?':
			sb.WriteByte(c)
		case 'c':
			if i+1 < len(s) {
				i++
				sb.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			max := 2
			if c == 'u' {
				max = 4
			} else if c == 'U' {
				max = 8
			}
			j := i + 1
			var v rune
			for ; j < len(s) && j-i-1 < max && isHex(s[j]); j++ {
				v = v*16 + rune(hexVal(s[j]))
			}
			if j == i+1 {
				sb.WriteByte('\\')
				sb.WriteByte(c)
				continue
			}
			if c == 'x' {
				sb.WriteByte(byte(v))
			} else if utf8.ValidRune(v) {
				sb.WriteRune(v)
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			var v int
			for ; j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7'; j++ {
				v = v*8 + int(s[j]-'0')
			}
			sb.WriteByte(byte(v))
			i = j - 1
		default:
			sb.WriteByte('\\')
			sb.WriteByte(c)
		}
	}
	// bash stops a $'…' string at a NUL byte.
	out := sb.String()
	if k := strings.IndexByte(out, 0); k >= 0 {
		out = out[:k]
	}
	return out
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// isGuardName reports an arithmetic operand naming a GUARD_* variable.
func isGuardName(x syntax.ArithmExpr) bool {
	wd, ok := x.(*syntax.Word)
	if !ok || len(wd.Parts) == 0 {
		return false
	}
	lit, ok := wd.Parts[0].(*syntax.Lit)
	return ok && strings.HasPrefix(lit.Value, "GUARD_")
}

// braceCount estimates how many words brace expansion makes of parts,
// saturating past maxFields, so a product like {a,b}{a,b}… is refused
// before it is expanded.
func braceCount(parts []syntax.WordPart) int {
	n := 1
	for _, p := range parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		k := 0
		if b.Sequence {
			k = seqCount(b)
		} else {
			for _, e := range b.Elems {
				k += braceCount(e.Parts)
				if k > maxFields {
					break
				}
			}
		}
		if k == 0 {
			k = 1
		}
		n *= k
		if n > maxFields {
			return maxFields + 1
		}
	}
	return n
}

// seqCount is the length of {x..y[..incr]}.
func seqCount(b *syntax.BraceExp) int {
	lit := func(i int) string {
		if i >= len(b.Elems) || len(b.Elems[i].Parts) != 1 {
			return ""
		}
		if l, ok := b.Elems[i].Parts[0].(*syntax.Lit); ok {
			return l.Value
		}
		return ""
	}
	from, err1 := strconv.Atoi(lit(0))
	to, err2 := strconv.Atoi(lit(1))
	if err1 != nil || err2 != nil {
		return 64 // letters: at most a few dozen
	}
	d := to - from
	if d < 0 {
		d = -d
	}
	if d > maxFields {
		return maxFields + 1
	}
	return d + 1
}

// arithmetic checks an arithmetic context: bash evaluates quoted strings
// in it as expressions, so '$(id)' or '\x24(id)' inside $(( )) runs id, and
// a variable this text filled at run time is evaluated the same way.
func (w *walker) arithmetic(n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.SglQuoted:
			v := x.Value
			if x.Dollar {
				v = decodeANSIC(v)
			}
			if strings.ContainsAny(v, "$`[\\") {
				w.hitDeny("hidden-exec", -1)
			}
			return false
		case *syntax.DblQuoted:
			// its literal text is evaluated again; real $( ) inside it
			// are walked like any other
			for _, p := range x.Parts {
				if l, ok := p.(*syntax.Lit); ok && strings.ContainsAny(unescapeDouble(l.Value), "$`[\\") {
					w.hitDeny("hidden-exec", -1)
				}
			}
		case *syntax.Lit:
			// a bare name is read as a variable and its value evaluated
			if v, ok := w.vars[x.Value]; ok && codeValue(v) {
				w.hitDeny("hidden-exec", -1)
			}
		case *syntax.ParamExp:
			if x.Param != nil {
				if v, ok := w.vars[x.Param.Value]; ok && codeValue(v) {
					w.hitDeny("hidden-exec", -1)
				}
			}
		}
		return true
	})
}

// paramCode checks parameter expansions that evaluate text as code:
// subscripts and slice offsets are arithmetic, ${x@P} expands a prompt
// string (running $( ) in the value), ${!x} names a variable by a value.
func (w *walker) paramCode(x *syntax.ParamExp) {
	if x.Index != nil {
		w.arithmetic(x.Index)
	}
	if x.Slice != nil {
		if x.Slice.Offset != nil {
			w.arithmetic(x.Slice.Offset)
		}
		if x.Slice.Length != nil {
			w.arithmetic(x.Slice.Length)
		}
	}
	if x.Param == nil {
		return
	}
	v, known := w.vars[x.Param.Value]
	unsafe := known && codeValue(v)
	if x.Exp != nil && x.Exp.Op == syntax.OtherParamOps && x.Exp.Word != nil && strings.Contains(w.flatText(x.Exp.Word), "P") {
		if !known || unsafe {
			w.hitDeny("hidden-exec", -1)
		}
	}
	if x.Excl && unsafe {
		w.hitDeny("hidden-exec", -1)
	}
}

// flatText is a word's or quoted part's text with quotes removed, escapes
// decoded, and anything not literal kept as written.
func (w *walker) flatText(n syntax.Node) string {
	var sb strings.Builder
	var walk func(parts []syntax.WordPart)
	walk = func(parts []syntax.WordPart) {
		for _, p := range parts {
			switch x := p.(type) {
			case *syntax.Lit:
				sb.WriteString(x.Value)
			case *syntax.SglQuoted:
				if x.Dollar {
					sb.WriteString(decodeANSIC(x.Value))
				} else {
					sb.WriteString(x.Value)
				}
			case *syntax.DblQuoted:
				walk(x.Parts)
			default:
				sb.WriteString(w.source(p))
			}
		}
	}
	switch x := n.(type) {
	case *syntax.Word:
		walk(x.Parts)
	case syntax.WordPart:
		walk([]syntax.WordPart{x})
	}
	return sb.String()
}

// constArith evaluates an arithmetic expression made of numbers and
// operators only; anything naming a variable or running a command is not
// constant.
func constArith(x syntax.ArithmExpr) (int, bool) {
	if x == nil {
		return 0, false
	}
	constant := true
	syntax.Walk(x, func(n syntax.Node) bool {
		switch y := n.(type) {
		case *syntax.Lit:
			if _, err := strconv.ParseInt(y.Value, 0, 64); err != nil {
				constant = false
			}
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.SglQuoted, *syntax.DblQuoted:
			constant = false
		case *syntax.UnaryArithm:
			// ++0, 0-- assign to a "variable": no constant (and the
			// expander would need an environment)
			if y.Op == syntax.Inc || y.Op == syntax.Dec {
				constant = false
			}
		case *syntax.BinaryArithm:
			if y.Op >= syntax.Assgn && y.Op <= syntax.ShrAssgn {
				constant = false
			}
		}
		return constant
	})
	if !constant {
		return 0, false
	}
	v, err := evalArith(x)
	return v, err == nil
}

func paramName(pe *syntax.ParamExp) string {
	if pe.Param == nil {
		return ""
	}
	return pe.Param.Value
}

// isListAll reports ${x[@]} (or ${x[*]}): one word per element.
func isListAll(pe *syntax.ParamExp) bool {
	wd, ok := pe.Index.(*syntax.Word)
	if !ok || len(wd.Parts) != 1 {
		return false
	}
	l, ok := wd.Parts[0].(*syntax.Lit)
	return ok && (l.Value == "@" || l.Value == "*")
}

// paramOp follows ${x%pat}, ${x%%pat}, ${x#pat}, ${x##pat}, ${x:-word} and
// ${x-word} when x's value and the word are known: ${HOME%/*}/etc.
func (w *walker) paramOp(pe *syntax.ParamExp) (string, bool) {
	plain := *pe
	plain.Exp = nil
	v, ok := w.param(&plain)
	if !ok {
		return "", false
	}
	word := ""
	if pe.Exp.Word != nil {
		fs, err := w.fields(pe.Exp.Word, nil)
		if err != nil || len(fs) > 1 || len(fs) == 1 && fs[0].dyn {
			return "", false
		}
		if len(fs) == 1 {
			word = fs[0].val
		}
	}
	switch pe.Exp.Op {
	case syntax.DefaultUnsetOrNull:
		if v == "" {
			return word, true
		}
		return v, true
	case syntax.DefaultUnset:
		if w.unsetParam(pe.Param.Value) {
			return word, true // ${UNSET-/} is /
		}
		return v, true
	case syntax.AlternateUnset:
		if w.unsetParam(pe.Param.Value) {
			return "", true
		}
		return word, true // ${x+/} of a set x, empty or not, is /
	case syntax.AlternateUnsetOrNull:
		if v == "" {
			return "", true
		}
		return word, true
	case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		if !ascii(v) {
			return "", false // the locale decides outside ASCII
		}
		upper := pe.Exp.Op == syntax.UpperFirst || pe.Exp.Op == syntax.UpperAll
		all := pe.Exp.Op == syntax.UpperAll || pe.Exp.Op == syntax.LowerAll
		return caseChange(v, word, upper, all), true
	case syntax.OtherParamOps:
		if !ascii(v) {
			return "", false
		}
		switch word {
		case "U":
			return caseChange(v, "", true, true), true
		case "u":
			return caseChange(v, "", true, false), true
		case "L":
			return caseChange(v, "", false, true), true
		case "P", "E":
			// prompt expansion and $'…' escapes change only what holds
			// a backslash, a $, a backquote or (for @P) a !; the rest
			// is the value as it is (x=/; rm -rf "${x@P}")
			if !strings.ContainsAny(v, "\\$`!") {
				return v, true
			}
		}
	case syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		large := pe.Exp.Op == syntax.RemLargeSuffix
		for k := 0; k <= len(v); k++ {
			i := len(v) - k // shortest suffix first
			if large {
				i = k // longest suffix first
			}
			if shellMatch(word, v[i:]) {
				return v[:i], true
			}
		}
		return v, true
	case syntax.RemSmallPrefix, syntax.RemLargePrefix:
		large := pe.Exp.Op == syntax.RemLargePrefix
		for k := 0; k <= len(v); k++ {
			i := k // shortest prefix first
			if large {
				i = len(v) - k
			}
			if shellMatch(word, v[:i]) {
				return v[i:], true
			}
		}
		return v, true
	}
	return "", false
}

// shellMatch matches a shell pattern against a whole string, where * also
// crosses slashes (unlike path.Match).
func shellMatch(pattern, s string) bool {
	if pattern == "" {
		return s == ""
	}
	if !strings.ContainsAny(pattern, "*?[") {
		return pattern == s
	}
	// translate to a per-rune matcher: * any run, ? one rune, [..] a class
	var match func(p, t string) bool
	match = func(p, t string) bool {
		for len(p) > 0 {
			switch p[0] {
			case '*':
				for len(p) > 0 && p[0] == '*' {
					p = p[1:]
				}
				if p == "" {
					return true
				}
				for i := 0; i <= len(t); i++ {
					if match(p, t[i:]) {
						return true
					}
				}
				return false
			case '?':
				if t == "" {
					return false
				}
				_, n := utf8.DecodeRuneInString(t)
				p, t = p[1:], t[n:]
			case '[':
				end := strings.IndexByte(p[1:], ']')
				if end < 0 || t == "" {
					return false
				}
				class := strings.ReplaceAll(p[:end+2], "[!", "[^")
				ok, err := path.Match(class, t[:1])
				if err != nil || !ok {
					return false
				}
				p, t = p[end+2:], t[1:]
			default:
				if t == "" || p[0] != t[0] {
					return false
				}
				p, t = p[1:], t[1:]
			}
		}
		return t == ""
	}
	return match(pattern, s)
}

// codeValue reports a variable whose value may hold code that bash would
// evaluate in arithmetic or through ${!x}.
func codeValue(v varState) bool {
	if v.dyn {
		return !v.inert
	}
	return strings.ContainsAny(v.val, "$`[")
}

// substPath is substLiteral for a substitution whose only command prints
// a path computed from literal words (pathOutput).
func (w *walker) substPath(stmts []*syntax.Stmt, first int) (string, bool, bool) {
	if d, certain, ok := cdPwd(stmts); ok {
		return d, certain, true
	}
	// one command; any after it are substitutions in its words, which
	// pathOutput's literal check proves were literal themselves
	// ($(dirname "$(dirname /etc/x)"))
	if len(stmts) != 1 || len(w.a.Commands) <= first || w.fail != "" {
		return "", false, false
	}
	st := stmts[0]
	if st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 {
		return "", false, false
	}
	if _, ok := st.Cmd.(*syntax.CallExpr); !ok {
		return "", false, false // dirname /x | sed …: the output is the pipe's
	}
	if c := &w.a.Commands[first]; c.Wrap != WrapNone || len(c.Inner) > 0 {
		return "", false, false
	}
	return w.pathOutput(first)
}

// substLiteral returns the output of a substitution whose only command
// prints literal text: cat of a heredoc without expansions, echo or
// printf of literal words. The shell strips the trailing newlines.
func (w *walker) substLiteral(stmts []*syntax.Stmt, first int) (string, bool) {
	if len(stmts) != 1 || len(w.a.Commands) != first+1 || w.fail != "" {
		return "", false
	}
	st := stmts[0]
	if st.Negated || st.Background || st.Coprocess {
		return "", false
	}
	if _, ok := st.Cmd.(*syntax.CallExpr); !ok {
		return "", false
	}
	var body strings.Builder
	for _, r := range st.Redirs {
		if r.Hdoc == nil {
			return "", false // only the heredoc cat prints
		}
		for _, p := range r.Hdoc.Parts {
			l, lit := p.(*syntax.Lit)
			if !lit {
				return "", false // expansions inside: not literal
			}
			body.WriteString(l.Value)
		}
	}
	c := &w.a.Commands[first]
	if c.Wrap != WrapNone || len(c.Inner) > 0 {
		return "", false
	}
	text, ok := w.literalOutput(first)
	if ok && c.Name == "cat" {
		text = body.String()
	}
	if !ok || strings.ContainsAny(text, "`") || c.Name == "cat" && strings.Contains(text, "$") && !quotedHeredoc(st) {
		return "", false
	}
	return strings.TrimRight(text, "\n"), true
}

// quotedHeredoc reports a heredoc whose delimiter is quoted (<<'EOF'):
// its body is taken as written.
func quotedHeredoc(st *syntax.Stmt) bool {
	for _, r := range st.Redirs {
		if r.Hdoc != nil && r.Word != nil && len(r.Word.Parts) == 1 {
			switch r.Word.Parts[0].(type) {
			case *syntax.SglQuoted, *syntax.DblQuoted:
				return true
			}
		}
	}
	return false
}
