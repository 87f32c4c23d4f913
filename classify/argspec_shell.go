package classify

import (
	"slices"
	"strings"
)

// Specs of shells and interpreters: their script text and the program
// file they run. The wrapper table (wrappers.go) walks the scripts
// themselves; the specs say which word is which.

func shellSpec(name string) *Spec {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "rbash":
		return &shSpec
	case "node", "nodejs", "deno", "bun":
		return &nodeSpec
	case "python", "python3", "python2", "pypy3", "pypy":
		return &pythonSpec
	case "perl", "ruby":
		return &perlSpec
	case "env":
		return &envSpec
	case "xargs", "parallel", "npx", "bunx", "pnpx", "busybox", "chroot", "firejail", "nsenter", "unshare",
		"strace", "ltrace", "valgrind", "unbuffer", "expect", "command", "builtin", "exec", "nohup",
		"nice", "timeout", "time", "stdbuf", "ionice", "setsid", "flock", "taskset", "watch", "sudo", "doas", "su",
		"pkexec", "run0", "tini", "bwrap":
		return &wrapperSpec
	case "gdb":
		return &gdbSpec
	case "script":
		return &scriptSpec
	}
	if _, ok := interpreterName(name); ok {
		return &pythonSpec
	}
	return nil
}

// shSpec: sh FILE ARGS… runs FILE (and prints lines of it in errors);
// sh -c SCRIPT ARG0 ARGS…: the arguments are the script's, which may read them.
var shSpec = Spec{InOrder: true, First: RoleRead, ScriptIf: []string{"c"}, Operands: RoleUnknown, Opts: []Opt{
	{Short: "c"},
	{Short: "oO", Val: RoleText},
	{Short: "eilnrsuvxabfhkmptBCEHPT", Long: []string{"login", "noprofile", "norc", "posix", "restricted", "verbose", "version", "help", "debugger"}},
	{Long: []string{"rcfile", "init-file"}, Val: RoleProgram},
}}

// The interpreters read their script file (and print its lines in
// errors) before running it; its arguments are the script's, unknown.
var nodeSpec = Spec{InOrder: true, First: RoleRead, FirstBy: []string{"eval", "print"}, Operands: RoleUnknown, Opts: []Opt{
	{Short: "ep", Long: []string{"eval", "print"}, Val: RoleScript},
	{Short: "r", Long: []string{"require", "import", "loader", "experimental-loader"}, Val: RoleProgram},
	{Long: []string{"env-file", "env-file-if-exists"}, Val: RoleRead},
	{Short: "vhic", Long: []string{"version", "help", "interactive", "check", "test", "watch", "inspect"}},
}}

var pythonSpec = Spec{Runs: []string{"python", "python2", "python3", "pypy", "pypy3", "R", "iex"}, ReadOnly: VersionUseNoV, ReadOnlyFor: []string{"python3", "python"}, Exec: pytestExec, InOrder: true, First: RoleRead, FirstBy: []string{"c", "m"}, Operands: RoleUnknown, Opts: []Opt{
	{Short: "c", Val: RoleScript},
	{Short: "m", Val: RoleProgram},
	{Short: "WX", Val: RoleText},
	{Short: "VbBdEhiIOPqsSuvx", Long: []string{"version", "help"}},
}}

var perlSpec = Spec{InOrder: true, First: RoleRead, FirstBy: []string{"e", "E"}, Operands: RoleUnknown, Opts: []Opt{
	{Short: "eE", Val: RoleScript},
	{Short: "IMmrx", Val: RoleProgram},
	{Short: "vVcwsnpalTtWXUhSdD"},
}}

// envSpec: env [OPTION]… [NAME=VALUE]… [COMMAND [ARG]…].
var envSpec = Spec{DumpsEnv: envAll, Runs: []string{"env"}, PassThrough: envPassThrough, Grant: GrantPlain, InOrder: true, Operands: RoleProgram, Opts: []Opt{
	{Short: "S", Long: []string{"split-string"}, Val: RoleScript},
	{Short: "uC", Long: []string{"unset", "chdir"}, Val: RoleText},
	{Short: "i0v", Long: []string{"ignore-environment", "null", "debug"}},
}}

