package ccs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// KeyVersion is part of every cache key: a guard whose key or run format
// changes bumps it, and old entries simply never match again.
const KeyVersion = 3

// MaxFingerprintEntries bounds the files a fingerprint looks at. Past it
// the command is not served (ErrNotServable).
const MaxFingerprintEntries = 20000

// gitTimeout bounds the git process a fingerprint runs when it cannot
// read the repository's files itself; past it the run is not served.
// (git itself blocks on a fifo planted at .gitignore or .git/index.)
const gitTimeout = 2 * time.Second

// ErrNotServable says the run's key could not be made: it runs, and is
// recorded, but is not answered from (or stored in) the cache.
var ErrNotServable = errors.New("not served from the cache")

// KeyInput is everything a cache key is made of.
type KeyInput struct {
	Argv    []string // the simple command's words
	Cwd     string
	KeyEnv  []string // names; their values are hashed into the key
	Getenv  func(string) string
	Stdin   string   // StdinClass of the run's stdin
	Watch   []string // paths, relative to Cwd or absolute
	Reads   []Read   // paths the argument model says the command reads
	Environ []string // for git
	// Skip are directories the fingerprint leaves out: guard's own
	// state and cache, which change with every command.
	Skip []string
	// Merged: stdout and stderr are one file (2>&1); the entry's output
	// is one stream, replayed to stdout.
	Merged bool
	Now    time.Time // the zero time: time.Now()
}

// Key returns the cache key of a run: sha256 over a length-prefixed
// encoding of the key version, argv, cwd, the hashed key_env values, the
// stdin class and the fingerprint of the inputs (Fingerprint), with the
// files whose content the key stands for (Racy: an entry is served only
// while they hold it).
func Key(in KeyInput) (string, Racy, error) {
	if in.Stdin == "" {
		return "", Racy{}, fmt.Errorf("stdin may hold input: %w", ErrNotServable)
	}
	fp, racy, err := Fingerprint(FingerprintInput{Cwd: in.Cwd, Watch: in.Watch, Reads: in.Reads, Environ: in.Environ, Skip: in.Skip, Now: in.Now})
	if err != nil {
		return "", Racy{}, err
	}
	h := sha256.New()
	field := func(s string) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	field("guard-cache")
	field(strconv.Itoa(KeyVersion))
	field(strconv.Itoa(len(in.Argv)))
	for _, a := range in.Argv {
		field(a)
	}
	field(in.Cwd)
	field(strconv.Itoa(len(in.KeyEnv)))
	for _, name := range in.KeyEnv {
		v, set := "", false
		if in.Getenv != nil {
			v = in.Getenv(name)
			set = v != ""
		}
		sum := sha256.Sum256([]byte(v))
		field(name)
		field(strconv.FormatBool(set) + hex.EncodeToString(sum[:]))
	}
	field(in.Stdin)
	field(strconv.FormatBool(in.Merged))
	field(fp)
	return hex.EncodeToString(h.Sum(nil)), racy, nil
}

// StdinClass says what the run's stdin is, for the key: "null" for
// /dev/null, an empty regular file or a pipe already closed with nothing
// in it (a command reads the same nothing from each); "" when it may hold
// input (a terminal, a pipe still open, a non-empty file): then the run is
// not served.
func StdinClass(f *os.File) string {
	if f == nil {
		return "null"
	}
	var st, null syscall.Stat_t
	if syscall.Fstat(int(f.Fd()), &st) != nil {
		return ""
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFCHR:
		if syscall.Stat(os.DevNull, &null) == nil && null.Rdev == st.Rdev {
			return "null"
		}
	case syscall.S_IFREG:
		if st.Size == 0 {
			return "null"
		}
	case syscall.S_IFIFO:
		// A pipe whose writers all closed it with nothing in it reads as
		// /dev/null does. The writer may be about to close it (a parent
		// that copies an empty input): wait a moment for that, never read.
		fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, int(stdinWait/time.Millisecond))
			if err == unix.EINTR {
				continue
			}
			if err == nil && n == 1 && fds[0].Revents&unix.POLLHUP != 0 {
				if avail, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ); err == nil && avail == 0 {
					return "null"
				}
			}
			return ""
		}
	}
	return ""
}

// stdinWait is how long StdinClass waits for a pipe's writer to close it.
const stdinWait = 20 * time.Millisecond

// gitTop returns the work tree cwd is in ("" when none): the nearest
// ancestor holding .git (a directory, or a file for a worktree).
func gitTop(cwd string) string {
	for dir := filepath.Clean(cwd); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		if dir == filepath.Dir(dir) {
			return ""
		}
	}
}

// MaxGitEntries bounds the files of a git work tree a fingerprint
// stats; past it the command is not served.
const MaxGitEntries = 10 * MaxFingerprintEntries

// gitFingerprint hashes, for the work tree at top: HEAD (read from the
// repository's files) and what git ls-files --cached --others
// --exclude-standard lists with the lstat of each path: every index entry
// (mode, object id, stage, path and the skip-worktree and intent-to-add
// flags, not the index's stat cache, which a git status refreshes), then
// every untracked path that is not ignored, every .gitignore read (even
// one that ignores itself) and info/exclude. It reads
// the index and the .gitignore files itself (gitindex.go, gitignore.go)
// and starts no process; where it cannot read them exactly
// (errGitFallback: a split or sparse index, an unknown index version or
// mandatory extension, a symlinked .gitignore, …) it runs one
// git ls-files instead (gitLsFilesFingerprint).
func gitFingerprint(f *fingerprinter, h hash.Hash, top string, environ []string) error {
	g := sha256.New()
	n := f.n
	err := gitFilesFingerprint(f, g, top)
	if errors.Is(err, errGitFallback) {
		f.n = n
		return gitLsFilesFingerprint(f, h, top, environ)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "git files %q %x\n", top, g.Sum(nil))
	return nil
}

