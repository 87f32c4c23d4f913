package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
)

func (a *App) trustCommand() *cli.Command {
	return &cli.Command{
		Name:  "trust",
		Usage: "let a project's committed .guard/config.toml allow commands",
		UsageText: `guard trust [DIR]

A project's .guard/config.toml always contributes its deny and ask rules; its
allow rules count only after you trust it. Trust pins the file's current
content: when the file changes, it is untrusted again. DIR defaults to the
current directory; its project root is used. Refused when run from inside a
guarded command.

example:
   guard trust
   guard trust ~/src/myproject`,
		Action: a.trust,
	}
}

func (a *App) trust(c *cli.Context) error {
	if err := a.refuseInsideGuard("trust"); err != nil {
		return err
	}
	if err := a.refuseInjectable("trust"); err != nil {
		return err
	}
	if c.Args().Len() > 1 {
		return usageError("trust takes at most one directory")
	}
	dir, err := a.cwdOr(c.Args().First())
	if err != nil {
		return err
	}
	root := grants.ProjectRoot(dir)
	if file := grants.ProjectConfig(root); !exists(file) {
		return &cliError{code: exitUsage, kind: "error",
			msg:  fmt.Sprintf("nothing to trust: no %s (project root %s)", file, root),
			hint: "trust is for a project that commits .guard/config.toml; for your own rules use guard grants add"}
	}
	sum, err := grants.Trust(a.paths(), root)
	if err != nil {
		return failure(err, "")
	}
	a.recordVerb(nil, "trust", grants.LayerProject, "", ccs.ViaCLI, "")
	fmt.Fprintf(a.Stdout, "trusted %s (sha256 %s)\n", grants.ProjectConfig(root), sum)
	return nil
}

// exists reports whether path names something (a broken link does not).
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
