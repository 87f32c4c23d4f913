//go:build linux

package shim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/guard-dev/guard/grants"
)

// Landlock access rights, by what they allow.
const (
	llRead = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	// llFile are the rights a rule on a file (not a directory) may hold.
	llFile = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	llDevice = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
)

// landlockFS is every filesystem right the kernel's Landlock ABI handles.
func landlockFS(abi int) uint64 {
	if abi < 1 {
		return 0
	}
	fs := uint64(unix.LANDLOCK_ACCESS_FS_MAKE_SYM<<1 - 1) // ABI 1: execute … make_sym
	if abi >= 2 {
		fs |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		fs |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		fs |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return fs
}

// The Landlock system calls, on the calling thread only. (go-landlock's
// syscall package wraps the same three calls, but imports libcap's psx,
// which with cgo wraps pthread_create for its all-threads path; guard
// restricts one locked thread and forks from it, so it calls them itself.)

// rulesetAttr is struct landlock_ruleset_attr up to ABI 6 (scoped).
type rulesetAttr struct {
	fs, net, scoped uint64
}

// netPortAttr is struct landlock_net_port_attr.
type netPortAttr struct {
	access, port uint64
}

// landlockABI is the kernel's Landlock ABI version, 0 without Landlock.
func landlockABI() int {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0
	}
	return int(v)
}

func landlockCreate(a *rulesetAttr, abi int) (int, error) {
	size := unsafe.Sizeof(*a)
	if abi < 6 {
		size = 16 // no scoped field before ABI 6
	}
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(a)), size, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

func landlockAddPath(rs, fd int, access uint64) error {
	attr := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(fd)}
	_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(rs), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

