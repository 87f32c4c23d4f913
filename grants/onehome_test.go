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

// TestOneHome: what classify's entry of a program holds (its read-only
// uses, its grant shape) is not kept here too; grants keeps no
// exec-capable table at all. A program whose spec carries ReadOnly is not in readOnlySet's switch (the entry would shadow
// it), and one whose spec has a grant shape is in none of Suggest's lists.
func TestOneHome(t *testing.T) {
	for _, n := range readOnlyNames(t) {
		if s := classify.SpecFor(n); s != nil && s.ReadOnly != nil && (s.ReadOnlyFor == nil || slices.Contains(s.ReadOnlyFor, n)) {
			t.Errorf("readOnlySet names %s, whose entry in classify says which of its uses only read", n)
		}
	}
	for list, names := range map[string][]string{"subcommandProgs": subcommandProgs, "targetRunners": targetRunners, "plainProgs": plainProgs, "pathWriters": pathWriters} {
		for _, n := range names {
			if grantShape(n) != classify.GrantDefault {
				t.Errorf("%s names %s, whose entry in classify gives its grant shape", list, n)
			}
		}
	}
}

// grantsStillNames are the programs with an entry in classify that grants'
// code still names in a list of its own: the risk grades (networkCommand,
// installs, buildTool), the suggestion shapes (subcommandProgs,
// plainProgs, pathWriters), the read-only set's plain names, the wrappers
// it passes through, and a few
// special cases (docker's container group, sed -i for the tiers). It only
// shrinks: each is moved into the program's entry in its turn.
var grantsStillNames = []string{
	"ansible", "ansible-playbook", "aws", "az", "builtin", "cat", "command", "env", "gcloud", "go", "npm", "pytest", "python",
	"timeout", "watch",
}

// TestGrantsNamesNoEntryProgram: grants' code (tests aside) names no
// program whose knowledge lives in its entry in classify (git: its
// exec-capable rules, read-only queries, reaching subcommands, grant
// shape and own directory all come from gitSpec), except those
// grantsStillNames lists. A new per-tool list here fails; so does a name
// the list keeps after grants stopped naming it.
func TestGrantsNamesNoEntryProgram(t *testing.T) {
	progs := map[string]bool{}
	for _, ns := range entryPrograms(t) {
		for _, n := range ns {
			progs[n] = true
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]string{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
					if s, err := strconv.Unquote(bl.Value); err == nil && progs[s] && named[s] == "" {
						named[s] = file
					}
				}
				return true
			})
		}
	}
	var got []string
	for n, file := range named {
		got = append(got, n)
		if !slices.Contains(grantsStillNames, n) {
			t.Errorf("%s names %q, whose knowledge lives in its entry in classify: read it from the spec (classify.SpecFor) instead", file, n)
		}
	}
	sort.Strings(got)
	for _, n := range grantsStillNames {
		if !slices.Contains(got, n) {
			t.Errorf("grants no longer names %q: drop it from grantsStillNames", n)
		}
	}
	if named["git"] != "" {
		t.Errorf("git's knowledge must stay whole in classify")
	}
}

// TestEntryRunnersRefused: a program whose entry says it runs whatever
// its arguments say (classify.Spec.Runs) gets no allow pattern that
// covers every use of it, by name, by path, versioned or under a glob,
// and no [[rule]] allow either: grants reads that from the entry alone.
func TestEntryRunnersRefused(t *testing.T) {
	n := 0
	classify.Runners(func(name string) bool {
		n++
		for _, p := range []string{name + " *", "/usr/bin/" + name + " *", name + "1 *", name[:1] + "* *", name + " -c *"} {
			if p == name+" -c *" && name != "sudo" || p == name+"1 *" && strings.Trim(name[len(name)-1:], "0123456789") == "" {
				continue // run0 has no versioned spelling
			}
			if err := ValidatePattern(Allow, p); err == nil {
				t.Errorf("allow %q accepted: %s runs whatever its arguments say", p, name)
			}
		}
		if !interpreterLike(name) {
			t.Errorf("%s: not an interpreter to grants", name)
		}
		if err := allowRuleProblem(&StructRule{Commands: []string{name}}); err == nil {
			t.Errorf("an allow [[rule]] on %s accepted", name)
		}
		return true
	})
	if n < 30 {
		t.Errorf("classify.Runners listed %d programs, want the wrappers, privilege names and interpreters", n)
	}
}
