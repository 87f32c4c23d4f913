package classify

// The shell-state rule: a command that changes what a later command word
// runs. printf -v PATH %s /tmp/evil:/usr/bin; ls runs a planted ls, and
// printf -v 'BASH_CMDS[ls]' %s /bin/sh; ls -c … runs a shell, though each
// part alone looks harmless. guard follows what it can compute (aliases,
// hash -p, BASH_CMDS[NAME]=PATH: the later name is judged as the program it
// runs) and asks about every write it cannot: a variable that decides
// which program runs or what runs around it, the command hash, a builtin
// loaded or turned off, a shell option that changes expansion in a way the
// walker does not model.

import "strings"

// stateVars are the variables that change which program a later command
// word runs, or what runs before and around it.
var stateVars = []string{
	"PATH", "BASH_ENV", "ENV", "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4", "IFS", "CDPATH",
	"GLOBIGNORE", "EXECIGNORE", "SHELLOPTS", "BASHOPTS", "BASH_CMDS", "BASH_ALIASES", "BASH_LOADABLES_PATH",
	"BASH_XTRACEFD", "POSIXLY_CORRECT", "PERLLIB", "RUBYOPT", "RUBYLIB", "GCONV_PATH", "CC", "CXX", "CPP", "LD", "AR",
	"GOTOOLCHAIN", "GOPROXY",
}

// stateVar reports a variable (NAME or NAME[KEY]) from stateVars, one of
// the statePrefixes families, or a *_OPTIONS, *_OPTS, *FLAGS, *_WRAPPER or
// *_RUNNER one (the runtimes' and build tools' option variables:
// NODE_OPTIONS, JAVA_TOOL_OPTIONS, MAVEN_OPTS, GOFLAGS, MAKEFLAGS,
// RUSTC_WRAPPER). A variable a program runs as a command line (PAGER,
// GIT_SSH_COMMAND) is judged by its value where it is assigned
// (assignValue); read into from elsewhere, noteState asks.
func stateVar(name string) bool {
	name, _, _ = strings.Cut(name, "[")
	for _, v := range stateVars {
		if name == v {
			return true
		}
	}
	for _, p := range statePrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return strings.HasSuffix(name, "_OPTIONS") || strings.HasSuffix(name, "_OPTS") || strings.HasSuffix(name, "FLAGS") ||
		strings.HasSuffix(name, "_WRAPPER") || strings.HasSuffix(name, "_RUNNER")
}

// statePrefixes are families of variables that tell a loader, a build
// tool or a runtime what else to load or run (LD_PRELOAD, GOFLAGS's
// -toolexec, CARGO_TARGET_*_RUNNER, npm_config_script_shell, GIT_EXEC_PATH).
var statePrefixes = []string{"LD_", "DYLD_", "GIT_", "CARGO_", "RUSTC", "NPM_CONFIG_", "npm_config_", "PIP_", "PYTHON", "PERL5", "NODE_"}

// stateShopts are shopt options that change expansion or execution in
// ways the walker does not follow (echo decoding escapes, globs and
// patterns that ignore case, the debugger's hooks).
var stateShopts = []string{"xpg_echo", "nocaseglob", "nocasematch", "extdebug", "globasciiranges"}

// noteState marks command c as a writer of shell state when it is one:
// printf -v, read, mapfile, readarray and getopts into a state variable,
// unset PATH (or local PATH, which leaves it empty), hash -p, enable -f|-n|-d, shopt of stateShopts, set -k, a dynamic alias.
func (w *walker) noteState(c int) {
	cm := &w.a.Commands[c]
	fs := w.info[c].fields
	hit := false
	switch cm.Name {
	case "printf":
		for i := 1; i < len(fs); i++ {
			switch {
			case fs[i].val == "-v" && i+1 < len(fs):
				hit = fs[i+1].dyn || stateVar(fs[i+1].val) || envCommand(fs[i+1].val)
			case strings.HasPrefix(fs[i].val, "-v"):
				hit = stateVar(fs[i].val[2:]) || envCommand(fs[i].val[2:])
			}
		}
	case "read", "mapfile", "readarray", "getopts":
		// the names written: operands, and -a NAME; other options' values
		// (read -p "[$(date)] ", mapfile -C CALLBACK) are not names
		for i := 1; i < len(fs); i++ {
			f := fs[i]
			switch {
			case f.dyn && i > 1 && valueOption(cm.Name, fs[i-1].val):
			case !f.dyn && valueOption(cm.Name, f.val) && i+1 < len(fs):
				i++
			case !f.dyn && strings.HasPrefix(f.val, "-") && f.val != "-a":
			default:
				// a command line read into PAGER or GIT_SSH_COMMAND is not
				// judged as an assignment's literal value is
				hit = hit || f.dyn || stateVar(f.val) || envCommand(f.val)
			}
		}
	case "unset", "local", "declare", "typeset":
		// unset PATH (or local PATH, which starts empty): bash then looks
		// a command name up in the working directory, so ls runs ./ls.
		// A name guard cannot read may be PATH. (unset -f names a function;
		// declare -p, -f, -F only print.)
		if cm.Name == "unset" && hasShort(fs, 'f') || cm.Name != "unset" && (hasShort(fs, 'p') || hasShort(fs, 'f') || hasShort(fs, 'F')) {
			break
		}
		for _, f := range fs[1:] {
			name, _, _ := strings.Cut(f.val, "[")
			hit = hit || name == "PATH" || cm.Name == "unset" && f.dyn
		}
	case "hash":
		hit = hasShort(fs, 'p')
	case "enable":
		hit = hasShort(fs, 'f') || hasShort(fs, 'n') || hasShort(fs, 'd')
	case "shopt":
		// setting (-s) or unsetting (-u) one, not printing or testing it
		named := false
		for _, f := range fs[1:] {
			for _, o := range stateShopts {
				named = named || f.val == o
			}
			named = named || f.dyn || f.val == "keyword"
		}
		hit = named && (hasShort(fs, 's') || hasShort(fs, 'u'))
	case "set":
		for i, f := range fs[1:] {
			hit = hit || len(f.val) > 1 && f.val[0] == '-' && f.val[1] != '-' && f.val != "-o" && strings.Contains(f.val, "k")
			hit = hit || (f.val == "-o") && i+2 < len(fs) && fs[i+2].val == "keyword"
		}
	case "alias":
		for _, f := range fs[1:] {
			hit = hit || f.dyn
		}
	}
	if hit {
		w.info[c].state = true
	}
}

// valueOption reports an option of read, mapfile or readarray that takes
// a value that is not a variable name.
func valueOption(cmd, opt string) bool {
	if cmd == "read" {
		switch opt {
		case "-d", "-i", "-n", "-N", "-p", "-t", "-u":
			return true
		}
		return false
	}
	switch opt {
	case "-d", "-n", "-O", "-s", "-u", "-C", "-c":
		return true
	}
	return false
}

// shellState is the ask rule's check: noteState marked the command, or
// it runs a name an earlier line of the session changed (Options.Shadow).
func (w *walker) shellState(c int) bool { return w.info[c].state }

// stateAssign asks about NAME=VALUE outside any command (bare, or through
// declare, export, local) when NAME is a state variable.
func (w *walker) stateAssign(name string) {
	if stateVar(name) {
		w.hitAsk("shell-state", -1)
	}
}