func landlockAddPort(rs int, access, port uint64) error {
	attr := netPortAttr{access, port}
	_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(rs), 2 /* LANDLOCK_RULE_NET_PORT */, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

func landlockRestrict(rs int) error {
	_, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(rs), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// devices are the device files a shell needs, readable and writable.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"}

// start forks and execs path confined: on an OS thread of its own, guard
// enters the namespaces, draws the mounts, sets no_new_privs, the seccomp
// filter and the Landlock domain, then forks; the child inherits all of it
// before its first instruction. The thread is never given back to the Go
// runtime: it dies with its goroutine, which lives until release is called
// (the child's parent-death signal is tied to the thread that forked it).
func (c *confinement) start(lim *unix.Rlimit, path string, argv []string, pa *syscall.ProcAttr) (pid int, release func(), err error) {
	type started struct {
		pid int
		err error
	}
	if os.Geteuid() != 0 && landlockABI() >= 1 {
		// not root: guard's stage draws the mounts in a user namespace
		if pid, ok, err := c.usernsStart(lim, path, argv, pa); ok {
			if err != nil {
				return 0, nil, err
			}
			if c.proxy != nil {
				if err := c.proxy.watch(); err != nil {
					killReap(pid)
					return 0, nil, fmt.Errorf("confine: %w", err)
				}
			}
			return pid, func() {
				if c.proxy != nil {
					c.proxy.close()
				}
			}, nil
		}
	}
	done := make(chan started, 1)
	hold := make(chan struct{})
	var confined func(locked chan<- struct{})
	confined = func(locked chan<- struct{}) {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if unix.Gettid() == unix.Getpid() {
			// The process's main thread: its id is guard's pid, what a
			// confined command would ptrace or open under /proc as
			// "guard", so it must stay outside the boundary. Hold it
			// until another thread has locked itself to the work.
			onOther := make(chan struct{})
			go confined(onOther)
			<-onOther
			runtime.UnlockOSThread()
			return
		}
		if locked != nil {
			close(locked)
		}
		if err := c.enter(); err != nil {
			done <- started{err: err}
			return
		}
		if c.proxy != nil {
			pa.Env = c.proxy.env(pa.Env)
		}
		if c.before != nil {
			<-c.before
		}
		pid, err := forkExec(lim, path, argv, pa)
		done <- started{pid, err}
		if err == nil {
			<-hold
		}
	}
	go confined(nil)
	r := <-done
	if r.err != nil {
		return 0, nil, r.err
	}
	if c.proxy != nil {
		// from an unconfined thread, at the first connection: the proxy
		// reaches the hosts
		if err := c.proxy.watch(); err != nil {
			killReap(r.pid)
			close(hold)
			return 0, nil, fmt.Errorf("confine: %w", err)
		}
	}
	return r.pid, func() {
		close(hold)
		if c.proxy != nil {
			c.proxy.close()
		}
	}, nil
}

// withoutVars is env without the variables named by the prefixes (NAME=).
func withoutVars(env, prefixes []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		drop := false
		for _, p := range prefixes {
			if strings.HasPrefix(kv, p) {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// errUnconfined says the kernel offers none of the confinement: with
// required = false the command runs as it would without it.
var errUnconfined = errors.New("the kernel cannot confine commands")

// enter confines the calling thread (locked to its goroutine). It fails
// only where running on would break a promise: a mount that could not be
// drawn, a seccomp filter refused. A kernel without Landlock is
// errUnconfined.
func (c *confinement) enter() error {
	abi := landlockABI()
	if abi < 1 {
		return errUnconfined
	}
	var parts []string
	netns := false
	if os.Geteuid() == 0 {
		flags := unix.CLONE_NEWNS
		if c.spec.Network != grants.NetOpen {
			flags |= unix.CLONE_NEWNET
		}
		if err := unix.Unshare(flags); err == nil {
			err := c.mounts()
			switch {
			case errors.Is(err, unix.EPERM):
				// inside a guard's boundary already (a nested guard):
				// Landlock forbids mounts, and the outer view holds
			case err != nil:
				return fmt.Errorf("confine: %w", err)
			default:
				c.mounted = true
				parts = append(parts, "mounts")
			}
			netns = flags&unix.CLONE_NEWNET != 0
			if netns {
				if err := loopbackUp(); err != nil {
					return fmt.Errorf("confine: network namespace: %w", err)
				}
			}
		}
	}
	if c.proxy != nil {
		if err := c.proxy.listen(); err != nil {
			return fmt.Errorf("confine: proxy: %w", err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("confine: no_new_privs: %w", err)
	}
	if err := installSeccomp(); err != nil {
		return fmt.Errorf("confine: seccomp: %w", err)
	}
	if err := c.landlock(abi, netns); err != nil {
		return fmt.Errorf("confine: landlock: %w", err)
	}
	parts = append(parts, "landlock")
	if netns {
		parts = append(parts, "netns")
	}
	c.applied = strings.Join(parts, "+")
	return nil
}

// landlock builds and enforces the ruleset on the calling thread.
func (c *confinement) landlock(abi int, netns bool) error {
	attr := rulesetAttr{fs: landlockFS(abi)}
	tcp := c.spec.Network != grants.NetOpen && !netns && abi >= 4
	if tcp {
		// no network namespace: TCP connects are limited to guard's proxy
		// (network = "hosts") or refused (network = "none")
		attr.net = unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	}
	if abi >= 6 {
		// no signals to processes outside the boundary (guard, the agent),
		// no abstract sockets outside it
		attr.scoped = unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
	}
	rs, err := landlockCreate(&attr, abi)
	if err != nil {
		return err
	}
	defer unix.Close(rs)
	all := attr.fs
	rule := func(p string, access uint64) error {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil // nothing there: nothing to allow
		}
		defer unix.Close(fd)
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return err
		}
		access &= all
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			access &= llFile
		}
		if err := landlockAddPath(rs, fd, access); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return nil
	}
	// Readable: every top-level tree but /dev (raw disks), and below home
	// only what the mount namespace kept when there is one, else only the
	// kept entries (rules are inherited down a tree, so home's ancestors
	// are enumerated entry by entry).
	if err := c.readRules(rule, c.mounted); err != nil {
		return err
	}
	for _, d := range devices {
		if err := rule(d, llDevice|unix.LANDLOCK_ACCESS_FS_READ_DIR); err != nil {
			return err
		}
	}
	for _, w := range c.write {
		if err := rule(w, all); err != nil {
			return err
		}
	}
	if tcp && c.proxy != nil {
		if err := landlockAddPort(rs, unix.LANDLOCK_ACCESS_NET_CONNECT_TCP, uint64(c.proxy.port)); err != nil {
			return err
		}
	}
	return landlockRestrict(rs)
}

// readRules adds the read rules: "/" entry by entry, skipping /dev and
// descending along the path to home so that home itself gets no rule;
// inside home, the kept entries.
func (c *confinement) readRules(rule func(string, uint64) error, mounted bool) error {
	home := c.home
	if mounted {
		home = "" // the mount namespace's view of home hides what is not kept
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		f, err := os.Open(dir)
		if err != nil {
			return nil
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		for _, n := range names {
			p := filepath.Join(dir, n)
			switch {
			case p == "/dev":
				continue
			case home != "" && p == home:
				continue
			case home != "" && strings.HasPrefix(home, p+"/"):
				if err := walk(p); err != nil {
					return err
				}
				continue
			}
			if err := rule(p, llRead); err != nil {
				return err
			}
		}
		return nil
	}
	// listing directories (names, not contents) is allowed everywhere:
	// ls / must work, and READ_DIR is inherited down every tree
	if err := rule("/", unix.LANDLOCK_ACCESS_FS_READ_DIR); err != nil {
		return err
	}
	if err := walk("/"); err != nil {
		return err
	}
	if mounted {
		return nil
	}
	for _, k := range c.keep {
		if err := rule(k.path, llRead); err != nil {
			return err
		}
	}
	return nil
}

// mounts draws the mount namespace (already unshared): nothing propagates
// back; home becomes a read-only view of its kept entries; protected paths
// inside writable trees become read-only; hidden paths are covered.
func (c *confinement) mounts() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if c.home != "" {
		if err := c.homeView(); err != nil {
			return fmt.Errorf("home %s: %w", c.home, err)
		}
	}
	for _, p := range c.protect {
		if c.home != "" && under(p, c.home) && !c.keptWritable(p) {
			continue // read-only already: home's view
		}
		if err := readOnly(p); err != nil && !missing(err) {
			return fmt.Errorf("read-only %s: %w", p, err)
		}
	}
	var empty emptyDir
	defer empty.close()
	for _, p := range c.hide {
		if err := empty.cover(p); err != nil && !missing(err) {
			return fmt.Errorf("hide %s: %w", p, err)
		}
	}
	return nil
}

// killReap ends a command guard started but cannot hand over (its
// boundary was not completed) and reaps it.
func killReap(pid int) {
	unix.Kill(pid, unix.SIGKILL)
	var ws unix.WaitStatus
	unix.Wait4(pid, &ws, 0, nil)
}

// missing reports a path that is not there (or whose parent is a file):
// nothing to bind or cover.
func missing(err error) bool { return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) }

// homeView replaces home with an empty read-only tmpfs holding binds of
// the kept entries (the writable ones writable).
func (c *confinement) homeView() error {
	var st unix.Stat_t
	if err := unix.Stat(c.home, &st); err != nil {
		return err
	}
	keep := append([]kept(nil), c.keep...)
	sort.SliceStable(keep, func(i, j int) bool { return len(keep[i].path) < len(keep[j].path) })
	// open what is kept before the tmpfs hides it
	type src struct {
		kept
		fd  int
		dir bool
	}
	var srcs []src
	defer func() {
		for _, s := range srcs {
			unix.Close(s.fd)
		}
	}()
	seen := map[string]bool{}
	var bound []kept
	for _, k := range keep {
		if seen[k.path] || !under(k.path, c.home) || k.path == c.home {
			continue
		}
		seen[k.path] = true
		// inside an entry bound already with the same rights: nothing to
		// add (~/.cache/go-build in ~/.cache); the nearest such entry
		// decides, as it is the one the path resolves through
		covered := false
		for i := len(bound) - 1; i >= 0; i-- {
			if under(k.path, bound[i].path) {
				covered = bound[i].writable == k.writable
				break
			}
		}
		if covered {
			continue
		}
		fd, err := unix.Open(k.path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		var kst unix.Stat_t
		if err := unix.Fstat(fd, &kst); err != nil {
			unix.Close(fd)
			continue
		}
		srcs = append(srcs, src{k, fd, kst.Mode&unix.S_IFMT == unix.S_IFDIR})
		bound = append(bound, k)
	}
	opts := fmt.Sprintf("mode=%o,uid=%d,gid=%d,size=1m", st.Mode&0o7777, st.Uid, st.Gid)
	if err := unix.Mount("tmpfs", c.home, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mount tmpfs: %w", err)
	}
	for _, s := range srcs {
		if err := mountPoint(c.home, s.path, s.dir, int(st.Uid), int(st.Gid)); err != nil {
			return err
		}
		from := "/proc/self/fd/" + strconv.Itoa(s.fd)
		if err := unix.Mount(from, s.path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", s.path, err)
		}
		flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND)
		if !s.writable {
			flags |= unix.MS_RDONLY
		}
		if err := remount(s.path, flags); err != nil {
			return fmt.Errorf("remount %s: %w", s.path, err)
		}
	}
	return remount(c.home, unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV)
}

// mountPoint makes p (below home, on the tmpfs) exist as a directory or an
// empty file, with its parents.
func mountPoint(home, p string, dir bool, uid, gid int) error {
	rel := strings.TrimPrefix(p, home+"/")
	parts := strings.Split(rel, "/")
	cur := home
	for i, part := range parts {
		cur = cur + "/" + part
		last := i == len(parts)-1
		var st unix.Stat_t
		if unix.Lstat(cur, &st) == nil {
			continue // there already (a parent kept earlier)
		}
		var err error
		if last && !dir {
			var fd int
			fd, err = unix.Open(cur, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
			if err == nil {
				unix.Close(fd)
			}
		} else {
			err = unix.Mkdir(cur, 0o755)
		}
		if err != nil {
			return fmt.Errorf("mount point %s: %w", cur, err)
		}
		_ = unix.Lchown(cur, uid, gid)
	}
	return nil
}

// readOnly binds p onto itself read-only.
func readOnly(p string) error {
	if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	return remount(p, unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY)
}

// remount changes a bind mount's flags, keeping the ones the mount had
// that may not be dropped (nosuid, nodev, noexec).
func remount(p string, flags uintptr) error {
	var sfs unix.Statfs_t
	if err := unix.Statfs(p, &sfs); err == nil {
		for _, f := range []struct{ st, ms int64 }{{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV},
			{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_RELATIME, unix.MS_RELATIME}} {
			if sfs.Flags&f.st != 0 {
				flags |= uintptr(f.ms)
			}
		}
	}
	return unix.Mount("", p, "", flags, "")
}

// emptyDir is the empty read-only tmpfs that covers hidden directories:
// mounted over the first one, bound over the rest (a bind costs a fraction
// of a new tmpfs, and a command runs with up to a dozen hidden directories).
// fd holds its root, so a later cover over a parent cannot lose it.
type emptyDir struct {
	fd   int
	open bool
}

func (e *emptyDir) close() {
	if e.open {
		unix.Close(e.fd)
	}
}

// cover hides p: the empty read-only tmpfs over a directory, /dev/null
// over anything else (a socket then refuses every connection).
func (e *emptyDir) cover(p string) error {
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		// /dev/null reads empty and takes writes to nowhere (and Landlock
		// refuses writes outside the writable trees anyway)
		return unix.Mount("/dev/null", p, "", unix.MS_BIND, "")
	}
	if e.open {
		// a bind of a read-only superblock is read-only; nosuid, nodev
		// and noexec come with the mount it copies
		return unix.Mount("/proc/self/fd/"+strconv.Itoa(e.fd), p, "", unix.MS_BIND, "")
	}
	if err := unix.Mount("tmpfs", p, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=000"); err != nil {
		return err
	}
	if fd, err := unix.Open(p, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err == nil {
		e.fd, e.open = fd, true
	}
	return nil
}

// loopbackUp brings up lo in the new network namespace: a command there
// reaches its own loopback (and, under "hosts", guard's proxy), nothing else.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// installSeccomp refuses, in the thread and every process forked from it,
// the ioctls that type into a terminal or a console (TIOCSTI, TIOCLINUX)
// and every system call of a foreign ABI (x32, i386), where the numbers
// differ and the filter could be gone around.
func installSeccomp() error {
	if seccompArch == 0 {
		return nil // no filter for this architecture
	}
	const (
		retAllow = 0x7fff0000                      // SECCOMP_RET_ALLOW
		retErrno = 0x00050000 | uint32(unix.EPERM) // SECCOMP_RET_ERRNO|EPERM
		ld       = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq      = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge      = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret      = unix.BPF_RET | unix.BPF_K
	)
	prog := []unix.SockFilter{
		{Code: ld, K: 4}, // 0: arch
		{Code: jeq, Jt: 1, Jf: 0, K: seccompArch},            // 1
		{Code: ret, K: retErrno},                             // 2: a foreign ABI
		{Code: ld, K: 0},                                     // 3: nr
		{Code: jge, Jt: 6, Jf: 0, K: 0x40000000},             // 4: x32 numbers → 11
		{Code: jeq, Jt: 1, Jf: 0, K: uint32(unix.SYS_IOCTL)}, // 5
		{Code: ret, K: retAllow},                             // 6
		{Code: ld, K: 24},                                    // 7: args[1], low half
		{Code: jeq, Jt: 2, Jf: 0, K: unix.TIOCSTI},           // 8 → 11
		{Code: jeq, Jt: 1, Jf: 0, K: unix.TIOCLINUX},         // 9 → 11
		{Code: ret, K: retAllow},                             // 10
		{Code: ret, K: retErrno},                             // 11
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, e := unix.RawSyscall(unix.SYS_PRCTL, unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return e
	}
	return nil
}
