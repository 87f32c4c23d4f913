package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
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

// versionString describes this build: the version install.sh linked in,
// else the embedded build information.
func versionString() string {
	version, revision, dirty := "(devel)", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if linkedVersion != "" {
		version = linkedVersion
	}
	s := "guard " + version
	if revision != "" {
		if len(revision) > 12 {
			revision = revision[:12]
		}
		if dirty {
			revision += "-dirty"
		}
		s += " (" + revision + ")"
	}
	return fmt.Sprintf("%s %s %s/%s", s, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
