package classify

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// tcDeadline is the longest one Analyze may take on any input.
const tcDeadline = 2 * time.Second

// tcAnalyzeWithin runs Analyze and fails the test if it panics or takes too long.
func tcAnalyzeWithin(t *testing.T, text string, opt Options) *Analysis {
	t.Helper()
	type result struct {
		a     *Analysis
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: p}
			}
		}()
		done <- result{a: Analyze(text, opt)}
	}()
	timer := time.NewTimer(tcDeadline)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.panic != nil {
			t.Fatalf("Analyze(%q) panicked: %v", tcTrunc(text), r.panic)
		}
		if r.a == nil {
			t.Fatalf("Analyze(%q) = nil", tcTrunc(text))
		}
		return r.a
	case <-timer.C:
		t.Fatalf("Analyze(%q) took longer than %v", tcTrunc(text), tcDeadline)
		return nil
	}
}

// tcCheckConsistent reports what is wrong with an Analysis that claims success.
func tcCheckConsistent(a *Analysis) []string {
	var bad []string
	n := len(a.Commands)
	for i, c := range a.Commands {
		if len(c.Dynamic) != len(c.Args) {
			bad = append(bad, fmt.Sprintf("command %d: %d Dynamic marks for %d Args", i, len(c.Dynamic), len(c.Args)))
		}
		if len(c.Args) == 0 && c.Name != "" {
			bad = append(bad, fmt.Sprintf("command %d: Name %q without Args", i, c.Name))
		}
		if c.Parent < -1 || c.Parent >= n || c.Parent == i {
			bad = append(bad, fmt.Sprintf("command %d: Parent %d out of range [-1,%d)", i, c.Parent, n))
		}
		if c.Depth < 0 || c.Depth > MaxDepth {
			bad = append(bad, fmt.Sprintf("command %d: Depth %d outside [0,%d]", i, c.Depth, MaxDepth))
		}
		if c.Parent >= 0 && c.Parent < n && c.Depth < a.Commands[c.Parent].Depth {
			bad = append(bad, fmt.Sprintf("command %d: Depth %d shallower than its parent's %d", i, c.Depth, a.Commands[c.Parent].Depth))
		}
		for _, in := range c.Inner {
			if in < 0 || in >= n || in == i {
				bad = append(bad, fmt.Sprintf("command %d: Inner index %d out of range [0,%d)", i, in, n))
			} else if a.Commands[in].Parent != i {
				bad = append(bad, fmt.Sprintf("command %d: Inner %d has Parent %d", i, in, a.Commands[in].Parent))
			}
		}
		if (c.Wrap == WrapTransparent || c.Wrap == WrapGenerated) && (c.InnerStart < 0 || c.InnerStart > len(c.Args)) {
			bad = append(bad, fmt.Sprintf("command %d: InnerStart %d outside Args (%d)", i, c.InnerStart, len(c.Args)))
		}
	}
	// Following Parent links always ends at -1: no cycles.
	for i := range a.Commands {
		p, steps := a.Commands[i].Parent, 0
		for p >= 0 && p < n && steps <= n {
			p, steps = a.Commands[p].Parent, steps+1
		}
		if steps > n {
			bad = append(bad, fmt.Sprintf("command %d: Parent links form a cycle", i))
		}
	}
	for _, hits := range [][]Hit{a.Deny, a.Ask} {
		for _, h := range hits {
			if h.ID == "" || h.Cmd < -1 || h.Cmd >= n {
				bad = append(bad, fmt.Sprintf("hit %+v: empty id or Cmd out of range [-1,%d)", h, n))
			}
		}
	}
	return bad
}

// tcBashParses reports whether mvdan.cc/sh parses text in the bash dialect.
func tcBashParses(text string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	return err == nil
}

// FuzzClassify: Analyze never panics or hangs, and its result fails closed: text
// bash syntax rejects is a failure, and a success is internally consistent.
func FuzzClassify(f *testing.F) {
	for _, c := range denyCases {
		f.Add(c.in)
	}
	for _, c := range argvCases {
		f.Add(c.in)
	}
	for _, c := range failCases {
		if len(c.in) <= 4096 {
			f.Add(c.in)
		}
	}
	// Inputs the fuzzer once crashed Analyze with.
	for _, s := range []string{"xargs -0a", "{,}", "pv", "xargs -a", "timeout -s", "env -u", "find . -exec", "bash -c", "eval"} {
		f.Add(s)
	}
	for _, s := range []string{"", " ", "\n", "#", ";", "&", "$", "'", `"`, "\\", "$'", "${", "$((", "<<", "<<-EOF\n\tx\n\tEOF"} {
		f.Add(s)
	}
	opt := tcOpt()
	f.Fuzz(func(t *testing.T, text string) {
		a := tcAnalyzeWithin(t, text, opt)
		if a.Fail != "" {
			switch a.Fail {
			case FailParse, FailTooLong, FailTooDeep:
			default:
				t.Errorf("%q: unknown Fail %q", tcTrunc(text), a.Fail)
			}
			return
		}
		if len(text) > MaxTextBytes {
			t.Errorf("%q: %d bytes judged, want %s", tcTrunc(text), len(text), FailTooLong)
		}
		if !tcBashParses(text) {
			t.Errorf("%q: bash syntax rejects it but Fail is empty (deny=%v)", tcTrunc(text), tcIDs(a.Deny))
		}
		for _, msg := range tcCheckConsistent(a) {
			t.Errorf("%q: %s", tcTrunc(text), msg)
		}
		// Judging is pure: the same text gives the same hits.
		b := tcAnalyzeWithin(t, text, opt)
		if fmt.Sprint(tcIDs(a.Deny), tcIDs(a.Ask), b.Fail) != fmt.Sprint(tcIDs(b.Deny), tcIDs(b.Ask), "") {
			t.Errorf("%q: not deterministic: deny %v ask %v, then fail %q deny %v ask %v",
				tcTrunc(text), tcIDs(a.Deny), tcIDs(a.Ask), b.Fail, tcIDs(b.Deny), tcIDs(b.Ask))
		}
	})
}
