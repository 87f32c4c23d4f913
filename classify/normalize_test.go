package classify

import (
	"slices"
	"strings"
	"testing"
)

// covers reports whether every token of rule words want (read as
// arguments of the command) is among the command's tokens.
func covers(t *testing.T, text, want string) (bool, []string, []string) {
	t.Helper()
	a := Analyze(text, Options{Cwd: "/proj", Home: "/home/u"})
	if a.Fail != "" || len(a.Commands) == 0 {
		t.Fatalf("%q: %s %s", text, a.Fail, a.FailReason)
	}
	c := &a.Commands[len(a.Commands)-1] // the innermost: wrappers come first
	got := c.Normalized()
	rule := NormalizeArgs(c.Name, strings.Fields(want), "/home/u")
	for _, r := range rule {
		if !slices.Contains(got, r) {
			return false, got, rule
		}
	}
	return true, got, rule
}

func TestNormalizeSpellings(t *testing.T) {
	tests := []struct {
		text, rule string
		want       bool
	}{
		// bundles, order, separate flags
		{"rm -rf /data", "-r -f /data", true},
		{"rm -fr /data", "-r -f /data", true},
		{"rm -r -f /data", "-rf /data", true},
		{"rm -f -r /data", "-fr /data", true},
		{"rm -R -f /data", "-r -f /data", true},
		{"rm --recursive --force /data", "-r -f /data", true},
		{"rm --rec --for /data", "-rf /data", true}, // getopt_long abbreviations
		{"rm -r --force /data", "--recursive -f /data", true},
		{"rm -vrf /data", "-r -f /data", true},
		{"rm -Irf /data", "-r -f /data", true}, // a letter the spec does not know
		{"rm -rfv -- /data", "-r -f /data", true},
		// paths
		{"rm -rf //data", "-rf /data", true},
		{"rm -rf /data/", "-rf /data", true},
		{"rm -rf /data/./", "-rf /data", true},
		{"rm -rf /srv/../data", "-rf /data", true},
		{"rm -rf ~/data", "-rf ~/data", true},
		{"rm -rf $HOME/data", "-rf ~/data", true},
		{"rm -rf /home/u/data", "-rf $HOME/data", true},
		{"cd / && rm -rf data", "-rf /data", true},
		{"rm -rf ./build", "-rf build", true},
		// values attached or not
		{"head -n5 x", "-n 5", true},
		{"head -n 5 x", "-n5", true},
		{"head --lines=5 x", "-n 5", true},
		{"head --lines 5 x", "-n5", true},
		{"head -n 6 x", "-n 5", false},
		{"curl -o/etc/x https://a", "-o /etc/x", true},
		{"curl --output /etc/x https://a", "-o /etc/x", true},
		{"curl -o /tmp/x https://a", "-o /etc/x", false},
		{"curl -o /tmp/x https://a", "-o", true}, // the option, any value
		// per-command aliases
		{"cp --force a b", "-f", true},
		{"mv -f a b", "--force", true},
		{"chmod --recursive 777 x", "-R", true},
		{"chown -R u x", "--recursive", true},
		{"chmod --quiet 1 x", "-f", true},
		{"git push -f origin main", "push --force", true},
		{"git push --force origin main", "push -f", true},
		{"git push --force-with-lease origin main", "push --force", false},
		{"git push --force origin main", "push --force-with-lease", false},
		{"git push --force-with-lease=main origin", "push --force-with-lease", true},
		{"git -C repo push --forc origin", "push --force", false}, // ambiguous: git refuses it
		{"git push origin main", "push --force", false},
		{"git clean -fdx", "clean -f -d -x", true},
		{"git clean --force -d", "clean -f", true},
		// Go-flag tools: one dash or two
		{"terraform destroy -auto-approve", "destroy", true},
		{"terraform -chdir=infra destroy", "destroy", true},
		{"terraform apply --destroy", "apply -destroy", true},
		{"terraform apply -destroy", "--destroy", true},
		{"terraform plan -destroy=false", "apply", false},
		// commands without a spec: bundles of letters split
		{"frob -xz file", "-z -x", true},
		{"frob -x -z file", "-xz", true},
		{"frob --level=3 file", "--level=3", true},
		{"frob --level=4 file", "--level=3", false},
		// look-alikes
		{"rm -r build", "-r -f", false},
		{"rm -f build", "-r -f", false},
		{"rm -rf /database", "-rf /data", false},
		{"rm -rf data", "-rf /data", false},
	}
	for _, tt := range tests {
		got, toks, rule := covers(t, tt.text, tt.rule)
		if got != tt.want {
			t.Errorf("%q covers %q = %v, want %v\n command tokens %q\n rule tokens %q", tt.text, tt.rule, got, tt.want, toks, rule)
		}
	}
}

func TestNormalizedTokens(t *testing.T) {
	a := Analyze("rm -fr //data", Options{Cwd: "/proj"})
	got := a.Commands[0].Normalized()
	want := []string{"--force", "--recursive", "/data"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("tokens = %q, want %q", got, want)
	}
	if got := NormalizeArgs("rm", []string{"-rf", "~"}, ""); !slices.Contains(got, "~") {
		t.Errorf("without a home, ~ stays ~: %q", got)
	}
}

// FuzzNormalize checks that normalising never panics and that a rule
// written from a command's own words always matches that command: the
// rule side (NormalizeArgs) is covered by the command side (Normalized).
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"rm -rf /data", "rm -Irf -- //x/", "head -n5 x", "git -C r push --force-with-lease=m o", "tar xzf a.tgz -C /tmp",
		"terraform apply -destroy=true", "curl -o/etc/x https://a", "frob -xz --k=v ~/a", "chmod --quiet -R 777 .", "find . -exec rm {} ;", "git clean -fdx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a := Analyze(text, Options{Cwd: "/proj"})
		if a.Fail != "" {
			return
		}
		for i := range a.Commands {
			c := &a.Commands[i]
			if len(c.Args) == 0 {
				continue
			}
			got := map[string]bool{}
			for _, tok := range c.Normalized() {
				got[tok] = true
			}
			for _, tok := range NormalizeArgs(c.Name, c.Args[1:], "") {
				if !got[tok] {
					t.Fatalf("%q: rule token %q not among the command's %q", c.Args, tok, c.Normalized())
				}
			}
		}
	})
}
