package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
)

func (a *App) grantsCommand() *cli.Command {
	scope := []cli.Flag{
		&cli.BoolFlag{Name: "project", Usage: "this project's grants (the default)"},
		&cli.BoolFlag{Name: "global", Usage: "your grants for every project"},
	}
	return &cli.Command{
		Name:  "grants",
		Usage: "list, add or remove the patterns that decide what may run",
		UsageText: `guard grants list|add|rm [options]

example:
   guard grants list
   guard grants add 'npm install *'
   guard grants add --global --deny 'git push --force*'
   guard grants rm 'npm install *'`,
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "print every rule with its kind, layer and file",
				UsageText: `guard grants list [--json] [--builtin] [--cwd DIR]

Lists the settings files guard reads for this directory (and whether each
exists), then every rule from every layer in the order guard consults them.
With --builtin, also the compiled-in denylist (never overridable) and the
built-in ask rules, by id.

example:
   guard grants list --json
   guard grants list --builtin`,
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
					&cli.StringFlag{Name: "cwd", Usage: "list as if in `DIR`"},
					&cli.BoolFlag{Name: "builtin", Usage: "also list the built-in denylist and ask rules"},
				},
				Action: a.grantsList,
			},
			{
				Name:  "add",
				Usage: "store a pattern (allow by default) for this project or everywhere",
				UsageText: `guard grants add [--project|--global] [--deny|--ask] [--for DUR] PATTERN

Patterns match a command's words joined by single spaces; * matches anything,
and a space before a trailing * is a word boundary ('git *' covers git and
git status, not gitk). Interpreter-wide patterns ('bash *', 'python *', '*')
are refused. --for makes an allow expire: it stops counting after DUR, and
guard grants list shows it as expired. Refused when run from inside a guarded
command.

example:
   guard grants add 'go test *'
   guard grants add --for 2h 'npm run dev *'
   guard grants add --global --ask 'git push *'`,
				Flags: append(scope,
					&cli.BoolFlag{Name: "deny", Usage: "store a deny rule"},
					&cli.BoolFlag{Name: "ask", Usage: "store an ask rule"},
					&cli.StringFlag{Name: "for", Usage: "the allow expires after `DUR` (e.g. 30m, 2h, 1d)"},
				),
				Action: a.grantsAdd,
			},
			{
				Name:  "preview",
				Usage: "show which past commands an allow pattern would have covered",
				UsageText: `guard grants preview [--project|--global] [--json] PATTERN

Shows how many and which commands in the audit PATTERN would have allowed,
as guard grants add does before it stores one, and exits 126 when the pattern
would cover a command the built-in denylist refused. Stores nothing. The
prompt's e runs it for the pattern typed there.

example:
   guard grants preview 'npm run *'
   guard grants preview --global --json 'make *'`,
				Flags: append(scope,
					&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
				),
				Action: a.grantsPreview,
			},
			{
				Name:  "rm",
				Usage: "remove a stored pattern",
				UsageText: `guard grants rm [--project|--global] PATTERN

Removes PATTERN (of any kind) from this project's grants, or with --global
from your global grants. Refused when run from inside a guarded command.

example:
   guard grants rm 'npm install *'`,
				Flags:  scope,
				Action: a.grantsRm,
			},
		},
	}
}

type ruleJSON struct {
	Kind    string `json:"kind"`
	Pattern string `json:"pattern"`
	Layer   string `json:"layer"`
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Trusted bool   `json:"trusted,omitempty"`
	// Expires is when an allow stops counting (RFC 3339), and Expired
	// says that it has.
	Expires string `json:"expires,omitempty"`
	Expired bool   `json:"expired,omitempty"`
}

type fileJSON struct {
	Layer   string `json:"layer"`
	File    string `json:"file"`
	Exists  bool   `json:"exists"`
	Trusted bool   `json:"trusted,omitempty"`
}

