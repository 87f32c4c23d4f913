package classify

import (
	"strings"
	"testing"
)

// fuzzSpecs are the commands the spec fuzz test parses with.
var fuzzSpecs = []string{"cat", "head", "grep", "rg", "sed", "awk", "tar", "git", "curl", "wget", "ssh", "rsync",
	"mysql", "cp", "sort", "go", "make", "pytest", "docker", "find", "jq", "unknown-cmd", "socat", "less", "npm", "iptables-restore"}

// FuzzParseArgs: the parser never panics, every word points into argv,
// and an attached value means what the separate form means (-fFILE is
// -f FILE, --file=FILE is --file FILE) for options with a required value.
func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{"-v KEY", "-e. x", "-fFILE x", "--file=F x", "--fil F", "-xPft.tar", "--har",
		"push --delet origin", "-uroot -pX", "test -exec=x ./...", "-- -x", "-C dir -c k=v log", "--", "-", "-abc",
		"submodule --quiet add -b m u p", "remote add -f x /p", "buildx build -o type=local,dest=x .", "- UNIX-CONNECT:/s,retry=3", "+!cmd -- +x f"} {
		f.Add(uint8(0), s)
		f.Add(uint8(2), s)
		f.Add(uint8(7), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, line string) {
		name := fuzzSpecs[int(which)%len(fuzzSpecs)]
		args := append([]string{name}, strings.Fields(line)...)
		p := ParseCommand(name, args)
		n := len(args)
		if SpecFor(name) == &tarSpec {
			n = len(tarArgs(args))
		}
		for _, w := range p.Words {
			if w.Arg < 1 || w.Arg >= n {
				t.Fatalf("%q: word %+v points outside argv", args, w)
			}
		}
		s := SpecFor(name)
		if s == nil || s == &tarSpec || s.Sub != nil || s.OneDash {
			return
		}
		split, ok := splitAttached(s, args)
		if !ok {
			return
		}
		q := ParseCommand(name, split)
		if a, b := wordsKey(p), wordsKey(q); a != b {
			t.Fatalf("attached and separate forms differ:\n%q -> %s\n%q -> %s", args, a, split, b)
		}
	})
}

// splitAttached rewrites the first option with an attached required value
// (-fVALUE, --file=VALUE) into its separate form; ok is false when argv
// has none.
func splitAttached(s *Spec, args []string) ([]string, bool) {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" || s.InOrder && (len(a) < 2 || a[0] != '-') {
			return nil, false // options end here
		}
		if strings.HasPrefix(a, "--") {
			name, v, eq := strings.Cut(a[2:], "=")
			o, _ := s.long(name)
			if eq && o != nil && o.takes() && !o.Optional && !o.Rest {
				return splice(args, i, "--"+name, v), true
			}
			if !eq && o != nil && o.takes() && !o.Optional {
				i++ // its value is the next word
			}
			continue
		}
		if len(a) > 2 && a[0] == '-' {
			o := s.short(a[1])
			if o == nil {
				return nil, false // an unknown letter: the rest of the word is not parsed
			}
			if o.takes() && !o.Optional && !o.Rest {
				return splice(args, i, a[:2], a[2:]), true
			}
			if !o.takes() {
				return nil, false // a bundle: leave it
			}
		}
		if len(a) == 2 && a[0] == '-' {
			if o := s.short(a[1]); o != nil && o.takes() && !o.Optional {
				i++
			}
		}
	}
	return nil, false
}

func splice(args []string, i int, opt, val string) []string {
	out := append([]string{}, args[:i]...)
	out = append(out, opt, val)
	return append(out, args[i+1:]...)
}

// wordsKey renders a parse without argv positions.
func wordsKey(p Parsed) string {
	var b strings.Builder
	for _, w := range p.Words {
		b.WriteString(w.Name + "|" + w.Role.String() + "|" + w.Val + " ")
	}
	return b.String()
}

// TestAbbreviations: in every spec that takes abbreviations (getopt_long,
// git's parse-options), each prefix of a long name resolves as they
// resolve it: an exact name wins, a prefix of exactly one option names
// it, a prefix of several is ambiguous (the program refuses to run).
func TestAbbreviations(t *testing.T) {
	seen := map[*Spec]bool{}
	var check func(name string, s *Spec)
	check = func(name string, s *Spec) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if !s.Abbrev {
			return
		}
		var longs []string
		owner := map[string]*Opt{}
		for i := range s.Opts {
			for _, l := range s.Opts[i].Long {
				longs = append(longs, l)
				if owner[l] == nil {
					owner[l] = &s.Opts[i]
				}
			}
		}
		for _, l := range longs {
			for k := 1; k <= len(l); k++ {
				pre := l[:k]
				var match []string
				exact := false
				for _, m := range longs {
					if m == pre {
						exact = true
					}
					if strings.HasPrefix(m, pre) && !contains(match, m) {
						match = append(match, m)
					}
				}
				o, amb := s.long(pre)
				switch {
				case exact:
					if o == nil || o != owner[pre] {
						t.Errorf("%s --%s: exact name did not resolve to its option", name, pre)
					}
				case len(match) == 1:
					if o == nil || !contains(o.Long, match[0]) {
						t.Errorf("%s --%s: unique prefix of --%s did not resolve to it", name, pre, match[0])
					}
				default:
					if o != nil || !amb {
						t.Errorf("%s --%s: prefix of %q must be ambiguous, got %v", name, pre, match, o)
					}
				}
			}
		}
	}
	for _, n := range append(append([]string{}, fuzzSpecs...), "cut", "uniq", "wc", "cmp", "file", "chmod", "date", "hostname", "gzip", "base64", "mv") {
		check(n, SpecFor(n))
	}
	for _, sub := range []string{"push", "reset", "clean", "checkout", "restore", "switch", "branch", "stash", "commit", "blame", "grep", "diff", "log", "status"} {
		check("git "+sub, gitSubSpec(sub))
	}
}
