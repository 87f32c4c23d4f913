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

// TestSuggestTypedLines: what guard's interactive shell offers to grant
// for lines a person types there (Settings.Person), and that the offer,
// stored, lets the line through next time. "" is allow once only: a word
// computed at run time ($f in a loop) is covered neither by a '*' (closed
// world) nor by the word written out, which would match whatever it
// expands to. "-" is a line allowed without asking.
func TestSuggestTypedLines(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"make test", "make test"},
		{"make", "make"},
		{`git commit -m "x"`, "git commit *"},
		{"npm run build", "npm run *"},
		{"npm test", "npm test *"},
		{"go test ./...", "go test *"},
		{"./script.sh arg", "./script.sh *"}, // not "./script.sh arg *": a script's words are its arguments
		{"./script.sh -v arg", "./script.sh *"},
		{"scripts/run.sh arg", "scripts/run.sh *"},
		{"bash ./script.sh arg", "bash ./script.sh *"},
		{"./gradlew build", "./gradlew build *"},
		{"for f in *.go; do gofmt -l $f; done", "-"},
		{"for f in *.go; do go vet $f; done", ""}, // not "go vet $f"
		{"for f in a b; do touch $f; done", ""},   // not "touch $f", which would cover touch ~/.bashrc
		{"x=1; echo $x", "-"},
		{"x=build; make $x", "make build"},
		{"x=1; touch $x", "touch 1"},
		{"greet() { echo hi $1; }; greet bob", "-"},
		{"f() { make test; }; f", "make test"}, // the body, defined and called: one grant
		{"b() { npm run build; }; b", "npm run *"},
		{"f() { make a; make b; }; f", ""},
		{"cd sub && make test", "make test"},
		{"make test | tail", "make test"},
		{"make test && make test", "make test"},
		{"make test && npm run build", ""}, // two grants missing: allow once
	} {
		s := Defaults()
		s.Person = true
		a := classify.Analyze(tc.line, classify.Options{Cwd: "/home/u/p", Home: "/home/u"})
		v := Decide(a, s)
		got := v.Suggest
		if v.Decision == Allow {
			got = "-"
		} else if v.OnceOnly {
			got = ""
		}
		if got != tc.want {
			t.Errorf("%q: suggests %q (once only %v), want %q", tc.line, v.Suggest, v.OnceOnly, tc.want)
			continue
		}
		if got == "" || got == "-" {
			continue
		}
		s = settings("project+ allow " + got)
		s.Person = true
		if v := Decide(a, s); v.Decision != Allow {
			t.Errorf("%q: the grant %q does not let it through: %s %s", tc.line, got, v.Rule, v.Reason)
		}
	}
}
