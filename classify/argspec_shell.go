package classify

import (
	"slices"
	"strings"
	"sync"
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
	case "xargs":
		return &xargsSpec
	case "strace":
		return &straceSpec
	case "valgrind":
		return &valgrindSpec
	case "ltrace":
		return &ltraceSpec
	case "busybox":
		return &busyboxSpec
	case "npx":
		return &npxSpec
	case "chroot":
		return &chrootSpec
	case "parallel", "bunx", "pnpx", "firejail", "nsenter", "unshare",
		"unbuffer", "expect", "command", "builtin", "exec", "nohup",
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

// pythonSpec: CPython's options (python3 --help, 3.11; testdata/options/
// python.txt); python -m pytest is pytest's (pytestExec).
var pythonSpec = Spec{Runs: []string{"python", "python2", "python3", "pypy", "pypy3", "R", "iex"}, ReadOnly: VersionUseNoV, ReadOnlyFor: []string{"python3", "python"}, Exec: pytestExec, InOrder: true, First: RoleRead, FirstBy: []string{"c", "m"}, Operands: RoleUnknown, Opts: []Opt{
	{Short: "c", Val: RoleScript},
	{Short: "m", Val: RoleProgram},
	{Short: "WX", Long: []string{"check-hash-based-pycs"}, Val: RoleText},
	{Short: "VbBdEhiIOPqsSuvx", Long: []string{"version", "help", "help-env", "help-xoptions", "help-all"}},
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
	Runs: []string{"bunx", "pnpx", "parallel", "exec", "command", "builtin", "nohup", "nice", "timeout", "time",
		"stdbuf", "ionice", "setsid", "flock", "taskset", "watch", "unshare", "nsenter", "sudo", "doas", "su", "pkexec", "run0",
		"expect", "uvx", "pip-run"},
	RunsFile:    []string{"expect"},
	ReadOnly:    commandLookup,
	ReadOnlyFor: []string{"command"},
	InstallsAll: []string{"bunx", "pnpx"},
	PassThrough: wrapperPassThrough,
	Exec:        runExec,
	InOrder:     true,
	Operands:    RoleProgram,
}

// xargsSpec: xargs's options (xargs --help, GNU findutils 4.9.0;
// testdata/options/wrappers.txt): -a reads the arguments from a file; the
// command after the options is the wrapper table's, every word of it
// sensitive (runs-program).
var xargsSpec = Spec{Runs: []string{"xargs"}, PassThrough: wrapperPassThrough, Exec: runExec, InOrder: true, Abbrev: true, Operands: RoleProgram, Opts: []Opt{
	{Short: "a", Long: []string{"arg-file"}, Val: RoleRead},
	{Short: "dELnPs", Long: []string{"delimiter", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"}, Val: RoleText},
	{Short: "I", Val: RoleText},
	{Short: "e", Long: []string{"eof"}, Val: RoleText, Optional: true},
	{Short: "i", Long: []string{"replace"}, Val: RoleText, Optional: true},
	{Short: "l", Val: RoleText, Optional: true},
	{Short: "0oprtx", Long: []string{"null", "open-tty", "interactive", "no-run-if-empty", "verbose", "exit", "show-limits", "help", "version"}},
}}

// valgrindSpec: valgrind's options (valgrind --help, 3.19.0, core and
// memcheck; testdata/options/wrappers.txt): --opt=value only. --log-file,
// --xml-file and the xtree files are written, --suppressions read; the
// program after the options is the wrapper table's, every word of it
// sensitive (runs-program).
var valgrindSpec = Spec{Exec: runExec, InOrder: true, Operands: RoleProgram, Opts: []Opt{
	{Long: []string{"log-file", "xml-file", "xtree-memory-file", "xtree-leak-file"}, Val: RoleWrite, Optional: true},
	{Long: []string{"suppressions"}, Val: RoleRead, Optional: true},
	{Long: []string{
		"tool", "trace-children", "trace-children-skip", "trace-children-skip-by-arg", "child-silent-after-fork", "vgdb", "vgdb-error", "vgdb-stop-at",
		"track-fds", "time-stamp", "log-fd", "log-socket", "xml", "xml-fd", "xml-socket", "xml-user-comment", "demangle", "num-callers", "error-limit",
		"exit-on-first-error", "error-exitcode", "error-markers", "show-error-list", "keep-debuginfo", "show-below-main", "default-suppressions",
		"gen-suppressions", "input-fd", "dsymutil", "max-stackframe", "main-stacksize", "alignment", "redzone-size", "xtree-memory", "fullpath-after",
		"extra-debuginfo-path", "debuginfo-server", "allow-mismatched-debuginfo", "smc-check", "read-inline-info", "read-var-info", "vgdb-poll",
		"vgdb-shadow-registers", "vgdb-prefix", "run-libc-freeres", "run-cxx-freeres", "sim-hints", "fair-sched", "kernel-variant",
		"merge-recursive-frames", "num-transtab-sectors", "avg-transtab-entry-size", "aspace-minaddr", "valgrind-stacksize", "show-emwarns",
		"require-text-symbol", "soname-synonyms", "sigill-diagnostics", "unw-stack-scan-thresh", "unw-stack-scan-frames", "resync-filter", "max-threads",
		"leak-check", "leak-resolution", "show-leak-kinds", "errors-for-leak-kinds", "leak-check-heuristics", "show-reachable", "xtree-leak",
		"undef-value-errors", "track-origins", "partial-loads-ok", "expensive-definedness-checks", "freelist-vol", "freelist-big-blocks",
		"workaround-gcc296-bugs", "ignore-ranges", "ignore-range-below-sp", "malloc-fill", "free-fill", "keep-stacktraces", "show-mismatched-frees",
	}, Val: RoleText, Optional: true},
	{Short: "hqvs", Long: []string{"help", "quiet", "verbose", "help-debug", "help-dyn-options", "version"}},
}}

// npxSpec: npx's options (npx --help, npm 11.19.1; testdata/options/
// wrappers.txt): -c/--call runs a shell command, --package names what it
// downloads; npm's own config options (--registry, --prefix) pass through
// untyped. Every use downloads or runs a package (download-run,
// runs-program).
var npxSpec = Spec{Runs: []string{"npx"}, InstallsAll: []string{"npx"}, PassThrough: wrapperPassThrough, Exec: runExec, InOrder: true, Operands: RoleProgram, Opts: []Opt{
	{Short: "c", Long: []string{"call"}, Val: RoleProgram},
	{Short: "pw", Long: []string{"package", "workspace", "allow-scripts"}, Val: RoleText},
	{Short: "y", Long: []string{"yes", "no", "workspaces", "include-workspace-root", "strict-allow-scripts", "dangerously-allow-all-scripts", "help", "version"}},
}}

// chrootSpec: chroot [OPTION] NEWROOT [COMMAND [ARG]…] (chroot --help,
// coreutils 9.1; testdata/options/wrappers.txt): NEWROOT is a directory,
// the rest the command it runs there; every word is sensitive
// (runs-program).
var chrootSpec = Spec{Runs: []string{"chroot"}, PassThrough: wrapperPassThrough, Exec: runExec, InOrder: true, Abbrev: true, First: RoleDir, Operands: RoleProgram, Opts: []Opt{
	{Long: []string{"groups", "userspec"}, Val: RoleText},
	{Long: []string{"skip-chdir", "help", "version"}},
}}

// busyboxSpec: busybox's own options (busybox --help, 1.35.0;
// testdata/options/wrappers.txt): busybox APPLET ARGS… runs the applet,
// the wrapper table's; --install [-s] [DIR] writes a link per applet.
// Every word is sensitive (runs-program).
var busyboxSpec = Spec{Runs: []string{"busybox"}, RunsFile: []string{"busybox"}, PassThrough: wrapperPassThrough, Exec: runExec, InOrder: true, Operands: RoleProgram, Opts: []Opt{
	{Long: []string{"show"}, Val: RoleText},
	{Short: "s", Long: []string{"list", "list-full", "install", "help"}},
}}

// ltraceSpec: ltrace's options (its manual, ltrace 0.7.3; testdata/
// options/wrappers.txt): -o writes the trace, -F reads prototype files;
// every word is sensitive (runs-program).
var ltraceSpec = Spec{Exec: runExec, InOrder: true, Operands: RoleProgram, Opts: []Opt{
	{Short: "o", Long: []string{"output"}, Val: RoleWrite},
	{Short: "F", Val: RoleRead},
	{Short: "eAsxlwanDup", Long: []string{"library", "where", "align", "indent", "debug"}, Val: RoleText},
	{Short: "LSbirtTCcfVh", Long: []string{"no-signals", "demangle", "version", "help"}},
}}

// straceSpec: strace's options (its manual, strace 6.1; testdata/options/
// wrappers.txt). -o FILE writes the trace, -o '|CMD' and -o '!CMD' pipe
// it to a command (strace-output); -E sets the traced program's
// environment and -p attaches to another process: the whole command is
// sensitive anyway (runs-program).
var straceSpec = Spec{Exec: runExec, InOrder: true, Abbrev: true, Operands: RoleProgram, Opts: []Opt{
	{Short: "o", Long: []string{"output"}, Val: RoleWrite},
	{Short: "eEpubIPasUSXO", Long: []string{"env", "attach", "user", "detach-on", "interruptible", "trace-path", "columns", "string-limit",
		"summary-columns", "summary-sort-by", "const-print-style", "summary-syscall-overhead", "trace", "abbrev", "verbose", "raw", "read", "write",
		"fault", "inject", "status", "signal", "silence", "silent"}, Val: RoleText},
	{Long: []string{"quiet", "decode-fds", "decode-pids", "timestamps", "secontext", "tips", "seccomp-bpf", "stack-traces", "output-separately"}, Val: RoleText, Optional: true},
	{Short: "ACDFTVYZcdfhiknqrtvwxyz", Long: []string{"output-append-mode", "summary", "daemonize", "syscall-times", "version", "failed-only", "summary-only", "debug",
		"follow-forks", "help", "instruction-pointer", "syscall-number", "relative-timestamps", "absolute-timestamps", "no-abbrev", "summary-wall-clock",
		"strings-in-hex", "successful-only", "pidns-translation"}},
}}

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
//
// The options are gdb --help's (GNU gdb 13.1; testdata/options/gdb.txt).
// --data-directory (-D) holds the Python gdb loads at start: code too.
// --exec, --se and --symbols read the files they name, like operands.
var gdbSpec = Spec{Exec: gdbExec, OneDash: true, Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Long: []string{"ex", "iex", "eval-command", "init-eval-command"}, Val: RoleScript},
	{Long: []string{"x", "ix", "command", "init-command", "data-directory", "D"}, Val: RoleProgram},
	{Long: []string{"exec", "e", "se", "symbols", "s"}, Val: RoleRead},
	{Long: []string{"cd"}, Val: RoleDir},
	{Long: []string{"p", "pid", "core", "c", "d", "directory", "tty", "interpreter", "i", "b", "l"}, Val: RoleText},
	{Long: []string{"args"}, Val: RoleRead, Rest: true}, // --args PROGRAM ARG…: the program and its arguments, not gdb's options
	{Long: []string{"batch", "batch-silent", "q", "quiet", "silent", "nx", "n", "nh", "version", "help", "tui", "readnow", "readnever", "write",
		"fullname", "w", "nw", "return-child-result", "configuration"}},
}}

// gdbExec is the exec-capable argument table of gdbSpec's programs (see [ExecRule]).
var gdbExec = []ExecRule{
	{ID: "gdb-command", Opts: []string{"ex", "iex", "eval-command", "init-eval-command", "x", "ix", "command", "init-command", "batch", "batch-silent", "data-directory", "D"},
		Reason: "gdb -ex/-x/-batch runs debugger commands; --data-directory loads its Python"},
}

// checkDownloadRun marks a download-and-run from its run word on: uvx,
// pip-run, npx and dnx whole, pipx run, uv tool run (and uv x), nix run,
// nix shell, nix-shell --run/--command, gem exec, pixi exec, dotnet tool
// exec; and rustup run TOOLCHAIN CMD, which runs CMD. No '*' covers what they fetch.
func checkDownloadRun(c *Command, p Parsed, m Marker) {
	const why = "uvx/pipx run/uv tool run/nix run/gem exec/pixi exec download a package and run it; rustup run runs another command"
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
	case "uvx", "pip-run", "npx", "bunx", "pnpx", "dnx":
		from = 1
	case "gem", "pixi":
		if op(0) == "exec" {
			from = ops[0]
		}
	case "rustup":
		if op(0) == "run" {
			from = ops[0]
		}
	case "dotnet":
		if op(0) == "tool" && (op(1) == "exec" || op(1) == "execute") {
			from = ops[1]
		}
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

// tmuxSpec: tmux [-2CDluvV] [-c shell-command] [-f file] [-L socket-name]
// [-S socket-path] [-T features] [COMMAND [FLAGS]] (tmux 3.3a; the
// commands' flags are tmux list-commands', testdata/options/tmux.txt). -c
// runs a shell command and -f loads a config of tmux commands
// (tmux-config); the commands that run or type a command line are
// tmux-command's. A command tmuxCommands does not know is not typed.
var tmuxSpec = Spec{Exec: runExec, Sub: tmuxSub, Opts: []Opt{
	{Short: "cf", Val: RoleProgram},
	{Short: "LST", Val: RoleText},
	{Short: "2CDluvV"},
}}

func tmuxSub(name string) *Spec { return tmuxCommandSpecs()[name] }

// tmuxCommandSpecs are the specs of tmux's commands, by name and alias:
// made the first time a tmux command is read, not by every guard at
// start (180 map entries and 90 specs were a tenth of the hook's
// start-up).
var tmuxCommandSpecs = sync.OnceValue(func() map[string]*Spec {
	out := make(map[string]*Spec, 2*len(tmuxCommands))
	for _, tc := range tmuxCommands {
		s := &Spec{Operands: RoleText, Opts: []Opt{{Short: tc.flags}, {Short: tc.vals, Val: RoleText}}}
		out[tc.name] = s
		if tc.alias != "" {
			out[tc.alias] = s
		}
	}
	return out
})

// tmuxCommands are tmux's commands (tmux list-commands, 3.3a): name,
// alias, the letters that are flags and those that take a value.
var tmuxCommands = []struct{ name, alias, flags, vals string }{
	{"attach-session", "attach", "dErx", "cft"},
	{"bind-key", "bind", "nr", "TN"},
	{"break-pane", "breakp", "abdP", "Fnst"},
	{"capture-pane", "capturep", "aCeJNpPq", "bESt"},
	{"choose-buffer", "", "NrZ", "FfKOt"},
	{"choose-client", "", "NrZ", "FfKOt"},
	{"choose-tree", "", "GNrswZ", "FfKOt"},
	{"clear-history", "clearhist", "", "t"},
	{"clear-prompt-history", "clearphist", "", "T"},
	{"clock-mode", "", "", "t"},
	{"command-prompt", "", "1bFkiN", "IptT"},
	{"confirm-before", "confirm", "b", "pt"},
	{"copy-mode", "", "eHMuq", "st"},
	{"customize-mode", "", "NZ", "Fft"},
	{"delete-buffer", "deleteb", "", "b"},
	{"detach-client", "detach", "aP", "Est"},
	{"display-menu", "menu", "O", "ctTxy"},
	{"display-message", "display", "aINpv", "cdFt"},
	{"display-popup", "popup", "BCE", "bcdehsStTwxy"},
	{"display-panes", "displayp", "bN", "dt"},
	{"find-window", "findw", "CiNrTZ", "t"},
	{"has-session", "has", "", "t"},
	{"if-shell", "if", "bF", "t"},
	{"join-pane", "joinp", "bdfhv", "lst"},
	{"kill-pane", "killp", "a", "t"},
	{"kill-server", "", "", ""},
	{"kill-session", "", "aC", "t"},
	{"kill-window", "killw", "a", "t"},
	{"last-pane", "lastp", "deZ", "t"},
	{"last-window", "last", "", "t"},
	{"link-window", "linkw", "abdk", "st"},
	{"list-buffers", "lsb", "", "Ff"},
	{"list-clients", "lsc", "", "Ft"},
	{"list-commands", "lscm", "", "F"},
	{"list-keys", "lsk", "1aN", "PT"},
	{"list-panes", "lsp", "as", "Fft"},
	{"list-sessions", "ls", "", "Ff"},
	{"list-windows", "lsw", "a", "Fft"},
	{"load-buffer", "loadb", "", "bt"},
	{"lock-client", "lockc", "", "t"},
	{"lock-server", "lock", "", ""},
	{"lock-session", "locks", "", "t"},
	{"move-pane", "movep", "bdfhv", "lst"},
	{"move-window", "movew", "abdkr", "st"},
	{"new-session", "new", "AdDEPX", "ceFfnstxy"},
	{"new-window", "neww", "abdkPS", "ceFnt"},
	{"next-layout", "nextl", "", "t"},
	{"next-window", "next", "a", "t"},
	{"paste-buffer", "pasteb", "dpr", "sbt"},
	{"pipe-pane", "pipep", "IOo", "t"},
	{"previous-layout", "prevl", "", "t"},
	{"previous-window", "prev", "a", "t"},
	{"refresh-client", "refresh", "cDlLRSU", "ABCft"},
	{"rename-session", "rename", "", "t"},
	{"rename-window", "renamew", "", "t"},
	{"resize-pane", "resizep", "DLMRTUZ", "xyt"},
	{"resize-window", "resizew", "aADLRU", "xyt"},
	{"respawn-pane", "respawnp", "k", "cet"},
	{"respawn-window", "respawnw", "k", "cet"},
	{"rotate-window", "rotatew", "DUZ", "t"},
	{"run-shell", "run", "bC", "dt"},
	{"save-buffer", "saveb", "a", "b"},
	{"select-layout", "selectl", "Enop", "t"},
	{"select-pane", "selectp", "DdeLlMmRUZ", "Tt"},
	{"select-window", "selectw", "lnpT", "t"},
	{"send-keys", "send", "FHlMRX", "Nt"},
	{"send-prefix", "", "2", "t"},
	{"server-access", "", "adlrw", "t"},
	{"set-buffer", "setb", "aw", "bnt"},
	{"set-environment", "setenv", "Fhgru", "t"},
	{"set-hook", "", "agpRuw", "t"},
	{"set-option", "set", "aFgopqsuUw", "t"},
	{"set-window-option", "setw", "aFgoqu", "t"},
	{"show-buffer", "showb", "", "b"},
	{"show-environment", "showenv", "hgs", "t"},
	{"show-hooks", "", "gpw", "t"},
	{"show-messages", "showmsgs", "JT", "t"},
	{"show-options", "show", "AgHpqsvw", "t"},
	{"show-prompt-history", "showphist", "", "T"},
	{"show-window-options", "showw", "gv", "t"},
	{"source-file", "source", "Fnqv", ""},
	{"split-window", "splitw", "bdfhIPvZ", "ceFlt"},
	{"start-server", "start", "", ""},
	{"suspend-client", "suspendc", "", "t"},
	{"swap-pane", "swapp", "dDUZ", "st"},
	{"swap-window", "swapw", "d", "st"},
	{"switch-client", "switchc", "ElnprZ", "ctT"},
	{"unbind-key", "unbind", "anq", "T"},
	{"unlink-window", "unlinkw", "k", "t"},
	{"wait-for", "wait", "LSU", ""},
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
	{ID: "download-run", Only: []string{"uvx", "pipx", "uv", "nix", "nix-shell", "pip-run", "bunx", "pnpx", "npx", "pre-commit", "gem", "pixi", "rustup", "dotnet", "dnx"}, Check: checkDownloadRun,
		Reason: "uvx/pipx run/uv tool run/nix run/gem exec/pixi exec download a package and run it; rustup run runs another command"},
	{ID: "tmux-config", Only: []string{"tmux"}, Global: true, Opts: []string{"c", "f"},
		Reason: "tmux -c runs a shell command, -f loads a config of tmux commands"},
	{ID: "tmux-command", Only: []string{"tmux"}, Check: checkTmux,
		Reason: "tmux run-shell/if-shell/send-keys/set-hook/source-file/new-window CMD or #(…) runs a command"},
	{ID: "strace-output", Only: []string{"strace"}, Check: checkStraceOutput,
		Reason: "strace -o '|CMD' pipes the trace to a command"},
	{ID: "runs-program", Only: []string{"strace", "ltrace", "expect", "script", "busybox", "unbuffer", "valgrind", "chroot", "unshare", "nsenter", "firejail", "xargs", "parallel", "npx", "bunx", "pnpx"}, Rest: true,
		Reason: "strace/ltrace/expect/script/busybox/npx runs another program"},
}

// checkStraceOutput marks strace -o |CMD and -o !CMD, which run CMD.
func checkStraceOutput(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		if (wd.Name == "output" || Unresolved(wd, "output", "o")) && (strings.HasPrefix(wd.Val, "|") || strings.HasPrefix(wd.Val, "!")) {
			m.MarkWord(c, wd, "strace -o '|CMD' pipes the trace to a command")
		}
	}
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
