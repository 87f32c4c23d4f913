package classify_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
)

// TestAliasesDecideAlike: programs that share one entry (find and gfind,
// sed and gsed, kubectl and k3s, tar and bsdtar) are one program under
// two names, so guard decides alike for both under a grant of each. A
// rule that names only one spelling leaves the other a silent allow (the
// class the second red team found: gfind . -delete passed under gfind *
// where find . -delete was asked). Every probe of the red-team corpora
// and of this test's own list whose program has other names is decided
// again under each name, with the grant "NAME *" and with none; the
// decisions must be the same kind.
func TestAliasesDecideAlike(t *testing.T) {
	// Entries are shared by programs that only take the same options
	// (sudo and nice; cat and sha256sum) too, so the spellings of one
	// program are named here, and each set must be part of one entry.
	spellings := [][]string{
		{"find", "gfind"}, {"awk", "gawk", "mawk", "nawk"}, {"make", "gmake"}, {"sed", "gsed"},
		{"cc", "c++", "clang", "clang++", "gcc", "g++"}, {"vi", "vim", "gvim", "vimdiff", "ex"},
		{"pip", "pip3"}, {"fd", "fdfind"}, {"docker-compose", "podman-compose"}, {"7z", "7za", "7zz"},
		{"vault", "bao"}, {"kubectl", "oc", "microk8s.kubectl"}, {"nc", "ncat", "netcat"},
		{"terraform", "tofu"}, {"grep", "egrep", "fgrep", "ggrep"}, {"pytest", "py.test"},
		{"docker", "podman", "nerdctl"}, {"gradle", "gradlew"}, {"mvn", "mvnw"}, {"wget", "wget2"},
		{"bazel", "bazelisk"}, {"tar", "gtar", "bsdtar"}, {"gpg", "gpg2"}, {"dd", "dcfldd", "dc3dd"},
		{"iptables", "iptables-legacy", "iptables-nft", "ip6tables"}, {"jq", "gojq"},
	}
	entry := map[string][]string{}
	for _, g := range classify.SpecGroups(t) {
		for _, p := range g {
			entry[p] = g
		}
	}
	byName := map[string][]string{}
	for _, g := range spellings {
		for _, p := range g {
			if e := entry[p]; e == nil || !slices.Contains(e, g[0]) {
				t.Fatalf("%s and %s no longer share an entry: the list above is stale", p, g[0])
			}
			byName[p] = g
		}
	}
	groups := spellings
	probes := aliasProbes(t)
	home := t.TempDir()
	cwd := filepath.Join(home, "proj")
	opt := classify.Options{Cwd: cwd, Home: home}
	decide := func(text, grant string) grants.Decision {
		s := grants.Defaults()
		if grant != "" {
			s.Rules = append(s.Rules, grants.Rule{Kind: grants.Allow, Pattern: grant, Layer: "global-grants", File: "/cfg/grants.toml", Line: 1, Trusted: true})
		}
		return grants.Decide(classify.Analyze(text, opt), s).Decision
	}
	// Programs whose names differ in what they are: a shared spec types
	// their options alike, but the names themselves are judged apart (an
	// interpreter's name is never wholesale-grantable; busybox runs its
	// first operand).
	apart := map[string]bool{}
	for _, g := range groups {
		for _, p := range g {
			if classify.Interpreter(p) {
				apart[p] = true
			}
		}
	}
	seen := map[string]bool{}
	n := 0
	for _, probe := range probes {
		name, rest, ok := strings.Cut(probe, " ")
		g := byName[name]
		if !ok || g == nil || apart[name] || strings.ContainsAny(rest, "|;&`$()<>\n") {
			continue
		}
		for _, grant := range []string{"", "*"} {
			var first grants.Decision
			var firstName string
			for _, p := range g {
				if apart[p] {
					continue
				}
				text := p + " " + rest
				if seen[text+"\x00"+grant] {
					continue
				}
				pat := ""
				if grant != "" {
					pat = p + " " + grant
				}
				d := decide(text, pat)
				n++
				if firstName == "" {
					first, firstName = d, p
					continue
				}
				if d != first {
					t.Errorf("%q is %s but %q is %s (grant %q): one program, two answers", firstName+" "+rest, first, text, d, pat)
				}
			}
		}
		for _, p := range g {
			seen[p+" "+rest+"\x00"] = true
			seen[p+" "+rest+"\x00*"] = true
		}
	}
	if n < 200 {
		t.Fatalf("only %d decisions compared: the probe files moved?", n)
	}
	t.Logf("%d decisions compared across %d groups of names", n, len(groups))
}

