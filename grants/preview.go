package grants

import (
	"fmt"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// denyProbes are the words CoversDenied puts in a pattern's '*': each
// makes some program a command the built-in denylist refuses (rm -rf /,
// gh auth token, sudo true, dd of=/dev/sda, kill -9 -1, ufw disable).
var denyProbes = []string{
	"", "true", "/", "-rf /", "-rf ~", "~", "-rf ~/*", "/dev/sda", "of=/dev/sda", "if=/dev/zero of=/dev/sda",
	"auth token", "-1", "-9 -1", "config view --raw", "-F", "disable",
}

// CoversDenied says why an allow pattern must not be stored when it
// would cover a command the built-in denylist refuses, found by putting
// each of a few probe words in its '*' ("" when none is covered). A
// probe that is refused after any program's name (a credential file as
// an operand) proves nothing of the pattern and is passed over. It
// needs no audit: the prompt applies it to a pattern typed at e whether
// or not the audit's preview (which guard-cli computes) can be had.
// opts are the analysis options of the command asked about.
func CoversDenied(pattern string, opts classify.Options) string {
	if _, _, tier := ParseTierGrant(pattern); tier {
		return ""
	}
	seen := map[string]bool{}
	for _, p := range denyProbes {
		text := strings.ReplaceAll(pattern, "*", p)
		text = strings.Join(strings.Fields(text), " ")
		if text == "" || seen[text] {
			continue
		}
		seen[text] = true
		an := classify.Analyze(text, opts)
		if len(an.Deny) == 0 {
			continue
		}
		// a probe any program is refused for (a credential file, the
		// metadata address) says nothing of this pattern's program
		if len(classify.Analyze("guard-probe "+p, opts).Deny) > 0 {
			continue
		}
		for _, c := range an.Commands {
			if Covers(pattern, c.Args) {
				h, _ := classify.MostSevere(an.Deny)
				return fmt.Sprintf("%s would cover %s, which the built-in denylist refuses (%s): choose a narrower pattern",
					classify.QuoteWord(pattern), text, h.ID)
			}
		}
	}
	return ""
}
