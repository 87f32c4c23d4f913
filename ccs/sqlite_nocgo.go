//go:build !cgo

package ccs

import "errors"

// haveSQLite reports whether this binary can open the database. Built
// without cgo it cannot: SQLite is C. Such a binary (guard's hot path)
// still appends to the journal and keeps pending requests, which need no
// database; see SetImporter for rotation.
const haveSQLite = false

func isBusy(error) bool { return false }

// explainDB tells that the database cannot be used from this binary.
func explainDB(path string, err error) error {
	var de *DBError
	if errors.As(err, &de) {
		return err
	}
	return &DBError{Path: path, Problem: "is unavailable: this guard binary was built without SQLite",
		Hint: "run the command through guard-cli, which has it", Err: err}
}
