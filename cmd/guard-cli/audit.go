package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/redact"
)

func (a *App) auditCommand() *cli.Command {
	return &cli.Command{
		Name:  "audit",
		Usage: "list the decisions guard recorded, newest first",
		UsageText: `guard audit [--json] [-n N] [--decision D] [--since DUR]
   guard audit --follow [--since DUR] [--decision D]
   guard audit --import

Each record holds the time, the agent, the working directory, the command text
(redacted: secrets never reach the disk), a keyed hash of it (hmac), the
decision and rule, the answer (rule, once, project, global, edited, deny,
timeout, cancelled, pending, rejected) and where it came from (via: rule,
terminal, console, approve, cli), the mode, the exit status and the duration.
A human's deny is recorded as decision deny. grants add|rm, trust, approve and
reject are recorded too (mode cli, the verb line as the command). Output of
commands is never recorded. Each record also holds its risk (none, low, high)
and the rollout mode it was decided in (policy_mode: enforce, dry_run, off):
in dry_run a command that would have been refused runs and is recorded as
decision would-deny or would-ask, and a switch to enforce as decision
escalate.

--follow prints records as JSON lines, oldest first, as they are written
(the ones since --since first, else only new ones), until interrupted: a
log shipper can read it as a stream. Each object's "id" increases, so a
shipper that restarts can skip what it has. The fields are in docs/formats.md.

Records are appended to a journal and imported into an SQLite database when you
list them. --import only imports (and rotates a journal past 8 MiB), printing
nothing: guard runs it by itself when the journal is full.

example:
   guard audit -n 20
   guard audit --decision deny --since 24h --json
   guard audit --decision would-deny --since 24h
   guard audit --follow --since 1h | vector --config ship.toml`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per record"},
			&cli.IntFlag{Name: "n", Value: defaultAuditLimit, Usage: "show at most `N` records (0: all)"},
			&cli.StringFlag{Name: "decision", Usage: "only records with decision `D` (allow, ask or deny)"},
			&cli.StringFlag{Name: "since", Usage: "only records since `WHEN`: a duration back (90m, 24h, 2d), yesterday, today, or an RFC 3339 time"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "print records as JSON lines, oldest first, as they are written, until interrupted"},
			&cli.BoolFlag{Name: "import", Usage: "import the journal into the database (rotating it when full) and list nothing"},
		},
		Action: a.audit,
	}
}

// decisionNames are the values --decision accepts.
var decisionNames = [...]string{"allow", "ask", "deny", "would-deny", "would-ask", "escalate"}

