package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
)

// defaultContextLimit is guard context list's -n.
const defaultContextLimit = 20

func (a *App) contextCommand() *cli.Command {
	project := &cli.BoolFlag{Name: "project", Usage: "only runs in this project"}
	return &cli.Command{
		Name:  "context",
		Usage: "the command context store: every run's redacted output, and the cache",
		UsageText: `guard context list [--json] [-n N] [--project]
   guard context show ID|last [--stdout|--stderr]
   guard context clear [--older-than DUR] [--match PATTERN] [--project]
   guard context stats

guard keeps the output of every command it runs whose stdout and stderr are
not a terminal, redacted before it reaches the disk, so an agent can read a
result again without running the command again. Commands that print secrets
by nature (env, printenv, gh auth token, cat .env, …, and your sensitive
patterns) are never kept, nor runs with GUARD_NO_CACHE=1, nor killed ones.
A [[cache]] rule in config.toml lets guard answer a command from the store
while nothing it reads has changed: see docs/context-store.md.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "import", Usage: "import what guard spooled into the database and print nothing", Hidden: true},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("import") {
				store := a.contextStore()
				defer store.Close()
				if err := store.Import(); err != nil {
					return failure(fmt.Errorf("import context store: %w", err), "")
				}
				return nil
			}
			return unknownSubcommand(c)
		},
		Subcommands: []*cli.Command{
			{
				Name:      "list",
				Usage:     "list the stored runs, newest first",
				UsageText: "guard context list [--json] [-n N] [--project]",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "json", Usage: "print one JSON object per run"},
					&cli.IntFlag{Name: "n", Value: defaultContextLimit, Usage: "show at most `N` runs (0: all)"},
					project,
				},
				Action: a.contextList,
			},
			{
				Name:      "show",
				Usage:     "print a stored run's redacted output",
				UsageText: "guard context show ID|last [--stdout|--stderr]",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "stdout", Usage: "only what it wrote to stdout"},
					&cli.BoolFlag{Name: "stderr", Usage: "only what it wrote to stderr"},
					project,
				},
				Action: a.contextShow,
			},
			{
				Name:      "clear",
				Usage:     "delete stored runs (all, or those the flags select)",
				UsageText: "guard context clear [--older-than DUR] [--match PATTERN] [--project]\n   guard context clear --all [--yes]\n\nWithout a selector it clears every stored run: it asks first on a terminal,\nand elsewhere needs --all --yes.",
				Flags: []cli.Flag{
					&cli.DurationFlag{Name: "older-than", Usage: "only runs older than `DUR`"},
					&cli.StringFlag{Name: "match", Usage: "only runs whose command matches `PATTERN` (* matches anything)"},
					project,
					&cli.BoolFlag{Name: "all", Usage: "every stored run"},
					&cli.BoolFlag{Name: "yes", Usage: "do not ask before clearing every run"},
				},
				Action: a.contextClear,
			},
			{
				Name:      "stats",
				Usage:     "how much is stored, and what the cache saved",
				UsageText: "guard context stats [--json]",
				Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON object"}},
				Action:    a.contextStats,
			},
		},
	}
}

// contextStore opens the store with the limits of the current settings.
func (a *App) contextStore() *ccs.ContextStore {
	p := a.paths()
	ctx := grants.DefaultContext()
	if a.Cwd != "" {
		if s := grants.Load(p, a.Cwd); s.Err == nil {
			ctx = s.Context
		}
	}
	return ccs.OpenContext(p.CacheDir, ccs.Limits{MaxInline: ctx.StoreMaxInline, MaxLogs: ctx.StoreMaxLogs, MaxDB: ctx.StoreMaxDB}, a.Now)
}

// openContext opens and imports: every verb sees the runs up to now.
func (a *App) openContext() (*ccs.ContextStore, error) {
	store := a.contextStore()
	err := store.Import()
	for _, w := range store.Warnings() {
		a.diag("warning", w)
	}
	if err != nil {
		store.Close()
		return nil, failure(fmt.Errorf("read the context store: %w", err), "")
	}
	return store, nil
}

func (a *App) projectRoot(c *cli.Context) string {
	if !c.Bool("project") || a.Cwd == "" {
		return ""
	}
	return a.redactor().String(grants.ProjectRoot(a.Cwd)) // stored redacted
}

// contextJSON is one run in guard context list --json.
type contextJSON struct {
	ID          string    `json:"id"`
	Time        time.Time `json:"time"`
	Agent       string    `json:"agent"`
	Cwd         string    `json:"cwd"`
	Command     string    `json:"command"`
	Exit        int       `json:"exit"`
	DurationMS  int64     `json:"duration_ms"`
	StdoutBytes int64     `json:"stdout_bytes"`
	StderrBytes int64     `json:"stderr_bytes"`
	Redacted    bool      `json:"redacted"`
	Truncated   bool      `json:"truncated"`
	Cached      bool      `json:"cached"` // may still answer a later run
	Rule        string    `json:"rule,omitempty"`
	Uncached    string    `json:"uncached,omitempty"` // why a run a [[cache]] rule matched is not cached
	Hits        int64     `json:"hits"`
}

func (a *App) contextList(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("context list takes no arguments")
	}
	if c.Int("n") < 0 {
		return usageError("-n must not be negative")
	}
	store, err := a.openContext()
	if err != nil {
		return err
	}
	defer store.Close()
	runs, err := store.List(ccs.RunQuery{Limit: c.Int("n"), Root: a.projectRoot(c)})
	if err != nil {
		return failure(fmt.Errorf("list the context store: %w", err), "")
	}
	if c.Bool("json") {
		enc := json.NewEncoder(a.Stdout)
		enc.SetEscapeHTML(false)
		for _, r := range runs {
			if err := enc.Encode(contextJSON{ID: r.ID, Time: r.Time, Agent: r.Agent, Cwd: r.Cwd, Command: r.Command, Exit: r.Exit,
				DurationMS: r.DurationMS, StdoutBytes: r.StdoutBytes, StderrBytes: r.StderrBytes, Redacted: r.Redacted,
				Truncated: r.Truncated, Cached: r.Served, Rule: r.Rule, Uncached: r.Uncached, Hits: r.Hits}); err != nil {
				return failure(fmt.Errorf("write context list: %w", err), "")
			}
		}
		return nil
	}
	now := a.Now()
	tw := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tAGE\tEXIT\tMS\tBYTES\tFLAGS\tCOMMAND")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", r.ID, ccs.FormatAge(now, r.Time), r.Exit, r.DurationMS, r.Bytes,
			runFlags(r), oneLine(r.Command))
	}
	return tw.Flush()
}

// runFlags sums a run up in a word: cached (may answer later runs),
// redacted, truncated.
func runFlags(r ccs.RunInfo) string {
	var f []string
	if r.Served {
		f = append(f, "cached")
	}
	if r.Redacted {
		f = append(f, "redacted")
	}
	if r.Truncated {
		f = append(f, "truncated")
	}
	if len(f) == 0 {
		return "-"
	}
	return strings.Join(f, ",")
}

func (a *App) contextShow(c *cli.Context) error {
	flags := map[string]bool{"stdout": c.Bool("stdout"), "stderr": c.Bool("stderr"), "project": c.Bool("project")}
	id := ""
	for _, arg := range c.Args().Slice() {
		if name := strings.TrimLeft(arg, "-"); name != arg {
			if _, known := flags[name]; !known {
				return usageError("flag provided but not defined: %s", arg)
			}
			flags[name] = true // after the id, where the flag parser leaves it
			continue
		}
		if id != "" {
			return usageError("context show needs one run: an ID from guard context list, or last")
		}
		id = arg
	}
	if id == "" {
		return usageError("context show needs one run: an ID from guard context list, or last")
	}
	if flags["stdout"] && flags["stderr"] {
		return usageError("--stdout and --stderr exclude each other: give neither for both")
	}
	store, err := a.openContext()
	if err != nil {
		return err
	}
	defer store.Close()
	root := ""
	if flags["project"] && a.Cwd != "" {
		root = a.redactor().String(grants.ProjectRoot(a.Cwd)) // stored redacted
	}
	r, found, err := store.Get(ccs.RunQuery{ID: id, Root: root})
	if err != nil {
		return failure(fmt.Errorf("read the context store: %w", err), "")
	}
	if !found {
		return &cliError{code: exitNotFound, kind: "error", msg: fmt.Sprintf("no stored run %q", id),
			hint: "guard context list shows the stored runs"}
	}
	for _, ch := range r.Chunks {
		switch {
		case flags["stdout"] && ch.Stream != ccs.Stdout, flags["stderr"] && ch.Stream != ccs.Stderr:
			continue
		}
		w := a.Stdout
		if ch.Stream == ccs.Stderr && !flags["stderr"] {
			w = a.Stderr
		}
		if _, err := w.Write(ch.Data); err != nil {
			return failure(fmt.Errorf("write output: %w", err), "")
		}
	}
	if r.Truncated {
		a.diag("warning", "this output is incomplete: the run printed more than guard kept")
	}
	if r.Uncached != "" {
		a.diag("note", "not cached: "+oneLine(r.Uncached))
	}
	return nil
}

func (a *App) contextClear(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("context clear takes no arguments: use --match PATTERN")
	}
	q := ccs.RunQuery{Root: a.projectRoot(c)}
	if c.IsSet("older-than") {
		d := c.Duration("older-than")
		if d <= 0 {
			return usageError("--older-than must be positive")
		}
		q.OlderThan = a.Now().Add(-d)
	}
	if m := c.String("match"); c.IsSet("match") {
		if strings.TrimSpace(m) == "" {
			return usageError("--match needs a pattern")
		}
		q.Match = func(cmd string) bool { return globMatch(m, cmd) }
	}
	selected := c.IsSet("older-than") || c.IsSet("match") || c.Bool("project")
	if selected && c.Bool("all") {
		return usageError("--all clears every run: leave out --older-than, --match and --project")
	}
	if !selected && !c.Bool("yes") {
		if !term.IsTerminal(int(a.Stdin.Fd())) {
			return usageError("context clear without --older-than, --match or --project clears every stored run: add --all --yes")
		}
		fmt.Fprint(a.Stderr, "clear every stored run? [y/N] ")
		line, _ := bufio.NewReader(a.Stdin).ReadString('\n')
		if ans := strings.ToLower(strings.TrimSpace(line)); ans != "y" && ans != "yes" {
			fmt.Fprintln(a.Stderr, "guard: nothing cleared")
			return nil
		}
	}
	store, err := a.openContext()
	if err != nil {
		return err
	}
	defer store.Close()
	n, err := store.Clear(q)
	if err != nil {
		return failure(fmt.Errorf("clear the context store: %w", err), "")
	}
	fmt.Fprintf(a.Stderr, "guard: cleared %d %s\n", n, plural(n, "run", "runs"))
	return nil
}

func (a *App) contextStats(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("context stats takes no arguments")
	}
	store, err := a.openContext()
	if err != nil {
		return err
	}
	defer store.Close()
	s, err := store.Stats()
	if err != nil {
		return failure(fmt.Errorf("read the context store: %w", err), "")
	}
	if c.Bool("json") {
		enc := json.NewEncoder(a.Stdout)
		return enc.Encode(map[string]any{
			"runs": s.Runs, "cache_entries": s.Entries, "output_bytes": s.Bytes, "database_bytes": s.DBBytes,
			"log_bytes": s.LogBytes, "lookups": s.Lookups, "hits": s.Hits, "bytes_saved": s.BytesSaved,
			"time_saved_ms": s.TimeSaved.Milliseconds(),
		})
	}
	rate := "-"
	if s.Lookups > 0 {
		rate = fmt.Sprintf("%.0f%% (%d of %d)", 100*float64(s.Hits)/float64(s.Lookups), s.Hits, s.Lookups)
	}
	tw := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "runs\t%d\n", s.Runs)
	fmt.Fprintf(tw, "cache entries\t%d\n", s.Entries)
	fmt.Fprintf(tw, "output bytes\t%d\n", s.Bytes)
	fmt.Fprintf(tw, "database bytes\t%d\n", s.DBBytes)
	fmt.Fprintf(tw, "log bytes\t%d\n", s.LogBytes)
	fmt.Fprintf(tw, "hits\t%d\n", s.Hits)
	fmt.Fprintf(tw, "hit rate\t%s\n", rate)
	fmt.Fprintf(tw, "bytes saved\t%d\n", s.BytesSaved)
	fmt.Fprintf(tw, "time saved\t%s\n", s.TimeSaved.Round(time.Millisecond))
	return tw.Flush()
}

// globMatch reports whether pattern, where * matches any run of bytes,
// matches the whole of s.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, last)
}
