package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/redact"
	"github.com/guard-dev/guard/shim"
)

// Exit codes. A wrapped command's own status travels up untouched instead.
const (
	exitOK       = 0   // success; for check: a decision was made
	exitNotFound = 1   // what was asked for does not exist (context show ID)
	exitUsage    = 2   // a command line guard cannot use: say what, and how
	exitTimeout  = 124 // the command ran past its timeout
	exitFailure  = 125 // guard itself failed
	exitRefused  = 126 // guard refused: denied, needs approval, or no human to ask
)

// Defaults of the CLI's own flags. Settings that a flag can override (the run
// timeout of guard exec) resolve as: flag > GUARD_* environment > TOML >
// built-in; package shim applies that order when the flag is absent.
const (
	defaultAuditLimit = 50 // guard audit -n
)

// App is one run of the guard CLI: everything a subcommand may touch from the
// outside world. There is no package-level mutable state; tests build their own.
type App struct {
	Stdin, Stdout, Stderr *os.File
	Getenv                func(string) string
	Environ               []string
	Cwd                   string // "" when the working directory could not be read
	Now                   func() time.Time
	Self                  string   // path of the running guard binary
	Args                  []string // the full command line, set by run
}

// newApp builds the App for this process, from the same process facts
// package shim reads for guard.
func newApp(stdin, stdout, stderr *os.File) *App {
	env := shim.FromProcess()
	return &App{
		Stdin:   stdin,
		Stdout:  stdout,
		Stderr:  stderr,
		Getenv:  env.Getenv,
		Environ: env.Environ,
		Cwd:     env.Cwd,
		Now:     env.Now,
		Self:    env.Self,
	}
}

// shimEnv hands the process facts to package shim.
func (a *App) shimEnv() shim.Env {
	return shim.Env{
		Stdin:   a.Stdin,
		Stdout:  a.Stdout,
		Stderr:  a.Stderr,
		Args:    a.Args,
		Getenv:  a.Getenv,
		Environ: a.Environ,
		Cwd:     a.Cwd,
		Now:     a.Now,
		Self:    a.Self,
	}
}

// run is the whole program: shell invocations go to shim, the rest to the CLI.
// It returns the process exit status.
func (a *App) run(args []string) int {
	a.Args = args
	if shim.IsCompletion(args) {
		return a.complete(args[1 : len(args)-1]) // never runs what was typed
	}
	if shim.IsShellInvocation(args) {
		return shim.Main(a.shimEnv())
	}
	err := a.cli().Run(args)
	return a.report(err)
}

// cliError is an error that cmd/guard prints and turns into an exit status.
type cliError struct {
	code int
	kind string // "error" or "denied"
	msg  string
	hint string
}

func (e *cliError) Error() string { return e.msg }

// statusError carries a wrapped command's exit status; it is never printed.
type statusError int

