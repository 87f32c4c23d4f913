package shim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// CLIName is the program that holds guard's management commands (check,
// grants, audit, approve, …). guard execs it for every command line that is
// not a shell invocation or a plain guard exec; it lives next to guard.
const CLIName = "guard-cli"

// FromProcess returns the Env of this process.
func FromProcess() Env {
	started := time.Now()
	cwd, err := os.Getwd()
	if err != nil {
		cwd = ""
	}
	self, err := os.Executable()
	if err != nil {
		self = ""
	}
	return Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Args: os.Args, Getenv: os.Getenv, Environ: os.Environ(),
		Cwd: cwd, Now: time.Now, Self: self, Started: started,
	}
}

// Front is the whole of the guard program, the one on every command's path:
// shell invocations go to [Main], guard exec with the flags it documents to
// [Exec], and every other command line to guard-cli, which replaces this
// process (same pid, same files; guard-cli names itself guard).
//
// guard and guard-cli are two programs because start-up is paid on every
// command an agent runs: the management commands need urfave/cli and SQLite,
// which is C (cgo), and linking them cost guard -c about 1.6 ms per command
// of a budget of about 1 ms (bench/overhead.sh).
func Front(env Env) int {
	args := env.Args
	if len(args) == 0 {
		args = []string{"guard"}
	}
	if IsConfineStage(args) {
		return ConfineStage(args, env.Stderr)
	}
	if filepath.Base(args[0]) == CLIName {
		// guard execs guard-cli with its path as argv[0]: this guard-cli is
		// guard itself (a link or a copy), which would exec itself for ever.
		fmt.Fprintf(env.Stderr, "guard: error: %s is guard itself, not the management CLI; reinstall guard with ./install.sh\n", args[0])
		return ExitFailure
	}
	completing := IsCompletion(args)
	if !completing && len(args) > 2 && args[1] == "hook" && args[2] != "--help" && args[2] != "-h" && dispatchName(args[0]) == "" {
		return Hook(env, args[2:])
	}
	if len(args) == 2 && dispatchName(args[0]) == "" && (args[1] == "--version" || args[1] == "-V" || args[1] == "version") {
		// answered here: it must work where guard-cli is missing or broken
		fmt.Fprintln(env.Stdout, VersionString(env.Version))
		return 0
	}
	if IsShellInvocation(args) && !completing {
		return Main(env)
	}
	if args[1] == "exec" && !completing {
		// A relative --cwd with no readable working directory is guard-cli's
		// to refuse, with its message.
		if x, ok := parseExec(args[2:]); ok && (filepath.IsAbs(x.cwd) || env.Cwd != "") {
			cwd := x.cwd
			if cwd != "" && !filepath.IsAbs(cwd) {
				cwd = filepath.Join(env.Cwd, cwd)
			}
			if x.noCache {
				env = NoCache(env)
			}
			return Exec(env, x.argv, x.timeout, cwd)
		}
	}
	path, err := FindCLI(env.Self, env.getenv("PATH"))
	if err != nil {
		fmt.Fprintf(env.Stderr, "guard: error: %v\n", err)
		return ExitFailure
	}
	argv := append([]string{path}, args[1:]...)
	err = syscall.Exec(path, argv, env.Environ)
	fmt.Fprintf(env.Stderr, "guard: error: run %s: %v\n", path, err)
	return ExitFailure
}

// IsCompletion reports whether args is a shell's completion request to
// guard (its last word --generate-bash-completion, guard completion): it
// goes to guard-cli, and is never run as a command line, whatever words
// come before it.
func IsCompletion(args []string) bool {
	return len(args) > 1 && dispatchName(args[0]) == "" && args[len(args)-1] == "--generate-bash-completion"
}

// execArgs is a guard exec command line, taken apart.
type execArgs struct {
	argv    []string
	timeout time.Duration // 0: configured
	cwd     string
	noCache bool // --no-cache: neither served from nor stored in the context store
}

// parseExec takes apart the arguments after "exec" when they use only what
// guard exec documents: --timeout D, --cwd DIR (also as --flag=value or with
// one dash), an optional --, then PROG ARGS…. Anything else (--help, an
// unknown flag, a bad duration, no program) reports !ok, and guard-cli's
// parser answers it, with the same messages as every other command.
func parseExec(args []string) (x execArgs, ok bool) {
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		name, value, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "no-cache" && !inline && !strings.HasPrefix(a, "---") {
			x.noCache, args = true, args[1:]
			continue
		}
		if strings.HasPrefix(a, "---") || (name != "timeout" && name != "cwd") {
			return execArgs{}, false
		}
		if !inline {
			if len(args) < 2 {
				return execArgs{}, false
			}
			value, args = args[1], args[1:]
		}
		args = args[1:]
		switch name {
		case "timeout":
			d, err := time.ParseDuration(value)
			if err != nil || d <= 0 {
				return execArgs{}, false
			}
			x.timeout = d
		case "cwd":
			if value == "" {
				return execArgs{}, false
			}
			x.cwd = value
		}
	}
	if len(args) == 0 {
		return execArgs{}, false
	}
	x.argv = args
	return x, true
}

// FindCLI returns guard-cli's path: next to guard's own executable (self),
// else the first executable guard-cli on PATH (absolute entries only).
func FindCLI(self, path string) (string, error) {
	var tried []string
	if self != "" {
		p := filepath.Join(filepath.Dir(self), CLIName)
		if executable(p) {
			return p, nil
		}
		tried = append(tried, p)
	}
	for _, dir := range filepath.SplitList(path) {
		if filepath.IsAbs(dir) {
			if p := filepath.Join(dir, CLIName); executable(p) {
				return p, nil
			}
		}
	}
	where := "on PATH"
	if len(tried) > 0 {
		where = "at " + tried[0] + " nor on PATH"
	}
	return "", errors.New(CLIName + ", which runs guard's management commands, is not installed " + where +
		"; reinstall guard with ./install.sh")
}

// Binaries returns the paths of guard's own programs, given either one's
// executable: a guarded command that replaced one of them would unguard or
// subvert what comes after.
func Binaries(self string) []string {
	if self == "" {
		return nil
	}
	dir := filepath.Dir(self)
	out := []string{self}
	for _, name := range []string{"guard", CLIName} {
		if p := filepath.Join(dir, name); p != self {
			out = append(out, p)
		}
	}
	return out
}
