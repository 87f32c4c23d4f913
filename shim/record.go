package shim

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/redact"
)

// All of shim's use of package ccs is in this file.

// ccsJournal is the journal in package ccs, which redacts every text it
// stores itself (the caller has redacted it already, for the test engine).
type ccsJournal struct {
	store *ccs.Store
}

// importTimeout bounds the guard-cli run that imports a full journal.
const importTimeout = time.Minute

// openJournal opens the store in stateDir. In guard, which has no SQLite, a
// full journal is imported and rotated by guard-cli (guard audit --import):
// env is where that child's path and environment come from.
func openJournal(stateDir string, red *redact.Redactor, env *Env) (journal, error) {
	s := ccs.Open(stateDir, red)
	s.SetImporter(func() error {
		// Only the guard-cli next to guard: this runs unjudged, on guard's own
		// initiative, so a guard-cli planted on the agent's PATH must not be it.
		cli, err := FindCLI(env.Self, "")
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), importTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, cli, "audit", "--import")
		cmd.Env = env.Environ
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s audit --import: %w: %s", cli, err, strings.TrimSpace(string(out)))
		}
		return nil
	})
	return &ccsJournal{store: s}, nil
}

func (c *ccsJournal) Append(e auditEntry) error {
	return c.store.Append(ccs.Record{
		Time: e.Time, Agent: e.Agent, Session: e.Session, Cwd: e.Cwd, Command: e.Command, HMAC: e.HMAC,
		Decision: e.Decision, Rule: e.Rule, Answer: e.Answer, Via: e.Via, Mode: e.Mode,
		Exit: e.Exit, DurationMS: e.DurationMS, Risk: e.Risk, PolicyMode: e.Policy,
		Confined: e.Confined, Project: e.Project, OverheadUS: e.OverheadUS,
	})
}

func (c *ccsJournal) AddPending(p pendingRequest) (string, error) {
	got, err := c.store.AddPending(ccs.Pending{
		Time: p.Time, Cwd: p.Cwd, Root: p.Root, Command: p.Command, HMAC: p.HMAC,
		Suggest: p.Suggest, Status: "pending",
	})
	if err != nil {
		return "", err
	}
	return got.ID, nil
}

func (c *ccsJournal) Close() error { return c.store.Close() }

func (c *ccsJournal) SetWaiting(id string, pid int, start uint64) error {
	return c.store.SetWaiting(id, pid, start)
}

func (c *ccsJournal) DropPending(id string) error { return c.store.DropPending(id) }

func (c *ccsJournal) PendingAnswer(id string) (status, message string, err error) {
	p, err := c.store.GetPending(id)
	return p.Status, p.Message, err
}

func (c *ccsJournal) Probe() error { return c.store.Probe() }

func (c *ccsJournal) NoteLost(at time.Time) error { return c.store.NoteLost(at) }

func (c *ccsJournal) TakeOnce(sum, cwd string, now time.Time) (bool, error) {
	return c.store.TakeOnce(sum, cwd, now)
}

func (c *ccsJournal) Rejected(sum, root string, now time.Time, window time.Duration) (time.Time, string, bool, error) {
	p, found, err := c.store.Rejected(sum, root, now, window)
	return p.Resolved, p.Message, found, err
}

func (c *ccsJournal) Sum(text string) (string, error) { return c.store.Sum(text) }
