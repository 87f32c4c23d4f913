package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guard-dev/guard/grants"
)

// hangLimit is how long any guard run may take in these tests: past it the
// process is killed and the test fails. The bound is generous (guard's own
// lock waits are 2 s); it turns a hang into a failure, it times nothing.
const hangLimit = 10 * time.Second

// nohangEnv is a temp HOME with every XDG directory and the managed policy
// under it, and a project (a git checkout) to run in.
type nohangEnv struct {
	home, config, state, managed, proj string
	env                                []string
}

func newNohangEnv(t *testing.T) *nohangEnv {
	t.Helper()
	dir := t.TempDir()
	e := &nohangEnv{
		home:    filepath.Join(dir, "home"),
		config:  filepath.Join(dir, "home", ".config", "guard"),
		state:   filepath.Join(dir, "home", ".local", "state", "guard"),
		managed: filepath.Join(dir, "etc", "policy.toml"),
		proj:    filepath.Join(dir, "proj"),
	}
	for _, d := range []string{e.config, filepath.Dir(e.state), filepath.Dir(e.managed), filepath.Join(e.proj, ".git")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GUARD_") {
			e.env = append(e.env, kv)
		}
	}
	e.env = append(e.env, "HOME="+e.home,
		"XDG_CONFIG_HOME="+filepath.Join(e.home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(e.home, ".local", "state"),
		"XDG_CACHE_HOME="+filepath.Join(e.home, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(e.home, ".local", "share"),
		"GUARD_MANAGED_POLICY="+e.managed, "GUARD_NO_PROMPT=1")
	return e
}

// guardRun is one finished (or killed) guard process.
type guardRun struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

// start starts guard with args in the project.
func (e *nohangEnv) start(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command("guard", args...)
	cmd.Dir, cmd.Env = e.proj, e.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out, &errb
}

// wait waits for cmd at most hangLimit; a process still alive then is
// killed and the test fails.
func wait(t *testing.T, cmd *exec.Cmd, out, errb *bytes.Buffer, start time.Time) guardRun {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		r := guardRun{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
		if ee, ok := err.(*exec.ExitError); ok {
			ws := ee.Sys().(syscall.WaitStatus)
			r.code = ws.ExitStatus()
			if ws.Signaled() {
				r.code = 128 + int(ws.Signal())
			}
		} else if err != nil {
			t.Fatal(err)
		}
		return r
	case <-time.After(hangLimit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("guard %s still running after %s: it hangs", strings.Join(cmd.Args[1:], " "), hangLimit)
		return guardRun{}
	}
}

func (e *nohangEnv) run(t *testing.T, args ...string) guardRun {
	t.Helper()
	start := time.Now()
	cmd, out, errb := e.start(t, args...)
	return wait(t, cmd, out, errb, start)
}

// TestNeverHang puts a FIFO, a dangling symlink and a directory (or, where a
// directory belongs, a file) at every path guard opens, and runs guard -c,
// guard check and guard exec with a hard limit. A settings path makes
// every command fail closed with one line naming the path; a state path
// lets the command run, with at most a warning.
func TestNeverHang(t *testing.T) {
	type plant struct {
		name string
		do   func(path string) error
		want string // in the refusal, for a settings path
	}
	fifo := plant{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o600) }, "not a regular file (a fifo)"}
	dangling := plant{"dangling symlink", func(p string) error { return os.Symlink(p+".gone", p) }, "dangling symlink to "}
	dir := plant{"directory", func(p string) error { return os.Mkdir(p, 0o700) }, "not a regular file (a directory)"}
	file := plant{"file", func(p string) error { return os.WriteFile(p, []byte("x"), 0o600) }, ""}
	paths := []struct {
		name     string
		path     func(e *nohangEnv) string
		settings bool // a settings file: guard must refuse
		plants   []plant
	}{
		{"managed policy", func(e *nohangEnv) string { return e.managed }, true, []plant{fifo, dangling, dir}},
		{"config.toml", func(e *nohangEnv) string { return filepath.Join(e.config, "config.toml") }, true, []plant{fifo, dangling, dir}},
		{"grants.toml", func(e *nohangEnv) string { return filepath.Join(e.config, "grants.toml") }, true, []plant{fifo, dangling, dir}},
		{"project grants", func(e *nohangEnv) string {
			return filepath.Join(e.config, "projects", grants.RootHash(e.proj), "grants.toml")
		}, true, []plant{fifo, dangling, dir}},
		{"project config", func(e *nohangEnv) string { return filepath.Join(e.proj, ".guard", "config.toml") }, true, []plant{fifo, dangling, dir}},
		{"trust pin", func(e *nohangEnv) string {
			os.MkdirAll(filepath.Join(e.proj, ".guard"), 0o700)
			os.WriteFile(filepath.Join(e.proj, ".guard", "config.toml"), []byte("unknown = \"ask\"\n"), 0o600)
			return filepath.Join(e.config, "projects", grants.RootHash(e.proj), "trust")
		}, true, []plant{fifo, dangling, dir}},
		{"state dir", func(e *nohangEnv) string { return e.state }, false, []plant{fifo, dangling, file}},
		{"audit.jsonl", func(e *nohangEnv) string { return filepath.Join(e.state, "audit.jsonl") }, false, []plant{fifo, dangling, dir}},
		{"audit.lock", func(e *nohangEnv) string { return filepath.Join(e.state, "audit.lock") }, false, []plant{fifo, dangling, dir}},
		{"audit-lost", func(e *nohangEnv) string { return filepath.Join(e.state, "audit-lost") }, false, []plant{fifo, dangling, dir}},
		{"pending dir", func(e *nohangEnv) string { return filepath.Join(e.state, "pending") }, false, []plant{fifo, dangling, file}},
		{"pending.lock", func(e *nohangEnv) string { return filepath.Join(e.state, "pending", "pending.lock") }, false, []plant{fifo, dangling, dir}},
	}
	for _, p := range paths {
		for _, pl := range p.plants {
			t.Run(p.name+"/"+pl.name, func(t *testing.T) {
				e := newNohangEnv(t)
				path := p.path(e)
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := pl.do(path); err != nil {
					t.Fatal(err)
				}
				for _, args := range [][]string{{"-c", "echo hi"}, {"exec", "--", "echo", "hi"}} {
					r := e.run(t, args...)
					lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
					if p.settings {
						if r.code != 126 || r.stdout != "" || len(lines) != 1 ||
							!strings.HasPrefix(lines[0], "guard: denied: config-error: ") ||
							!strings.Contains(lines[0], path) || !strings.Contains(lines[0], pl.want) {
							t.Errorf("guard %s: exit %d, stdout %q, stderr %q; want one refusal naming %s",
								args[0], r.code, r.stdout, r.stderr, path)
						}
						continue
					}
					if r.code != 0 || r.stdout != "hi\n" || len(lines) > 1 {
						t.Errorf("guard %s: exit %d, stdout %q, stderr %q; want it run with at most one warning",
							args[0], r.code, r.stdout, r.stderr)
					}
				}
				r := e.run(t, "check", "--", "echo hi")
				if p.settings && (!strings.Contains(r.stdout, "config-error") || !strings.Contains(r.stdout, path)) {
					t.Errorf("guard check: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
				}
				// The ask path stores a pending request (and takes its lock).
				r = e.run(t, "-c", "npm install left-pad")
				if r.code != 126 {
					t.Errorf("guard -c 'npm install left-pad': exit %d, stderr %q", r.code, r.stderr)
				}
				// And the management side lists without hanging, too.
				e.run(t, "pending")
				e.run(t, "audit")
			})
		}
	}
}

// holdLock starts a child that flocks path exclusively and sleeps, and waits
// until the lock is held. The child is killed when the test ends.
func holdLock(t *testing.T, path string) *exec.Cmd {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	holder := exec.Command("flock", "-x", path, "sleep", "60")
	holder.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // release: kill the group (sleep holds the lock too)
	if err := holder.Start(); err != nil {
		t.Skipf("no flock(1): %v", err)
	}
	t.Cleanup(func() { release(holder) })
	for i := 0; i < 500; i++ {
		if f, err := os.Open(path); err == nil {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			f.Close()
			if err == syscall.EWOULDBLOCK {
				return holder
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the helper never held the lock")
	return nil
}

// release kills the lock holder's group and waits for it.
func release(holder *exec.Cmd) {
	syscall.Kill(-holder.Process.Pid, syscall.SIGKILL)
	holder.Wait()
}

// TestHeldLocks: a lock held by another process costs guard the bound (2 s)
// at most; the audit record is still there after import; a SIGTERM to a
// guard that waits for a lock ends it at once.
func TestHeldLocks(t *testing.T) {
	t.Run("audit.lock", func(t *testing.T) {
		e := newNohangEnv(t)
		if r := e.run(t, "-c", "echo first"); r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		holder := holdLock(t, filepath.Join(e.state, "audit.lock"))
		r := e.run(t, "-c", "echo while-held")
		if r.code != 0 || r.stdout != "while-held\n" || r.stderr != "" {
			t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		start := time.Now()
		cmd, out, errb := e.start(t, "-c", "echo killed-while-waiting")
		time.Sleep(500 * time.Millisecond) // it ran, and now waits for the lock
		cmd.Process.Signal(syscall.SIGTERM)
		if r := wait(t, cmd, out, errb, start); r.code != 128+int(syscall.SIGTERM) || time.Since(start) > 1500*time.Millisecond {
			t.Errorf("after SIGTERM: exit %d after %s, stderr %q", r.code, time.Since(start), r.stderr)
		}
		release(holder)
		r = e.run(t, "audit")
		if !strings.Contains(r.stdout, "echo while-held") || !strings.Contains(r.stdout, "echo first") {
			t.Errorf("record lost: %q %q", r.stdout, r.stderr)
		}
		if !strings.Contains(r.stderr, "1 record was lost") {
			t.Errorf("the killed run's record is not counted as lost: %q", r.stderr)
		}
	})
	t.Run("pending.lock", func(t *testing.T) {
		e := newNohangEnv(t)
		holdLock(t, filepath.Join(e.state, "pending", "pending.lock"))
		r := e.run(t, "-c", "npm install left-pad")
		if r.code != 126 || !strings.Contains(r.stderr, "guard: needs approval: npm install left-pad") ||
			!strings.Contains(r.stderr, "held by another process") {
			t.Errorf("exit %d, stderr %q", r.code, r.stderr)
		}
		// Before the command runs signals keep their default action.
		start := time.Now()
		cmd, out, errb := e.start(t, "-c", "npm install left-pad")
		time.Sleep(500 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGTERM)
		if r := wait(t, cmd, out, errb, start); r.code != 128+int(syscall.SIGTERM) || time.Since(start) > 1500*time.Millisecond {
			t.Errorf("after SIGTERM: exit %d after %s, stderr %q", r.code, time.Since(start), r.stderr)
		}
	})
	t.Run("grants lock", func(t *testing.T) {
		e := newNohangEnv(t)
		holdLock(t, filepath.Join(e.config, "grants.toml.lock"))
		r := e.run(t, "grants", "add", "--global", "make *")
		if r.code == 0 || !strings.Contains(r.stderr, "held by another process") {
			t.Errorf("exit %d, stderr %q", r.code, r.stderr)
		}
	})
}

// TestAuditRequired: with the state directory unusable (a file where it
// should be: tests run as root, which ignores modes), audit_required = true
// keeps the command from running; false runs it with one warning. A lost
// record is reported by guard audit.
func TestAuditRequired(t *testing.T) {
	for _, required := range []bool{true, false} {
		e := newNohangEnv(t)
		if required {
			os.WriteFile(filepath.Join(e.config, "config.toml"), []byte("audit_required = true\n"), 0o600)
		}
		os.WriteFile(e.state, []byte("not a directory"), 0o600)
		r := e.run(t, "-c", "echo ran")
		switch {
		case required && (r.code != 125 || r.stdout != "" ||
			!strings.HasPrefix(r.stderr, "guard: error: audit_required is set and the audit record cannot be written") ||
			strings.Count(r.stderr, "\n") != 1):
			t.Errorf("required: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		case !required && (r.code != 0 || r.stdout != "ran\n" || strings.Count(r.stderr, "\n") != 1 ||
			!strings.HasPrefix(r.stderr, "guard: warning: audit not written: ")):
			t.Errorf("not required: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		// A journal that cannot be written, in a state directory that can:
		// the loss is counted and guard audit says so.
		os.Remove(e.state)
		os.MkdirAll(filepath.Join(e.state, "audit.jsonl"), 0o700)
		r = e.run(t, "-c", "echo ran")
		if (required && r.code != 125) || (!required && r.code != 0) {
			t.Errorf("journal a directory: exit %d, stderr %q", r.code, r.stderr)
		}
		os.Remove(filepath.Join(e.state, "audit.jsonl"))
		r = e.run(t, "audit")
		if !strings.Contains(r.stderr, "guard: warning: 1 record was lost, last at ") {
			t.Errorf("guard audit: stderr %q", r.stderr)
		}
	}
}