// wrapperSpec: commands that run another command (their own option
// grammars are the wrapper table's, wrappers.go); the words after their
// options are a program and its arguments.
var wrapperSpec = Spec{
	Runs: []string{"busybox", "npx", "bunx", "pnpx", "xargs", "parallel", "exec", "command", "builtin", "nohup", "nice", "timeout", "time",
		"stdbuf", "ionice", "setsid", "flock", "taskset", "watch", "chroot", "unshare", "nsenter", "sudo", "doas", "su", "pkexec", "run0",
		"expect", "uvx", "pip-run"},
	RunsFile:    []string{"busybox", "expect"},
	ReadOnly:    commandLookup,
	ReadOnlyFor: []string{"command"},
	InstallsAll: []string{"npx", "bunx", "pnpx"},
	PassThrough: wrapperPassThrough,
	Exec:        runExec,
	InOrder:     true,
	Operands:    RoleProgram,
}

// scriptSpec: util-linux script [options] [FILE]: -c CMD runs CMD through
// the shell (bundled, -qc CMD, or abbreviated, --comm CMD); FILE and the
// log options are typescripts it writes.
var scriptSpec = Spec{Runs: []string{"script"}, RunsFile: []string{"script"}, Exec: runExec, Abbrev: true, Operands: RoleWrite, Opts: []Opt{
	{Short: "c", Long: []string{"command"}, Val: RoleProgram},
	{Short: "IOBT", Long: []string{"log-in", "log-out", "log-io", "log-timing"}, Val: RoleWrite},
	{Short: "t", Long: []string{"timing"}, Val: RoleWrite, Optional: true},
	{Short: "Emo", Long: []string{"echo", "logging-format", "output-limit"}, Val: RoleText},
	{Short: "aefqVh", Long: []string{"append", "return", "flush", "force", "quiet", "version", "help"}},
}}

// gdbSpec: gdb's -ex/-iex run debugger commands, -x/-ix read command files.
// Its operands are the program to debug and a core file: read, run only
// by a debugger command.
var gdbSpec = Spec{Exec: gdbExec, OneDash: true, Operands: RoleRead, Opts: []Opt{
	{Long: []string{"ex", "iex", "eval-command", "init-eval-command"}, Val: RoleScript},
	{Long: []string{"x", "ix", "command", "init-command"}, Val: RoleProgram},
	{Long: []string{"p", "pid", "cd", "core", "c", "d", "directory", "tty"}, Val: RoleText},
	{Long: []string{"batch", "q", "quiet", "silent", "nx", "n", "args", "version", "help", "tui"}},
}}

// gdbExec is the exec-capable argument table of gdbSpec's programs (see [ExecRule]).
var gdbExec = []ExecRule{
	{ID: "gdb-command", Opts: []string{"ex", "iex", "eval-command", "init-eval-command", "x", "ix", "command", "init-command", "batch"},
		Reason: "gdb -ex/-batch runs debugger commands"},
}

// checkDownloadRun marks a download-and-run from its run word on: uvx,
// pip-run and npx whole, pipx run, uv tool run (and uv x), nix run, nix
// shell, nix-shell --run/--command. No '*' covers what they fetch.
func checkDownloadRun(c *Command, p Parsed, m Marker) {
	const why = "uvx/pipx run/uv tool run/nix run download a package and run it"
	from := -1
	words := c.Args
	ops := []int{}
	for i := 1; i < len(words); i++ {
		if !strings.HasPrefix(words[i], "-") {
			ops = append(ops, i)
		}
	}
	op := func(k int) string {
		if k < len(ops) {
			return words[ops[k]]
		}
		return ""
	}
	switch c.Name {
	case "uvx", "pip-run", "npx", "bunx", "pnpx":
		from = 1
	case "pipx":
		if op(0) == "run" {
			from = ops[0]
		}
	case "pre-commit":
		if op(0) == "try-repo" {
			from = ops[0]
		}
	case "uv":
		if op(0) == "tool" && (op(1) == "run" || op(1) == "x") {
			from = ops[1]
		} else if op(0) == "x" {
			from = ops[0]
		}
	case "nix":
		if op(0) == "run" || op(0) == "shell" || op(0) == "develop" {
			from = ops[0]
		}
	case "nix-shell":
		for i, w := range words {
			if w == "--run" || w == "--command" || w == "-p" || w == "--packages" {
				from = i
				break
			}
		}
	}
	if from < 1 {
		return
	}
	for i := from; i < len(words); i++ {
		if !HelpWord(words[i]) {
			m.Mark(i, why)
		}
	}
}

