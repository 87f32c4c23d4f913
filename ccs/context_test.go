package ccs

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/redact"
)

func TestRunFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	r := &Run{ID: newRunID(now), Time: now.UTC(), Agent: "a", Cwd: "/p\nq", Root: "/p", Command: `go test "./..."`, Exit: 3,
		DurationMS: 1200, Key: strings.Repeat("ab", 32), Rule: "go test *", TTL: time.Hour, Stale: time.Minute,
		CacheFailures: 10 * time.Second, Bytes: 7,
		Chunks: []Chunk{{Stdout, []byte("out")}, {Stderr, []byte("e")}, {Stdout, []byte("ut")}, {Stderr, []byte("\n")}}}
	p := filepath.Join(dir, "x.run")
	if err := writeRunFile(p, r); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRunFile(p, true)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(r) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, r)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	// a file cut short is damaged, never half-served
	data, _ := os.ReadFile(p)
	os.WriteFile(p, data[:len(data)-2], 0o600)
	if _, err := ReadRunFile(p, true); err == nil {
		t.Error("a cut file read without error")
	}
}

func TestServable(t *testing.T) {
	now := time.Now()
	base := Run{Key: "k", Time: now.Add(-time.Minute), TTL: time.Hour}
	for _, tc := range []struct {
		name string
		edit func(r *Run)
		want bool
	}{
		{"fresh", func(*Run) {}, true},
		{"expired", func(r *Run) { r.TTL = 30 * time.Second }, false},
		{"no key", func(r *Run) { r.Key = "" }, false},
		{"redacted", func(r *Run) { r.Redacted = true }, false},
		{"truncated", func(r *Run) { r.Truncated = true }, false},
		{"failed", func(r *Run) { r.Exit = 1 }, false},
		{"failed, cache_failures", func(r *Run) { r.Exit = 1; r.CacheFailures = 2 * time.Minute }, true},
		{"failed, cache_failures past", func(r *Run) { r.Exit = 1; r.CacheFailures = 30 * time.Second }, false},
		{"from the future", func(r *Run) { r.Time = now.Add(time.Hour) }, false},
	} {
		r := base
		tc.edit(&r)
		if got := r.Servable(now); got != tc.want {
			t.Errorf("%s: Servable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCaptureOutput(t *testing.T) {
	red := redact.New(nil)
	var c Capture
	c.Add(Stdout, []byte("a"))
	c.Add(Stderr, []byte("b"))
	c.Add(Stdout, []byte("c"))
	c.Add(Stdout, []byte("d"))
	chunks, redacted := c.Output(red)
	if redacted || fmt.Sprint(chunks) != fmt.Sprint([]Chunk{{Stdout, []byte("a")}, {Stderr, []byte("b")}, {Stdout, []byte("cd")}}) {
		t.Errorf("interleaving lost: %v %v", chunks, redacted)
	}
	// a secret split across reads is caught as if written at once
	var s Capture
	s.Add(Stdout, []byte("token ghp_abcdefghijklmn"))
	s.Add(Stderr, []byte("x"))
	s.Add(Stdout, []byte("opqrstuvwxyz0123456789 end\n"))
	chunks, redacted = s.Output(red)
	all := ""
	for _, ch := range chunks {
		all += string(ch.Data)
	}
	if !redacted || strings.Contains(all, "ghp_") || strings.Contains(all, "opqrstuvwxyz0123456789") {
		t.Errorf("split secret kept: %q", all)
	}
}

func TestCaptureLimit(t *testing.T) {
	var c Capture
	block := bytes.Repeat([]byte("x"), 1<<20)
	for i := 0; i < MaxCapture>>20+3; i++ {
		c.Add(Stdout, block)
	}
	chunks, _ := c.Output(redact.New(nil))
	n := 0
	for _, ch := range chunks {
		n += len(ch.Data)
	}
	// the last 4 KiB hold no separator: they may be the start of a
	// secret the limit cut in two, and go (redact.CutTail)
	if !c.Truncated() || n != MaxCapture-4<<10 {
		t.Errorf("kept %d bytes, truncated %v", n, c.Truncated())
	}
}

// TestCaptureCutSecret: a token that the record's limit cuts in two is
// not kept in part, redacted beside the run or at the end.
func TestCaptureCutSecret(t *testing.T) {
	red := redact.New(nil)
	token := "ghp_" + "1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz"
	for _, ahead := range []bool{false, true} {
		for _, d := range []int{5, 20, 39} {
			var c Capture
			c.SetLimit(MaxRecord)
			if ahead {
				c.SetRedactor(func() *redact.Redactor { return red })
			}
			line := []byte("ok line of output\n")
			for c.Room() > len(line)+6+d {
				c.Add(Stdout, line)
			}
			c.Add(Stdout, bytes.Repeat([]byte("\n"), c.Room()-6-d)) // room for "token " and d bytes
			c.Add(Stdout, []byte("token "+token+" more text\n"))
			chunks, _ := c.Output(red)
			var all []byte
			for _, ch := range chunks {
				all = append(all, ch.Data...)
			}
			if !c.Truncated() || bytes.Contains(all, []byte(token[:d-1])) || !bytes.HasSuffix(all, []byte("token ")) {
				t.Errorf("ahead %v, cut %d bytes into the token: kept %q", ahead, d, all[max(0, len(all)-40):])
			}
		}
	}
}

func TestKeyUnambiguous(t *testing.T) {
	dir := t.TempDir()
	key := func(argv ...string) string {
		k, _, err := Key(KeyInput{Argv: argv, Cwd: dir, Stdin: "null"})
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	if key("a b", "c") == key("a", "b c") || key("ab") == key("a", "b") {
		t.Error("argv boundaries are not part of the key")
	}
	if key("x") != key("x") {
		t.Error("key is not stable")
	}
	if _, _, err := Key(KeyInput{Argv: []string{"x"}, Cwd: dir}); err == nil {
		t.Error("stdin that may hold input was keyed")
	}
	env := map[string]string{"GOFLAGS": "-v"}
	k1, _, _ := Key(KeyInput{Argv: []string{"x"}, Cwd: dir, Stdin: "null", KeyEnv: []string{"GOFLAGS"}, Getenv: func(k string) string { return env[k] }})
	env["GOFLAGS"] = "-race"
	k2, _, _ := Key(KeyInput{Argv: []string{"x"}, Cwd: dir, Stdin: "null", KeyEnv: []string{"GOFLAGS"}, Getenv: func(k string) string { return env[k] }})
	if k1 == k2 {
		t.Error("key_env value is not part of the key")
	}
}

func TestFingerprintBound(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 30; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprint(i)), nil, 0o600)
	}
	os.Mkdir(filepath.Join(dir, "skip"), 0o700)
	fp1, _, err := Fingerprint(FingerprintInput{Cwd: dir, Skip: []string{filepath.Join(dir, "skip")}, Now: settled()})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "skip", "x"), []byte("changes"), 0o600)
	fp2, _, _ := Fingerprint(FingerprintInput{Cwd: dir, Skip: []string{filepath.Join(dir, "skip")}, Now: settled()})
	if fp1 != fp2 {
		t.Error("a skipped directory changed the fingerprint")
	}
	big := t.TempDir()
	for i := 0; i <= MaxFingerprintEntries; i++ {
		if err := os.WriteFile(filepath.Join(big, fmt.Sprint(i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := Fingerprint(FingerprintInput{Cwd: big}); err == nil {
		t.Errorf("a directory past %d entries was fingerprinted", MaxFingerprintEntries)
	}
}

// saveRun spools a run with n bytes of output, started at t.
func saveRun(t *testing.T, c *Cache, cmd string, n int, at time.Time, key string) *Run {
	t.Helper()
	r := &Run{Time: at.UTC(), Command: cmd, Cwd: "/p", Root: "/p", Bytes: int64(n), Key: key, TTL: time.Hour,
		Chunks: []Chunk{{Stdout, bytes.Repeat([]byte("o"), n)}}}
	if n == 0 {
		r.Chunks = nil
	}
	if err := c.Save(r, at); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestContextStore(t *testing.T) {
	if !haveSQLite {
		t.Skip("built without SQLite")
	}
	dir := filepath.Join(t.TempDir(), "cache")
	c := OpenCache(dir)
	now := time.Now()
	key := strings.Repeat("0a", 32)
	saveRun(t, c, "small", 10, now.Add(-2*time.Hour), "")
	big := saveRun(t, c, "big", 5000, now.Add(-time.Minute), key)
	if c.Lookup(key) == nil {
		t.Fatal("entry not stored")
	}
	cs := OpenContext(dir, Limits{MaxInline: 1000, MaxLogs: 1 << 20, MaxDB: 1 << 30}, func() time.Time { return now })
	defer cs.Close()
	if err := cs.Import(); err != nil {
		t.Fatal(err)
	}
	runs, err := cs.List(RunQuery{})
	if err != nil || len(runs) != 2 || runs[0].Command != "big" || !runs[0].Served {
		t.Fatalf("list: %+v %v", runs, err)
	}
	got, found, err := cs.Get(RunQuery{ID: big.ID})
	if err != nil || !found || sumChunks(got.Chunks) != 5000 {
		t.Fatalf("big run not whole from its log: %d bytes, %v", sumChunks(got.Chunks), err)
	}
	if _, err := os.Stat(filepath.Join(dir, logsDir, big.ID+".run")); err != nil {
		t.Error("no log file for the big run")
	}
	for _, name := range []string{dir, filepath.Join(dir, contextDB), filepath.Join(dir, logsDir)} {
		fi, err := os.Stat(name)
		if err != nil || (fi.IsDir() && fi.Mode().Perm() != 0o700) || (!fi.IsDir() && fi.Mode().Perm() != 0o600) {
			t.Errorf("%s: mode %v, %v", name, fi.Mode(), err)
		}
	}
	n, err := cs.Clear(RunQuery{OlderThan: now.Add(-time.Hour)})
	if err != nil || n != 1 {
		t.Errorf("clear --older-than: %d, %v", n, err)
	}
	n, err = cs.Clear(RunQuery{Match: func(s string) bool { return s == "big" }})
	if err != nil || n != 1 || c.Lookup(key) != nil {
		t.Errorf("clear --match: %d, %v, entry left: %v", n, err, c.Lookup(key) != nil)
	}
}

func TestContextLogCap(t *testing.T) {
	if !haveSQLite {
		t.Skip("built without SQLite")
	}
	dir := filepath.Join(t.TempDir(), "cache")
	c := OpenCache(dir)
	now := time.Now()
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, saveRun(t, c, fmt.Sprint("run", i), 4000, now.Add(time.Duration(i-10)*time.Second), "").ID)
	}
	cs := OpenContext(dir, Limits{MaxInline: 100, MaxLogs: 10000, MaxDB: 1 << 30}, nil)
	defer cs.Close()
	if err := cs.Import(); err != nil {
		t.Fatal(err)
	}
	if err := cs.Prune(); err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		_, err := os.Stat(filepath.Join(dir, logsDir, id+".run"))
		if kept := err == nil; kept != (i >= 3) {
			t.Errorf("log %d kept %v: the oldest go first, down to the cap", i, kept)
		}
	}
	runs, _ := cs.List(RunQuery{})
	if len(runs) != 5 {
		t.Errorf("rows lost with their logs: %d", len(runs))
	}
}

func TestContextDBCap(t *testing.T) {
	if !haveSQLite {
		t.Skip("built without SQLite")
	}
	dir := filepath.Join(t.TempDir(), "cache")
	c := OpenCache(dir)
	now := time.Now()
	for i := 0; i < 60; i++ {
		saveRun(t, c, fmt.Sprint("run", i), 8000, now.Add(time.Duration(i-100)*time.Second), "")
	}
	cs := OpenContext(dir, Limits{MaxInline: 8000, MaxLogs: 1 << 30, MaxDB: 200 << 10}, nil)
	defer cs.Close()
	if err := cs.Import(); err != nil {
		t.Fatal(err)
	}
	if err := cs.Prune(); err != nil {
		t.Fatal(err)
	}
	runs, _ := cs.List(RunQuery{})
	if len(runs) == 0 || len(runs) >= 60 || runs[0].Command != "run59" {
		t.Errorf("after the cap: %d runs, newest %q", len(runs), runs[0].Command)
	}
}

func TestContextDamagedDB(t *testing.T) {
	if !haveSQLite {
		t.Skip("built without SQLite")
	}
	dir := filepath.Join(t.TempDir(), "cache")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, contextDB), bytes.Repeat([]byte("not a database "), 1000), 0o600)
	saveRun(t, OpenCache(dir), "after", 3, time.Now(), "")
	cs := OpenContext(dir, Limits{MaxInline: 100, MaxLogs: 1 << 20, MaxDB: 1 << 20}, nil)
	defer cs.Close()
	if err := cs.Import(); err != nil {
		t.Fatal(err)
	}
	if w := cs.Warnings(); len(w) != 1 || !strings.Contains(w[0], "damaged") {
		t.Errorf("warnings: %q", w)
	}
	runs, _ := cs.List(RunQuery{})
	if len(runs) != 1 {
		t.Errorf("new database holds %d runs", len(runs))
	}
	m, _ := filepath.Glob(filepath.Join(dir, contextDB+".damaged-*"))
	if len(m) == 0 {
		t.Error("the damaged database was not kept aside")
	}
}

