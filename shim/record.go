package shim

import (
	"fmt"
	"time"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/redact"
)

// All of shim's use of package ccs is in this file.

// ccsJournal is the journal in package ccs.
type ccsJournal struct {
	store *ccs.Store
	red   *redact.Redactor
}

func openJournal(stateDir string, red *redact.Redactor) (journal, error) {
	return &ccsJournal{store: ccs.Open(stateDir, red), red: red}, nil
}

func (c *ccsJournal) Append(e auditEntry) error {
	return c.store.Append(ccs.Record{
		Time: e.Time, Agent: e.Agent, Cwd: e.Cwd, Command: c.red.String(e.Command), SHA256: e.SHA256,
		Decision: e.Decision, Rule: e.Rule, Answer: e.Answer, Mode: e.Mode,
		Exit: e.Exit, DurationMS: e.DurationMS,
	})
}

func (c *ccsJournal) AddPending(p pendingRequest) (string, error) {
	got, err := c.store.AddPending(ccs.Pending{
		Time: p.Time, Cwd: p.Cwd, Root: p.Root, Command: c.red.String(p.Command), SHA256: p.SHA256,
		Suggest: p.Suggest, Status: "pending",
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprint(got.ID), nil
}

func (c *ccsJournal) Close() error { return c.store.Close() }

func (c *ccsJournal) TakeOnce(sha, cwd string, now time.Time) (bool, error) {
	return c.store.TakeOnce(sha, cwd, now)
}
