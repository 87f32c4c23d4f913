package grants

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/guard-dev/guard/classify"
)

// interpreters are programs that run whatever their arguments say: an allow
// pattern may never cover every use of one of them. These have no entry
// in classify; the entries say it of theirs (classify.Spec.Runs: sudo,
// env, xargs, nohup, python, go, …), and runsAny asks both.
var interpreters = []string{
	"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "xonsh", "nu", "elvish", "pwsh", "powershell",
	"node", "nodejs", "perl", "ruby", "irb", "php", "lua", "luajit", "tclsh", "wish",
	"Rscript", "julia", "osascript", "deno",
	"eval", "source", ".",
	"guard", "guard-cli", // guard -c runs any text, guard exec any program (guard-cli too)
	// interpreters under other names (classify.Interpreter knows them
	// too, with their versioned spellings: python3.11, node18, perl5.36.0)
	"ts-node", "tsx", "ipython", "ipython3", "guile", "sbcl", "groovy", "elixir", "erl", "escript", "octave", "gnuplot", "dc", "bb",
	"racket", "jruby", "jython", "raku", "perl6", "ghci", "runghc", "clojure", "scala", "jshell", "php-cgi", "zx", "swipl",
}

// runsAny reports a program that runs whatever its arguments say, by its
// name as written: the list above, or its entry in classify.
func runsAny(name string) bool {
	return interpreterSet()[name] || classify.RunsAny(name)
}

// interpreterLike reports an interpreter or wrapper by its name, or under a
// versioned spelling of one (python3.11, node18, perl5.36.0, bash5.2).
func interpreterLike(name string) bool {
	if runsAny(name) {
		return true
	}
	if u := classify.UnversionedName(name); u != name && runsAny(u) {
		return true
	}
	return classify.Interpreter(name)
}

// interpreterSet is interpreters as a set, made on first use: the marks ask
// for every word of every command, and the list is long.
var interpreterSet = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(interpreters))
	for _, n := range interpreters {
		m[n] = true
	}
	return m
})

// interpreterProbes are the invocations an interpreter-wide allow pattern
// would cover, after the interpreter's name.
// The bare name and the stdin forms count: `sh` alone runs whatever is
// piped into it (ls | sh).
var interpreterProbes = []string{" guard-probe", " -c guard-probe", " -e guard-probe", " -- guard-probe", " -x guard-probe",
	"", " -s", " -", " /dev/stdin", " -i"}

var interpreterDirs = []string{"", "/bin/", "/usr/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"}

// ValidatePattern checks a pattern before it is stored or loaded: not empty,
// single spaces between words, not a bare "*", and for allow rules not
// covering every use of an interpreter ("bash *", "python3 *", "env *").
func ValidatePattern(kind Decision, pattern string) error {
	switch kind {
	case Allow, Ask, Deny:
	default:
		return fmt.Errorf("unknown rule kind %q", kind)
	}
	if strings.TrimSpace(pattern) == "" {
		return errors.New("empty pattern")
	}
	if strings.ContainsAny(pattern, "\t\n\r\x00") {
		return errors.New("pattern holds a tab, newline or NUL: words are joined by single spaces")
	}
	if pattern != strings.TrimSpace(pattern) || strings.Contains(pattern, "  ") {
		return errors.New("pattern has leading, trailing or double spaces: words are joined by single spaces")
	}
	if strings.Trim(pattern, "* ") == "" {
		return errors.New("a bare * pattern covers every command")
	}
	if len(pattern) > 4096 {
		return errors.New("pattern longer than 4096 bytes")
	}
	if kind != Allow {
		return nil
	}
	first, _, _ := strings.Cut(pattern, " ")
	if !strings.Contains(first, "*") {
		// a literal command word: only its own probes can match
		if in := path.Base(first); interpreterLike(in) && coversProbe(pattern, first) {
			return fmt.Errorf("allow pattern covers every use of %s: name the script or subcommand", in)
		}
		return nil
	}
	for _, in := range interpreters {
		if coversAnyUse(pattern, in) {
			return fmt.Errorf("allow pattern covers every use of %s: name the script or subcommand", in)
		}
	}
	var err error
	classify.Runners(func(in string) bool {
		if coversAnyUse(pattern, in) {
			err = fmt.Errorf("allow pattern covers every use of %s: name the script or subcommand", in)
		}
		return err == nil
	})
	return err
}

