package grants

import (
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
)

func TestCoversDenied(t *testing.T) {
	opts := classify.Options{Cwd: "/home/u/p", Home: "/home/u"}
	for _, tc := range []struct {
		pattern string
		refused string // the rule id named, "" for allowed
	}{
		{"npm install *", ""},
		{"make test", ""},
		{"go test *", ""},
		{"git commit -m *", ""},
		{"ls *", ""},
		{"./script.sh *", ""},
		{"gofmt -l *", ""},
		{"rm *", "rm-root"},
		{"rm -rf *", "rm-root"},
		{"cat *", ""}, // cat ~/.ssh/id_rsa is refused, but so is any program's: not this pattern's doing
		{"gh *", "secret-print"},
		{"sudo *", "privilege"},
		{"dd *", "disk-write"},
		{"kill *", "kill-all"},
		{"curl *", ""},
		{"ufw *", "security-off"},
		{"[write] /tmp", ""},
	} {
		got := CoversDenied(tc.pattern, opts)
		if tc.refused == "" && got != "" || tc.refused != "" && !strings.Contains(got, "("+tc.refused+")") {
			t.Errorf("CoversDenied(%q) = %q, want the rule %q", tc.pattern, got, tc.refused)
		}
	}
}
