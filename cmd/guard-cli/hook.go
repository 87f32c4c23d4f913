package main

import (
	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/shim"
)

// hookCommand lists guard hook in the help. The lean guard answers it
// itself (it runs before every shell command an agent sends, so it never
// starts guard-cli); guard-cli hook runs the same code, for completeness.
func (a *App) hookCommand() *cli.Command {
	return &cli.Command{
		Name:  "hook",
		Usage: "the pre-tool hook an agent runs before each shell command (guard install wires it in)",
		UsageText: `guard hook claude|codex|gemini|opencode|pi < REQUEST.json

Reads the agent's JSON request on stdin, decides as guard -c would, and
answers in that agent's protocol (docs/agents.md). Anything guard cannot read
or decide is a deny; it never exits 1. Refused inside a guarded command.

example:
   echo '{"tool_name":"Bash","tool_input":{"command":"git status"},"cwd":"/tmp"}' | guard hook claude`,
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) == 0 || args[0] == "--help" || args[0] == "-h" {
				// (flags are not parsed here: the agent's arguments pass as they are)
				if err := cli.ShowCommandHelp(c.Lineage()[1], "hook"); err != nil {
					return err
				}
				if len(args) == 0 {
					return usageError("hook needs the agent: one of claude, codex, gemini, opencode, pi")
				}
				return nil
			}
			return statusError(shim.Hook(a.shimEnv(), args))
		},
	}
}
