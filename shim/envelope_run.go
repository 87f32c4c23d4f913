package shim

// Running Claude Code's envelope: guard handles the envelope's two files
// itself (issue 22 §5).
//
// The envelope sources Claude's shell snapshot by path and ends with
// "pwd -P >| /tmp/claude-HEX-cwd". Run as it came, both follow links: an
// agent could plant a link at the cwd file pointing at the snapshot, cd
// into a directory whose name holds a newline and a command, and Claude's
// next envelope would write that name into the snapshot, which the one
// after sources, unjudged. So guard rewrites the two links
// (classify.Envelope.Rewrite) and does their work itself:
//
//   - The snapshot is opened without following a link, must be a regular
//     file of the user's, writable by nobody else, with one name, and no
//     larger than maxSnapshot, in a directory of the user's that is no
//     link and that nobody else may write; what was read is what bash sources (a
//     sealed memfd, /dev/fd/4), so a change after the check changes
//     nothing. guard keeps a note of each snapshot it sources (device,
//     inode, size, mtime, ctime; snapshots/ in the state directory),
//     made when its creation script ran or, failing that, the first time
//     an envelope sourced it: Claude writes a snapshot once, at the start
//     of a session, so one that differs from its note was rewritten
//     behind guard's back, and the envelope is refused. A snapshot that is
//     missing is not sourced (as bash's "source … || true" would not).
//   - "pwd -P" writes to a memfd (descriptor 3) instead of the cwd file.
//     After the command guard checks what came (one absolute path and a
//     newline, nothing else: a directory name with a newline is refused)
//     and writes it to the cwd file through a descriptor opened no-follow
//     on a regular file the user owns with one name (created 0600 when
//     missing). A cwd file that is refused is said in one warning; the
//     command's status stands, and Claude keeps the directory it had.
//
// Descriptors 3 and 4 are closed for the payload's eval.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
)

// ruleSnapshot refuses an envelope whose snapshot guard will not source.
const ruleSnapshot = "agent-snapshot"

// maxSnapshot bounds a snapshot guard reads (Claude's are tens of KiB).
const maxSnapshot = 16 << 20

// snapshotNotesDir holds guard's notes of the snapshots it sourced, in the
// state directory: one file per snapshot, named by the hash of its path.
const snapshotNotesDir = "snapshots"

// Descriptors of the rewritten envelope.
const (
	envCwdFD  = 3
	envSnapFD = 4
)

// envelopeFiles is what guard checked before a Claude envelope runs.
type envelopeFiles struct {
	env      classify.Envelope
	snapshot []byte // the snapshot as checked and noted
	hasSnap  bool   // there is a snapshot to source (it may be empty)
}

// checkEnvelope reads and checks the snapshot a Claude envelope sources.
func (a *app) checkEnvelope(e classify.Envelope) (*envelopeFiles, error) {
	ef := &envelopeFiles{env: e}
	if e.Sourced == "" {
		return ef, nil
	}
	b, st, err := readSnapshot(e.Sourced)
	if errors.Is(err, fs.ErrNotExist) {
		return ef, nil // not sourced, as bash's source … || true would not
	}
	if err != nil {
		return nil, err
	}
	if err := a.noteSnapshot(e.Sourced, st); err != nil {
		return nil, err
	}
	ef.snapshot, ef.hasSnap = b, true
	return ef, nil
}

