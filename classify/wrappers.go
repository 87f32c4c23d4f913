package classify

import (
	"slices"
	"strings"
)

// grammar describes a wrapper's own options, so that guard finds where the
// wrapped command starts (timeout -s KILL 5 rm → rm).
type grammar struct {
	argShort string   // short options that take the next word (or the rest of the cluster)
	optShort string   // short options whose argument, if any, is attached (xargs -i{})
	argLong  []string // long options that take the next word when not written --opt=value
	operands int      // words between the options and the wrapped command (timeout's duration)
	noExec   string   // short options that mean no command is run (command -v, taskset -p)
	noExecL  []string // long options that mean the same
}

// wrapper is one entry of the wrapper table.
type wrapper struct {
	name string // the command word
	kind Wrap
	g    grammar
}

// wrappers is the table of commands that run other commands. Each is judged
// by what it runs; the entries here say how to find it. The table is sorted
// by name for lookupWrapper's binary search (TestWrappersSorted): unlike a
// map, a slice literal is laid out by the compiler, with no init code to
// run in every guard process.
var wrappers = []wrapper{
	{name: "builtin", kind: WrapTransparent},
	{name: "busybox", kind: WrapTransparent},
	{name: "caffeinate", kind: WrapTransparent, g: grammar{argShort: "tw"}},
	{name: "catchsegv", kind: WrapTransparent},
	{name: "cgexec", kind: WrapTransparent, g: grammar{argShort: "g"}},
	{name: "chronic", kind: WrapTransparent},
	{name: "chroot", kind: WrapTransparent, g: grammar{argLong: []string{"userspec", "groups"}, operands: 1}},
	{name: "chrt", kind: WrapTransparent, g: grammar{operands: 1, noExec: "p", noExecL: []string{"pid"}}},
	{name: "command", kind: WrapTransparent, g: grammar{noExec: "vV"}},
	{name: "cpulimit", kind: WrapTransparent, g: grammar{argShort: "lpe", noExec: "pe", noExecL: []string{"pid", "exe"}}},
	{name: "dbus-launch", kind: WrapTransparent},
	{name: "dbus-run-session", kind: WrapTransparent},
	{name: "direnv", kind: WrapTransparent},
	{name: "doas", kind: WrapTransparent, g: grammar{argShort: "uC"}},
	{name: "eatmydata", kind: WrapTransparent},
	{name: "exec", kind: WrapTransparent, g: grammar{argShort: "a"}},
	{name: "fakeroot", kind: WrapTransparent, g: grammar{argShort: "lsi", argLong: []string{"lib", "faked"}}},
	{name: "faketime", kind: WrapTransparent, g: grammar{argShort: "m", operands: 1}},
	{name: "firejail", kind: WrapTransparent},
	{name: "ifne", kind: WrapTransparent},
	{name: "ionice", kind: WrapTransparent, g: grammar{argShort: "cnpPu", argLong: []string{"class", "classdata", "pid", "pgid", "uid"}, noExec: "pPu", noExecL: []string{"pid", "pgid", "uid"}}},
	{name: "linux32", kind: WrapTransparent},
	{name: "linux64", kind: WrapTransparent},
	{name: "ltrace", kind: WrapTransparent, g: grammar{argShort: "aAeEDlLnoOpsSuxX", argLong: []string{"output"}}},
	{name: "nice", kind: WrapTransparent, g: grammar{argShort: "n", argLong: []string{"adjustment"}}},
	{name: "nocache", kind: WrapTransparent},
	{name: "nohup", kind: WrapTransparent},
	{name: "nsenter", kind: WrapTransparent, g: grammar{argShort: "tSGZ", optShort: "muinpUCTrw", argLong: []string{"target", "setuid", "setgid", "user-parent", "env"}}},
	{name: "numactl", kind: WrapTransparent, g: grammar{argShort: "CNmpiP", noExec: "sH", noExecL: []string{"show", "hardware"}}},
	{name: "pkexec", kind: WrapTransparent, g: grammar{argLong: []string{"user"}}},
	{name: "prlimit", kind: WrapTransparent, g: grammar{noExec: "p", noExecL: []string{"pid"}}},
	{name: "proxychains", kind: WrapTransparent, g: grammar{argShort: "f"}},
	{name: "proxychains4", kind: WrapTransparent, g: grammar{argShort: "f"}},
	{name: "run0", kind: WrapTransparent, g: grammar{argShort: "uDg", argLong: []string{"user", "group", "chdir", "property", "slice", "unit", "description", "setenv", "nice", "background", "machine"}}},
	{name: "runcon", kind: WrapTransparent, g: grammar{argShort: "turl"}},
	{name: "screen", kind: WrapTransparent, g: grammar{argShort: "SchpTeL", noExec: "XrRlsx", noExecL: []string{"list", "version"}}},
	{name: "setarch", kind: WrapTransparent, g: grammar{operands: 1}},
	{name: "setsid", kind: WrapTransparent},
	{name: "stdbuf", kind: WrapTransparent, g: grammar{argShort: "ioe", argLong: []string{"input", "output", "error"}}},
	{name: "strace", kind: WrapTransparent, g: grammar{argShort: "abeEIoOpPsSuUX", argLong: []string{"output", "trace", "signal", "attach"}}},
	{name: "sudo", kind: WrapTransparent, g: grammar{argShort: "CDghpRrtTUu", argLong: []string{"close-from", "chdir", "group", "host", "prompt", "chroot", "role", "type", "command-timeout", "other-user", "user"}, noExec: "lvVkK"}},
	{name: "systemd-inhibit", kind: WrapTransparent},
	{name: "systemd-run", kind: WrapTransparent, g: grammar{argShort: "pEM"}},
	{name: "taskset", kind: WrapTransparent, g: grammar{operands: 1, noExec: "p", noExecL: []string{"pid"}}},
	{name: "time", kind: WrapTransparent, g: grammar{argShort: "fo", argLong: []string{"format", "output"}}},
	{name: "timeout", kind: WrapTransparent, g: grammar{argShort: "sk", argLong: []string{"signal", "kill-after"}, operands: 1}},
	{name: "tini", kind: WrapTransparent, g: grammar{argShort: "pe"}},
	{name: "torsocks", kind: WrapTransparent, g: grammar{argShort: "uapP"}},
	{name: "toybox", kind: WrapTransparent},
	{name: "trickle", kind: WrapTransparent, g: grammar{argShort: "duwtlnL"}},
	{name: "tsocks", kind: WrapTransparent},
	{name: "unbuffer", kind: WrapTransparent},
	{name: "unshare", kind: WrapTransparent},
	{name: "valgrind", kind: WrapTransparent},
	{name: "xvfb-run", kind: WrapTransparent, g: grammar{argShort: "nfespw", argLong: []string{"server-num", "auth-file", "error-file", "server-args", "xauth-protocol", "wait"}}},
}

