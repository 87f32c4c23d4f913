package classify

import (
	"path"
	"slices"
	"strings"
)

// Flag normalisation: a command's words as a set of canonical tokens, so
// that a rule written once ("rm with -r, -f and /") matches every spelling
// of it. It is built on the argument model (ParseCommand): the spec knows
// which letters bundle, which options take a value (attached or not) and
// which long names abbreviate, so nothing here guesses at argv.
//
// Tokens:
//   - an option is "--NAME" for its canonical name (its first long name,
//     or the optionAliases entry for a letter the spec names by itself),
//     "-L" when the name is one letter; an option with a value is also
//     "--NAME=VALUE", so -n5, -n 5, --lines 5 and --lines=5 are one token;
//   - the subcommand word (git push) is itself;
//   - an operand is its value; a path (a path role, or a word that starts
//     with /, ./, ../ or ~) is cleaned (// is /, /etc/ is /etc, a/./b is
//     a/b), ~ and $HOME are the home directory, and a relative path is
//     also the absolute path it names in the command's directory;
//   - a command without a spec (or a word its spec does not know) is read
//     as getopt would: --long[=value], and a bundle of letters -abc is
//     -a -b -c.
//
// Order is irrelevant and repeats collapse: the result is a set.

// optionAliases name, per command, the canonical long name of options that
// the spec names by their letter (an Opt entry listing several letters
// names each by its own letter, so rm -f is "f" and rm --force "force"),
// and long names that mean the same thing. A key is a command name, or
// "git SUB" for a git subcommand; keys are separated by commas.
var optionAliases = [...]struct{ cmds, pairs string }{
	{"rm,unlink,rmdir,shred,touch,truncate", "f=force i=interactive d=dir v=verbose R=recursive p=parents"},
	{"mkdir", "p=parents v=verbose m=mode"},
	{"cp,mv,install,ln", "f=force i=interactive n=no-clobber l=link s=symbolic-link P=no-dereference L=dereference u=update v=verbose x=one-file-system T=no-target-directory R=recursive r=recursive b=backup"},
	{"chmod,chown,chgrp", "R=recursive f=silent quiet=silent v=verbose c=changes h=no-dereference"},
	{"git clean", "n=dry-run i=interactive q=quiet d=d x=x X=X"},
	{"git push", "u=set-upstream n=dry-run q=quiet v=verbose"},
	{"git checkout,git switch,git restore", "f=force"},
}

// goFlagCommands parse their arguments with Go's flag package: every option
// is one word, with one dash or two (terraform -destroy is --destroy).
func goFlagCommands(name string) bool {
	switch name {
	case "terraform", "tofu", "terragrunt", "packer", "nomad", "consul", "vault":
		return true
	}
	return false
}

// optionAlias returns the canonical name of option opt of command name
// (sub: its git subcommand, or "").
func optionAlias(name, sub, opt string) string {
	key := name
	if sub != "" {
		key = name + " " + sub
	}
	for _, e := range optionAliases {
		if !listHas(e.cmds, key) {
			continue
		}
		for _, pr := range strings.Fields(e.pairs) {
			if from, to, _ := strings.Cut(pr, "="); from == opt {
				return to
			}
		}
	}
	return opt
}

// listHas reports whether comma-separated list holds key.
func listHas(list, key string) bool {
	for list != "" {
		var k string
		k, list, _ = strings.Cut(list, ",")
		if k == key {
			return true
		}
	}
	return false
}

// Normalized returns the command's words as canonical tokens (see the
// top of normalize.go); relative paths are also resolved against c.Dir.
// The command word itself is not among them. ~ and $HOME were expanded
// by the analysis where bash expands them; a quoted '~' names a file
// called ~ and stays as it is.
func (c *Command) Normalized() []string {
	if len(c.Args) == 0 {
		return nil
	}
	return normalize(c.Name, c.Args, c.Words(), c.Dir, "", false)
}

// NormalizeArgs returns the tokens that rule words args (without the
// command word) stand for, read as arguments of command name: the side of
// a rule that must be found among a command's Normalized tokens. A rule
// word is not resolved against any directory, and a bundle of unknown
// letters stands only for its letters.
func NormalizeArgs(name string, args []string, home string) []string {
	argv := append([]string{name}, args...)
	return normalize(name, argv, ParseCommand(name, argv), "", home, true)
}

// tokens collects a set of strings, in the order first added. Up to 32
// they are searched as they come; past that they are appended and
// de-duplicated once (uniq), so a command of thousands of words (brace
// expansion allows 4096) stays linear.
type tokens []string

func (t *tokens) add(s string) {
	if len(*t) < 32 && slices.Contains(*t, s) {
		return
	}
	*t = append(*t, s)
}

