package grants

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
)

// suggestCorpus gathers command texts from the tables guard is tested with:
// bench/agent-commands.txt, the first field of classify's deny and argv
// tables (read as text: they live in another package's tests), and this
// package's decide and analyze tables.
func suggestCorpus(t *testing.T) []string {
	t.Helper()
	var out []string
	f, err := os.Open(filepath.Join("..", "bench", "agent-commands.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	src, err := os.ReadFile(filepath.Join("..", "classify", "table_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile("(?m)^\\s*\\{`([^`]*)`,")
	for _, m := range first.FindAllStringSubmatch(string(src), -1) {
		out = append(out, m[1])
	}
	for _, tc := range decideTable {
		out = append(out, tc.cmd)
	}
	for _, tc := range analyzeTable {
		out = append(out, tc.cmd)
	}
	return out
}

// suggestOpts is the caller the corpus is judged for.
func suggestOpts() classify.Options {
	return classify.Options{Cwd: "/home/u/proj", Home: "/home/u",
		Protected: []string{"/home/u/.config/guard", "/home/u/.local/state/guard"}}
}

// TestSuggestionsMatchTheirCommand: a suggestion offered for a command,
// once stored as a project grant, lets that very command through the
// grant step. Offering a grant that would not cover its own command makes
// the human answer twice.
func TestSuggestionsMatchTheirCommand(t *testing.T) {
	opts := suggestOpts()
	n := 0
	for _, text := range suggestCorpus(t) {
		a := classify.Analyze(text, opts)
		v := Decide(a, Defaults())
		if v.Suggest == "" {
			continue
		}
		n++
		s := Defaults()
		if tier, values, ok := ParseTierGrant(v.Suggest); ok {
			// a tier grant (a package approval, a host): granting it must
			// settle what was asked
			for _, val := range values {
				s.Tiers = append(s.Tiers, Rule{Kind: Allow, Pattern: val, Tier: tier, Layer: LayerProjectGrants, File: "grants.toml", Line: 1})
			}
			if after := Decide(a, s); after.Decision == v.Decision && after.Reason == v.Reason {
				t.Errorf("%q: granting %q changes nothing: %s", text, v.Suggest, after.Reason)
			}
			continue
		}
		s.Rules = append(s.Rules, Rule{Kind: Allow, Pattern: v.Suggest, Layer: LayerProjectGrants, File: "grants.toml", Line: 1})
		after := Decide(a, s)
		if after.Decision == Allow {
			continue
		}
		// Another rule may still ask (a built-in ask rule, an inner command
		// the grant does not name); the grant itself must have matched.
		_, trace := Explain(a, s)
		matched := false
		for _, line := range trace {
			if strings.Contains(line, "allow "+quoteTrace(v.Suggest)) && strings.HasSuffix(line, "matches") {
				matched = true
			}
		}
		if !matched {
			t.Errorf("%q: suggestion %q does not match its own command (after granting it: %s %s: %s)",
				text, v.Suggest, after.Decision, after.Rule, after.Reason)
		}
	}
	if n < 50 {
		t.Fatalf("only %d suggestions over the corpus: is it being read?", n)
	}
}

func quoteTrace(s string) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(fmtQ(s), ""), ""))
}

func fmtQ(s string) string { return strconv.Quote(s) }

// TestSuggestWhatAPersonWrites: the suggestions the first-hour issue found
// odd, and what guard offers instead.
func TestSuggestWhatAPersonWrites(t *testing.T) {
	cases := []struct{ cmd, want string }{
		{"touch zzfile a", "touch zzfile a"}, // not "touch zzfile *": a path writer gets its exact text
		{"mv a b", "mv a b"},
		{"cp a.txt b.txt", "cp a.txt b.txt"},
		{"make all", "make all"}, // not "make all *"
		{"make test -j4", "make test *"},
		{"make all SHELL=/tmp/x", "make all SHELL=/tmp/x"}, // SHELL= runs another program: it stays literal
		{"sed -i s/a/b/ main.go", "sed -i *"},              // a '*' never covers a sed script that runs or writes (e, w)
		{"sed -i -e s/a/b/e main.go", ""},                  // the e command runs its text: a one-liner, allow once
		{"python3 -c 'print(1+1)'", ""},
		{"node -e 'console.log(1)'", ""},
		{"xargs -a /dev/null echo", "xargs -a /dev/null echo"},
		{"npm install left-pad", "npm install *"},
		{"npm test", "npm test *"},
		{"go test ./...", "go test *"},
		{"cargo build --release", "cargo build *"},
		{"mytool --fast x", "mytool --fast *"}, // guard cannot type --fast: the grant names it
		{"python3 script.py", "python3 script.py *"},
		{"python3 -m pytest tests/ -x", "python3 -m pytest *"},
		{"timeout 5 cargo build", "cargo build *"},
		{"strace -f ./a", "strace -f ./a"}, // not a pass-through wrapper: the grant must name strace
		{"git -c core.pager=less log", "git -c core.pager=less log"},
	}
	opts := suggestOpts()
	for _, tc := range cases {
		a := classify.Analyze(tc.cmd, opts)
		if len(a.Commands) == 0 {
			t.Fatalf("%q: no commands", tc.cmd)
		}
		if got := Suggest(a.Commands[0]); got != tc.want {
			t.Errorf("Suggest(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
