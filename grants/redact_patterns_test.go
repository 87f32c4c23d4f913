package grants

import (
	"strings"
	"testing"
)

// TestRedactPatterns: every layer adds its redact_patterns, an untrusted
// project config too (it can only add redaction), and a bad expression
// fails the load with file:line and without echoing the pattern.
func TestRedactPatterns(t *testing.T) {
	e := newEnv(t)
	write(t, e.p.GlobalConfig(), "redact_patterns = ['corp-[0-9a-f]{16}']\n")
	write(t, ProjectConfig(e.proj), "redact_patterns = ['(?P<s>build-secret-[a-z]+)']\n")
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	if got := strings.Join(s.RedactPatterns, " "); got != "corp-[0-9a-f]{16} (?P<s>build-secret-[a-z]+)" {
		t.Fatalf("RedactPatterns = %q", got)
	}

	write(t, e.p.GlobalConfig(), "unknown = \"ask\"\nredact_patterns = ['hunter2(']\n")
	s = Load(e.p, e.proj)
	if s.Err == nil || !strings.Contains(s.Err.Error(), "config.toml:2:") || strings.Contains(s.Err.Error(), "hunter2") {
		t.Fatalf("bad pattern: err = %v", s.Err)
	}
}
