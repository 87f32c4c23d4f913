package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/shim"
)

func (a *App) policyCommand() *cli.Command {
	cmds := []*cli.Command{a.policyShowCommand(), a.policyTestCommand(), a.policyResetCommand()}
	return &cli.Command{
		Name:  "policy",
		Usage: "show the effective policy (mode, layers, rules, warnings), test it against a table, reset an escalation",
		UsageText: `guard policy show [--json] [--agent NAME] [--cwd DIR]
   guard policy test [--cwd DIR] [--agent NAME] [--verbose] FILE
   guard policy reset [--cwd DIR]

The policy is every settings layer merged (docs/policy.md): the managed policy,
your config and grants, the project's grants and its committed config, and the
[agents.NAME] profile of the agent asking. show says which rollout mode is in
force and why, lists each layer's file and hash, every rule with its source,
and warns about rules that cannot work. test decides each [[case]] of FILE
as guard check would and exits 1 with a diff when one differs. reset switches a project that dry_run
escalated to enforce back to its configured mode.

example:
   guard policy show
   guard policy show --agent codex --json
   guard policy test examples/policy-test.toml
   guard policy reset`,
		Subcommands: cmds,
	}
}

func (a *App) policyShowCommand() *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "show the effective mode and why, each layer, every rule and its source, and warnings",
		UsageText: `guard policy show [--json] [--agent NAME] [--cwd DIR]

The agent defaults to $GUARD_AGENT; without one, the policy of an unnamed agent
is shown (which the managed power_agents may restrict).

example:
   guard policy show --agent claude`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object (fields: docs/policy.md)"},
			&cli.StringFlag{Name: "agent", Usage: "show the policy as agent `NAME` gets it"},
			&cli.StringFlag{Name: "cwd", Usage: "show the policy of the project of `DIR`"},
		},
		Action: a.policyShow,
	}
}

func (a *App) policyResetCommand() *cli.Command {
	return &cli.Command{
		Name:  "reset",
		Usage: "undo a dry_run escalation to enforce for this project",
		UsageText: `guard policy reset [--cwd DIR]

In dry_run, escalate = { after = N, within = DUR } switches a project to enforce
after N high-risk would-deny verdicts within DUR. reset switches it back and
forgets the counted verdicts. It is a human's verb: refused when run from inside
a guarded command.

example:
   guard policy reset`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "reset the project of `DIR`"},
		},
		Action: a.policyReset,
	}
}

// policyJSON is guard policy show --json.
type policyJSON struct {
	Cwd             string          `json:"cwd"`
	Root            string          `json:"root"`
	Agent           string          `json:"agent"`
	Safe            bool            `json:"safe"`
	Mode            string          `json:"mode"`
	ModeWhy         string          `json:"mode_why"`
	MinMode         string          `json:"min_mode,omitempty"`
	Escalate        *escalateJSON   `json:"escalate,omitempty"`
	Escalated       *escalatedJSON  `json:"escalated,omitempty"`
	AllowUserGrants bool            `json:"allow_user_grants"`
	PowerAgents     []string        `json:"power_agents"`
	Unknown         string          `json:"unknown"`
	Composite       string          `json:"composite"`
	Timeout         string          `json:"timeout"`
	Error           string          `json:"error,omitempty"`
	Layers          []layerJSON     `json:"layers"`
	Rules           []policyRuleOut `json:"rules"`
	Warnings        []string        `json:"warnings"`
}

type escalateJSON struct {
	After  int    `json:"after"`
	Within string `json:"within"`
	File   string `json:"file"`
}

type escalatedJSON struct {
	At     time.Time `json:"at"`
	Events int       `json:"events"`
	Within string    `json:"within"`
}

type layerJSON struct {
	Name    string `json:"name"`
	File    string `json:"file"`
	Exists  bool   `json:"exists"`
	SHA256  string `json:"sha256,omitempty"`
	Trusted *bool  `json:"trusted,omitempty"` // the project layer only
}

