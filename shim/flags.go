package shim

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// invocation is a shell command line taken apart the way bash takes it apart.
type invocation struct {
	HasC      bool     // -c was given: Text is the command string
	Text      string   // the -c command string ("" is a valid empty command)
	Operands  []string // with -c: $0 $1 …; without: a script file and its arguments
	Flags     []string // options passed to the real shell unchanged, in order, without c
	ReadStdin bool     // -s: commands come from stdin even when operands are given
}

// shellLetters are the single-letter options bash and sh accept on their
// command line (set options plus -i -l -r -s -D, and dash's -V -E). o and O
// take the next argument; c selects command-string mode and is handled apart.
const shellLetters = "abefhkmnptuvxBCEHPTilrsDV"

// longOpts are bash's multi-character options, mapped to whether they take an
// argument.
var longOpts = map[string]bool{
	"--debug": false, "--debugger": false, "--dump-po-strings": false,
	"--dump-strings": false, "--help": false, "--login": false,
	"--noediting": false, "--noprofile": false, "--norc": false,
	"--posix": false, "--pretty-print": false, "--restricted": false,
	"--verbose": false, "--version": false, "--wordexp": false,
	"--init-file": true, "--rcfile": true,
}

// usageError is a command line bash itself would reject (bash exits 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// parseShellArgs parses args (without argv[0]) as bash parses its command line.
func parseShellArgs(args []string) (*invocation, error) {
	inv := &invocation{}
	i := 0
options:
	for i < len(args) {
		a := args[i]
		switch {
		case a == "--" || a == "-":
			i++
			break options
		case strings.HasPrefix(a, "--"):
			takesArg, ok := longOpts[a]
			if !ok {
				return nil, &usageError{fmt.Sprintf("%s: invalid option", a)}
			}
			inv.Flags = append(inv.Flags, a)
			i++
			if takesArg {
				if i >= len(args) {
					return nil, &usageError{fmt.Sprintf("%s: option requires an argument", a)}
				}
				inv.Flags = append(inv.Flags, args[i])
				i++
			}
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			kept := []byte{a[0]}
			var optArgs []string
			i++
			for _, ch := range []byte(a[1:]) {
				switch {
				case ch == 'c' && a[0] == '-':
					inv.HasC = true
				case ch == 'o' || ch == 'O':
					if i >= len(args) {
						return nil, &usageError{fmt.Sprintf("%c%c: option requires an argument", a[0], ch)}
					}
					kept = append(kept, ch)
					optArgs = append(optArgs, args[i])
					i++
				case strings.IndexByte(shellLetters, ch) >= 0:
					if ch == 's' && a[0] == '-' {
						inv.ReadStdin = true
					}
					kept = append(kept, ch)
				default:
					return nil, &usageError{fmt.Sprintf("%c%c: invalid option", a[0], ch)}
				}
			}
			if len(kept) > 1 {
				inv.Flags = append(inv.Flags, string(kept))
			}
			inv.Flags = append(inv.Flags, optArgs...)
		default:
			break options
		}
	}
	rest := args[i:]
	if inv.HasC {
		if len(rest) == 0 {
			if slices.Contains(inv.Flags, "--help") {
				// guard -c --help: someone wants guard's help, not bash's
				return nil, &usageError{"-c needs a command text (guard -c 'CMD'); for guard's own help run guard --help"}
			}
			return nil, &usageError{"-c: option requires an argument"}
		}
		inv.Text, rest = rest[0], rest[1:]
	}
	inv.Operands = rest
	return inv, nil
}

// shellNames are the argv[0] names under which guard acts as that shell.
var shellNames = map[string]bool{"bash": true, "sh": true}

// dispatchName returns "bash" or "sh" when guard was invoked through a link of
// that name, else "".
func dispatchName(argv0 string) string {
	base := filepath.Base(argv0)
	base = strings.TrimPrefix(base, "-") // a login shell's argv[0] is "-bash"
	if shellNames[base] {
		return base
	}
	return ""
}

// notShellFlags are first arguments that look like shell flags but belong to
// guard's own CLI.
var notShellFlags = map[string]bool{"-h": true, "-v": true, "--help": true, "--version": true}

// cliCommands are the names guard-cli answers as subcommands (urfave/cli
// adds help and h). guard NAME runs the subcommand even when a file NAME
// sits in the working directory: ./NAME names the file.
var cliCommands = map[string]bool{
	"approve": true, "audit": true, "check": true, "doctor": true, "exec": true, "explain": true,
	"grants": true, "h": true, "help": true, "pending": true, "redact": true, "reject": true,
	"trust": true, "version": true, "watch": true,
}

// isScriptFile reports whether guard's first argument names a script file
// to run as a shell would ($SHELL FILE, as make and editors do): an
// existing regular file that is not a subcommand's name.
func isScriptFile(arg string) bool {
	if arg == "" || cliCommands[arg] {
		return false
	}
	fi, err := os.Stat(arg)
	return err == nil && fi.Mode().IsRegular()
}

// IsShellInvocation reports whether args (a full os.Args) is a shell command
// line rather than a guard subcommand: guard was invoked as bash or sh, or
// args[1] is a shell flag (-c, -lc, -l, --login, -o, …) or a script file
// (see isScriptFile), or there are no arguments at all (guard is someone's
// login shell). cmd/guard sends these to Main.
func IsShellInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if dispatchName(args[0]) != "" || len(args) == 1 {
		return true
	}
	a := args[1]
	if notShellFlags[a] {
		return false
	}
	if a == "-" {
		return true
	}
	if strings.HasPrefix(a, "--") {
		_, ok := longOpts[a]
		return ok
	}
	if a == "" || a[0] != '-' {
		return isScriptFile(a)
	}
	for _, ch := range []byte(a[1:]) {
		if ch != 'c' && ch != 'o' && ch != 'O' && strings.IndexByte(shellLetters, ch) < 0 {
			return false
		}
	}
	return true
}
