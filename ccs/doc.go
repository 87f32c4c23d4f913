// Package ccs is guard's command context store: the audit trail of every
// decision, and the requests waiting for a human's approval.
//
// # Use
//
//	s := ccs.Open(stateDir, redact.New(os.Environ())) // no I/O yet
//	defer s.Close()
//	err := s.Append(ccs.Record{Command: text, SHA256: sum, Decision: "allow", …})
//	recs, err := s.Audit(ccs.Query{Limit: 20, Decision: "deny"}) // newest first
//
// A failed Append is a warning, not a reason to stop: the caller decides and
// runs the command anyway, and the deny path never depends on the disk.
//
// # Files
//
// All of them live in the state directory, created with mode 0700 on first
// write:
//
//	audit.jsonl    the journal: one JSON record per line, appended
//	audit.jsonl.1  the previous journal, after rotation (over 8 MiB)
//	audit.lock     flock(2) that orders rotation against appenders
//	audit.db       SQLite (WAL): the imported records, the import position,
//	               the pending requests
//
// # The hot path: why a journal
//
// guard writes one record per command an agent runs, from a fresh process,
// often several at once. Measured on the 2-core build machine with
// ccs/internal/audittiming (`go run ./ccs/internal/audittiming -n 200`: the
// same binary started over and over, alternating modes; medians, ext4):
//
//	                                        quiet machine   busy machine
//	start only (the floor)                  2.15 ms         3.44 ms
//	+ one O_APPEND write of a JSON line     +0.14 ms        +0.0 ms (noise)
//	+ SQLite open (WAL, busy_timeout),      +1.8..2.7 ms    +12.8 ms
//	  insert one row, close                                 (p90 +34 ms)
//
// and in process (`go test -bench . ./ccs/`): Append 0.15 ms per record with
// a fresh Store; SQLite open+insert+close 16.7 ms (each close checkpoints the
// WAL, and an fsync costs 2.8 ms on this disk). SQLite per record would cost
// more than everything else guard does and gets worse exactly when agents
// run commands in parallel, because writers queue for its one lock. So:
//
//   - Append never opens the database. It redacts the command and cwd again
//     (whatever the caller did), encodes the record as one JSON line of at
//     most 4 KiB (the longest field, normally the command, is cut and marked
//     " …[cut]"; SHA256 is of the original, whole text), and writes it with
//     one write(2) on an O_APPEND descriptor, under a shared flock. Appends
//     from any number of processes never interleave; a torn line (crash, full
//     disk) is ended with a newline where possible and skipped on import.
//   - When the journal passes 8 MiB, the appender that notices imports what
//     is new into SQLite, takes the lock exclusively (so no appender is
//     between open and write), checks that the import position is now on
//     this journal (so audit.jsonl.1 was read to its end) and renames it to
//     audit.jsonl.1. Lines appended after the import stay tracked through
//     the renamed file's inode. No record is lost to rotation. Only while
//     the database is unusable does the journal keep growing, and past four
//     times the limit it is rotated anyway: records of the previous
//     audit.jsonl.1 that were never imported are then lost, rather than the
//     disk filled.
//   - Audit imports the lines written since the last import, then queries.
//     The import runs in one SQLite transaction (BEGIN IMMEDIATE) that also
//     moves the stored position (inode, first bytes, offset), so concurrent
//     importers serialise and never import a line twice. An unfinished last
//     line is left for the next import; a line that does not parse is read
//     from its last `{"time":`, which recovers a record glued to a torn one.
//     Importing 1000 new records takes about 17 ms; with none new, 0.2 ms.
//
// # Concurrency and errors
//
// Every transaction waits up to 10 s for another process's lock
// (busy_timeout) and is retried as a whole if SQLite still answers busy, so
// concurrent guards do not fail with "database is locked". A database
// problem comes back as a *DBError whose message is a sentence with a hint,
// such as "the guard database /…/audit.db is damaged; move it aside and guard
// starts a new one …". File-system failures name the path and the cause
// (not writable, read-only file system, no space left).
//
// # Pending requests
//
// When guard must ask and no terminal can be opened, the command is stored
// as a pending request with a 6-hex-digit ID (AddPending: the same text in
// the same directory that is already pending is the same request). A human
// answers with Resolve: approved-once, approved-project, approved-global or
// rejected. TakeOnce consumes an approved-once answer for exactly that text
// (sha256) in exactly that directory within ten minutes of the answer; a
// consumed request is marked used and never counts again. Requests live in
// the same SQLite database, so every step is one transaction.
package ccs
