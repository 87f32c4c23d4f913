package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/redact"
	"github.com/guard-dev/guard/shim"
)

func (a *App) explainCommand() *cli.Command {
	return &cli.Command{
		Name:  "explain",
		Usage: "show, step by step, why guard decides a command the way it does",
		UsageText: `guard explain [--cwd DIR] [--json] [--] CMD...

Prints the parse (each simple command, where it sits, its words, which words are
dynamic, what wrappers run), the composite reasons, the built-in rules that hit,
each settings rule tried with its layer and file, and the verdict. For an ask it
prints the pattern guard suggests and the exact command that grants it.
Several arguments are joined with spaces into one command text.

example:
   guard explain 'cd ~/.ssh && cat id_rsa'
   guard explain -- bash -c "sh -c 'rm -rf /'"`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "judge as if run in `DIR`"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object: check --json's fields, and the trace"},
		},
		Action: a.explain,
	}
}

func (a *App) explain(c *cli.Context) error {
	if !c.Args().Present() {
		return usageError("explain needs a command: guard explain CMD")
	}
	cwd, err := a.cwdOr(c.String("cwd"))
	if err != nil {
		return err
	}
	p := a.paths()
	opts := classify.Options{Cwd: cwd, Home: a.Getenv("HOME"), Protected: a.protected(p)}
	text := joinArgs(c.Args().Slice())
	an := classify.Analyze(text, opts)
	s := grants.Load(p, cwd).ForAgent(a.Getenv("GUARD_AGENT")) // [agents.NAME], power_agents
	v, trace := grants.ExplainWith(an, s, shim.Facts(an, s, a.Getenv("HOME")))
	for _, w := range s.Warnings {
		trace = append(trace, "ignored: "+w)
	}

	red := a.redactor()
	if c.Bool("json") {
		return a.explainJSON(red, cwd, an, v, trace)
	}
	var b strings.Builder
	writeExplain(&b, red, cwd, an, s, v, trace)
	if _, err := fmt.Fprint(a.Stdout, b.String()); err != nil {
		return failure(fmt.Errorf("write explanation: %w", err), "")
	}
	return nil
}

// explainJSON prints the verdict as guard check --json does, with the
// directory, the project root and the rules tried. Text is redacted.
func (a *App) explainJSON(red *redact.Redactor, cwd string, an *classify.Analysis, v grants.Verdict, trace []string) error {
	root, how := grants.FindProjectRoot(cwd)
	o := struct {
		checkJSON
		Cwd    string   `json:"cwd"`
		Root   string   `json:"root"`
		RootBy string   `json:"root_by"`
		Trace  []string `json:"trace"`
	}{Cwd: cwd, Root: root, RootBy: how, Trace: []string{}}
	o.Command, o.Decision, o.Rule, o.Reason, o.Risk = red.String(an.Text), string(v.Decision), v.Rule, red.String(v.Reason), string(v.Risk)
	o.Composite, o.Layer, o.File, o.Suggest = len(an.Composite) > 0, v.Layer, v.File, red.String(v.Suggest)
	o.Commands = [][]string{}
	for i := range an.Commands {
		args := make([]string, len(an.Commands[i].Args))
		for j, w := range an.Commands[i].Args {
			args[j] = red.String(w)
		}
		o.Commands = append(o.Commands, args)
	}
	for _, line := range trace {
		o.Trace = append(o.Trace, red.String(line))
	}
	enc := json.NewEncoder(a.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&o); err != nil {
		return failure(fmt.Errorf("write explanation: %w", err), "")
	}
	return nil
}

// writeExplain renders the trace. Every piece of command text goes through
// red and then redact.Visible (shown), every path through redact.Visible.
func writeExplain(b *strings.Builder, red *redact.Redactor, cwd string, an *classify.Analysis,
	s *grants.Settings, v grants.Verdict, trace []string) {
	fmt.Fprintf(b, "command: %s\n", shown(red, an.Text))
	if note := shim.ControlNote(red.String(an.Text), cwd, ""); note != "" {
		fmt.Fprintf(b, "%s\n", note)
	}
	fmt.Fprintf(b, "cwd: %s\n", redact.Visible(cwd))
	root, how := grants.FindProjectRoot(cwd)
	fmt.Fprintf(b, "project root: %s (found by %s; project grants and .guard/config.toml are this root's)\n", redact.Visible(root), how)

	b.WriteString("\nparse:\n")
	if an.Fail != "" {
		fmt.Fprintf(b, "  does not parse (%s): %s\n", an.Fail, shown(red, an.FailReason))
	}
	if len(an.Commands) == 0 && an.Fail == "" {
		b.WriteString("  no commands\n")
	}
	for i := range an.Commands {
		writeCommand(b, red, i, &an.Commands[i])
	}

	b.WriteString("\ncomposite: ")
	if len(an.Composite) == 0 {
		b.WriteString("no (a simple command)\n")
	} else {
		fmt.Fprintf(b, "yes (%s)\n", strings.Join(an.Composite, ", "))
	}

	b.WriteString("\nbuilt-in denylist:\n")
	writeHits(b, red, an.Deny, "  no hits\n")
	b.WriteString("\nbuilt-in ask rules:\n")
	writeHits(b, red, an.Ask, "  no hits\n")

	b.WriteString("\nsettings:\n")
	if s.Err != nil {
		fmt.Fprintf(b, "  config error: %s\n", shown(red, s.Err.Error()))
	}
	fmt.Fprintf(b, "  unknown = %s, composite = %s, builtin_readonly = %t\n", s.Unknown, s.Composite, s.BuiltinReadonly)

	b.WriteString("\nrules tried:\n")
	if len(trace) == 0 {
		b.WriteString("  none\n")
	}
	for _, line := range trace {
		fmt.Fprintf(b, "  %s\n", shown(red, line))
	}

	b.WriteString("\nverdict:\n")
	fmt.Fprintf(b, "  %s  %s  %s\n", v.Decision, redact.Visible(v.Rule), shown(red, v.Reason))
	fmt.Fprintf(b, "  risk %s", v.Risk)
	if v.Layer != "" {
		fmt.Fprintf(b, ", layer %s", v.Layer)
	}
	if v.File != "" {
		fmt.Fprintf(b, ", file %s", redact.Visible(v.File))
		if v.Line > 0 {
			fmt.Fprintf(b, ":%d", v.Line)
		}
	}
	b.WriteString("\n")
	if conf := shim.ConfinedFor(s, v); conf != "" {
		fmt.Fprintf(b, "  confined: %s\n", conf)
	}
	if v.Decision == grants.Ask {
		switch {
		case v.OnceOnly:
			fmt.Fprintf(b, "  %s\n", onceOnlyWhy(v.Rule))
		case v.Suggest != "":
			sug := shown(red, v.Suggest)
			fmt.Fprintf(b, "  suggested pattern: %s\n", sug)
			fmt.Fprintf(b, "  to allow it in this project: guard grants add --project %s\n", redact.Visible(classify.QuoteWord(red.String(v.Suggest))))
		}
	}
}

