package ccs

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// Statuses of a pending request.
const (
	StatusPending         = "pending"
	StatusApprovedOnce    = "approved-once"
	StatusApprovedProject = "approved-project"
	StatusApprovedGlobal  = "approved-global"
	StatusRejected        = "rejected"
	// StatusUsed is an approved-once request that has let its command run.
	StatusUsed = "used"
)

// resolutions are the statuses Resolve accepts.
var resolutions = map[string]bool{
	StatusApprovedOnce: true, StatusApprovedProject: true, StatusApprovedGlobal: true, StatusRejected: true,
}

// ErrNotFound is returned for a pending request ID that does not exist.
var ErrNotFound = errors.New("no such request")

// A Pending is a command that needed a human's approval when none could be
// asked. The human answers later with guard approve or guard reject.
type Pending struct {
	ID       string
	Time     time.Time
	Cwd      string
	Root     string
	Command  string // redacted
	SHA256   string // of the original text
	Suggest  string // the suggested grant pattern, if any
	Status   string // pending | approved-once | approved-project | approved-global | rejected | used
	Resolved time.Time
}

// idBytes is the length of a request ID in bytes (6 hex digits).
const idBytes = 3

// AddPending stores a request and returns it with its ID and status set. If
// the same text (sha256) in the same directory is already pending, that
// request is returned instead and nothing is added. Command, Cwd and Root
// are redacted. A zero Time is taken as now.
func (s *Store) AddPending(p Pending) (Pending, error) {
	p.Command = s.red.String(p.Command)
	p.Cwd = s.red.String(p.Cwd)
	p.Root = s.red.String(p.Root)
	p.Suggest = s.red.String(p.Suggest)
	p.Status = StatusPending
	p.Resolved = time.Time{}
	if p.Time.IsZero() {
		p.Time = time.Now()
	}
	var out Pending
	err := s.tx(func(tx *sql.Tx) error {
		existing, err := scanPending(tx.QueryRow(pendingSelect+` WHERE sha256 = ? AND cwd = ? AND status = ? ORDER BY time LIMIT 1`,
			p.SHA256, p.Cwd, StatusPending))
		if err == nil {
			out = existing
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		for range 100 {
			id, err := newID()
			if err != nil {
				return err
			}
			res, err := tx.Exec(`INSERT INTO pending (id, time, cwd, root, command, sha256, suggest, status, resolved)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0) ON CONFLICT (id) DO NOTHING`,
				id, p.Time.UnixNano(), p.Cwd, p.Root, p.Command, p.SHA256, p.Suggest, p.Status)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 1 {
				p.ID = id
				out = p
				return nil
			}
		}
		return errors.New("no free request id")
	})
	if err != nil {
		return Pending{}, fmt.Errorf("add pending request: %w", err)
	}
	return out, nil
}

func newID() (string, error) {
	b := make([]byte, idBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make request id: %w", err)
	}
	return hex.EncodeToString(b), nil
}

const pendingSelect = `SELECT id, time, cwd, root, command, sha256, suggest, status, resolved FROM pending`

func scanPending(row interface{ Scan(...any) error }) (Pending, error) {
	var p Pending
	var t, r int64
	if err := row.Scan(&p.ID, &t, &p.Cwd, &p.Root, &p.Command, &p.SHA256, &p.Suggest, &p.Status, &r); err != nil {
		return Pending{}, err
	}
	p.Time, p.Resolved = time.Unix(0, t), fromNullTime(r)
	return p, nil
}

// ListPending returns the requests still waiting for an answer, oldest
// first.
func (s *Store) ListPending() ([]Pending, error) {
	var list []Pending
	err := s.read(func(db *sql.DB) error {
		list = list[:0]
		rows, err := db.Query(pendingSelect+` WHERE status = ? ORDER BY time, id`, StatusPending)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			p, err := scanPending(rows)
			if err != nil {
				return err
			}
			list = append(list, p)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list pending requests: %w", err)
	}
	return list, nil
}

// GetPending returns the request with this ID, whatever its status. An
// unknown ID gives an error that wraps ErrNotFound.
func (s *Store) GetPending(id string) (Pending, error) {
	var p Pending
	err := s.read(func(db *sql.DB) error {
		var err error
		p, err = scanPending(db.QueryRow(pendingSelect+` WHERE id = ?`, id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Pending{}, fmt.Errorf("request %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Pending{}, fmt.Errorf("get request %q: %w", id, err)
	}
	return p, nil
}

// Resolve answers a pending request: status is approved-once,
// approved-project, approved-global or rejected. Only a request that is
// still pending can be answered.
func (s *Store) Resolve(id, status string, now time.Time) error {
	if !resolutions[status] {
		return fmt.Errorf("resolve request %q: %q is not an answer (approved-once, approved-project, approved-global or rejected)", id, status)
	}
	err := s.tx(func(tx *sql.Tx) error {
		var cur string
		if err := tx.QueryRow(`SELECT status FROM pending WHERE id = ?`, id).Scan(&cur); err != nil {
			return err
		}
		if cur != StatusPending {
			return fmt.Errorf("it was answered already (%s)", cur)
		}
		_, err := tx.Exec(`UPDATE pending SET status = ?, resolved = ? WHERE id = ?`, status, nullTime(now), id)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("resolve request %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("resolve request %q: %w", id, err)
	}
	return nil
}

// TakeOnce consumes one approved-once request for exactly this text
// (sha256) in exactly this directory, answered within the last ten minutes
// before now. It reports whether there was one; a consumed request never
// counts again.
func (s *Store) TakeOnce(sha256, cwd string, now time.Time) (bool, error) {
	cwd = s.red.String(cwd) // stored redacted
	var took bool
	err := s.tx(func(tx *sql.Tx) error {
		took = false
		var id string
		err := tx.QueryRow(`SELECT id FROM pending WHERE sha256 = ? AND cwd = ? AND status = ? AND resolved >= ? AND resolved <= ?
			ORDER BY resolved LIMIT 1`, sha256, cwd, StatusApprovedOnce, now.Add(-onceWindow).UnixNano(), now.UnixNano()).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE pending SET status = ? WHERE id = ?`, StatusUsed, id); err != nil {
			return err
		}
		took = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("use approved request: %w", err)
	}
	return took, nil
}
