// Package ccs is guard's command context store: the audit trail of every
// decision, the requests waiting for a human's approval, and every run's
// redacted output with the cache that answers from it (see "The command
// context store" below).
//
// # Use
//
//	s := ccs.Open(stateDir, redact.New(os.Environ())) // no I/O yet
//	defer s.Close()
//	err := s.Append(ccs.Record{Command: text, HMAC: sum, Decision: "allow", …})
//	recs, err := s.Audit(ccs.Query{Limit: 20, Decision: "deny"}) // newest first
//
// A failed Append is a warning, not a reason to stop: the caller decides and
// runs the command anyway, and the deny path never depends on the disk.
//
// # Two binaries: with and without SQLite
//
// guard's hot path (guard -c, the shell links, guard exec) is built with
// CGO_ENABLED=0, because a cgo binary costs 0.7-1 ms more per start; the
// management commands live in guard-cli, which has SQLite. This package
// works in both. Append and everything about pending requests touch no
// database. What needs SQLite (Audit, Import) fails without it with a
// *DBError: "the guard database …/audit.db is unavailable: this guard
// binary was built without SQLite; …". Journal rotation, which imports
// first, is handed to guard-cli through SetImporter (below). Its tests run
// both ways:
//
//	go test ./ccs/ && CGO_ENABLED=0 go test ./ccs/
//
// # Files
//
// All of them live in the state directory, created with mode 0700 on first
// write:
//
//	audit.jsonl    the journal: one JSON record per line, appended
//	audit.jsonl.1  the previous journal, after rotation (over 8 MiB)
//	audit.lock     flock(2) that orders rotation against appenders
//	audit.import   when the hot binary last called its importer
//	telemetry.due  when the telemetry flusher is next due (its mtime;
//	               ClaimFlush, SetFlushDue); package telemetry keeps
//	               telemetry.state and telemetry.lock beside it
//	audit-lost     "N TIME": how many records could not be written, and
//	               when the last one was (Store.NoteLost, Store.Lost)
//	audit-lost.d/  one empty file per lost record that the marker could
//	               not count either (a file size limit lets no byte in):
//	               NANOS-PID-RANDOM; Lost adds them up
//	audit.db       SQLite (WAL): the imported records and the import
//	               position (an older database also keeps its table of
//	               pending requests, unused: requests waiting there when
//	               guard was upgraded must be asked again)
//	pending/       the pending requests (mode 0700): ID.json each,
//	               ID.once beside an approved-once one, and
//	               pending.lock, the flock(2) every change holds
//
// # Nothing here can hang guard
//
// Every file is opened O_NONBLOCK (a FIFO planted at a name opens at once,
// or fails, instead of waiting for a writer) and must be a regular file:
// otherwise the error reads "PATH: not a regular file (a fifo)". The
// request directory is opened O_DIRECTORY. Every flock is taken with
// LOCK_NB, polled with a short backoff for at most 2 s (lockWait); past
// that the operation fails with "held by another process", except an
// append: it writes its line without the lock and does not rotate. That
// loses nothing, because appenders share the lock: only a rotation, or a
// stuck or hostile process, holds it exclusively, no other rotation can run
// meanwhile, and a line that lands in a journal being renamed is imported
// through the renamed file's inode. The database files are checked to be
// regular (or missing) before SQLite opens them.
//
// # The hot path: why a journal
//
// guard writes one record per command an agent runs, from a fresh process,
// often several at once. Measured (when the choice was made; see below for
// today's figures) on the 2-core build machine with
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
//     (whatever the caller did), takes the time in UTC (Audit gives local
//     times back), encodes the record as one JSON line of at
//     most 4 KiB (the longest field, normally the command, is cut and marked
//     " …[cut]"; HMAC is of the original, whole text), and writes it with
//     one write(2) on an O_APPEND descriptor, under a shared flock. Appends
//     from any number of processes never interleave; a torn line (crash, full
//     disk) is ended with a newline where possible and skipped on import.
//   - The line is encoded by hand, not by encoding/json, whose first
//     json.Marshal in a process costs about 0.14 ms of reflection. The
//     encoder writes byte for byte what json.Marshal writes (field order,
//     RFC 3339 time as time.Time.MarshalJSON, < > & and U+2028/U+2029
//     escaped, invalid UTF-8 as \ufffd); a table test and FuzzEncodeRecord
//     (`go test ./ccs -run '^$' -fuzz FuzzEncodeRecord`) hold it to that.
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
//   - A binary without SQLite cannot import. Store.SetImporter gives it a
//     function to call instead, which guard's hot binary makes run
//     "guard-cli audit --import" (Store.Import: import, and rotate with the
//     protocol above) as a child process; the appender then writes its
//     record to whatever journal is current. The importer is called at most
//     once a minute (audit.import's time), so a failing one is not started
//     by every command. Without an importer, or while it fails, the journal
//     grows to four times its limit and is then rotated anyway, as above.
//   - Audit imports the lines written since the last import, then queries.
//     The import runs in one SQLite transaction (BEGIN IMMEDIATE) that also
//     moves the stored position (inode, first bytes, offset), so concurrent
//     importers serialise and never import a line twice. An unfinished last
//     line is left for the next import; a line that does not parse is read
//     from its last `{"time":`, which recovers a record glued to a torn one.
//     Importing 1000 new records takes about 17 ms; with none new, 0.2 ms.
//
// # What it costs now
//
// Measured on 2026-12-01 on the 2-core build machine (load average about
// 4 from other builds, so wall times are noisy; the child's own time, from
// main to exit, is steadier). Each mode is a fresh process, 300 runs,
// medians:
//
//	CGO_ENABLED=0 go run ./ccs/internal/audittiming -n 300 -modes none,jsonl,marshal,redact,ccs,takeonce
//	go run ./ccs/internal/audittiming -n 300
//
//	                                          no cgo            cgo (SQLite)
//	                                          wall     child    wall     child
//	start only (the floor)                    1.69 ms  0        2.43 ms  0
//	json.Marshal + O_APPEND write (before)    +0.19    0.18 ms  +0.15    0.17 ms
//	json.Marshal alone, first call            +0.16    0.17 ms  +0.10    0.14 ms
//	redact.New(nil) alone                     +0.09    0.04 ms  -0.02    0.04 ms
//	Open + Append + Close (now)               +0.15    0.11 ms  +0.03    0.10 ms
//	Open + TakeOnce, 20 requests waiting      +0.22    0.13 ms  +0.05    0.12 ms
//	SQLite open, insert one row, close        -        -        +3.46    3.41 ms
//
// Append's 0.11 ms includes building the redactor (0.04 ms); it was about
// 0.25 ms before the hand-made encoder, the UTC time (encoding a local time
// loads the zone database: 0.1-0.3 ms in a fresh process) and raw file
// descriptors (os.OpenFile registers each file with the poller). In process
// (`go test ./ccs -run '^$' -bench .`, with or without CGO_ENABLED=0):
// Append with a fresh Store 28-32 µs; the encoder 0.32 µs a record against
// json.Marshal's 0.8-1.0 µs (warm); TakeOnce among 20 waiting requests
// 15 µs; AddPending 0.6 ms (it syncs the file); SQLite open+insert+close
// 2.9 ms; importing 1000 records 12 ms.
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
// (hmac) in exactly that directory (the keyed hash of the unredacted cwd,
// cwd_hmac: the stored cwd is redacted, and proj/ghp_A and proj/ghp_B
// redact alike) within ten minutes of the answer; a
// consumed request is marked used and never counts again. guard watch
// answers a request whose command is waiting with used (allowed once, run
// now) or one of the others. Rejected finds a request for the same text in
// the same project root rejected within a window (reject_memory), so guard
// can refuse a retry at once instead of asking again.
//
// # Keyed hash
//
// Records and requests never hold a command's original text, only the
// redacted one and Sum of the original: HMAC-SHA256 under a random 32-byte
// key kept in the state directory (hmac.key, 0600, made on first use with
// O_EXCL and link(2), read without blocking and only from a regular file).
// A plain sha256 would let anyone who reads the audit recover a short
// redacted secret by hashing guesses. Identical texts match within one
// installation only. Journal lines written before (field sha256) are still
// imported, into the hmac column.
//
// Requests are plain files, not rows in SQLite, so that the hot binary,
// built without it, can add them and use approvals. Each is pending/ID.json
// (JSON, redacted like the journal), replaced atomically (a temporary file,
// fsync, rename), and every change (add, answer, use) reads and writes
// under an exclusive flock on pending/pending.lock, so concurrent guards
// never lose a request or use an approval twice. Readers take no lock: a
// file is always whole. TakeOnce, which runs whenever guard must ask, looks
// first without the lock and reads only the requests that have a marker
// file, ID.once, which exists while a request is approved-once (made before
// the status is written, removed after it is used); it locks only when it
// has found one. AddPending removes answered and used
// requests whose answer is more than 7 days older than the new request.
// A damaged file is skipped by ListPending and TakeOnce, and GetPending
// names it ("pending request file …/pending/ab12cd.json is damaged; move it
// aside"), never quoting it.
//
// # The command context store: every run's output, and the cache
//
// The second half of this package keeps what commands printed (see
// docs/context-store.md for the user's side). Its files are in guard's
// cache directory ($XDG_CACHE_HOME/guard, 0700; files 0600):
//
//	spool.log        runs the lean guard captured, not yet imported
//	spool.lock       flock(2): appenders shared, the importer's rename exclusive
//	context.db       SQLite (WAL, busy_timeout, schema version in
//	                 user_version, migrations in contextMigrations): runs,
//	                 hits, meta (when it was last pruned)
//	entries/KEY.run  the run that may answer key KEY (replaced atomically);
//	                 KEY.lock, the single-flight flock of that key
//	logs/ID.run      the whole output of a run larger than store_max_inline
//	hits.log         one line per hit served, imported for guard context stats
//
// Capture (package shim): a stream whose destination is a regular file of
// the agent's is not piped: the command writes to that file itself, and
// guard reads back what it appended (from a second, read-only handle on
// the file) when it is done. Other streams are pipes, read in the
// goroutine that waits for the command, on one poll(2) that also watches
// a pidfd for its exit, so capturing starts no thread. Each read goes on
// to the agent at once; Capture keeps it in memory (at most MaxCapture
// for a run a [[cache]] rule matched, MaxRecord for any other) and
// Capture.Output redacts each stream whole before anything is written:
// past 256 KiB a goroutine redacts beside the run, with the same result.
// If redaction changed nothing, the chunks are the reads, so a replay
// interleaves stdout and stderr as the command did (when the agent merged
// them, 2>&1, the command gets one pipe, or one file, for both and the
// order is exact). Past the limit the rest is spliced to the agent, not
// kept, through a pipe grown to 1 MiB; what was kept loses the word the
// limit fell in (redact.CutTail), so the first half of a token cut in two
// is not stored. A run's cwd and root are stored redacted, as the
// journal's are.
//
// Serving (cgo-free, in the lean guard): Key hashes the length-prefixed
// argv, cwd, hashed key_env values, the stdin class, whether the streams
// were merged, KeyVersion and Fingerprint (in a git work tree: HEAD, the
// index and the untracked files that are not ignored; elsewhere a walk
// bounded at MaxFingerprintEntries; the watch paths; and the paths the
// argument model says the command reads, wherever they are). Each path is
// stated whole (size, mode, mtime, ctime, inode, device: ctime is the one
// a program cannot put back), a symlink is followed into its target, and a
// file whose times are within racyWindow (or on a file system without
// sub-second times) is read: its content goes into the key's Racy, kept
// with the entry, not into the key, so the key does not move when the file
// ages. Cache.Lookup reads entries/KEY.run; Run.Servable says whether it
// may answer, and Racy.Holds whether its racy files still hold what they
// held. Where the fingerprint cannot stand for what the command reads (a
// link to a fifo, a file in /proc, a fifo at .gitignore, a git that does
// not answer in 2 s) Key fails with ErrNotServable and a reason (Reason),
// which the run's record keeps (Run.Uncached) for guard context show. See
// fingerprint.go for the rules and TestFingerprintNeverStale for the
// property they keep: an entry answers only when a real run would print
// the same bytes.
//
// Every file the fingerprint reads is opened O_NONBLOCK, O_NOFOLLOW unless
// following the link is the point (then the file opened must be the one
// stated), and must be regular: a fifo at .gitignore, .git/index or
// info/exclude makes the run not served, without asking git (which would
// block on it); the git ls-files fallback is bounded at 2 s.
//
// What that costs a hit (2026-12-04, load average 10-16 on the 2-core
// machine, so wall times are noise): one statfs and one lstat per path
// argument more; a cache hit of sh ./slow.sh made 389-407 system calls
// before (median 390) and 389-409 after (397) in a plain directory of 100
// files, 421-442 (429) and 426-447 (434) in a git work tree (strace -f
// -c, nine runs each);
// BenchmarkFingerprintPlain 446-1269 µs before, 356-1590 µs after, and
// BenchmarkGitFingerprint/100files/files 512-984 µs and 417-1204 µs (nine
// interleaved runs each). In the first 2 s after an edit the edited files
// are read as well, and a hit reads them again to check its Racy.
//
// The git fingerprint starts no process: gitindex.go reads $GIT_DIR/index
// (versions 2-4, sha1 or sha256 ids; per entry the mode, object id, stage,
// path and flags, never the stat cache that git status refreshes), and
// gitignore.go walks the work tree deciding what git ignores as dir.c and
// wildmatch.c do: each directory's .gitignore (the deepest matching file
// decides, the last matching line in it), then info/exclude; an ignored
// directory is never entered, nor a nested repository or a submodule.
// Where it is unsure it errs toward "not ignored" (a pattern it does not
// understand, core.excludesFile unread): more paths hashed, a miss at
// worst, never a stale hit. What it does not read exactly (a split or
// sparse index, an unknown index version or mandatory extension, a bad
// checksum, a symlinked .gitignore, a .gitignore left out by sparse
// checkout) falls back to one git ls-files; a .gitignore, index or
// info/exclude that is not a regular file is not served instead. TestGitListingMatchesGit holds
// it to git ls-files over 300 random trees: a superset always, equal when
// every pattern is understood. A hit in a git work tree of 100 files
// (bench/context.sh section 2, and the same with before and after
// interleaved, 30 runs each, 2026-12-02; wall times noisy) went from
// 1.65-1.77x to 1.15-1.19x the floor (a plain directory: 1.06-1.21x),
// from 6.0-7.0 to 3.0-3.6 ms of CPU in all processes (perf stat
// task-clock; the floor 1.9-2.2 ms), and from about 770 to about 470
// system calls (strace -f, two execve to one). In process
// (BenchmarkGitFingerprint): 100 files 1.6-1.9 ms through git ls-files,
// 0.26-0.33 ms read from the files.
//
// # Why a spool, and what it costs
//
// The lean guard has no SQLite (see above), and the issue asks that
// commands no [[cache]] rule matches get no slower. The options, measured
// on 2026-12-01 on the 2-core build machine under load average 12-15 (wall
// times noisy: system calls and CPU are the steadier figures):
//
//	per run, in process (go test ./ccs -run '^$' -bench 'SaveRun|RunFilePerRun'):
//	  one record appended to spool.log (O_APPEND, shared flock)   18 µs
//	  a file per run (create, write, rename into a directory)     0.44-1.3 ms
//	  SQLite open, insert, close from a fresh process (above)     ~3.4 ms
//
// so every run goes to the spool, one write(2) under a shared flock (a
// record over 1 MiB is written in pieces under the exclusive lock), and
// guard-cli imports it (guard context …, or in the background when the
// spool passes 8 MiB, at most once a minute). Entry files, the only thing a
// hit reads, are written only for runs a rule covers (slow commands by
// definition). A run that printed nothing and no rule covers is not kept
// at all: its audit record says all there is.
//
// bench/context.sh (strace -f, guard's own threads, runtime futex and
// nanosleep left out; wall medians of 40 interleaved runs):
//
//	                                          system calls   wall
//	guard -c true, before the store           98-101         -
//	guard -c true, captured                   116-119        3.29 ms
//	guard -c true, GUARD_NO_CACHE=1           99             3.08 ms
//	guard -c true, captured, 2 [[cache]]      116            3.07 ms
//	  rules that do not match
//	floor true (bench/floor)                  -              2.85 ms
//
// The 17-21 more calls are two pipes, a pidfd and its poll, two isatty and
// two fstat checks; perf stat --no-inherit puts guard's own CPU within
// the noise of before (1.4-2.4 ms either way). Rules that do not match
// cost nothing measurable (one glob match each).
//
//	cache hit for a command that takes 1 s    median, 40 runs   vs floor true
//	  plain directory of 100 files            3.27 ms           1.02x
//	  git work tree of 100 files              4.98 ms           1.55x (1.32x in
//	                                                            another run;
//	                                                            1.15x since it
//	                                                            starts no git)
//
//	100 MB through guard -c 'cat FILE' | cat  CPU (all)   wall
//	  GUARD_NO_CACHE=1 (passthrough)          50 ms       64 ms
//	  captured                                80-129 ms   124-160 ms
//
// Capture costs the copy through guard, the redaction and the spool write
// of the first 8 MiB (about 40-80 ms of CPU); what follows is spliced
// with no copy. The target (under 10% over passthrough) is not
// met for a command that only copies a file; for a command that computes
// its output the share is smaller.
//
// # Import, limits and failures
//
// ContextStore.Import moves spool.log aside under the exclusive lock (a
// half-done import's file is taken first), reads its records (a record
// whose length or CRC-32 is wrong is skipped: the reader looks for the
// next magic), writes the log file of each run larger than MaxInline, then
// inserts the runs in transactions of 200 (INSERT OR IGNORE: a repeated
// import adds nothing). Pruning runs at most once a minute: entry files
// that may no longer answer, logs past MaxLogs oldest first, and rows past
// MaxDB (pages in use), expired entries first, then least recently used. A
// database that SQLite calls damaged or not a database is renamed
// context.db.damaged-TIME with a warning (ContextStore.Warnings) and a new
// one is made. The lean guard never opens it, so a broken database never
// stops a command; a spool or entry that cannot be written (a full disk)
// is one warning on stderr and the command's own result is untouched.
package ccs
