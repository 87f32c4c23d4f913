//go:build linux

package shim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/guard-dev/guard/grants"
)

// A user who is not root cannot unshare a mount namespace from a Go
// process (a user namespace needs a single-threaded caller), and Landlock
// alone cannot make a path read-only inside a writable tree nor hide home
// inside one. So guard starts the command's first stage as guard itself
// (ConfineStage), cloned into a new user and mount namespace where the
// user is mapped to itself: that stage draws the same mounts, no_new_privs,
// seccomp and Landlock as the root path, then execs the command. It costs
// one more exec of the lean binary.

// stageArg is the first word of guard's confining stage.
const stageArg = "__confine"

// stagePlan is what the stage is told, on a pipe.
type stagePlan struct {
	Network string
	Home    string
	Write   []string
	Keep    []stageKept
	Protect []string
	Hide    []string
	// Env, when set, is the command's environment (with the proxy's
	// variables); else the stage's own.
	Env []string
	// Port is guard's proxy on the host's loopback (network = "hosts").
	Port int
}

type stageKept struct {
	Path     string
	Writable bool
}

// usernsStart starts path through guard's stage in a new user and mount
// namespace. It reports ok false (and no error) where the kernel refuses
// an unprivileged user namespace, for the caller to fall back to Landlock
// alone.
func (c *confinement) usernsStart(lim *unix.Rlimit, path string, argv []string, pa *syscall.ProcAttr) (pid int, ok bool, err error) {
	if c.self == "" || c.home == "" {
		return 0, false, nil
	}
	plan := stagePlan{Network: c.spec.Network, Home: c.home, Write: c.write, Protect: c.protect, Hide: c.hide}
	for _, k := range c.keep {
		plan.Keep = append(plan.Keep, stageKept{k.path, k.writable})
	}
	// A network namespace for network = "none". Under "hosts" the proxy's
	// socket would have to be made inside the stage's namespace, and
	// entering a namespace another user namespace owns takes CAP_SYS_ADMIN
	// in guard's own: so the proxy listens on the host's loopback, and
	// Landlock holds TCP connects to its port (UDP is not held).
	netns := c.spec.Network == grants.NetNone
	if c.proxy != nil {
		if err := c.proxy.listen(); err != nil {
			return 0, true, fmt.Errorf("confine: proxy: %w", err)
		}
		plan.Port = c.proxy.port
		plan.Env = c.proxy.env(pa.Env)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return 0, true, err
	}
	defer r.Close()
	files := append(append([]uintptr(nil), pa.Files...), r.Fd())
	sys := *pa.Sys
	sys.Cloneflags |= unix.CLONE_NEWUSER | unix.CLONE_NEWNS
	if netns {
		sys.Cloneflags |= unix.CLONE_NEWNET
	}
	sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	sys.GidMappingsEnableSetgroups = false
	// the user stays who they are in the namespace, so the stage keeps
	// CAP_SYS_ADMIN (and CAP_NET_ADMIN, for its loopback) there across its
	// exec only as ambient capabilities, dropped before it execs the command
	sys.AmbientCaps = append(append([]uintptr(nil), sys.AmbientCaps...), unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN)
	stage := append([]string{"guard", stageArg, strconv.Itoa(len(files) - 1), path}, argv...)
	pid, err = forkExec(lim, c.self, stage, &syscall.ProcAttr{Dir: pa.Dir, Env: pa.Env, Files: files, Sys: &sys})
	if errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EINVAL) {
		w.Close()
		return 0, false, nil // no unprivileged user namespaces here
	}
	if err != nil {
		w.Close()
		return 0, true, err
	}
	b, err := json.Marshal(plan)
	if err == nil {
		_, err = w.Write(b)
	}
	w.Close()
	if err != nil {
		killReap(pid)
		return 0, true, fmt.Errorf("confine: plan: %w", err)
	}
	c.applied = "userns+mounts+landlock"
	if netns {
		c.applied += "+netns"
	}
	c.mounted = true
	return pid, true, nil
}

// IsConfineStage reports guard's confining stage (args[1] is stageArg).
func IsConfineStage(args []string) bool { return len(args) > 3 && args[1] == stageArg }

// ConfineStage is guard's first stage in a new user and mount namespace:
// it reads the plan from the descriptor args[2], draws the boundary and
// execs args[3] with args[4:]. It never returns on success; anything it
// cannot do ends it with ExitFailure and one line.
func ConfineStage(args []string, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "guard: error: confine: "+format+"\n", a...)
		return ExitFailure
	}
	// Only a process guard made is a stage: a fresh user namespace that
	// maps one id, not the host's.
	if m, err := os.ReadFile("/proc/self/uid_map"); err != nil || strings.Count(strings.TrimSpace(string(m)), "\n") != 0 ||
		strings.Contains(string(m), "4294967295") {
		return fail("%s is guard's own stage; it is not run by hand", stageArg)
	}
	fd, err := strconv.Atoi(args[2])
	if err != nil || fd < 3 {
		return fail("bad plan descriptor")
	}
	f := os.NewFile(uintptr(fd), "plan")
	b, err := io.ReadAll(io.LimitReader(f, 4<<20))
	f.Close()
	if err != nil {
		return fail("read the plan: %v", err)
	}
	var plan stagePlan
	if err := json.Unmarshal(b, &plan); err != nil {
		return fail("read the plan: %v", err)
	}
	c := &confinement{spec: grants.Confine{Mode: grants.ConfineAuto, Network: plan.Network}, home: plan.Home,
		write: plan.Write, protect: plan.Protect, hide: plan.Hide, mounted: true}
	for _, k := range plan.Keep {
		c.keep = append(c.keep, kept{k.Path, k.Writable})
	}
	abi := landlockABI()
	if abi < 1 {
		return fail("this kernel has no Landlock")
	}
	if err := c.mounts(); err != nil {
		return fail("%v", err)
	}
	if plan.Port > 0 {
		c.proxy = &proxyLink{port: plan.Port}
	}
	netns := plan.Network == grants.NetNone
	if netns {
		if err := loopbackUp(); err != nil {
			return fail("network namespace: %v", err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fail("drop the ambient capability: %v", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fail("no_new_privs: %v", err)
	}
	if err := installSeccomp(); err != nil {
		return fail("seccomp: %v", err)
	}
	if err := c.landlock(abi, netns); err != nil {
		return fail("landlock: %v", err)
	}
	env := os.Environ()
	if plan.Env != nil {
		env = plan.Env
	}
	err = syscall.Exec(args[3], args[4:], env)
	if errors.Is(err, unix.ENOENT) {
		fmt.Fprintf(stderr, "guard: error: %s: not found\n", args[3])
		return ExitNoProg
	}
	return fail("exec %s: %v", args[3], err)
}
