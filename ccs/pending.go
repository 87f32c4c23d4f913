package ccs

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
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

// resolutions are the statuses Resolve accepts. StatusUsed answers a
// request whose command runs at once (allowed once in guard watch, while
// the command waited): it can never let the text run again.
var resolutions = map[string]bool{
	StatusApprovedOnce: true, StatusApprovedProject: true, StatusApprovedGlobal: true, StatusRejected: true,
	StatusUsed: true,
}

// statuses are all the statuses a request file may hold.
var statuses = map[string]bool{
	StatusPending: true, StatusApprovedOnce: true, StatusApprovedProject: true,
	StatusApprovedGlobal: true, StatusRejected: true, StatusUsed: true,
}

// ErrNotFound is returned for a pending request ID that does not exist.
var ErrNotFound = errors.New("no such request")

// A Pending is a command that needed a human's approval when none could be
// asked. The human answers later with guard approve or guard reject.
type Pending struct {
	ID      string
	Time    time.Time
	Cwd     string
	Root    string
	Command string // redacted
	HMAC    string // keyed hash of the original text (see Store.Sum)
	// CwdHMAC is the keyed hash of the unredacted Cwd (cwdSum): approvals
	// match it, not the redacted Cwd, which two directories can share.
	CwdHMAC  string
	Suggest  string // the suggested grant pattern, if any
	Status   string // pending | approved-once | approved-project | approved-global | rejected | used
	Resolved time.Time
	// Pid and Start (its start time, in clock ticks since boot, as
	// /proc/PID/stat says) name the guard that waits for the answer, while
	// one waits: a request whose waiting guard is gone (the command was
	// killed) is dropped. Zero when nobody waits.
	Pid   int
	Start uint64
	// Message is what the human who rejected the request said to the
	// agent ("use make test instead"), redacted; the refusal line carries it.
	Message string
}

// Where and how requests are kept: one file per request in their own
// directory, so that a binary without SQLite can keep them.
const (
	pendingDirName  = "pending"
	pendingLockName = "pending.lock"
	// idBytes is the length of a request ID in bytes (6 hex digits).
	idBytes = 3
	// pendingKeep is how long an answered (or used) request is kept, after
	// its answer, before AddPending removes it.
	pendingKeep = 7 * 24 * time.Hour
	// maxPendingFile bounds what is read from one request file.
	maxPendingFile = 1 << 20
)

// pendingFile is a request as stored in pending/ID.json.
type pendingFile struct {
	ID       string    `json:"id"`
	Time     time.Time `json:"time"`
	Cwd      string    `json:"cwd"`
	Root     string    `json:"root"`
	Command  string    `json:"command"`
	HMAC     string    `json:"hmac"`
	CwdHMAC  string    `json:"cwd_hmac,omitempty"`
	Suggest  string    `json:"suggest"`
	Status   string    `json:"status"`
	Resolved time.Time `json:"resolved,omitzero"`
	Pid      int       `json:"pid,omitzero"`
	Start    uint64    `json:"start,omitzero"`
	Message  string    `json:"message,omitempty"`
}

// onceSuffix names a marker file, ID.once, that exists beside ID.json
// while the request may be approved-once. TakeOnce, which runs whenever
// guard must ask, then reads only those requests, not every file. The
// marker is made before the status is written and removed after, so an
// approved-once request always has one; a marker left over by a crash is
// harmless and AddPending removes it.
const onceSuffix = ".once"

// AddPending stores a request and returns it with its ID and status set. If
// the same text (hmac) in the same directory is already pending, that
// request is returned instead and nothing is added. Command, Cwd and Root
// are redacted. A zero Time is taken as now. Requests answered more than
// seven days before Time are removed on the way.
func (s *Store) AddPending(p Pending) (Pending, error) {
	if p.HMAC != "" {
		sum, err := s.cwdSum(p.Cwd)
		if err != nil {
			return Pending{}, fmt.Errorf("add pending request: %w", err)
		}
		p.CwdHMAC = sum
	}
	p.Command = s.red.String(p.Command)
	p.Cwd = s.red.String(p.Cwd)
	p.Root = s.red.String(p.Root)
	p.Suggest = s.red.String(p.Suggest)
	p.Status = StatusPending
	p.Resolved = time.Time{}
	if p.Time.IsZero() {
		p.Time = time.Now()
	}
	out, err := s.addPending(p)
	if err != nil {
		return Pending{}, fmt.Errorf("add pending request: %w", err)
	}
	return out, nil
}