type policyRuleOut struct {
	Kind    string `json:"kind"`
	Pattern string `json:"pattern"`
	Layer   string `json:"layer"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Agent   string `json:"agent,omitempty"`
	Counts  bool   `json:"counts"`
	Why     string `json:"why,omitempty"`
}

func (a *App) policyShow(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("policy show takes no arguments")
	}
	cwd, err := a.cwdOr(c.String("cwd"))
	if err != nil {
		return err
	}
	agent := c.String("agent")
	if !c.IsSet("agent") {
		agent = a.Getenv("GUARD_AGENT")
	}
	p := a.paths()
	s := grants.Load(p, cwd).ForAgent(agent)
	red := a.redactor()
	opts := classify.Options{Cwd: cwd, Home: a.Getenv("HOME"), Protected: a.protected(p)}
	out := policyJSON{
		Cwd: cwd, Root: s.Root, Agent: agent, Safe: s.Policy.Safe,
		Mode: string(s.Policy.Effective()), ModeWhy: s.Policy.ModeWhy, MinMode: string(s.Policy.MinMode),
		AllowUserGrants: !s.Policy.NoUserGrants, PowerAgents: s.Policy.PowerAgents,
		Unknown: string(s.Unknown), Composite: s.Composite, Timeout: shortDur(s.Timeout),
		Layers: []layerJSON{}, Rules: []policyRuleOut{}, Warnings: []string{},
	}
	if e := s.Policy.Escalate; e.After > 0 {
		out.Escalate = &escalateJSON{After: e.After, Within: shortDur(e.Within), File: s.Policy.EscalateFile}
	}
	if e := s.Policy.Escalated; e != nil {
		out.Escalated = &escalatedJSON{At: e.At, Events: e.Events, Within: shortDur(e.Within)}
	}
	if s.Err != nil {
		out.Error = red.String(s.Err.Error())
	}
	for _, l := range grants.PolicyLayers(p, cwd) {
		lj := layerJSON{Name: l.Name, File: l.File, Exists: l.Exists, SHA256: l.SHA256}
		if l.Name == grants.LayerProject && l.Exists {
			t := l.Trusted
			lj.Trusted = &t
		}
		out.Layers = append(out.Layers, lj)
	}
	for _, r := range grants.PolicyRules(s) {
		out.Rules = append(out.Rules, policyRuleOut{Kind: string(r.Kind), Pattern: red.String(r.Pattern), Layer: r.Layer, File: r.File,
			Line: r.Line, Agent: r.Agent, Counts: r.Counts, Why: r.Why})
	}
	for i := range s.Tiers {
		r := &s.Tiers[i]
		counts, why := s.TierEntryCounts(r)
		out.Rules = append(out.Rules, policyRuleOut{Kind: string(r.Kind), Pattern: red.String(grants.TierGrant(r.Tier, r.Pattern)),
			Layer: r.Layer, File: r.File, Line: r.Line, Agent: r.Agent, Counts: counts, Why: why})
	}
	for i := range s.Structured {
		r := &s.Structured[i]
		counts, why := true, ""
		if r.Kind == grants.Allow && !r.Trusted {
			counts, why = false, "project config not trusted (run guard trust)"
		}
		out.Rules = append(out.Rules, policyRuleOut{Kind: string(r.Kind), Pattern: red.String("[[rule]] " + r.ID + ": " + strings.Join(r.Commands, "|")),
			Layer: r.Layer, File: r.File, Line: r.Line, Agent: r.Agent, Counts: counts, Why: why})
	}
	for _, w := range grants.PolicyWarnings(s, opts) {
		out.Warnings = append(out.Warnings, red.String(w))
	}
	if c.Bool("json") {
		enc := json.NewEncoder(a.Stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(&out); err != nil {
			return failure(fmt.Errorf("write policy: %w", err), "")
		}
		return nil
	}
	if err := writePolicy(a.Stdout, &out); err != nil {
		return failure(fmt.Errorf("write policy: %w", err), "")
	}
	return nil
}

// writePolicy prints guard policy show for a human.
func writePolicy(w io.Writer, o *policyJSON) error {
	var b strings.Builder
	fmt.Fprintf(&b, "mode: %s (%s)\n", o.Mode, o.ModeWhy)
	if o.MinMode != "" {
		fmt.Fprintf(&b, "min_mode: %s (managed floor)\n", o.MinMode)
	}
	if e := o.Escalate; e != nil {
		fmt.Fprintf(&b, "escalate: after %d high-risk would-deny within %s (%s)\n", e.After, e.Within, e.File)
	}
	if e := o.Escalated; e != nil {
		fmt.Fprintf(&b, "escalated: %s after %d high-risk would-deny within %s; guard policy reset undoes it\n",
			e.At.Local().Format(time.DateTime), e.Events, e.Within)
	}
	agent := o.Agent
	if agent == "" {
		agent = "(none named)"
	}
	fmt.Fprintf(&b, "agent: %s", agent)
	if o.Safe {
		b.WriteString(" (safe: not in the managed power_agents; only the read-only set allows)")
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "unknown: %s  composite: %s  timeout: %s", o.Unknown, o.Composite, o.Timeout)
	if !o.AllowUserGrants {
		b.WriteString("  allow_user_grants: false")
	}
	b.WriteString("\n")
	if o.Error != "" {
		fmt.Fprintf(&b, "config error (every command is denied): %s\n", o.Error)
	}
	b.WriteString("\nlayers:\n")
	for _, l := range o.Layers {
		state := "missing"
		if l.Exists {
			state = "sha256 " + dashed(l.SHA256)
			if l.Trusted != nil {
				if *l.Trusted {
					state += " trusted"
				} else {
					state += " untrusted"
				}
			}
		}
		fmt.Fprintf(&b, "  %-15s %s  %s\n", l.Name, l.File, state)
	}
	b.WriteString("\nrules:\n")
	if len(o.Rules) == 0 {
		b.WriteString("  (none: the built-in denylist, ask patterns and read-only set only)\n")
	}
	for _, r := range o.Rules {
		src := fmt.Sprintf("%s %s:%d", r.Layer, r.File, r.Line)
		if r.Agent != "" {
			src += " [agents." + r.Agent + "]"
		}
		line := fmt.Sprintf("  %-5s %-30s %s", r.Kind, classify.QuoteWord(r.Pattern), src)
		if !r.Counts {
			line += "  (ignored: " + r.Why + ")"
		}
		b.WriteString(oneLine(line) + "\n")
	}
	if len(o.Warnings) > 0 {
		b.WriteString("\nwarnings:\n")
		for _, w := range o.Warnings {
			b.WriteString("  " + oneLine(w) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func dashed(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// shortDur prints a duration without zero units (1h, not 1h0m0s).
func shortDur(d time.Duration) string { return shim.ShortDuration(d) }

func (a *App) policyReset(c *cli.Context) error {
	if err := a.refuseInsideGuard("policy reset"); err != nil {
		return err
	}
	if err := a.refuseInjectable("policy reset"); err != nil {
		return err
	}
	if c.Args().Present() {
		return usageError("policy reset takes no arguments")
	}
	cwd, err := a.cwdOr(c.String("cwd"))
	if err != nil {
		return err
	}
	root := grants.ProjectRoot(cwd)
	had, err := grants.ResetEscalation(a.paths(), root)
	if err != nil {
		return failure(err, "")
	}
	if !had {
		fmt.Fprintf(a.Stdout, "nothing to reset: %s was not escalated\n", root)
		return nil
	}
	a.recordVerb(nil, "policy-reset", grants.RuleEscalate, "", ccs.ViaCLI, "")
	fmt.Fprintf(a.Stdout, "reset %s: back to its configured mode\n", root)
	return nil
}
