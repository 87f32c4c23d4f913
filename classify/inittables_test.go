package classify

import (
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
		if got, ok := lookupWrapper(wr.name); !ok || got.name != wr.name {
			t.Errorf("lookupWrapper(%q) = %q, %v", wr.name, got.name, ok)
		}
	}
	for _, name := range []string{"", "a", "zzz", "timeou", "timeoutx", "env", "bash"} {
		if _, ok := lookupWrapper(name); ok {
			t.Errorf("lookupWrapper(%q) found an entry, want none", name)
		}
	}
}
