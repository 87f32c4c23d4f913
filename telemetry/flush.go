package telemetry

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
)

// Files in the state directory.
const (
	stateName = "telemetry.state" // the position: last exported row id, instance id, failures
	lockName  = "telemetry.lock"  // held by the one flusher that runs
)

// BatchSize is how many records one export carries.
const BatchSize = 500

// maxBackoff caps the wait after failures.
const maxBackoff = 30 * time.Minute

// ErrBusy is Flush's error when another flusher holds the lock.
var ErrBusy = errors.New("another telemetry flush is still running")

// A Flusher exports the audit records of one state directory.
type Flusher struct {
	Store    *ccs.Store
	StateDir string
	Config   grants.Telemetry
	Version  string // service.version
	Now      func() time.Time
	// Batch is the records per export (0: BatchSize).
	Batch int
	// Wait is how long to wait for another flusher to finish (0: not at
	// all, Flush fails with ErrBusy).
	Wait time.Duration
}

// state is telemetry.state.
type state struct {
	LastID   int64  `json:"last_id"`  // the last row id the collector accepted
	Instance string `json:"instance"` // service.instance.id
	Failures int    `json:"failures"` // exports failed in a row (the backoff)
	// LastError is why the last failed flush failed, and when (guard
	// doctor shows it; a background flush has nowhere else to say it).
	LastError   string    `json:"last_error,omitempty"`
	LastErrorAt time.Time `json:"last_error_at,omitzero"`
}

// Status is what guard doctor says about the flusher.
type Status struct {
	LastID      int64     // the last record the collector accepted (0: none yet)
	Failures    int       // flushes failed in a row
	LastError   string    // why the last one failed ("" after a success)
	LastErrorAt time.Time // when
}