// gitFilesFingerprint is gitFingerprint without git: see there. The order
// is deterministic: index order, then the walk's (sorted names, depth
// first). A submodule (a gitlink) and a nested repository are stated, not
// entered; a symlink is followed (fingerprinter.entry).
func gitFilesFingerprint(f *fingerprinter, h hash.Hash, top string) error {
	t, err := readGitTree(top, f.skip)
	if err != nil {
		return err
	}
	head := gitHeadIn(t.gitdir, t.common)
	fmt.Fprintf(h, "%d %s\n%d %s\n", len(head), head, len(t.exclude), t.exclude)
	var line []byte
	for _, e := range t.index {
		full := t.join(e.path)
		if len(f.skip) > 0 && under(full, f.skip) {
			continue
		}
		line = strconv.AppendUint(line[:0], uint64(e.mode), 8)
		line = hex.AppendEncode(append(line, ' '), e.oid)
		line = strconv.AppendUint(append(line, ' '), uint64(e.stage), 10)
		line = strconv.AppendUint(append(line, ' '), uint64(e.ext), 10)
		h.Write(append(line, ' '))
		depth := -1
		if e.mode == gitlinkMode {
			depth = 0
		}
		if err := f.entry(h, full, depth); err != nil {
			return err
		}
	}
	return t.walk(func(kind byte, rel string) error {
		h.Write([]byte{kind, ' '})
		switch kind {
		case gitSpecial:
			return notServable("%s is %s: what a command reads from it is not in the fingerprint", t.join(rel), "a fifo or a device")
		case gitNested, gitUnreadable:
			return f.entry(h, t.join(rel), 0)
		}
		return f.entry(h, t.join(rel), -1)
	})
}

// gitLsFilesFingerprint is gitFingerprint with one git process, bounded
// by gitTimeout: HEAD, the index as git ls-files --stage shows it (mode,
// blob and stage of every tracked path) with every untracked-not-ignored
// path, and each of those paths as fingerprinter.entry hashes it.
func gitLsFilesFingerprint(f *fingerprinter, h hash.Hash, top string, environ []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "--no-optional-locks", "ls-files", "-z", "--stage", "--cached", "--others", "--exclude-standard")
	cmd.Dir = top
	cmd.Env = gitEnv(environ)
	cmd.WaitDelay = 100 * time.Millisecond // a child of git that keeps the pipe open
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return notServable("git ls-files in %s took more than %s", top, gitTimeout)
	}
	if err != nil {
		return fmt.Errorf("git ls-files in %s: %v: %w", top, err, ErrNotServable)
	}
	fmt.Fprintf(h, "git %q\n", top)
	h.Write(gitHead(top))
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		// "MODE BLOB STAGE\tPATH" for a tracked path, "PATH" for an untracked one
		p, depth := rec, -1
		if i := bytes.IndexByte(rec, '\t'); i >= 0 && bytes.Count(rec[:i], []byte{' '}) == 2 {
			p = rec[i+1:]
			if bytes.HasPrefix(rec, []byte("160000 ")) {
				depth = 0 // a submodule
			}
		}
		full := filepath.Join(top, string(p))
		if under(full, f.skip) {
			continue
		}
		h.Write(rec)
		h.Write([]byte{0})
		if err := f.entry(h, full, depth); err != nil {
			return err
		}
	}
	return nil
}

// gitHead returns what HEAD is, read from the repository's files: HEAD
// itself and the ref it names (a loose ref, else the packed refs whole).
// A worktree's .git file ("gitdir: …") and commondir are followed.
func gitHead(top string) []byte {
	return gitHeadIn(gitDirs(top))
}

// gitHeadIn is gitHead of the repository directory gitdir, whose common
// directory is common.
func gitHeadIn(gitdir, common string) []byte {
	head, _ := readSmallFile(filepath.Join(gitdir, "HEAD"))
	out := append([]byte("HEAD "), head...)
	if ref, ok := bytes.CutPrefix(bytes.TrimSpace(head), []byte("ref: ")); ok {
		for _, d := range []string{gitdir, common} {
			if b, err := readSmallFile(filepath.Join(d, string(ref))); err == nil {
				return append(append(out, "ref "...), b...)
			}
		}
		packed, _ := readSmallFile(filepath.Join(common, "packed-refs"))
		out = append(append(out, "packed "...), packed...)
	}
	return out
}

// readSmallFile reads a regular file of at most 16 MiB without blocking.
func readSmallFile(path string) ([]byte, error) {
	f, err := openRegular(path, syscall.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 16<<20))
}

// gitEnv is the environment for git: the caller's, without what would
// point git at another repository or change its output.
func gitEnv(environ []string) []string {
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		name, _, _ := bytes.Cut([]byte(kv), []byte("="))
		switch string(name) {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
}

// under reports whether p is one of dirs or inside one.
func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if d != "" && (p == d || strings.HasPrefix(p, d+string(filepath.Separator))) {
			return true
		}
	}
	return false
}
