package classify

import (
	"slices"
	"strings"
	"testing"
)

// TestCredentialWords: credentialWords, written out so that no init code
// builds it, names every literal component of the credential table.
// A component it missed would let a path to that credential through its
// prefilter unread.
func TestCredentialWords(t *testing.T) {
	for _, cr := range credentials {
		for _, c := range cr.comps {
			if strings.ContainsAny(c, "*?[") || c == "~" {
				continue
			}
			if !credentialWords(strings.TrimPrefix(c, "/")) {
				t.Errorf("credentialWords(%q) = false; add it: the credential table names it in %q", strings.TrimPrefix(c, "/"), cr.comps)
			}
		}
	}
	// credentialGlobTargets: every component but *, ** and ~, each once,
	// in the table's order.
	var targets []string
	for _, cr := range credentials {
		for _, c := range cr.comps {
			c = strings.TrimPrefix(c, "/")
			if c != "*" && c != "**" && c != "~" && !slices.Contains(targets, c) {
				targets = append(targets, c)
			}
		}
	}
	if !slices.Equal(credentialGlobTargets, targets) {
		t.Errorf("credentialGlobTargets = %q\nthe credential table gives %q", credentialGlobTargets, targets)
	}
	for _, c := range []string{"", "*", "~", "/etc", ".sshx", "src", "id_rsa"} {
		if credentialWords(c) {
			t.Errorf("credentialWords(%q) = true, want false", c)
		}
	}
}

// TestWrappersSorted: lookupWrapper searches the wrapper table by binary
// search, so the table must stay sorted by name, each name once.
func TestWrappersSorted(t *testing.T) {
	for i := 1; i < len(wrappers); i++ {
		if wrappers[i-1].name >= wrappers[i].name {
			t.Errorf("wrappers: %q comes before %q: keep the table sorted by name, each name once", wrappers[i-1].name, wrappers[i].name)
		}
	}
	for _, wr := range wrappers {
		if got := lookupWrapper(wr.name); got == nil || got.name != wr.name {
			t.Errorf("lookupWrapper(%q) = %v", wr.name, got)
		}
	}
	for _, name := range []string{"", "a", "zzz", "timeou", "timeoutx", "env", "bash"} {
		if got := lookupWrapper(name); got != nil {
			t.Errorf("lookupWrapper(%q) = %q, want none", name, got.name)
		}
	}
}
