package classify

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

var updateCoverage = flag.Bool("update-coverage", false, "rewrite docs/coverage.md from the entries")

// TestCoverageDoc: docs/coverage.md is generated from the programs'
// entries, one row per entry, so that it cannot drift from the code.
// go test ./classify -run TestCoverageDoc -update-coverage rewrites it.
func TestCoverageDoc(t *testing.T) {
	got := coverageDoc(t)
	const file = "../docs/coverage.md"
	if *updateCoverage {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil || string(want) != got {
		t.Errorf("%s is not what the entries say: go test ./classify -run TestCoverageDoc -update-coverage", file)
	}
}

var shapeNames = [...]string{GrantDefault: "", GrantSub: "sub *", GrantTarget: "target", GrantPlain: "*", GrantExact: "exact"}

func coverageDoc(t *testing.T) string {
	t.Helper()
	all := allEntries(t)
	type row struct{ progs, cells string }
	var rows []row
	for s, progs := range all {
		var rules []string
		for _, r := range s.Exec {
			id := r.ID
			if r.Only != nil {
				var only []string
				for _, p := range progs {
					for _, o := range r.Only {
						if o == p {
							only = append(only, p)
						}
					}
				}
				if len(only) == 0 {
					continue
				}
				if len(only) < len(progs) {
					id += " (" + strings.Join(only, ", ") + ")"
				}
			}
			rules = append(rules, id)
		}
		var facts []string
		if s.ReadOnly != nil {
			if s.ReadOnlyFor != nil {
				facts = append(facts, "read-only uses ("+strings.Join(s.ReadOnlyFor, ", ")+")")
			} else {
				facts = append(facts, "read-only uses")
			}
		}
		if s.PrintsFiles {
			facts = append(facts, "prints files")
		}
		if s.InstallsAll != nil {
			facts = append(facts, "installs always ("+strings.Join(s.InstallsAll, ", ")+")")
		}
		if s.DeletesTree != nil {
			facts = append(facts, "may delete a tree")
		}
		if s.DashlessFirst {
			facts = append(facts, "options without a dash first")
		}
		if s.ProgramsWalked {
			facts = append(facts, "its programs walked")
		}
		if s.ReadsHere {
			facts = append(facts, "reads its directory")
		}
		if s.Runs != nil {
			facts = append(facts, "runs any program ("+strings.Join(s.Runs, ", ")+")")
		}
		if s.RunsFile != nil {
			facts = append(facts, "runs a file ("+strings.Join(s.RunsFile, ", ")+")")
		}
		if s.PassThrough != nil {
			facts = append(facts, "passes its command through")
		}
		if s.Symlinks != nil {
			facts = append(facts, "makes links: "+strings.Join(s.Symlinks, " "))
		}
		if s.InPlace != nil {
			facts = append(facts, "rewrites in place: "+strings.Join(s.InPlace, " "))
		}
		if s.DumpsEnv != nil {
			facts = append(facts, "may dump the environment")
		}
		if s.WordRisk != nil || s.SubRisk != nil {
			facts = append(facts, "word and subcommand checks")
		}
		if s.Closed {
			facts = append(facts, "closed")
		}
		if s.Network {
			if s.NetworkFor != nil {
				facts = append(facts, "network ("+strings.Join(s.NetworkFor, ", ")+")")
			} else {
				facts = append(facts, "network")
			}
		}
		if s.Reaches != nil {
			facts = append(facts, "network: "+strings.Join(s.Reaches, " "))
		}
		if s.Installs != nil {
			if s.InstallsFor != nil {
				facts = append(facts, "installs ("+strings.Join(s.InstallsFor, ", ")+"): "+strings.Join(s.Installs, " "))
			} else {
				facts = append(facts, "installs: "+strings.Join(s.Installs, " "))
			}
		}
		if s.Builds {
			facts = append(facts, "builds")
		}
		if s.Instructions {
			facts = append(facts, "reads instructions")
		}
		if s.Uploads {
			facts = append(facts, "uploads")
		}
		if s.WritesHere != nil {
			facts = append(facts, "writes into its directory")
		}
		if s.Keeps != "" {
			facts = append(facts, "keeps "+s.Keeps)
		}
		if s.RepoURLs {
			facts = append(facts, "repository URLs")
		}
		if s.Effect != 0 || s.EffectIf != nil {
			facts = append(facts, "prints secrets")
		}
		shape := shapeNames[s.Grant]
		if s.GrantFor != nil {
			shape += " (" + strings.Join(s.GrantFor, ", ") + ")"
		}
		rows = append(rows, row{strings.Join(progs, ", "), fmt.Sprintf("| %s | %s | %s | %d |", strings.Join(rules, ", "), strings.Join(facts, "; "), shape, len(s.Untyped))})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].progs < rows[j].progs })
	var b strings.Builder
	b.WriteString("# Coverage: what guard knows about each program\n\n")
	b.WriteString("Generated from the programs' entries in classify (`argspec_*.go`) by\n")
	b.WriteString("`go test ./classify -run TestCoverageDoc -update-coverage`; do not edit.\n")
	b.WriteString("Exec rules name what a `*` grant never covers (an option or operand that runs a\n")
	b.WriteString("program, writes elsewhere or prints secrets); the facts grade risk and the\n")
	b.WriteString("read-only set; the shape is the grant guard suggests; untyped counts the real\n")
	b.WriteString("options the spec deliberately leaves out (asked under a `*`).\n\n")
	b.WriteString("| programs | exec rules | facts | grant shape | untyped (top level) |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		b.WriteString("| " + r.progs + " " + r.cells + "\n")
	}
	return b.String()
}