// ReadStatus reads the flusher's position in stateDir; a flusher that never
// ran has the zero Status.
func ReadStatus(stateDir string) (Status, error) {
	b, err := os.ReadFile(filepath.Join(stateDir, stateName))
	if errors.Is(err, fs.ErrNotExist) {
		return Status{}, nil
	}
	if err != nil {
		return Status{}, fmt.Errorf("read telemetry position: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return Status{}, fmt.Errorf("telemetry position %s is damaged", filepath.Join(stateDir, stateName))
	}
	return Status{LastID: st.LastID, Failures: st.Failures, LastError: st.LastError, LastErrorAt: st.LastErrorAt}, nil
}

// Flush exports every record not yet exported, a batch at a time, moving
// the saved position after each batch the collector accepted. It returns
// how many records were sent. On failure the position stays where it is
// and the next flush is due after a backoff.
func (f *Flusher) Flush(ctx context.Context) (int, error) {
	if !f.Config.Enabled() {
		return 0, errors.New("telemetry is not configured: set [telemetry] otlp_endpoint in config.toml")
	}
	now := f.now()
	if err := os.MkdirAll(f.StateDir, 0o700); err != nil {
		return 0, err
	}
	lock, err := os.OpenFile(filepath.Join(f.StateDir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return 0, fmt.Errorf("telemetry lock: %w", err)
	}
	defer lock.Close()
	for deadline := time.Now().Add(f.Wait); ; time.Sleep(100 * time.Millisecond) {
		err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR || !time.Now().Before(deadline) {
			return 0, ErrBusy
		}
	}
	st, err := f.readState()
	if err != nil {
		return 0, err
	}
	sent, err := f.flush(ctx, &st, now)
	if err != nil {
		st.Failures++
		st.LastError, st.LastErrorAt = err.Error(), now
		_ = f.writeState(st)
		_ = ccs.SetFlushDue(f.StateDir, now.Add(backoff(st.Failures)))
		return sent, err
	}
	if st.Failures != 0 || st.LastError != "" {
		st.Failures, st.LastError, st.LastErrorAt = 0, "", time.Time{}
		if err := f.writeState(st); err != nil {
			return sent, err
		}
	}
	_ = ccs.SetFlushDue(f.StateDir, now.Add(ccs.FlushEvery))
	return sent, nil
}

func (f *Flusher) flush(ctx context.Context, st *state, now time.Time) (int, error) {
	if err := f.Store.Import(); err != nil {
		return 0, err
	}
	// A database made anew (audit.db removed) numbers its rows from 1
	// again: a position past its last row (the row it names is gone)
	// would hold back every record.
	if st.LastID > 0 {
		at, err := f.Store.Audit(ccs.Query{AfterID: st.LastID - 1, Oldest: true, Limit: 1})
		if err != nil {
			return 0, err
		}
		if len(at) == 0 {
			st.LastID = 0
		}
	}
	res, err := f.resource(st.Instance)
	if err != nil {
		return 0, err
	}
	exp, err := newExporters(ctx, f.Config)
	if err != nil {
		return 0, err
	}
	defer exp.shutdown()
	hash := func(s string) string {
		h, err := f.Store.Sum(s)
		if err != nil {
			return ""
		}
		return h
	}
	batch := f.Batch
	if batch <= 0 {
		batch = BatchSize
	}
	sent := 0
	for {
		recs, err := f.Store.Audit(ccs.Query{AfterID: st.LastID, Oldest: true, Limit: batch})
		if err != nil {
			return sent, err
		}
		if len(recs) == 0 {
			return sent, nil
		}
		if err := exp.exportBatch(ctx, res, recs, f.Config, hash, now); err != nil {
			return sent, err
		}
		st.LastID = recs[len(recs)-1].ID
		if err := f.writeState(*st); err != nil {
			return sent, err
		}
		sent += len(recs)
	}
}

// resource is what every record is about: guard on this host, this state
// directory's instance, and the settings' resource_attributes (which may
// not rename guard itself).
func (f *Flusher) resource(instance string) (*resource.Resource, error) {
	var attrs []attribute.KeyValue
	for k, v := range f.Config.ResourceAttributes {
		attrs = append(attrs, attribute.String(k, v))
	}
	attrs = append(attrs,
		attribute.String("service.name", "guard"),
		attribute.String("service.instance.id", instance),
	)
	if f.Version != "" {
		attrs = append(attrs, attribute.String("service.version", f.Version))
	}
	if host, err := os.Hostname(); err == nil {
		attrs = append(attrs, attribute.String("host.name", host))
	}
	// later attributes win: guard's own over the settings'
	return resource.NewSchemaless(dedupe(attrs)...), nil
}

// dedupe keeps the last value of each key.
func dedupe(attrs []attribute.KeyValue) []attribute.KeyValue {
	idx := map[attribute.Key]int{}
	var out []attribute.KeyValue
	for _, a := range attrs {
		if i, ok := idx[a.Key]; ok {
			out[i] = a
			continue
		}
		idx[a.Key] = len(out)
		out = append(out, a)
	}
	return out
}

func (f *Flusher) now() time.Time {
	if f.Now == nil {
		return time.Now()
	}
	return f.Now()
}

// backoff is the wait before the next flush after n failures in a row.
func backoff(n int) time.Duration {
	d := ccs.FlushEvery
	for i := 1; i < n && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// readState reads telemetry.state, making a new instance id the first
// time. A damaged file is an error (never a silent restart from zero,
// which would send every record again).
func (f *Flusher) readState() (state, error) {
	path := filepath.Join(f.StateDir, stateName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		var id [16]byte
		if _, err := rand.Read(id[:]); err != nil {
			return state{}, err
		}
		st := state{Instance: hex.EncodeToString(id[:])}
		return st, f.writeState(st)
	}
	if err != nil {
		return state{}, fmt.Errorf("read telemetry position: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil || st.Instance == "" {
		return state{}, fmt.Errorf("telemetry position %s is damaged; remove it to send every record again", path)
	}
	return st, nil
}

// writeState replaces telemetry.state atomically: a temporary file,
// fsync, rename, and the directory synced.
func (f *Flusher) writeState(st state) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(f.StateDir, stateName+".*")
	if err != nil {
		return fmt.Errorf("save telemetry position: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(f.StateDir, stateName))
	}
	if err != nil {
		return fmt.Errorf("save telemetry position: %w", err)
	}
	if d, err := os.Open(f.StateDir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
