package shim

import (
	"os"
	"time"
)

// Exit statuses guard itself produces. A command's own status passes through
// untouched (death by signal N becomes 128+N, as bash reports it).
const (
	ExitUsage   = 2   // bad shell flags, as bash exits for them
	ExitTimeout = 124 // the command ran past its timeout and was killed
	ExitFailure = 125 // guard itself failed (no real shell, a loop, a broken setup)
	ExitRefused = 126 // guard refused: denied, or needs approval
	ExitNoProg  = 127 // guard exec: the program was not found
)

// Env is everything one run may touch from the outside world. cmd/guard fills
// it from the process; tests build their own.
type Env struct {
	Stdin, Stdout, Stderr *os.File
	Args                  []string // full os.Args (Args[0] selects bash/sh link dispatch)
	Getenv                func(string) string
	Environ               []string
	Cwd                   string
	Now                   func() time.Time
	Self                  string // path of the running guard executable
	// Started is when guard's main began (zero: unknown), for the
	// record's overhead.
	Started time.Time
	// Version is what install.sh linked in as the version ("" in a plain
	// go build): see VersionString.
	Version string
}

// getenv is Env.Getenv that tolerates a nil function.
func (e *Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// now is Env.Now that tolerates a nil clock.
func (e *Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}
