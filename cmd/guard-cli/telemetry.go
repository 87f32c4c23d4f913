package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/telemetry"
)

func (a *App) telemetryCommand() *cli.Command {
	return &cli.Command{
		Name:  "telemetry",
		Usage: "send the audit records to an OpenTelemetry Collector ([telemetry])",
		UsageText: `guard telemetry flush

Sends every audit record not sent yet to the collector that [telemetry] in
config.toml (or the managed policy) names, over OTLP: one log record per
decision, a counter of decisions and histograms of guard's overhead and of
the commands' duration (docs/formats.md). guard runs it by itself, detached,
at most once a minute while commands run, and guard serve every minute; run
it by hand to send now. The position is saved after each batch the collector
accepted: a collector that is down loses nothing, and the records are sent
by a later flush.

example:
   guard telemetry flush`,
		Subcommands: []*cli.Command{{
			Name:      "flush",
			Usage:     "send the records not sent yet, and print how many",
			UsageText: "guard telemetry flush",
			Flags: []cli.Flag{
				// guard's own spawn: print nothing, exit 0 when there is nothing to do
				&cli.BoolFlag{Name: "background", Hidden: true},
				// records per export (tests: a collector lost between batches)
				&cli.IntFlag{Name: "batch", Hidden: true},
			},
			Action: a.telemetryFlush,
		}},
	}
}

func (a *App) telemetryFlush(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("telemetry flush takes no arguments")
	}
	bg := c.Bool("background")
	wait := 30 * time.Second // by hand: after the flush guard started, if one runs
	if bg {
		wait = 0
	}
	if c.Int("batch") < 0 {
		return usageError("--batch must not be negative")
	}
	n, err := a.flushTelemetry(context.Background(), wait, c.Int("batch"))
	if bg {
		if err != nil {
			return statusError(exitFailure) // the next due time is already moved on (the backoff)
		}
		return nil
	}
	if errors.Is(err, telemetry.ErrBusy) {
		return failure(err, "wait for it to end and flush again")
	}
	if err != nil {
		return failure(err, "the records stay queued and a later flush sends them; check otlp_endpoint in [telemetry]")
	}
	fmt.Fprintf(a.Stdout, "sent %d %s\n", n, plural(n, "record", "records"))
	return nil
}

// telemetrySettings is the [telemetry] table in force (the global config's
// or the managed policy's; the working directory does not matter). Unset,
// it is an error that says how to set it, or why a table is not read.
func (a *App) telemetrySettings() (grants.Telemetry, error) {
	s := grants.Load(a.paths(), a.Cwd)
	if s.Telemetry.Enabled() {
		return s.Telemetry, nil
	}
	if s.Err != nil {
		return s.Telemetry, fmt.Errorf("telemetry is not configured: %w", s.Err)
	}
	return s.Telemetry, errors.New("telemetry is not configured: set otlp_endpoint in [telemetry] of config.toml")
}

// flushTelemetry sends the records not sent yet (telemetry.Flusher).
func (a *App) flushTelemetry(ctx context.Context, wait time.Duration, batch int) (int, error) {
	t, err := a.telemetrySettings()
	if err != nil {
		return 0, err
	}
	dir := a.paths().StateDir
	store := ccs.Open(dir, a.redactor())
	defer store.Close()
	f := &telemetry.Flusher{Store: store, StateDir: dir, Config: t, Version: serviceVersion(), Now: a.Now, Wait: wait, Batch: batch}
	return f.Flush(ctx)
}

// flushTelemetryEvery flushes every ccs.FlushEvery until ctx ends, when
// [telemetry] is set (guard serve; the settings are read each time). A
// failure waits for the next tick.
func (a *App) flushTelemetryEvery(ctx context.Context) {
	t := time.NewTicker(ccs.FlushEvery)
	defer t.Stop()
	for {
		if _, err := a.telemetrySettings(); err == nil {
			_, _ = a.flushTelemetry(ctx, 0, 0)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// serviceVersion is the version the records are sent with.
func serviceVersion() string {
	if linkedVersion != "" {
		return linkedVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// doctorTelemetry says where records go and whether the last flush got
// them there.
func (a *App) doctorTelemetry(s *grants.Settings, g *report) {
	t := s.Telemetry
	if !t.Enabled() {
		return
	}
	red := a.redactor()
	where := fmt.Sprintf("telemetry to %s (%s)", red.String(t.Endpoint), t.Protocol)
	st, err := telemetry.ReadStatus(a.paths().StateDir)
	switch {
	case err != nil:
		g.fail("remove the file to send every record again", "%s: %s", where, oneLine(err.Error()))
	case st.Failures > 0:
		g.fail("guard telemetry flush  (sends now, and says why it cannot)", "%s: the last %d %s failed, the last at %s: %s; the records wait",
			where, st.Failures, plural(st.Failures, "flush", "flushes"), st.LastErrorAt.Local().Format(time.DateTime), oneLine(red.String(st.LastError)))
	case st.LastID == 0:
		g.ok("%s: nothing sent yet", where)
	default:
		g.ok("%s: sent up to record %d", where, st.LastID)
	}
}
