package classify

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// entries returns the programs in the table: those whose spec carries
// their exec-capable rules or read-only uses, grouped by spec (every
// string literal of the family files, argspec_*.go, SpecFor knows).
func entries(t *testing.T) map[*Spec][]string {
	t.Helper()
	return specPrograms(t, func(s *Spec) bool { return s.Exec != nil || s.ReadOnly != nil })
}

// allEntries returns every spec that holds more than a grammar (exec
// rules, read-only uses, risk facts, a grant shape), with its programs.
func allEntries(t *testing.T) map[*Spec][]string {
	t.Helper()
	return specPrograms(t, func(s *Spec) bool {
		return s.Exec != nil || s.ReadOnly != nil || s.Reaches != nil || s.Network || s.Installs != nil || s.Builds ||
			s.Instructions || s.Uploads || s.WritesHere != nil || s.WriteTarget != nil || s.Keeps != "" || s.Grant != GrantDefault || s.PrintsFiles || s.InPlace != nil || s.Symlinks != nil || s.Runs != nil || s.RunsFile != nil || s.InstallsAll != nil || s.DeletesTree != nil || s.DashlessFirst || s.ProgramsWalked || s.ReadsHere || s.PassThrough != nil || s.DumpsEnv != nil || s.WordRisk != nil || s.SubRisk != nil
	})
}

func specPrograms(t *testing.T, keep func(*Spec) bool) map[*Spec][]string {
	t.Helper()
	files, err := filepath.Glob("argspec_*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no family files: %v", err)
	}
	out := map[*Spec][]string{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			bl, ok := n.(*ast.BasicLit)
			if !ok || bl.Kind != token.STRING {
				return true
			}
			name, err := strconv.Unquote(bl.Value)
			if err != nil {
				return true
			}
			s := SpecFor(name)
			if s == nil || !keep(s) {
				return true
			}
			if !slices.Contains(out[s], name) {
				out[s] = append(out[s], name)
				sort.Strings(out[s])
			}
			return true
		})
	}
	return out
}

// notYetAudited are the programs with an entry whose spec has no real
// option list in testdata/options yet: TestSpecAudit cannot hold them to
// the closed world. The list only shrinks (TestEntriesAudited fails on a
// name that got its list), and a new entry must come with its list.
var notYetAudited = []string{
	// the pager that shares cat's spec
	"most",
	// generic specs whose programs run what they are given or download:
	// judged by what they run, every word after them sensitive (uv, pipx
	// and nix: subcommands none of whose options is typed, so each asks)
	"bunx", "expect", "firejail", "nix", "nix-shell", "nsenter", "parallel", "pip-run",
	"pipx", "pnpx", "unbuffer", "unshare", "uv", "uvx", "dotnet", "dnx",
	// coreutils readers that became entries when grants' read-only and
	// grant-shape lists moved into them (one tool, one place)
	"diff", "grep", "od",
	// specs that gained an exec rule (openssl-module, jq-load) before
	// their option lists were written
	"openssl", "jq", "gojq", "jaq", "yq",
	// tools whose one read-only use is TOOL --version alone (VersionUse)
	"pip", "rustc",
}

// TestEntriesAudited extends TestSpecAudit to every program in the table:
// a program whose spec is its entry has its real options listed in
// testdata/options (so an option the spec neither types nor lists in
// Untyped fails there), unless notYetAudited names it.
func TestEntriesAudited(t *testing.T) {
	listed := map[string]bool{}
	files, err := filepath.Glob("testdata/options/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			text := strings.TrimSpace(sc.Text())
			if prefix, _, ok := strings.Cut(text, ":"); ok && !strings.HasPrefix(text, "#") {
				if w := strings.Fields(prefix); len(w) > 0 {
					listed[w[0]] = true
				}
			}
		}
		f.Close()
	}
	audited := map[*Spec]bool{}
	all := entries(t)
	for s, progs := range all {
		for _, p := range progs {
			if listed[p] {
				audited[s] = true
			}
		}
	}
	for s, progs := range all {
		if audited[s] {
			continue
		}
		// a spec shared by programs that differ (sudo's is npx's): each
		// program a rule names must be listed or waived
		var named []string
		for _, r := range s.Exec {
			for _, p := range progs {
				if (r.Only == nil || slices.Contains(r.Only, p)) && !slices.Contains(named, p) {
					named = append(named, p)
				}
			}
		}
		if s.Exec == nil {
			named = progs
		}
		waived := false
		for _, p := range named {
			if slices.Contains(notYetAudited, p) {
				waived = true
			}
		}
		if !waived {
			t.Errorf("%v: an entry without an option list in testdata/options (add one, taken from the tool's --help or manual, or name it in notYetAudited)", named)
		}
	}
	for _, p := range notYetAudited {
		s := SpecFor(p)
		if s == nil || all[s] == nil {
			t.Errorf("notYetAudited names %s, which has no entry", p)
		} else if audited[s] {
			t.Errorf("notYetAudited names %s, whose options are listed now: drop it", p)
		}
	}
}

// TestEntryRules: every exec-capable rule has an id no other rule has, a
// one-line reason, something to look at, and names in Only that are
// programs of its spec.
func TestEntryRules(t *testing.T) {
	ids := map[string]*ExecRule{}
	of := map[string][]string{} // the programs of the specs that hold a rule
	for s, progs := range entries(t) {
		for i := range s.Exec {
			r := &s.Exec[i]
			if o := ids[r.ID]; o != nil && (o.Reason != r.Reason || !slices.Equal(o.Opts, r.Opts)) {
				t.Errorf("two rules have the id %q", r.ID)
			}
			ids[r.ID] = r
			if r.ID == "" || r.Reason == "" || strings.Contains(r.Reason, "\n") {
				t.Errorf("%v: rule %q needs an id and a one-line reason", progs, r.ID)
			}
			if r.Opts == nil && r.Words == nil && !r.Rest && r.Check == nil {
				t.Errorf("%s: a rule that marks nothing", r.ID)
			}
			for _, p := range progs {
				if !slices.Contains(of[r.ID], p) {
					of[r.ID] = append(of[r.ID], p)
				}
			}
		}
	}
	for _, r := range ids {
		for _, p := range r.Only {
			if !slices.Contains(of[r.ID], p) {
				t.Errorf("%s: Only names %s, which is no program of the specs that hold the rule", r.ID, p)
			}
		}
	}
	if len(ids) < 40 {
		t.Errorf("found %d rules in the entries, want the whole table", len(ids))
	}
}
