package grants

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Escalation state: a small directory in the state directory, written by
// the lean guard (no SQLite), one pair of files per project root:
//
//	$XDG_STATE_HOME/guard/policy/<root-hash>.events     one line per high-risk would-deny: unix nanoseconds
//	$XDG_STATE_HOME/guard/policy/<root-hash>.escalated  JSON EscalationState: the switch to enforce
//
// Each event is one O_APPEND write, so concurrent guards never lose or tear
// one. The switch is written atomically (temp file, rename). Load reads the
// switch only when escalation is configured; guard policy reset removes
// both files. Like all of guard's state, the directory is protected: a
// guarded command cannot write it.

// EscalationState is the recorded switch of one project from dry_run to enforce.
type EscalationState struct {
	Root   string        `json:"root"`
	At     time.Time     `json:"at"`
	Events int           `json:"events"` // high-risk would-deny verdicts counted
	Within time.Duration `json:"within"` // in this window
}

// maxEvents bounds the events file: past it the file is rewritten with
// only the events still inside the window.
const maxEvents = 256

// escalationFiles returns the events and switch files of root.
func escalationFiles(p Paths, root string) (events, switched string) {
	base := filepath.Join(p.StateDir, "policy", RootHash(root))
	return base + ".events", base + ".escalated"
}

// EscalationFile is where the switch of root to enforce is recorded.
func EscalationFile(p Paths, root string) string {
	_, f := escalationFiles(p, root)
	return f
}

// ReadEscalation returns the recorded switch of root, nil when there is none.
func ReadEscalation(p Paths, root string) (*EscalationState, error) {
	data, err := readConfig(EscalationFile(p, root))
	if err != nil || data == nil {
		return nil, err
	}
	var st EscalationState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", EscalationFile(p, root), err)
	}
	return &st, nil
}

// NoteWouldDeny counts one high-risk would-deny verdict in root at now. When
// e.After of them fall within e.Within, it records the switch to enforce
// and reports true (once: a switch already recorded reports false).
func NoteWouldDeny(p Paths, root string, now time.Time, e Escalation) (*EscalationState, error) {
	if e.After <= 0 || e.Within <= 0 {
		return nil, nil
	}
	events, switched := escalationFiles(p, root)
	if err := os.MkdirAll(filepath.Dir(events), 0o700); err != nil {
		return nil, fmt.Errorf("escalation state: %w", err)
	}
	fd, err := openRegular(events, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_CREAT|syscall.O_NOFOLLOW)
	if err != nil {
		return nil, fmt.Errorf("escalation state %s: %w", events, err)
	}
	line := strconv.FormatInt(now.UnixNano(), 10) + "\n"
	_, err = syscall.Write(fd.fd, []byte(line))
	syscall.Close(fd.fd)
	if err != nil {
		return nil, fmt.Errorf("escalation state %s: %w", events, err)
	}
	data, err := readConfig(events)
	if err != nil {
		return nil, err
	}
	var recent []string
	total := 0
	for _, l := range strings.Split(string(data), "\n") {
		n, err := strconv.ParseInt(l, 10, 64)
		if err != nil {
			continue
		}
		total++
		if t := time.Unix(0, n); !t.Before(now.Add(-e.Within)) && !t.After(now) {
			recent = append(recent, l)
		}
	}
	if total > maxEvents {
		_ = writeAtomic(events, []byte(strings.Join(recent, "\n")+"\n"), 0o600)
	}
	if len(recent) < e.After {
		return nil, nil
	}
	if _, err := os.Lstat(switched); err == nil {
		return nil, nil // switched already
	}
	st := &EscalationState{Root: root, At: now, Events: len(recent), Within: e.Within}
	b, _ := json.Marshal(st)
	if err := writeAtomic(switched, append(b, '\n'), 0o600); err != nil {
		return nil, err
	}
	return st, nil
}

// ResetEscalation undoes the switch of root and forgets its counted
// events; it reports whether there was a switch.
func ResetEscalation(p Paths, root string) (bool, error) {
	events, switched := escalationFiles(p, root)
	had := false
	if err := os.Remove(switched); err == nil {
		had = true
	} else if !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("reset escalation: %w", err)
	}
	if err := os.Remove(events); err != nil && !errors.Is(err, os.ErrNotExist) {
		return had, fmt.Errorf("reset escalation: %w", err)
	}
	return had, nil
}
