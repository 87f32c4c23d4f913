package ccs

import (
	"database/sql"
	"fmt"
	"math"
	"time"
)

// Audit returns the records q selects, newest first. It first imports the
// journal lines written since the last import, so it sees every record
// appended before it was called.
func (s *Store) Audit(q Query) ([]Record, error) {
	if err := s.importJournal(); err != nil {
		return nil, fmt.Errorf("import audit journal: %w", err)
	}
	since := int64(math.MinInt64)
	if !q.Since.IsZero() {
		since = q.Since.UnixNano()
	}
	limit := q.Limit
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	var recs []Record
	err := s.read(func(db *sql.DB) error {
		recs = recs[:0]
		order := `ORDER BY time DESC, id DESC`
		if q.Oldest {
			order = `ORDER BY id`
		}
		rows, err := db.Query(`SELECT time, agent, cwd, command, hmac, decision, rule, answer, via, mode, exit, duration_ms, risk, policy_mode, session, confined, project, overhead_us, id
			FROM audit WHERE (?1 = '' OR decision = ?1) AND time >= ?2 AND id > ?4
			`+order+` LIMIT ?3`, q.Decision, since, limit, q.AfterID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r Record
			var t int64
			if err := rows.Scan(&t, &r.Agent, &r.Cwd, &r.Command, &r.HMAC, &r.Decision, &r.Rule,
				&r.Answer, &r.Via, &r.Mode, &r.Exit, &r.DurationMS, &r.Risk, &r.PolicyMode, &r.Session, &r.Confined, &r.Project, &r.OverheadUS, &r.ID); err != nil {
				return err
			}
			r.Time = time.Unix(0, t)
			recs = append(recs, r)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read audit: %w", err)
	}
	return recs, nil
}
