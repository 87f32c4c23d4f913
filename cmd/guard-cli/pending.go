package main

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/shim"
)

func (a *App) pendingCommand() *cli.Command {
	return &cli.Command{
		Name:  "pending",
		Usage: "list commands waiting for a human's approval",
		UsageText: `guard pending

When guard has to ask but no terminal can be opened (or prompting is off), it
refuses the command and records it here. Approve one with guard approve ID in
your own terminal, then let the agent run it again.

example:
   guard pending
   guard approve ca1d64 --project`,
		Action: a.pending,
	}
}

func (a *App) openStore() *ccs.Store {
	return ccs.Open(a.paths().StateDir, a.redactor())
}

func (a *App) pending(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("pending takes no arguments")
	}
	store := a.openStore()
	defer store.Close()
	list, err := store.ListPending()
	if err != nil {
		// ccs already says what failed ("list pending requests: …").
		return failure(err, "fix or move aside the directory it names; guard starts a new one")
	}
	if len(list) == 0 {
		fmt.Fprintln(a.Stdout, "no pending requests")
		return nil
	}
	now := a.Now()
	tw := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tAGE\tCWD\tCOMMAND\tSUGGEST")
	var notes []string
	for _, p := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", oneLine(p.ID), age(now.Sub(p.Time)), oneLine(p.Cwd), oneLine(p.Command), oneLine(dash(p.Suggest)))
		if note := shim.ControlNote(p.Command+p.Suggest, p.Cwd, ""); note != "" {
			notes = append(notes, fmt.Sprintf("%s (request %s)\n", note, oneLine(p.ID)))
		}
	}
	if err := tw.Flush(); err != nil {
		return failure(fmt.Errorf("write pending: %w", err), "")
	}
	for _, n := range notes {
		fmt.Fprint(a.Stdout, n)
	}
	return nil
}

// age shows a duration the way a human reads it at a glance: 42s, 5m, 3h, 2d.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
