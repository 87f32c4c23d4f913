package shim

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// shimTree builds dirs of links: shims/{bash,sh} and shims2/bash point at the
// test binary (which acts as guard), real/{bash,sh} at the real shells.
type shimTree struct {
	self, shims, shims2, real string
}

func newShimTree(t *testing.T) shimTree {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	st := shimTree{self: self, shims: filepath.Join(base, "shims"), shims2: filepath.Join(base, "shims2"), real: filepath.Join(base, "real")}
	for _, d := range []string{st.shims, st.shims2, st.real} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"bash", "sh"} {
		real, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("no %s: %v", name, err)
		}
		link(self, filepath.Join(st.shims, name))
		link(real, filepath.Join(st.real, name))
	}
	link(self, filepath.Join(st.shims2, "bash"))
	return st
}

// findWith runs the shell finder with PATH path and real_shell configured.
func findWith(st shimTree, path, configured, argv0 string) (string, error) {
	env := &Env{Self: st.self, Getenv: func(k string) string {
		if k == "PATH" {
			return path
		}
		return ""
	}}
	return newShellFinder(env).find(configured, argv0)
}

func TestShellFinder(t *testing.T) {
	st := newShimTree(t)
	find := func(path, argv0 string) (string, error) { return findWith(st, path, "", argv0) }
	for _, tc := range []struct{ name, configured, want, err string }{
		{"configured", st.real + "/sh", st.real + "/sh", ""},
		{"configured is guard", st.shims + "/bash", "", `loop: real_shell = "` + st.shims + `/bash" in the config is guard itself`},
		{"configured missing", "/nonexistent/bash", "", `real_shell = "/nonexistent/bash" in the config is not an executable file`},
	} {
		got, err := findWith(st, st.shims, tc.configured, st.shims+"/bash")
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) || tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("%s: got %q, %v; want %q, %q", tc.name, got, err, tc.want, tc.err)
		}
	}
	list := func(dirs ...string) string { return strings.Join(dirs, ":") }
	for _, tc := range []struct {
		name, path, argv0 string
		want, err         string
	}{
		{"link by path", list(st.shims, st.real), st.shims + "/bash", st.real + "/bash", ""},
		{"link by name", list(st.shims, st.real), "bash", st.real + "/bash", ""},
		{"sh link", list(st.shims, st.real), st.shims + "/sh", st.real + "/sh", ""},
		{"login argv0", list(st.shims, st.real), "-bash", st.real + "/bash", ""},
		{"guard -c skips itself", list(st.shims, st.real), "/opt/guard", st.real + "/bash", ""},
		{"relative entries ignored", list(".", "", st.real), "guard", st.real + "/bash", ""},
		{"loop: only guard after the shim dir", list(st.shims, st.shims2), st.shims + "/bash", "", "loop: no real bash on PATH after " + st.shims + " except guard itself"},
		{"loop: only guard anywhere", list(st.shims, st.shims2), "guard", "", "loop: no bash or sh found on PATH except guard itself"},
		{"nothing after", list(st.real, st.shims), st.shims + "/bash", "", "no real bash on PATH after " + st.shims + "; put the real shell's directory on PATH after guard's, or name it with real_shell in config.toml"},
	} {
		got, err := find(tc.path, tc.argv0)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %q, %v; want error %q", tc.name, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	for v, bad := range map[string]bool{"": false, "3": false, "39": false, "40": true, "x": true, "-1": true} {
		env := &Env{Getenv: func(string) string { return v }}
		if _, err := depth(env); (err != nil) != bad {
			t.Errorf("GUARD_DEPTH=%q: err %v", v, err)
		}
	}
}

// guardCmd runs the test binary as guard through path (a link), with verdict.
func guardCmd(t *testing.T, st shimTree, path, verdict string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(),
		"SHIM_TEST_AS_GUARD=1", "SHIM_TEST_VERDICT="+verdict, "SHIM_TEST_JOURNAL="+t.TempDir(),
		"SHIM_TEST_LISTENING="+filepath.Join(cmd.Dir, "listening"),
		"PATH="+strings.Join([]string{st.shims, st.real, "/usr/bin", "/bin"}, ":"))
	return cmd
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return waitStatus(ee.Sys().(syscall.WaitStatus))
	}
	t.Fatalf("run: %v", err)
	return -1
}

func TestDispatchAsBash(t *testing.T) {
	st := newShimTree(t)
	cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "allow", "-c", `echo "$BASH_VERSION" | grep -c . ; echo $0 $1; exit 3`, "zero", "one")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if code := exitCode(t, cmd.Run()); code != 3 || out.String() != "1\nzero one\n" || errb.Len() != 0 {
		t.Errorf("exit %d stdout %q stderr %q", code, out.String(), errb.String())
	}
}

