// Command guard-cli holds guard's management commands. See doc.go.
package main

import "os"

func main() {
	os.Exit(guardMain())
}

// guardMain is the one entry point, shared by main and by the testscript
// commands in main_test.go, so that `exec guard-cli …` runs the real CLI.
func guardMain() int {
	return newApp(os.Stdin, os.Stdout, os.Stderr).run(os.Args)
}