func TestSingleFlightLock(t *testing.T) {
	c := OpenCache(t.TempDir())
	key := strings.Repeat("1b", 32)
	fl, waited := c.Acquire(key, time.Second)
	if fl == nil || waited {
		t.Fatal("first acquire")
	}
	if !c.Busy(key) {
		t.Error("held lock not busy")
	}
	start := time.Now()
	if fl2, waited := c.Acquire(key, 100*time.Millisecond); fl2 != nil || !waited || time.Since(start) < 100*time.Millisecond {
		t.Error("second acquire did not wait and give up")
	}
	fl.Release()
	if fl3, _ := c.Acquire(key, time.Second); fl3 == nil {
		t.Error("released lock not taken")
	} else {
		fl3.Release()
	}
}

// TestSpoolTorn: a record cut short (full disk, crash) is skipped and the
// records after it are imported.
func TestSpoolTorn(t *testing.T) {
	dir := t.TempDir()
	var recs [][]byte
	for i := 0; i < 3; i++ {
		r := &Run{ID: fmt.Sprint("id", i), Time: time.Now(), Command: fmt.Sprint("cmd", i), Bytes: 5, Chunks: []Chunk{{Stdout, []byte("hello")}}}
		recs = append(recs, encodeSpoolRecord(r))
	}
	data := append(append(append([]byte("junk"), recs[0]...), recs[1][:len(recs[1])-7]...), recs[2]...)
	p := filepath.Join(dir, spoolName)
	os.WriteFile(p, data, 0o600)
	var got []string
	if err := readSpool(p, func(r *Run) error { got = append(got, r.Command); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[cmd0 cmd2]" {
		t.Errorf("read %v, want [cmd0 cmd2]", got)
	}
}

// TestSpoolConcurrent: runs saved at once by many writers, with imports
// in between, all reach the database, once each.
func TestSpoolConcurrent(t *testing.T) {
	if !haveSQLite {
		t.Skip("built without SQLite")
	}
	dir := filepath.Join(t.TempDir(), "cache")
	const writers, each = 8, 40
	done := make(chan error, writers+1)
	stop := make(chan struct{})
	go func() {
		cs := OpenContext(dir, Limits{MaxInline: 1 << 20, MaxLogs: 1 << 30, MaxDB: 1 << 30}, nil)
		defer cs.Close()
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if err := cs.Import(); err != nil {
				done <- err
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	var wg = make(chan error, writers)
	for w := 0; w < writers; w++ {
		go func(w int) {
			c := OpenCache(dir)
			for i := 0; i < each; i++ {
				r := &Run{Time: time.Now(), Command: fmt.Sprintf("w%d-%d", w, i), Bytes: 3000,
					Chunks: []Chunk{{Stdout, bytes.Repeat([]byte{'a' + byte(w)}, 3000)}}}
				if err := c.Save(r, time.Now()); err != nil {
					wg <- err
					return
				}
			}
			wg <- nil
		}(w)
	}
	for w := 0; w < writers; w++ {
		if err := <-wg; err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	cs := OpenContext(dir, Limits{MaxInline: 1 << 20, MaxLogs: 1 << 30, MaxDB: 1 << 30}, nil)
	defer cs.Close()
	if err := cs.Import(); err != nil {
		t.Fatal(err)
	}
	runs, err := cs.List(RunQuery{})
	if err != nil || len(runs) != writers*each {
		t.Fatalf("%d runs imported, want %d (%v)", len(runs), writers*each, err)
	}
	for _, r := range runs {
		got, _, _ := cs.Get(RunQuery{ID: r.ID})
		if b := joinedChunks(got.Chunks); len(b) != 3000 || bytes.Count(b, b[:1]) != 3000 {
			t.Fatalf("run %s came back mixed: %.40q", r.Command, b)
		}
	}
}

func joinedChunks(cs []Chunk) []byte {
	var b []byte
	for _, c := range cs {
		b = append(b, c.Data...)
	}
	return b
}

// TestImportTrigger: a spool past its size asks for an import, at most
// once a minute.
func TestImportTrigger(t *testing.T) {
	c := OpenCache(t.TempDir())
	calls := 0
	c.SetImporter(func() { calls++ })
	now := time.Now()
	r := &Run{Time: now, Command: "x", Bytes: 1 << 20, Chunks: []Chunk{{Stdout, bytes.Repeat([]byte("x"), 1<<20)}}}
	for i := 0; i < 10; i++ {
		r.ID = ""
		if err := c.Save(r, now); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 1 {
		t.Errorf("importer called %d times for a spool past %d bytes, want once", calls, spoolImportSize)
	}
	r.ID = ""
	c.Save(r, now.Add(2*spoolImportWait))
	if calls != 2 {
		t.Errorf("importer not called again after %v", spoolImportWait)
	}
}

// TestCaptureAhead: a capture that redacts beside the run (past
// redactAhead) keeps exactly what redacting each stream whole at the end
// keeps, however the output was cut into reads and interleaved.
func TestCaptureAhead(t *testing.T) {
	red := redact.New([]string{"MY_API_TOKEN=s3cr3t-value-0123456789"})
	var out, errs bytes.Buffer
	for i := 0; out.Len()+errs.Len() < 3*redactAhead; i++ {
		fmt.Fprintf(&out, "line %d ok\n", i)
		if i%97 == 0 {
			fmt.Fprintf(&errs, "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 and s3cr3t-value-0123456789 at %d\n", i)
		}
	}
	fmt.Fprintf(&out, "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\ntail")
	for _, step := range []int{1 << 16, 4093, 17} {
		var whole, ahead Capture
		ahead.SetRedactor(func() *redact.Redactor { return red })
		o, e := out.Bytes(), errs.Bytes()
		for len(o) > 0 || len(e) > 0 {
			for _, s := range []struct {
				stream int
				b      *[]byte
			}{{Stdout, &o}, {Stderr, &e}} {
				n := min(step, len(*s.b))
				whole.Add(s.stream, (*s.b)[:n])
				ahead.Add(s.stream, (*s.b)[:n])
				*s.b = (*s.b)[n:]
			}
		}
		if ahead.ahead == nil {
			t.Fatalf("step %d: %d bytes did not start redacting ahead", step, ahead.size)
		}
		wc, wr := whole.Output(red)
		ac, ar := ahead.Output(red)
		if wr != ar || fmt.Sprint(wc) != fmt.Sprint(ac) {
			t.Fatalf("step %d: ahead differs from whole (redacted %v vs %v)", step, ar, wr)
		}
		all := fmt.Sprint(ac)
		for _, secret := range []string{"ghp_abc", "s3cr3t", "b3BlbnNzaC1"} {
			if strings.Contains(all, secret) {
				t.Errorf("step %d: %s kept", step, secret)
			}
		}
	}
}

// TestContextUncached: why a run a rule matched was not cached travels
// from the run file through the spool into the database; and a database
// of schema 1 gains the column.
func TestContextUncached(t *testing.T) {
	if !haveSQLite {
		t.Skip("built without SQLite")
	}
	dir := filepath.Join(t.TempDir(), "cache")
	c := OpenCache(dir)
	now := time.Now()
	// a schema-1 database, as guard made it before the column
	if err := c.ensure(""); err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(contextSchema, ",\n\tuncached     TEXT NOT NULL DEFAULT '' -- why a run a [[cache]] rule matched is not cached", "", 1)
	if old == contextSchema {
		t.Fatal("the test's copy of schema 1 is out of date")
	}
	db, err := openSQLite(filepath.Join(dir, contextDB), "context database", func(db *sql.DB) error {
		return migrate(db, "context database", old, nil, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	r := &Run{Time: now.UTC(), Command: "make -B", Cwd: "/p", Root: "/p", Bytes: 2, Rule: "make *",
		Uncached: "-B asks for a fresh run", Chunks: []Chunk{{Stdout, []byte("ok")}}}
	if err := c.Save(r, now); err != nil {
		t.Fatal(err)
	}
	cs := OpenContext(dir, Limits{MaxInline: 1000, MaxLogs: 1 << 20, MaxDB: 1 << 30}, func() time.Time { return now })
	defer cs.Close()
	if err := cs.Import(); err != nil {
		t.Fatal(err)
	}
	got, found, err := cs.Get(RunQuery{ID: "last"})
	if err != nil || !found || got.Uncached != r.Uncached || got.Served {
		t.Fatalf("got %+v, %v; want uncached %q", got.Run, err, r.Uncached)
	}
}
