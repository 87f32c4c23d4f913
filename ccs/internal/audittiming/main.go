// Command audittiming measures what one audit record costs a fresh guard
// process, for the choice described in package ccs:
//
//	go run ./ccs/internal/audittiming -n 200
//
// It re-executes itself n times per mode, alternating the modes, and prints
// the median and 90th percentile wall time of each: "none" only starts (the
// floor: this binary, which links SQLite through cgo unless built with
// CGO_ENABLED=0), "jsonl" appends one JSON line encoded by json.Marshal
// with a single O_APPEND write, "ccs" is what guard does per command
// (ccs.Open, Append, Close: redaction, the hand-made encoder, the flock),
// "takeonce" is ccs.TakeOnce in a state directory holding 20 pending
// requests, "marshal" only encodes one ccs.Record with json.Marshal (the
// first call in a process, which Append no longer makes), "redact" only builds the redactor that ccs.Open(dir, nil)
// builds (part of both ccs and takeonce), "sqlite" opens a WAL database with a busy timeout and inserts
// one row. The last column is the child's own measure of its work, from
// main to exit, which process-start noise does not blur. Without cgo, leave
// sqlite out:
//
//	CGO_ENABLED=0 go run ./ccs/internal/audittiming -n 200 -modes none,jsonl,marshal,redact,ccs,takeonce
package main

import (
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/redact"
)

type record struct {
	Time    time.Time `json:"time"`
	Agent   string    `json:"agent"`
	Cwd     string    `json:"cwd"`
	Command string    `json:"command"`
	HMAC    string    `json:"sha256"`
}

func main() {
	mode := flag.String("mode", "", "child: none, jsonl, marshal, redact, ccs, takeonce or sqlite")
	modes := flag.String("modes", "none,jsonl,marshal,redact,ccs,takeonce,sqlite", "modes to compare, the first is the floor")
	dir := flag.String("dir", "", "child: state directory")
	n := flag.Int("n", 100, "runs per mode")
	flag.Parse()
	if *mode != "" {
		start := time.Now()
		if err := child(*mode, *dir); err != nil {
			fmt.Fprintln(os.Stderr, "audittiming:", err)
			os.Exit(1)
		}
		fmt.Print(int64(time.Since(start)))
		return
	}
	if err := drive(*n, strings.Split(*modes, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "audittiming:", err)
		os.Exit(1)
	}
}

func child(mode, dir string) error {
	rec := record{Time: time.Now(), Agent: "bench", Cwd: dir, Command: "git status --short", HMAC: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
	switch mode {
	case "none":
		return nil
	case "jsonl":
		line, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		f, err := os.OpenFile(filepath.Join(dir, "audit.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		if _, err := f.Write(append(line, '\n')); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	case "marshal":
		_, err := json.Marshal(ccs.Record{Time: rec.Time, Agent: rec.Agent, Cwd: rec.Cwd, Command: rec.Command, HMAC: rec.HMAC})
		return err
	case "redact":
		redact.New(nil) // what ccs.Open(dir, nil) builds
		return nil
	case "ccs":
		s := ccs.Open(dir, nil)
		defer s.Close()
		return s.Append(ccs.Record{Time: rec.Time, Agent: rec.Agent, Cwd: rec.Cwd, Command: rec.Command, HMAC: rec.HMAC,
			Decision: "allow", Rule: "read-only", Answer: "rule", Mode: "shell"})
	case "takeonce":
		s := ccs.Open(dir, nil)
		defer s.Close()
		_, err := s.TakeOnce(rec.HMAC, rec.Cwd, rec.Time)
		return err
	case "sqlite":
		db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, "audit.db")+"?_journal_mode=WAL&_busy_timeout=5000")
		if err != nil {
			return err
		}
		defer db.Close()
		if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS audit (time TEXT, agent TEXT, cwd TEXT, command TEXT, sha256 TEXT)`); err != nil {
			return err
		}
		_, err = db.Exec(`INSERT INTO audit VALUES (?, ?, ?, ?, ?)`, rec.Time.Format(time.RFC3339Nano), rec.Agent, rec.Cwd, rec.Command, rec.HMAC)
		return err
	}
	return fmt.Errorf("unknown mode %q", mode)
}

func drive(n int, modes []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "audittiming")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	s := ccs.Open(dir, nil)
	for i := range 20 {
		if _, err := s.AddPending(ccs.Pending{Cwd: dir, Command: fmt.Sprint("make ", i), HMAC: fmt.Sprint(i)}); err != nil {
			return err
		}
	}
	s.Close()
	times := map[string][]time.Duration{}
	work := map[string][]time.Duration{} // as the child measured it
	for i := 0; i < n+3; i++ {
		for _, m := range modes {
			start := time.Now()
			out, err := exec.Command(self, "-mode", m, "-dir", dir).CombinedOutput()
			if err != nil {
				return fmt.Errorf("%s: %v: %s", m, err, out)
			}
			if i >= 3 { // warm-up runs
				times[m] = append(times[m], time.Since(start))
				var ns int64
				fmt.Sscan(string(out), &ns)
				work[m] = append(work[m], time.Duration(ns))
			}
		}
	}
	floor := median(times[modes[0]])
	for _, m := range modes {
		t := times[m]
		slices.Sort(t)
		fmt.Printf("%-8s median %7.2f ms  p90 %7.2f ms  over floor %+6.2f ms  in the child: median %6.3f ms\n", m,
			ms(median(t)), ms(t[len(t)*9/10]), ms(median(t)-floor), ms(median(work[m])))
	}
	return nil
}

func median(t []time.Duration) time.Duration {
	s := slices.Clone(t)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
