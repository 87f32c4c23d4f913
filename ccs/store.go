package ccs

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/guard-dev/guard/redact"
)

// File names inside the state directory.
const (
	journalName    = "audit.jsonl"
	oldJournalName = "audit.jsonl.1"
	lockName       = "audit.lock"
	dbName         = "audit.db"
	importName     = "audit.import" // when an importer was last called
)

// Defaults, all in one place.
const (
	// defaultMaxJournal is the size past which the journal is rotated.
	defaultMaxJournal = 8 << 20
	// maxRecord bounds one journal line, so that one record is one small
	// write(2); longer commands are cut short (their hmac stays whole).
	maxRecord = 4096
	// busyTimeout is how long SQLite waits for another guard's lock.
	busyTimeout = 10 * time.Second
	// busyRetries is how many more times a whole transaction is tried when
	// SQLite still says busy (it does so at once in a few cases, such as a
	// snapshot that went stale).
	busyRetries = 20
	// importBackoff is how long after calling the importer (SetImporter)
	// an Append waits before calling it again for a journal still full.
	importBackoff = time.Minute
	// onceWindow is how long an approved-once request stays usable.
	onceWindow = 10 * time.Minute
	// stateDirMode is the permission of a state directory guard creates.
	stateDirMode = 0o700
)

// A Record is one decision guard made.
type Record struct {
	Time       time.Time `json:"time"`
	Agent      string    `json:"agent"`
	Session    string    `json:"session,omitempty"` // the agent's session id (guard hook)
	Cwd        string    `json:"cwd"`
	Command    string    `json:"command"` // redacted
	HMAC       string    `json:"hmac"`    // keyed hash of the original text (see Store.Sum)
	Decision   string    `json:"decision"`
	Rule       string    `json:"rule"`
	Answer     string    `json:"answer"` // see the Answer constants
	Via        string    `json:"via"`    // see the Via constants
	Mode       string    `json:"mode"`   // shell | exec | stdin | hook | check | cli
	Exit       int       `json:"exit"`
	DurationMS int64     `json:"duration_ms"`
	Risk       string    `json:"risk,omitempty"`        // none | low | high (grants.Risk)
	PolicyMode string    `json:"policy_mode,omitempty"` // enforce | dry_run | off: the rollout mode it was decided in
	// Confined is the kernel boundary the command ran in ("fs=project
	// net=hosts"; "unconfined: why" where the kernel could not; "" for a
	// command that did not run).
	Confined string `json:"confined,omitempty"`
	// Project is the project root the command was decided in (redacted
	// like Cwd; "" where guard had not found it yet).
	Project string `json:"project,omitempty"`
	// OverheadUS is guard's own time on the command, in microseconds:
	// from guard's start to the command's start plus from its end to the
	// record (the whole run when no command ran, or the cache answered).
	OverheadUS int64 `json:"overhead_us,omitempty"`
	// ID is the record's row in the database (Audit sets it; 0 in the
	// journal): increasing in import order, a log shipper's cursor.
	ID int64 `json:"id,omitempty"`
}

// Answers, as recorded: how a decision was reached.
const (
	AnswerRule      = "rule"      // a rule or a built-in set; no human was asked
	AnswerOnce      = "once"      // a human allowed this run
	AnswerProject   = "project"   // … and stored the suggested pattern for the project
	AnswerGlobal    = "global"    // … and stored it for every project
	AnswerEdited    = "edited"    // … and stored a pattern they edited
	AnswerDeny      = "deny"      // a human refused
	AnswerTimeout   = "timeout"   // nobody answered in time
	AnswerCancelled = "cancelled" // the prompt was cancelled (Ctrl-C, Esc, EOF, a signal)
	AnswerPending   = "pending"   // nobody could be asked: left for guard approve
	AnswerRejected  = "rejected"  // refused because a human rejected the same text recently
)

// Vias, as recorded: where the answer came from.
const (
	ViaRule     = "rule"     // no human: rules decided, or nobody could be asked
	ViaTerminal = "terminal" // the prompt on guard's terminal
	ViaConsole  = "console"  // guard watch
	ViaApprove  = "approve"  // guard approve or guard reject
	ViaCLI      = "cli"      // a management verb (grants add|rm, trust)
	ViaUI       = "ui"       // the web console (guard ui)
)

