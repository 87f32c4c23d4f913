package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/shim"
)

func (a *App) pendingCommand() *cli.Command {
	return &cli.Command{
		Name:  "pending",
		Usage: "list commands waiting for a human's approval",
		UsageText: `guard pending [--json]
   guard pending clear [--older DUR]

When guard has to ask but no terminal can be opened (or prompting is off), it
refuses the command and records it here. Approve one with guard approve ID in
your own terminal, then let the agent run it again. A request expires after
pending_ttl (24h), and one whose command was killed while it waited in
guard watch goes at once.

example:
   guard pending
   guard approve ca1d64 --project
   guard pending clear --older 1h`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "one JSON object per request"},
		},
		Action: a.pending,
		Subcommands: []*cli.Command{{
			Name:      "clear",
			Usage:     "remove pending requests (all, or those older than --older)",
			UsageText: "guard pending clear [--older DUR]\n\nexample:\n   guard pending clear --older 1h",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "older", Usage: "only requests made more than `DUR` ago (e.g. 90m, 1h, 2d)"},
			},
			Action: a.pendingClear,
		}},
	}
}

// pendingTTL is how long a request lasts: pending_ttl in the settings.
func (a *App) pendingTTL() time.Duration {
	if s := grants.Load(a.paths(), a.Cwd); s.Err == nil && s.PendingTTL > 0 {
		return s.PendingTTL
	}
	return ccs.DefaultPendingTTL
}

func (a *App) pendingClear(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("pending clear takes no arguments")
	}
	var cutoff time.Time
	if c.IsSet("older") {
		d, err := parseAge(c.String("older"))
		if err != nil {
			return usageError("--older: %v", err)
		}
		cutoff = a.Now().Add(-d)
	}
	store := a.openStore()
	defer store.Close()
	n, err := store.ClearPending(cutoff)
	if err != nil {
		return failure(err, "")
	}
	fmt.Fprintf(a.Stdout, "removed %d pending request(s)\n", n)
	return nil
}

// pendingJSON is one request as guard pending --json prints it.
type pendingJSON struct {
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Cwd     string    `json:"cwd"`
	Root    string    `json:"root"`
	Command string    `json:"command"`
	Suggest string    `json:"suggest,omitempty"`
	Waiting bool      `json:"waiting"` // a guard waits for the answer now
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
	list, err := store.ListPendingAt(a.Now(), a.pendingTTL())
	if err != nil {
		// ccs already says what failed ("list pending requests: …").
		return failure(err, "fix or move aside the directory it names; guard starts a new one")
	}
	if c.Bool("json") {
		enc := json.NewEncoder(a.Stdout)
		for _, p := range list {
			if err := enc.Encode(pendingJSON{ID: p.ID, Time: p.Time, Cwd: p.Cwd, Root: p.Root, Command: p.Command, Suggest: p.Suggest, Waiting: p.Pid > 0}); err != nil {
				return failure(fmt.Errorf("write pending: %w", err), "")
			}
		}
		return nil
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

// parseAge reads a duration as people write one: Go's (90m, 1h30m) or a
// number of days (2d).
func parseAge(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if days, err := strconv.Atoi(n); err == nil && days > 0 && days < 100000 {
			return time.Duration(days) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a duration like 90m, 1h or 2d", s)
	}
	return d, nil
}

// parseSince reads a point in time as --since takes it: a duration back
// from now (90m, 24h, 2d), today or yesterday (from local midnight), or an
// RFC 3339 time.
func parseSince(s string, now time.Time) (time.Time, error) {
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	switch s {
	case "today":
		return midnight, nil
	case "yesterday":
		return midnight.AddDate(0, 0, -1), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if d, err := parseAge(s); err == nil {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a time: use a duration back (90m, 24h, 2d), today, yesterday, or RFC 3339 (2026-12-04T09:00:00Z)", s)
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