// lookupWrapper returns the wrapper table's entry for a command word, nil
// if it has none. The binary search is written out: slices.BinarySearchFunc
// would copy each entry it looks at.
func lookupWrapper(name string) *wrapper {
	lo, hi := 0, len(wrappers)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if wrappers[m].name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(wrappers) && wrappers[lo].name == name {
		return &wrappers[lo]
	}
	return nil
}

// customWrapper returns the handler of a wrapper whose grammar is not just
// options then a command (shells, env, find, xargs …).
func customWrapper(name string) func(*walker, int, []field) {
	switch name {
	case "env":
		return (*walker).wrapEnv
	case "su", "runuser":
		return (*walker).wrapSu
	case "sg":
		return (*walker).wrapSg
	case "script":
		return (*walker).wrapScript
	case "flock":
		return (*walker).wrapFlock
	case "watch":
		return (*walker).wrapWatch
	case "convert", "magick", "mogrify", "montage", "composite", "identify", "compare", "conjure", "stream", "display", "animate", "import":
		return (*walker).wrapMagick
	case "xargs":
		return (*walker).wrapXargs
	case "parallel":
		return (*walker).wrapParallel
	case "find":
		return (*walker).wrapFind
	case "eval":
		return (*walker).wrapEval
	case "trap":
		return (*walker).wrapTrap
	case "at", "batch", "crontab":
		return (*walker).wrapScheduler
	case "uv", "poetry", "pipenv", "conda", "pdm", "rye", "hatch", "bundle", "mise", "asdf", "opam", "stack", "direnv", "nix", "rustup", "pixi", "gem":
		return (*walker).wrapRunner
	case "tmux":
		return (*walker).wrapTmux
	case "bwrap", "bubblewrap":
		return (*walker).wrapBwrap
	case "git":
		return (*walker).wrapGit
	case "sed", "gsed":
		return (*walker).wrapSed
	case "awk", "gawk", "mawk", "nawk", "busybox-awk":
		return (*walker).wrapAwk
	case "nix-shell":
		return (*walker).wrapNixShell
	case "source", ".":
		return (*walker).wrapSource
	case "guard", "guard-cli":
		return (*walker).wrapGuard
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "rbash", "yash", "posh", "ksh93", "oksh", "loksh", "bosh", "hush":
		return (*walker).wrapShell
	}
	return nil
}

// interpreters run a program given as text with one of their options
// (python -c); guard cannot judge that text, so the command is opaque.
// The result is the interpreter's short options that take program text.
func interpreters(name string) (opts string, ok bool) {
	switch name {
	case "python", "python2", "python3", "pypy", "pypy3":
		return "c", true
	case "node", "nodejs":
		return "ep", true
	case "bun", "ruby", "lua", "luajit", "Rscript", "osascript":
		return "e", true
	case "perl":
		return "eE", true
	case "php":
		return "rR", true
	case "pwsh", "powershell":
		return "cC", true
	case "deno", "tclsh", "awk", "jshell":
		return "", true
	// interpreters under other names: REPLs and language runtimes that
	// evaluate an argument (-e/-c, or --eval, which every entry takes)
	case "ipython", "ipython3", "guile", "jython", "bpython", "ptpython":
		return "c", true
	case "R", "ts-node", "tsx", "groovy", "elixir", "iex", "bb", "gnuplot", "dc", "racket", "julia", "jruby", "raku", "perl6", "rakudo",
		"ghci", "clojure", "clj", "scala", "erl", "sbcl", "octave", "node-ts", "esno", "esr", "swipl", "gforth", "pike", "rexx", "regina":
		return "e", true
	case "escript", "runghc", "runhaskell", "php-cgi", "hhvm", "zx", "wish", "expectk", "ksh93":
		return "", true
	}
	return "", false
}

// interpreterName reports an interpreter by its name, or under a
// versioned spelling of it: python3.12, perl5.36.0, node18, ruby3.1,
// php8.2, lua5.4 (the base name, then digits and dots).
func interpreterName(name string) (string, bool) {
	if opts, ok := interpreters(name); ok {
		return opts, true
	}
	if base := UnversionedName(name); base != name {
		return interpreters(base)
	}
	return "", false
}

// Interpreter reports whether name runs a program given as its
// arguments' text or file (python, node, ruby, R, ipython, …), under any
// versioned spelling.
func Interpreter(name string) bool {
	if name == "awk" {
		return false // its program is typed (the awk spec) and judged by what it does
	}
	_, ok := interpreterName(name)
	return ok
}

// UnversionedName strips a version from a program's name: the digits and
// dots at its end, and a "-" before them (python3.11 → python, node18 →
// node, perl5.36.0 → perl, python-3.12 → python). A name with no version,
// or nothing but one, comes back unchanged.
func UnversionedName(name string) string {
	i := len(name)
	for i > 0 && (name[i-1] >= '0' && name[i-1] <= '9' || name[i-1] == '.') {
		i--
	}
	if i == len(name) || i == 0 || strings.Trim(name[i:], ".") == "" {
		return name
	}
	base := strings.TrimSuffix(name[:i], "-")
	if base == "" {
		return name
	}
	return base
}

