package grants

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
)

// TestSpecTable: every command the read-only set or the exec-capable
// table names has a spec in classify's argument model, so what it reads,
// writes and runs is typed rather than guessed.
func TestSpecTable(t *testing.T) {
	names := map[string]string{}
	for _, r := range allExecRules(t) {
		for _, p := range r.Progs {
			names[p] = "exec table " + r.ID
		}
	}
	for _, n := range readOnlyNames(t) {
		names[n] = "read-only set"
	}
	for n, where := range names {
		if classify.SpecFor(n) == nil {
			t.Errorf("%s (%s) has no spec: add one to a classify/argspec_*.go family table", n, where)
		}
	}
}

// entryPrograms returns the programs whose entry in classify is their
// whole knowledge (a spec that carries Exec, ReadOnly, Reaches or a grant
// shape), grouped by spec, read from classify's family files
// (argspec_*.go): every string literal there that SpecFor knows.
func entryPrograms(t *testing.T) map[*classify.Spec][]string {
	t.Helper()
	return specPrograms(t, false)
}

// isEntry reports a spec that holds more than the program's grammar: what
// grants would otherwise keep a list of.
func isEntry(s *classify.Spec) bool {
	return s.Exec != nil || s.ReadOnly != nil || s.Reaches != nil || s.Network || s.Installs != nil || s.Builds || s.Instructions || s.Uploads || s.WritesHere != nil || s.WriteTarget != nil || s.Groups != nil || s.Grant != classify.GrantDefault || s.PrintsFiles || s.InPlace != nil || s.Symlinks != nil || s.Runs != nil || s.RunsFile != nil || s.InstallsAll != nil || s.DeletesTree != nil || s.DashlessFirst || s.ProgramsWalked || s.ReadsHere || s.PassThrough != nil || s.DumpsEnv != nil || s.WordRisk != nil || s.SubRisk != nil
}

// allSpecPrograms: every spec's programs, entry or not.
func allSpecPrograms(t *testing.T) map[*classify.Spec][]string {
	t.Helper()
	return specPrograms(t, true)
}

func specPrograms(t *testing.T, every bool) map[*classify.Spec][]string {
	t.Helper()
	files, err := filepath.Glob("../classify/argspec_*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no classify family files: %v", err)
	}
	out := map[*classify.Spec][]string{}
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
			s := classify.SpecFor(name)
			if s == nil || !every && !isEntry(s) {
				return true
			}
			if !slices.Contains(out[s], name) {
				out[s] = append(out[s], name)
				sort.Strings(out[s])
			}
			return true
		})
	}
	if len(out) == 0 {
		t.Fatal("no spec found")
	}
	return out
}

// execRule is an exec-capable rule with the programs it is for.
type execRule struct {
	ID     string
	Progs  []string
	Sub    []string
	Global bool
	Opts   []string
	Words  []string
	Rest   bool
	Check  func(c *classify.Command, p classify.Parsed, m classify.Marker)
	Reason string
}

// allExecRules is the whole exec-capable argument table: the rules of
// every program's entry in classify (Spec.Exec), with the programs that
// share the entry.
func allExecRules(t *testing.T) []execRule {
	t.Helper()
	var out []execRule
	at := map[string]int{} // a rule two specs share (vi and nvim) is one row
	for s, progs := range entryPrograms(t) {
		for _, r := range s.Exec {
			progs := progs
			if r.Only != nil {
				progs = slices.DeleteFunc(slices.Clone(progs), func(n string) bool { return !slices.Contains(r.Only, n) })
				if len(progs) == 0 {
					continue
				}
			}
			if k, ok := at[r.ID]; ok {
				for _, n := range progs {
					if !slices.Contains(out[k].Progs, n) {
						out[k].Progs = append(out[k].Progs, n)
					}
				}
				continue
			}
			at[r.ID] = len(out)
			out = append(out, execRule{ID: r.ID, Progs: slices.Clone(progs), Sub: r.Sub, Global: r.Global, Opts: r.Opts, Words: r.Words, Rest: r.Rest, Check: r.Check, Reason: r.Reason})
		}
	}
	return out
}

// readOnlyNames returns the command words readOnlySet's switch names,
// read from its source so that the test follows the set.
func readOnlyNames(t *testing.T) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "readonly.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		fd, ok := n.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "readOnlySet" {
			return true
		}
		ast.Inspect(fd, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, e := range cc.List {
					if bl, ok := e.(*ast.BasicLit); ok && bl.Kind == token.STRING {
						if s, err := strconv.Unquote(bl.Value); err == nil {
							out = append(out, s)
						}
					}
				}
			}
			return true
		})
		return false
	})
	if len(out) < 30 { // the switch shrinks as its programs move into their entries
		t.Fatalf("found %d names in readOnlySet, want the whole switch", len(out))
	}
	return out
}

// TestElsewhere: where a '*' grant's writes may go.
func TestElsewhere(t *testing.T) {
	cases := []struct {
		p, cwd string
		want   bool
	}{
		{"src/a.go", "/home/u/proj", false},
		{"/home/u/proj/build", "/home/u/proj", false},
		{"/tmp/x", "/home/u/proj", false},
		{"/tmp/.bashrc", "/home/u/proj", true},
		{".git/hooks/pre-commit", "/home/u/proj", true},
		{"./.git/config", "/home/u/proj", true},
		{".git", "/home/u/proj", true},
		{"sub/.envrc", "/home/u/proj", true},
		{"../other", "/home/u/proj", true},
		{"/home/u/.bashrc", "/home/u/proj", true},
		{"/usr/local/bin/x", "/home/u/proj", true},
		{"host:/srv/x", "/home/u/proj", false},
		{"/tmp/am/h/.bashrc", "/tmp/am/h/proj", true}, // a project in /tmp: its home may be there too
		{"/tmp/am/h/proj/out", "/tmp/am/h/proj", false},
		{"x", "", false}, // no working directory: relative stays where the command runs
		{"../x", "", true},
		{".git/hooks/x", "", true},
		{"/etc/x", "", true},
		{"-", "/home/u/proj", false},
	}
	for _, c := range cases {
		if got := elsewhere(c.p, c.cwd, ""); got != c.want {
			t.Errorf("elsewhere(%q, %q) = %v, want %v", c.p, c.cwd, got, c.want)
		}
	}
}
