// Command floor is the least a Go shell shim can cost: it forks `bash -c "$1"`,
// waits, and exits with the child's status (128+N for death by signal N). It
// decides nothing and records nothing. bench/overhead.sh times guard against it.
//
//	floor 'CMD'
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor 'CMD'")
		os.Exit(2)
	}
	os.Exit(run(os.Args[1]))
}

func run(script string) int {
	cmd := exec.Command("bash", "-c", script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return exit.ExitCode()
	default:
		fmt.Fprintf(os.Stderr, "floor: %v\n", err)
		return 125
	}
}
