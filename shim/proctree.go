package shim

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Bounds on what judging a terminal reads from /proc: it runs only when
// guard must ask, but it must never take long or read without end.
const (
	maxProcScan   = 8192    // processes looked at for the master side
	maxFdScan     = 200_000 // descriptors looked at, over all processes
	maxAncestors  = 64      // parent links followed
	maxProcFile   = 1 << 20 // bytes read from one /proc file
	procStatLimit = 4096    // a stat line is far shorter
)

// procInfo is what guard needs from /proc/PID/stat.
type procInfo struct {
	pid, ppid, pgrp, session int
	ttyNr                    int // the controlling terminal's device number, 0 for none
	comm                     string
}

// parseStat reads a /proc/PID/stat line. comm is between the first "(" and
// the last ")": a program may name itself with spaces and parentheses.
func parseStat(b []byte) (procInfo, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return procInfo{}, errors.New("malformed stat line")
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return procInfo{}, errors.New("malformed stat line: pid")
	}
	// after comm: state ppid pgrp session tty_nr …
	f := strings.Fields(string(b[end+1:]))
	if len(f) < 5 {
		return procInfo{}, errors.New("malformed stat line: too few fields")
	}
	var n [4]int
	for i := range n {
		if n[i], err = strconv.Atoi(f[i+1]); err != nil {
			return procInfo{}, fmt.Errorf("malformed stat line: field %d", i+4)
		}
	}
	return procInfo{pid: pid, ppid: n[0], pgrp: n[1], session: n[2], ttyNr: n[3], comm: string(b[open+1 : end])}, nil
}

// readProcFile reads a small /proc file without following it into anything
// that could block: /proc files are never FIFOs, and O_NONBLOCK keeps it so.
func readProcFile(path string, limit int) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, 4096)
	for len(buf) < limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):min(cap(buf), limit)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
	return nil, fmt.Errorf("%s: longer than %d bytes", path, limit)
}

func readStat(pid int) (procInfo, error) {
	b, err := readProcFile("/proc/"+strconv.Itoa(pid)+"/stat", procStatLimit)
	if err != nil {
		return procInfo{}, err
	}
	return parseStat(b)
}

// ancestors returns pid's stat and those of its parents, nearest first, up
// to pid 1 or the edge of what this PID namespace shows.
func ancestors(pid int) ([]procInfo, error) {
	var out []procInfo
	for len(out) < maxAncestors {
		st, err := readStat(pid)
		if err != nil {
			return out, fmt.Errorf("process %d: %w", pid, err)
		}
		out = append(out, st)
		if st.ppid <= 0 || st.pid == 1 {
			return out, nil
		}
		pid = st.ppid
	}
	return out, errors.New("process tree deeper than guard follows")
}

// parseTTYIndex reads tty-index from a /proc/PID/fdinfo/FD of a pty master.
func parseTTYIndex(b []byte) (int, bool) {
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(k) != "tty-index" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		return n, err == nil && n >= 0
	}
	return 0, false
}

// ptyIndex returns the pts number of a pseudo-terminal slave's device
// number (Unix98 ptys: majors 136 to 143).
func ptyIndex(major, minor uint32) (int, bool) {
	if major < 136 || major > 143 {
		return 0, false
	}
	return int(major-136)*256 + int(minor), true
}

// ttyNrDev splits /proc/PID/stat's tty_nr into major and minor.
func ttyNrDev(nr int) (major, minor uint32) {
	u := uint32(nr)
	return (u >> 8) & 0xfff, (u & 0xff) | ((u >> 12) & 0xfff00)
}

// ptyHolders lists the processes holding the master side of pts index idx:
// every /proc/PID/fd link to /dev/ptmx (or /dev/pts/ptmx) whose fdinfo says
// tty-index idx. Processes whose descriptors guard may not read are not
// seen. It stops with an error past the scan bounds.
func ptyHolders(idx int) ([]int, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	names, err := d.Readdirnames(maxProcScan + 1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("read /proc: %w", err)
	}
	if len(names) > maxProcScan {
		return nil, fmt.Errorf("more than %d processes", maxProcScan)
	}
	fds := 0
	var out []int
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid <= 0 {
			continue
		}
		dir := "/proc/" + name + "/fd"
		fd, err := os.Open(dir)
		if err != nil {
			continue // gone, or not ours to read
		}
		links, err := fd.Readdirnames(-1)
		fd.Close()
		if err != nil {
			continue
		}
		fds += len(links)
		if fds > maxFdScan {
			return nil, fmt.Errorf("more than %d open descriptors", maxFdScan)
		}
		for _, l := range links {
			target, err := os.Readlink(dir + "/" + l)
			if err != nil || (target != "/dev/ptmx" && target != "/dev/pts/ptmx") {
				continue
			}
			info, err := readProcFile("/proc/"+name+"/fdinfo/"+l, procStatLimit)
			if err != nil {
				continue
			}
			if n, ok := parseTTYIndex(info); ok && n == idx {
				out = append(out, pid)
				break
			}
		}
	}
	return out, nil
}

