package classify

import "testing"

// SpecGroups exports, to the external tests, the programs that share one
// entry (find and gfind; sed and gsed), from the family files.
func SpecGroups(t *testing.T) [][]string {
	var out [][]string
	for _, progs := range specPrograms(t, func(*Spec) bool { return true }) {
		if len(progs) > 1 {
			out = append(out, progs)
		}
	}
	return out
}
