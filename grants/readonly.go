package grants

import (
	"strings"

	"github.com/guard-dev/guard/classify"
)

// readOnlySet is the built-in read-only set: command word (as written, no
// path) → an extra argument check, nil when any arguments are fine. A
// command any word of which the exec-capable table marks is never in it.
// It is a switch, not a map, so that no init code builds it in every guard
// process.
func readOnlySet(name string) (check func(c *classify.Command) bool, ok bool) {
	if s := classify.SpecFor(name); s != nil && s.ReadOnly != nil && s.For(s.ReadOnlyFor, name) {
		return specReadOnly, true // the program's own entry says (git status, cat)
	}
	switch name {
	case "cd", "pushd", "popd", "pwd", "ls",
		"echo", "printf", "stat", "which", "type",
		"du", "df", "uname", "id", "whoami",
		"true", "false", "test", "[",
		// Harmless builtins and text filters that read stdin or name files
		// only to read them: agents use them all day.
		"exit", ":", "sleep", "basename", "dirname", "realpath",
		"readlink", "nproc", "tr",
		"seq",
		// looking at the machine and at files, writing nothing
		"pgrep", "lsof", "ss", "netstat", "free", "uptime",
		"whereis", "readelf", "nm", "zcat":
		return nil, true
	case "guard", "guard-cli":
		return guardReadOnly, true
	case "kill":
		return killList, true
	case "gunzip", "gzip":
		return stdoutOnly, true
	// versions of well-known tools without an entry in classify (the
	// others' entries say: classify.VersionUse)
	case "node", "java", "ruby", "deno":
		return versionOnly, true
	}
	return nil, false
}

// specReadOnly asks the program's entry in classify which of its uses
// only read ([classify.Spec.ReadOnly]).
func specReadOnly(c *classify.Command) bool {
	// by the program's one name: git0 and gcc-12 are git and gcc here too
	s := classify.SpecFor(classify.ProgramName(c.Args[0]))
	return s != nil && s.ReadOnly(c, c.Words())
}

// killList: kill -l [N] and kill -L list the signals' names.
func killList(c *classify.Command) bool {
	a := c.Args[1:]
	if len(a) == 0 || a[0] != "-l" && a[0] != "-L" && a[0] != "--list" && a[0] != "--table" {
		return false
	}
	for _, w := range a[1:] {
		if strings.HasPrefix(w, "-") {
			return false
		}
	}
	return true
}

// stdoutOnly: gzip/gunzip -c (or -l, -t) write to stdout or only test;
// not with -r (it walks directories) or a parse it cannot follow.
func stdoutOnly(c *classify.Command) bool {
	p := c.Words()
	return p.Has("stdout", "list", "test") && !p.Has("recursive") && !p.Unknown
}

// versionOnly: TOOL --version prints and exits (node version runs a
// file: "version" is no subcommand of these).
func versionOnly(c *classify.Command) bool {
	if c.Args[0] == "ruby" {
		return classify.VersionUseNoV(c, classify.Parsed{}) // -v: verbose, then a script from stdin
	}
	return classify.VersionUse(c, classify.Parsed{})
}

// readOnly reports whether c is in the built-in read-only set, and if it is
// a member by name but not by its arguments, why not.
func readOnly(c *classify.Command, m *marks) (bool, string) {
	if classify.HelpQuery(c) && !m.all {
		return true, "" // TOOL --help, TOOL --version: prints and exits
	}
	check, ok := readOnlySet(classify.ProgramName(c.Args[0])) // ggrep is grep; a path (./grep) is not
	if !ok {
		return false, ""
	}
	if m.any {
		return false, "not read-only: " + m.reason
	}
	if s := classify.SpecFor(classify.ProgramName(c.Args[0])); m.ureason != "" && s != nil && s.Closed {
		// a closed spec (git's, audited whole): an option it does not
		// know is no reading the set can vouch for
		return false, "not read-only: " + m.ureason
	}
	if c.Tainted && readsNamedFiles(c.Name) {
		return false, "not read-only here: it reads a name this command computed at run time"
	}
	if c.DirUnknown && readsNamedFiles(c.Name) {
		// after cd to a computed path guard cannot tell what a relative
		// name reads (cd "$X" && cat *)
		for i, w := range c.Args[1:] {
			if w != "" && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "/") && !(c.Dynamic != nil && c.Dynamic[i+1]) {
				return false, "not read-only here: the directory is not known after a cd to a computed path"
			}
		}
	}
	if check != nil && !check(c) {
		return false, "not read-only with these arguments"
	}
	// an option or operand the argument model types as a write or a
	// program to run (nm --plugin, tree -o, base64 -o, uniq IN OUT)
	p := c.Words()
	for _, wd := range p.Words {
		switch wd.Role {
		case classify.RoleWrite:
			return false, "not read-only: " + c.Name + " writes " + wd.Val
		case classify.RoleProgram:
			// an option's program (nm --plugin); find -exec's command is
			// walked and judged on its own (its entry's ProgramsWalked)
			if wd.Name != "" && !programsWalked(c.Name) {
				return false, "not read-only: " + c.Name + " runs another program"
			}
		}
	}
	return true, ""
}

// envDump: env or printenv that prints the whole environment, and the
// programs that print it too (jq -n env, jq '$ENV', ps e: the entries
// in classify say, classify.Spec.DumpsEnv).
func envDump(c *classify.Command) bool {
	if s := classify.SpecFor(c.Name); s != nil && s.DumpsEnv != nil {
		return s.DumpsEnv(c) // the program's entry says (printenv, env, ps e)
	}
	switch c.Args[0] {
	case "set", "export", "declare", "typeset", "compgen":
		// alone (or with -p, -x: export -p, declare -px) they print every
		// variable with its value; compgen -e only names them
		if c.Args[0] == "compgen" {
			return false
		}
		for _, w := range c.Args[1:] {
			if !strings.HasPrefix(w, "-") || strings.Trim(w, "-pxgr") != "" || w == "--" {
				return false
			}
		}
		return c.Args[0] != "set" || len(c.Args) == 1
	}
	return false
}

// readsNamedFiles print the contents of the files they are given, as
// their entry in classify says ([classify.Spec.PrintsFiles]).
func readsNamedFiles(name string) bool {
	s := classify.SpecFor(name)
	return s != nil && s.PrintsFiles
}

// guardReadOnly: guard's verbs that only read (grants list, explain, check,
// policy show, version, help). guard -c and guard exec are judged by what
// they run; the verbs that grant are on the denylist (guard-self).
func guardReadOnly(c *classify.Command) bool {
	if len(c.Args) < 2 || c.Dynamic[1] {
		return false
	}
	next := ""
	if len(c.Args) > 2 && !c.Dynamic[2] {
		next = c.Args[2]
	}
	switch c.Args[1] {
	case "explain", "check", "version", "help", "--version", "--help", "-h":
		return true
	case "grants":
		return next == "list" || next == "ls"
	case "policy":
		return next == "show"
	}
	return false
}

// programsWalked: the programs name's words name run as commands
// classify walks and judges on their own (find -exec), as its entry says.
func programsWalked(name string) bool {
	s := classify.SpecFor(name)
	return s != nil && s.ProgramsWalked
}
