//go:build cgo

package ccs

import (
	"errors"

	"github.com/mattn/go-sqlite3" // also registers the "sqlite3" driver
)

// haveSQLite reports whether this binary can open the database: SQLite
// comes in through cgo.
const haveSQLite = true

func isBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

// dbProblems turns SQLite result codes into sentences.
var dbProblems = map[sqlite3.ErrNo]struct{ problem, hint string }{
	sqlite3.ErrBusy:     {"is busy: another guard held it for too long", "try again"},
	sqlite3.ErrLocked:   {"is locked by another guard", "try again"},
	sqlite3.ErrCorrupt:  {"is damaged", "move it aside and guard starts a new one (records still in audit.jsonl are imported again)"},
	sqlite3.ErrNotADB:   {"is not an SQLite database", "move it aside and guard starts a new one"},
	sqlite3.ErrReadonly: {"is read-only", "check the permissions of the file and its directory"},
	sqlite3.ErrPerm:     {"cannot be opened: permission denied", "check the permissions of the file and its directory"},
	sqlite3.ErrCantOpen: {"cannot be opened", "check that its directory exists and is writable"},
	sqlite3.ErrFull:     {"cannot grow: the disk is full", "free some space"},
	sqlite3.ErrIoErr:    {"could not be read or written (I/O error)", "check the disk"},
}

// explainDB wraps an SQLite error as a DBError; other errors pass unchanged.
func explainDB(path string, err error) error {
	var de *DBError
	if errors.As(err, &de) {
		return err
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		if p, ok := dbProblems[se.Code]; ok {
			return &DBError{Path: path, Problem: p.problem, Hint: p.hint, Err: err}
		}
		return &DBError{Path: path, Problem: "failed: " + se.Code.Error(), Err: err}
	}
	return err
}
