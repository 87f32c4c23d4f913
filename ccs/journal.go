package ccs

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// cutMark ends a field that was shortened to keep a record in one write.
const cutMark = " …[cut]"

// Append writes one record to the journal: the command and working
// directory are redacted again here (defence in depth), the record becomes
// one JSON line of at most 4 KiB, and that line is one O_APPEND write(2).
// Concurrent appenders, in any number of processes, never interleave or lose
// records. A zero Time is taken as now.
//
// An error means the record was not written (missing permission, read-only
// or full disk, …); it reads as a sentence the caller can show as a warning
// before carrying on. Nothing half-written is left behind that a later
// import would take for a record.
func (s *Store) Append(rec Record) error {
	if err := s.appendRecord(rec); err != nil {
		return fmt.Errorf("write audit record: %w", err)
	}
	return nil
}

func (s *Store) appendRecord(rec Record) error {
	rec.Command = s.red.String(rec.Command)
	rec.Cwd = s.red.String(rec.Cwd)
	rec.Agent = s.red.String(rec.Agent)
	rec.Project = s.red.String(rec.Project)
	if rec.Time.IsZero() {
		rec.Time = time.Now()
	}
	// In UTC: encoding a local time loads the local zone (tzdata), which
	// costs a fresh process 0.1-0.3 ms. Audit gives local times back.
	rec.Time = rec.Time.UTC()
	line, err := encodeRecord(rec)
	if err != nil {
		return err
	}
	if err := s.ensureDir(); err != nil {
		return err
	}
	rotated, err := s.appendLine(line, true)
	if !rotated {
		return err
	}
	// Others may fill the new journal before we reopen it; write anyway,
	// the next appender rotates. A rotation that failed (its lock held
	// past the bound, a database that cannot import) only leaves the
	// journal growing: the record is still written.
	_, err = s.appendLine(line, false)
	return err
}

// appendLine writes line under a shared lock, unless mayRotate is set and
// the journal is due for rotation: then it rotates instead and reports
// rotated so the caller tries again.
//
// The wait for the lock is bounded (lockWait). Past it, or when the lock
// file cannot be opened at all, the line is appended without the lock and
// nothing is rotated. That loses nothing: appenders share the lock, so only
// a rotation (or a stuck or hostile process) holds it exclusively; while
// it does no other rotation can run, and a line that lands in a journal
// being renamed is still imported, through the renamed file's inode (see
// rotate). Only a record whose write was held up across two whole
// rotations could be missed.
//
// It works on raw descriptors, not *os.File: os.OpenFile tries to register
// every file with the runtime's poller and flips its flags back and forth,
// which doubles the system calls of guard's hot path. Every open is
// O_NONBLOCK, so a FIFO planted at a name cannot block guard, and the
// journal must be a regular file (the fstat that reads its size says so).
func (s *Store) appendLine(line []byte, mayRotate bool) (rotated bool, err error) {
	lockPath := s.path(lockName)
	l, err := openFD(lockPath, syscall.O_RDWR|syscall.O_CREAT)
	if err != nil {
		l, _ = openFD(lockPath, syscall.O_RDONLY) // -1: append without the lock
	}
	defer func() { closeFD(l) }()
	if l >= 0 && flockWait(l, syscall.LOCK_SH, lockWait) != nil {
		closeFD(l)
		l = -1
	}
	if l < 0 {
		mayRotate = false // rotating needs the lock
	}
	path := s.path(journalName)
	f, err := openFD(path, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_CREAT)
	if err != nil {
		return false, explainFS(err)
	}
	defer func() { closeFD(f) }()
	var st syscall.Stat_t
	if err := syscall.Fstat(f, &st); err != nil {
		return false, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return false, notRegular(path, st.Mode)
	}
	if mayRotate && st.Size >= s.maxJournal {
		closeFD(f)
		closeFD(l)
		f, l = -1, -1 // closed: the number may be another file's by now
		return true, s.rotate()
	}
	var n int
	err = retryEINTR(func() (err error) { n, err = syscall.Write(f, line); return err })
	if err == nil && n < len(line) {
		err = syscall.ENOSPC // a short write to a regular file: the disk filled
	}
	if err != nil {
		if n > 0 {
			// End the torn line so the next record starts a line of its
			// own; the importer skips the torn one.
			syscall.Write(f, []byte{'\n'})
		}
		return false, explainFS(&fs.PathError{Op: "write", Path: path, Err: err})
	}
	return false, nil
}

