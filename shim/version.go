package shim

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// VersionString describes this build: linked (the version install.sh
// links in, "" in a plain go build), else the embedded build information;
// the VCS revision when known, the Go version and the platform.
func VersionString(linked string) string {
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
	if linked != "" {
		version = linked
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
