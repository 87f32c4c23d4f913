package shim

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// The agent's resource limits are the command's, not guard's. With
// `ulimit -S -f 0` (a file size limit of 0 bytes, soft) every write guard
// made to its journal failed, and the record of the command was lost. So
// guard raises its own soft RLIMIT_FSIZE to the hard one when it starts
// (raiseFileLimit), and gives the command the limit it was started with
// (forkExec). A hard limit guard cannot raise (plain `ulimit -f 0` sets
// both): every write that fails is then counted as lost (NoteLost falls
// back to an empty file per loss), and with audit_required the command does
// not run (the probe writes a record's worth at the journal's end first).
//
// SIGXFSZ, which the kernel sends to a process writing past the limit, does
// not end guard: the Go runtime catches it and, nobody having asked for it,
// drops it, so the write returns EFBIG. That is a handler, not SIG_IGN: the
// command starts with the default action, as without guard.

// raiseFileLimit raises the soft file size limit to the hard one and
// returns the limits guard was started with, for the command; nil when
// nothing changed (the usual case: both unlimited).
func raiseFileLimit() *unix.Rlimit {
	var r unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_FSIZE, &r) != nil || r.Cur == r.Max {
		return nil
	}
	orig := r
	r.Cur = r.Max
	if unix.Setrlimit(unix.RLIMIT_FSIZE, &r) != nil {
		return nil
	}
	return &orig
}

// forkExec is syscall.ForkExec with the caller's file size limit put back
// for the child: guard lowers its own soft limit to lim around the fork
// (the child inherits it, and keeps it across exec) and raises it again
// once the child has exec'd. Nothing else in guard writes a file
// meanwhile. lim nil: the limits are left as they are.
func forkExec(lim *unix.Rlimit, path string, argv []string, attr *syscall.ProcAttr) (int, error) {
	if lim == nil {
		return syscall.ForkExec(path, argv, attr)
	}
	var raised unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_FSIZE, &raised) != nil || unix.Setrlimit(unix.RLIMIT_FSIZE, lim) != nil {
		return syscall.ForkExec(path, argv, attr)
	}
	pid, err := syscall.ForkExec(path, argv, attr)
	_ = unix.Setrlimit(unix.RLIMIT_FSIZE, &raised)
	return pid, err
}
