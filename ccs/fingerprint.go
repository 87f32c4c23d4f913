package ccs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A fingerprint stands for everything a cached command may read: it must
// change whenever what the command would print may have changed. What it
// takes of each path, and why:
//
//   - lstat's mode, size, mtime, ctime (nanoseconds), inode and device,
//     together. A program can put mtime back (touch -d) and keep the size;
//     it cannot set ctime, which the kernel moves on every write, chmod,
//     rename and utimes.
//   - the content (sha256) where those cannot be trusted: an mtime or ctime
//     within racyWindow of the fingerprint's own time (git's racy-git
//     rule: a write in the same clock tick as the last one leaves ctime
//     where it was), or a file system that keeps no sub-second times (mtime
//     and ctime nanoseconds both zero). Those contents are not part of the
//     key, which is made of metadata alone: they are the key's Racy, kept
//     with the entry, and an entry is served only while Racy.Holds (the
//     files still hold what they held). So the key of a file does not
//     change when it ages out of the window, and a file outside the list
//     was older than the window when the entry was made: any write since
//     moved its ctime, and with it the key.
//   - for a symlink, its text and what it points to, followed: the target's
//     stat, its content by the same rule, and a directory's entries walked
//     like the tree (a cycle is walked once). A target that is not a
//     regular file or a directory (a fifo, a device other than /dev/null),
//     or that lies on a pseudo file system (/proc, /sys), changes without
//     its metadata: the run is not served, and the reason is kept.
//
// Every file read for its content is opened O_NONBLOCK (and O_NOFOLLOW,
// unless following the link is the point) and must be the regular file
// that was stated: a fifo planted at a name never stalls guard.

// racyWindow is how recent an mtime or ctime may be before the content is
// hashed too: far more than a clock tick (1-10 ms), so that a write after
// the fingerprint always moves ctime past what it recorded.
const racyWindow = 2 * time.Second

// maxContentBytes bounds the bytes one fingerprint reads to hash content;
// past it the run is not served.
const maxContentBytes = 64 << 20

// A Read is a path the argument model says the command reads (an operand
// of cat, ls, wc, grep…; a directory of make -C): it is fingerprinted
// whether or not it lies in the tree.
type Read struct {
	Path string // absolute; a glob (*, ?, [) stands for what it may match
	// Deep: the command may read everything under a directory (grep -r,
	// du, make -C), not only its entries.
	Deep bool
}

// FingerprintInput is what Fingerprint looks at.
type FingerprintInput struct {
	Cwd     string
	Watch   []string // more paths, relative to Cwd or absolute: everything under them
	Reads   []Read
	Environ []string // for git
	// Skip are directories left out: guard's own state and cache, which
	// change with every command.
	Skip []string
	Now  time.Time // the zero time: time.Now()
}

// fingerprinter is one fingerprint in progress.
type fingerprinter struct {
	skip    []string
	since   int64 // unix ns: a time at or after this cannot be trusted
	n, max  int   // entries seen, and the bound
	hashed  int64 // bytes read for content
	entered map[fileID]bool
	buf     []byte
	sum     hash.Hash
	racy    Racy      // Paths so far; Sum is set at the end
	racySum hash.Hash // over each racy path and its content's digest
}

// Racy lists the files whose content, not their metadata, a key stands
// for (see the top of this file), and the digest of what they held.
type Racy struct {
	// Paths: "l" and the path of a file read without following a link,
	// "f" and the path of a link's target, read through the link.
	Paths []string
	Sum   string // hex sha256
}

// Holds reports whether every file of r still holds what it held when r
// was made: a file no longer regular, or unreadable, does not.
func (r Racy) Holds() bool {
	if len(r.Paths) == 0 {
		return r.Sum == ""
	}
	f := &fingerprinter{racySum: sha256.New()}
	for _, p := range r.Paths {
		if len(p) < 2 || p[0] != 'f' && p[0] != 'l' {
			return false
		}
		path, flags := p[1:], 0
		var st syscall.Stat_t
		var err error
		if p[0] == 'l' {
			flags = syscall.O_NOFOLLOW
			err = syscall.Lstat(path, &st)
		} else {
			err = syscall.Stat(path, &st)
		}
		if err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return false
		}
		if f.addRacy(path, &st, flags) != nil {
			return false
		}
	}
	return hex.EncodeToString(f.racySum.Sum(nil)) == r.Sum
}

type fileID struct{ dev, ino uint64 }

func newFingerprinter(now time.Time, window time.Duration, skip []string, max int) *fingerprinter {
	return &fingerprinter{skip: skip, since: now.Add(-window).UnixNano(), max: max}
}

// notServable is an ErrNotServable with its reason.
func notServable(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), ErrNotServable)
}