type builtinJSON struct {
	Kind   string `json:"kind"`
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// projectJSON is a folder of project grants whose project is gone, or
// whose root was never recorded (grants made before guard recorded it).
type projectJSON struct {
	Root   string     `json:"root"` // "" when not recorded
	Dir    string     `json:"dir"`
	Exists bool       `json:"exists"`
	Rules  []ruleJSON `json:"rules"`
	Error  string     `json:"error,omitempty"`
}

type listJSON struct {
	Root    string        `json:"root"`    // this directory's project root
	RootBy  string        `json:"root_by"` // how it was found: .guard/, .git or the directory
	Files   []fileJSON    `json:"files"`
	Stale   []projectJSON `json:"stale_projects,omitempty"`
	Rules   []ruleJSON    `json:"rules"`
	Builtin []builtinJSON `json:"builtin,omitempty"`
	Error   string        `json:"error,omitempty"`
}

func (a *App) grantsList(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("grants list takes no arguments")
	}
	cwd, err := a.cwdOr(c.String("cwd"))
	if err != nil {
		return err
	}
	p := a.paths()
	s := grants.LoadAt(p, cwd, a.Now())
	out := listJSON{Files: []fileJSON{}, Rules: []ruleJSON{}}
	out.Root, out.RootBy = grants.FindProjectRoot(cwd)
	projects, perr := grants.Projects(p)
	for _, pr := range projects {
		if pr.Exists {
			continue
		}
		pj := projectJSON{Root: pr.Root, Dir: pr.Dir, Rules: []ruleJSON{}}
		for _, r := range pr.Grants {
			pj.Rules = append(pj.Rules, ruleJSON{Kind: string(r.Kind), Pattern: r.Pattern, Layer: r.Layer, File: r.File})
		}
		if pr.Err != nil {
			pj.Error = pr.Err.Error()
		}
		out.Stale = append(out.Stale, pj)
	}
	for _, f := range grants.RulesFiles(p, cwd) {
		out.Files = append(out.Files, fileJSON{Layer: f.Name, File: f.File, Exists: f.Exists, Trusted: f.Trusted})
	}
	for _, r := range s.Rules {
		rj := ruleJSON{Kind: string(r.Kind), Pattern: r.Pattern, Layer: r.Layer,
			File: r.File, Line: r.Line, Trusted: r.Trusted, Expired: r.Expired}
		if !r.Expires.IsZero() {
			rj.Expires = r.Expires.Format(time.RFC3339)
		}
		out.Rules = append(out.Rules, rj)
	}
	for _, r := range s.Tiers { // [permissions.read|write|http|packages], as grants add takes them
		out.Rules = append(out.Rules, ruleJSON{Kind: string(r.Kind), Pattern: grants.TierGrant(r.Tier, r.Pattern), Layer: r.Layer,
			File: r.File, Line: r.Line, Trusted: r.Trusted})
	}
	if c.Bool("builtin") {
		for _, set := range []struct {
			kind  grants.Decision
			rules [][2]string
		}{{grants.Deny, classify.DenyRules()}, {grants.Ask, classify.AskRules()}} {
			for _, r := range set.rules {
				out.Builtin = append(out.Builtin, builtinJSON{Kind: string(set.kind), ID: r[0], Reason: r[1]})
			}
		}
	}
	if s.Err != nil {
		out.Error = s.Err.Error()
	}

	if c.Bool("json") {
		enc := json.NewEncoder(a.Stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return failure(fmt.Errorf("write list: %w", err), "")
		}
	} else if err := writeList(a, out); err != nil {
		return failure(fmt.Errorf("write list: %w", err), "")
	}
	if s.Err != nil {
		return &cliError{code: exitUsage, kind: "error", msg: s.Err.Error(),
			hint: "every decision is deny until the file is fixed"}
	}
	if perr != nil {
		a.diag("warning", perr.Error())
	}
	return nil
}