// readSnapshot opens the snapshot without following a link, checks it and
// reads it whole.
func readSnapshot(path string) ([]byte, *unix.Stat_t, error) {
	// its directory too: a link there would point the path elsewhere
	var dst unix.Stat_t
	if dir := filepath.Dir(path); unix.Lstat(dir, &dst) == nil {
		switch {
		case dst.Mode&unix.S_IFMT != unix.S_IFDIR:
			return nil, nil, fmt.Errorf("shell snapshot directory %s is not a directory (a symbolic link?)", dir)
		case int(dst.Uid) != os.Geteuid() || dst.Mode&0o022 != 0:
			return nil, nil, fmt.Errorf("shell snapshot directory %s is another user's or writable by others", dir)
		}
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if err == unix.ELOOP {
			return nil, nil, fmt.Errorf("shell snapshot %s is a symbolic link; guard sources only the file Claude wrote", path)
		}
		if err == unix.ENOENT {
			return nil, nil, fs.ErrNotExist
		}
		return nil, nil, fmt.Errorf("open shell snapshot %s: %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, nil, fmt.Errorf("stat shell snapshot %s: %w", path, err)
	}
	if why := ownFileProblem(&st); why != "" {
		return nil, nil, fmt.Errorf("shell snapshot %s %s", path, why)
	}
	if st.Mode&0o022 != 0 {
		return nil, nil, fmt.Errorf("shell snapshot %s is writable by others (mode %o)", path, st.Mode&0o777)
	}
	if st.Size > maxSnapshot {
		return nil, nil, fmt.Errorf("shell snapshot %s is larger than %d MiB", path, maxSnapshot>>20)
	}
	b, err := readFD(fd, st.Size)
	if err != nil {
		return nil, nil, fmt.Errorf("read shell snapshot %s: %w", path, err)
	}
	var after unix.Stat_t
	if err := unix.Fstat(fd, &after); err != nil || snapshotNote(&after) != snapshotNote(&st) || int64(len(b)) != st.Size {
		return nil, nil, fmt.Errorf("shell snapshot %s changed while guard read it", path)
	}
	return b, &st, nil
}

// ownFileProblem says what is wrong with a file guard reads or writes for
// the agent: it must be a regular file of the user's with one name.
func ownFileProblem(st *unix.Stat_t) string {
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return "is not a regular file"
	case int(st.Uid) != os.Geteuid():
		return "belongs to another user (uid " + strconv.Itoa(int(st.Uid)) + ")"
	case st.Nlink != 1:
		return "has other names (hard links)"
	}
	return ""
}

// snapshotNote is what guard remembers of a snapshot: a rewrite changes it.
func snapshotNote(st *unix.Stat_t) string {
	return fmt.Sprintf("v1 %d %d %d %d.%09d %d.%09d", st.Dev, st.Ino, st.Size,
		st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec)
}

// snapshotNotePath is the note's file for the snapshot at path.
func (a *app) snapshotNotePath(path string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(grants.PathsFromEnv(a.env.getenv).StateDir, snapshotNotesDir, hex.EncodeToString(sum[:16]))
}

// noteSnapshot compares the snapshot with guard's note of it, and makes
// the note the first time. A note that cannot be read or written is no
// reason to refuse: the snapshot passed every other check.
func (a *app) noteSnapshot(path string, st *unix.Stat_t) error {
	note := snapshotNote(st)
	file := a.snapshotNotePath(path)
	if b, err := readSmallFile(file, 4096); err == nil {
		first, _, _ := strings.Cut(string(b), "\n")
		if first != note {
			return fmt.Errorf("shell snapshot %s changed after guard first sourced it (Claude writes it once per session); "+
				"start a new Claude session, or remove the snapshot", path)
		}
		return nil
	}
	writeNote(file, note+"\n"+path+"\n")
	return nil
}

// recordSnapshot notes a snapshot right after Claude's creation script
// wrote it, so that no later rewrite is ever first seen.
func (a *app) recordSnapshot(path string) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || ownFileProblem(&st) != "" {
		return
	}
	writeNote(a.snapshotNotePath(path), snapshotNote(&st)+"\n"+path+"\n")
	pruneNotes(filepath.Dir(a.snapshotNotePath(path)))
}

// writeNote replaces a note atomically (best effort).
func writeNote(file, text string) {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.WriteString(text)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// pruneNotes removes the notes of snapshots that are gone (Claude removes
// a session's snapshot with it), at most maxPrune of them a time.
func pruneNotes(dir string) {
	const maxPrune = 1000
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for i, e := range ents {
		if i >= maxPrune {
			return
		}
		file := filepath.Join(dir, e.Name())
		b, err := readSmallFile(file, 4096)
		if err != nil {
			continue
		}
		_, path, _ := strings.Cut(strings.TrimSuffix(string(b), "\n"), "\n")
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			os.Remove(file)
		}
	}
}

// readSmallFile reads a regular file of at most max bytes, without
// following a link or blocking.
func readSmallFile(path string, max int64) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, errors.New("not a regular file")
	}
	return readFD(fd, min(st.Size, max))
}