// Reason returns why a run was not served, from an error Key returned:
// the error's text without the ErrNotServable suffix.
func Reason(err error) string {
	return strings.TrimSuffix(err.Error(), ": "+ErrNotServable.Error())
}

// count counts one entry against the bound.
func (f *fingerprinter) count() error {
	f.n++
	if f.n > f.max {
		return notServable("more than %d files to fingerprint", f.max)
	}
	return nil
}

// untrusted reports whether st's metadata may not show a change: see
// racyWindow.
func (f *fingerprinter) untrusted(st *syscall.Stat_t) bool {
	if st.Mtim.Nsec == 0 && st.Ctim.Nsec == 0 {
		return true
	}
	return st.Mtim.Nano() >= f.since || st.Ctim.Nano() >= f.since
}

// appendStat appends what the fingerprint takes of a stat: mode, size,
// mtime, ctime, inode, device. By hand: with fmt, formatting cost as
// much as the lstat.
func appendStat(b []byte, st *syscall.Stat_t) []byte {
	b = strconv.AppendUint(append(b, ' '), uint64(st.Mode), 8)
	b = strconv.AppendInt(append(b, ' '), st.Size, 10)
	b = strconv.AppendInt(append(b, ' '), st.Mtim.Sec, 10)
	b = strconv.AppendInt(append(b, '.'), st.Mtim.Nsec, 10)
	b = strconv.AppendInt(append(b, ' '), st.Ctim.Sec, 10)
	b = strconv.AppendInt(append(b, '.'), st.Ctim.Nsec, 10)
	b = strconv.AppendUint(append(b, ' '), st.Ino, 10)
	b = strconv.AppendUint(append(b, ' '), st.Dev, 16)
	return b
}

// entry hashes one path, length-prefixed, and what it is (see the top of
// this file), counting it against the bound. depth says how far a
// directory (or a link to one) is walked: 0 not at all, k levels of
// entries, -1 all the way down.
func (f *fingerprinter) entry(h hash.Hash, path string, depth int) error {
	if err := f.count(); err != nil {
		return err
	}
	var buf [200]byte
	b := strconv.AppendInt(buf[:0], int64(len(path)), 10)
	b = append(append(b, ' '), path...)
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		h.Write(append(b, " -\n"...))
		return nil
	}
	b = appendStat(b, &st)
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		h.Write(append(b, '\n'))
		return f.content(path, &st, syscall.O_NOFOLLOW)
	case syscall.S_IFDIR:
		h.Write(append(b, '\n'))
		if depth == 0 {
			return nil
		}
		return f.dir(h, path, deeper(depth), syscall.O_NOFOLLOW)
	case syscall.S_IFLNK:
		target, err := os.Readlink(path)
		if err != nil {
			h.Write(append(b, " unreadable\n"...))
			return nil
		}
		b = strconv.AppendInt(append(b, " -> "...), int64(len(target)), 10)
		b = append(append(b, ' '), target...)
		var tst syscall.Stat_t
		if err := syscall.Stat(path, &tst); err != nil {
			h.Write(append(b, " -\n"...)) // dangling: the command finds nothing either
			return nil
		}
		h.Write(appendStat(b, &tst))
		err = f.target(h, path, &tst, depth)
		h.Write([]byte{'\n'})
		return err
	case syscall.S_IFIFO, syscall.S_IFCHR, syscall.S_IFBLK:
		h.Write(append(b, '\n'))
		if devNull(&st) {
			return nil
		}
		return notServable("%s is %s: what a command reads from it is not in the fingerprint", path, fileKind(st.Mode))
	}
	h.Write(append(b, '\n')) // a socket: nothing to read
	return nil
}

// devNull reports whether st is /dev/null's (major 1, minor 3), which
// always reads empty.
func devNull(st *syscall.Stat_t) bool {
	return st.Mode&syscall.S_IFMT == syscall.S_IFCHR && unix.Major(st.Rdev) == 1 && unix.Minor(st.Rdev) == 3
}

// target hashes what the link at path points to, whose stat is st.
func (f *fingerprinter) target(h hash.Hash, path string, st *syscall.Stat_t, depth int) error {
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG, syscall.S_IFDIR:
	default:
		if devNull(st) {
			return nil
		}
		return notServable("%s links to %s: what a command reads from it is not in the fingerprint", path, fileKind(st.Mode))
	}
	if err := pseudoFS(path); err != nil {
		return err
	}
	if st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		return f.content(path, st, 0)
	}
	if depth == 0 {
		return nil
	}
	id := fileID{st.Dev, st.Ino}
	if f.entered[id] {
		h.Write([]byte(" entered"))
		return nil
	}
	if f.entered == nil {
		f.entered = map[fileID]bool{}
	}
	f.entered[id] = true
	h.Write([]byte{'\n'})
	return f.dir(h, path, deeper(depth), 0)
}