func (s *Store) addPending(p Pending) (Pending, error) {
	if err := s.ensureDir(); err != nil {
		return Pending{}, err
	}
	dir := s.path(pendingDirName)
	if err := os.Mkdir(dir, stateDirMode); err != nil && !errors.Is(err, fs.ErrExist) {
		return Pending{}, fmt.Errorf("create request directory: %w", inDir(s.dir, err))
	}
	l, err := s.lockPending(syscall.LOCK_EX)
	if err != nil {
		return Pending{}, err
	}
	defer l.Close()
	all, names, markers, err := readPendingDir(dir)
	if err != nil {
		return Pending{}, err
	}
	for _, q := range all {
		if q.Status == StatusApprovedOnce {
			delete(markers, q.ID)
		}
	}
	for id := range markers {
		os.Remove(markerPath(dir, id)) // left over: its request is not approved-once
	}
	var same []Pending
	for _, q := range all {
		if q.Abandoned() || q.Expired(p.Time, pendingKeep) {
			os.Remove(pendingPath(dir, q.ID)) // best effort: its command is gone, or nobody answered for a week
			continue
		}
		if q.Status == StatusPending && p.HMAC != "" && q.HMAC == p.HMAC && q.CwdHMAC == p.CwdHMAC && q.Pid == 0 {
			same = append(same, q)
		}
	}
	if len(same) > 0 {
		return slices.MinFunc(same, byTimeID), nil
	}
	for _, q := range all {
		if q.Status != StatusPending && answered(q).Before(p.Time.Add(-pendingKeep)) {
			os.Remove(pendingPath(dir, q.ID)) // best effort: it is only kept too long
			os.Remove(markerPath(dir, q.ID))
		}
	}
	for range 100 {
		id, err := newID()
		if err != nil {
			return Pending{}, err
		}
		if names[id] {
			continue
		}
		p.ID = id
		return p, writePending(dir, p)
	}
	return Pending{}, errors.New("no free request id")
}

// answered is when q was answered, or made if it never was.
func answered(q Pending) time.Time {
	if q.Resolved.IsZero() {
		return q.Time
	}
	return q.Resolved
}

