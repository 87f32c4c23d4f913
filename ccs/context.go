package ccs

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The context database (context.db in the cache directory) indexes every
// run the lean guard spooled, for guard context: list, show, clear and
// stats. It is guard-cli's alone (SQLite is cgo); the lean guard serves
// hits from the entry files and never opens it.

// contextSchemaVersion is PRAGMA user_version of context.db.
const contextSchemaVersion = 2

const contextSchema = `
CREATE TABLE IF NOT EXISTS runs (
	id           TEXT PRIMARY KEY,
	time         INTEGER NOT NULL, -- start, unix nanoseconds
	agent        TEXT NOT NULL,
	cwd          TEXT NOT NULL,
	root         TEXT NOT NULL,
	command      TEXT NOT NULL,    -- redacted
	exit         INTEGER NOT NULL,
	duration_ms  INTEGER NOT NULL,
	key          TEXT NOT NULL,    -- cache key, '' when no [[cache]] rule covered the run
	rule         TEXT NOT NULL,
	expires      INTEGER NOT NULL, -- unix ns when the entry stops being served; 0: never served
	redacted     INTEGER NOT NULL,
	truncated    INTEGER NOT NULL,
	bytes        INTEGER NOT NULL,
	stdout_bytes INTEGER NOT NULL,
	stderr_bytes INTEGER NOT NULL,
	output       BLOB NOT NULL,    -- chunks (stream, length, bytes), cut at store_max_inline
	output_cut   INTEGER NOT NULL, -- the inline copy is cut short: the whole is in log
	log          TEXT NOT NULL,    -- file under logs/ with the whole output, '' when none
	last_used    INTEGER NOT NULL,
	hits         INTEGER NOT NULL DEFAULT 0,
	uncached     TEXT NOT NULL DEFAULT '' -- why a run a [[cache]] rule matched is not cached
);
CREATE INDEX IF NOT EXISTS runs_time ON runs (time);
CREATE INDEX IF NOT EXISTS runs_used ON runs (last_used);
CREATE TABLE IF NOT EXISTS hits (
	time     INTEGER NOT NULL,
	run_id   TEXT NOT NULL,
	bytes    INTEGER NOT NULL,
	saved_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
	name  TEXT PRIMARY KEY,
	value INTEGER NOT NULL
);
`

// contextMigrations bring context.db of version i+1 to version i+2.
var contextMigrations = []string{
	`ALTER TABLE runs ADD COLUMN uncached TEXT NOT NULL DEFAULT ''`,
}

// pruneEvery throttles pruning: at most once a minute unless forced.
const pruneEvery = time.Minute

// Limits are the store's size limits (grants.Context's store_max_*).
type Limits struct {
	MaxInline int64 // output bytes kept in a row; the rest in a log file
	MaxLogs   int64 // all log files together
	MaxDB     int64 // the database's used size
}

// A ContextStore is the context database of one cache directory.
type ContextStore struct {
	dir    string
	limits Limits
	now    func() time.Time

	mu       sync.Mutex
	db       *sql.DB
	warnings []string
}

// OpenContext returns the context store kept in dir (the cache directory).
// It does no I/O.
func OpenContext(dir string, l Limits, now func() time.Time) *ContextStore {
	if now == nil {
		now = time.Now
	}
	return &ContextStore{dir: dir, limits: l, now: now}
}

// Warnings are what the store did on its own that a human should know
// (a damaged database moved aside).
func (cs *ContextStore) Warnings() []string { return cs.warnings }

// Close releases the database.
func (cs *ContextStore) Close() error {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.db == nil {
		return nil
	}
	err := cs.db.Close()
	cs.db = nil
	return err
}

func (cs *ContextStore) path(elem ...string) string {
	return filepath.Join(append([]string{cs.dir}, elem...)...)
}

// database opens context.db on first use. A damaged one is moved aside
// (context.db.damaged-TIME) with a warning, and a new one is made.
func (cs *ContextStore) database() (*sql.DB, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.db != nil {
		return cs.db, nil
	}
	if err := OpenCache(cs.dir).ensure(""); err != nil {
		return nil, err
	}
	db, err := openContextDB(cs.path(contextDB))
	if err != nil && damaged(err) {
		aside := cs.path(fmt.Sprintf("%s.damaged-%d", contextDB, cs.now().Unix()))
		for _, sfx := range []string{"", "-wal", "-shm"} {
			_ = os.Rename(cs.path(contextDB)+sfx, aside+sfx)
		}
		cs.warnings = append(cs.warnings, fmt.Sprintf("the context database was damaged: moved it to %s and started a new one", aside))
		db, err = openContextDB(cs.path(contextDB))
	}
	if err != nil {
		return nil, err
	}
	cs.db = db
	return db, nil
}