// deeper is the depth of a directory's entries.
func deeper(depth int) int {
	if depth < 0 {
		return depth
	}
	return depth - 1
}

// pseudoFSTypes are file systems whose files change without their
// metadata (statfs f_type).
var pseudoFSTypes = map[int64]string{
	unix.PROC_SUPER_MAGIC: "/proc", unix.SYSFS_MAGIC: "/sys", unix.DEBUGFS_MAGIC: "debugfs",
	unix.TRACEFS_MAGIC: "tracefs", unix.CGROUP_SUPER_MAGIC: "cgroupfs", unix.CGROUP2_SUPER_MAGIC: "cgroupfs",
	unix.SECURITYFS_MAGIC: "securityfs", unix.BPF_FS_MAGIC: "bpffs", unix.EFIVARFS_MAGIC: "efivarfs",
	unix.DEVPTS_SUPER_MAGIC: "devpts", unix.PSTOREFS_MAGIC: "pstore",
}

// pseudoFS returns a reason not to serve when path lies on a pseudo file
// system.
func pseudoFS(path string) error {
	var sfs unix.Statfs_t
	if err := unix.Statfs(path, &sfs); err != nil {
		return nil // the stat that follows says what is there
	}
	if name, ok := pseudoFSTypes[int64(sfs.Type)]; ok {
		return notServable("%s is on %s, whose files change without their metadata", path, name)
	}
	return nil
}

// dir hashes the entries of the directory at path (sorted by name), each
// with depth. flags is O_NOFOLLOW, or 0 for a link's target.
func (f *fingerprinter) dir(h hash.Hash, path string, depth, flags int) error {
	names, err := readDirNames(path, flags)
	if err != nil {
		h.Write([]byte(" unlisted\n"))
		return nil
	}
	prefix := path + "/"
	if strings.HasSuffix(path, "/") {
		prefix = path
	}
	for _, name := range names {
		child := prefix + name
		if len(f.skip) > 0 && under(child, f.skip) {
			continue
		}
		if err := f.entry(h, child, depth); err != nil {
			return err
		}
	}
	return nil
}

// readDirNames lists a directory, sorted. O_DIRECTORY: a fifo swapped in
// since the stat fails at once instead of blocking the open. (Without
// O_NONBLOCK, os.NewFile leaves the descriptor out of the poller.)
func readDirNames(path string, flags int) ([]string, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|flags, 0)
	if err != nil {
		return nil, err
	}
	d := os.NewFile(uintptr(fd), path)
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// content notes the file at path, whose stat is st, in the racy list
// when its metadata cannot be trusted (see Racy). flags is O_NOFOLLOW, or
// 0 where the path is a link to follow.
func (f *fingerprinter) content(path string, st *syscall.Stat_t, flags int) error {
	if !f.untrusted(st) {
		return nil
	}
	return f.addRacy(path, st, flags)
}

// addRacy adds the file at path (stated st) and its content's digest to
// the racy list. The file opened must be the one stated.
func (f *fingerprinter) addRacy(path string, st *syscall.Stat_t, flags int) error {
	if f.hashed+st.Size > maxContentBytes {
		return notServable("more than %d MiB of files changed in the last %s: %s", maxContentBytes>>20, racyWindow, path)
	}
	mark := "f"
	if flags&syscall.O_NOFOLLOW != 0 {
		mark = "l"
	}
	f.racy.Paths = append(f.racy.Paths, mark+path)
	if f.racySum == nil {
		f.racySum = sha256.New()
	}
	var n [20]byte
	f.racySum.Write(strconv.AppendInt(n[:0], int64(len(path)), 10))
	f.racySum.Write([]byte(" " + mark + path))
	fd, err := openFD(path, syscall.O_RDONLY|flags)
	if errors.Is(err, syscall.EACCES) {
		f.racySum.Write([]byte(" unreadable\n")) // the command, as this user, cannot read it either
		return nil
	}
	if err != nil {
		return notServable("%s changed while guard read it", path)
	}
	defer syscall.Close(fd)
	var now syscall.Stat_t
	if syscall.Fstat(fd, &now) != nil || now.Mode&syscall.S_IFMT != syscall.S_IFREG || now.Ino != st.Ino || now.Dev != st.Dev {
		return notServable("%s changed while guard read it", path)
	}
	if f.buf == nil {
		f.buf = make([]byte, 64<<10)
		f.sum = sha256.New()
	}
	f.sum.Reset()
	for {
		n, err := syscall.Read(fd, f.buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return notServable("%s could not be read: %v", path, err)
		}
		if n == 0 {
			break
		}
		f.hashed += int64(n)
		if f.hashed > maxContentBytes {
			return notServable("more than %d MiB of files changed in the last %s: %s", maxContentBytes>>20, racyWindow, path)
		}
		f.sum.Write(f.buf[:n])
	}
	var out [3 + 2*sha256.Size]byte
	copy(out[:], " c ")
	hex.Encode(out[3:], f.sum.Sum(nil))
	f.racySum.Write(append(out[:], '\n'))
	return nil
}

