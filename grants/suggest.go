package grants

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// interpreters are programs that run whatever their arguments say: an allow
// pattern may never cover every use of one of them.
var interpreters = []string{
	"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "busybox", "xonsh", "nu", "elvish", "pwsh", "powershell",
	"python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "perl", "ruby", "irb", "php", "lua", "luajit", "tclsh", "wish",
	"Rscript", "julia", "osascript", "deno", "bun", "npx", "bunx", "pnpx", "go",
	"env", "xargs", "parallel", "eval", "exec", "command", "builtin", "source", ".", "nohup", "nice", "timeout", "time", "stdbuf",
	"ionice", "setsid", "flock", "taskset", "watch", "chroot", "unshare", "nsenter", "sudo", "doas", "su", "pkexec", "run0", "script", "expect",
}

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
		if in := path.Base(first); slices.Contains(interpreters, in) && coversProbe(pattern, first) {
			return fmt.Errorf("allow pattern covers every use of %s: name the script or subcommand", in)
		}
		return nil
	}
	for _, in := range interpreters {
		for _, dir := range interpreterDirs {
			if coversProbe(pattern, dir+in) {
				return fmt.Errorf("allow pattern covers every use of %s: name the script or subcommand", in)
			}
		}
	}
	return nil
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
// about c: the program and its subcommand with " *" ("npm install *" for
// "npm install left-pad"), the script for an interpreter ("python3 x.py *"),
// and the exact text for opaque commands, exec-capable arguments and
// anything a wider pattern would not cover. Never bare "*", never
// interpreter-wide. A transparent wrapper is suggested by what it runs.
func Suggest(c classify.Command) string {
	if len(c.Args) == 0 || dyn(&c, 0) {
		return ""
	}
	if c.Wrap == classify.WrapTransparent && c.InnerStart > 0 && c.InnerStart < len(c.Args) && !wrapperAssigns(&c) {
		in := classify.Command{Args: c.Args[c.InnerStart:], Parent: -1}
		if c.Dynamic != nil {
			in.Dynamic = c.Dynamic[c.InnerStart:]
		}
		in.Name = path.Base(in.Args[0])
		if s := Suggest(in); s != "" {
			return s
		}
	}
	exact := strings.Join(c.Args, " ")
	if ValidatePattern(Allow, exact) != nil {
		return "" // nothing storable would cover it: bare *, odd spacing
	}
	if c.Opaque || c.Wrap != classify.WrapNone || len(c.Args) == 1 {
		return exact
	}
	cand := ""
	name := path.Base(c.Args[0])
	a1 := c.Args[1]
	switch {
	case slices.Contains(interpreters, name):
		switch {
		case !strings.HasPrefix(a1, "-") && !dyn(&c, 1):
			cand = c.Args[0] + " " + a1 + " *"
		case a1 == "-m" && len(c.Args) > 2 && !dyn(&c, 2) && !strings.HasPrefix(c.Args[2], "-"):
			// python -m pytest tests/ → python -m pytest *
			cand = c.Args[0] + " -m " + c.Args[2] + " *"
		}
	case isSubcommandWord(a1) && !dyn(&c, 1):
		cand = c.Args[0] + " " + a1 + " *"
	default:
		cand = c.Args[0] + " *"
	}
	if cand == "" || ValidatePattern(Allow, cand) != nil {
		return exact
	}
	// the candidate must cover the command under the exec-capable table
	cc := c
	cc.Name = name
	var m marks
	markCommand(&cc, &m)
	var sp []span
	off := 0
	for k, w := range c.Args {
		if m.sens[k] {
			sp = append(sp, span{off, off + len(w)})
		}
		off += len(w) + 1
	}
	if m.all || !matchPattern(cand, exact, sp) {
		return exact
	}
	return cand
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
