package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/guard-dev/guard/internal/testproc"
)

// TestMain fails the run for a process a test left running in its temp
// dirs (the guard a confinement test started, a command it ran).
func TestMain(m *testing.M) {
	tmp, err := testproc.Setup("gg")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if testproc.Check(os.Stderr, tmp) && code == 0 {
		code = 1
	}
	os.RemoveAll(tmp)
	os.Exit(code)
}
