package ccs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Names inside the cache directory ($XDG_CACHE_HOME/guard).
const (
	entriesDir  = "entries"     // servable runs, by key (hard links)
	logsDir     = "logs"        // full output of runs larger than store_max_inline
	hitsName    = "hits.log"    // one line per cache hit, imported for stats
	contextDB   = "context.db"  // SQLite: the index of every run
	importStamp = "spool.stamp" // when the lean guard last started an import
	cacheLock   = "context.lock"
)

// spoolImportSize is the size of the spool past which the lean guard asks
// guard-cli to import it; spoolImportWait bounds how often.
const (
	spoolImportSize = 8 << 20
	spoolImportWait = time.Minute
)

// A Cache is the output store's directory as the lean guard uses it, with
// no database: it writes run files, serves entries and takes the
// single-flight locks. guard-cli's ContextStore indexes the same
// directory in SQLite.
type Cache struct {
	dir      string
	importer func() // see SetImporter
}

// OpenCache returns the cache kept in dir. It does no I/O.
func OpenCache(dir string) *Cache { return &Cache{dir: dir} }

// Dir is the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// SetImporter gives the cache a function that starts an import of the
// spool into the database (guard-cli context --import), called when the
// spool has grown (at most once a minute). It must not wait.
func (c *Cache) SetImporter(fn func()) { c.importer = fn }

func (c *Cache) path(elem ...string) string {
	return filepath.Join(append([]string{c.dir}, elem...)...)
}

// ensure creates the cache directory and sub under it ("": none), mode 0700.
func (c *Cache) ensure(sub string) error {
	dirs := []string{c.dir}
	if sub != "" {
		dirs = append(dirs, c.path(sub))
	}
	for _, d := range dirs {
		if err := os.Mkdir(d, stateDirMode); err != nil && !errors.Is(err, fs.ErrExist) {
			if errors.Is(err, fs.ErrNotExist) {
				if err := os.MkdirAll(d, stateDirMode); err == nil {
					continue
				}
			}
			return fmt.Errorf("create cache directory: %w", explainFS(err))
		}
	}
	return nil
}

// Save stores a run: its file in the spool, for the database, and, when
// it may answer later runs, the same file (a hard link) under its key.
// Output must have gone through Capture.Output (redacted) already.
func (c *Cache) Save(r *Run, now time.Time) error {
	if r.ID == "" {
		r.ID = newRunID(now)
	}
	if r.Servable(r.Time) {
		if err := c.saveEntry(r); err != nil {
			return err
		}
	}
	size, err := appendSpool(c.dir, r)
	if errors.Is(err, fs.ErrNotExist) {
		// the first run: make the directory (not tried on every run)
		if err := c.ensure(""); err != nil {
			return err
		}
		size, err = appendSpool(c.dir, r)
	}
	if err != nil {
		return fmt.Errorf("store output: %w", err)
	}
	c.maybeImport(now, size)
	return nil
}

// saveEntry writes the run file a later run with the same key is served
// from, replacing the previous one atomically.
func (c *Cache) saveEntry(r *Run) error {
	if !validKey(r.Key) {
		return nil
	}
	if err := c.ensure(entriesDir); err != nil {
		return err
	}
	if err := writeRunFile(c.path(entriesDir, r.Key+".run"), r); err != nil {
		return fmt.Errorf("store cache entry: %w", err)
	}
	return nil
}

// maybeImport calls the importer when the spool has grown past
// spoolImportSize and no import was started in the last minute.
func (c *Cache) maybeImport(now time.Time, size int64) {
	if c.importer == nil || size < spoolImportSize {
		return
	}
	stamp := c.path(importStamp)
	if fi, err := os.Stat(stamp); err == nil && now.Sub(fi.ModTime()) < spoolImportWait {
		return
	}
	if err := os.WriteFile(stamp, nil, 0o600); err != nil {
		return
	}
	_ = os.Chtimes(stamp, now, now)
	c.importer()
}

// Lookup returns the entry stored under key, with its output, or nil when
// there is none (or it is damaged: a miss, never an error to the user).
// Whether it may be served is the caller's to ask (Run.Servable).
func (c *Cache) Lookup(key string) *Run {
	if !validKey(key) {
		return nil
	}
	r, err := ReadRunFile(c.path(entriesDir, key+".run"), true)
	if err != nil || r.Key != key {
		return nil
	}
	return r
}

func validKey(k string) bool {
	if len(k) != 64 {
		return false
	}
	for _, c := range []byte(k) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Flight is a single-flight lock on one key, held across processes.
type Flight struct{ f *os.File }

// Release lets the next guard waiting on the key go.
func (fl *Flight) Release() {
	if fl != nil && fl.f != nil {
		fl.f.Close()
	}
}

// Acquire takes the single-flight lock of key: the guard that gets it at
// once runs the command; the others wait (up to wait) for it to finish
// and then look the entry up. waited says whether another guard held it.
// Past wait, or when the lock cannot be taken at all, it returns nil and
// the caller runs the command itself.
func (c *Cache) Acquire(key string, wait time.Duration) (fl *Flight, waited bool) {
	if !validKey(key) || c.ensure(entriesDir) != nil {
		return nil, false
	}
	fd, err := openFD(c.path(entriesDir, key+".lock"), syscall.O_RDWR|syscall.O_CREAT)
	if err != nil {
		return nil, false
	}
	if retryEINTR(func() error { return syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) }) == nil {
		return &Flight{os.NewFile(uintptr(fd), key)}, false
	}
	if flockWait(fd, syscall.LOCK_EX, wait) != nil {
		closeFD(fd)
		return nil, true
	}
	return &Flight{os.NewFile(uintptr(fd), key)}, true
}

// Busy reports whether another guard holds key's single-flight lock (a
// refresh is under way).
func (c *Cache) Busy(key string) bool {
	fd, err := openFD(c.path(entriesDir, key+".lock"), syscall.O_RDWR|syscall.O_CREAT)
	if err != nil {
		return true
	}
	defer closeFD(fd)
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return true
	}
	return false
}

// NoteHit appends one line for a served hit (for guard context stats):
// the time, the run served, its bytes and the run time it saved.
func (c *Cache) NoteHit(r *Run, now time.Time) error {
	if err := c.ensure(""); err != nil {
		return err
	}
	line := fmt.Sprintf("%d %s %d %d\n", now.UnixNano(), r.ID, r.Bytes, r.DurationMS)
	fd, err := openFD(c.path(hitsName), syscall.O_WRONLY|syscall.O_CREAT|syscall.O_APPEND)
	if err != nil {
		return explainFS(err)
	}
	defer closeFD(fd)
	_, err = syscall.Write(fd, []byte(line))
	return err
}
