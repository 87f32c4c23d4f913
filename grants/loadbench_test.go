package grants

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkLoadAt is what every guard run pays to read its settings: five
// layers, one of them present (a global config.toml of three allows).
func BenchmarkLoadAt(b *testing.B) { benchLoadAt(b, 0) }

// BenchmarkLoadAt200 adds a global grants.toml of 200 allow rules, what a
// user's answers add up to over weeks.
func BenchmarkLoadAt200(b *testing.B) { benchLoadAt(b, 200) }

func benchLoadAt(b *testing.B, grants int) {
	dir := b.TempDir()
	p := Paths{Home: dir, Managed: filepath.Join(dir, "policy.toml"), ConfigDir: filepath.Join(dir, "config"),
		StateDir: filepath.Join(dir, "state"), CacheDir: filepath.Join(dir, "cache"), DataDir: filepath.Join(dir, "data")}
	if err := os.MkdirAll(p.ConfigDir, 0o700); err != nil {
		b.Fatal(err)
	}
	cfg := "composite = \"each\"\n[permissions.bash]\nallow = [\"true\", \"head -c 1G /dev/zero\", \"wc -c\"]\n"
	if err := os.WriteFile(p.GlobalConfig(), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	if grants > 0 {
		g := "[permissions.bash]\nallow = [\n"
		for i := range grants {
			g += fmt.Sprintf("  \"tool%d sub --flag *\",\n", i)
		}
		if err := os.WriteFile(p.GlobalGrants(), []byte(g+"]\n"), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(filepath.Join(work, ".git"), 0o700); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		if s := LoadAt(p, work, now); s.Err != nil {
			b.Fatal(s.Err)
		}
	}
}

// TestLocatePatternSameAnswers: locatePattern answers as splitting the text
// into lines and searching each for the quoted pattern does.
func TestLocatePatternSameAnswers(t *testing.T) {
	ref := func(text, p string, from int) (int, int) {
		lines := strings.Split(text, "\n")
		for n := max(from-1, 0); n < len(lines); n++ {
			for _, q := range []string{`"` + p + `"`, `'` + p + `'`} {
				if i := strings.Index(lines[n], q); i >= 0 {
					return n + 1, i + 1
				}
			}
		}
		return max(from, 1), 1
	}
	texts := []string{
		"", "\n", "allow = [\"git *\", 'ls', \"ls\"]\n", "a = 'x\"y\"'\n[b]\nallow = [\n  \"x\",\n  'x',\n]",
		"deny = [\"\", '']\nx=\"git\"\n\"git\"", "allow = [\"gitk\", \"git\"]\n# \"git\"\n", "'''\nmulti\nline'''\n\"multi\nline\"",
	}
	pats := []string{"", "x", "git", "ls", "x\"y", "y", "multi\nline", "nope", "\"", "'"}
	for _, text := range texts {
		for _, p := range pats {
			for from := -1; from <= 8; from++ {
				gl, gc := locatePattern(text, p, from)
				wl, wc := ref(text, p, from)
				if gl != wl || gc != wc {
					t.Errorf("locatePattern(%q, %q, %d) = %d:%d, want %d:%d", text, p, from, gl, gc, wl, wc)
				}
			}
		}
	}
}
