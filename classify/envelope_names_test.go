package classify

import (
	"regexp"
	"testing"
)

// The envelope's name matchers are hand-written (a package-level regexp
// costs every guard start); they must accept exactly what these accept.
var envelopeNameREs = []struct {
	re *regexp.Regexp
	fn func(string) bool
}{
	{regexp.MustCompile(`^snapshot-(bash|zsh|sh)-[0-9]+-[a-z0-9]+\.sh$`), claudeSnapshotName},
	{regexp.MustCompile(`^claude-[0-9a-f]{1,16}-cwd$`), claudeCwdName},
	{regexp.MustCompile(`^gemini-shell-[A-Za-z0-9]{6}$`), geminiDirName},
}

var envelopeNameSeeds = []string{
	"snapshot-bash-1748000000000-abc123.sh", "snapshot-zsh-1-x.sh", "snapshot-sh-12-a9.sh", "snapshot-fish-1-a.sh",
	"snapshot-bash--a.sh", "snapshot-bash-1-.sh", "snapshot-bash-1-A.sh", "snapshot-bash-1-a.sh.x", "snapshot-bash-1-a-b.sh",
	"claude-1f2e-cwd", "claude--cwd", "claude-0123456789abcdef-cwd", "claude-0123456789abcdef0-cwd", "claude-ABC-cwd", "claude-1-cwdx",
	"gemini-shell-AbC123", "gemini-shell-AbC12", "gemini-shell-AbC1234", "gemini-shell-Ab_123", "",
}

func TestEnvelopeNames(t *testing.T) {
	for _, s := range envelopeNameSeeds {
		for i, m := range envelopeNameREs {
			if got, want := m.fn(s), m.re.MatchString(s); got != want {
				t.Errorf("matcher %d(%q) = %v, regexp says %v", i, s, got, want)
			}
		}
	}
}

func FuzzEnvelopeNames(f *testing.F) {
	for _, s := range envelopeNameSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i, m := range envelopeNameREs {
			if got, want := m.fn(s), m.re.MatchString(s); got != want {
				t.Errorf("matcher %d(%q) = %v, regexp says %v", i, s, got, want)
			}
		}
	})
}