// damaged reports whether err says the database file is not a usable
// SQLite database.
func damaged(err error) bool {
	var de *DBError
	return errors.As(err, &de) && (de.Problem == "is damaged" || strings.HasPrefix(de.Problem, "is not an SQLite"))
}

func openContextDB(path string) (*sql.DB, error) {
	return openSQLite(path, "context database", applyContextSchema)
}

func applyContextSchema(db *sql.DB) error {
	return migrate(db, "context database", contextSchema, contextMigrations, contextSchemaVersion)
}

// tx runs fn in one write transaction, retried while busy.
func (cs *ContextStore) tx(fn func(*sql.Tx) error) error {
	db, err := cs.database()
	if err != nil {
		return err
	}
	return inTx(db, cs.path(contextDB), fn)
}

// encodeOutput lays chunks out for the output column, cut at max bytes of
// output; cut says whether anything was left out.
func encodeOutput(chunks []Chunk, maxBytes int64) (out []byte, cut bool) {
	var b bytes.Buffer
	var n int64
	var hdr [5]byte
	for _, c := range chunks {
		d := c.Data
		if n+int64(len(d)) > maxBytes {
			d, cut = d[:maxBytes-n], true
		}
		if len(d) > 0 {
			hdr[0] = byte(c.Stream)
			binary.BigEndian.PutUint32(hdr[1:], uint32(len(d)))
			b.Write(hdr[:])
			b.Write(d)
			n += int64(len(d))
		}
		if cut {
			break
		}
	}
	return b.Bytes(), cut
}

func decodeOutput(b []byte) []Chunk {
	var out []Chunk
	for len(b) >= 5 {
		n := int(binary.BigEndian.Uint32(b[1:5]))
		if 5+n > len(b) {
			break
		}
		out = append(out, Chunk{Stream: int(b[0]), Data: b[5 : 5+n]})
		b = b[5+n:]
	}
	return out
}