func (e statusError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func usageError(format string, args ...any) error {
	return &cliError{code: exitUsage, kind: "error", msg: fmt.Sprintf(format, args...)}
}

func failure(err error, hint string) error {
	return &cliError{code: exitFailure, kind: "error", msg: err.Error(), hint: hint}
}

func refused(msg, hint string) error {
	return &cliError{code: exitRefused, kind: "denied", msg: msg, hint: hint}
}

// report prints err the one way guard prints things and returns the exit status.
func (a *App) report(err error) int {
	if err == nil {
		return exitOK
	}
	var st statusError
	if errors.As(err, &st) {
		return int(st)
	}
	var ce *cliError
	if !errors.As(err, &ce) {
		ce = &cliError{code: exitUsage, kind: "error", msg: err.Error()}
	}
	a.diag(ce.kind, ce.msg)
	if ce.hint != "" {
		a.diag("hint", ce.hint)
	}
	return ce.code
}

// diag writes one diagnostic line to stderr: `guard: KIND: MSG`.
func (a *App) diag(kind, msg string) {
	msg = strings.ReplaceAll(strings.TrimSpace(msg), "\n", " ")
	fmt.Fprintf(a.Stderr, "guard: %s: %s\n", kind, msg)
}

// protected lists what a guarded command may not write: guard's config,
// state and shim links, and the guard binary itself.
func (a *App) protected(p grants.Paths) []string {
	return append(p.Protected(), shim.Binaries(a.Self)...)
}

// redactor returns the secret filter for this process's environment.
func (a *App) redactor() *redact.Redactor {
	return redact.New(a.Environ)
}

// paths returns guard's file locations, from the XDG and GUARD_* variables.
func (a *App) paths() grants.Paths {
	return grants.PathsFromEnv(a.Getenv)
}

// cwdOr resolves a --cwd flag against the process's working directory.
func (a *App) cwdOr(dir string) (string, error) {
	if dir == "" {
		dir = a.Cwd
	}
	if dir == "" {
		return "", failure(errors.New("cannot read the working directory"), "run guard from an existing directory or pass --cwd")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(a.Cwd, dir)
	}
	return filepath.Clean(dir), nil
}

// refuseInsideGuard stops a granting verb started from inside a guarded
// command. GUARD_ACTIVE says so, but a script guard let run can unset it;
// the process tree cannot lie: every process a guarded command starts stays
// a descendant of that guard (guard is a subreaper and kills what is left
// when the command ends), so an ancestor running guard's own executable
// means this verb was not typed by the human at their own shell.
func (a *App) refuseInsideGuard(verb string) error {
	if a.Getenv("GUARD_ACTIVE") != "" {
		return refused(verb+" cannot run inside a guarded command (GUARD_ACTIVE is set)",
			"run it yourself in a terminal outside the agent")
	}
	// (where /proc cannot tell, -1: the GUARD_ACTIVE check above stands alone)
	if pid := shim.GuardShellAncestor(a.Self, os.Getppid()); pid > 0 {
		return refused(fmt.Sprintf("%s cannot run inside a guarded command (started under guard, pid %d)", verb, pid),
			"run it yourself in a terminal outside the agent")
	}
	// The kernel's word: every process a confined command starts, detached
	// or not, sees guard's config read-only.
	if shim.ConfigReadOnly(a.paths().ConfigDir) {
		return refused(verb+" cannot run inside a guarded command (guard's config is read-only here: the command is confined)",
			"run it yourself in a terminal outside the agent")
	}
	return nil
}

// cli builds the command tree.
func (a *App) cli() *cli.App {
	app := &cli.App{
		Name:        "guard",
		Usage:       "decide which shell commands an AI agent may run",
		UsageText:   "guard COMMAND [options]\n\nexample:\n   guard check -- 'rm -rf /'\n   guard -c 'git status'   (as an agent's shell)",
		Reader:      a.Stdin,
		Writer:      a.Stdout,
		ErrWriter:   a.Stderr,
		HideVersion: true,
		// guard's own help command (helpCommand) says things guard's way
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError:    onUsageError,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "version", Aliases: []string{"v", "V"}, Usage: "print guard's version"},
			// urfave/cli adds --help itself only when no command is named
			// help; this one has cli.HelpFlag's names, which it looks for
			&cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show help"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("version") {
				return a.version(c)
			}
			if c.Args().Present() {
				hint := "run guard --help for the list of commands"
				if m := didYouMean(c.Args().First(), c.App.Commands); m != "" {
					hint = "did you mean guard " + m + "? " + hint
				}
				return &cliError{code: exitUsage, kind: "error", msg: fmt.Sprintf("unknown command %q", c.Args().First()),
					hint: hint}
			}
			return cli.ShowAppHelp(c)
		},
		Commands: []*cli.Command{
			a.checkCommand(),
			a.explainCommand(),
			a.execCommand(),
			a.grantsCommand(),
			a.trustCommand(),
			a.pendingCommand(),
			a.approveCommand(),
			a.rejectCommand(),
			a.watchCommand(),
			a.uiCommand(),
			a.auditCommand(),
			a.telemetryCommand(),
			a.policyCommand(),
			a.redactCommand(),
			a.contextCommand(),
			a.installCommand(),
			a.uninstallCommand(),
			a.serveCommand(),
			a.proxyCommand(),
			a.hookCommand(),
			a.doctorCommand(),
			a.versionCommand(),
			a.completionCommand(),
			a.helpCommand(),
		},
	}
	quietBoolDefaults(app.Flags)
	uniform(app.Commands)
	return app
}