// A Query selects audit records. Zero fields select everything.
type Query struct {
	Limit    int       // at most this many (0: no limit)
	Decision string    // only this decision
	Since    time.Time // only records at or after this time
	AfterID  int64     // only records imported after the one with this ID
	Oldest   bool      // oldest first (import order) instead of newest first
}

// A Store is the command context store of one state directory. Open is
// cheap; files are touched on first use. A Store is safe for concurrent use,
// and any number of processes may use the same directory at once.
type Store struct {
	dir         string
	red         *redact.Redactor
	maxJournal  int64
	importEvery time.Duration // see callImporter

	mu       sync.Mutex
	db       *sql.DB      // opened on first use
	importer func() error // see SetImporter
	key      []byte       // see Sum; read on first use
}

// Open returns the store kept in stateDir. It does no I/O: the directory is
// created (mode 0700) when something is first written. A nil Redactor means
// the built-in patterns only.
func Open(stateDir string, r *redact.Redactor) *Store {
	if r == nil {
		r = redact.New(nil)
	}
	return &Store{dir: stateDir, red: r, maxJournal: defaultMaxJournal, importEvery: importBackoff}
}

// Close releases the database, if it was opened.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == nil {
		return nil
	}
	err := s.db.Close()
	s.db = nil
	return err
}

// SetImporter gives rotation of a full journal to fn, in a binary built
// without SQLite (CGO_ENABLED=0), where the store cannot import the journal
// itself. fn should import the journal and rotate it with the full
// protocol, as Import does: guard's hot binary makes it run
// "guard-cli audit --import" as a child process. When the journal passes
// its size limit, the Append that notices calls fn (outside every lock),
// then writes its record to whatever journal is current. If fn fails, or no
// importer is set, the journal keeps growing until it is four times its
// limit, then it is rotated anyway (see the package documentation). In a
// binary with SQLite, fn is never called: the store rotates by itself.
func (s *Store) SetImporter(fn func() error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.importer = fn
}

func (s *Store) getImporter() func() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.importer
}

func (s *Store) path(name string) string { return filepath.Join(s.dir, name) }

// ensureDir creates the state directory if it is missing. Something else
// at its name (a file, a FIFO, a dangling symlink) is an error that says
// what is there.
func (s *Store) ensureDir() error {
	if err := os.MkdirAll(s.dir, stateDirMode); err != nil {
		if what := notADir(s.dir); what != "" {
			return fmt.Errorf("state directory %s is %s", s.dir, what)
		}
		return fmt.Errorf("create state directory: %w", explainFS(err))
	}
	return nil
}

// notADir says what is at dir when that is not a directory ("a fifo",
// "a dangling symlink to X"), or "" when dir is one or is missing.
func notADir(dir string) string {
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return ""
	case fi.Mode()&os.ModeSymlink != 0:
		if st, err := os.Stat(dir); err == nil {
			if st.IsDir() {
				return ""
			}
			return "a symlink to " + fileKind(uint32(st.Sys().(*syscall.Stat_t).Mode))
		}
		target, _ := os.Readlink(dir)
		return "a dangling symlink to " + target
	case fi.IsDir():
		return ""
	}
	return "not a directory but " + fileKind(uint32(fi.Sys().(*syscall.Stat_t).Mode))
}

