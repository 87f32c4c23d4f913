package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// completionFlag is what a shell's completion asks guard with: urfave/cli
// answers it with the commands and flags that fit after the words before.
const completionFlag = "--generate-bash-completion"

func (a *App) completionCommand() *cli.Command {
	return &cli.Command{
		Name:  "completion",
		Usage: "print the shell completion script for bash, zsh or fish",
		UsageText: `guard completion bash|zsh|fish

Completes guard's commands, subcommands and flags. It never runs what you
typed: guard -c and other shell forms are not completed.

example:
   source <(guard completion bash)                    # in ~/.bashrc
   guard completion zsh > "${fpath[1]}/_guard"        # then compinit
   guard completion fish > ~/.config/fish/completions/guard.fish`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("completion needs a shell: bash, zsh or fish")
			}
			switch c.Args().First() {
			case "bash":
				fmt.Fprint(a.Stdout, bashCompletion)
			case "zsh":
				fmt.Fprint(a.Stdout, zshCompletion)
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return failure(fmt.Errorf("fish completion: %w", err), "")
				}
				fmt.Fprint(a.Stdout, s)
			default:
				return usageError("completion: unknown shell %q: bash, zsh or fish", c.Args().First())
			}
			return nil
		},
	}
}

// complete answers a completion request for the words typed after guard:
// the subcommands of the deepest command they name, or, when the last word
// starts with "-", that command's flags. It only reads the command tree.
func (a *App) complete(words []string) int {
	app := a.cli()
	cmds, flags := app.Commands, app.Flags
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			continue
		}
		var next *cli.Command
		for _, c := range cmds {
			if c.HasName(w) {
				next = c
			}
		}
		if next == nil {
			break
		}
		cmds, flags = next.Subcommands, next.Flags
	}
	if n := len(words); n > 0 && strings.HasPrefix(words[n-1], "-") {
		for _, f := range flags {
			for _, name := range f.Names() {
				if len(name) > 1 {
					fmt.Fprintln(a.Stdout, "--"+name)
				}
			}
		}
		return exitOK
	}
	for _, c := range cmds {
		if !c.Hidden {
			fmt.Fprintln(a.Stdout, c.Name)
		}
	}
	return exitOK
}

// bashCompletion asks guard for the words that fit, passing what was typed
// as arguments (never through eval), and only for a management command line:
// a line whose first word is a flag (guard -c CMD) is a shell invocation,
// and completing it must not run it.
const bashCompletion = `# guard completion bash: source it from ~/.bashrc
_guard_complete() {
	local cur=${COMP_WORDS[COMP_CWORD]} words=("${COMP_WORDS[@]:1:COMP_CWORD-1}")
	COMPREPLY=()
	if [[ ${words[0]} == -* ]]; then
		return 0
	fi
	local opts
	if [[ $cur == -* ]]; then
		opts=$(guard "${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
	else
		opts=$(guard "${words[@]}" --generate-bash-completion 2>/dev/null)
	fi
	COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o bashdefault -o default -F _guard_complete guard
`

// zshCompletion is bashCompletion's twin for zsh.
const zshCompletion = `#compdef guard
# guard completion zsh: save it as _guard in a directory on $fpath
_guard() {
	local -a opts args
	local cur=${words[CURRENT]}
	args=("${(@)words[2,CURRENT-1]}")
	if [[ ${args[1]} == -* ]]; then
		return 1
	fi
	if [[ $cur == -* ]]; then
		opts=("${(@f)$(guard "${args[@]}" "$cur" --generate-bash-completion 2>/dev/null)}")
	else
		opts=("${(@f)$(guard "${args[@]}" --generate-bash-completion 2>/dev/null)}")
	fi
	if [[ -n ${opts[1]} ]]; then
		_describe 'values' opts
	else
		_files
	fi
}
compdef _guard guard
`
