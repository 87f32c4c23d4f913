package shim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
)

// TestResolveExisting resolves real symlinks on a real filesystem: through
// the longest existing prefix, dangling links included, loops bounded.
func TestResolveExisting(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "proj", "src"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, "outside"), 0o755))
	must(os.Symlink("/etc", filepath.Join(dir, "proj", "x")))
	must(os.Symlink("../outside", filepath.Join(dir, "proj", "rel")))
	must(os.Symlink(filepath.Join(dir, "outside", "later.txt"), filepath.Join(dir, "proj", "dangling")))
	must(os.Symlink("loop2", filepath.Join(dir, "proj", "loop1")))
	must(os.Symlink("loop1", filepath.Join(dir, "proj", "loop2")))
	must(os.Symlink("x", filepath.Join(dir, "proj", "chain")))
	for _, tc := range []struct{ in, want string }{
		{"proj/src/main.go", "proj/src/main.go"},
		{"proj/x/shadow", "/etc/shadow"},
		{"proj/chain/guard-test-missing", "/etc/guard-test-missing"},
		{"proj/rel/notes.txt", "outside/notes.txt"},
		{"proj/dangling", "outside/later.txt"},
		{"proj/new/dir/file", "proj/new/dir/file"},
	} {
		want := tc.want
		if !filepath.IsAbs(want) {
			want = filepath.Join(dir, want)
		}
		if got := resolveExisting(filepath.Join(dir, tc.in)); got != want {
			t.Errorf("resolveExisting(%s) = %s, want %s", tc.in, got, want)
		}
	}
	if got := resolveExisting(filepath.Join(dir, "proj", "loop1", "f")); got == "" {
		t.Error("a link loop resolved to nothing")
	}
}

// TestFactsDecideAsTheDiskSays: a symlink in the project that points at
// /etc makes cat x/shadow a read of /etc/shadow, through Facts.
func TestFactsDecideAsTheDiskSays(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(proj, "x")); err != nil {
		t.Fatal(err)
	}
	s := grants.Defaults()
	s.Root = proj
	opt := classify.Options{Cwd: proj, Home: filepath.Join(dir, "home")}
	for _, tc := range []struct {
		cmd  string
		want grants.Decision
	}{
		{"cat x/shadow", grants.Ask},
		{"cat x/os-release", grants.Allow},
		{"cat README.md", grants.Allow},
		{"true", grants.Allow},
	} {
		a := classify.Analyze(tc.cmd, opt)
		if v := grants.DecideWith(a, s, Facts(a, s, opt.Home)); v.Decision != tc.want {
			t.Errorf("%s: %s (%s: %s), want %s", tc.cmd, v.Decision, v.Rule, v.Reason, tc.want)
		}
	}
	if f := Facts(classify.Analyze("true", opt), s, opt.Home); f.Real != nil || f.Root != "" {
		t.Errorf("a text without paths resolved something: %+v", f)
	}
}