// procEnv returns key's value in /proc/PID/environ (the environment the
// process started with), and whether it is set.
func procEnv(pid int, key string) (string, bool, error) {
	b, err := readProcFile("/proc/"+strconv.Itoa(pid)+"/environ", maxProcFile)
	if err != nil {
		return "", false, err
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if k, v, ok := bytes.Cut(kv, []byte("=")); ok && string(k) == key {
			return string(v), true, nil
		}
	}
	return "", false, nil
}

// procExe returns the path of the program pid runs. A program replaced on
// disk since it started reads "PATH (deleted)"; the path is returned
// without the suffix, and deleted says so.
func procExe(pid int) (path string, deleted bool, err error) {
	p, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return "", false, err
	}
	if s, ok := strings.CutSuffix(p, " (deleted)"); ok {
		return s, true, nil
	}
	return p, false, nil
}

// procUID returns the real user id of pid, from /proc/PID/status.
func procUID(pid int) (int, error) {
	b, err := readProcFile("/proc/"+strconv.Itoa(pid)+"/status", 16<<10)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Uid:"); ok {
			f := strings.Fields(v)
			if len(f) == 0 {
				break
			}
			return strconv.Atoi(f[0])
		}
	}
	return 0, errors.New("no Uid in status")
}

// fdsReadable reports whether guard may list pid's descriptors.
func fdsReadable(pid int) bool {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// terminalUsers lists the processes that hold the terminal major:minor:
// as their controlling terminal (stat's tty_nr), or through a descriptor
// that names a device file of that number. Processes guard may not read
// are not seen. It stops with an error past the scan bounds.
func terminalUsers(major, minor uint32) ([]termUser, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	names, err := d.Readdirnames(maxProcScan + 1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("read /proc: %w", err)
	}
	if len(names) > maxProcScan {
		return nil, fmt.Errorf("more than %d processes", maxProcScan)
	}
	want := unix.Mkdev(major, minor)
	fds := 0
	var out []termUser
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid <= 0 {
			continue
		}
		u := termUser{pid: pid}
		if st, err := readStat(pid); err == nil && st.ttyNr != 0 {
			if maj, min := ttyNrDev(st.ttyNr); maj == major && min == minor {
				u.ctty = true
			}
		}
		dir := "/proc/" + name + "/fd"
		if f, err := os.Open(dir); err == nil {
			links, err := f.Readdirnames(-1)
			f.Close()
			if err == nil {
				fds += len(links)
				if fds > maxFdScan {
					return nil, fmt.Errorf("more than %d open descriptors", maxFdScan)
				}
			}
			for _, l := range links {
				target, err := os.Readlink(dir + "/" + l)
				if err != nil || !strings.HasPrefix(target, "/") {
					continue // a pipe, a socket, an anonymous inode
				}
				var st unix.Stat_t
				if unix.Stat(dir+"/"+l, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFCHR && st.Rdev == want {
					u.fd = true
					break
				}
			}
		}
		if u.ctty || u.fd {
			out = append(out, u)
		}
	}
	return out, nil
}

// capSysAdmin is CAP_SYS_ADMIN's bit in a capability set.
const capSysAdmin = 21

// procSysAdmin reports whether pid has CAP_SYS_ADMIN in its effective set
// (/proc/PID/status CapEff), or guard cannot tell.
func procSysAdmin(pid int) bool {
	b, err := readProcFile("/proc/"+strconv.Itoa(pid)+"/status", 16<<10)
	if err != nil {
		return true
	}
	has, ok := parseCapEff(b, capSysAdmin)
	return has || !ok
}

// parseCapEff reads whether bit is set in a status file's CapEff line.
func parseCapEff(b []byte, bit uint) (has, ok bool) {
	for _, line := range strings.Split(string(b), "\n") {
		if v, found := strings.CutPrefix(line, "CapEff:"); found {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err != nil {
				return false, false
			}
			return n&(1<<bit) != 0, true
		}
	}
	return false, false
}