// helpCommand is guard help [COMMAND…]: the list of commands, or the
// help of one, exactly as COMMAND… --help shows it (and an unknown
// command is reported the way guard reports it everywhere).
func (a *App) helpCommand() *cli.Command {
	return &cli.Command{
		Name:  "help",
		Usage: "show the list of commands, or the help of one",
		UsageText: `guard help [COMMAND [SUBCOMMAND]]

example:
   guard help
   guard help grants add`,
		Action: func(c *cli.Context) error {
			if !c.Args().Present() {
				return cli.ShowAppHelp(c)
			}
			args := append([]string{"guard"}, c.Args().Slice()...)
			return a.cli().Run(append(args, "--help"))
		},
	}
}

// uniform gives every command guard's usage-error reporting, no help
// subcommand below the top level (guard help CMD covers them), an unknown
// subcommand reported like an unknown command, and flag help that states a
// default once: a bool flag says "(default)" in its usage where it is one,
// instead of urfave/cli's "(default: false)" on every switch.
func uniform(cmds []*cli.Command) {
	for _, c := range cmds {
		c.OnUsageError = onUsageError
		c.HideHelpCommand = true
		quietBoolDefaults(c.Flags)
		if len(c.Subcommands) > 0 && c.Action == nil {
			c.Action = unknownSubcommand
		}
		uniform(c.Subcommands)
	}
}

// quietBoolDefaults drops urfave/cli's "(default: false)" from bool flags.
func quietBoolDefaults(flags []cli.Flag) {
	for _, f := range flags {
		if b, ok := f.(*cli.BoolFlag); ok {
			b.DisableDefaultText = true
		}
	}
}

// unknownSubcommand is the action of a command that only groups others
// (guard grants): with no argument it shows its help, with one it names
// the word it did not know.
func unknownSubcommand(c *cli.Context) error {
	if !c.Args().Present() {
		return cli.ShowSubcommandHelp(c)
	}
	hint := "run " + c.Command.HelpName + " --help for its commands"
	if m := didYouMean(c.Args().First(), c.Command.Subcommands); m != "" {
		hint = "did you mean " + c.Command.HelpName + " " + m + "? " + hint
	}
	return &cliError{code: exitUsage, kind: "error",
		msg:  fmt.Sprintf("unknown command %q for %s", c.Args().First(), c.Command.HelpName),
		hint: hint}
}

// didYouMean returns the command whose name is nearest to word (at most two
// edits away, or word a prefix of it), or "".
func didYouMean(word string, cmds []*cli.Command) string {
	best, bestD := "", 3
	for _, c := range cmds {
		if c.Hidden {
			continue
		}
		for _, name := range c.Names() {
			d := editDistance(word, name)
			if len(word) >= 3 && strings.HasPrefix(name, word) {
				d = 1
			}
			if d < bestD {
				best, bestD = c.Name, d
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func onUsageError(c *cli.Context, err error, _ bool) error {
	name := "guard"
	if c.Command != nil && c.Command.HelpName != "" {
		name = c.Command.HelpName
	}
	return &cliError{code: exitUsage, kind: "error", msg: longDashes(lowerFirst(err.Error())),
		hint: "run " + name + " --help for usage"}
}

// longDashes writes the long flags in a message of Go's flag package the way
// guard's help spells them: "flag -since: parse error" names --since, which
// is what the user typed and what --help lists. One-letter flags (-n) keep
// their single dash.
func longDashes(msg string) string {
	words := strings.Split(msg, " ")
	for i, w := range words {
		name := strings.TrimRight(strings.TrimPrefix(w, "-"), ":,")
		if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && len(name) > 1 &&
			name[0] >= 'a' && name[0] <= 'z' {
			words[i] = "-" + w
		}
	}
	return strings.Join(words, " ")
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// joinArgs turns CMD… on the command line into one command text.
func joinArgs(args []string) string {
	return strings.Join(args, " ")
}