func (a *App) audit(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("audit takes no arguments")
	}
	if c.Bool("import") {
		for _, f := range []string{"json", "n", "decision", "since", "follow"} {
			if c.IsSet(f) {
				return usageError("--import lists nothing: it takes no --%s", f)
			}
		}
		store := ccs.Open(a.paths().StateDir, a.redactor())
		defer store.Close()
		if err := store.Import(); err != nil {
			return failure(fmt.Errorf("import audit journal: %w", err), "")
		}
		return nil
	}
	q := ccs.Query{Limit: c.Int("n"), Decision: c.String("decision")}
	if q.Limit < 0 {
		return usageError("-n must not be negative")
	}
	if q.Decision != "" && !contains(decisionNames[:], q.Decision) {
		return usageError("--decision must be one of %s", strings.Join(decisionNames[:], ", "))
	}
	if c.IsSet("since") {
		since, err := parseSince(c.String("since"), a.Now())
		if err != nil {
			return usageError("--since: %v", err)
		}
		q.Since = since
	}
	store := ccs.Open(a.paths().StateDir, a.redactor())
	defer store.Close()
	if n, last, err := store.Lost(); err != nil {
		fmt.Fprintf(a.Stderr, "guard: warning: %v\n", err)
	} else if n > 0 {
		// Records guard could not write are gone; say so, on stderr so
		// that --json output stays clean.
		when := "an unknown time"
		if !last.IsZero() {
			when = last.Local().Format(time.DateTime)
		}
		fmt.Fprintf(a.Stderr, "guard: warning: %d %s lost, last at %s\n", n, plural(n, "record was", "records were"), when)
	}
	if c.Bool("follow") {
		if c.IsSet("n") {
			return usageError("--follow prints every record: it takes no -n")
		}
		return a.auditFollow(store, q, c.IsSet("since"))
	}
	recs, err := store.Audit(q)
	if err != nil {
		return failure(fmt.Errorf("read audit trail: %w", err), "")
	}
	if c.Bool("json") {
		enc := json.NewEncoder(a.Stdout)
		enc.SetEscapeHTML(false)
		for i := range recs {
			if err := enc.Encode(&recs[i]); err != nil {
				return failure(fmt.Errorf("write audit: %w", err), "")
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tDECISION\tRULE\tANSWER\tVIA\tEXIT\tMS\tAGENT\tCOMMAND")
	for _, r := range recs {
		agent := dash(r.Agent)
		if r.Session == doctorSession {
			agent += "(doctor)" // guard doctor's probe, not the agent's command
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n",
			r.Time.Local().Format(time.DateTime), oneLine(r.Decision), oneLine(dash(r.Rule)), oneLine(dash(r.Answer)), oneLine(dash(r.Via)),
			r.Exit, r.DurationMS, oneLine(agent), oneLine(r.Command))
	}
	if err := tw.Flush(); err != nil {
		return failure(fmt.Errorf("write audit: %w", err), "")
	}
	return nil
}

// recordVerb writes the audit record of a management verb that changed what
// guard allows: mode cli, the verb line (redacted) as its command. store
// may be nil. A record that cannot be written is a warning.
func (a *App) recordVerb(store *ccs.Store, decision, rule, answer, via, sum string) {
	if store == nil {
		store = a.openStore()
		defer store.Close()
	}
	line := "guard"
	if len(a.Args) > 1 {
		if q, err := classify.QuoteArgv(a.Args[1:]); err == nil {
			line += " " + q
		}
	}
	rec := ccs.Record{Time: a.Now(), Agent: "human", Cwd: a.Cwd, Command: line, HMAC: sum,
		Decision: decision, Rule: rule, Answer: answer, Via: via, Mode: "cli"}
	if err := store.Append(rec); err != nil {
		a.diag("warning", "audit not written: "+err.Error())
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine keeps a listing to one line per entry, and a column to its
// column: newlines, tabs and every other control character in text from an
// agent or a command are shown escaped (redact.Visible), never sent raw to
// the terminal.
func oneLine(s string) string { return redact.Visible(s) }

// plural picks the singular or plural form for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// followEvery is how often guard audit --follow looks for new records.
const followEvery = time.Second

// auditFollow streams records as JSON lines, oldest first, from q.Since
// (fromSince) or from now, until SIGINT or SIGTERM (exit 0) or until stdout
// is closed. Each pass imports the journal (what guard appended since) and
// prints the records after the last one printed, by id.
func (a *App) auditFollow(store *ccs.Store, q ccs.Query, fromSince bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	q.Oldest, q.Limit = true, 0
	if !fromSince {
		last, err := store.Audit(ccs.Query{Limit: 1})
		if err != nil {
			return failure(fmt.Errorf("read audit trail: %w", err), "")
		}
		if len(last) > 0 {
			q.AfterID = last[0].ID
		}
	}
	enc := json.NewEncoder(a.Stdout)
	enc.SetEscapeHTML(false)
	tick := time.NewTicker(followEvery)
	defer tick.Stop()
	for {
		recs, err := store.Audit(q)
		if err != nil {
			return failure(fmt.Errorf("read audit trail: %w", err), "")
		}
		for i := range recs {
			if err := enc.Encode(&recs[i]); err != nil {
				return nil // the reader went away
			}
			q.AfterID = recs[i].ID
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
