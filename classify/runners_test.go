package classify

import (
	"slices"
	"testing"
)

// TestRunnersWhole: Runners lists the Runs of every spec that has some
// (runnerSpecs is kept by hand, the family tables being switches), and
// each name a Runs lists is the spec's own: SpecFor gives it back.
func TestRunnersWhole(t *testing.T) {
	all := specPrograms(t, func(s *Spec) bool { return s.Runs != nil })
	for s, progs := range all {
		if !slices.Contains(runnerSpecs[:], s) {
			t.Errorf("%v: a spec whose Runs names programs is not in runnerSpecs", progs)
		}
	}
	for _, s := range runnerSpecs {
		if s.Runs == nil {
			t.Errorf("runnerSpecs holds a spec without Runs")
		}
		for _, n := range s.Runs {
			if SpecFor(n) != s {
				t.Errorf("%s: in a Runs list of a spec that is not its own", n)
			}
			if !RunsAny(n) {
				t.Errorf("RunsAny(%s) is false", n)
			}
		}
		for _, n := range s.RunsFile {
			if SpecFor(n) != s {
				t.Errorf("%s: in a RunsFile list of a spec that is not its own", n)
			}
		}
	}
	var got []string
	Runners(func(n string) bool { got = append(got, n); return len(got) < 3 })
	if len(got) != 3 {
		t.Errorf("Runners did not stop when told: %v", got)
	}
}