// readFD reads up to n bytes of a regular file from its start, with bare
// system calls: os.NewFile would set up the runtime's poller for a
// descriptor opened O_NONBLOCK, a cost paid on every envelope.
func readFD(fd int, n int64) ([]byte, error) {
	b := make([]byte, n)
	got := 0
	for got < len(b) {
		m, err := unix.Pread(fd, b[got:], int64(got))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m == 0 {
			break
		}
		got += m
	}
	return b[:got], nil
}

// runEnvelope runs a Claude envelope with its files handled by guard (see
// the top of this file), and returns guard's exit status.
func (a *app) runEnvelope(j job, lim limits, ef *envelopeFiles, textAt int) int {
	cwdFD, err := unix.MemfdCreate("guard-cwd", unix.MFD_CLOEXEC)
	if err != nil {
		a.errorf("run the agent's envelope: %v", err)
		return ExitFailure
	}
	cwdOut := os.NewFile(uintptr(cwdFD), "guard-cwd")
	defer cwdOut.Close()
	extra := []*os.File{cwdOut}
	snapFD := -1
	if ef.hasSnap {
		snap, err := sealedCopy(ef.snapshot)
		if err != nil {
			a.errorf("run the agent's envelope: copy the shell snapshot: %v", err)
			return ExitFailure
		}
		defer snap.Close()
		extra, snapFD = append(extra, snap), envSnapFD
	}
	text, ok := ef.env.Rewrite(snapFD, envCwdFD)
	if !ok || textAt >= len(j.spec.Argv) {
		a.errorf("run the agent's envelope: it has no cwd file to hand over")
		return ExitFailure
	}
	j.spec.Argv = append([]string(nil), j.spec.Argv...)
	j.spec.Argv[textAt] = text
	j.spec.Extra = extra
	exit := a.runJob(j, lim)
	if err := writeCwdFile(ef.env.CwdFile, cwdOut); err != nil {
		fmt.Fprintf(a.env.Stderr, "guard: warning: the working directory was not passed on to the agent: %s\n", oneLine(a.eng.redact(err.Error())))
	}
	return exit
}

// sealedCopy is b in a memfd nobody can change any more.
func sealedCopy(b []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate("guard-snapshot", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "guard-snapshot")
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, unix.F_SEAL_SEAL|unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// maxCwdLine bounds what pwd -P may have written: a path and a newline.
const maxCwdLine = unix.PathMax + 1

// writeCwdFile passes on what "pwd -P" wrote into out: nothing when it did
// not run (the command failed, as the && chain would have it), else one
// absolute path and a newline, written to the cwd file through a
// no-follow descriptor on the user's own regular file.
func writeCwdFile(path string, out *os.File) error {
	buf := make([]byte, maxCwdLine+1)
	n, err := out.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return fmt.Errorf("read the working directory: %w", err)
	}
	line := buf[:n]
	if len(line) == 0 {
		return nil
	}
	dir, rest, ok := bytes.Cut(line, []byte{'\n'})
	switch {
	case len(line) > maxCwdLine:
		return errors.New("the working directory's name is longer than PATH_MAX")
	case !ok || len(rest) != 0:
		return errors.New("the working directory's name holds a newline")
	case len(dir) == 0 || dir[0] != '/' || bytes.IndexByte(dir, 0) >= 0:
		return errors.New("the working directory is not an absolute path")
	}
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o600)
	if err != nil {
		if err == unix.ELOOP {
			return fmt.Errorf("the agent's cwd file %s is a symbolic link", path)
		}
		return fmt.Errorf("open the agent's cwd file %s: %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("stat the agent's cwd file %s: %w", path, err)
	}
	if why := ownFileProblem(&st); why != "" {
		return fmt.Errorf("the agent's cwd file %s %s", path, why)
	}
	if err := unix.Ftruncate(fd, 0); err != nil {
		return fmt.Errorf("write the agent's cwd file %s: %w", path, err)
	}
	for w := 0; w < len(line); {
		m, err := unix.Pwrite(fd, line[w:], int64(w))
		if err == syscall.EINTR {
			continue
		}
		if err == nil && m == 0 {
			err = syscall.EIO
		}
		if err != nil {
			return fmt.Errorf("write the agent's cwd file %s: %w", path, err)
		}
		w += m
	}
	return nil
}