func byTimeID(a, b Pending) int {
	if c := a.Time.Compare(b.Time); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

func newID() (string, error) {
	b := make([]byte, idBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make request id: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// validID reports whether id is a request ID (and so safe in a path).
func validID(id string) bool {
	if len(id) != 2*idBytes {
		return false
	}
	for _, c := range []byte(id) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func pendingPath(dir, id string) string { return filepath.Join(dir, id+".json") }

func markerPath(dir, id string) string { return filepath.Join(dir, id+onceSuffix) }

// lockPending takes the request lock; every read-modify-write holds it
// exclusively. Readers need not take it: files are replaced by rename.
func (s *Store) lockPending(how int) (*os.File, error) {
	return flockFile(filepath.Join(s.path(pendingDirName), pendingLockName), "request", how)
}

// readPendingDir reads every request file in dir. Damaged files are
// skipped, but their IDs are in names with the others'; markers holds the
// IDs that have a marker (onceSuffix). A missing directory holds no
// requests.
func readPendingDir(dir string) (all []Pending, names, markers map[string]bool, err error) {
	entries, err := listPendingDir(dir)
	if err != nil || entries == nil {
		return nil, nil, nil, err
	}
	names, markers = map[string]bool{}, map[string]bool{}
	for _, e := range entries {
		if id, ok := cutID(e.Name(), onceSuffix); ok {
			markers[id] = true
		}
		id, ok := cutID(e.Name(), ".json")
		if !ok {
			continue
		}
		names[id] = true
		if p, err := getPending(dir, id); err == nil {
			all = append(all, p)
		}
	}
	return all, names, markers, nil
}

// onceCandidates reads the requests in dir that have a marker: the only
// ones that may be approved-once.
func onceCandidates(dir string) ([]Pending, error) {
	entries, err := listPendingDir(dir)
	var all []Pending
	for _, e := range entries {
		if id, ok := cutID(e.Name(), onceSuffix); ok {
			if p, err := getPending(dir, id); err == nil {
				all = append(all, p)
			}
		}
	}
	return all, err
}

// listPendingDir lists the request directory; a missing one is empty (nil).
func listPendingDir(dir string) ([]fs.DirEntry, error) {
	entries, err := readDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read request directory: %w", explainFS(err))
	}
	return entries, nil
}

// cutID returns the request ID in a file name ID+suffix.
func cutID(name, suffix string) (string, bool) {
	id, ok := strings.CutSuffix(name, suffix)
	return id, ok && validID(id)
}

// readSmall reads a file of at most maxPendingFile bytes.
func readSmall(path string) ([]byte, error) {
	f, err := openRegular(path, syscall.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPendingFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxPendingFile {
		return nil, fmt.Errorf("pending request file %s is damaged (longer than %d bytes); move it aside", path, maxPendingFile)
	}
	return data, nil
}

// decodePending parses a request file. The error names the file but never
// quotes it.
func decodePending(path, id string, data []byte) (Pending, error) {
	var f pendingFile
	if err := json.Unmarshal(data, &f); err != nil || f.ID != id || !statuses[f.Status] || f.Time.IsZero() {
		return Pending{}, fmt.Errorf("pending request file %s is damaged; move it aside", path)
	}
	f.Time = f.Time.Local() // as time.Now gives them
	if !f.Resolved.IsZero() {
		f.Resolved = f.Resolved.Local()
	}
	return Pending(f), nil
}

// getPending reads one request; a missing file wraps ErrNotFound.
func getPending(dir, id string) (Pending, error) {
	if !validID(id) {
		return Pending{}, ErrNotFound
	}
	path := pendingPath(dir, id)
	data, err := readSmall(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Pending{}, ErrNotFound
	}
	if err != nil {
		return Pending{}, explainFS(err)
	}
	return decodePending(path, id, data)
}

// writePending replaces p's file atomically: a temporary file, synced, is
// renamed over it.
func writePending(dir string, p Pending) error {
	data, err := json.Marshal(pendingFile(p))
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("write request: %w", inDir(dir, err))
	}
	_, err = tmp.Write(append(data, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), pendingPath(dir, p.ID))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write request: %w", inDir(dir, err))
	}
	return nil
}

// inDir rewords a failure to create something in dir as a problem of dir
// (a temporary file's name tells the user nothing).
func inDir(dir string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return explainFS(&fs.PathError{Op: pe.Op, Path: dir, Err: pe.Err})
	}
	return explainFS(err)
}

// DefaultPendingTTL is how long a request waits for an answer before it
// expires, unless pending_ttl says otherwise.
const DefaultPendingTTL = 24 * time.Hour

// ListPending returns the requests still waiting for an answer, oldest
// first, as ListPendingAt does, whatever their age.
func (s *Store) ListPending() ([]Pending, error) {
	return s.ListPendingAt(time.Now(), 0)
}

// ListPendingAt returns the requests still waiting for an answer at now,
// oldest first: not expired (made within ttl before now; ttl 0 never
// expires), and not left by a guard that waited and died. Damaged request
// files are skipped (GetPending names them).
func (s *Store) ListPendingAt(now time.Time, ttl time.Duration) ([]Pending, error) {
	all, _, _, err := readPendingDir(s.path(pendingDirName))
	if err != nil {
		return nil, fmt.Errorf("list pending requests: %w", err)
	}
	var list []Pending
	for _, p := range all {
		if p.Status == StatusPending && !p.Expired(now, ttl) && !p.Abandoned() {
			list = append(list, p)
		}
	}
	slices.SortFunc(list, byTimeID)
	return list, nil
}

// Expired reports whether a request still pending was made more than ttl
// before now (ttl 0: never).
func (p Pending) Expired(now time.Time, ttl time.Duration) bool {
	return p.Status == StatusPending && ttl > 0 && p.Time.Before(now.Add(-ttl))
}

// Abandoned reports whether the guard that waited for this request's
// answer is gone: the command it held was killed, and nobody will run it.
func (p Pending) Abandoned() bool {
	return p.Status == StatusPending && p.Pid > 0 && !ProcessAlive(p.Pid, p.Start)
}

// ProcessAlive reports whether process pid runs and started at start (in
// clock ticks since boot, /proc/PID/stat's 22nd field), so that a pid
// used again by another process does not count. Where /proc cannot tell,
// it is alive: a request is dropped only when its waiter is surely gone.
func ProcessAlive(pid int, start uint64) bool {
	got, err := ProcessStart(pid)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return err != nil || got == start
}

// ProcessStart returns the start time of process pid, in clock ticks since
// boot (/proc/PID/stat).
func ProcessStart(pid int) (uint64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseStartTime(b)
}

// parseStartTime reads the 22nd field of a stat line; the 2nd, comm, may
// hold spaces and parentheses, so fields are counted after its last ')'.
func parseStartTime(b []byte) (uint64, error) {
	end := strings.LastIndexByte(string(b), ')')
	if end < 0 {
		return 0, errors.New("malformed stat line")
	}
	f := strings.Fields(string(b[end+1:]))
	if len(f) < 20 {
		return 0, errors.New("malformed stat line: too few fields")
	}
	return strconv.ParseUint(f[19], 10, 64)
}

// SetWaiting records that the guard pid (started at start) waits for the
// answer to request id, or with pid 0 that none does any more: the
// request then stays for guard approve. Only a request still pending
// changes.
func (s *Store) SetWaiting(id string, pid int, start uint64) error {
	err := s.updatePending(id, func(p *Pending) bool {
		if p.Status != StatusPending {
			return false
		}
		p.Pid, p.Start = pid, start
		return true
	})
	if err != nil {
		return fmt.Errorf("mark request %q waiting: %w", id, err)
	}
	return nil
}

// DropPending removes request id if it is still pending: the command that
// waited for it is gone.
func (s *Store) DropPending(id string) error {
	if err := s.updatePending(id, nil); err != nil {
		return fmt.Errorf("drop request %q: %w", id, err)
	}
	return nil
}

// updatePending changes request id under the lock: change edits it and
// says whether to write it; a nil change removes a pending request.
func (s *Store) updatePending(id string, change func(*Pending) bool) error {
	dir := s.path(pendingDirName)
	if !validID(id) {
		return ErrNotFound
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	l, err := s.lockPending(syscall.LOCK_EX)
	if err != nil {
		return err
	}
	defer l.Close()
	p, err := getPending(dir, id)
	if err != nil {
		return err
	}
	if change == nil {
		if p.Status == StatusPending {
			return os.Remove(pendingPath(dir, id))
		}
		return nil
	}
	if !change(&p) {
		return nil
	}
	return writePending(dir, p)
}

// ClearPending removes the requests still pending that were made before
// cutoff (a zero cutoff: all of them), and those whose waiting guard is
// gone, and returns how many it removed. Answered requests stay: they are
// the record of approvals.
func (s *Store) ClearPending(cutoff time.Time) (int, error) {
	dir := s.path(pendingDirName)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	l, err := s.lockPending(syscall.LOCK_EX)
	if err != nil {
		return 0, fmt.Errorf("clear pending requests: %w", err)
	}
	defer l.Close()
	all, _, _, err := readPendingDir(dir)
	if err != nil {
		return 0, fmt.Errorf("clear pending requests: %w", err)
	}
	n := 0
	for _, p := range all {
		if p.Status != StatusPending || (!cutoff.IsZero() && !p.Time.Before(cutoff) && !p.Abandoned()) {
			continue
		}
		if err := os.Remove(pendingPath(dir, p.ID)); err != nil {
			return n, fmt.Errorf("clear pending requests: %w", explainFS(err))
		}
		n++
	}
	return n, nil
}

// GetPending returns the request with this ID, whatever its status. An
// unknown ID gives an error that wraps ErrNotFound; a damaged file, an
// error that names it.
func (s *Store) GetPending(id string) (Pending, error) {
	p, err := getPending(s.path(pendingDirName), id)
	if errors.Is(err, ErrNotFound) {
		return Pending{}, fmt.Errorf("request %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Pending{}, fmt.Errorf("get request %q: %w", id, err)
	}
	return p, nil
}

// Resolve answers a pending request: status is approved-once,
// approved-project, approved-global, rejected or used (allowed once and run
// already). Only a request that is
// still pending can be answered.
func (s *Store) Resolve(id, status string, now time.Time) error {
	return s.ResolveWith(id, status, "", now)
}

// maxMessage bounds the message a rejection carries back to the agent.
const maxMessage = 500

// ResolveWith answers a pending request as Resolve does; a rejection may
// carry a message for the agent (redacted, cut to 500 bytes), which the
// waiting guard and a later retry print in their refusal line.
func (s *Store) ResolveWith(id, status, message string, now time.Time) error {
	if message != "" && status != StatusRejected {
		return fmt.Errorf("resolve request %q: only a rejection carries a message", id)
	}
	message = s.red.String(strings.TrimSpace(message))
	if len(message) > maxMessage {
		message = strings.ToValidUTF8(message[:maxMessage], "")
	}
	if !resolutions[status] {
		return fmt.Errorf("resolve request %q: %q is not an answer (approved-once, approved-project, approved-global, rejected or used)", id, status)
	}
	err := s.resolve(id, status, message, now)
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("resolve request %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("resolve request %q: %w", id, err)
	}
	return nil
}

func (s *Store) resolve(id, status, message string, now time.Time) error {
	dir := s.path(pendingDirName)
	if !validID(id) {
		return ErrNotFound
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound // no request was ever stored
	}
	l, err := s.lockPending(syscall.LOCK_EX)
	if err != nil {
		return err
	}
	defer l.Close()
	p, err := getPending(dir, id)
	if err != nil {
		return err
	}
	if p.Status != StatusPending {
		return fmt.Errorf("it was answered already (%s)", p.Status)
	}
	p.Status, p.Resolved, p.Message = status, now, message
	if status != StatusApprovedOnce {
		return writePending(dir, p)
	}
	m, err := openRegular(markerPath(dir, id), syscall.O_WRONLY|syscall.O_CREAT)
	if err != nil {
		return fmt.Errorf("write request: %w", inDir(dir, err))
	}
	m.Close()
	if err := writePending(dir, p); err != nil {
		os.Remove(markerPath(dir, id))
		return err
	}
	return nil
}

// TakeOnce consumes one approved-once request for exactly this text
// (hmac) in exactly this directory (cwd, unredacted: compared by its keyed
// hash, since the stored Cwd is redacted and proj/ghp_A and proj/ghp_B
// redact alike), answered within the last ten minutes before now. It
// reports whether there was one; a consumed request never counts again. A
// request stored without the hash of its directory matches nothing.
//
// It runs whenever guard must ask, so it first looks without the lock,
// and reads only the requests that have a marker (approved-once); only
// when it finds one does it take the lock, look again and mark the
// request used.
func (s *Store) TakeOnce(hmac, cwd string, now time.Time) (bool, error) {
	if hmac == "" {
		return false, nil // no hash, no match: never the empty hash of another text
	}
	cwdSum, err := s.cwdSum(cwd)
	if err != nil {
		return false, err
	}
	// takeOnce's errors already say what failed (read request directory …).
	return s.takeOnce(hmac, cwdSum, now)
}

// SumCwd is the keyed hash of a directory (unredacted), as a request keeps
// it in CwdHMAC.
func (s *Store) SumCwd(cwd string) (string, error) { return s.cwdSum(cwd) }

// cwdSum is the keyed hash of a directory, as requests keep it. The prefix
// keeps it apart from the hash of a command text that reads the same.
func (s *Store) cwdSum(cwd string) (string, error) {
	sum, err := s.Sum("cwd\x00" + cwd)
	if err != nil {
		return "", fmt.Errorf("hash directory: %w", err)
	}
	return sum, nil
}

func (s *Store) takeOnce(hmac, cwdSum string, now time.Time) (bool, error) {
	dir := s.path(pendingDirName)
	find := func() (Pending, bool, error) {
		all, err := onceCandidates(dir)
		if err != nil {
			return Pending{}, false, err
		}
		var best Pending
		found := false
		for _, p := range all {
			if p.Status != StatusApprovedOnce || p.HMAC != hmac || p.CwdHMAC == "" || p.CwdHMAC != cwdSum ||
				p.Resolved.Before(now.Add(-onceWindow)) || p.Resolved.After(now) {
				continue
			}
			if !found || p.Resolved.Before(best.Resolved) || p.Resolved.Equal(best.Resolved) && p.ID < best.ID {
				best, found = p, true
			}
		}
		return best, found, nil
	}
	if _, found, err := find(); err != nil || !found {
		return false, err
	}
	l, err := s.lockPending(syscall.LOCK_EX)
	if err != nil {
		return false, err
	}
	defer l.Close()
	p, found, err := find() // again: another process may have taken it
	if err != nil || !found {
		return false, err
	}
	p.Status = StatusUsed
	if err := writePending(dir, p); err != nil {
		return false, err
	}
	os.Remove(markerPath(dir, p.ID)) // a leftover would only cost a read
	return true, nil
}

// Rejected returns the latest request for exactly this text (hmac) in
// exactly this project root that a human rejected within window before
// now, and whether there is one. guard refuses such a text at once, with
// the time of the rejection, instead of asking again: the agent learns
// that the answer was no. It reads the request files, so it belongs on the
// path where guard must ask, never on the path of an allowed command.
func (s *Store) Rejected(hmac, root string, now time.Time, window time.Duration) (Pending, bool, error) {
	if hmac == "" || window <= 0 {
		return Pending{}, false, nil
	}
	root = s.red.String(root) // stored redacted
	all, _, _, err := readPendingDir(s.path(pendingDirName))
	if err != nil {
		return Pending{}, false, fmt.Errorf("look up rejected requests: %w", err)
	}
	var best Pending
	found := false
	for _, p := range all {
		if p.Status != StatusRejected || p.HMAC != hmac || p.Root != root ||
			p.Resolved.IsZero() || p.Resolved.After(now) || !p.Resolved.After(now.Add(-window)) {
			continue
		}
		if !found || p.Resolved.After(best.Resolved) {
			best, found = p, true
		}
	}
	return best, found, nil
}