// done returns the racy list with its digest.
func (f *fingerprinter) done() Racy {
	if len(f.racy.Paths) > 0 {
		f.racy.Sum = hex.EncodeToString(f.racySum.Sum(nil))
	}
	return f.racy
}

// walk hashes root and everything under it (following links), as the
// fingerprint of a directory outside git or of a watch path.
func (f *fingerprinter) walk(h hash.Hash, root string) error {
	if len(f.skip) > 0 && under(root, f.skip) {
		return nil
	}
	return f.entry(h, root, -1)
}

// read hashes one path the command reads: itself and, for a directory,
// its entries (everything under it when r.Deep). A glob stands for its
// literal directory, walked one level per glob component more.
func (f *fingerprinter) read(h hash.Hash, r Read) error {
	p, depth := r.Path, 1
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		// the directory the glob starts in, as written (a "..", after a
		// link, is the link's target's parent: no lexical cleaning)
		dir := "/"
		if j := strings.LastIndexByte(p[:i], '/'); j > 0 {
			dir = p[:j]
		}
		depth = strings.Count(p[len(dir):], "/") + 1
		if strings.Contains(p, "**") {
			depth = -1
		}
		p = dir
	}
	if r.Deep {
		depth = -1
	}
	fmt.Fprintf(h, "read %d %q\n", depth, r.Path)
	if err := pseudoFS(p); err != nil {
		return err
	}
	return f.entry(h, p, depth)
}

// Fingerprint describes the inputs a command in cwd may read, so that a
// cache entry is never served after they changed:
//
//   - inside a git work tree: HEAD, the index (the mode, object id and
//     stage of every tracked path), every untracked-not-ignored path,
//     info/exclude, and each of those paths as entry hashes it (above),
//     up to MaxGitEntries. The paths are a superset of what git ls-files
//     --cached --others --exclude-standard lists; they are read from the
//     repository's files (gitFingerprint), with one git process only as
//     the fallback;
//   - elsewhere: every entry under cwd, up to MaxFingerprintEntries;
//   - every watch path (a directory: everything under it);
//   - every path the argument model says the command reads (in.Reads),
//     wherever it is: outside the tree, or ignored by git in it.
//
// Past a bound, or where a path cannot stand for what the command reads,
// the error wraps ErrNotServable with the reason (see Reason).
func Fingerprint(in FingerprintInput) (string, Racy, error) {
	return fingerprint(in, racyWindow)
}

func fingerprint(in FingerprintInput, window time.Duration) (string, Racy, error) {
	now := in.Now
	if now.IsZero() {
		now = time.Now()
	}
	h := sha256.New()
	top := gitTop(in.Cwd)
	root := top
	if root == "" {
		root = in.Cwd
	}
	if err := pseudoFS(root); err != nil {
		return "", Racy{}, err
	}
	var f *fingerprinter
	if top != "" {
		f = newFingerprinter(now, window, in.Skip, MaxGitEntries)
		if err := gitFingerprint(f, h, top, in.Environ); err != nil {
			return "", Racy{}, err
		}
	} else {
		f = newFingerprinter(now, window, in.Skip, MaxFingerprintEntries)
		if err := f.walk(h, in.Cwd); err != nil {
			return "", Racy{}, fmt.Errorf("under %s: %w", in.Cwd, err)
		}
	}
	if err := fingerprintMore(f, h, in, root, top != ""); err != nil {
		return "", Racy{}, err
	}
	return hex.EncodeToString(h.Sum(nil)), f.done(), nil
}

// fingerprintMore hashes the watch paths and the reads. A read under a
// plain directory's walk (root, outside git) is in it already.
func fingerprintMore(f *fingerprinter, h hash.Hash, in FingerprintInput, root string, git bool) error {
	for _, w := range in.Watch {
		if !filepath.IsAbs(w) {
			w = filepath.Join(in.Cwd, w)
		}
		fmt.Fprintf(h, "watch %q\n", w)
		if err := f.walk(h, w); err != nil {
			return err
		}
	}
	for _, r := range in.Reads {
		if len(f.skip) > 0 && under(r.Path, f.skip) {
			return notServable("reads %s, guard's own, which changes with every command", r.Path)
		}
		if !git && (r.Path == root || strings.HasPrefix(r.Path, root+"/")) && !strings.Contains(r.Path, "/../") && !strings.HasSuffix(r.Path, "/..") {
			continue
		}
		if err := f.read(h, r); err != nil {
			return fmt.Errorf("reads %s: %w", r.Path, err)
		}
	}
	return nil
}