// openFD opens path (mode 0600 if created) as a bare descriptor, closed
// on exec and non-blocking (a FIFO must never stall guard; for a regular
// file O_NONBLOCK changes nothing). Errors are *fs.PathError, as
// os.OpenFile's; ENXIO (a FIFO without a reader, opened for writing) and
// EISDIR read as "not a regular file".
func openFD(path string, flags int) (int, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = syscall.Open(path, flags|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0o600)
		return err
	})
	switch err {
	case nil:
		return fd, nil
	case syscall.ENXIO:
		return -1, notRegular(path, syscall.S_IFIFO)
	case syscall.EISDIR:
		return -1, notRegular(path, syscall.S_IFDIR)
	}
	return -1, &fs.PathError{Op: "open", Path: path, Err: err}
}

// lockWait bounds every wait for a lock in this package: a process that
// holds one for ever (a stuck guard, or anything that flocks the file) must
// not stall guard.
const lockWait = 2 * time.Second

// errLockHeld is what a lock wait that ran out of time wraps.
var errLockHeld = errors.New("held by another process")

// flockWait takes flock(2) how on fd, polling with LOCK_NB and a short
// backoff for at most wait (a blocking flock cannot be bounded). The first
// try costs one system call, as a blocking flock would.
func flockWait(fd, how int, wait time.Duration) error {
	var deadline time.Time
	pause := time.Millisecond
	for {
		err := retryEINTR(func() error { return syscall.Flock(fd, how|syscall.LOCK_NB) })
		if err != syscall.EWOULDBLOCK {
			return err
		}
		if deadline.IsZero() {
			deadline = time.Now().Add(wait)
		} else if time.Now().After(deadline) {
			return fmt.Errorf("%w for %s", errLockHeld, wait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// A notRegularError is a name that holds something other than a regular
// file where guard reads or writes one.
type notRegularError struct {
	path string
	kind string
}

func (e *notRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file (%s)", e.path, e.kind)
}

// notRegular describes path, whose file type (S_IFMT bits) is mode.
func notRegular(path string, mode uint32) error {
	return &notRegularError{path: path, kind: fileKind(mode)}
}

// fileKinds name what a path holds when it is not a regular file.
var fileKinds = [...]struct {
	mode uint32
	name string
}{
	{syscall.S_IFIFO, "a fifo"},
	{syscall.S_IFDIR, "a directory"},
	{syscall.S_IFSOCK, "a socket"},
	{syscall.S_IFCHR, "a character device"},
	{syscall.S_IFBLK, "a block device"},
	{syscall.S_IFLNK, "a symlink"},
	{syscall.S_IFREG, "a regular file"}, // where a directory should be
}

func fileKind(mode uint32) string {
	t := mode & syscall.S_IFMT
	for _, k := range fileKinds {
		if k.mode == t {
			return k.name
		}
	}
	return "an unknown kind of file"
}

// openRegular opens path with flags (plus O_CLOEXEC|O_NONBLOCK) as an
// *os.File and checks that it is a regular file. A missing file is an error
// that matches fs.ErrNotExist. For the files guard-cli reads and writes
// (request files, the journal when importing, markers); guard's own hot
// path uses openFD.
func openRegular(path string, flags int) (*os.File, error) {
	fd, err := openFD(path, flags)
	if err != nil {
		return nil, err
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		closeFD(fd)
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		closeFD(fd)
		return nil, notRegular(path, st.Mode)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// closeFD closes fd unless it is -1.
func closeFD(fd int) {
	if fd >= 0 {
		syscall.Close(fd)
	}
}

func retryEINTR(fn func() error) error {
	for {
		if err := fn(); err != syscall.EINTR {
			return err
		}
	}
}

// rotate renames a full journal to audit.jsonl.1, replacing the previous
// one, but only once everything in the previous one is in the database:
//
//  1. import what is new (without the journal lock, so appenders never
//     wait for SQLite);
//  2. take the lock exclusively, so no appender is between opening the
//     journal and writing to it;
//  3. if the stored import position is on the current journal (so the
//     previous one was read to its end), rename; lines appended after step 1
//     stay tracked through the renamed file's inode. Otherwise another
//     rotation came in between: go round again.
//
// If the database is unusable the journal is not rotated, and keeps
// growing, until it reaches maxBacklog times its limit: then it is rotated
// anyway and the never-imported records of the previous audit.jsonl.1 are
// lost, because the journal must not fill the disk.
//
// Without SQLite (see haveSQLite) steps 1 and 3 are the importer's: it is
// called, if set, and the journal is then only renamed here if it has grown
// past maxBacklog times its limit.
func (s *Store) rotate() error {
	if !haveSQLite {
		if fn := s.getImporter(); fn != nil {
			s.callImporter(fn)
		}
		_, err := s.renameJournal(false)
		return err
	}
	for range 3 {
		importErr := s.importJournal()
		done, err := s.renameJournal(importErr == nil)
		if done || err != nil {
			return err
		}
	}
	return nil // still behind: the next append tries again
}

// callImporter calls fn unless another appender is calling it right now
// or one was called less than importEvery (importBackoff) ago: a failing importer (a
// child process) must not be started again by every command guard runs.
// The time of the last call is audit.import's modification time.
func (s *Store) callImporter(fn func() error) {
	f, err := openRegular(s.path(importName), syscall.O_RDWR|syscall.O_CREAT)
	if err != nil {
		return
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return // another appender is importing
	}
	if fi, err := f.Stat(); err != nil || fi.Size() > 0 && time.Since(fi.ModTime()) < s.importEvery {
		return
	}
	if _, err := f.WriteAt([]byte("import\n"), 0); err != nil {
		return
	}
	fn() // a failure only means the journal grows for now
	now := time.Now()
	os.Chtimes(f.Name(), now, now)
}

// Import copies the journal lines written since the last import into the
// database and, if the journal has passed its size limit, rotates it, with
// the same protocol (and locks) as an Append that notices a full journal.
// It is what an importer given to SetImporter should run, in a binary with
// SQLite. Without SQLite it fails with a *DBError.
func (s *Store) Import() error {
	if err := s.importJournal(); err != nil {
		return fmt.Errorf("import audit journal: %w", err)
	}
	fi, err := os.Stat(s.path(journalName))
	if err != nil || fi.Size() < s.maxJournal {
		return nil // missing or not due
	}
	if err := s.rotate(); err != nil {
		return fmt.Errorf("import audit journal: %w", err)
	}
	return nil
}

// maxBacklog is how many times its size limit the journal may grow while
// the database cannot take its records.
const maxBacklog = 4

// renameJournal does steps 2 and 3 of rotate. It reports done when no
// rotation is due any more.
func (s *Store) renameJournal(imported bool) (done bool, err error) {
	l, err := s.lock(syscall.LOCK_EX)
	if err != nil {
		return false, err
	}
	defer l.Close()
	cur, err := openJournal(s.path(journalName))
	if err != nil || cur == nil {
		return true, err
	}
	defer cur.close()
	fi, err := cur.f.Stat()
	if err != nil || fi.Size() < s.maxJournal {
		return true, err // another process rotated it already
	}
	if !(imported && s.positionOn(cur)) && fi.Size() < maxBacklog*s.maxJournal {
		return false, nil
	}
	if err := os.Rename(s.path(journalName), s.path(oldJournalName)); err != nil {
		return false, fmt.Errorf("rotate journal: %w", explainFS(err))
	}
	return true, nil
}

// positionOn reports whether the stored import position is in j. It only
// reads, outside any transaction: an importer may hold the write lock while
// it waits for the journal lock that the caller holds.
func (s *Store) positionOn(j *journal) bool {
	db, err := s.database()
	if err != nil {
		return false
	}
	var ino uint64
	var head []byte
	if err := db.QueryRow(`SELECT inode, head FROM journal_position WHERE id = 1`).Scan(&ino, &head); err != nil {
		return false
	}
	return j.matches(ino, head)
}

// lock takes the journal lock (syscall.LOCK_SH or LOCK_EX). Appenders and
// importers share it; rotation takes it alone. Close the file to unlock.
func (s *Store) lock(how int) (*os.File, error) {
	return flockFile(s.path(lockName), "journal", how)
}

// flockFile opens (creating it if it can) the lock file at path and takes
// flock(2) on it; what names the lock in errors. Close the file to unlock.
// The wait is bounded (lockWait): past it the error says the lock is held.
func flockFile(path, what string, how int) (*os.File, error) {
	fd, err := openFD(path, syscall.O_RDWR|syscall.O_CREAT)
	if err != nil {
		// A read-only state directory can still be read under a lock.
		var rerr error
		if fd, rerr = openFD(path, syscall.O_RDONLY); rerr != nil {
			return nil, fmt.Errorf("open %s lock: %w", what, explainFS(err))
		}
	}
	if err := flockWait(fd, how, lockWait); err != nil {
		closeFD(fd)
		return nil, fmt.Errorf("lock %s %s: %w", what, path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// encodeRecord returns rec as one JSON line of at most maxRecord bytes,
// shortening the longest text field (usually the command) if it must.
func encodeRecord(rec Record) ([]byte, error) {
	return encodeRecordWith(rec, marshalRecord)
}

// encodeRecordWith is encodeRecord with the encoder given (tests compare
// marshalRecord with json.Marshal).
func encodeRecordWith(rec Record, marshal func(Record) ([]byte, error)) ([]byte, error) {
	for range 4 { // each round shortens one field
		line, err := marshal(rec)
		if err != nil {
			return nil, fmt.Errorf("encode audit record: %w", err)
		}
		if len(line)+1 <= maxRecord {
			return append(line, '\n'), nil
		}
		longest := &rec.Command
		for _, f := range []*string{&rec.Cwd, &rec.Agent, &rec.Rule, &rec.Decision, &rec.Mode, &rec.Answer, &rec.Via, &rec.HMAC, &rec.Project} {
			if len(*f) > len(*longest) {
				longest = f
			}
		}
		// Escaping makes the encoded length hard to predict: search for
		// the longest cut that fits.
		full := *longest
		lo, hi := 0, len(full)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			*longest = cutString(full, mid) + cutMark
			if b, err := marshal(rec); err == nil && len(b)+1 <= maxRecord {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		*longest = cutString(full, lo) + cutMark
	}
	return nil, fmt.Errorf("encode audit record: longer than %d bytes even when cut", maxRecord)
}

// cutString returns at most n bytes of s, not splitting a UTF-8 sequence.
func cutString(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// lostName is the marker that counts audit records that could not be
// written: "N TIME\n", the count and the time of the last one (RFC 3339).
const lostName = "audit-lost"

// Probe checks, without writing a record, that one could be appended now:
// the state directory exists (it is created if missing), the journal
// opens for appending as a regular file, and a record's worth of bytes
// written where the next record would go lands. That last part is a real
// write: maxRecord bytes at the journal's end offset, into an unnamed
// temporary file in the state directory (O_TMPFILE, gone when closed), so
// a file size limit (ulimit -f) that the journal would hit, or a full
// disk, fails the probe as it would fail the record. Where O_TMPFILE is
// not supported, the limit is compared with the journal's size instead.
// guard calls it before running a command when audit_required is set. A
// record can still be lost after a successful Probe (the disk fills while
// the command runs); NoteLost counts that.
func (s *Store) Probe() error {
	if err := s.ensureDir(); err != nil {
		return err
	}
	f, err := openRegular(s.path(journalName), syscall.O_WRONLY|syscall.O_APPEND|syscall.O_CREAT)
	if err != nil {
		return explainFS(err)
	}
	fi, err := f.Stat()
	f.Close()
	if err != nil {
		return explainFS(err)
	}
	return probeWrite(s.dir, fi.Size())
}

// probeWrite writes maxRecord bytes at offset end of an unnamed file in dir.
func probeWrite(dir string, end int64) error {
	fd, err := syscall.Open(dir, unix.O_TMPFILE|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		var lim syscall.Rlimit
		if syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim) == nil && lim.Cur != unix.RLIM_INFINITY && uint64(end)+maxRecord > lim.Cur {
			return fmt.Errorf("the file size limit (ulimit -f) of %d bytes is below the audit journal's next record", lim.Cur)
		}
		return nil // no unnamed files here: the open above is all there is to check
	}
	defer closeFD(fd)
	var buf [maxRecord]byte
	for done := 0; done < len(buf) && err == nil; {
		// a short write goes on: the next one says why (EFBIG, ENOSPC)
		var n int
		err = retryEINTR(func() (err error) { n, err = syscall.Pwrite(fd, buf[done:], end+int64(done)); return err })
		if err == nil && n == 0 {
			err = syscall.ENOSPC
		}
		done += n
	}
	if errors.Is(err, syscall.EFBIG) {
		return fmt.Errorf("the file size limit (ulimit -f) keeps the next record out of the audit journal in %s", dir)
	}
	if err != nil {
		return explainFS(&fs.PathError{Op: "write a test record in", Path: dir, Err: err})
	}
	return nil
}

// NoteLost counts one audit record that could not be written, at time at,
// in the marker file (under its own bounded lock). When the marker cannot
// be written either (a file size limit of 0 lets no byte into any file), the
// loss is counted as an empty file in audit-lost.d, named by the time: an
// empty file takes no byte that a size limit counts. It fails, too, when the
// state directory cannot be written at all.
func (s *Store) NoteLost(at time.Time) error {
	err := s.noteLost(at)
	if err == nil {
		return nil
	}
	if err2 := s.noteLostEntry(at); err2 != nil {
		return err
	}
	return nil
}

func (s *Store) noteLost(at time.Time) error {
	f, err := openRegular(s.path(lostName), syscall.O_RDWR|syscall.O_CREAT)
	if err != nil {
		return fmt.Errorf("note a lost audit record: %w", explainFS(err))
	}
	defer f.Close()
	if err := flockWait(int(f.Fd()), syscall.LOCK_EX, lockWait); err != nil {
		return fmt.Errorf("note a lost audit record: lock %s: %w", f.Name(), err)
	}
	n, _, _ := readLost(f)
	line := fmt.Sprintf("%d %s\n", n+1, at.UTC().Format(time.RFC3339))
	// Written before the old text is cut: a write that fails leaves the
	// count as it was, never an empty marker.
	if _, err = f.WriteAt([]byte(line), 0); err == nil {
		err = f.Truncate(int64(len(line)))
	}
	if err != nil {
		return fmt.Errorf("note a lost audit record: %w", explainFS(err))
	}
	return nil
}

// lostDirName holds one empty file per lost record that could not be
// counted in the marker: NANOS-PID-RANDOM, NANOS the Unix time in
// nanoseconds of the loss.
const lostDirName = "audit-lost.d"

func (s *Store) noteLostEntry(at time.Time) error {
	dir := s.path(lostDirName)
	if err := os.Mkdir(dir, stateDirMode); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	var r [4]byte
	_, _ = rand.Read(r[:])
	name := fmt.Sprintf("%d-%d-%x", at.UnixNano(), os.Getpid(), r)
	fd, err := openFD(filepath.Join(dir, name), syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL)
	if err != nil {
		return err
	}
	closeFD(fd)
	return nil
}

// Lost reports how many audit records could not be written, and when the
// last one was; 0 when none were (or the marker is missing).
func (s *Store) Lost() (int, time.Time, error) {
	n, last, err := s.lostMarker()
	if err != nil {
		return 0, time.Time{}, err
	}
	ents, err := os.ReadDir(s.path(lostDirName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, time.Time{}, fmt.Errorf("read lost-record count: %w", err)
	}
	for _, e := range ents {
		n++
		nanos, _, _ := strings.Cut(e.Name(), "-")
		if v, err := strconv.ParseInt(nanos, 10, 64); err == nil {
			if t := time.Unix(0, v); t.After(last) {
				last = t
			}
		}
	}
	return n, last, nil
}

func (s *Store) lostMarker() (int, time.Time, error) {
	f, err := openRegular(s.path(lostName), syscall.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, time.Time{}, nil
	}
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("read lost-record count: %w", err)
	}
	defer f.Close()
	return readLost(f)
}

// readLost parses the marker; a damaged one counts as one loss, time unknown.
func readLost(f *os.File) (int, time.Time, error) {
	b := make([]byte, 128)
	n, _ := f.ReadAt(b, 0)
	if n == 0 {
		return 0, time.Time{}, nil
	}
	var count int
	var when string
	if _, err := fmt.Sscanf(string(b[:n]), "%d %s", &count, &when); err != nil || count < 1 {
		return 1, time.Time{}, nil
	}
	t, _ := time.Parse(time.RFC3339, when)
	return count, t, nil
}
