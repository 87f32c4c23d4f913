// Command guard is the program an agent runs every shell command through. See doc.go.
package main

import (
	"os"
	"runtime"

	"github.com/guard-dev/guard/shim"
)

// linkedVersion is set at link time by install.sh (-ldflags "-X
// main.linkedVersion=…"), as for guard-cli; empty in a plain go build.
var linkedVersion string

// init keeps the main goroutine on the process's main thread for good.
// That thread's id is guard's pid, which a confined command would ptrace or
// open under /proc as "guard", so the thread that draws a command's
// boundary must never be it (shim/confine_linux.go). Locked here, the main
// thread is never lent to another goroutine, and the confining goroutine
// starts on a thread of its own at once instead of handing the main thread
// back (a new thread and two wake-ups, 0.2 ms of every confined command).
func init() { runtime.LockOSThread() }

func main() {
	env := shim.FromProcess()
	env.Version = linkedVersion
	os.Exit(shim.Front(env))
}
