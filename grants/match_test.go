package grants

import (
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
)

// refMatch is the obvious recursive matcher the fast one must agree with.
func refMatch(p, t string, sens []bool) bool {
	var rec func(i, j int) bool
	rec = func(i, j int) bool {
		if i == len(p) {
			return j == len(t)
		}
		if p[i] == '*' {
			for k := j; k <= len(t); k++ {
				if rec(i+1, k) {
					return true
				}
				if k < len(t) && sens[k] {
					return false
				}
			}
			return false
		}
		return j < len(t) && p[i] == t[j] && rec(i+1, j+1)
	}
	if rec(0, 0) {
		return true
	}
	if strings.HasSuffix(p, " *") {
		p = p[:len(p)-2] // the pattern's own trailing " *" may match nothing, once
		return rec(0, 0)
	}
	return false
}

// sensitize marks the words of t whose bit is set in mask.
func sensitize(t string, mask uint64) ([]span, []bool) {
	var sp []span
	sens := make([]bool, len(t))
	off := 0
	for i, w := range strings.Split(t, " ") {
		if mask&(1<<(uint(i)%64)) != 0 && len(w) > 0 {
			sp = append(sp, span{off, off + len(w)})
			for k := off; k < off+len(w); k++ {
				sens[k] = true
			}
		}
		off += len(w) + 1
	}
	return sp, sens
}

var matchTable = []struct {
	p, t string
	mask uint64
	want bool
}{
	{"git *", "git", 0, true},
	{"git *", "git status", 0, true},
	{"git *", "git log -p", 0, true},
	{"git *", "gitk", 0, false},
	{"git *", "gitk --all", 0, false},
	{"git*", "gitk", 0, true},
	{"git status", "git status", 0, true},
	{"git status", "git status -s", 0, false},
	{"* status", "git status", 0, true},
	{"go test *", "go test ./...", 0, true},
	{"go test *", "go testx", 0, false},
	{"git *", "git -c x=y log", 0b10, false},
	{"git -c *", "git -c x=y log", 0b110, false},
	{"git -c x=y log", "git -c x=y log", 0b110, true},
	{"git -c x=y *", "git -c x=y log", 0b110, true},
	{"git * log", "git -c x=y log", 0b110, false},
	{"find * -name x", "find . -name x", 0, true},
	{"*a*b*", "xxaxxbxx", 0, true},
	{"*a*b*", "xxbxxaxx", 0, false},
	{"a*b*c", "abc", 0, true},
	{"a*b*c", "a xb yc", 0b010, false},
	{"a*xb*c", "a xb yc", 0b010, true},
	{"rg --pre=*", "rg --pre=x foo", 0b10, false},
}

func TestMatchPattern(t *testing.T) {
	for _, tc := range matchTable {
		sp, sens := sensitize(tc.t, tc.mask)
		if got := matchPattern(tc.p, tc.t, sp); got != tc.want {
			t.Errorf("match(%q, %q, %b) = %v, want %v", tc.p, tc.t, tc.mask, got, tc.want)
		}
		if ref := refMatch(tc.p, tc.t, sens); ref != tc.want {
			t.Errorf("ref(%q, %q, %b) = %v, want %v", tc.p, tc.t, tc.mask, ref, tc.want)
		}
	}
}

func FuzzMatch(f *testing.F) {
	for _, tc := range matchTable {
		f.Add(tc.p, tc.t, tc.mask)
	}
	f.Fuzz(func(t *testing.T, p, text string, mask uint64) {
		if len(p) > 24 || len(text) > 48 || strings.Count(p, "*") > 5 {
			return // keep the exponential reference small
		}
		sp, sens := sensitize(text, mask)
		got := matchPattern(p, text, sp)
		if want := refMatch(p, text, sens); got != want {
			t.Fatalf("match(%q, %q, %b) = %v, reference says %v", p, text, mask, got, want)
		}
	})
}

func TestMatchLinear(t *testing.T) {
	// many stars over a long text must not backtrack exponentially
	p := strings.Repeat("*a", 30) + "*b"
	text := strings.Repeat("a", 100000)
	if matchPattern(p, text, nil) {
		t.Fatal("matched without b")
	}
}

// fuzzSettings are the settings FuzzDecide judges under.
func fuzzSettings() []*Settings {
	s1 := settings("managed deny rm -rf *", "global ask git push *", "project-grants allow git *", "global-grants allow go test *",
		"project allow make *", "project+ allow npm *", "global-grants allow *a*b*c*")
	s2 := settings("global-grants allow ls *")
	s2.Composite, s2.Unknown, s2.BuiltinReadonly = "each", Deny, false
	return []*Settings{s1, s2, Defaults()}
}

