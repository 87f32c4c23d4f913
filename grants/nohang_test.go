package grants

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// plantings are the things a hostile agent, or bad luck, can leave where a
// settings file should be, and what the error must then say.
var plantings = []struct {
	name  string
	plant func(t *testing.T, path string)
	want  string
}{
	{"fifo", func(t *testing.T, p string) {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}, "not a regular file (a fifo)"},
	{"dangling symlink", func(t *testing.T, p string) {
		if err := os.Symlink(p+".gone", p); err != nil {
			t.Fatal(err)
		}
	}, "dangling symlink to "},
	{"directory", func(t *testing.T, p string) {
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
	}, "not a regular file (a directory)"},
}

// within runs fn and fails the test if it has not returned after d: a hang
// is a failure, not a stuck test run.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s still running after %s: guard would hang", what, d)
	}
}

// TestLoadNeverHangs puts a FIFO, a dangling symlink and a directory at
// every settings file Load opens: Load returns at once with an error that
// names the file, so every decision denies.
func TestLoadNeverHangs(t *testing.T) {
	files := []struct {
		name string
		path func(e *testEnv) string
	}{
		{"managed", func(e *testEnv) string { return e.p.Managed }},
		{"global config", func(e *testEnv) string { return e.p.GlobalConfig() }},
		{"global grants", func(e *testEnv) string { return e.p.GlobalGrants() }},
		{"project grants", func(e *testEnv) string { return e.p.ProjectGrants(e.proj) }},
		{"project config", func(e *testEnv) string { return ProjectConfig(e.proj) }},
		{"trust pin", func(e *testEnv) string {
			write(t, ProjectConfig(e.proj), "[permissions.bash]\nallow = [\"make *\"]\n")
			return e.p.TrustFile(e.proj)
		}},
	}
	for _, f := range files {
		for _, pl := range plantings {
			t.Run(f.name+"/"+pl.name, func(t *testing.T) {
				e := newEnv(t)
				path := f.path(e)
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				pl.plant(t, path)
				var s *Settings
				within(t, 10*time.Second, "Load", func() { s = Load(e.p, e.proj) })
				if s.Err == nil || !strings.Contains(s.Err.Error(), path) || !strings.Contains(s.Err.Error(), pl.want) {
					t.Fatalf("Err = %v, want %q naming %s", s.Err, pl.want, path)
				}
				if v := Decide(an("ls"), s); v.Decision != Deny || v.Rule != RuleConfigError {
					t.Errorf("must deny: %+v", v)
				}
			})
		}
	}
}

// TestAddRuleLockBounded: a grants lock held elsewhere makes AddRule fail
// with a message within the bound, instead of waiting for ever.
func TestAddRuleLockBounded(t *testing.T) {
	e := newEnv(t)
	file := e.p.GlobalGrants()
	write(t, file+".lock", "")
	f, err := os.Open(file + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var addErr error
	within(t, 10*time.Second, "AddRule", func() { addErr = AddRule(file, Allow, "make *") })
	if addErr == nil || !strings.Contains(addErr.Error(), "held by another process") {
		t.Fatalf("AddRule = %v, want a held-lock error", addErr)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if err := AddRule(file, Allow, "make *"); err != nil {
		t.Fatalf("after the lock was let go: %v", err)
	}
}

// TestAuditRequired: true is the stricter value, which an untrusted project
// config may set but not unset.
func TestAuditRequired(t *testing.T) {
	e := newEnv(t)
	if Load(e.p, e.proj).AuditRequired {
		t.Fatal("default must be false")
	}
	write(t, e.p.GlobalConfig(), "audit_required = true\n")
	write(t, ProjectConfig(e.proj), "audit_required = false\n")
	if s := Load(e.p, e.proj); s.Err != nil || !s.AuditRequired {
		t.Fatalf("an untrusted project config unset it: %+v", s)
	}
	write(t, e.p.GlobalConfig(), "audit_required = 1\n")
	if s := Load(e.p, e.proj); s.Err == nil || !strings.Contains(s.Err.Error(), "audit_required must be true or false") {
		t.Fatalf("Err = %v", s.Err)
	}
}

// TestSymlinkedConfig: a symlink to a real config (a dotfiles checkout) is
// read through; only a dangling one is an error.
func TestSymlinkedConfig(t *testing.T) {
	e := newEnv(t)
	real := filepath.Join(t.TempDir(), "dotfiles", "guard.toml")
	write(t, real, "[permissions.bash]\ndeny = [\"make deploy*\"]\n")
	os.MkdirAll(filepath.Dir(e.p.GlobalConfig()), 0o700)
	if err := os.Symlink(real, e.p.GlobalConfig()); err != nil {
		t.Fatal(err)
	}
	s := Load(e.p, e.proj)
	if s.Err != nil || len(s.Rules) != 1 || s.Rules[0].Pattern != "make deploy*" {
		t.Fatalf("Load through a symlink: %+v", s)
	}
}