// tmuxRuns are the tmux commands that run a command line, type into a
// shell, load commands or set what later panes run.
var tmuxRuns = []string{"run-shell", "run", "if-shell", "if", "set-hook", "source-file", "source", "send-keys", "send", "new-window", "neww",
	"new-session", "new", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "pipe-pane", "pipep",
	"command-prompt", "confirm-before", "confirm", "bind-key", "bind", "display-popup", "popup", "set-environment", "setenv", "set-option",
	"set", "set-window-option", "setw", "kill-server", "start-server", "start", "display-menu", "menu"}

// checkTmux marks a tmux command that runs a command line (tmux
// run-shell, send-keys 'x' Enter, new-window CMD, set-hook, source-file),
// a #(…) format that runs one (display '#(id)'), and every command after
// a ";" that chains another.
func checkTmux(c *Command, p Parsed, m Marker) {
	const why = "tmux run-shell/if-shell/send-keys/set-hook/source-file/new-window CMD or #(…) runs a command"
	from := -1
	if p.Sub >= 0 && slices.Contains(tmuxRuns, p.SubName(c.Args)) {
		from = p.Sub
	}
	for i := 1; i < len(c.Args); i++ {
		w := c.Args[i]
		if strings.Contains(w, "#(") || w == ";" || strings.HasSuffix(w, ";") && i > p.Sub {
			if from < 0 || i < from {
				from = i
			}
		}
	}
	if from < 1 {
		return
	}
	for i := from; i < len(c.Args); i++ {
		m.Mark(i, why)
	}
}

// runExec is the exec-capable argument table of the programs that run
// another program they are given or download (see [ExecRule]): uvx, npx,
// pipx run, nix run, tmux, strace, script… They share the generic specs
// of wrappers (wrapperSpec), of tools whose subcommands guard does not
// type (untypedSubSpec), and pre-commit's, so each rule names its
// programs.
var runExec = []ExecRule{
	{ID: "download-run", Only: []string{"uvx", "pipx", "uv", "nix", "nix-shell", "pip-run", "bunx", "pnpx", "npx", "pre-commit"}, Check: checkDownloadRun,
		Reason: "uvx/pipx run/uv tool run/nix run download a package and run it"},
	{ID: "tmux-command", Only: []string{"tmux"}, Check: checkTmux,
		Reason: "tmux run-shell/if-shell/send-keys/set-hook/source-file/new-window CMD or #(…) runs a command"},
	{ID: "runs-program", Only: []string{"strace", "ltrace", "expect", "script", "busybox", "unbuffer", "valgrind", "chroot", "unshare", "nsenter", "firejail", "xargs", "parallel", "npx", "bunx", "pnpx"}, Rest: true,
		Reason: "strace/ltrace/expect/script/busybox/npx runs another program"},
}

// wrapTmux: tmux new[-session]/new-window/split-window/respawn-pane … 'CMD'
// runs its last argument through the shell.
func (w *walker) wrapTmux(c int, fs []field) {
	_, v := verb(fs, "-L", "-S", "-f", "-c")
	switch v {
	case "new", "new-session", "neww", "new-window", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell", "run", "send-keys", "send", "display-popup", "popup":
	default:
		return
	}
	i, _ := verb(fs, "-L", "-S", "-f", "-c")
	// the verb's own options, then the command (its words joined)
	start, ok := skipOptions(fs, i+1, grammar{argShort: "sntcxyeFflpLTb"})
	if !ok || start >= len(fs) {
		return
	}
	parts := make([]string, 0, len(fs)-start)
	dyn := false
	for _, f := range fs[start:] {
		parts = append(parts, f.val)
		dyn = dyn || f.dyn
	}
	w.a.Commands[c].Wrap = WrapShell
	w.a.Commands[c].InnerStart = start
	w.shellText(c, field{val: strings.Join(parts, " "), dyn: dyn}, "tmux "+v)
}