func writeList(a *App, l listJSON) error {
	tw := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "project root: %s (found by %s)\n", oneLine(l.Root), l.RootBy)
	fmt.Fprintln(tw, "files:")
	for _, f := range l.Files {
		state := "missing"
		switch {
		case f.Exists && f.Layer == grants.LayerProject && f.Trusted:
			state = "present, trusted"
		case f.Exists && f.Layer == grants.LayerProject:
			state = "present, untrusted"
		case f.Exists:
			state = "present"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", f.Layer, oneLine(f.File), state)
	}
	fmt.Fprintln(tw, "rules:")
	if len(l.Rules) == 0 {
		fmt.Fprintln(tw, "  none")
	}
	for _, r := range l.Rules {
		where := oneLine(r.File)
		if where == "" {
			where = "built-in"
		} else if r.Line > 0 {
			where = fmt.Sprintf("%s:%d", oneLine(r.File), r.Line)
		}
		note := ""
		switch {
		case r.Layer == grants.LayerProject && r.Kind == string(grants.Allow) && !r.Trusted:
			note = "\t(untrusted: run guard trust)"
		case r.Expired:
			note = "\t(expired " + r.Expires + ")"
		case r.Expires != "":
			note = "\t(until " + r.Expires + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s%s\n", r.Kind, oneLine(r.Pattern), r.Layer, where, note)
	}
	if len(l.Stale) > 0 {
		fmt.Fprintln(tw, "grants of projects that no longer exist (remove a folder to drop them):")
	}
	for _, pr := range l.Stale {
		root := pr.Root
		if root == "" {
			root = "(root not recorded)"
		}
		// no tabs: these lines keep out of the rules' columns
		fmt.Fprintf(tw, "  %s, folder %s\n", oneLine(root), oneLine(pr.Dir))
		if pr.Error != "" {
			fmt.Fprintf(tw, "    error: %s\n", oneLine(pr.Error))
		}
		for _, r := range pr.Rules {
			fmt.Fprintf(tw, "    %s %s\n", r.Kind, oneLine(r.Pattern))
		}
	}
	if len(l.Builtin) > 0 {
		fmt.Fprintln(tw, "built-in rules:")
	}
	for _, r := range l.Builtin {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Kind, r.ID, r.Reason)
	}
	return tw.Flush()
}

// grantsTarget picks the grants file from --project/--global (default project).
func (a *App) grantsTarget(c *cli.Context) (file, layer string, err error) {
	if c.Bool("project") && c.Bool("global") {
		return "", "", usageError("choose one of --project and --global")
	}
	p := a.paths()
	if c.Bool("global") {
		return p.GlobalGrants(), grants.LayerGlobalGrants, nil
	}
	cwd, err := a.cwdOr("")
	if err != nil {
		return "", "", err
	}
	return p.ProjectGrants(grants.ProjectRoot(cwd)), grants.LayerProjectGrants, nil
}

