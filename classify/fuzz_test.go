package classify

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
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
		// Analyze turns its own panics into a fail-closed parse error;
		// those are still bugs
		if strings.HasPrefix(r.a.FailReason, "internal error") {
			t.Fatalf("Analyze(%q) hit an internal error: %s", tcTrunc(text), r.a.FailReason)
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
	for _, c := range slices.Concat(denyCases, issue18Cases) {
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

// tcPathological are small texts that expand to huge ones (doubling assignments,
// brace products, ranges) or are wide or deep. Analyze must answer each within
// tcDeadline, whatever it answers: a hang is a denial of service against every
// agent behind guard.
func tcPathological() map[string]string {
	double := func(first, step string, n int, last string) string {
		return first + strings.Repeat(step, n) + last
	}
	return map[string]string{
		"assign-doubling": double("a=x;", "a=$a$a;", 48, "echo $a"),
		"assign-fan": func() string {
			var b strings.Builder
			b.WriteString("x0=a;")
			for i := 1; i < 64; i++ {
				fmt.Fprintf(&b, "x%d=$x%d$x%d;", i, i-1, i-1)
			}
			return b.String() + "echo $x63"
		}(),
		"eval-doubling":     double("a=ls;", `a="$a;$a";`, 48, "eval $a"),
		"bash-c-doubling":   double("a=ls;", `a="$a;$a";`, 48, `bash -c "$a"`),
		"piped-doubling":    double("a=ls;", `a="$a;$a";`, 48, `echo "$a" | sh`),
		"brace-product":     "echo " + strings.Repeat("{a,b}", 64),
		"brace-command":     strings.Repeat("{a,b}", 64),
		"brace-range":       "echo {1..1000000000}",
		"brace-range-pair":  "echo {1..100000}{1..100000}",
		"many-pipes":        strings.Repeat("ls|", 30000) + "ls",
		"many-commands":     strings.Repeat("ls;", 40000),
		"many-heredocs":     strings.Repeat("bash <<E\nls\nE\n", 8000),
		"many-functions":    strings.Repeat("f(){ f|f& };", 5000) + "f",
		"deep-subshells":    strings.Repeat("( ", 5000) + "ls" + strings.Repeat(" )", 5000),
		"deep-arithmetic":   "echo $((" + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "))",
		"deep-param":        `echo "` + strings.Repeat("${x:-", 3000) + "a" + strings.Repeat("}", 3000) + `"`,
		"deep-ifs":          strings.Repeat("if true; then ", 3000) + "ls" + strings.Repeat("; fi", 3000),
		"wide-ifs-split":    "x=\"" + strings.Repeat("a ", 20000) + "\"; echo $x $x $x $x $x",
		"long-wrapper-line": strings.Repeat("nice ", 20000) + "ls",
	}
}

const tcPathoEnv = "GUARD_CLASSIFY_TEST_PATHOLOGICAL"

// TestPathological runs each text in a child process (so that a runaway cannot
// eat the test binary's memory) and fails if the child spends more than
// tcDeadline of CPU time or dies. CPU time, not wall time: on a loaded 2-core
// machine the siblings run in parallel and wait for each other, and a wall
// clock would fail a fast analysis for the load. The wall-clock kill only
// stops a runaway.
func TestPathological(t *testing.T) {
	cases := tcPathological()
	if name := os.Getenv(tcPathoEnv); name != "" {
		// Child: cap the address space, judge one text, print how long it took.
		lim := &syscall.Rlimit{Cur: 4 << 30, Max: 4 << 30}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, lim); err != nil {
			t.Logf("setrlimit: %v", err)
		}
		start := time.Now()
		a := Analyze(cases[name], tcOpt())
		fmt.Printf("tcpatho: %d %s\n", time.Since(start).Nanoseconds(), a.Fail)
		return
	}
	if testing.Short() {
		t.Skip("spawns a child per text; skipped under -short")
	}
	for name := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestPathological$", "-test.count=1")
			cmd.Env = append(os.Environ(), tcPathoEnv+"="+name)
			out := &strings.Builder{}
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatalf("start child: %v", err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Only a runaway: a loaded machine may take its time.
			timer := time.NewTimer(30 * tcDeadline)
			defer timer.Stop()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("child for %s died: %v\n%s", name, err, tcTrunc(out.String()))
				}
			case <-timer.C:
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("Analyze on %s (%d bytes) did not finish: killed", name, len(cases[name]))
			}
			for _, line := range strings.Split(out.String(), "\n") {
				rest, ok := strings.CutPrefix(line, "tcpatho: ")
				if !ok {
					continue
				}
				ns, fail, _ := strings.Cut(rest, " ")
				n, err := strconv.ParseInt(ns, 10, 64)
				if err != nil {
					t.Fatalf("child said %q", line)
				}
				// The whole child's CPU time bounds Analyze's from above.
				st := cmd.ProcessState
				if cpu := st.UserTime() + st.SystemTime(); cpu > tcDeadline {
					t.Errorf("Analyze on %s (%d bytes) used %v of CPU (%v wall), want at most %v (fail=%q)",
						name, len(cases[name]), cpu.Round(time.Millisecond), time.Duration(n).Round(time.Millisecond), tcDeadline, fail)
				}
				return
			}
			t.Fatalf("child for %s printed no result:\n%s", name, tcTrunc(out.String()))
		})
	}
}
