package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/shim"
)

// Resolutions a human can give a pending request.
const (
	statusOnce    = "approved-once"
	statusProject = "approved-project"
	statusGlobal  = "approved-global"
	statusReject  = "rejected"
)

// verbAnswers is the answer an approve or reject records, by status.
var verbAnswers = map[string]string{
	statusOnce: ccs.AnswerOnce, statusProject: ccs.AnswerProject, statusGlobal: ccs.AnswerGlobal, statusReject: ccs.AnswerDeny,
}

// approveScopes maps approve's flags to the status they record.
var approveScopes = [...]struct{ flag, status string }{
	{"once", statusOnce},
	{"project", statusProject},
	{"global", statusGlobal},
}

func (a *App) approveCommand() *cli.Command {
	return &cli.Command{
		Name:  "approve",
		Usage: "approve a pending request (needs a human at a terminal)",
		UsageText: `guard approve ID [--once|--project|--global]

--once (the default) lets exactly that command text run once within 10 minutes.
--project stores the request's suggested pattern in this project's grants,
--global in your global grants. guard shows the request on the terminal and
waits for you to type y. Refused without a terminal, and when run from inside a
guarded command, so that an agent cannot approve its own request.

example:
   guard pending
   guard approve ca1d64
   guard approve ca1d64 --project`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "once", Usage: "allow this exact text once, within 10 minutes (default)"},
			&cli.BoolFlag{Name: "project", Usage: "store the suggested pattern for the request's project"},
			&cli.BoolFlag{Name: "global", Usage: "store the suggested pattern for every project"},
		},
		Action: a.approve,
	}
}

func (a *App) rejectCommand() *cli.Command {
	return &cli.Command{
		Name:  "reject",
		Usage: "reject a pending request (needs a human at a terminal)",
		UsageText: `guard reject ID

Marks the request rejected; it no longer shows in guard pending. Refused
without a terminal and when run from inside a guarded command.

example:
   guard reject ca1d64`,
		Action: a.reject,
	}
}

// idAndFlags takes the request id from the arguments, also accepting the
// scope flags after it (guard approve ca1d64 --project), which the flag parser
// leaves as arguments.
func idAndFlags(c *cli.Context, scopes map[string]bool) (string, error) {
	var id string
	for _, arg := range c.Args().Slice() {
		if strings.HasPrefix(arg, "-") {
			name := strings.TrimLeft(arg, "-")
			if _, known := scopes[name]; !known {
				return "", usageError("flag provided but not defined: %s", arg)
			}
			scopes[name] = true
			continue
		}
		if id != "" {
			return "", usageError("one request id at a time")
		}
		id = arg
	}
	if id == "" {
		return "", usageError("%s needs a request id: see guard pending", c.Command.Name)
	}
	return id, nil
}

func (a *App) approve(c *cli.Context) error {
	if err := a.refuseInsideGuard("approve"); err != nil {
		return err
	}
	scopes := map[string]bool{}
	for _, s := range approveScopes {
		scopes[s.flag] = c.Bool(s.flag)
	}
	id, err := idAndFlags(c, scopes)
	if err != nil {
		return err
	}
	status := ""
	for _, s := range approveScopes {
		if scopes[s.flag] {
			if status != "" {
				return usageError("choose one of --once, --project and --global")
			}
			status = s.status
		}
	}
	if status == "" {
		status = statusOnce
	}
	return a.resolve(id, status, "approve")
}

func (a *App) reject(c *cli.Context) error {
	if err := a.refuseInsideGuard("reject"); err != nil {
		return err
	}
	id, err := idAndFlags(c, map[string]bool{})
	if err != nil {
		return err
	}
	return a.resolve(id, statusReject, "reject")
}

// errNoHuman is why approve and reject refuse without a terminal.
var errNoHuman = errors.New("needs a human at a terminal")

// humanTTY opens the controlling terminal, requiring that stdin is one too: a
// process without a terminal (an agent's tool call) cannot answer. Both must
// be a human's by the rule guard asks by (shim.TrustTerminal): an agent that
// runs guard approve on a terminal it drives itself, outside any guard shell,
// could otherwise read the confirmation and type y.
func (a *App) humanTTY() (*os.File, error) {
	if !term.IsTerminal(int(a.Stdin.Fd())) {
		return nil, errNoHuman
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, errNoHuman
	}
	trusted := grants.Load(a.paths(), a.Cwd).TrustedTerminals
	for _, f := range []*os.File{tty, a.Stdin} {
		if t := shim.TrustTerminal(f, trusted); !t.Human {
			tty.Close()
			return nil, notHumansError{why: t.Why, trust: t}
		}
	}
	return tty, nil
}

// refuseInjectable stops a verb that grants without a question (grants
// add, grants rm, trust, policy reset) typed on a terminal that someone other than the
// human may have typed it on: a console trusted_terminals does not list, or
// one a process outside this verb's parents can push keys into (tiocsti).
// Without a terminal (a script) there is nothing to judge: the process tree
// check (refuseInsideGuard) stands alone.
func (a *App) refuseInjectable(verb string) error {
	var files []*os.File
	if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		defer tty.Close()
		files = append(files, tty)
	}
	if term.IsTerminal(int(a.Stdin.Fd())) {
		files = append(files, a.Stdin)
	}
	if len(files) == 0 {
		return nil
	}
	trusted := grants.Load(a.paths(), a.Cwd).TrustedTerminals
	for _, f := range files {
		t := shim.TrustGrantingTerminal(f, trusted)
		if t.Human {
			continue
		}
		hint := "run guard " + verb + " yourself, in a terminal no other process shares"
		if t.Console != "" {
			hint = "run guard " + verb + " yourself in a terminal of your own; or list " + t.Console + " in trusted_terminals in " + a.paths().GlobalConfig()
		}
		return refused(verb+" refused on this terminal ("+t.Why+")", hint)
	}
	return nil
}

