package shim

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/guard-dev/guard/grants"
)

// TestNewConfinement checks what a command may write, which entries of
// home it sees, and what stays read-only or hidden.
func TestNewConfinement(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(home, "src", "proj")
	for _, d := range []string{proj + "/.git/hooks", proj + "/.claude", home + "/.ssh", home + "/.cache/go-build",
		home + "/.config/guard", home + "/.local/state/guard", home + "/.pyenv", home + "/go/pkg/mod"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{home + "/.gitconfig", home + "/.bash_history", proj + "/.git/config", proj + "/.mcp.json"} {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// home's names are read once to rule out what is missing: a name
	// there that is a dangling link is still not kept, a nested one found
	if err := os.Symlink(filepath.Join(dir, "gone"), home+"/.bashrc"); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(home+"/.cargo", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(home+"/.cargo/credentials.toml", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state",
		"XDG_CACHE_HOME": home + "/.cache", "TMPDIR": dir,
		"GOCACHE": home + "/.cache/go-build", "GOMODCACHE": home + "/.ssh", "PIP_CACHE_DIR": "/etc/pip",
	}
	getenv := func(k string) string { return env[k] }
	s := grants.Defaults()
	s.Root = proj
	c := newConfinement(s, grants.Verdict{Decision: grants.Allow}, proj, "", getenv, grants.PathsFromEnv(getenv), "")
	if c == nil {
		t.Fatal("no confinement with the defaults")
	}
	for _, w := range []string{proj, proj + "/.git", "/tmp", dir, home + "/.cache", home + "/.cache/go-build", home + "/go/pkg/mod"} {
		if !slices.Contains(c.write, w) {
			t.Errorf("%s is not writable; write = %v", w, c.write)
		}
	}
	for _, w := range c.write {
		for _, bad := range []string{home, home + "/.ssh", "/etc/pip", home + "/.config/guard"} {
			if w == bad {
				t.Errorf("%s is writable (an agent's variable must not make it so)", bad)
			}
		}
	}
	seen := map[string]bool{}
	for _, k := range c.keep {
		seen[k.path] = k.writable
	}
	for p, writable := range map[string]bool{proj: true, home + "/.gitconfig": false, home + "/.pyenv": false, home + "/.config/guard": false} {
		if w, ok := seen[p]; !ok || w != writable {
			t.Errorf("home's view: %s kept=%v writable=%v, want kept writable=%v", p, ok, w, writable)
		}
	}
	for _, p := range []string{home + "/.ssh", home + "/.bash_history", home + "/.local/state/guard"} {
		if _, ok := seen[p]; ok {
			t.Errorf("home's view keeps %s", p)
		}
	}
	for _, p := range []string{proj + "/.claude", proj + "/.mcp.json", proj + "/.git/hooks", proj + "/.git/config", home + "/.config/guard"} {
		if !slices.Contains(c.protect, p) {
			t.Errorf("%s is not protected; protect = %v", p, c.protect)
		}
	}
	if _, ok := seen[home+"/.bashrc"]; ok {
		t.Errorf("home's view keeps %s, a dangling link", home+"/.bashrc")
	}
	if !slices.Contains(c.hide, home+"/.cargo/credentials.toml") || slices.Contains(c.hide, home+"/.cargo/credentials") {
		t.Errorf("hide = %v, want %s (and not the missing .cargo/credentials)", c.hide, home+"/.cargo/credentials.toml")
	}
	if !slices.Contains(c.hide, home+"/.local/state/guard") {
		t.Errorf("guard's state is not hidden; hide = %v", c.hide)
	}

	s.Confine.Mode = grants.ConfineOff
	if newConfinement(s, grants.Verdict{Decision: grants.Allow}, proj, "", getenv, grants.PathsFromEnv(getenv), "") != nil {
		t.Error(`mode = "off" still confines`)
	}
}

// TestGitDirsWorktree: a worktree's .git file names where git writes.
func TestGitDirsWorktree(t *testing.T) {
	dir := t.TempDir()
	common := filepath.Join(dir, "main", ".git")
	wt := filepath.Join(common, "worktrees", "b")
	if err := os.MkdirAll(wt, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(wt, "commondir"), []byte("../..\n"), 0o644)
	root := filepath.Join(dir, "b")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: "+wt+"\n"), 0o644)
	got := gitDirs(root)
	if !slices.Equal(got, []string{wt, common}) {
		t.Errorf("gitDirs = %v, want %v", got, []string{wt, common})
	}
}

// TestToolCachesMade: in a fresh home, the first npm install or go build
// guard allows finds its cache there and writable (before, the cache was
// writable only once it existed, and the tool could not make it); a text
// that names no such tool makes nothing.
func TestToolCachesMade(t *testing.T) {
	for _, tc := range []struct {
		text string
		made []string
	}{
		{"npm install left-pad@1.3.0", []string{".npm"}},
		{"cd web && npx prettier -c .", []string{".npm"}},
		{"go build ./... && ./gradlew test", []string{"go/pkg/mod", ".gradle/caches", ".gradle/wrapper"}},
		{"/usr/bin/cargo fetch", []string{".cargo/registry", ".cargo/git"}},
		{"echo npm-install gopher.go cargo-deny", nil}, // look-alikes: no word is a tool's name
		{"ls -la", nil},
		{"", nil},
	} {
		home := t.TempDir()
		proj := filepath.Join(home, "proj")
		if err := os.MkdirAll(proj, 0o755); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state", "XDG_CACHE_HOME": home + "/.cache"}
		getenv := func(k string) string { return env[k] }
		s := grants.Defaults()
		s.Root = proj
		c := newConfinement(s, grants.Verdict{Decision: grants.Allow}, proj, tc.text, getenv, grants.PathsFromEnv(getenv), "")
		if c == nil {
			t.Fatal("no confinement with the defaults")
		}
		want := tc.made
		for rel := range homeCacheTools {
			p := filepath.Join(home, rel)
			if made := exists(p); made != slices.Contains(want, rel) {
				t.Errorf("%q: %s made = %v, want %v", tc.text, rel, made, !made)
			} else if made && !slices.Contains(c.write, p) {
				t.Errorf("%q: %s made but not writable; write = %v", tc.text, rel, c.write)
			}
		}
	}
}
