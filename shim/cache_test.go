package shim

import (
	"fmt"
	"testing"

	"github.com/guard-dev/guard/classify"
)

// TestCacheReads: the paths the argument model says a command reads, as
// the fingerprint gets them.
func TestCacheReads(t *testing.T) {
	cases := []struct{ in, want string }{
		{"cat a.txt", "[{/p/a.txt false}]"},
		{"cat ../outside/f", "[{/p/../outside/f false}]"},
		{"cat /etc/hosts", "[{/etc/hosts false}]"},
		{"wc -c *.go", "[{/p/*.go false}]"},
		{"ls", "[{/p false}]"},
		{"ls -la", "[{/p false}]"},
		{"ls -R", "[{/p true}]"},
		{"ls dir", "[{/p/dir false}]"},
		{"grep -r x ../lib", "[{/p/../lib true}]"},
		{"du -sh", "[{/p true}]"},
		{"make -C ../sub", "[{/p/../sub true}]"},
		{"go test ./...", "[]"},
		{"timeout 5 cat /x", "[{/p/5 true} {/x false}]"}, // timeout's duration is a word no spec types
		{"cat -", "[]"},
		{"sh ./count.sh", "[{/p/./count.sh false}]"},
		{"./tool --in=../data", "[{/p/../data true}]"},
	}
	for _, c := range cases {
		an := classify.Analyze(c.in, classify.Options{Cwd: "/p"})
		got := reads(an, "/p")
		var s []string
		for _, r := range got {
			s = append(s, fmt.Sprintf("{%s %v}", r.Path, r.Deep))
		}
		if fmt.Sprint(s) != c.want && !(len(s) == 0 && c.want == "[]") {
			t.Errorf("%s: reads %v, want %s", c.in, s, c.want)
		}
	}
}

// TestCacheFresh: a flag that asks for a fresh run is found wherever it
// sits in the text.
func TestCacheFresh(t *testing.T) {
	for in, want := range map[string]string{
		"go test -count=1 ./...":         "-count=1",
		"timeout 60 make -B all":         "-B",
		"bash -c 'pytest --cache-clear'": "--cache-clear",
		"go test ./...":                  "",
		"make all":                       "",
	} {
		if got := freshFlag(classify.Analyze(in, classify.Options{Cwd: "/p"})); got != want {
			t.Errorf("%s: fresh %q, want %q", in, got, want)
		}
	}
}
