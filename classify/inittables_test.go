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
