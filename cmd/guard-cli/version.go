package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/shim"
)

func (a *App) versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print guard's version",
		UsageText: `guard version

Prints the module version, the VCS revision it was built from (when known),
the Go version and the platform.

example:
   guard version`,
		Action: a.version,
	}
}

func (a *App) version(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("version takes no arguments")
	}
	fmt.Fprintln(a.Stdout, versionString())
	return nil
}

// linkedVersion is set at link time by install.sh
// (-ldflags "-X main.linkedVersion=…", the checkout's git describe, as its
// "building guard …" line says); empty in a plain go build. Written only by
// the linker, never at run time.
var linkedVersion string

// versionString describes this build (shim.VersionString).
func versionString() string { return shim.VersionString(linkedVersion) }