// wrapNixShell: nix-shell … --run CMD | --command CMD
func (w *walker) wrapNixShell(c int, fs []field) {
	for i := 1; i+1 < len(fs); i++ {
		if fs[i].val == "--run" || fs[i].val == "--command" {
			w.a.Commands[c].Wrap = WrapShell
			w.a.Commands[c].InnerStart = i + 1
			w.shellText(c, fs[i+1], "nix-shell --run")
			return
		}
	}
}

// bwrapArgs: bwrap's options and how many words each takes.
func bwrapArgs(opt string) int {
	switch opt {
	case "--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try", "--dev-bind-try", "--symlink",
		"--setenv", "--chmod", "--file", "--bind-data", "--ro-bind-data", "--overlay-src":
		return 2
	case "--proc", "--dev", "--tmpfs", "--dir", "--chdir", "--unsetenv", "--uid", "--gid", "--hostname",
		"--remount-ro", "--mqueue", "--info-fd", "--sync-fd", "--block-fd", "--userns-block-fd", "--json-status-fd",
		"--seccomp", "--add-seccomp-fd", "--exec-label", "--file-label", "--lock-file", "--args", "--cap-add",
		"--cap-drop", "--perms", "--size", "--argv0", "--userns", "--userns2", "--pidns", "--tmp-overlay", "--ro-overlay", "--overlay":
		return 1
	}
	return 0
}

// wrapBwrap: bwrap [OPTIONS…] [--] COMMAND ARG…, some options taking two words.
func (w *walker) wrapBwrap(c int, fs []field) {
	i := 1
	for i < len(fs) && !fs[i].dyn && strings.HasPrefix(fs[i].val, "--") {
		if fs[i].val == "--" {
			i++
			break
		}
		i += 1 + bwrapArgs(fs[i].val)
	}
	if i >= len(fs) {
		return
	}
	w.a.Commands[c].Wrap = WrapTransparent
	w.a.Commands[c].InnerStart = i
	w.innerCommand(c, fs[i:], "bwrap")
}

// envPassThrough: env runs its command unchanged (its NAME=VALUE words
// are judged apart, wrapperAssigns), and env -S a script classify parsed.
func envPassThrough(string, bool, []string) bool { return true }

// wrapperPassThrough: the wrappers that run the wrapped command
// unchanged and write nothing of their own, so a command under them is
// judged as if typed alone (timeout 60 go test ./... is allowed by "go
// test *"), and those whose script (WrapShell) is one classify parsed in
// bash's syntax (watch CMD, flock -c CMD, busybox sh -c). The others
// (strace, chroot, sudo, …) are still judged by what they run for the
// denylist, but need a grant to be allowed.
func wrapperPassThrough(name string, script bool, own []string) bool {
	if script {
		switch name {
		case "watch", "flock", "busybox":
			return true
		}
		return false
	}
	switch name {
	case "timeout", "nice", "nohup", "command", "builtin", "exec", "stdbuf", "ionice", "setsid", "taskset", "flock", "busybox":
		return true
	case "time":
		// GNU time -o FILE (-a: append) writes FILE
		for _, w := range own {
			if w == "-o" || w == "-a" || strings.HasPrefix(w, "--output") || w == "--append" || (strings.HasPrefix(w, "-o") && len(w) > 2) {
				return false
			}
		}
		return true
	}
	return false
}

// commandLookup: command -v/-V NAME only looks NAME up.
func commandLookup(c *Command, _ Parsed) bool {
	return len(c.Args) >= 3 && (c.Args[1] == "-v" || c.Args[1] == "-V")
}

// envAll: env without a command prints the environment, whatever its
// options. The word as written, as printenvAll.
func envAll(c *Command) bool {
	return c.Args[0] == "env" && len(c.Inner) == 0 && (c.InnerStart == 0 || c.InnerStart >= len(c.Args)) && c.Wrap != WrapShell
}