func writeCommand(b *strings.Builder, red *redact.Redactor, i int, c *classify.Command) {
	fmt.Fprintf(b, "  [%d] %s\n", i, shown(red, quoteWords(c.Args)))
	fmt.Fprintf(b, "      where: %s, at %s, depth %d", c.Where, c.Pos, c.Depth)
	if c.Parent >= 0 {
		fmt.Fprintf(b, ", run by [%d]", c.Parent)
	}
	if c.Subst {
		b.WriteString(", inside a substitution")
	}
	b.WriteString("\n")
	dir := c.Dir
	if dir == "" {
		dir = "unknown"
	}
	fmt.Fprintf(b, "      dir: %s\n", redact.Visible(dir))
	if len(c.Assigns) > 0 {
		fmt.Fprintf(b, "      assigns: %s\n", shown(red, strings.Join(c.Assigns, " ")))
	}
	var dyn []string
	for j, d := range c.Dynamic {
		if d && j < len(c.Args) {
			dyn = append(dyn, fmt.Sprintf("word %d %s", j, shown(red, strconv.Quote(c.Args[j]))))
		}
	}
	if len(dyn) > 0 {
		fmt.Fprintf(b, "      dynamic: %s\n", strings.Join(dyn, ", "))
	}
	if w := wrapName(c.Wrap); w != "" {
		fmt.Fprintf(b, "      wrapper: %s", w)
		if c.Wrap != classify.WrapShell && c.InnerStart > 0 && c.InnerStart < len(c.Args) {
			fmt.Fprintf(b, ", runs %s", shown(red, quoteWords(c.Args[c.InnerStart:])))
		}
		if len(c.Inner) > 0 {
			refs := make([]string, len(c.Inner))
			for k, n := range c.Inner {
				refs[k] = fmt.Sprintf("[%d]", n)
			}
			fmt.Fprintf(b, " -> %s", strings.Join(refs, " "))
		}
		if len(c.InnerComposite) > 0 {
			fmt.Fprintf(b, " (nested script is composite: %s)", strings.Join(c.InnerComposite, ", "))
		}
		b.WriteString("\n")
	}
	if c.Opaque {
		b.WriteString("      opaque: an interpreter one-liner guard cannot see into\n")
	}
}

func writeHits(b *strings.Builder, red *redact.Redactor, hits []classify.Hit, none string) {
	if len(hits) == 0 {
		b.WriteString(none)
		return
	}
	for _, h := range hits {
		where := "a redirect target"
		if h.Cmd >= 0 {
			where = fmt.Sprintf("command [%d]", h.Cmd)
		}
		fmt.Fprintf(b, "  %s  %s: %s\n", h.ID, where, shown(red, h.Reason))
	}
}

// shown is s as explain prints it: redacted, then with control characters
// escaped.
func shown(red *redact.Redactor, s string) string { return redact.Visible(red.String(s)) }

func wrapName(w classify.Wrap) string {
	switch w {
	case classify.WrapTransparent:
		return "transparent (judged by what it runs)"
	case classify.WrapShell:
		return "shell (runs a nested script)"
	case classify.WrapGenerated:
		return "generated (runs a command with arguments guard cannot see)"
	}
	return ""
}

// quoteWords shows argv the way a shell would need it typed.
func quoteWords(args []string) string {
	q := make([]string, len(args))
	for i, s := range args {
		q[i] = classify.QuoteWord(s)
	}
	return strings.Join(q, " ")
}

// onceOnlyWhy says why an ask can only be allowed once, at the prompt: for
// composite text and a dynamic command word no pattern describes it; for
// the rest (built-in ask rules, ask rules from settings) a stored allow
// never overrides the rule.
func onceOnlyWhy(rule string) string {
	switch rule {
	case grants.RuleComposite:
		return "a composite command can only be allowed once, at the prompt"
	case grants.RuleDynamicCommand:
		return "a command whose program name is not literal can only be allowed once, at the prompt"
	}
	return "only allow once, at the prompt: no grant overrides the ask rule " + rule
}