func TestDispatchLoopDetected(t *testing.T) {
	st := newShimTree(t)
	cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "allow", "-c", "true")
	cmd.Env = append(cmd.Env, "PATH="+st.shims+":"+st.shims2)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	go func() { done <- cmd.Run() }()
	select {
	case err := <-done:
		if code := exitCode(t, err); code != ExitFailure || out.Len() != 0 || !strings.HasPrefix(errb.String(), "guard: error: loop: ") {
			t.Errorf("exit %d stdout %q stderr %q", code, out.String(), errb.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("guard recursed instead of stopping")
	}
}

func TestDispatchDepthMarker(t *testing.T) {
	st := newShimTree(t)
	// A "bash" after the shim directory that leads back to guard through
	// a script: only the depth marker can see that loop.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bash"), []byte("#!/bin/sh\nexec "+st.shims+"/bash \"$@\"\n"), 0o755)
	cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "allow", "-c", "true")
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, "PATH=") {
			cmd.Env[i] = "PATH=" + st.shims + ":" + dir + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if code := exitCode(t, cmd.Run()); code != ExitFailure || !strings.Contains(errb.String(), "guard: error: loop: guard is nested 40 deep") {
		t.Errorf("exit %d stderr %q", code, errb.String())
	}
}

func TestDispatchStdinScript(t *testing.T) {
	st := newShimTree(t)
	cmd := guardCmd(t, st, filepath.Join(st.shims, "sh"), "allow")
	cmd.Stdin = strings.NewReader("echo from stdin\nexit 6\n")
	var out bytes.Buffer
	cmd.Stdout = &out
	if code := exitCode(t, cmd.Run()); code != 6 || out.String() != "from stdin\n" {
		t.Errorf("exit %d stdout %q", code, out.String())
	}
}

// startGuard starts guard on a script that touches "ready" and waits for it.
func startGuard(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 500; i++ {
		// guard starts the command first and catches signals meanwhile
		// (runJob's Meanwhile): a signal sent before that ends guard
		// itself, so the test waits for both (under load the command
		// can be ready first). The test engine says when it listens.
		_, err := os.Stat(filepath.Join(cmd.Dir, "ready"))
		if _, lerr := os.Stat(filepath.Join(cmd.Dir, "listening")); err == nil && lerr == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Kill()
	t.Fatal("the command never got ready")
}

func TestGuardForwardsSIGTERM(t *testing.T) {
	st := newShimTree(t)
	cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "allow", "-c", `trap 'echo got TERM; exit 3' TERM; touch ready; sleep 10 & wait`)
	var out bytes.Buffer
	cmd.Stdout = &out
	startGuard(t, cmd)
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCode(t, cmd.Wait()); code != 3 || out.String() != "got TERM\n" {
		t.Errorf("exit %d stdout %q", code, out.String())
	}
}

func TestGuardKilledLeavesNoSurvivor(t *testing.T) {
	st := newShimTree(t)
	// Everything ignores SIGTERM: guard must SIGKILL the group after the grace.
	cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "allow", "-c",
		`trap "" TERM; sleep 30 & echo $! > pids; ( setsid sleep 31 & echo $! >> pids ); touch ready; wait`)
	startGuard(t, cmd)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if code := exitCode(t, err); code != 128+int(syscall.SIGKILL) {
			t.Errorf("exit %d", code)
		}
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatal("guard did not end after SIGTERM")
	}
	for _, pid := range readPids(t, filepath.Join(cmd.Dir, "pids")) {
		if alive(pid) {
			t.Errorf("pid %d survived guard's termination", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func TestRunRestoresTerminalAfterKill(t *testing.T) {
	st := newShimTree(t)
	// guard runs on a pty that is its controlling terminal, so it hands the
	// foreground over; the command leaves the terminal raw and dies.
	cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "allow", "-c", "stty raw -echo; kill -KILL $$")
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	before, err := unix.IoctlGetTermios(int(ptmx.Fd()), unix.TCGETS)
	if err != nil {
		t.Skipf("termios on the pty master: %v", err)
	}
	go func() {
		var b [4096]byte
		for {
			if _, err := ptmx.Read(b[:]); err != nil {
				return
			}
		}
	}()
	if code := exitCode(t, cmd.Wait()); code != 137 {
		t.Fatalf("exit %d", code)
	}
	after, err := unix.IoctlGetTermios(int(ptmx.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if before.Lflag != after.Lflag || before.Iflag != after.Iflag || before.Oflag != after.Oflag {
		t.Errorf("terminal left changed: before %+v after %+v", before, after)
	}
}

func TestRunGivesTheTerminalToTheCommand(t *testing.T) {
	st := newShimTree(t)
	// The command reads the terminal: it can only if its group is in the
	// foreground (else SIGTTIN stops it). Afterwards guard is foreground
	// again, or it could not have written its exit in time.
	cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "allow", "-c", `read x; echo "got=$x"; exit 4`)
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	var mu sync.Mutex
	var out bytes.Buffer
	go func() {
		var b [4096]byte
		for {
			n, err := ptmx.Read(b[:])
			mu.Lock()
			out.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	ptmx.Write([]byte("typed\n"))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if code := exitCode(t, err); code != 4 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the command could not read the terminal")
	}
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(out.String(), "got=typed") {
		t.Errorf("terminal showed %q", out.String())
	}
}