// uniq returns the set with its later duplicates dropped.
func (t tokens) uniq() []string {
	if len(t) <= 32 {
		return t
	}
	seen := make(map[string]bool, len(t))
	out := t[:0]
	for _, s := range t {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func normalize(name string, args []string, p Parsed, dir, home string, pattern bool) []string {
	var t tokens
	if goFlagCommands(name) {
		dashdash := false
		for _, a := range args[1:] {
			switch {
			case dashdash || len(a) < 2 || a[0] != '-':
				addOperand(&t, a, RoleUnknown, dir, home, pattern)
			case a == "--":
				dashdash = true
			default:
				k, v, eq := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
				t.add("--" + k)
				if eq {
					t.add("--" + k + "=" + normValue(v, RoleUnknown, home))
				}
			}
		}
		return t.uniq()
	}
	spec := SpecFor(name)
	raw := args
	if spec == &tarSpec {
		raw = tarArgs(args)
	}
	sub := ""
	if p.Sub >= 0 && p.Sub < len(raw) {
		sub = raw[p.Sub]
		t.add(sub)
	}
	for _, w := range p.Words {
		a := ""
		if w.Arg < len(raw) {
			a = raw[w.Arg]
		}
		wspec := spec
		if sub != "" && w.Arg > p.Sub && spec != nil && spec.Sub != nil {
			wspec = spec.Sub(sub)
		}
		switch {
		case w.Rest:
			addOperand(&t, w.Val, w.Role, dir, home, pattern)
		case w.Name == "" && w.Role == RoleUnknown && len(a) > 1 && a[0] == '-' && a == w.Val:
			// a word no spec reads: an option by its look
			genericOption(&t, a, pattern)
		case w.Name == "":
			addOperand(&t, w.Val, w.Role, dir, home, pattern)
		case w.Role == RoleUnknown && wspec != nil && !wspec.OneDash && len(a) > 2 && a[0] == '-' && a[1] != '-':
			// an unknown letter in a bundle (rm -Irf): the parser
			// stops there, but the letters after it still count
			unknownBundle(&t, name, sub, wspec, a, w.Name, pattern)
		default:
			tok := optToken(optionAlias(name, sub, w.Name))
			t.add(tok)
			if w.Role != RoleFlag && (w.Val != "" || w.Role != RoleUnknown) {
				t.add(tok + "=" + normValue(w.Val, w.Role, home))
			}
		}
	}
	return t.uniq()
}

func optToken(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// unknownBundle adds the tokens of bundle a from its unknown letter on.
func unknownBundle(t *tokens, name, sub string, s *Spec, a, letter string, pattern bool) {
	k := strings.Index(a, letter)
	if k < 1 {
		genericOption(t, a, pattern)
		return
	}
	t.add("-" + letter)
	if !pattern && k+1 < len(a) {
		// it may take the rest as its value
		t.add("-" + letter + "=" + a[k+1:])
	}
	for j := k + 1; j < len(a); j++ {
		o := s.short(a[j])
		if o == nil {
			t.add("-" + a[j:j+1])
			continue
		}
		tok := optToken(optionAlias(name, sub, o.name(a[j], "")))
		t.add(tok)
		if o.takes() {
			if j+1 < len(a) {
				t.add(tok + "=" + a[j+1:])
			}
			return
		}
	}
}

// genericOption adds the tokens of an option word no spec knows.
func genericOption(t *tokens, a string, pattern bool) {
	if strings.HasPrefix(a, "--") {
		k, v, eq := strings.Cut(a[2:], "=")
		t.add("--" + k)
		if eq {
			t.add("--" + k + "=" + v)
		}
		return
	}
	letters := true
	for i := 1; i < len(a); i++ {
		b := a[i]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z') {
			letters = false
			break
		}
	}
	if !letters || len(a) == 2 {
		t.add(a)
		return
	}
	if !pattern {
		t.add(a) // -destroy may be one option
	}
	for i := 1; i < len(a); i++ {
		t.add("-" + a[i:i+1])
	}
}

// pathRole reports roles whose words name files or directories.
func pathRole(r Role) bool {
	switch r {
	case RoleRead, RoleWrite, RoleMeta, RoleUse, RoleDir, RoleUnknown:
		return true
	}
	return false
}

// looksLikePath reports a word written as a path, whatever its role.
func looksLikePath(v string) bool {
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") ||
		v == "." || v == ".." || v == "~" || strings.HasPrefix(v, "~/") ||
		strings.HasPrefix(v, "$HOME") || strings.HasPrefix(v, "${HOME}")
}

// normValue returns a value as its token: a path cleaned, with ~ and $HOME
// the home directory; anything else as written.
func normValue(v string, r Role, home string) string {
	if v == "" || strings.Contains(v, "://") || !(looksLikePath(v) || pathRole(r) && strings.Contains(v, "/")) {
		return v
	}
	if home != "" {
		for _, h := range [...]string{"~", "$HOME", "${HOME}"} {
			if v == h || strings.HasPrefix(v, h+"/") {
				v = home + v[len(h):]
				break
			}
		}
	}
	return path.Clean(v)
}

// addOperand adds an operand's token, and for a relative path the absolute
// one it names in dir.
func addOperand(t *tokens, v string, r Role, dir, home string, pattern bool) {
	n := normValue(v, r, home)
	t.add(n)
	if pattern || dir == "" || !pathRole(r) || v == "" || n == "" || n[0] == '/' || n[0] == '~' || n[0] == '$' || n[0] == '-' || strings.Contains(n, "://") {
		return
	}
	t.add(path.Join(dir, n))
}
