package shim

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
)

// maxLinkHops bounds how many symlinks resolving one path follows (the
// kernel's own limit is 40): a loop must not hang guard.
const maxLinkHops = 40

// Facts gathers what the path tiers need from the disk for a decision on
// an under s (see grants.Facts): where each path the tiers will judge
// points, symlinks resolved through its longest existing prefix, and the
// home directory and project root resolved the same way. A text that names
// no path costs no system call. guard check, explain and watch use it
// too, so that they decide as the shim does.
func Facts(an *classify.Analysis, s *grants.Settings, home string) *grants.Facts {
	return (*Resolver)(nil).Facts(an, s, home)
}

// Resolver remembers where paths pointed, for a process that decides many
// texts in a row (guard check --stdin): the home directory, the project
// root and a path named again are resolved once. The zero Resolver and a
// nil one remember nothing.
type Resolver struct{ memo map[string]string }

func (r *Resolver) resolve(p string) string {
	if r == nil {
		return resolveExisting(p)
	}
	if q, ok := r.memo[p]; ok {
		return q
	}
	q := resolveExisting(p)
	if r.memo == nil || len(r.memo) > 1<<14 {
		r.memo = map[string]string{}
	}
	r.memo[p] = q
	return q
}

// Facts is the package's Facts, resolving through r's memory.
func (r *Resolver) Facts(an *classify.Analysis, s *grants.Settings, home string) *grants.Facts {
	if !filepath.IsAbs(home) {
		home = ""
	}
	f := &grants.Facts{Home: home}
	paths := grants.TierPaths(an, s, home)
	if len(paths) == 0 {
		return f
	}
	if home != "" {
		f.Home = r.resolve(home)
	}
	if s != nil && s.Root != "" {
		f.Root = r.resolve(s.Root)
	}
	f.Real = make(map[string]string, len(paths))
	for _, p := range paths {
		f.Real[p] = r.resolve(p)
	}
	return f
}

// resolveExisting returns where absolute path p points: each existing
// component that is a symlink is replaced by its target, a dangling one
// included (writing through it creates the target); the components from
// the first one that does not exist on are kept as written. It gives up
// (returning what it has) after maxLinkHops links.
func resolveExisting(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	p = filepath.Clean(p)
	done := "/"
	rest := strings.TrimPrefix(p, "/")
	for hops := 0; rest != ""; {
		comp, after, _ := strings.Cut(rest, "/")
		next := filepath.Join(done, comp)
		fi, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(next, after) // the rest does not exist yet
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			done, rest = next, after
			continue
		}
		if hops++; hops > maxLinkHops {
			return filepath.Join(next, after)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return filepath.Join(next, after)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(done, target)
		}
		target = filepath.Clean(target)
		// start again from the root with the target in place
		done, rest = "/", strings.TrimPrefix(filepath.Join(target, after), "/")
	}
	return done
}