// readDir lists dir without ever blocking: it is opened O_DIRECTORY|
// O_NONBLOCK, so a FIFO (or any non-directory) at its name fails at once
// (ENOTDIR) instead of waiting for a writer. Entries are sorted by name,
// as os.ReadDir gives them.
func readDir(dir string) ([]fs.DirEntry, error) {
	fd, err := openFD(dir, syscall.O_RDONLY|syscall.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// schema is applied on every open; every statement is idempotent.
const schema = `
CREATE TABLE IF NOT EXISTS audit (
	id          INTEGER PRIMARY KEY,
	time        INTEGER NOT NULL, -- unix nanoseconds
	agent       TEXT NOT NULL,
	cwd         TEXT NOT NULL,
	command     TEXT NOT NULL,
	hmac        TEXT NOT NULL,
	decision    TEXT NOT NULL,
	rule        TEXT NOT NULL,
	answer      TEXT NOT NULL,
	via         TEXT NOT NULL DEFAULT '',
	mode        TEXT NOT NULL,
	exit        INTEGER NOT NULL,
	duration_ms INTEGER NOT NULL,
	risk        TEXT NOT NULL DEFAULT '',
	policy_mode TEXT NOT NULL DEFAULT '',
	session     TEXT NOT NULL DEFAULT '',
	confined    TEXT NOT NULL DEFAULT '',
	project     TEXT NOT NULL DEFAULT '',
	overhead_us INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS audit_time ON audit (time);
CREATE TABLE IF NOT EXISTS journal_position (
	id     INTEGER PRIMARY KEY CHECK (id = 1),
	inode  INTEGER NOT NULL,
	head   BLOB NOT NULL,    -- the file's first bytes, in case an inode is reused
	offset INTEGER NOT NULL  -- bytes of that file already imported
);
`

// database returns the open database, opening it (and creating the state
// directory and the schema) on first use.
func (s *Store) database() (*sql.DB, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db != nil {
		return s.db, nil
	}
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	db, err := openSQLite(s.path(dbName), "guard database", applySchema)
	if err != nil {
		return nil, err
	}
	s.db = db
	return db, nil
}

// openSQLite opens the database at path (name says which, in errors) in
// WAL mode with a busy timeout and brings its schema up with apply. SQLite
// opens the file and its -wal and -shm blocking: a FIFO at any of them
// would hang guard-cli, so they must be regular files when they exist.
// One connection: guard-cli is a short-lived process, and SQLite
// serialises writers anyway.
func openSQLite(path, name string, apply func(*sql.DB) error) (*sql.DB, error) {
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if fi, err := os.Stat(f); err == nil && !fi.Mode().IsRegular() {
			return nil, notRegular(f, uint32(fi.Sys().(*syscall.Stat_t).Mode))
		}
	}
	if !haveSQLite {
		return nil, explainDB(path, errNoSQLite)
	}
	if err := privateDB(path); err != nil {
		return nil, err
	}
	dsn := fmt.Sprintf("file:%s?_journal_mode=WAL&_busy_timeout=%d&_txlock=immediate&_synchronous=NORMAL",
		uriEscape(path), busyTimeout.Milliseconds())
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s %s: %w", name, path, err)
	}
	db.SetMaxOpenConns(1)
	if err := retryBusy(func() error { return apply(db) }); err != nil {
		db.Close()
		return nil, explainDB(path, err)
	}
	return db, nil
}

// dbFileMode is the mode of the database and its -wal and -shm files: the
// audit trail is the user's alone, like the journal.
const dbFileMode = 0o600

// privateDB makes the database and its WAL and shared-memory files
// owner-only, whatever the umask. SQLite creates a new database 0644 (less
// the umask) and gives its -wal and -shm files the database's mode, so the
// database is created here, empty and 0600, before SQLite opens it (an
// empty file is an empty database), and files an older guard left looser
// are tightened. Each must be a regular file: a FIFO would hang SQLite.
func privateDB(path string) error {
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, dbFileMode)
	if err == nil {
		syscall.Close(fd)
	} else if !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("create guard database: %w", explainFS(&os.PathError{Op: "open", Path: path, Err: err}))
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Lstat(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("guard database: %w", explainFS(err))
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("guard database: %s is not a regular file; move it aside", p)
		}
		if fi.Mode().Perm() != dbFileMode {
			if err := os.Chmod(p, dbFileMode); err != nil {
				return fmt.Errorf("guard database: make it private: %w", explainFS(err))
			}
		}
	}
	return nil
}

// schemaVersion is stored in PRAGMA user_version once the schema exists,
// so that opening an existing database writes nothing.
const schemaVersion = 5

// migrations bring a database of version i+1 to version i+2. Version 2
// keys the text's hash (sha256 became hmac) and records who answered (via).
var migrations = [...]string{
	`ALTER TABLE audit RENAME COLUMN sha256 TO hmac;
	ALTER TABLE audit ADD COLUMN via TEXT NOT NULL DEFAULT '';`,
	// version 3: the risk grade, the rollout mode (dry_run's would-deny) and
	// the agent's session id (guard hook)
	`ALTER TABLE audit ADD COLUMN risk TEXT NOT NULL DEFAULT '';
	ALTER TABLE audit ADD COLUMN policy_mode TEXT NOT NULL DEFAULT '';
	ALTER TABLE audit ADD COLUMN session TEXT NOT NULL DEFAULT '';`,
	// version 4: the kernel boundary the command ran in
	`ALTER TABLE audit ADD COLUMN confined TEXT NOT NULL DEFAULT '';`,
	// version 5: the project root and guard's own overhead (telemetry)
	`ALTER TABLE audit ADD COLUMN project TEXT NOT NULL DEFAULT '';
	ALTER TABLE audit ADD COLUMN overhead_us INTEGER NOT NULL DEFAULT 0;`,
}

