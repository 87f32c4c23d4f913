package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/BurntSushi/toml"
	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/redact"
	"github.com/guard-dev/guard/shim"
)

// exitPolicyMismatch is guard policy test's status when a case's decision
// is not the one it expects (or the policy does not load): what a CI step
// fails on.
const exitPolicyMismatch = 1

// maxPolicyTestBytes bounds a policy test file.
const maxPolicyTestBytes = 1 << 20

func (a *App) policyTestCommand() *cli.Command {
	return &cli.Command{
		Name:  "test",
		Usage: "check a table of commands against the decisions they must get",
		UsageText: `guard policy test [--cwd DIR] [--agent NAME] FILE

FILE holds cases, each a command and the decision it must get (allow, ask or
deny), optionally the rule that must decide it, the directory it runs in and
the agent that runs it. Every case is decided exactly as guard check decides it,
under the settings in effect for its directory. Prints each case that fails as
a diff (- want, + got); exits 1 when one fails or a settings file does not load,
0 when all pass. Format: docs/rules.md.

example:
   guard policy test .guard/policy-test.toml
   guard policy test --cwd infra --agent codex policy-test.toml`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "run the cases in `DIR` (a case's relative cwd is taken from here)"},
			&cli.StringFlag{Name: "agent", Usage: "the agent running the cases (a case's agent wins), for rules with agent = NAME"},
			&cli.BoolFlag{Name: "verbose", Usage: "print every case, not only the failures"},
		},
		Action: a.policyTest,
	}
}

// policyCase is one [[case]] of a policy test file.
type policyCase struct {
	Command string `toml:"command"`
	Expect  string `toml:"expect"`
	Rule    string `toml:"rule"`
	Cwd     string `toml:"cwd"`
	Agent   string `toml:"agent"`
	line    int
}

type policyFile struct {
	// Config names the settings file the cases were written against
	// (relative to the test file): where cases fail, guard says to put it
	// in place as the project's .guard/config.toml and trust it.
	Config string       `toml:"config"`
	Case   []policyCase `toml:"case"`
}

// readPolicyTest reads and checks a policy test file. Its errors read
// "file:line: problem".
func readPolicyTest(file string) ([]policyCase, string, error) {
	pf, err := readPolicyFile(file)
	if err != nil {
		return nil, "", err
	}
	conf := pf.Config
	if conf != "" && !filepath.IsAbs(conf) {
		conf = filepath.Join(filepath.Dir(file), conf)
	}
	return pf.Case, conf, nil
}

func readPolicyFile(file string) (*policyFile, error) {
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("read policy tests: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", file)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPolicyTestBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read policy tests: %w", err)
	}
	if len(data) > maxPolicyTestBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", file, maxPolicyTestBytes)
	}
	var pf policyFile
	md, err := toml.Decode(string(data), &pf)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", file, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if un := md.Undecoded(); len(un) > 0 {
		return nil, fmt.Errorf("%s: unknown key %q (the file has config and [[case]] tables; a case has command, expect, rule, cwd, agent)", file, un[0].String())
	}
	lines := caseLines(string(data))
	for i := range pf.Case {
		c := &pf.Case[i]
		if i < len(lines) {
			c.line = lines[i]
		}
		where := fmt.Sprintf("%s:%d: case %d", file, c.line, i+1)
		switch grants.Decision(c.Expect) {
		case grants.Allow, grants.Ask, grants.Deny:
		default:
			return nil, fmt.Errorf(`%s: expect must be "allow", "ask" or "deny"`, where)
		}
		if strings.TrimSpace(c.Command) == "" {
			return nil, fmt.Errorf("%s: command is missing", where)
		}
	}
	if len(pf.Case) == 0 {
		return nil, fmt.Errorf("%s: no [[case]] tables", file)
	}
	return &pf, nil
}

// caseLines returns the line of each [[case]] header, in order.
func caseLines(text string) []int {
	var out []int
	for n, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if name, _, ok := strings.Cut(strings.TrimPrefix(l, "[["), "]]"); ok && strings.HasPrefix(l, "[[") && strings.TrimSpace(name) == "case" {
			out = append(out, n+1)
		}
	}
	return out
}

// policyDir is the analyzer and settings of one directory the cases run in.
type policyDir struct {
	an *classify.Analyzer
	s  *grants.Settings
}

