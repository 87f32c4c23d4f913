package ccs

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// headSize is how much of a journal's beginning identifies it, beside its
// inode number (which the file system may reuse once a file is gone).
const headSize = 128

// recordStart begins every journal line. A line that does not parse (a
// record torn by a crash or a full disk, with the next record appended to
// it) is read from its last recordStart, which cannot occur inside a JSON
// string.
var recordStart = []byte(`{"time":`)

// A journal is one open journal file.
type journal struct {
	f    *os.File
	ino  uint64
	head []byte
}

// importJournal copies the journal lines not yet in the database into it, in
// one transaction that also moves the stored position (inode, head, offset),
// so concurrent importers never import a line twice.
func (s *Store) importJournal() error {
	if !s.journalExists() {
		return nil // nothing was ever written: leave the database alone
	}
	return s.tx(func(tx *sql.Tx) error {
		// The files are opened inside the transaction, which importers
		// hold one at a time: the position read below was written by an
		// importer that saw these files or their predecessors, never a
		// later set. (Opened before it, a rotation could slip in between
		// and the stored position would match neither file.)
		old, cur, err := s.openJournals()
		if err != nil {
			return err
		}
		defer old.close()
		defer cur.close()
		if old == nil && cur == nil {
			return nil
		}
		var pos struct {
			ino    uint64
			head   []byte
			offset int64
		}
		err = tx.QueryRow(`SELECT inode, head, offset FROM journal_position WHERE id = 1`).Scan(&pos.ino, &pos.head, &pos.offset)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		same := func(j *journal) bool { return j.matches(pos.ino, pos.head) }
		type step struct {
			j     *journal
			from  int64
			final bool // no more lines will come: take a torn last line as done
		}
		var plan []step
		switch {
		case same(cur):
			plan = []step{{cur, pos.offset, false}}
		case same(old):
			plan = []step{{old, pos.offset, true}, {cur, 0, false}}
		default:
			plan = []step{{old, 0, true}, {cur, 0, false}}
		}
		ins, err := tx.Prepare(`INSERT INTO audit (time, agent, cwd, command, hmac, decision, rule, answer, via, mode, exit, duration_ms, risk, policy_mode, session, confined, project, overhead_us)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		var last *journal
		var lastOff int64
		moved := false
		for _, st := range plan {
			if st.j == nil {
				continue
			}
			off, err := importFile(ins, st.j, st.from, st.final)
			if err != nil {
				return err
			}
			if len(st.j.head) == 0 {
				continue // empty: it cannot be recognised later, keep the one before
			}
			last, lastOff = st.j, off
			moved = moved || off != pos.offset || !same(st.j)
		}
		if !moved || last == nil {
			return nil // nothing new: write nothing
		}
		_, err = tx.Exec(`INSERT INTO journal_position (id, inode, head, offset) VALUES (1, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET inode = excluded.inode, head = excluded.head, offset = excluded.offset`,
			last.ino, last.head, lastOff)
		return err
	})
}

// importFile inserts the complete lines of j from offset on and returns the
// offset after the last line it consumed.
func importFile(ins *sql.Stmt, j *journal, from int64, final bool) (int64, error) {
	fi, err := j.f.Stat()
	if err != nil {
		return 0, err
	}
	if from > fi.Size() {
		from = 0 // not the file we were told it is
	}
	data, err := io.ReadAll(io.NewSectionReader(j.f, from, fi.Size()-from))
	if err != nil {
		return 0, fmt.Errorf("read journal: %w", err)
	}
	consumed := 0
	for consumed < len(data) {
		n := bytes.IndexByte(data[consumed:], '\n')
		if n < 0 {
			if final {
				consumed = len(data)
			}
			break // an unfinished line: maybe still being written
		}
		line := data[consumed : consumed+n]
		consumed += n + 1
		rec, ok := parseLine(line)
		if !ok {
			continue
		}
		if _, err := ins.Exec(rec.Time.UnixNano(), rec.Agent, rec.Cwd, rec.Command, rec.HMAC,
			rec.Decision, rec.Rule, rec.Answer, rec.Via, rec.Mode, rec.Exit, rec.DurationMS, rec.Risk, rec.PolicyMode, rec.Session, rec.Confined, rec.Project, rec.OverheadUS); err != nil {
			return 0, err
		}
	}
	if from == 0 {
		// The file may have grown since it was opened (from empty): know
		// it by the complete lines imported from it.
		j.head = data[:min(headSize, consumed)]
	}
	return from + int64(consumed), nil
}

// parseLine decodes one journal line, recovering the record at its end if
// the line starts with a torn one.
func parseLine(line []byte) (Record, bool) {
	line = bytes.TrimSpace(line)
	for len(line) > 0 {
		var rec struct {
			Record
			SHA256 string `json:"sha256"` // written before the hash was keyed
		}
		if err := json.Unmarshal(line, &rec); err == nil && !rec.Time.IsZero() {
			if rec.HMAC == "" {
				rec.HMAC = rec.SHA256
			}
			return rec.Record, true
		}
		i := bytes.LastIndex(line, recordStart)
		if i <= 0 {
			break
		}
		line = line[i:]
	}
	return Record{}, false
}

func (s *Store) journalExists() bool {
	for _, name := range []string{journalName, oldJournalName} {
		if _, err := os.Stat(s.path(name)); !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}

// openJournals opens audit.jsonl.1 and audit.jsonl (nil where missing)
// while holding the journal lock, so no rotation happens between the two.
func (s *Store) openJournals() (old, cur *journal, err error) {
	l, err := s.lock(syscall.LOCK_SH)
	if err != nil {
		return nil, nil, err
	}
	defer l.Close()
	if old, err = openJournal(s.path(oldJournalName)); err != nil {
		return nil, nil, err
	}
	if cur, err = openJournal(s.path(journalName)); err != nil {
		old.close()
		return nil, nil, err
	}
	return old, cur, nil
}

func openJournal(path string) (*journal, error) {
	f, err := openRegular(path, syscall.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", explainFS(err))
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		f.Close()
		return nil, fmt.Errorf("open journal %s: no inode number on this system", path)
	}
	head := make([]byte, headSize)
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		f.Close()
		return nil, fmt.Errorf("read journal %s: %w", path, err)
	}
	return &journal{f: f, ino: st.Ino, head: head[:n]}, nil
}

// matches reports whether j is the file with this inode and head.
func (j *journal) matches(ino uint64, head []byte) bool {
	return j != nil && len(head) > 0 && j.ino == ino && bytes.HasPrefix(j.head, head)
}

func (j *journal) close() {
	if j != nil {
		j.f.Close()
	}
}