// unwrap finds what command c runs, if it is a wrapper, shell or interpreter.
func (w *walker) unwrap(c int) {
	cm := &w.a.Commands[c]
	if cm.Dynamic[0] || w.fail != "" {
		return
	}
	fs := w.info[c].fields
	name := cm.Name
	if name == "env" || name == "export" || name == "declare" || name == "typeset" || name == "local" || name == "readonly" {
		for _, f := range fs[1:] {
			if !f.dyn && strings.Contains(f.val, "=") {
				w.envAssign(c, f.val)
			}
		}
	}
	if custom := customWrapper(name); custom != nil {
		custom(w, c, fs)
		if name != "find" && w.a.Commands[c].Wrap == WrapNone {
			w.programValues(c)
		}
		if name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" {
			w.scriptCalls(c) // "cmd" | getline: wrapAwk judges system() and print | "cmd"
		}
		return
	}
	if wr := lookupWrapper(name); wr != nil {
		start, ok := skipOptions(fs, 1, wr.g)
		if !ok || start >= len(fs) {
			return
		}
		w.a.Commands[c].Wrap = wr.kind
		w.a.Commands[c].InnerStart = start
		w.innerCommand(c, fs[start:], name)
		return
	}
	if opts, ok := interpreterName(name); ok {
		w.interpreter(c, fs, opts)
		w.scriptCalls(c)
		return
	}
	w.programValues(c)
	w.scriptCalls(c)
}