func (a *App) policyTest(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageError("policy test needs one file: guard policy test FILE")
	}
	base, err := a.cwdOr(c.String("cwd"))
	if err != nil {
		return err
	}
	file := c.Args().First()
	if !filepath.IsAbs(file) && a.Cwd != "" {
		file = filepath.Join(a.Cwd, file)
	}
	cases, conf, err := readPolicyTest(file)
	if err != nil {
		return usageError("%v", err)
	}
	p := a.paths()
	red := a.redactor()
	dirs := map[string]*policyDir{}
	var b strings.Builder
	failed := 0
	for i := range cases {
		pc := &cases[i]
		cwd := base
		if pc.Cwd != "" {
			cwd = filepath.Clean(pc.Cwd)
			if !filepath.IsAbs(cwd) {
				cwd = filepath.Join(base, cwd)
			}
		}
		d := dirs[cwd]
		if d == nil {
			d = &policyDir{
				an: classify.NewAnalyzer(classify.Options{Cwd: cwd, Home: a.Getenv("HOME"), Protected: a.protected(p)}),
				s:  grants.Load(p, cwd),
			}
			if d.s.Err != nil {
				// every case would be denied by the broken file: that is
				// not a policy anyone meant, so the run fails
				return &cliError{code: exitPolicyMismatch, kind: "error", msg: "settings do not load: " + red.String(d.s.Err.Error()),
					hint: "fix the file, then run guard policy test again"}
			}
			for _, w := range d.s.Warnings {
				a.diag("hint", red.String(w))
			}
			dirs[cwd] = d
		}
		agent := c.String("agent")
		if pc.Agent != "" {
			agent = pc.Agent
		}
		an := d.an.Analyze(pc.Command)
		as := d.s.As(agent)
		v := grants.DecideWith(an, as, shim.Facts(an, as, a.Getenv("HOME"))) // as guard check decides it
		// The policy's own decision: in dry_run every verdict runs, and a
		// table checks what enforce would do.
		ok := string(v.Policy()) == pc.Expect && (pc.Rule == "" || v.Rule == pc.Rule)
		if ok {
			if c.Bool("verbose") {
				fmt.Fprintf(&b, "ok    %-5s %s\n", v.Policy(), oneLine(red.String(pc.Command)))
			}
			continue
		}
		failed++
		writeCaseDiff(&b, red, file, pc, v)
	}
	fmt.Fprintf(&b, "%d cases: %d passed, %d failed\n", len(cases), len(cases)-failed, failed)
	if _, err := io.WriteString(a.Stdout, b.String()); err != nil {
		return failure(fmt.Errorf("write results: %w", err), "")
	}
	if failed > 0 {
		hint := "guard explain --cwd DIR -- CMD shows why a command gets its decision"
		if conf != "" {
			hint = "these cases were written for the settings in " + conf + ": copy it to the project's .guard/config.toml and run guard trust; " + hint
		}
		return &cliError{code: exitPolicyMismatch, kind: "error", msg: fmt.Sprintf("%d of %d policy cases failed", failed, len(cases)),
			hint: hint}
	}
	return nil
}

// writeCaseDiff writes a failing case as a diff: its place and command,
// "-" the decision it expects, "+" the one it got, with the deciding rule
// and where that rule lives.
func writeCaseDiff(b *strings.Builder, red *redact.Redactor, file string, pc *policyCase, v grants.Verdict) {
	fmt.Fprintf(b, "--- %s:%d: %s", file, pc.line, oneLine(red.String(pc.Command)))
	if pc.Cwd != "" {
		fmt.Fprintf(b, "  (cwd %s)", pc.Cwd)
	}
	if pc.Agent != "" {
		fmt.Fprintf(b, "  (agent %s)", pc.Agent)
	}
	b.WriteString("\n")
	want := pc.Expect
	if pc.Rule != "" {
		want += "  rule " + pc.Rule
	}
	fmt.Fprintf(b, "-%s\n", want)
	got := fmt.Sprintf("%s  rule %s", v.Policy(), v.Rule)
	if v.File != "" {
		got += fmt.Sprintf(" (%s %s:%d)", v.Layer, v.File, v.Line)
	} else if v.Layer != "" {
		got += " (" + v.Layer + ")"
	}
	if v.Reason != "" {
		got += ": " + v.Reason
	}
	fmt.Fprintf(b, "+%s\n", oneLine(red.String(got)))
}
