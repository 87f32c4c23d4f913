package main

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/shim"
)

func (a *App) execCommand() *cli.Command {
	return &cli.Command{
		Name:  "exec",
		Usage: "judge an argv as the simple command it is, then run it",
		UsageText: `guard exec [--timeout D] [--cwd DIR] [--no-cache] -- PROG ARGS...

Decides exactly like guard -c on the same command, asks on the terminal when
needed, then runs PROG with ARGS (no shell involved) in its own process group.
Exits with PROG's status, 124 on timeout, 126 when refused.

example:
   guard exec -- git status
   guard exec --timeout 30s -- go test ./...`,
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "timeout", Usage: "kill the command after `D`",
				DefaultText: "GUARD_TIMEOUT, else timeout in the config, else 10m"},
			&cli.StringFlag{Name: "cwd", Usage: "run in `DIR`"},
			&cli.BoolFlag{Name: "no-cache", Usage: "neither answer from the context store nor store the output"},
		},
		Action: a.exec,
	}
}

func (a *App) exec(c *cli.Context) error {
	if !c.Args().Present() || c.Args().First() == "" {
		return usageError("exec needs a program: guard exec -- PROG ARGS...")
	}
	var timeout time.Duration
	if c.IsSet("timeout") {
		timeout = c.Duration("timeout")
		if timeout <= 0 {
			return usageError("--timeout must be positive")
		}
	}
	cwd, err := a.cwdOr(c.String("cwd"))
	if err != nil {
		return err
	}
	env := a.shimEnv()
	if c.Bool("no-cache") {
		env = shim.NoCache(env)
	}
	return statusError(shim.Exec(env, c.Args().Slice(), timeout, cwd))
}
