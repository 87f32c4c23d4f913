package redact

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestValues(t *testing.T) {
	cases := []struct {
		in     string
		values []string
		want   string
	}{
		{"mysql -uroot -pS3cretPw db", []string{"S3cretPw"}, "mysql -uroot -p[REDACTED:arg] db"},
		{"sshpass -p hunter22 ssh h", []string{"hunter22"}, "sshpass -p [REDACTED:arg] ssh h"},
		{"x abcd abcdef", []string{"abcd", "abcdef"}, "x [REDACTED:arg] [REDACTED:arg]"},
		{"short pw", []string{"pw"}, "short pw"}, // too short to replace safely
		{"nothing", nil, "nothing"},
	}
	for _, c := range cases {
		if got := Values(c.in, c.values); got != c.want {
			t.Errorf("Values(%q, %q) = %q, want %q", c.in, c.values, got, c.want)
		}
	}
}

// TestWithPatterns: a user's expression with a literal prefix is triggered
// by it, one without runs on every line, groups named s narrow the
// replacement, and one that does not compile is matched literally.
func TestWithPatterns(t *testing.T) {
	r := New(nil, WithPatterns(`corp-[0-9a-f]{8}`, `(?i)ticket=(?P<s>\w+)`, `[0-9]{3}-[0-9]{2}-[0-9]{4}`, `bad(`, ""))
	for in, want := range map[string]string{
		"id corp-0a1b2c3d end":  "id [REDACTED:custom] end",
		"TICKET=abc123 x":       "TICKET=[REDACTED:custom] x",
		"ssn 123-45-6789 ok":    "ssn [REDACTED:custom] ok",
		"a bad( b":              "a [REDACTED:custom] b",
		"nothing to see":        "nothing to see",
		"corp-0a1b\n2c3d split": "corp-0a1b\n2c3d split",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	if err := CheckPattern("bad("); err == nil || strings.Contains(err.Error(), "bad(") {
		t.Errorf("CheckPattern(bad() = %v", err)
	}
}

func TestReadPatternFile(t *testing.T) {
	dir := t.TempDir()
	if pats, err := ReadPatternFile(ProjectFile(dir)); pats != nil || err != nil {
		t.Fatalf("missing file: %v, %v", pats, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".guard"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ProjectFile(dir), []byte("# c\n\nabc[0-9]+\n  x(y  \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pats, err := ReadPatternFile(ProjectFile(dir))
	if len(pats) != 2 || pats[0] != "abc[0-9]+" || pats[1] != "x(y" {
		t.Fatalf("patterns %q", pats)
	}
	if err == nil || !strings.Contains(err.Error(), "redact:4:") || strings.Contains(err.Error(), "x(y") {
		t.Fatalf("err = %v", err)
	}
	// a FIFO in its place does not hang
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := ReadPatternFile(fifo); err == nil {
		t.Fatal("a fifo was read")
	}
}
