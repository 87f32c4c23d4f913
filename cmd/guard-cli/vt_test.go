package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The hole of issue 19: as root, an agent opens a free virtual console,
// makes it the controlling terminal of a guard it starts, and types the
// answer into it with TIOCSTI. These tests play that agent against every
// route that grants or approves, with harmless payloads (touch in the
// project, a grant in the temp HOME): none may let it through.

// freeVT names a virtual console the test may open, as the root agent
// would. It skips where there is none or the test is not root.
func freeVT(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: only root opens a free virtual console")
	}
	for n := 63; n >= 32; n-- {
		path := fmt.Sprintf("/dev/tty%d", n)
		if f, err := openVT(path); err == nil {
			f.Close()
			return path
		}
	}
	t.Skip("no virtual console to open")
	return ""
}

// openVT opens the console with no keys waiting in its input (an earlier
// run's). A session leader's exit hangs the console up for every
// descriptor open on it, so each run opens it again.
func openVT(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	unix.IoctlSetInt(int(f.Fd()), unix.TCFLSH, unix.TCIFLUSH)
	return f, nil
}

// typeInto pushes keys into the terminal's input as if typed (TIOCSTI,
// which root may do on any terminal it holds), until stop is closed.
func typeInto(vt *os.File, keys string, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(50 * time.Millisecond):
		}
		for i := 0; i < len(keys); i++ {
			b := keys[i]
			unix.Syscall(unix.SYS_IOCTL, vt.Fd(), unix.TIOCSTI, uintptr(unsafe.Pointer(&b)))
		}
	}
}

// runOnVT runs guard ARGS with the console as its controlling terminal and
// stdin (stdout and stderr are the test's), while the test types keys
// into it.
func (g *guardEnv) runOnVT(t *testing.T, dev, keys string, args ...string) (stderr string, code int) {
	t.Helper()
	vt, err := openVT(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		unix.IoctlSetInt(int(vt.Fd()), unix.TCFLSH, unix.TCIFLUSH) // no keys left for the next run
		vt.Close()
	}()
	cmd := exec.Command(g.bin, args...)
	for _, kv := range g.env {
		if kv != "GUARD_NO_PROMPT=1" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Dir = g.proj
	var o, e bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = vt, &o, &e
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	stop := make(chan struct{})
	if keys != "" {
		go typeInto(vt, keys, stop)
	}
	err = cmd.Run()
	close(stop)
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return e.String(), code
}

func (g *guardEnv) writeConfig(t *testing.T, text string) {
	t.Helper()
	cfg := filepath.Join(filepath.Dir(g.proj), "home", ".config", "guard", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestVTRootAgentRefused(t *testing.T) {
	dev := freeVT(t)
	g := newGuardEnv(t)
	made := filepath.Join(g.proj, "made-v")

	// guard -c on a console nobody listed: never asked there, whatever is typed
	g.writeConfig(t, "ask_timeout = \"5s\"\n")
	stderr, code := g.runOnVT(t, dev, "o\r", "-c", "touch made-v")
	if code != exitRefused || !strings.Contains(stderr, dev+" is a console, not a pseudo-terminal: it counts as a human's only when listed in trusted_terminals") ||
		!strings.Contains(stderr, "; or list "+dev+" in trusted_terminals in ") {
		t.Errorf("-c on an unlisted console: status %d, stderr %q", code, stderr)
	}
	// listed, but the agent holds it (as root: it can type into it)
	g.writeConfig(t, "ask_timeout = \"5s\"\ntrusted_terminals = ['"+dev+"']\n")
	stderr, code = g.runOnVT(t, dev, "o\r", "-c", "touch made-v")
	if code != exitRefused || !strings.Contains(stderr, "holds this terminal with cap_sys_admin (as root), which lets it type into it (tiocsti)") {
		t.Errorf("-c on a listed console the agent holds: status %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(made); err == nil {
		t.Fatal("the command ran")
	}

	// guard approve and guard watch there: refused, the request stays
	id := g.pendingID(t, "touch made-v")
	for _, listed := range []bool{false, true} {
		cfg := ""
		if listed {
			cfg = "trusted_terminals = ['" + dev + "']\n"
		}
		g.writeConfig(t, cfg)
		stderr, code = g.runOnVT(t, dev, "y\r", "approve", id, "--global")
		if code != exitRefused || !strings.Contains(stderr, "guard: denied: approve needs a human's terminal, and this one is not (") {
			t.Errorf("approve (listed %v): status %d, stderr %q", listed, code, stderr)
		}
		stderr, code = g.runOnVT(t, dev, "o\r", "watch")
		if code != exitRefused || !strings.Contains(stderr, "guard: denied: watch needs a human's terminal, and this one is not (") {
			t.Errorf("watch (listed %v): status %d, stderr %q", listed, code, stderr)
		}
		// guard grants add typed there (into the human's shell, say)
		stderr, code = g.runOnVT(t, dev, "", "grants", "add", "--global", "touch *")
		if code != exitRefused || !strings.Contains(stderr, "guard: denied: grants add refused on this terminal (") {
			t.Errorf("grants add (listed %v): status %d, stderr %q", listed, code, stderr)
		}
		if !listed && !strings.Contains(stderr, "; or list "+dev+" in trusted_terminals in ") {
			t.Errorf("grants add on an unlisted console: no hint: %q", stderr)
		}
	}
	if out, _, _ := g.run(t, "pending"); !strings.Contains(out, id) {
		t.Errorf("request %s no longer pending:\n%s", id, out)
	}
	if out, _, _ := g.run(t, "grants", "list"); strings.Contains(out, "touch") {
		t.Errorf("a grant was stored:\n%s", out)
	}
	if _, _, code := g.run(t, "-c", "touch made-v"); code != exitRefused {
		t.Errorf("touch made-v ran (exit %d)", code)
	}
	if _, err := os.Stat(made); err == nil {
		t.Fatal("the command ran")
	}
}

// The control: on a listed console that no other process holds, guard
// grants add (which asks nothing) goes through. A shell opens the console
// for it, so the test holds no descriptor on it.
func TestVTListedUnheldGrants(t *testing.T) {
	dev := freeVT(t)
	g := newGuardEnv(t)
	g.writeConfig(t, "trusted_terminals = ['"+dev+"']\n")
	cmd := exec.Command("sh", "-c", `exec setsid -c "$0" grants add --global 'touch made-*' <>"$1"`, g.bin, dev)
	for _, kv := range g.env {
		if kv != "GUARD_NO_PROMPT=1" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Dir = g.proj
	var e bytes.Buffer
	cmd.Stderr = &e
	if err := cmd.Run(); err != nil {
		t.Errorf("grants add on a listed console nobody else holds: %v: %s", err, e.String())
	}
	if out, _, _ := g.run(t, "grants", "list"); !strings.Contains(out, "touch made-*") {
		t.Errorf("no grant stored:\n%s", out)
	}
}
