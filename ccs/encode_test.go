package ccs

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// encodeCases are records whose encoding is easy to get wrong.
var encodeCases = []Record{
	{},
	rec("git status", "allow", time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)),
	{Time: time.Date(2026, 12, 1, 10, 0, 0, 123456789, time.FixedZone("", 5*3600+30*60)), Command: "a < b && c > d", Exit: -1, DurationMS: 1 << 40},
	{Time: time.Date(2026, 12, 1, 10, 0, 0, 120000000, time.FixedZone("x", -7*3600)), Command: "\x00\x01\x07\b\t\n\v\f\r\x1b\x1f\x7f"},
	{Time: time.Unix(0, 1), Command: `"quoted" \back\slash\ 'single'`},
	{Time: time.Unix(1e9, 0), Command: "line\u2028sep\u2029para é 漢字 🙂"},
	{Time: time.Unix(1e9, 0), Command: "bad \xff utf8 \xe2\x82 cut \xed\xa0\x80 surrogate \xc0\xaf overlong", Cwd: "\xff", Agent: "\xe2"},
	{Time: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)},
	{Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), Command: "year out of range"},
	{Time: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)},
	{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 30)), Command: "offset with seconds"},
	{Time: time.Now(), Command: "monotonic clock reading"},
	{Time: time.Unix(1e9, 0), Agent: "claude", Session: "5f2c\"<\u2028", Command: "git status", Mode: "hook"},
	{Time: time.Unix(1e9, 0), Command: strings.Repeat("é\"<x", 2000), Cwd: strings.Repeat("/", 5000)},
	{Time: time.Unix(1e9, 0), Command: "touch x", Decision: "would-ask", Risk: "low", PolicyMode: "dry_run", ID: 42},
	{Time: time.Unix(1e9, 0), Risk: "high"},
}

// checkEncode fails unless marshalRecord and encodeRecord agree with
// json.Marshal (and the old encodeRecord built on it) on r.
func checkEncode(t *testing.T, r Record) {
	t.Helper()
	want, werr := json.Marshal(r)
	got, gerr := marshalRecord(r)
	if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("marshalRecord(%#v)\n got %s, %v\nwant %s, %v", r, got, gerr, want, werr)
	}
	viaJSON := func(r Record) ([]byte, error) { return json.Marshal(r) }
	want, werr = encodeRecordWith(r, viaJSON)
	got, gerr = encodeRecord(r)
	if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("encodeRecord(%#v)\n got %s, %v\nwant %s, %v", r, got, gerr, want, werr)
	}
	if gerr == nil && (len(got) > maxRecord || !json.Valid(got)) {
		t.Fatalf("encodeRecord(%#v) = %d bytes, valid %v", r, len(got), json.Valid(got))
	}
}

func TestEncodeRecord(t *testing.T) {
	for _, r := range encodeCases {
		checkEncode(t, r)
	}
	// Every single byte, in every field.
	for b := range 256 {
		s := "x" + string([]byte{byte(b)}) + "y"
		checkEncode(t, Record{Agent: s, Cwd: s, Command: s, HMAC: s, Decision: s, Rule: s, Answer: s, Via: s, Mode: s})
	}
}

func FuzzEncodeRecord(f *testing.F) {
	// Small seeds (a long one is slow to minimise) and one just long
	// enough to be cut.
	cut := Record{Time: time.Unix(1e9, 0), Command: strings.Repeat("é\"<", 600)}
	for _, r := range append(encodeCases, cut) {
		if len(r.Command)+len(r.Cwd) > 2000 && r.Command != cut.Command {
			continue
		}
		_, off := r.Time.Zone()
		f.Add(r.Time.Unix(), int64(r.Time.Nanosecond()), off, r.Agent, r.Cwd, r.Command, r.HMAC, r.Decision, r.Rule, r.Answer, r.Via, r.Mode, r.Exit, r.DurationMS)
	}
	f.Fuzz(func(t *testing.T, sec, nsec int64, off int, agent, cwd, command, sum, decision, rule, answer, via, mode string, exit int, dur int64) {
		tm := time.Unix(sec, nsec).In(time.FixedZone("", off%(48*3600)))
		checkEncode(t, Record{Time: tm, Agent: agent, Cwd: cwd, Command: command, HMAC: sum,
			Decision: decision, Rule: rule, Answer: answer, Via: via, Mode: mode, Exit: exit, DurationMS: dur})
	})
}

// BenchmarkEncodeRecord compares the two encoders on a typical record.
func BenchmarkEncodeRecord(b *testing.B) {
	r := rec("git log --oneline -n 20 -- ./cmd/guard/main.go", "allow", time.Now())
	b.Run("marshalRecord", func(b *testing.B) {
		for b.Loop() {
			marshalRecord(r)
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		for b.Loop() {
			json.Marshal(r)
		}
	})
}