func (a *App) grantsAdd(c *cli.Context) error {
	if err := a.refuseInsideGuard("grants add"); err != nil {
		return err
	}
	if err := a.refuseInjectable("grants add"); err != nil {
		return err
	}
	if c.Bool("deny") && c.Bool("ask") {
		return usageError("choose one of --deny and --ask")
	}
	if !c.Args().Present() {
		return usageError("grants add needs a pattern: guard grants add 'npm install *'")
	}
	kind := grants.Allow
	switch {
	case c.Bool("deny"):
		kind = grants.Deny
	case c.Bool("ask"):
		kind = grants.Ask
	}
	var expires time.Time
	if c.IsSet("for") {
		if kind != grants.Allow {
			return usageError("--for: only an allow expires")
		}
		d, err := parseAge(c.String("for"))
		if err != nil {
			return usageError("--for: %v", err)
		}
		expires = a.Now().Add(d)
	}
	pattern := joinArgs(c.Args().Slice())
	if err := grants.ValidatePattern(kind, pattern); err != nil {
		return &cliError{code: exitUsage, kind: "error", msg: err.Error()}
	}
	file, layer, err := a.grantsTarget(c)
	if err != nil {
		return err
	}
	cwd, err := a.cwdOr("")
	if err != nil {
		return err
	}
	p := a.paths()
	// Name the project, not only its hashed folder: a human who runs the
	// suggested command in another directory must see which project it
	// went to.
	where := layer
	if layer == grants.LayerProjectGrants {
		where += " of " + grants.ProjectRoot(cwd)
	}
	if hasRule(grants.Load(p, cwd), file, kind, pattern) && expires.IsZero() {
		fmt.Fprintf(a.Stdout, "%s %s is already in %s (%s)\n", kind, oneLine(classify.QuoteWord(pattern)), oneLine(where), oneLine(file))
		return nil
	}
	if kind == grants.Allow {
		if err := a.printPreview(pattern, layer, cwd); err != nil {
			return err
		}
	}
	if err := grants.AddRuleUntil(file, kind, pattern, expires); err != nil {
		return failure(err, "")
	}
	if layer == grants.LayerProjectGrants {
		if err := grants.RecordRoot(p, grants.ProjectRoot(cwd)); err != nil {
			a.diag("warning", err.Error())
		}
	}
	a.recordVerb(nil, string(kind), layer, "", ccs.ViaCLI, "")
	until := ""
	if !expires.IsZero() {
		until = ", until " + expires.Local().Format(time.RFC3339)
	}
	fmt.Fprintf(a.Stdout, "added %s %s to %s (%s)%s\n", kind, oneLine(classify.QuoteWord(pattern)), oneLine(where), oneLine(file), until)
	if kind == grants.Allow {
		if n := grants.UntypedNote(pattern); n != "" {
			a.diag("note", n)
		}
		if w := a.shadowed(p, cwd, pattern); w != "" {
			a.diag("warning", w)
		}
	}
	return nil
}

// hasRule reports whether file already holds pattern as a kind rule.
func hasRule(s *grants.Settings, file string, kind grants.Decision, pattern string) bool {
	for _, r := range s.Rules {
		if r.File == file && r.Kind == kind && r.Pattern == pattern && r.Expires.IsZero() {
			return true // (one that expires is made permanent by adding it again)
		}
	}
	return false
}

// shadowed says why an allow grant can never let its own command run, or
// "": guard decides the command the pattern names (its * taken out) with
// the settings as they are now, grant included; a hit on the built-in
// denylist, a deny rule or a built-in ask rule wins over every grant.
func (a *App) shadowed(p grants.Paths, cwd, pattern string) string {
	sample := strings.Join(strings.Fields(strings.ReplaceAll(pattern, "*", " ")), " ")
	if sample == "" {
		return ""
	}
	an := classify.Analyze(sample, classify.Options{Cwd: cwd, Home: a.Getenv("HOME"), Protected: a.protected(p)})
	if an.Fail != "" {
		return ""
	}
	v := grants.Decide(an, grants.Load(p, cwd))
	red := a.redactor()
	q := classify.QuoteWord(red.String(pattern))
	switch {
	case v.Policy() == grants.Deny && len(an.Deny) > 0:
		return fmt.Sprintf("%s can never apply: the built-in denylist always wins (%s: %s)", q, an.Deny[0].ID, red.String(an.Deny[0].Reason))
	case v.Policy() == grants.Deny && v.File != "":
		return fmt.Sprintf("%s can never apply: deny rule %s in %s:%d wins over every allow", q,
			classify.QuoteWord(red.String(v.Rule)), v.File, v.Line)
	case v.Policy() == grants.Ask && len(an.Ask) > 0:
		return fmt.Sprintf("%s will still ask: built-in ask rule %s (%s) cannot be silenced by a grant", q, an.Ask[0].ID, red.String(an.Ask[0].Reason))
	case v.Policy() == grants.Ask && v.File != "" && v.Layer != "":
		return fmt.Sprintf("%s will still ask: ask rule %s in %s:%d comes before every allow", q,
			classify.QuoteWord(red.String(v.Rule)), v.File, v.Line)
	}
	return ""
}

