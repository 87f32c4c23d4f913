package classify

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// tcLiteralOnly reports whether in is one simple command whose words bash can only
// print, never run: no substitutions, arithmetic, redirects, lists, bodies or
// parameter expansions other than $IFS. Rows meant for real bash must pass it, so
// that a later edit of the table can never make this test execute a command.
func tcLiteralOnly(in string) (bool, string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(in), "")
	if err != nil {
		return false, err.Error()
	}
	if len(f.Stmts) != 1 {
		return false, "not one statement"
	}
	st := f.Stmts[0]
	if st.Background || st.Coprocess || st.Negated || len(st.Redirs) > 0 {
		return false, "statement has &, coproc, ! or a redirect"
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 {
		return false, "not a plain simple command"
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob:
			why = "has a substitution, arithmetic or extglob"
		case *syntax.ParamExp:
			if n.Param == nil || n.Param.Value != "IFS" || n.Excl || n.Length || n.Width ||
				n.Index != nil || n.Slice != nil || n.Repl != nil || n.Exp != nil || n.Names != 0 {
				why = "has a parameter expansion other than $IFS"
			}
		}
		return why == ""
	})
	return why == "", why
}

// TestArgvAgainstBash confirms the literal rows of argvCases with real bash: the
// row's text is prefixed with `printf '%s\0' `, so bash prints the words it would
// have run, NUL-separated, and runs nothing else.
func TestArgvAgainstBash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real bash; skipped under -short")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	opt := tcOpt()
	dir := t.TempDir() // empty: a stray glob cannot match anything
	n := 0
	for i, c := range argvCases {
		if !c.bash {
			continue
		}
		n++
		t.Run(tcName(i, c.in), func(t *testing.T) {
			if ok, why := tcLiteralOnly(c.in); !ok {
				t.Fatalf("%q is marked for bash but is not literal-only: %s", c.in, why)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", `printf '%s\0' `+c.in)
			cmd.Dir = dir
			cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + opt.Home, "LC_ALL=C.UTF-8"}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("bash: %v: %s", err, stderr.String())
			}
			want := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
			if !slices.Equal(want, c.want[0]) {
				t.Errorf("%q: the table says %q but bash says %q", c.in, c.want[0], want)
			}
			a := Analyze(c.in, opt)
			if a.Fail != "" {
				t.Fatalf("%q: fail %s: %s", c.in, a.Fail, a.FailReason)
			}
			top := a.Top()
			if len(top) != 1 {
				t.Fatalf("%q: %d top-level commands, want 1: %q", c.in, len(top), tcArgs(a))
			}
			if got := a.Commands[top[0]].Args; !slices.Equal(got, want) {
				t.Errorf("%q: Analyze says %q, bash says %q", c.in, got, want)
			}
		})
	}
	if n < 20 {
		t.Errorf("only %d argv rows are checked against bash, want at least 20", n)
	}
}