// Import moves what the lean guard spooled into the database: every run
// (a run larger than MaxInline gets a log file with its whole output), and
// the hits noted since the last import. Then it prunes (throttled).
func (cs *ContextStore) Import() error {
	if _, err := os.Stat(cs.dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if _, err := cs.database(); err != nil {
		return err
	}
	lock, err := flockFile(cs.path(cacheLock), "context store", syscall.LOCK_EX)
	if err != nil {
		return err
	}
	defer lock.Close()
	aside, err := takeSpool(cs.dir)
	if err != nil {
		return err
	}
	if aside != "" {
		var runs []*Run
		err := readSpool(aside, func(r *Run) error {
			runs = append(runs, r)
			if len(runs) < 200 {
				return nil
			}
			err := cs.importRuns(runs)
			runs = runs[:0]
			return err
		})
		if err == nil {
			err = cs.importRuns(runs)
		}
		if err != nil {
			return err
		}
		os.Remove(aside)
	}
	if err := cs.importHits(); err != nil {
		return err
	}
	return cs.prune(false)
}

func (cs *ContextStore) importRuns(runs []*Run) error {
	if len(runs) == 0 {
		return nil
	}
	// the whole output of a run larger than MaxInline goes to its log first,
	// so that a row never names a log that is not there
	logs := make([]string, len(runs))
	for i, r := range runs {
		if r.Bytes <= cs.limits.MaxInline {
			continue
		}
		if err := OpenCache(cs.dir).ensure(logsDir); err == nil {
			if writeRunFile(cs.path(logsDir, r.ID+".run"), r) == nil {
				logs[i] = r.ID + ".run"
			}
		}
	}
	return cs.tx(func(tx *sql.Tx) error {
		for i, r := range runs {
			out, cut := encodeOutput(r.Chunks, cs.limits.MaxInline)
			var so, se int64
			for _, c := range r.Chunks {
				if c.Stream == Stdout {
					so += int64(len(c.Data))
				} else {
					se += int64(len(c.Data))
				}
			}
			var expires int64
			if r.Servable(r.Time) {
				ttl := r.TTL
				if r.Exit != 0 {
					ttl = min(r.TTL, r.CacheFailures)
				}
				expires = r.Time.Add(ttl).UnixNano()
			}
			_, err := tx.Exec(`INSERT OR IGNORE INTO runs (id, time, agent, cwd, root, command, exit, duration_ms, key, rule,
				expires, redacted, truncated, bytes, stdout_bytes, stderr_bytes, output, output_cut, log, last_used, uncached)
				VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
				r.ID, r.Time.UnixNano(), r.Agent, r.Cwd, r.Root, r.Command, r.Exit, r.DurationMS, r.Key, r.Rule,
				expires, r.Redacted, r.Truncated, r.Bytes, so, se, out, cut, logs[i], r.Time.UnixNano(), r.Uncached)
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// importHits moves the hits noted since the last import into the database.
func (cs *ContextStore) importHits() error {
	src := cs.path(hitsName)
	tmp := src + ".import"
	if err := os.Rename(src, tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("import hits: %w", explainFS(err))
	}
	f, err := openRegular(tmp, syscall.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	type hit struct {
		t, bytes, ms int64
		id           string
	}
	var hits []hit
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var h hit
		if _, err := fmt.Sscanf(sc.Text(), "%d %s %d %d", &h.t, &h.id, &h.bytes, &h.ms); err == nil {
			hits = append(hits, h)
		}
	}
	err = cs.tx(func(tx *sql.Tx) error {
		for _, h := range hits {
			if _, err := tx.Exec(`INSERT INTO hits (time, run_id, bytes, saved_ms) VALUES (?,?,?,?)`, h.t, h.id, h.bytes, h.ms); err != nil {
				return err
			}
			if _, err := tx.Exec(`UPDATE runs SET hits = hits + 1, last_used = max(last_used, ?) WHERE id = ?`, h.t, h.id); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		os.Remove(tmp)
	}
	return err
}

// A RunQuery selects runs. Zero fields select everything.
type RunQuery struct {
	ID        string // one run; "last": the newest
	Root      string // only runs in this project root
	Limit     int
	OlderThan time.Time                 // only runs started before this
	Match     func(command string) bool // only runs whose (redacted) command matches
}

// RunInfo is one run as guard context lists it.
type RunInfo struct {
	Run
	StdoutBytes, StderrBytes int64
	Hits                     int64
	Served                   bool // an entry that may still be served
}

const runColumns = `id, time, agent, cwd, root, command, exit, duration_ms, key, rule, expires, redacted, truncated,
	bytes, stdout_bytes, stderr_bytes, hits, uncached`

func (cs *ContextStore) query(q RunQuery, extra string) ([]RunInfo, error) {
	db, err := cs.database()
	if err != nil {
		return nil, err
	}
	where, args := []string{"1"}, []any{}
	if q.ID != "" && q.ID != "last" {
		where, args = append(where, "id = ?"), append(args, q.ID)
	}
	if q.Root != "" {
		where, args = append(where, "root = ?"), append(args, q.Root)
	}
	if !q.OlderThan.IsZero() {
		where, args = append(where, "time < ?"), append(args, q.OlderThan.UnixNano())
	}
	sqlText := "SELECT " + runColumns + extra + " FROM runs WHERE " + strings.Join(where, " AND ") + " ORDER BY time DESC, id DESC"
	rows, err := db.Query(sqlText, args...)
	if err != nil {
		return nil, explainDB(cs.path(contextDB), err)
	}
	defer rows.Close()
	var out []RunInfo
	now := cs.now()
	for rows.Next() {
		var ri RunInfo
		var t, expires int64
		var blob []byte
		var cut int
		var logName string
		dest := []any{&ri.ID, &t, &ri.Agent, &ri.Cwd, &ri.Root, &ri.Command, &ri.Exit, &ri.DurationMS, &ri.Key, &ri.Rule,
			&expires, &ri.Redacted, &ri.Truncated, &ri.Bytes, &ri.StdoutBytes, &ri.StderrBytes, &ri.Hits, &ri.Uncached}
		if extra != "" {
			dest = append(dest, &blob, &cut, &logName)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, explainDB(cs.path(contextDB), err)
		}
		if q.Match != nil && !q.Match(ri.Command) {
			continue
		}
		ri.Time = time.Unix(0, t)
		// may still answer: not expired, and its key's entry is this run
		ri.Served = expires > now.UnixNano() && cs.entryIs(ri.Key, ri.ID)
		if extra != "" {
			if cut != 0 && logName != "" {
				if r, err := ReadRunFile(cs.path(logsDir, logName), true); err == nil {
					ri.Chunks = r.Chunks
				} else {
					ri.Chunks = decodeOutput(blob)
				}
			} else {
				ri.Chunks = decodeOutput(blob)
			}
			ri.Truncated = ri.Truncated || (cut != 0 && ri.Chunks != nil && sumChunks(ri.Chunks) < ri.Bytes)
		}
		out = append(out, ri)
		if q.Limit > 0 && len(out) >= q.Limit {
			break
		}
	}
	return out, rows.Err()
}

func sumChunks(cs []Chunk) int64 {
	var n int64
	for _, c := range cs {
		n += int64(len(c.Data))
	}
	return n
}

// List returns runs, newest first.
func (cs *ContextStore) List(q RunQuery) ([]RunInfo, error) {
	runs, err := cs.query(q, "")
	return runs, err
}

// Get returns one run with its output: by id, or the newest ("last")
// matching q. found is false when there is none.
func (cs *ContextStore) Get(q RunQuery) (RunInfo, bool, error) {
	q.Limit = 1
	runs, err := cs.query(q, ", output, output_cut, log")
	if err != nil || len(runs) == 0 {
		return RunInfo{}, false, err
	}
	return runs[0], true, nil
}

// Clear deletes the runs q selects (and their log and entry files) and
// returns how many.
func (cs *ContextStore) Clear(q RunQuery) (int, error) {
	runs, err := cs.List(q)
	if err != nil {
		return 0, err
	}
	err = cs.tx(func(tx *sql.Tx) error {
		for _, r := range runs {
			if _, err := tx.Exec(`DELETE FROM runs WHERE id = ?`, r.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, r := range runs {
		cs.removeFiles(r.ID, r.Key)
	}
	return len(runs), nil
}

// entryIs reports whether key's entry file holds the run id.
func (cs *ContextStore) entryIs(key, id string) bool {
	if !validKey(key) {
		return false
	}
	r, err := ReadRunFile(cs.path(entriesDir, key+".run"), false)
	return err == nil && r.ID == id
}

// removeFiles deletes a run's log, and its entry if the entry is still
// this run's.
func (cs *ContextStore) removeFiles(id, key string) {
	os.Remove(cs.path(logsDir, id+".run"))
	if validKey(key) {
		p := cs.path(entriesDir, key+".run")
		if r, err := ReadRunFile(p, false); err == nil && r.ID == id {
			os.Remove(p)
		}
	}
}

// Stats are guard context stats' figures.
type Stats struct {
	Runs, Entries, Bytes int64 // runs kept, of them servable entries, output bytes kept
	Hits, Lookups        int64 // hits served; runs a [[cache]] rule covered (hits + misses)
	BytesSaved           int64
	TimeSaved            time.Duration
	DBBytes, LogBytes    int64
}

// Stats sums up the store.
func (cs *ContextStore) Stats() (Stats, error) {
	db, err := cs.database()
	if err != nil {
		return Stats{}, err
	}
	var s Stats
	var ms int64
	err = db.QueryRow(`SELECT count(*), coalesce(sum(bytes), 0), coalesce(sum(key != ''), 0) FROM runs`).Scan(&s.Runs, &s.Bytes, &s.Lookups)
	if err == nil {
		// entries that may still answer: one per key at most
		err = db.QueryRow(`SELECT count(DISTINCT key) FROM runs WHERE expires > ?`, cs.now().UnixNano()).Scan(&s.Entries)
	}
	if err == nil {
		err = db.QueryRow(`SELECT count(*), coalesce(sum(bytes), 0), coalesce(sum(saved_ms), 0) FROM hits`).Scan(&s.Hits, &s.BytesSaved, &ms)
	}
	if err != nil {
		return Stats{}, explainDB(cs.path(contextDB), err)
	}
	s.Lookups += s.Hits
	s.TimeSaved = time.Duration(ms) * time.Millisecond
	s.DBBytes, _ = cs.dbUsed(db)
	s.LogBytes, _ = dirSize(cs.path(logsDir))
	return s, nil
}

// dbUsed is the bytes the database's pages in use take.
func (cs *ContextStore) dbUsed(db *sql.DB) (int64, error) {
	var pages, free, size int64
	if err := db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		return 0, err
	}
	if err := db.QueryRow(`PRAGMA freelist_count`).Scan(&free); err != nil {
		return 0, err
	}
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil {
		return 0, err
	}
	return (pages - free) * size, nil
}

func dirSize(dir string) (int64, error) {
	ents, err := readDir(dir)
	var n int64
	for _, e := range ents {
		if fi, err := e.Info(); err == nil {
			n += fi.Size()
		}
	}
	return n, err
}

// Prune evicts now, whatever the throttle.
func (cs *ContextStore) Prune() error { return cs.prune(true) }

// prune keeps the store inside its limits, at most once a minute unless
// forced:
//  1. entry files that may no longer be served are removed (their runs stay
//     on record), and lock files with no entry;
//  2. log files past MaxLogs, oldest first (the row keeps its cut copy);
//  3. rows past MaxDB: expired cache entries first, then the least
//     recently used.
func (cs *ContextStore) prune(force bool) error {
	db, err := cs.database()
	if err != nil {
		return err
	}
	now := cs.now()
	var last int64
	_ = db.QueryRow(`SELECT value FROM meta WHERE name = 'pruned'`).Scan(&last)
	if !force && now.Sub(time.Unix(0, last)) < pruneEvery {
		return nil
	}
	if err := cs.tx(func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO meta (name, value) VALUES ('pruned', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, now.UnixNano())
		return err
	}); err != nil {
		return err
	}
	cs.pruneEntries(now)
	if err := cs.pruneLogs(); err != nil {
		return err
	}
	return cs.pruneDB(db, now)
}

func (cs *ContextStore) pruneEntries(now time.Time) {
	ents, _ := readDir(cs.path(entriesDir))
	have := map[string]bool{}
	for _, e := range ents {
		if k, ok := strings.CutSuffix(e.Name(), ".run"); ok {
			p := cs.path(entriesDir, e.Name())
			r, err := ReadRunFile(p, false)
			// an entry is dropped once even cache_failures and ttl are past,
			// with a day's grace for a rule whose ttl grew since
			if err != nil || now.Sub(r.Time) > max(r.TTL, r.CacheFailures)+24*time.Hour {
				os.Remove(p)
				continue
			}
			have[k] = true
		}
	}
	for _, e := range ents {
		k, ok := strings.CutSuffix(e.Name(), ".lock")
		if !ok || have[k] {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > time.Hour {
			os.Remove(cs.path(entriesDir, e.Name()))
		}
	}
}

func (cs *ContextStore) pruneLogs() error {
	ents, err := readDir(cs.path(logsDir))
	if err != nil {
		return nil
	}
	var total int64
	sizes := make([]int64, len(ents))
	for i, e := range ents {
		if fi, err := e.Info(); err == nil {
			sizes[i] = fi.Size()
			total += sizes[i]
		}
	}
	// names begin with the run's start time in base 36: sorted, oldest first
	var gone []string
	for i := 0; i < len(ents) && total > cs.limits.MaxLogs; i++ {
		if os.Remove(cs.path(logsDir, ents[i].Name())) == nil {
			total -= sizes[i]
			gone = append(gone, ents[i].Name())
		}
	}
	if len(gone) == 0 {
		return nil
	}
	return cs.tx(func(tx *sql.Tx) error {
		for _, name := range gone {
			if _, err := tx.Exec(`UPDATE runs SET log = '' WHERE log = ?`, name); err != nil {
				return err
			}
		}
		return nil
	})
}

func (cs *ContextStore) pruneDB(db *sql.DB, now time.Time) error {
	for round := 0; round < 1000; round++ {
		used, err := cs.dbUsed(db)
		if err != nil || used <= cs.limits.MaxDB {
			return err
		}
		// expired entries first, then the least recently used
		rows, err := db.Query(`SELECT id, key FROM runs ORDER BY (expires > 0 AND expires < ?) DESC, last_used ASC LIMIT 50`, now.UnixNano())
		if err != nil {
			return explainDB(cs.path(contextDB), err)
		}
		var ids, keys []string
		for rows.Next() {
			var id, key string
			if rows.Scan(&id, &key) == nil {
				ids, keys = append(ids, id), append(keys, key)
			}
		}
		rows.Close()
		if len(ids) == 0 {
			return nil
		}
		err = cs.tx(func(tx *sql.Tx) error {
			for _, id := range ids {
				if _, err := tx.Exec(`DELETE FROM runs WHERE id = ?`, id); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i := range ids {
			cs.removeFiles(ids[i], keys[i])
		}
	}
	return nil
}

// FormatAge is how long ago t was, for listings ("12s", "3m", "2h", "4d").
func FormatAge(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}