func (a *App) grantsRm(c *cli.Context) error {
	if err := a.refuseInsideGuard("grants rm"); err != nil {
		return err
	}
	if err := a.refuseInjectable("grants rm"); err != nil {
		return err
	}
	if !c.Args().Present() {
		return usageError("grants rm needs a pattern: guard grants rm 'npm install *'")
	}
	pattern := joinArgs(c.Args().Slice())
	file, layer, err := a.grantsTarget(c)
	if err != nil {
		return err
	}
	removed, err := grants.RemoveRule(file, pattern)
	if err != nil {
		return failure(err, "")
	}
	if !removed {
		other := "--global"
		if layer == grants.LayerGlobalGrants {
			other = "--project"
		}
		return &cliError{code: exitUsage, kind: "error",
			msg:  fmt.Sprintf("no rule %s in %s (%s)", classify.QuoteWord(pattern), layer, file),
			hint: "see guard grants list, or try " + other}
	}
	a.recordVerb(nil, "remove", layer, "", ccs.ViaCLI, "")
	fmt.Fprintf(a.Stdout, "removed %s from %s (%s)\n", oneLine(classify.QuoteWord(pattern)), layer, oneLine(file))
	return nil
}

// grantsPreview is guard grants preview: grant preview without storing,
// for a person and for the prompt's e (which reads --json).
func (a *App) grantsPreview(c *cli.Context) error {
	if !c.Args().Present() {
		return usageError("grants preview needs a pattern: guard grants preview 'npm install *'")
	}
	pattern := joinArgs(c.Args().Slice())
	if err := grants.ValidatePattern(grants.Allow, pattern); err != nil {
		return &cliError{code: exitUsage, kind: "error", msg: err.Error()}
	}
	_, layer, err := a.grantsTarget(c)
	if err != nil {
		return err
	}
	cwd, err := a.cwdOr("")
	if err != nil {
		return err
	}
	if !c.Bool("json") {
		return a.printPreview(pattern, layer, cwd)
	}
	root := ""
	if layer == grants.LayerProjectGrants {
		root = grants.ProjectRoot(cwd)
	}
	store := a.openStore()
	defer store.Close()
	pv, err := a.grantPreview(store, pattern, root)
	if err != nil {
		return failure(fmt.Errorf("preview: %w", err), "")
	}
	if err := json.NewEncoder(a.Stdout).Encode(pv); err != nil {
		return failure(err, "")
	}
	if pv.Refused != "" {
		return &cliError{code: exitRefused, kind: "denied", msg: "grants preview: " + pv.Refused}
	}
	return nil
}

// printPreview prints what an allow pattern would have covered in the
// audit (grantPreview, which the web console shows too) and refuses a
// pattern that covers a command the built-in denylist refused.
func (a *App) printPreview(pattern, layer, cwd string) error {
	store := a.openStore()
	defer store.Close()
	root := ""
	if layer == grants.LayerProjectGrants {
		root = grants.ProjectRoot(cwd)
	}
	pv, err := a.grantPreview(store, pattern, root)
	if err != nil {
		a.diag("warning", "no preview: "+err.Error())
		return nil
	}
	if pv.Refused != "" {
		return &cliError{code: exitRefused, kind: "denied", msg: "grants add: " + pv.Refused,
			hint: "a grant must not cover what guard refuses as dangerous; name the command more exactly"}
	}
	q := oneLine(classify.QuoteWord(pattern))
	if pv.Matched == 0 {
		fmt.Fprintf(a.Stdout, "preview: %s covers no command in the audit\n", q)
		return nil
	}
	fmt.Fprintf(a.Stdout, "preview: %s would have allowed %d past %s, e.g.:\n", q, pv.Matched, plural(pv.Matched, "command", "commands"))
	for _, e := range pv.Examples {
		fmt.Fprintf(a.Stdout, "  %s\n", e)
	}
	return nil
}