// notHumansError is a terminal guard does not judge a human's, and why;
// console is its device when it is a console trusted_terminals does not
// list.
type notHumansError struct {
	why   string
	trust shim.TTYTrust
}

func (e notHumansError) Error() string {
	return "needs a human's terminal, and this one is not (" + e.why + ")"
}

// humanHint is the hint for a refusal by humanTTY: where to run the verb,
// and, for a terminal guard does not judge a human's, how to vouch for it.
func (a *App) humanHint(where string, err error) string {
	var nh notHumansError
	if errors.As(err, &nh) {
		where += ", not inside tmux or screen"
		switch t := nh.trust; {
		case t.Console != "":
			return where + "; or list " + t.Console + " in trusted_terminals in " + a.paths().GlobalConfig()
		case t.Program != "":
			return where + "; or list " + t.Program + " in trusted_terminals in " + a.paths().GlobalConfig()
		}
		return where + "; to vouch for this terminal's program, list its path in trusted_terminals in " + a.paths().GlobalConfig()
	}
	return where
}

// resolve shows the request on the terminal, waits for the human to confirm,
// stores the pattern for --project/--global, and records the resolution.
func (a *App) resolve(id, status, verb string) error {
	tty, err := a.humanTTY()
	if err != nil {
		return refused(verb+" "+err.Error(), a.humanHint("run guard "+verb+" "+id+" yourself, in a terminal", err))
	}
	defer tty.Close()

	store := a.openStore()
	defer store.Close()
	p, err := store.GetPending(id)
	if err != nil {
		return &cliError{code: exitUsage, kind: "error", msg: fmt.Sprintf("request %s: %v", id, err),
			hint: "see guard pending for the open requests"}
	}
	if p.Status != "pending" {
		return &cliError{code: exitUsage, kind: "error", msg: fmt.Sprintf("request %s is already %s", id, p.Status)}
	}
	if p.Expired(a.Now(), a.pendingTTL()) || p.Abandoned() {
		return &cliError{code: exitUsage, kind: "error", msg: fmt.Sprintf("request %s expired, or its command is gone", id),
			hint: "let the agent run the command again"}
	}

	var file string
	switch status {
	case statusProject, statusGlobal:
		if p.Suggest == "" {
			return &cliError{code: exitUsage, kind: "error",
				msg:  fmt.Sprintf("request %s has no pattern to store (a composite command)", id),
				hint: "approve it --once instead"}
		}
		if err := grants.ValidatePattern(grants.Allow, p.Suggest); err != nil {
			return &cliError{code: exitUsage, kind: "error", msg: err.Error(), hint: "approve it --once instead"}
		}
		paths := a.paths()
		file = paths.GlobalGrants()
		if status == statusProject {
			file = paths.ProjectGrants(p.Root)
		}
	}

	if !confirm(tty, describe(p, status, file)) {
		return refused(verb+" cancelled at the terminal", "")
	}
	if file != "" {
		if err := grants.AddRule(file, grants.Allow, p.Suggest); err != nil {
			return failure(err, "")
		}
		if status == statusProject {
			_ = grants.RecordRoot(a.paths(), p.Root) // names the folder in guard grants list
		}
	}
	if err := store.Resolve(id, status, a.Now()); err != nil {
		return failure(fmt.Errorf("record %s: %w", verb, err), "")
	}
	// The human's answer is a decision too: it goes in the audit trail, with
	// the verb line as its command and the request's hash, which links it to
	// the command's own records.
	decision, answer := "allow", verbAnswers[status]
	if status == statusReject {
		decision = "deny"
	}
	a.recordVerb(store, decision, status, answer, ccs.ViaApprove, p.HMAC)
	fmt.Fprintf(a.Stdout, "%s: request %s: %s\n", status, oneLine(id), oneLine(p.Command))
	if file != "" {
		fmt.Fprintf(a.Stdout, "stored allow %s in %s\n", oneLine(classify.QuoteWord(p.Suggest)), oneLine(file))
	}
	return nil
}

func describe(p ccs.Pending, status, file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "request %s from %s\n  command: %s\n", oneLine(p.ID), oneLine(p.Cwd), oneLine(p.Command))
	if note := shim.ControlNote(p.Command+p.Suggest, p.Cwd, ""); note != "" {
		fmt.Fprintf(&b, "  %s\n", note)
	}
	switch status {
	case statusOnce:
		b.WriteString("  allow this exact text once, within 10 minutes\n")
	case statusProject, statusGlobal:
		fmt.Fprintf(&b, "  store allow %s in %s\n", oneLine(classify.QuoteWord(p.Suggest)), oneLine(file))
	case statusReject:
		b.WriteString("  reject it\n")
	}
	b.WriteString("confirm? [y/N] ")
	return b.String()
}

// confirm asks on the terminal and reads one line; only y or yes confirms.
func confirm(tty *os.File, question string) bool {
	if _, err := fmt.Fprint(tty, question); err != nil {
		return false
	}
	line, err := bufio.NewReader(tty).ReadString('\n')
	if err != nil && line == "" {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}
