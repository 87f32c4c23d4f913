package classify

// Values bash computes that guard computes too, where the result is
// certain: pattern replacement (${HOME//[a-z]/}), case changes (${x,,},
// ${x@U}), lengths, indirection (${!v}), namerefs (declare -n), integer
// and case attributes (declare -i, -l, -u), element assignments (a[1]=/,
// a+=(/)) and arithmetic subscripts (${a[n]}, ${a[-1]}), read and mapfile
// from a here-string or a literal heredoc (read d <<< /), defaults and
// alternatives of set, empty and unset names (${x-/}, ${x+/}), and what
// dirname, basename, realpath and pwd print about literal paths. Anything
// not certain stays dynamic.

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// maxRefs bounds how many namerefs a lookup follows (bash warns on a
// cycle; guard gives up and calls the value unknown).
const maxRefs = 8

// lookup returns what the walker knows of a variable, through namerefs.
func (w *walker) lookup(name string) (varState, bool) {
	for range maxRefs {
		v, ok := w.vars[name]
		if !ok || v.ref == "" {
			return v, ok
		}
		name = v.ref
	}
	return varState{dyn: true}, true
}

// refTarget returns the variable a write to name sets: name itself, or
// the variable a nameref points at.
func (w *walker) refTarget(name string) string {
	for range maxRefs {
		v, ok := w.vars[name]
		if !ok || v.ref == "" {
			return name
		}
		name = v.ref
	}
	return name
}

// isIdent reports a shell variable name.
func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

// paramMore computes the parameter expansions param leaves to it:
// ${!v}, ${#x}, ${x/pat/rep}. handled is false for any other form.
func (w *walker) paramMore(pe *syntax.ParamExp) (val string, ok, handled bool) {
	if pe.Param == nil || pe.Index != nil || pe.Slice != nil || pe.Names != 0 || pe.Width || pe.NestedParam != nil || len(pe.Modifiers) > 0 {
		return "", false, false
	}
	plain := *pe
	switch {
	case pe.Excl && pe.Exp == nil && pe.Repl == nil && !pe.Length:
		// ${!v}: the variable v names; ${!ref} of a nameref is its target's name
		if v, known := w.vars[pe.Param.Value]; known && v.ref != "" {
			return v.ref, true, true
		}
		plain.Excl = false
		name, ok := w.param(&plain)
		if !ok || !isIdent(name) && !isDigits(name) {
			return "", false, true
		}
		v, ok := w.param(&syntax.ParamExp{Param: &syntax.Lit{Value: name}})
		return v, ok, true
	case pe.Length && !pe.Excl && pe.Exp == nil && pe.Repl == nil:
		plain.Length = false
		v, ok := w.param(&plain)
		if !ok {
			return "", false, true
		}
		return strconv.Itoa(utf8.RuneCountInString(v)), true, true
	case pe.Repl != nil && !pe.Excl && !pe.Length && pe.Exp == nil:
		plain.Repl = nil
		v, ok := w.param(&plain)
		if !ok {
			return "", false, true
		}
		pat, ok := w.patternText(pe.Repl.Orig)
		if !ok {
			return "", false, true
		}
		with := ""
		if pe.Repl.With != nil {
			fs, err := w.fields(pe.Repl.With, nil)
			if err != nil || len(fs) > 1 || len(fs) == 1 && fs[0].dyn {
				return "", false, true
			}
			if len(fs) == 1 {
				with = fs[0].val
			}
		}
		return shellReplace(v, pat, with, pe.Repl.All), true, true
	}
	return "", false, false
}