// coversAnyUse reports whether pattern covers program in, in a usual
// directory or under a versioned spelling (python3.* *, node1* *), run
// with arbitrary code.
func coversAnyUse(pattern, in string) bool {
	for _, dir := range interpreterDirs {
		for _, v := range []string{"", "1", "9", ".1", ".9", "1.1", "9.9"} {
			if coversProbe(pattern, dir+in+v) {
				return true
			}
		}
	}
	return false
}

// UntypedNote explains what an allow pattern covers of a program guard
// has no spec for (closed world under '*'): its '*' covers operands
// only, since guard cannot see inside the program's options, and a
// command with an option is asked until a pattern names it. "" when the
// pattern names a program with a spec, or has no '*' after its name.
func UntypedNote(pattern string) string {
	first, rest, _ := strings.Cut(pattern, " ")
	if strings.ContainsAny(first, "*?[") || !strings.Contains(rest, "*") {
		return ""
	}
	name := path.Base(first)
	if classify.SpecFor(name) != nil || interpreterLike(name) || strings.HasPrefix(first, "./") {
		return ""
	}
	return fmt.Sprintf("guard cannot see inside %s's options: %s covers %s with operands only, and a command with an option is asked; "+
		"to cover more, grant the exact command or name its options (%s)", name, classify.QuoteWord(pattern), name, classify.QuoteWord(first+" --flag *"))
}

// coversProbe reports whether pattern covers prog run with arbitrary code.
func coversProbe(pattern, prog string) bool {
	for _, probe := range interpreterProbes {
		if matchPattern(pattern, prog+probe, nil) {
			return true
		}
	}
	return false
}

// Suggest returns the pattern to offer beside the exact text when asking
// about c: the pattern a person would write, which always covers c itself.
//
//   - a program with subcommands (the subcommandProgs table): the program and
//     its subcommand with " *" ("npm install *" for npm install left-pad),
//     but a target runner's target alone ("make all" for make all);
//   - an interpreter: its script or -m module ("python3 x.py *");
//   - a program that writes the paths it is given (pathWriters: touch, mv,
//     cp, …): the exact text, until grants can be limited to the project;
//   - a program guard does not know: its first word too when it reads like
//     a subcommand ("mytool build *"); a plain tool (plainProgs): "grep *";
//   - a script named by its path: the script ("./script.sh *");
//   - a word computed at run time ($f in a loop) anywhere: no pattern;
//
// and in every case no wider than the exec-capable table allows: a word
// that makes the program run another (sed -i's script, make SHELL=) stays
// literal and only what follows the last such word is covered by " *"
// ("sed -i s/a/b/ *"). An interpreter one-liner (python3 -c CODE) gets no
// pattern: the code is the command, a grant would only name it again, and
// allow-once is the answer for it. Never bare "*", never interpreter-wide.
// A pass-through wrapper is suggested by what it runs.
func Suggest(c classify.Command) string {
	if len(c.Args) == 0 || dyn(&c, 0) || c.Opaque {
		return ""
	}
	if c.Wrap == classify.WrapTransparent && c.InnerStart > 0 && c.InnerStart < len(c.Args) && passThrough(&c) && !wrapperAssigns(&c) {
		in := classify.Command{Args: c.Args[c.InnerStart:], Parent: -1}
		if c.Dynamic != nil {
			in.Dynamic = c.Dynamic[c.InnerStart:]
		}
		in.Name = path.Base(in.Args[0])
		if s := Suggest(in); s != "" {
			return s
		}
	}
	for k := range c.Args {
		if dyn(&c, k) {
			// a word computed at run time ($f in a loop): a '*' is not
			// enough for it (closed world), and the word written out as a
			// pattern would cover whatever it expands to: allow once
			return ""
		}
	}
	exact := strings.Join(c.Args, " ")
	if ValidatePattern(Allow, exact) != nil {
		return "" // nothing storable would cover it: bare *, odd spacing
	}
	name := path.Base(c.Args[0])
	shape := grantShape(name)
	if c.Wrap != classify.WrapNone || len(c.Args) == 1 || slices.Contains(pathWriters, name) || shape == classify.GrantExact {
		return exact
	}
	// the words the exec-capable table keeps out of a '*'
	cc := c
	cc.Name = name
	var m marks
	markCommand(&cc, &m)
	if m.all {
		return exact
	}
	// ... and the options guard cannot type (closed world under '*')
	sens := func(k int) bool { return k < len(m.sens) && m.sens[k] || k < len(m.untyped) && m.untyped[k] }
	lastSens := -1
	for k := range c.Args {
		if sens(k) {
			lastSens = k
		}
	}
	// keep is how many leading words the pattern names; the rest is " *".
	// open: a script or subcommand takes arguments, so " *" is offered
	// even when none follow (npm test → npm test *); a target runner's
	// further words are more targets, so make all stays make all.
	keep, open := 1, false
	a1 := c.Args[1]
	switch {
	case interpreterLike(name):
		switch {
		case !strings.HasPrefix(a1, "-") && !dyn(&c, 1):
			keep = 2
		case a1 == "-m" && len(c.Args) > 2 && !dyn(&c, 2) && !strings.HasPrefix(c.Args[2], "-"):
			keep = 3 // python -m pytest tests/ → python -m pytest *
		default:
			return exact
		}
		open = true
	case slices.Contains(subcommandProgs, name) || shape == classify.GrantSub || shape == classify.GrantTarget:
		if !isSubcommandWord(a1) || dyn(&c, 1) {
			return exact
		}
		keep, open = 2, !slices.Contains(targetRunners, name) && shape != classify.GrantTarget
	case strings.Contains(c.Args[0], "/") && !slices.Contains(plainProgs, name) && shape != classify.GrantPlain:
		// a script named by its path (./script.sh arg): its arguments
		// are its own, as a script's after an interpreter
		open = true
	case !slices.Contains(plainProgs, name) && shape != classify.GrantPlain && isSubcommandWord(a1) && !dyn(&c, 1):
		// a program guard does not know: a word that reads like a
		// subcommand is kept (mytool build --fast → mytool build *)
		keep, open = 2, true
	}
	if lastSens >= keep {
		keep, open = lastSens+1, false
	}
	if keep > len(c.Args) || keep == len(c.Args) && !open {
		return exact
	}
	for k := 1; k < keep; k++ {
		if dyn(&c, k) {
			return exact
		}
	}
	cand := strings.Join(c.Args[:keep], " ") + " *"
	if ValidatePattern(Allow, cand) != nil {
		return exact
	}
	// the candidate must cover the command under the exec-capable table
	var sp []span
	off := 0
	for k, w := range c.Args {
		if sens(k) {
			sp = append(sp, span{off, off + len(w)})
		}
		off += len(w) + 1
	}
	if !matchPattern(cand, exact, sp) {
		return exact
	}
	return cand
}