func checkVerdict(t *testing.T, text string, a *classify.Analysis, s *Settings) {
	v := Decide(a, s)
	switch v.Decision {
	case Allow, Ask, Deny:
	default:
		t.Fatalf("%q: decision %q", text, v.Decision)
	}
	if v.Rule == "" || v.Risk == "" {
		t.Fatalf("%q: verdict without rule or risk: %+v", text, v)
	}
	if blocksInEveryMode(v) && v.Risk != RiskHigh {
		t.Fatalf("%q: risk %s for %s", text, v.Risk, v.Decision)
	}
	if a != nil && a.Fail != "" && v.Decision != Deny {
		t.Fatalf("%q: failed analysis not denied: %+v", text, v)
	}
	if a != nil && len(a.Deny) > 0 && v.Decision != Deny {
		t.Fatalf("%q: deny hit not denied: %+v", text, v)
	}
	if v.Suggest != "" && v.Suggest != strings.TrimSpace(v.Suggest) {
		t.Fatalf("%q: suggestion %q", text, v.Suggest)
	}
	if v.Suggest != "" && strings.Trim(v.Suggest, "* ") == "" {
		t.Fatalf("%q: bare * suggestion", text)
	}
}

func FuzzDecide(f *testing.F) {
	for _, tc := range decideTable {
		f.Add(tc.cmd)
	}
	for _, tc := range analyzeTable {
		f.Add(tc.cmd)
	}
	live := classifyWorks()
	sets := fuzzSettings()
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		for _, s := range sets {
			checkVerdict(t, text, an(text), s)
			if live {
				checkVerdict(t, text, classify.Analyze(text, testOptions()), s)
			}
		}
		if tok := tokens(text); len(tok) > 0 && !strings.ContainsAny(text, "|&;") {
			c := mkCommand(tok, -1, 0)
			if sg := Suggest(c); sg != "" && ValidatePattern(Allow, sg) != nil && sg != strings.Join(tok, " ") {
				t.Fatalf("Suggest(%q) = %q: not valid and not exact", text, sg)
			}
		}
	})
}

// benchSet is a mixed set of commands agents send.
var benchSet = []string{
	"git status", "git log --oneline -20", "git diff HEAD~1", "go test ./...", "timeout 60 go test ./grants",
	"ls -la", "cat README.md", "rg -n TODO src", "find . -name '*.go' -type f", "sed -n '1,40p' main.go",
	"npm install left-pad", "npm test", "make build", "curl https://example.com", "rm -rf build",
	"git push origin main", "git -c core.pager=sh log", "ls | head -5", "cd sub && make", "bash -c 'go vet ./...'",
	"xargs grep foo", "python3 -c 'print(1)'", "docker run -v /:/h alpine", "env", "$CMD x",
}

func BenchmarkDecide(b *testing.B) {
	s := settings("managed deny rm -rf /*", "global deny curl *", "global ask git push *", "project-grants allow go test *",
		"project-grants allow go vet *", "project-grants allow npm test *", "global-grants allow git *", "global-grants allow make *",
		"global-grants allow docker *", "global-grants allow npm install *", "project+ allow cargo *", "global allow gh pr *")
	s.Composite = "each"
	var as []*classify.Analysis
	if classifyWorks() {
		for _, c := range benchSet {
			as = append(as, classify.Analyze(c, testOptions()))
		}
	} else {
		for _, c := range benchSet {
			as = append(as, an(c))
		}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		Decide(as[n%len(as)], s)
		n++
	}
}

// BenchmarkAnalyzeDecide is a whole decision from text: parse and judge the
// command (classify), then decide on it (grants), over the same mixed set.
// This is the figure that bounds guard check --stdin.
func BenchmarkAnalyzeDecide(b *testing.B) {
	s := settings("managed deny rm -rf /*", "global deny curl *", "global ask git push *", "project-grants allow go test *",
		"project-grants allow go vet *", "project-grants allow npm test *", "global-grants allow git *", "global-grants allow make *",
		"global-grants allow docker *", "global-grants allow npm install *", "project+ allow cargo *", "global allow gh pr *")
	s.Composite = "each"
	z := classify.NewAnalyzer(testOptions())
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		Decide(z.Analyze(benchSet[n%len(benchSet)]), s)
		n++
	}
}
