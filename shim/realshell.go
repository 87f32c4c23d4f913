package shim

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// maxDepth bounds how deeply guards may nest (GUARD_DEPTH). Real nesting
// (make running sh -c running bash -c …) stays far below it; a loop through a
// wrapper that leads back to guard reaches it quickly.
const maxDepth = 40

// defaultPath is searched when PATH is empty or unset.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// setupError is a broken setup guard cannot run through (exit 125).
type setupError struct{ msg string }

func (e *setupError) Error() string { return e.msg }

// shellFinder looks for the real shell. It never returns guard itself.
type shellFinder struct {
	self     os.FileInfo // guard's own executable; nil if unknown
	path     []string    // absolute PATH entries, in order
	cwd      string
	selfSeen []string // candidates skipped because they are guard itself
}

func newShellFinder(env *Env) *shellFinder {
	f := &shellFinder{cwd: env.Cwd}
	if env.Self != "" {
		if fi, err := os.Stat(env.Self); err == nil {
			f.self = fi
		}
	}
	p := env.getenv("PATH")
	if p == "" {
		p = defaultPath
	}
	for _, dir := range filepath.SplitList(p) {
		// Relative entries ("", ".", "bin") would let the working directory
		// (a cloned repository) choose the shell: never use them.
		if filepath.IsAbs(dir) {
			f.path = append(f.path, filepath.Clean(dir))
		}
	}
	return f
}

// isSelf reports whether path is guard's own executable (through any links).
func (f *shellFinder) isSelf(path string) bool {
	if f.self == nil {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, f.self)
}

// executable reports whether path is a regular file someone may execute.
func executable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && isExecutable(fi)
}

func isExecutable(fi os.FileInfo) bool {
	return fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// search returns the first name in dirs that is an executable and not guard.
func (f *shellFinder) search(dirs []string, name string) string {
	for _, dir := range dirs {
		cand := filepath.Join(dir, name)
		fi, err := os.Stat(cand) // one stat per candidate: this runs before every command
		if err != nil || !isExecutable(fi) {
			continue
		}
		if f.self != nil && os.SameFile(fi, f.self) {
			f.selfSeen = append(f.selfSeen, cand)
			continue
		}
		return cand
	}
	return ""
}

// find returns the absolute path of the real shell:
//   - configured, the real_shell of the global config or the managed policy
//     (an absolute path; grants keeps it out of every other file);
//   - invoked as bash or sh (argv0): the shell of that name on PATH after the
//     directory guard was invoked from;
//   - else bash, then sh, on PATH.
//
// Candidates that are guard itself are skipped; when only guard was found the
// error says there is a loop. No variable names the shell: the agent sets
// guard's environment, and a shell it named would run every command unjudged
// (GUARD_REAL_SHELL did, until issue 22).
func (f *shellFinder) find(configured, argv0 string) (string, error) {
	if configured != "" {
		if f.isSelf(configured) {
			return "", &setupError{fmt.Sprintf("loop: real_shell = %q in the config is guard itself; point it at the real shell", configured)}
		}
		if !executable(configured) {
			return "", &setupError{fmt.Sprintf("real_shell = %q in the config is not an executable file", configured)}
		}
		return configured, nil
	}
	if name := dispatchName(argv0); name != "" {
		dirs, after := f.after(argv0, name)
		if path := f.search(dirs, name); path != "" {
			return path, nil
		}
		return "", f.notFound(fmt.Sprintf("no real %s on PATH after %s", name, after))
	}
	for _, name := range []string{"bash", "sh"} {
		if path := f.search(f.path, name); path != "" {
			return path, nil
		}
	}
	return "", f.notFound("no bash or sh found on PATH")
}

// notFound words the failure, naming a loop when guard found only itself.
func (f *shellFinder) notFound(msg string) error {
	if len(f.selfSeen) > 0 {
		return &setupError{fmt.Sprintf("loop: %s except guard itself (%s); put the real shell's directory on PATH after guard's, or name it with real_shell in config.toml", msg, f.selfSeen[0])}
	}
	return &setupError{msg + "; put the real shell's directory on PATH after guard's, or name it with real_shell in config.toml"}
}

// after returns the PATH entries after the directory guard was invoked from,
// and that directory for messages. If the directory is not on PATH, the whole
// PATH is searched (guard itself is skipped either way).
func (f *shellFinder) after(argv0, name string) ([]string, string) {
	var dir string
	if filepath.Base(argv0) != argv0 {
		dir = argv0
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(f.cwd, dir)
		}
		dir = filepath.Dir(filepath.Clean(dir))
	} else {
		// Found by a PATH search: the first entry holding the name is where.
		for _, d := range f.path {
			if executable(filepath.Join(d, name)) {
				dir = d
				break
			}
		}
	}
	for i, d := range f.path {
		if sameDir(d, dir) {
			return f.path[i+1:], dir
		}
	}
	if dir == "" {
		dir = "PATH"
	}
	return f.path, dir
}

// sameDir compares two directories through symlinks.
func sameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// depth reads GUARD_DEPTH: how many guards run above this one.
func depth(env *Env) (int, error) {
	v := env.getenv("GUARD_DEPTH")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, &setupError{fmt.Sprintf("GUARD_DEPTH=%q is not a count", v)}
	}
	if n >= maxDepth {
		return n, &setupError{fmt.Sprintf("loop: guard is nested %d deep (GUARD_DEPTH); a shim or a wrapper leads back to guard", n)}
	}
	return n, nil
}
