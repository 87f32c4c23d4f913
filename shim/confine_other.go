//go:build !linux

package shim

import (
	"errors"
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

var errUnconfined = errors.New("the kernel cannot confine commands")

func landlockABI() int { return 0 }

// start is never reached off Linux: the confinement is dropped before the
// run, with the once-a-day notice.
func (c *confinement) start(_ *unix.Rlimit, path string, argv []string, pa *syscall.ProcAttr) (int, func(), error) {
	return 0, nil, errUnconfined
}

// IsConfineStage: no confining stage off Linux.
func IsConfineStage(args []string) bool { return false }

// ConfineStage is never reached off Linux.
func ConfineStage(args []string, stderr io.Writer) int { return ExitFailure }