// applySchema creates the audit tables in one transaction (one commit),
// unless they exist already.
func applySchema(db *sql.DB) error {
	return migrate(db, "database", schema, migrations[:], schemaVersion)
}

// migrate brings db to version: a new database gets create (the current
// schema) in one transaction, an older one the migrations after its
// PRAGMA user_version (migrations[i] takes version i+1 to i+2). name says
// which database an error is about.
func migrate(db *sql.DB, name, create string, migrations []string, version int) error {
	var v int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		return err
	}
	if v >= version {
		return nil
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if v == 0 {
		if _, err := tx.Exec(create); err != nil {
			return err
		}
	}
	for i := max(v-1, 0); v > 0 && i < len(migrations); i++ {
		if _, err := tx.Exec(migrations[i]); err != nil {
			return fmt.Errorf("migrate the %s to version %d: %w", name, i+2, err)
		}
	}
	if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, version)); err != nil {
		return err
	}
	return tx.Commit()
}

// uriEscape escapes the characters that end or change a path in an SQLite
// URI filename.
func uriEscape(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

// tx runs fn in one write transaction (BEGIN IMMEDIATE), retrying the whole
// of it while SQLite reports that another process holds the lock.
func (s *Store) tx(fn func(*sql.Tx) error) error {
	db, err := s.database()
	if err != nil {
		return err
	}
	return inTx(db, s.path(dbName), fn)
}

// inTx runs fn in one transaction of db (the database at file, for the
// error), retrying the whole of it while another process holds the lock.
func inTx(db *sql.DB, file string, fn func(*sql.Tx) error) error {
	err := retryBusy(func() error {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	})
	if err != nil {
		return explainDB(file, err)
	}
	return nil
}

// read runs fn, which only reads, outside any transaction (WAL readers do
// not wait for writers), retrying while SQLite reports busy.
func (s *Store) read(fn func(*sql.DB) error) error {
	db, err := s.database()
	if err != nil {
		return err
	}
	if err := retryBusy(func() error { return fn(db) }); err != nil {
		return explainDB(s.path(dbName), err)
	}
	return nil
}

// retryBusy calls fn until it succeeds, fails for a reason other than a
// busy database, or busyRetries more tries have been made.
func retryBusy(fn func() error) error {
	var err error
	for i := 0; i <= busyRetries; i++ {
		if err = fn(); err == nil || !isBusy(err) {
			return err
		}
		time.Sleep(time.Duration(5+i*10) * time.Millisecond)
	}
	return err
}

// errNoSQLite is what every database operation fails with in a binary
// built without cgo (see haveSQLite).
var errNoSQLite = errors.New("built without SQLite")

// A DBError is a database problem told as a sentence a human can act on.
// Err keeps the underlying error for errors.Is and errors.As.
type DBError struct {
	Path    string
	Problem string // "is busy", "is damaged", …
	Hint    string // what to do about it; may be empty
	Err     error
}

func (e *DBError) Error() string {
	msg := fmt.Sprintf("the guard database %s %s", e.Path, e.Problem)
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

func (e *DBError) Unwrap() error { return e.Err }

// explainFS rewords the file-system errors a user can fix. The result still
// matches the original with errors.Is.
func explainFS(err error) error {
	var pe *os.PathError
	if !errors.As(err, &pe) {
		return err
	}
	for _, c := range fsProblems {
		if errors.Is(err, c.err) {
			return &fsError{msg: fmt.Sprintf(c.format, pe.Path), err: err}
		}
	}
	return err
}

// fsProblems are the file-system errors explainFS rewords.
var fsProblems = [...]struct {
	err    error
	format string
}{
	{os.ErrPermission, "%s is not writable: permission denied"},
	{syscall.EROFS, "%s is on a read-only file system"},
	{syscall.ENOSPC, "no space left on the device holding %s"},
	{syscall.EDQUOT, "disk quota exceeded for %s"},
	{syscall.ENOTDIR, "%s is not a directory"},
}

type fsError struct {
	msg string
	err error
}

func (e *fsError) Error() string { return e.msg }
func (e *fsError) Unwrap() error { return e.err }
