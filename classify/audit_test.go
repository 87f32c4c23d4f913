package classify

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSpecAudit checks the specs of the tools people grant wholesale
// against the tools' real option lists (testdata/options/TOOL.txt, one
// "PREFIX: OPTION…" line per command or subcommand, taken from the tool's
// own --help or -h and its manual). Under a '*' grant an option the spec
// does not type is asked, so every real option must be typed by the spec
// or listed in the spec's Untyped, deliberately left out with its reason.
func TestSpecAudit(t *testing.T) {
	files, err := filepath.Glob("testdata/options/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no option lists: %v", err)
	}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		line := 0
		for sc.Scan() {
			line++
			text := strings.TrimSpace(sc.Text())
			if text == "" || strings.HasPrefix(text, "#") {
				continue
			}
			prefix, opts, ok := strings.Cut(text, ":")
			if !ok {
				t.Errorf("%s:%d: no PREFIX: before the options", file, line)
				continue
			}
			pre := strings.Fields(prefix)
			for _, opt := range strings.Fields(opts) {
				if why := auditOption(pre, opt); why != "" {
					t.Errorf("%s:%d: %s %s: %s", file, line, prefix, opt, why)
				}
			}
		}
		f.Close()
	}
}

// auditOption reports why opt of the command pre is neither typed by its
// spec nor listed in its Untyped, "" when it is one of them.
func auditOption(pre []string, opt string) string {
	if numberWord(opt) {
		return ""
	}
	args := append(slices.Clip(pre), opt)
	p := ParseCommand(args[0], args)
	s := SpecFor(args[0])
	if s == nil {
		return "no spec"
	}
	if p.Sub >= 0 && s.Sub != nil {
		if s = s.Sub(args[p.Sub]); s == nil {
			return "no spec of the subcommand"
		}
	}
	for _, w := range p.Words {
		if w.Arg != len(args)-1 || w.Name == "" {
			continue
		}
		if w.Role != RoleUnknown {
			return ""
		}
		if slices.Contains(s.Untyped, strings.TrimLeft(opt, "-")) {
			return ""
		}
		return "neither typed by the spec nor listed in its Untyped"
	}
	if p.Unknown || !p.Spec {
		return "not read as an option"
	}
	return "read as an operand, not an option"
}

// TestUntypedOptions: the option words a '*' grant does not cover.
func TestUntypedOptions(t *testing.T) {
	cases := []struct {
		cmd  string
		want string // the untyped words, space-separated
	}{
		{"git log --oneline --graph -n 5", ""},
		{"git log --frobnicate -p", "--frobnicate"},
		{"git commit --no-verify -m x", ""},
		{"npm run build --frob=1", "--frob=1"},
		{"mytool build --fast -x y", "--fast -x"},
		{"mytool build -- --fast", ""},
		{"kill -9 123", ""},
		{"gcc -O2 -Wall -fPIC -c a.c", ""},
		{"gcc --frob a.c", "--frob"},
		{"go test -count=1 ./... -update", ""},
		{"git daemon --export-all", "--export-all"},
		{"curl --outp x u", "--outp"}, // output or output-dir: ambiguous
		{"curl --output-d x u", ""},
	}
	for _, tc := range cases {
		args := strings.Fields(tc.cmd)
		p := ParseCommand(args[0], args)
		var got []string
		for _, w := range p.UntypedOptions(args) {
			got = append(got, args[w.Arg])
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%q: untyped %q, want %q", tc.cmd, g, tc.want)
		}
	}
}

func TestUnversionedName(t *testing.T) {
	for in, want := range map[string]string{"python3.11": "python", "perl5.36.0": "perl", "node18": "node", "ruby3.1": "ruby", "php8.2": "php",
		"python-3.12": "python", "lua5.4": "lua", "git": "git", "sha256sum": "sha256sum", "7z": "7z", "x86_64": "x86_"} {
		if got := UnversionedName(in); got != want {
			t.Errorf("UnversionedName(%q) = %q, want %q", in, got, want)
		}
	}
	for _, n := range []string{"python3.11", "node18", "perl5.36.0", "ruby3.1", "php8.2", "R", "ipython", "ts-node", "tsx", "guile", "sbcl", "groovy", "elixir", "erl", "octave", "gnuplot", "dc", "bb"} {
		if !Interpreter(n) {
			t.Errorf("Interpreter(%q) = false", n)
		}
	}
	for _, n := range []string{"git", "make", "awk", "sha256sum", "gcc"} {
		if Interpreter(n) {
			t.Errorf("Interpreter(%q) = true", n)
		}
	}
}