// patternText returns a pattern word's text for shellMatch, when it is
// certain: literal parts (without backslashes), quoted parts without glob
// characters (quoted, they would match only themselves), known variables.
func (w *walker) patternText(wd *syntax.Word) (string, bool) {
	if wd == nil {
		return "", true
	}
	var sb strings.Builder
	var walk func(parts []syntax.WordPart, quoted bool) bool
	walk = func(parts []syntax.WordPart, quoted bool) bool {
		for _, p := range parts {
			switch x := p.(type) {
			case *syntax.Lit:
				if strings.Contains(x.Value, `\`) || quoted && strings.ContainsAny(x.Value, "*?[") ||
					strings.Contains(x.Value, "[:") || strings.Contains(x.Value, "[=") || strings.Contains(x.Value, "[.") || strings.Contains(x.Value, "(") {
					return false // classes, equivalence classes and extglobs: shellMatch does not read them
				}
				sb.WriteString(x.Value)
			case *syntax.SglQuoted:
				v := x.Value
				if x.Dollar {
					v = decodeANSIC(v)
				}
				if strings.ContainsAny(v, "*?[") {
					return false
				}
				sb.WriteString(v)
			case *syntax.DblQuoted:
				if !walk(x.Parts, true) {
					return false
				}
			case *syntax.ParamExp:
				v, ok := w.param(x)
				if !ok || quoted && strings.ContainsAny(v, "*?[") {
					return false
				}
				sb.WriteString(v)
			default:
				return false
			}
		}
		return true
	}
	if !walk(wd.Parts, false) {
		return "", false
	}
	return sb.String(), true
}

// shellReplace is ${v/pat/with} (all: ${v//pat/with}); a pattern that
// starts with # or % is anchored at the start or the end. Each match is the
// longest at its place, as in bash.
func shellReplace(v, pat, with string, all bool) string {
	switch {
	case strings.HasPrefix(pat, "#"):
		for i := len(v); i >= 0; i-- {
			if shellMatch(pat[1:], v[:i]) {
				return with + v[i:]
			}
		}
		return v
	case strings.HasPrefix(pat, "%"):
		for i := 0; i <= len(v); i++ {
			if shellMatch(pat[1:], v[i:]) {
				return v[:i] + with
			}
		}
		return v
	}
	if pat == "" {
		return v
	}
	var sb strings.Builder
	for i := 0; i < len(v); {
		end := -1
		for j := len(v); j > i; j-- {
			if shellMatch(pat, v[i:j]) {
				end = j
				break
			}
		}
		if end < 0 {
			sb.WriteByte(v[i])
			i++
			continue
		}
		sb.WriteString(with)
		i = end
		if !all {
			sb.WriteString(v[i:])
			return sb.String()
		}
	}
	return sb.String()
}

// caseChange is ${v^pat}, ${v^^pat}, ${v,pat}, ${v,,pat}: the first or
// every character that matches pat (any, when empty) in upper or lower
// case.
func caseChange(v, pat string, upper, all bool) string {
	if pat == "" {
		pat = "?"
	}
	rs := []rune(v)
	for i, r := range rs {
		if i > 0 && !all {
			break
		}
		if shellMatch(pat, string(r)) {
			if upper {
				rs[i] = unicode.ToUpper(r)
			} else {
				rs[i] = unicode.ToLower(r)
			}
		}
	}
	return string(rs)
}

// withCase gives v the case attribute of declare -l or -u (attr 'l' or
// 'u', or both or'ed together, which guard does not follow): a known value is changed as bash changes it, one outside ASCII
// (where the locale decides) becomes unknown.
func withCase(v varState, attr byte) varState {
	v.caseAttr = attr
	if attr != 'l' && attr != 'u' {
		return varState{dyn: true, caseAttr: attr} // both given
	}
	if v.dyn || v.isList {
		if v.isList {
			v = varState{dyn: true, caseAttr: attr}
		}
		return v
	}
	if !ascii(v.val) {
		return varState{dyn: true, caseAttr: attr}
	}
	v.val = caseChange(v.val, "", attr == 'u', true)
	return v
}

// integerValue is the value an integer variable (declare -i) takes when
// assigned text: the text evaluated as arithmetic. A value that names
// another variable or holds code is not constant; code in it is hidden
// execution.
func (w *walker) integerValue(text string) (string, bool) {
	if strings.ContainsAny(text, "$`[") {
		w.hitDeny("hidden-exec", -1) // x='a[$(id)]' runs id when x is an integer
		return "", false
	}
	x, err := syntax.NewParser().Arithmetic(strings.NewReader(text))
	if err != nil {
		return "", false
	}
	n, ok := constArith(x)
	if !ok {
		return "", false
	}
	return strconv.Itoa(n), true
}

// elemAssign follows NAME[INDEX]=VALUE and NAME+=(…): an element of a
// literal array (or of one not set yet) at a constant index no further
// than its end, and BASH_CMDS/BASH_ALIASES entries, which make a command
// name run something else. It reports whether it took the assignment.
func (w *walker) elemAssign(name string, as *syntax.Assign) bool {
	if as.Array != nil {
		// a+=(x y) on a literal array
		cur, ok := w.lookup(name)
		if !as.Append || as.Index != nil || !ok || !cur.isList {
			return false
		}
		list := append([]string(nil), cur.list...)
		for _, e := range as.Array.Elems {
			if e.Index != nil || e.Value == nil {
				return false
			}
			fs, err := w.fields(e.Value, nil)
			if err != nil {
				return false
			}
			for _, f := range fs {
				if f.dyn {
					return false
				}
				list = append(list, f.val)
			}
		}
		w.setVar(name, varState{val: list[0], list: list, isList: true})
		return true
	}
	if as.Index == nil || as.Append || as.Value == nil {
		return false
	}
	fs, err := w.fields(as.Value, nil)
	if err != nil || len(fs) > 1 || len(fs) == 1 && fs[0].dyn {
		return false
	}
	val := ""
	if len(fs) == 1 {
		val = fs[0].val
	}
	if name == "BASH_CMDS" || name == "BASH_ALIASES" {
		key, ok := as.Index.(*syntax.Word)
		if !ok {
			return false
		}
		kf, err := w.fields(key, nil)
		if err != nil || len(kf) != 1 || kf[0].dyn {
			return false
		}
		w.shadowName(kf[0].val, name, val)
		return true
	}
	n, ok := constArith(as.Index)
	if !ok || n < 0 {
		return false
	}
	cur, set := w.lookup(name)
	var list []string
	switch {
	case !set:
	case cur.isList:
		list = append(list, cur.list...)
	case !cur.dyn && n == 0:
		list = []string{cur.val} // x=a; x[0]=b: a scalar is element 0
	default:
		return false
	}
	if n > len(list) {
		return false // a gap: ${a[@]} skips unset elements, guard does not model them
	}
	if n == len(list) {
		list = append(list, val)
	} else {
		list[n] = val
	}
	w.setVar(name, varState{val: list[0], list: list, isList: true})
	return true
}

// shadowName makes a command name run something else from now on:
// BASH_CMDS[NAME]=PATH (or hash -p PATH NAME) runs PATH for NAME, and
// BASH_ALIASES[NAME]=TEXT is an alias.
func (w *walker) shadowName(name, table, val string) {
	if w.aliases == nil {
		w.aliases = map[string]string{}
	}
	if table == "BASH_CMDS" {
		val = QuoteWord(val)
	}
	w.aliases[name] = val
}

// readInto follows read NAME… fed a literal here-string: the line, split
// by IFS into the names (the last takes the rest), backslashes removed
// unless -r. Options other than -r, -s, -e, -p X, -t X and -a NAME leave
// the names unknown, as the command's own afterCall set them.
func (w *walker) readInto(c int, text string) {
	cm := &w.a.Commands[c]
	if (cm.Name == "mapfile" || cm.Name == "readarray") && cm.Wrap == WrapNone {
		w.mapInto(c, text)
		return
	}
	if cm.Name != "read" || cm.Wrap != WrapNone {
		return
	}
	fs := w.info[c].fields
	raw, array := false, ""
	var names []string
	for i := 1; i < len(fs); i++ {
		f := fs[i]
		if f.dyn {
			return
		}
		switch {
		case f.val == "-r":
			raw = true
		case f.val == "-s" || f.val == "-e" || f.val == "-rs" || f.val == "-sr":
			raw = raw || strings.Contains(f.val, "r")
		case (f.val == "-p" || f.val == "-t") && i+1 < len(fs):
			i++
		case f.val == "-a" && i+1 < len(fs):
			array = fs[i+1].val
			i++
		case f.val == "--":
		case strings.HasPrefix(f.val, "-"):
			return
		default:
			names = append(names, f.val)
		}
	}
	ifs := w.ifs()
	for _, as := range cm.Assigns {
		if v, ok := strings.CutPrefix(as, "IFS="); ok {
			ifs = v
		}
	}
	line, _, _ := strings.Cut(text, "\n")
	if !raw {
		if strings.HasSuffix(line, `\`) {
			return // a continuation: the next line would join
		}
		line = unescapeUnquoted(line)
	}
	white := ""
	for _, r := range ifs {
		if r == ' ' || r == '\t' || r == '\n' {
			white += string(r)
		}
	}
	if white != ifs {
		if len(names) > 1 || array != "" {
			return // a separator that is not white space: not modelled
		}
	}
	line = strings.Trim(line, white)
	if array != "" {
		var list []string
		if white != "" {
			list = strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(white, r) })
		} else {
			list = []string{line}
		}
		first := ""
		if len(list) > 0 {
			first = list[0]
		}
		w.setVar(array, varState{val: first, list: list, isList: true})
		return
	}
	if len(names) == 0 {
		names = []string{"REPLY"}
	}
	for i, n := range names {
		if !isIdent(n) {
			return
		}
		if i == len(names)-1 || white == "" {
			w.setVar(n, varState{val: line})
			line = ""
			continue
		}
		k := strings.IndexAny(line, white)
		if k < 0 {
			w.setVar(n, varState{val: line})
			line = ""
			continue
		}
		w.setVar(n, varState{val: line[:k]})
		line = strings.TrimLeft(line[k:], white)
	}
}

// mapInto follows mapfile (readarray) NAME fed a literal text: one
// element per line, with its newline unless -t. Any option other than -t
// leaves the array unknown, as the command's own afterCall set it.
func (w *walker) mapInto(c int, text string) {
	fs := w.info[c].fields
	trim, name := false, "MAPFILE"
	for i := 1; i < len(fs); i++ {
		switch f := fs[i]; {
		case f.dyn:
			return
		case f.val == "-t":
			trim = true
		case f.val == "--":
		case strings.HasPrefix(f.val, "-"):
			return
		case i != len(fs)-1 || !isIdent(f.val):
			return
		default:
			name = f.val
		}
	}
	var list []string
	for line := range strings.SplitAfterSeq(text, "\n") {
		if line == "" {
			continue
		}
		if trim {
			line = strings.TrimSuffix(line, "\n")
		}
		list = append(list, line)
	}
	first := ""
	if len(list) > 0 {
		first = list[0]
	}
	w.setVar(name, varState{val: first, list: list, isList: true})
}

// pathOutput returns what dirname, basename, realpath, readlink -f and pwd
// print for literal words, and whether it is certain: realpath and
// readlink follow symbolic links guard cannot see, so their answer is only
// a guess for path rules unless it is /.
func (w *walker) pathOutput(i int) (text string, certain, ok bool) {
	c := &w.a.Commands[i]
	for _, d := range c.Dynamic {
		if d {
			return "", false, false
		}
	}
	args := c.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	switch c.Name {
	case "dirname":
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return "", false, false
		}
		out := make([]string, len(args))
		for k, a := range args {
			out[k] = dirname(a)
		}
		return strings.Join(out, "\n"), true, true
	case "basename":
		if len(args) == 0 || len(args) > 2 || strings.HasPrefix(args[0], "-") {
			return "", false, false
		}
		b := strings.TrimRight(args[0], "/")
		if b == "" {
			return "/", true, true
		}
		b = path.Base(b)
		if len(args) == 2 && args[1] != b {
			b = strings.TrimSuffix(b, args[1])
		}
		return b, true, true
	case "realpath", "readlink":
		var ps []string
		follow := c.Name == "realpath"
		for _, a := range args {
			switch {
			case a == "-f" || a == "-e" || a == "-m" || a == "-s" || a == "--canonicalize" || a == "-q":
				follow = true
			case strings.HasPrefix(a, "-"):
				return "", false, false
			default:
				ps = append(ps, a)
			}
		}
		if !follow || len(ps) != 1 {
			return "", false, false
		}
		p := ps[0]
		if !path.IsAbs(p) {
			d, known := w.oneDir()
			if !known {
				return "", false, false
			}
			p = path.Join(d, p)
		}
		p = path.Clean(p)
		return p, p == "/", true
	case "pwd":
		d, known := w.oneDir()
		if !known || len(args) > 1 || len(args) == 1 && args[0] != "-L" && args[0] != "-P" {
			return "", false, false
		}
		// a guess: the shell's idea of its directory ($PWD) may spell it
		// through a link
		return d, false, true
	}
	return "", false, false
}

// dirname is POSIX dirname: trailing slashes go first (dirname a/b/ is a).
func dirname(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" {
		if p == "" {
			return "."
		}
		return "/"
	}
	k := strings.LastIndexByte(t, '/')
	if k < 0 {
		return "."
	}
	d := strings.TrimRight(t[:k], "/")
	if d == "" {
		return "/"
	}
	return d
}

// bashSets are variables bash sets by itself, whatever the environment
// holds: guard never takes one of them for unset.
var bashSets = []string{"PWD", "OLDPWD", "PATH", "IFS", "PS1", "PS2", "PS3", "PS4", "HOME", "SHELL", "SHLVL", "UID", "EUID", "PPID",
	"GROUPS", "HOSTNAME", "HOSTTYPE", "OSTYPE", "MACHTYPE", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "EPOCHSECONDS",
	"EPOCHREALTIME", "HISTCMD", "HISTFILE", "HISTSIZE", "HISTFILESIZE", "REPLY", "OPTARG", "OPTIND", "OPTERR", "MAPFILE", "COPROC",
	"PIPESTATUS", "FUNCNAME", "DIRSTACK", "COLUMNS", "LINES", "MAIL", "MAILCHECK", "TMOUT", "TERM", "POSIXLY_CORRECT",
	"SHELLOPTS", "BASHOPTS", "BASHPID", "CHILD_MAX", "ENV", "_"}

// unsetCertain reports a variable bash will find unset: the caller knows
// the environment the text runs with (Options.EnvNames), the name is not
// in it, bash does not set it itself, and nothing in the text can write it
// (writers scans the whole text once). "$UNSET"/ is then /.
func (w *walker) unsetCertain(name string) bool {
	if w.opt.EnvNames == nil || w.opt.EnvNames[name] || !isIdent(name) || slices.Contains(bashSets, name) ||
		strings.HasPrefix(name, "BASH") || strings.HasPrefix(name, "COMP_") || strings.HasPrefix(name, "GUARD_") {
		return false
	}
	if SecretName(name) {
		// A secret's name is judged by what it names, not by this
		// environment: echo $GITHUB_TOKEN is printing a token wherever it
		// runs (an agent's shell may export what guard's checker lacks),
		// so secret-print sees the word as the expansion it is.
		return false
	}
	if w.written == nil {
		w.written = writers(w.top, w.parser)
	}
	return !w.written["*"] && !w.written[name]
}

// unsetParam reports a parameter (a name or a positional one) that is
// certainly not set where it is read: unset cleared it, the script was
// given fewer parameters, or nothing sets it (unsetCertain). ${x-w} gives
// w then, and ${x+w} nothing; a variable set to "" is not unset.
func (w *walker) unsetParam(name string) bool {
	if v, ok := w.lookup(name); ok {
		return v.unset && !v.dyn
	}
	if isDigits(name) && name != "0" {
		n, err := strconv.Atoi(name)
		return w.pos != nil && err == nil && n >= len(w.pos)
	}
	return w.unsetCertain(name)
}

// writers returns the names the text may write, by any means, with "*"
// when it may write names it does not spell out: source, enable, eval of
// text that is not literal (a literal eval's names are in the text), a
// name-taking builtin given a word that is not literal, a computed
// arithmetic target. A name counts as written wherever it appears bare
// (not right after $ or ${), and in ${NAME=…} and ${NAME:=…}.
func writers(text string, parser *syntax.Parser) map[string]bool {
	out := map[string]bool{}
	if parser == nil {
		parser = syntax.NewParser(syntax.Variant(syntax.LangBash))
	}
	f, err := parser.Parse(strings.NewReader(text), "")
	if err != nil {
		out["*"] = true
		return out
	}
	literal := func(wd *syntax.Word) bool {
		for _, p := range wd.Parts {
			switch p.(type) {
			case *syntax.Lit:
			case *syntax.SglQuoted:
				if p.(*syntax.SglQuoted).Dollar {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				break
			}
			switch x.Args[0].Lit() {
			case "source", ".", "enable", "builtin", "command":
				out["*"] = true
			case "eval", "read", "mapfile", "readarray", "printf", "declare", "typeset", "local", "export", "readonly", "let", "getopts", "unset", "wait":
				for _, a := range x.Args[1:] {
					if !literal(a) {
						out["*"] = true
					}
				}
			}
			if !literal(x.Args[0]) {
				out["*"] = true // a command word computed at run time may be eval
			}
		case *syntax.DeclClause:
			for _, as := range x.Args {
				if as.Naked && as.Value != nil && !literal(as.Value) {
					out["*"] = true
				}
			}
		case *syntax.LetClause:
			for _, e := range x.Exprs {
				if wd, ok := e.(*syntax.Word); ok && !literal(wd) {
					out["*"] = true // let "$v=1": a name computed at run time
				}
			}
		case *syntax.BinaryArithm:
			if x.Op == syntax.Assgn || x.Op >= syntax.AddAssgn && x.Op <= syntax.ShrAssgn {
				if wd, ok := x.X.(*syntax.Word); !ok || !literal(wd) {
					out["*"] = true
				}
			}
		case *syntax.ParamExp:
			if x.Param != nil && x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
				out[x.Param.Value] = true
			}
		}
		return true
	})
	// every bare occurrence of a name: X=, read X, for X, {X}>, a[X]…
	for i := 0; i < len(text); {
		if !isIdentByte(text[i]) || text[i] >= '0' && text[i] <= '9' {
			i++
			continue
		}
		j := i
		for j < len(text) && isIdentByte(text[j]) {
			j++
		}
		ref := i > 0 && text[i-1] == '$' || i > 1 && text[i-1] == '{' && text[i-2] == '$' || i > 2 && text[i-1] == '!' && text[i-2] == '{' && text[i-3] == '$'
		if !ref && (i == 0 || !isIdentByte(text[i-1])) {
			out[text[i:j]] = true
		}
		i = j
	}
	return out
}

// ascii reports a string of ASCII bytes only.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// printfValue returns what bash's printf FORMAT ARGS prints, and whether
// guard can say it for certain: %s, %b, %c, %d and %i with their flags,
// width and precision, %%, and the format used again while arguments
// remain (printf -v x %c /tmp sets x to /, printf %.1s /tmp prints /).
// Any other directive, a '*' width, or an escape that spells a '%' (bash
// prints it, it is no directive) leaves the value unknown.
func printfValue(format string, args []string) (string, bool) {
	if strings.Contains(format, `\`) {
		d := decodeANSIC(format)
		if strings.Count(d, "%") != strings.Count(format, "%") || strings.Contains(format, `\c`) {
			return "", false
		}
		format = d
	}
	var sb strings.Builder
	next := 0
	for {
		used := false
		for i := 0; i < len(format); i++ {
			ch := format[i]
			if ch != '%' {
				sb.WriteByte(ch)
				continue
			}
			i++
			if i < len(format) && format[i] == '%' {
				sb.WriteByte('%')
				continue
			}
			left := false
			for i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0 {
				if format[i] != '-' {
					return "", false // sign and zero padding: rare, not modelled
				}
				left = true
				i++
			}
			width, prec := 0, -1
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				width = width*10 + int(format[i]-'0')
				i++
			}
			if i < len(format) && format[i] == '.' {
				prec = 0
				i++
				for i < len(format) && format[i] >= '0' && format[i] <= '9' {
					prec = prec*10 + int(format[i]-'0')
					i++
				}
			}
			if i >= len(format) || width > 4096 {
				return "", false
			}
			arg, have := "", next < len(args)
			if have {
				arg = args[next]
				next++
				used = true
			}
			var s string
			switch format[i] {
			case 's':
				s = arg
			case 'b':
				if strings.Contains(arg, `\c`) || strings.ContainsAny(arg, `\`) && backslashDigit(arg) {
					return "", false // %b's octal is \0NNN, not $'…''s \NNN
				}
				s = decodeANSIC(arg)
			case 'c':
				if arg != "" {
					if arg[0] >= 0x80 {
						return "", false // a multibyte character: the locale decides
					}
					s = arg[:1]
				}
			case 'd', 'i':
				if !have || arg == "" {
					s = "0"
					break
				}
				n, err := strconv.ParseInt(arg, 10, 64)
				if err != nil || strings.HasPrefix(arg, "0") && len(arg) > 1 {
					return "", false // octal, hex, 'c: bash's own reading
				}
				s = strconv.FormatInt(n, 10)
				prec = -1
			default:
				return "", false
			}
			if prec >= 0 && prec < len(s) {
				s = s[:prec]
			}
			pad := strings.Repeat(" ", max(0, width-len(s)))
			if left {
				s += pad
			} else {
				s = pad + s
			}
			sb.WriteString(s)
		}
		if !used || next >= len(args) {
			break
		}
	}
	return sb.String(), true
}

// backslashDigit reports a backslash followed by a digit.
func backslashDigit(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' && s[i+1] >= '0' && s[i+1] <= '9' {
			return true
		}
	}
	return false
}

// cdPwd returns what $(cd DIR && pwd) and $(cd DIR; pwd) print for a
// literal absolute DIR: bash's logical path, DIR with . and .. folded.
// It is certain after && (pwd prints DIR or nothing runs; -P, which
// follows links, only for /), and after ; only for /, the one directory
// cd cannot fail to enter.
func cdPwd(stmts []*syntax.Stmt) (string, bool, bool) {
	var cd, pwd *syntax.Stmt
	and := false
	switch {
	case len(stmts) == 1:
		b, ok := stmts[0].Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.AndStmt || len(stmts[0].Redirs) > 0 {
			return "", false, false
		}
		cd, pwd, and = b.X, b.Y, true
	case len(stmts) == 2:
		cd, pwd = stmts[0], stmts[1]
	default:
		return "", false, false
	}
	words := func(st *syntax.Stmt) []string {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(call.Assigns) > 0 {
			return nil
		}
		var out []string
		for _, wd := range call.Args {
			v, ok := literalWord(wd)
			if !ok {
				return nil
			}
			out = append(out, v)
		}
		return out
	}
	cw, pw := words(cd), words(pwd)
	if len(cw) < 2 || cw[0] != "cd" || len(pw) == 0 || pw[0] != "pwd" || len(pw) > 2 {
		return "", false, false
	}
	physical := len(pw) == 2 && pw[1] == "-P"
	if len(pw) == 2 && pw[1] != "-P" && pw[1] != "-L" {
		return "", false, false
	}
	args := cw[1:]
	for len(args) > 1 && (args[0] == "-P" || args[0] == "-L" || args[0] == "--") {
		physical = physical || args[0] == "-P"
		args = args[1:]
	}
	if len(args) != 1 || !path.IsAbs(args[0]) {
		return "", false, false
	}
	d := path.Clean(args[0])
	return d, d == "/" || and && !physical, true
}

// declareAssoc makes name an associative array (declare -A), empty unless
// it is one already.
func (w *walker) declareAssoc(name string) {
	if cur, ok := w.lookup(name); ok && cur.isAssoc {
		return
	}
	w.setVar(name, varState{isAssoc: true, assoc: map[string]string{}})
}

// assocAssign follows a=([k]=v …), a+=([k]=v) and a[k]=v on an
// associative array, for literal keys and values; it reports whether it
// could.
func (w *walker) assocAssign(name string, cur varState, as *syntax.Assign) bool {
	m := map[string]string{}
	if as.Array == nil || as.Append {
		for k, v := range cur.assoc {
			m[k] = v
		}
	}
	value := func(wd *syntax.Word) (string, bool) {
		if wd == nil {
			return "", true
		}
		fs, err := w.fields(wd, nil)
		if err != nil || len(fs) > 1 || len(fs) == 1 && fs[0].dyn {
			return "", false
		}
		if len(fs) == 0 {
			return "", true
		}
		return fs[0].val, true
	}
	set := func(idx syntax.ArithmExpr, wd *syntax.Word, add bool) bool {
		k, ok := assocKey(idx)
		if !ok {
			return false
		}
		v, ok := value(wd)
		if !ok {
			return false
		}
		if add {
			v = m[k] + v
		}
		m[k] = v
		return true
	}
	if as.Array != nil {
		for _, e := range as.Array.Elems {
			if e.Index == nil || !set(e.Index, e.Value, false) {
				return false // a=(k v …) pairs: not followed
			}
		}
	} else if !set(as.Index, as.Value, as.Append) {
		return false
	}
	if len(m) > 256 {
		return false
	}
	w.setVar(name, varState{isAssoc: true, assoc: m, val: m["0"]})
	return true
}

// assocKey returns a literal subscript of an associative array: [k],
// ["k"], ['k'].
func assocKey(idx syntax.ArithmExpr) (string, bool) {
	wd, ok := idx.(*syntax.Word)
	if !ok {
		return "", false
	}
	return literalWord(wd)
}

// assocElem is ${a[k]} of an associative array guard followed: the
// element, empty when the key is not set; ${a[@]} only when the order
// cannot matter (one element at most).
func assocElem(v varState, pe *syntax.ParamExp) (string, bool) {
	if pe.Excl || pe.Length || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil {
		return "", false
	}
	k, ok := assocKey(pe.Index)
	if !ok {
		return "", false
	}
	if k == "@" || k == "*" {
		if len(v.assoc) > 1 {
			return "", false
		}
		for _, e := range v.assoc {
			return e, true
		}
		return "", true
	}
	return v.assoc[k], true
}
