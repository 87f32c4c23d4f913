package shim

import (
	"os"

	"golang.org/x/sys/unix"
)

// A closed stdout stays closed for the command, as in bash: bash -c yes >&-
// fails at once with "Bad file descriptor", where a /dev/null in its place
// would let it write for ever (to the timeout).
//
// guard cannot see the closed descriptor itself: the Go runtime opens
// /dev/null (read-write, one open per descriptor) on any of 0, 1 and 2 that
// is closed when the program starts (runtime.checkfds). So a stream that is
// /dev/null, open for reading and writing, and shares its open file with no
// other standard descriptor is taken for one that was closed. What else
// looks like that: a redirect <>/dev/null on stdout or stderr (a command
// writing there fails instead of writing into nothing); daemon(3), which
// puts one read-write /dev/null on all three, shares it, and is told apart.
// stdin is left alone: reading /dev/null ends at once too.

// kcmpFile is KCMP_FILE (linux/kcmp.h): compare two descriptors' open files.
const kcmpFile = 0

// startedClosed reports whether f is guard's own stdout or stderr (fd 1 or
// 2) and was closed when guard started (see above).
func startedClosed(f *os.File) bool {
	if f == nil {
		return false
	}
	fd := int(f.Fd())
	if fd != 1 && fd != 2 {
		return false
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFCHR || st.Rdev != unix.Mkdev(1, 3) {
		return false
	}
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil || fl&unix.O_ACCMODE != unix.O_RDWR {
		return false
	}
	pid := uintptr(os.Getpid())
	for other := 0; other <= 2; other++ {
		if other == fd {
			continue
		}
		r, _, errno := unix.Syscall6(unix.SYS_KCMP, pid, pid, kcmpFile, uintptr(fd), uintptr(other), 0)
		if errno == 0 && r == 0 {
			return false // the same open file as another standard descriptor: daemon(3)'s
		}
	}
	return true
}
