package ccs

import (
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// FlushDueName is the file whose modification time is when the telemetry
// flusher is next due: guard stats it after each record (one system call)
// and starts guard-cli telemetry flush, detached, only once that time has
// passed; the flusher moves it on (a minute after a success, further after
// each failure: its backoff).
const FlushDueName = "telemetry.due"

// FlushEvery is how often guard starts the flusher while commands run.
const FlushEvery = time.Minute

// ClaimFlush reports whether the telemetry flusher is due at now in dir
// and, if it is, claims it: under an exclusive, non-blocking lock on the
// due file, it moves the due time FlushEvery on, so that of the guards that
// find it due at once only one starts a flusher. A missing file is due. It
// never waits: a held lock means another guard is claiming it.
func ClaimFlush(dir string, now time.Time) bool {
	path := filepath.Join(dir, FlushDueName)
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err == nil && time.Unix(st.Mtim.Unix()).After(now) {
		return false
	}
	fd, err := openFD(path, syscall.O_RDWR|syscall.O_CREAT)
	if err != nil {
		return false
	}
	defer closeFD(fd)
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false
	}
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG ||
		st.Size > 0 && time.Unix(st.Mtim.Unix()).After(now) {
		return false // claimed by another guard between the stat and the lock
	}
	if st.Size == 0 {
		// a size tells a claimed file from one just created
		if _, err := syscall.Write(fd, []byte("due\n")); err != nil {
			return false
		}
	}
	return setDue(fd, now.Add(FlushEvery)) == nil
}

// SetFlushDue sets when the flusher is next due in dir (the flusher's
// backoff after a failure, or FlushEvery after a success).
func SetFlushDue(dir string, at time.Time) error {
	fd, err := openFD(filepath.Join(dir, FlushDueName), syscall.O_RDWR|syscall.O_CREAT)
	if err != nil {
		return err
	}
	defer closeFD(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err == nil && st.Size == 0 {
		_, _ = syscall.Write(fd, []byte("due\n"))
	}
	return setDue(fd, at)
}

func setDue(fd int, at time.Time) error {
	tv := unix.NsecToTimeval(at.UnixNano())
	return unix.Futimes(fd, []unix.Timeval{tv, tv})
}