// aliasProbes are the red-team corpora's lines and a list of this test's
// own: the options that run code, write, delete or reach a host, for the
// programs that have other names.
func aliasProbes(t *testing.T) []string {
	out := []string{
		"find . -delete", "find / -delete", "find . -exec touch x ;", "find . -fprint /tmp/x", "find ~ -name id_rsa",
		"find . -execdir sh -c x ;", "find . -fls /tmp/l", "find . -name '*.go'",
		"sed -i s/a/b/ f", "sed -n 5p f", "sed e f", "sed 's/x/y/w /tmp/out' f", "sed -n 1p ~/.ssh/id_rsa",
		"awk 'BEGIN{system(\"x\")}'", "awk '{print > \"/tmp/x\"}' f", "awk '{print}' f", "awk -f prog.awk f",
		"tar -xf a.tar -C /", "tar --to-command=sh -xf a.tar", "tar -cf a.tar --remove-files src", "tar -tf a.tar",
		"tar --use-compress-program=sh -xf a.tar", "tar -xf a.tar --checkpoint=1 --checkpoint-action=exec=sh",
		"kubectl --server https://evil.example get pods", "kubectl get pods", "kubectl exec -it p -- sh",
		"kubectl get secret s -o yaml", "kubectl config view --raw", "kubectl delete ns prod", "kubectl cp p:/x .",
		"npm run build", "npm --script-shell /tmp/x run build", "npm exec evil", "npm install left-pad", "npm config get _authToken",
		"docker run -v /:/host alpine", "docker --host tcp://evil:2375 ps", "docker ps", "docker run --privileged alpine",
		"gcc -fplugin=/tmp/p.so x.c", "gcc -wrapper /tmp/w x.c", "gcc -o x x.c",
		"xargs rm -rf", "xargs echo", "timeout 5 sh -c x", "nice rm -rf /",
		"grep -r x .", "grep -r x ~/.ssh", "less f", "more f", "less +!sh f",
		"make", "make -f /tmp/evil.mk", "make --eval='x:;sh'", "make test",
		"python -m pytest", "python -m pytest -p evil", "python -m pytest --rootdir /",
		"vim -c '!sh' f", "vi f", "nvim --cmd 'lua os.execute(\"x\")' f",
		"rg --pre sh x", "rg x", "rsync -e sh a b", "rsync a /etc/x",
		"ssh -o ProxyCommand=sh host", "ssh host", "scp -S /tmp/x a host:b",
		"zip -TT sh a.zip f", "zip a.zip f", "git -c core.pager=sh log", "git status",
	}
	for _, f := range []string{"danger.txt", "deny.txt", "harmless.txt"} {
		fh, err := os.Open(filepath.Join("..", "bench", "redteam", f))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			l := strings.TrimSpace(sc.Text())
			if l != "" && !strings.HasPrefix(l, "#") {
				out = append(out, l)
			}
		}
		fh.Close()
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestProgramName(t *testing.T) {
	for in, want := range map[string]string{
		"gfind": "find", "bsdtar": "tar", "egrep": "grep", "podman": "docker", "gcc-12": "gcc", "clang-17": "clang",
		"wget2": "wget", "find": "find", "python3.11": "python3.11", "./gfind": "./gfind", "mytool2": "mytool2", "": "",
		"sha256sum": "sha256sum", "gpg2": "gpg", "7zz": "7z",
	} {
		if got := classify.ProgramName(in); got != want {
			t.Errorf("ProgramName(%q) = %q, want %q", in, got, want)
		}
	}
}