// skipOptions returns the index of the wrapped command in fs, starting at
// i, per the grammar. ok is false when an option says nothing is run.
func skipOptions(fs []field, i int, g grammar) (int, bool) {
	for i < len(fs) {
		f := fs[i]
		a := f.val
		if f.dyn || a == "-" || !strings.HasPrefix(a, "-") {
			break
		}
		if a == "--" {
			i++
			break
		}
		if strings.HasPrefix(a, "--") {
			name, _, hasVal := strings.Cut(a[2:], "=")
			for _, l := range g.noExecL {
				if l == name {
					return i, false
				}
			}
			i++
			if !hasVal && contains(g.argLong, name) {
				i++
			}
			continue
		}
		i++
		for k := 1; k < len(a); k++ {
			ch := a[k]
			if strings.IndexByte(g.noExec, ch) >= 0 {
				return i, false
			}
			if strings.IndexByte(g.argShort, ch) >= 0 {
				if k == len(a)-1 {
					i++ // the argument is the next word
				}
				break
			}
			if strings.IndexByte(g.optShort, ch) >= 0 {
				break
			}
		}
	}
	for n := 0; n < g.operands && i < len(fs); n++ {
		i++
	}
	return min(i, len(fs)), true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (w *walker) transparent(c, start int, where string) {
	fs := w.info[c].fields
	if start >= len(fs) {
		return
	}
	w.a.Commands[c].Wrap = WrapTransparent
	w.a.Commands[c].InnerStart = start
	w.innerCommand(c, fs[start:], where)
}

func (w *walker) generated(c, start int, inner []field, where string) int {
	if len(inner) == 0 {
		return -1
	}
	w.a.Commands[c].Wrap = WrapGenerated
	w.a.Commands[c].InnerStart = start
	return w.innerCommand(c, inner, where)
}

// wrapEnv: env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=value]… [COMMAND [ARG]…]
func (w *walker) wrapEnv(c int, fs []field) {
	i := 1
	var dir *field
	cloned := false
	for i < len(fs) {
		f := fs[i]
		a := f.val
		if f.dyn {
			break
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte("i0v", a[1]) >= 0 && a != "-iv" && a != "-vi" {
			// a bundle (getopt): -iu NAME is -i -u NAME, -iC/ is -i -C/
			if !cloned {
				fs, cloned = slices.Clone(fs), true
			}
			fs[i].val = "-" + a[2:]
			fs[i].pat = fs[i].val
			continue
		}
		switch {
		case a == "--":
			i++
			continue
		case a == "-i" || a == "-" || a == "-0" || a == "-v" || a == "--null" || a == "--ignore-environment" || a == "--debug" || a == "-iv" || a == "-vi":
			i++
			continue
		case a == "-u" || a == "--unset":
			if i+1 < len(fs) && strings.HasPrefix(fs[i+1].val, "GUARD_") {
				w.hitDeny("guard-self", c)
			}
			i += 2
			continue
		case strings.HasPrefix(a, "--unset=") || strings.HasPrefix(a, "-u"):
			if strings.Contains(a, "GUARD_") {
				w.hitDeny("guard-self", c)
			}
			i++
			continue
		case a == "-C" || a == "--chdir":
			if i+1 < len(fs) {
				dir = &fs[i+1]
			}
			i += 2
			continue
		case strings.HasPrefix(a, "--chdir=") || strings.HasPrefix(a, "-C"):
			d := fs[i]
			d.val = strings.TrimPrefix(strings.TrimPrefix(a, "--chdir="), "-C")
			d.pat = d.val
			dir = &d
			i++
			continue
		case a == "-S" || a == "--split-string" || strings.HasPrefix(a, "-S") || strings.HasPrefix(a, "--split-string="):
			script := ""
			rest := i + 1
			switch {
			case a == "-S" || a == "--split-string":
				if i+1 < len(fs) {
					script = fs[i+1].val
				}
				rest = i + 2
			case strings.HasPrefix(a, "--split-string="):
				script = strings.TrimPrefix(a, "--split-string=")
			default:
				script = a[2:]
			}
			for _, f := range fs[min(rest, len(fs)):] {
				script += " " + QuoteWord(f.val)
			}
			w.nestedScript(c, script, "env -S")
			return
		case strings.HasPrefix(a, "-"):
			i++
			continue
		case strings.Contains(a, "=") && !strings.HasPrefix(a, "="):
			if strings.HasPrefix(a, "GUARD_") {
				w.hitDeny("guard-self", c)
			}
			i++
			continue
		}
		break
	}
	if i >= len(fs) {
		return
	}
	if dir != nil {
		saved := w.dirs
		w.changeDir([]field{*dir})
		w.transparent(c, i, "env")
		w.dirs = saved
		return
	}
	w.transparent(c, i, "env")
}

// QuoteWord quotes a word for bash: plain words stay as they are, others
// are single-quoted. Text shown to a human to paste uses it too.
func QuoteWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// wrapShell: sh|bash|zsh|… [options] [-c STRING [ARG0 [ARG]…]] [FILE [ARG]…]
func (w *walker) wrapShell(c int, fs []field) {
	i := 1
	haveC, haveS := false, false
	for i < len(fs) {
		f := fs[i]
		a := f.val
		if f.dyn || a == "-" || a == "--" || (!strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+")) {
			if a == "--" || a == "-" {
				i++
			}
			break
		}
		i++
		if strings.HasPrefix(a, "--") {
			if a == "--rcfile" || a == "--init-file" || strings.HasPrefix(a, "--rcfile=") || strings.HasPrefix(a, "--init-file=") {
				// an interactive shell runs that file first: a program
				// guard cannot see
				w.a.Commands[c].Opaque = true
				if !strings.Contains(a, "=") {
					i++
				}
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			switch a[k] {
			case 'c':
				haveC = true
			case 's':
				haveS = true
			case 'o', 'O':
				if k == len(a)-1 {
					i++
				}
				k = len(a)
			}
		}
	}
	switch {
	case haveC:
		if i >= len(fs) {
			// xargs sh -c: the script is an argument guard cannot see
			w.info[c].readStdin = true
			w.a.Commands[c].Wrap = WrapShell
			w.a.Commands[c].Opaque = true
			return
		}
		w.a.Commands[c].Wrap = WrapShell
		w.a.Commands[c].InnerStart = i
		// The words after the script are its $0 $1 …: a new shell's
		// parameters, unknown if any of them is.
		pos := []string{w.a.Commands[c].Name}
		if i+1 < len(fs) {
			pos = pos[:0]
			for _, f := range fs[i+1:] {
				if f.dyn {
					pos = nil
					break
				}
				pos = append(pos, f.val)
			}
		}
		w.nextPos = &pos
		w.shellText(c, fs[i], w.a.Commands[c].Name+" -c")
		w.nextPos = nil
	case haveS || i >= len(fs) || isStdinPath(fs[i].val):
		// It runs whatever arrives on stdin: unless that is literal text
		// guard reads too, nothing about the script is known.
		w.info[c].readStdin = true
		w.a.Commands[c].Wrap = WrapShell
		w.a.Commands[c].Opaque = true
	default:
		// bash script.sh: a program guard cannot see into, unless the file
		// is a process substitution printing literal text: bash <(echo …)
		w.procSubstScript(c, fs[i])
	}
}

// wrapGuard: guard is a shell too. guard -c TEXT (and the forms bash
// takes), guard FILE and guard exec [--timeout D] [--no-cache] -- PROG
// ARGS run what they are given, judged as sh -c and as a transparent
// wrapper are; its management verbs run nothing (guard-self and the
// read-only set judge them).
func (w *walker) wrapGuard(c int, fs []field) {
	if len(fs) < 2 {
		return
	}
	a := fs[1].val
	switch {
	case fs[1].dyn:
		w.a.Commands[c].Opaque = true // a verb or a script guard cannot read
	case a == "exec":
		i := 2
		for i < len(fs) && !fs[i].dyn && strings.HasPrefix(fs[i].val, "-") {
			v := fs[i].val
			i++
			if v == "--" {
				break
			}
			if v == "--timeout" {
				i++
			}
		}
		w.transparent(c, i, "guard exec")
	case a == "__confine":
		w.wrapConfineStage(c, fs)
	case strings.HasPrefix(a, "-") && a != "--help" && a != "--version" || strings.HasPrefix(a, "+"),
		strings.Contains(a, "/") || strings.HasSuffix(a, ".sh"):
		w.wrapShell(c, fs)
	}
}

// wrapConfineStage: guard __confine FD PATH ARGV… is guard's own
// confining stage (shim/confine_userns.go): it execs PATH, with no search of
// $PATH, as ARGV. What runs is PATH with ARGV's arguments, so that is the
// command judged. A name in ARGV[0] other than PATH's own (a multi-call
// program such as busybox runs the tool it is called as), a PATH with no
// slash (the stage would run it from the working directory) or a word
// guard cannot read leaves it opaque: asked.
func (w *walker) wrapConfineStage(c int, fs []field) {
	if len(fs) < 5 {
		w.a.Commands[c].Opaque = true
		return
	}
	fd, path, argv0 := fs[2], fs[3], fs[4]
	digits := fd.val != "" && strings.Trim(fd.val, "0123456789") == ""
	base := path.val[strings.LastIndexByte(path.val, '/')+1:]
	if fd.dyn || !digits || path.dyn || argv0.dyn || !strings.Contains(path.val, "/") || base == "" ||
		(argv0.val != path.val && argv0.val != base) {
		w.a.Commands[c].Opaque = true
	}
	inner := append([]field{path}, fs[5:]...)
	w.a.Commands[c].Wrap = WrapTransparent
	w.innerCommand(c, inner, "guard's confining stage")
}

// procSubstScript judges the text a <(…) operand prints, when it is
// literal, as the script a shell or source runs.
func (w *walker) procSubstScript(c int, f field) {
	if !f.dyn || !strings.HasPrefix(f.val, "<(") || len(w.info[c].substCmds) == 0 {
		return
	}
	first := w.info[c].substCmds[0]
	if text, ok := w.literalOutput(w.effective(first)); ok {
		w.nestedScript(c, text, "process substitution run by "+w.a.Commands[c].Name)
	}
}

// shellText walks the script a shell is given as one word.
func (w *walker) shellText(c int, f field, where string) {
	if !f.dyn {
		w.nestedScript(c, f.val, where)
		return
	}
	// A script built at run time: judge the text as written (without its
	// outer quotes); what it expands to is unknown, so guard asks.
	w.a.Commands[c].Wrap = WrapShell
	text := f.val
	if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
		text = text[1 : len(text)-1]
	}
	w.nested(c, text, where, false)
	w.a.Commands[c].Opaque = true
}

// wrapEval: eval ARG… joins its arguments and runs them as a script.
func (w *walker) wrapEval(c int, fs []field) {
	if len(fs) < 2 {
		return
	}
	parts := make([]string, 0, len(fs)-1)
	dyn := false
	for _, f := range fs[1:] {
		parts = append(parts, f.val)
		dyn = dyn || f.dyn
	}
	w.a.Commands[c].Wrap = WrapShell
	w.a.Commands[c].InnerStart = 1
	w.shellText(c, field{val: strings.Join(parts, " "), dyn: dyn}, "eval")
}

// wrapSu: su [options] [-c COMMAND] [USER]; runuser also takes -u USER COMMAND.
func (w *walker) wrapSu(c int, fs []field) {
	for i := 1; i < len(fs); i++ {
		a := fs[i].val
		switch {
		case (a == "-c" || a == "--command" || a == "--session-command") && i+1 < len(fs):
			w.a.Commands[c].Wrap = WrapShell
			w.a.Commands[c].InnerStart = i + 1
			w.shellText(c, fs[i+1], w.a.Commands[c].Name+" -c")
			return
		case strings.HasPrefix(a, "--command="):
			f := fs[i]
			f.val = strings.TrimPrefix(a, "--command=")
			w.shellText(c, f, w.a.Commands[c].Name+" -c")
			return
		case a == "-u" && w.a.Commands[c].Name == "runuser" && i+2 < len(fs):
			start, _ := skipOptions(fs, i+2, grammar{})
			w.transparent(c, start, "runuser")
			return
		}
	}
}

// wrapSg: sg GROUP [-c] COMMAND-STRING
func (w *walker) wrapSg(c int, fs []field) {
	i := 1
	if i < len(fs) && fs[i].val == "-" {
		i++
	}
	i++ // the group
	if i < len(fs) && fs[i].val == "-c" {
		i++
	}
	if i < len(fs) {
		w.a.Commands[c].Wrap = WrapShell
		w.a.Commands[c].InnerStart = i
		w.shellText(c, fs[i], "sg")
	}
}

// wrapScript: script [options] [-c COMMAND] [FILE]
func (w *walker) wrapScript(c int, fs []field) {
	for _, wd := range w.words(c).Words {
		if wd.Name == "command" && wd.Arg < len(fs) {
			w.a.Commands[c].Wrap = WrapShell
			w.a.Commands[c].InnerStart = wd.Arg
			w.shellText(c, w.valueField(c, wd), "script -c")
			return
		}
	}
}

// wrapFlock: flock [options] FILE|DIR COMMAND [ARG]… | flock [options] FILE -c COMMAND
func (w *walker) wrapFlock(c int, fs []field) {
	g := grammar{argShort: "wE", argLong: []string{"timeout", "wait", "conflict-exit-code"}}
	for i := 1; i+1 < len(fs); i++ {
		if fs[i].val == "-c" || fs[i].val == "--command" {
			w.a.Commands[c].Wrap = WrapShell
			w.a.Commands[c].InnerStart = i + 1
			w.shellText(c, fs[i+1], "flock -c")
			return
		}
	}
	start, ok := skipOptions(fs, 1, g)
	if !ok || start >= len(fs) {
		return
	}
	start++ // the lock file
	start, _ = skipOptions(fs, start, g)
	w.transparent(c, start, "flock")
}

// wrapWatch: watch [options] COMMAND… runs the words joined, through sh -c
// (or directly with -x).
func (w *walker) wrapWatch(c int, fs []field) {
	g := grammar{argShort: "nq", argLong: []string{"interval", "equexit"}}
	start, ok := skipOptions(fs, 1, g)
	if !ok || start >= len(fs) {
		return
	}
	for _, f := range fs[1:start] {
		if f.val == "-x" || f.val == "--exec" {
			w.transparent(c, start, "watch")
			return
		}
	}
	parts := make([]string, 0, len(fs)-start)
	dyn := false
	for _, f := range fs[start:] {
		parts = append(parts, f.val)
		dyn = dyn || f.dyn
	}
	w.a.Commands[c].Wrap = WrapShell
	w.a.Commands[c].InnerStart = start
	w.shellText(c, field{val: strings.Join(parts, " "), dyn: dyn}, "watch")
}

// wrapMagick: ImageMagick opens a file name that starts with '|' as a
// pipe from (or to) a shell command: convert '|CMD' out.png runs CMD. A
// name without one is a file, and the command is not a wrapper.
func (w *walker) wrapMagick(c int, fs []field) {
	for k := 1; k < len(fs); k++ {
		if f := fs[k]; strings.HasPrefix(f.val, "|") {
			w.a.Commands[c].Wrap = WrapShell
			w.a.Commands[c].InnerStart = k
			w.shellText(c, field{val: f.val[1:], dyn: f.dyn}, w.a.Commands[c].Name+" '|…'")
			return
		}
	}
}

// wrapXargs: xargs [options] [COMMAND [INITIAL-ARGS]…], echo by default.
func (w *walker) wrapXargs(c int, fs []field) {
	g := grammar{
		argShort: "EILnPsad",
		optShort: "iel",
		argLong:  []string{"arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"},
	}
	start, _ := skipOptions(fs, 1, g)
	inner := fs[start:]
	if len(inner) == 0 {
		inner = []field{{val: "echo", pat: "echo"}}
	}
	w.generated(c, start, inner, "xargs")
}

// wrapParallel: parallel [options] COMMAND… ::: ARGS…
func (w *walker) wrapParallel(c int, fs []field) {
	g := grammar{
		argShort: "jSdIaEBnNLPX",
		argLong:  []string{"jobs", "sshlogin", "delimiter", "arg-file", "colsep", "joblog", "results", "tmpdir", "workdir", "timeout", "delay", "max-args", "max-lines", "env", "halt", "memfree", "load", "tag-string"},
	}
	start, _ := skipOptions(fs, 1, g)
	var inner []field
	var rest []field
	for i := start; i < len(fs); i++ {
		if strings.HasPrefix(fs[i].val, ":::") {
			for _, f := range fs[i+1:] {
				if !strings.HasPrefix(f.val, ":::") {
					rest = append(rest, f)
				}
			}
			break
		}
		inner = append(inner, fs[i])
	}
	if len(inner) == 0 {
		// parallel ::: 'cmd' …: each argument is a command line;
		// without arguments the command lines come from stdin
		if len(rest) == 0 {
			w.info[c].readStdin = true
			w.a.Commands[c].Wrap = WrapShell
			w.a.Commands[c].Opaque = true
			return
		}
		for _, f := range rest {
			w.shellText(c, f, "parallel")
		}
		return
	}
	inner = append(inner, rest...)
	w.generated(c, start, inner, "parallel")
}

// interpreter marks one-liners (python -c …) opaque and notes interpreters
// that run their standard input (curl … | python3).
func (w *walker) interpreter(c int, fs []field, opts string) {
	scriptArg := false
	for i := 1; i < len(fs); i++ {
		a := fs[i].val
		if fs[i].dyn {
			scriptArg = true
			break
		}
		if a == "-" {
			break
		}
		if strings.HasPrefix(a, "--") {
			if a == "--eval" || a == "--print" || strings.HasPrefix(a, "--eval=") || a == "--command" {
				w.a.Commands[c].Opaque = true
				return
			}
			continue
		}
		if strings.HasPrefix(a, "-") {
			for k := 1; k < len(a); k++ {
				if strings.IndexByte(opts, a[k]) >= 0 {
					w.a.Commands[c].Opaque = true
					return
				}
			}
			// python -m module runs a named module: a program, not stdin.
			if a == "-m" {
				scriptArg = true
				break
			}
			continue
		}
		if w.a.Commands[c].Name == "deno" && (a == "eval") {
			w.a.Commands[c].Opaque = true
			return
		}
		scriptArg = true
		break
	}
	if !scriptArg && !exitsEarly(w.a.Commands[c].Name, fs) {
		w.info[c].readStdin = true
		w.a.Commands[c].Opaque = true
	}
}

// exitsEarly reports an interpreter given only options that print and
// exit (node --version, python3 -V): it reads no script from stdin.
func exitsEarly(name string, fs []field) bool {
	if len(fs) < 2 {
		return false
	}
	for _, f := range fs[1:] {
		switch a := f.val; {
		case f.dyn:
			return false
		case a == "--version" || a == "--help" || a == "-h":
		case a == "-V" && strings.HasPrefix(name, "python"):
		case a == "-v" && (name == "node" || name == "nodejs" || name == "perl" || name == "deno" || name == "bun"):
		default:
			return false
		}
	}
	return true
}

// isStdinPath names the standard input as a file.
func isStdinPath(p string) bool {
	switch p {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-":
		return true
	}
	return false
}

// wrapTrap: trap 'COMMANDS' SIGNAL…: the commands run later, in this shell.
func (w *walker) wrapTrap(c int, fs []field) {
	i := 1
	if i < len(fs) && fs[i].val == "--" {
		i++
	}
	if i >= len(fs) || fs[i].val == "-" || fs[i].val == "-p" || fs[i].val == "-l" || i+1 >= len(fs) {
		return
	}
	w.a.Commands[c].Wrap = WrapShell
	w.a.Commands[c].InnerStart = i
	w.shellText(c, fs[i], "trap")
}

// wrapSource: source FILE runs a file guard cannot see, unless the file is
// standard input (. /dev/stdin <<< "…").
func (w *walker) wrapSource(c int, fs []field) {
	if len(fs) > 1 {
		w.procSubstScript(c, fs[1])
	}
	if len(fs) > 1 && isStdinPath(fs[1].val) {
		w.info[c].readStdin = true
		w.a.Commands[c].Wrap = WrapShell
		w.a.Commands[c].Opaque = true
	}
}

// wrapScheduler: at and batch read the commands to run later from stdin
// (or -f FILE); crontab installs a table from stdin or a file.
func (w *walker) wrapScheduler(c int, fs []field) {
	name := w.a.Commands[c].Name
	for _, f := range fs[1:] {
		switch {
		case (name == "at" || name == "batch") && (f.val == "-f" || f.val == "-l" || f.val == "-r" || f.val == "-c"):
			return
		case name == "crontab" && (f.val == "-l" || f.val == "-r" || f.val == "-e"):
			return
		}
	}
	if name == "crontab" {
		ops := operands(fs)
		if len(ops) > 0 && ops[0].val != "-" {
			return
		}
	}
	w.info[c].readStdin = true
	w.a.Commands[c].Wrap = WrapShell
	w.a.Commands[c].Opaque = true
}

// runnerVerbs are the subcommands of environment managers that run a
// command: uv run CMD, bundle exec CMD, mise x -- CMD, direnv exec DIR CMD.
func runnerVerbs(v string) bool {
	switch v {
	case "run", "exec", "x", "develop", "shell":
		return true
	}
	return false
}

// wrapRunner: uv|poetry|pipenv|conda|pdm|rye|hatch|pixi run, bundle|mise|
// asdf|opam|stack|pixi|gem exec, direnv exec DIR, rustup run TOOLCHAIN,
// nix develop -c: the command after the
// verb (and its options) runs as if typed alone.
func (w *walker) wrapRunner(c int, fs []field) {
	i, v := verb(fs, "-n", "--name", "-p", "--prefix", "--directory", "--project", "-C", "--cwd", "--python", "--with", "-e", "--env", "--env-file", "--group", "--extra")
	if i < 0 || !runnerVerbs(v) {
		return
	}
	name := w.a.Commands[c].Name
	if name == "nix" {
		// nix develop -c CMD, nix shell … -c CMD
		for k := i + 1; k+1 < len(fs); k++ {
			if fs[k].val == "-c" || fs[k].val == "--command" {
				w.transparent(c, k+1, "nix "+v)
				return
			}
		}
		return
	}
	start, ok := skipOptions(fs, i+1, grammar{argShort: "npCe", argLong: []string{"name", "prefix", "directory", "project", "cwd", "python", "with", "env", "env-file", "group", "extra", "from", "package", "index"}})
	if !ok {
		return
	}
	if name == "direnv" || name == "rustup" {
		start++ // the directory; the toolchain
	}
	w.transparent(c, start, name+" "+v)
}

// envCommand reports a variable whose value some program runs as a
// command line (GIT_SSH_COMMAND, PAGER, LESSOPEN, a GIT_CONFIG_VALUE_n
// that may set core.pager, an exported bash function).
func envCommand(name string) bool {
	switch name {
	case "PROMPT_COMMAND", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER",
		"PAGER", "MANPAGER", "SYSTEMD_PAGER", "EDITOR", "VISUAL", "FCEDIT", "LESSOPEN", "LESSCLOSE",
		"GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "BROWSER",
		"RSYNC_RSH", "CVS_RSH", "GIT_CONFIG_PARAMETERS", "PS0", "PS1", "PS4", "TAR_OPTIONS", "LESS", "BASH_ENV", "ENV":
		return true
	}
	return strings.HasPrefix(name, "GIT_CONFIG_VALUE_") || strings.HasPrefix(name, "BASH_FUNC_")
}

// envAssign judges the value of NAME=VALUE as the command line it becomes
// when NAME is one of envCommand's.
func (w *walker) envAssign(c int, as string) {
	name, v, ok := strings.Cut(as, "=")
	if !ok || v == "" || !envCommand(name) {
		return
	}
	for _, cmd := range envCommandLines(name, v) {
		w.keepWrap(c, func() { w.nested(c, cmd, name, false) })
	}
}

// envCommandLines returns the command lines a variable's value runs:
// the value itself (envPayload), or for GIT_CONFIG_PARAMETERS (git -c in
// the environment: 'core.pager'='CMD' 'alias.x'='!CMD') the values of the
// keys git runs.
func envCommandLines(name, v string) []string {
	if name == "LESS" {
		return lessEnvCommands(v) // LESS='+!CMD': less's options, +CMD among them
	}
	if name == "BASH_ENV" || name == "ENV" {
		// a file name that bash expands before it sources the file:
		// BASH_ENV='$(rm -rf /)' runs rm when bash starts. Only the
		// expansions are code (ENV=production names no program).
		return []string{": " + v}
	}
	if name != "GIT_CONFIG_PARAMETERS" {
		return []string{envPayload(v)}
	}
	pairs, ok := gitConfigParameters(v)
	if !ok {
		return []string{envPayload(v)}
	}
	var out []string
	for _, kv := range pairs {
		if cmd, ok := gitShellValue(kv[0], kv[1]); ok {
			out = append(out, cmd)
		}
	}
	return out
}

// envPayload turns a variable's value into the command line it runs:
// LESSOPEN='|cmd %s', BASH_FUNC_f%%='() { body; }'.
func envPayload(v string) string {
	v = strings.TrimLeft(v, "|-")
	v = strings.TrimPrefix(strings.TrimSpace(v), "()")
	return strings.ReplaceAll(v, "%s", "f")
}

// keepWrap runs f, which walks a nested script of c, keeping c's Wrap:
// a program that runs one option's value is not a shell.
func (w *walker) keepWrap(c int, f func()) {
	wrap, opaque := w.a.Commands[c].Wrap, w.a.Commands[c].Opaque
	f()
	w.a.Commands[c].Wrap = wrap
	w.a.Commands[c].Opaque = w.a.Commands[c].Opaque || opaque
}

// optionProgram returns the command line in a program option's value: the
// whole value, or for options whose value is a list of actions, the part
// after the action that runs a command (tar --checkpoint-action=exec=CMD);
// ok is false when the value names no command (--checkpoint-action=dot).
func optionProgram(opt, val string) (string, bool) {
	if opt == "checkpoint-action" {
		return strings.CutPrefix(val, "exec=")
	}
	return val, true
}

// programValues judges the program-to-run words a command's spec names
// (go test -exec CMD, tar --to-command=CMD, rsync -e CMD, make
// VAR=$(shell CMD), hyperfine CMD, ssh localhost CMD) as the command lines
// they are, so a denylisted payload is denied, not just asked about.
func (w *walker) programValues(c int) {
	name := w.a.Commands[c].Name
	s := SpecFor(name)
	if s == nil {
		return
	}
	p := w.words(c)
	for _, cmd := range configCommands(name, p, w.a.Commands[c].Args) {
		w.keepWrap(c, func() { w.nested(c, cmd, name+" config", false) })
	}
	var argv []string // program operands that form one command (sshpass -p X ssh …)
	for _, wd := range p.Words {
		f := w.valueField(c, wd)
		if f.dyn {
			// go vet -vettool="$(which sudo)": a lookup names the program
			if n := w.lookedUp(c, f); n != "" && wd.Role == RoleProgram {
				w.keepWrap(c, func() { w.nested(c, n, name+" runs", false) })
			}
			continue
		}
		switch {
		case wd.Role == RoleProgram && wd.Name != "" && wd.Rest:
			argv = append(argv, f.val) // fd -x CMD ARG…: the words up to ';'
		case wd.Role == RoleProgram && wd.Name != "":
			if cmd, ok := optionProgram(wd.Name, f.val); ok {
				w.keepWrap(c, func() { w.nested(c, cmd, name+" --"+wd.Name, false) })
			}
		case wd.Role == RoleProgram && (s.InOrder || s.Sub != nil):
			argv = append(argv, f.val)
		case wd.Role == RoleProgram:
			w.keepWrap(c, func() { w.nested(c, f.val, name+" runs", false) })
		case (name == "sed" || name == "gsed") && wd.Role == RoleScript:
			// sed '1e CMD' and s/X/CMD/e run CMD in a shell
			for _, cmd := range sedCommands(f.val) {
				w.keepWrap(c, func() { w.nested(c, cmd, "sed e", false) })
			}
		case name == "socat" && wd.Name == "":
			// socat - EXEC:CMD / SYSTEM:CMD runs CMD on the connection
			if cmd, ok := socatCommand(f.val); ok {
				w.keepWrap(c, func() { w.nested(c, cmd, "socat "+strings.ToUpper(f.val[:strings.IndexByte(f.val, ':')]), false) })
			}
		case (name == "make" || name == "gmake") && wd.Name == "" && strings.HasPrefix(f.val, "SHELL="):
			// make SHELL=CMD runs every recipe line through CMD
			w.keepWrap(c, func() { w.nested(c, strings.TrimPrefix(f.val, "SHELL="), "make SHELL=", false) })
		case name == "make" || name == "gmake":
			// make VAR=$(shell CMD) and --eval='$(shell CMD)' run CMD while
			// reading the makefile
			if k := strings.Index(f.val, "$(shell "); k >= 0 && (strings.Contains(f.val, "=") || wd.Name == "eval") {
				body := f.val[k+len("$(shell "):]
				if e := strings.LastIndexByte(body, ')'); e >= 0 {
					body = body[:e]
				}
				w.keepWrap(c, func() { w.nested(c, body, "make $(shell …)", false) })
			}
		}
	}
	if len(argv) == 0 {
		return
	}
	if name == "ssh" {
		host := ""
		for _, wd := range p.Operands() {
			host = wd.Val
			break
		}
		if k := strings.LastIndexByte(host, '@'); k >= 0 {
			host = host[k+1:]
		}
		if host != "localhost" && host != "127.0.0.1" && host != "::1" {
			return // a command for another machine
		}
		// ssh joins its words with spaces for the remote shell
		w.keepWrap(c, func() { w.nested(c, strings.Join(argv, " "), "ssh localhost", false) })
		return
	}
	if text, err := QuoteArgv(argv); err == nil {
		w.keepWrap(c, func() { w.nested(c, text, name+" runs", false) })
	}
}

// scriptCalls judges the literal command lines a script passes to the
// shell: awk's system("…") and print | "…", sed's e command, and the
// system/popen/exec calls of interpreter one-liners (python3 -c
// 'os.system("…")'). The script stays opaque where it was; a denylisted
// payload is denied.
func (w *walker) scriptCalls(c int) {
	name := w.a.Commands[c].Name
	if SpecFor(name) == nil {
		return
	}
	for _, wd := range w.words(c).Words {
		if wd.Role != RoleScript || wd.Arg < len(w.info[c].fields) && w.info[c].fields[wd.Arg].dyn {
			continue
		}
		for _, cmd := range scriptCommands(name, wd.Val) {
			w.keepWrap(c, func() { w.nested(c, cmd, name+" script", false) })
		}
	}
}

// shellCalls are the functions of script languages that run a command line.
var shellCalls = []string{"system", "popen", "exec", "execSync", "spawnSync", "check_output", "check_call", "getoutput",
	"getstatusoutput", "call", "run", "Popen", "shell_exec", "passthru", "proc_open", "qx", "%x"}

// scriptCommands returns the literal command lines in a script.
func scriptCommands(name, script string) []string {
	if s := SpecFor(name); s == &editorSpec || s == &nvimSpec {
		// vim -c '!CMD', --cmd ':silent !CMD': an Ex command that runs CMD
		if cmd, ok := exShellCommand(script); ok {
			return []string{cmd}
		}
	}
	if !strings.ContainsAny(script, "\"'`|e") {
		return nil
	}
	var out []string
	awk := name == "awk" || name == "gawk" || name == "mawk" || name == "nawk"
	for _, fn := range shellCalls {
		if awk {
			break // wrapAwk judges system()
		}
		for from := 0; ; {
			k := strings.Index(script[from:], fn)
			if k < 0 {
				break
			}
			k += from
			from = k + len(fn)
			if k > 0 && (isWordByte(script[k-1])) {
				continue
			}
			rest := strings.TrimLeft(script[from:], " \t")
			rest = strings.TrimPrefix(rest, "(")
			rest = strings.TrimLeft(rest, " \t")
			if lit, ok := quotedLiteral(rest); ok {
				out = append(out, lit)
			}
		}
	}
	switch name {
	case "awk", "gawk", "mawk", "nawk":
		// "cmd" | getline (wrapAwk judges print | "cmd")
		for i := 0; i < len(script); i++ {
			if script[i] != '|' {
				continue
			}
			if j := strings.LastIndexByte(script[:i], '"'); j > 0 && strings.TrimSpace(script[j+1:i]) == "" {
				if k := strings.LastIndexByte(script[:j], '"'); k >= 0 {
					out = append(out, script[k+1:j])
				}
			}
		}
	case "sed", "gsed":
		// the e command runs the rest of its line
		for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
			line = strings.TrimLeft(line, " \t0123456789,$/!{")
			if cmd, ok := strings.CutPrefix(line, "e "); ok {
				out = append(out, cmd)
			}
		}
	case "perl", "ruby":
		// `cmd`
		for i := strings.IndexByte(script, '`'); i >= 0; {
			j := strings.IndexByte(script[i+1:], '`')
			if j < 0 {
				break
			}
			out = append(out, script[i+1:i+1+j])
			next := strings.IndexByte(script[i+2+j:], '`')
			if next < 0 {
				break
			}
			i = i + 2 + j + next
		}
	}
	return out
}

// quotedLiteral returns the text of a '…' or "…" string at the start of s
// (without escapes), ok false when there is none.
func quotedLiteral(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' && s[0] != '\'' {
		return "", false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", false
	}
	lit := s[1 : 1+end]
	if strings.ContainsAny(lit, "\\") {
		return "", false
	}
	return lit, true
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// configCommands returns the command lines a configuration value on the
// command line makes a program run: git -c core.sshCommand=CMD, git
// config core.pager CMD, ssh -o ProxyCommand=CMD.
func configCommands(name string, p *Parsed, args []string) []string {
	var out []string
	switch name {
	case "git":
		out = gitConfigCommands(p, args)
	case "ssh", "scp", "sftp":
		out = sshConfigCommands(p)
	}
	return out
}
