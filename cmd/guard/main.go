// Command guard is the program an agent runs every shell command through. See doc.go.
package main

import (
	"os"

	"github.com/guard-dev/guard/shim"
)

// linkedVersion is set at link time by install.sh (-ldflags "-X
// main.linkedVersion=…"), as for guard-cli; empty in a plain go build.
var linkedVersion string

func main() {
	env := shim.FromProcess()
	env.Version = linkedVersion
	os.Exit(shim.Front(env))
}