// grantShape is the shape of grant a program's entry in classify asks
// for ([classify.Spec.Grant]).
func grantShape(name string) classify.GrantShape {
	if s := classify.SpecFor(name); s != nil && s.For(s.GrantFor, name) {
		return s.Grant
	}
	return classify.GrantDefault
}

// subcommandProgs are programs whose first word is a subcommand: their
// suggestion names it (cargo build *, git commit *, make all).
var subcommandProgs = []string{
	"glab", "poetry", "pipenv", "conda", "mamba", "brew",
	"apt", "apt-get", "dnf", "yum", "pacman", "systemctl", "ninja", "just", "task", "rake", "bundle",
	"./gradlew", "composer", "mix", "stack", "cabal", "swift", "flutter", "dart",
	"hugo", "zig", "ng", "nx", "turbo", "vercel", "firebase", "aws", "gcloud", "az", "tox", "nox",
	"sbt", "lein", "opam", "dune", "meson", "jj", "hg", "svn",
}

// plainProgs take operands, not subcommands: their first word is a
// pattern, a file or a text (grep foo x.go → grep *, not grep foo *).
var plainProgs = []string{
	"tr", "ls", "fd", "echo", "printf",
	"stat", "du", "df", "open", "xdg-open", "code", "which",
	"type", "basename", "dirname", "realpath", "readlink", "kill", "pkill", "sleep", "test", "true", "false", "cd", "pushd", "goimports", "black", "ruff",
	"shellcheck", "shfmt",
}

// targetRunners take targets, not a subcommand and its arguments: a
// further word is one more target, so the suggestion names the target and
// stops (make all, not make all *).
var targetRunners = []string{"ninja", "just", "task", "rake"}

// pathWriters change the files they are given, wherever those are: "mv *"
// would cover mv ~/.bashrc /tmp. Their suggestion is the exact command
// until a grant can be limited to paths inside the project.
var pathWriters = []string{
	"chmod", "chown", "chgrp", "tee", "dd", "patch", "gzip", "gunzip",
}

// isSubcommandWord: a word that reads like a subcommand (install, run, test).
func isSubcommandWord(w string) bool {
	if w == "" || len(w) > 30 {
		return false
	}
	for i := 0; i < len(w); i++ {
		b := w[i]
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' && i > 0 || (b == '-' || b == '_' || b == ':') && i > 0) {
			return false
		}
	}
	return true
}
