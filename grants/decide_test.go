package grants

import (
	"errors"
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
)

type decideCase struct {
	name  string
	cmd   string
	rules []string
	mod   func(*Settings)
	want  Decision
	rule  string // want Verdict.Rule ("" = don't check)
	risk  Risk   // "" = don't check
}

func each(s *Settings)        { s.Composite = "each" }
func unknownDeny(s *Settings) { s.Unknown = Deny }
func noReadonly(s *Settings)  { s.BuiltinReadonly = false }

var decideTable = []decideCase{
	// deny beats allow, across layers and scopes
	{name: "deny beats allow across layers", cmd: "git push origin main", rules: []string{"project-grants allow git *", "global deny git push *"}, want: Deny, rule: "git push *"},
	{name: "managed deny binds all", cmd: "curl https://x", rules: []string{"managed deny curl *", "project-grants allow curl *", "global-grants allow curl *"}, want: Deny, rule: "curl *"},
	{name: "deny beats builtin read-only", cmd: "cat notes.txt", rules: []string{"global deny cat *"}, want: Deny, rule: "cat *"},
	{name: "deny tie with allow same pattern", cmd: "make", rules: []string{"global-grants allow make *", "global-grants deny make *"}, want: Deny},
	{name: "ask rule beats allow", cmd: "git push origin", rules: []string{"global-grants allow git *", "global ask git push *"}, want: Ask, rule: "git push *"},
	{name: "deny rules reach nested commands", cmd: "bash -c 'rm -rf build'", rules: []string{"global deny rm -rf *"}, want: Deny},
	{name: "deny rules reach wrapped commands", cmd: "timeout 5 rm -rf build", rules: []string{"global deny rm -rf *"}, want: Deny},
	{name: "deny rules reach xargs commands", cmd: "xargs rm -rf", rules: []string{"global deny rm -rf*"}, want: Deny},
	{name: "deny rules reach composite parts", cmd: "ls | curl x", rules: []string{"global deny curl *"}, want: Deny},
	{name: "deny matches basename", cmd: "/bin/rm -rf x", rules: []string{"global deny rm -rf *"}, want: Deny, rule: "rm -rf *"},
	{name: "ask matches basename", cmd: "/usr/bin/git push", rules: []string{"global ask git push*"}, want: Ask},
	{name: "allow matches as written only", cmd: "/usr/bin/git commit -m x", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleUnknown},
	{name: "allow as written path", cmd: "/usr/bin/git commit -m x", rules: []string{"global-grants allow /usr/bin/git *"}, want: Allow, risk: RiskLow},

	// word boundaries
	{name: "git * covers git", cmd: "git", rules: []string{"global-grants allow git *"}, want: Allow, rule: "git *"},
	{name: "git * covers git commit", cmd: "git commit -m wip", rules: []string{"global-grants allow git *"}, want: Allow, rule: "git *", risk: RiskLow},
	{name: "git * not gitk", cmd: "gitk --all", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleUnknown},
	{name: "exact pattern exact only", cmd: "make test", rules: []string{"global-grants allow make"}, want: Ask, rule: RuleUnknown},
	{name: "exact pattern", cmd: "make", rules: []string{"global-grants allow make"}, want: Allow},
	{name: "go test * scope", cmd: "go test ./...", rules: []string{"project-grants allow go test *"}, want: Allow, rule: "go test *"},
	{name: "go test * not go build", cmd: "go build ./...", rules: []string{"project-grants allow go test *"}, want: Ask, rule: RuleUnknown},
	{name: "star inside word", cmd: "npm run lint:fix", rules: []string{"global-grants allow npm run lint*"}, want: Allow},

	// scope order for allows
	{name: "project grants reported first", cmd: "make", rules: []string{"global-grants allow make *", "project-grants allow make"}, want: Allow, rule: "make"},
	{name: "untrusted project allow ignored", cmd: "make build", rules: []string{"project allow make *"}, want: Ask, rule: RuleUnknown},
	{name: "trusted project allow counts", cmd: "make build", rules: []string{"project+ allow make *"}, want: Allow, rule: "make *"},
	{name: "untrusted project deny applies", cmd: "make deploy", rules: []string{"project deny make deploy*", "global-grants allow make *"}, want: Deny},
	{name: "untrusted project ask applies", cmd: "make deploy", rules: []string{"project ask make deploy*", "global-grants allow make *"}, want: Ask, rule: "make deploy*"},

	// closed world under a *: an option guard cannot type is asked
	{name: "unknown npm option under npm *", cmd: "npm run build --frobnicate=x", rules: []string{"global-grants allow npm *"}, want: Ask, rule: RuleUntyped},
	{name: "npm --editor runs a program", cmd: "npm run build --editor=vi", rules: []string{"global-grants allow npm *"}, want: Ask, rule: RuleExecCapable},
	{name: "npm config keys as options", cmd: "npm ci --prefer-offline --no-audit --no-fund --loglevel=warn", rules: []string{"global-grants allow npm *"}, want: Allow},
	{name: "unknown git option under git *", cmd: "git log --frobnicate", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleUntyped},
	{name: "literal pattern covers an unknown option", cmd: "git log --frobnicate", rules: []string{"global-grants allow git log --frobnicate*"}, want: Allow},
	{name: "typed git log options under git *", cmd: "git log --oneline --graph --all -n 5", rules: []string{"global-grants allow git *"}, want: Allow},
	{name: "negated git option under git *", cmd: "git commit --no-gpg-sign --no-signoff -m x", rules: []string{"global-grants allow git *"}, want: Allow},
	{name: "spec-less program: operands only under *", cmd: "mytool build x", rules: []string{"global-grants allow mytool *"}, want: Allow},
	{name: "spec-less program: an option asks under *", cmd: "mytool build --fast", rules: []string{"global-grants allow mytool *"}, want: Ask, rule: RuleUntyped},
	{name: "spec-less program: after -- is an operand", cmd: "mytool build -- --fast", rules: []string{"global-grants allow mytool *"}, want: Allow},
	{name: "a project script's options are its own", cmd: "./run-tests.sh -v", rules: []string{"global-grants allow ./run-tests.sh *"}, want: Allow},
	{name: "a dynamic word of a program without a spec may be an option", cmd: "mytool build $X", rules: []string{"global-grants allow mytool *"}, want: Ask, rule: RuleUntyped},
	{name: "a number is no option", cmd: "kill -9 123", rules: []string{"global-grants allow kill *"}, want: Allow},
	{name: "help under *", cmd: "mytool --help", rules: []string{"global-grants allow mytool *"}, want: Allow},
	{name: "an unknown git option leaves the read-only set", cmd: "git log --frobnicate", want: Ask},
	{name: "an unknown ls option does not leave the read-only set", cmd: "ls -la", want: Allow, rule: RuleBuiltinReadonly},

	// friction the red team found (issue 18 §7): harmless, so allowed
	{name: "shred --help prints", cmd: "shred --help", want: Allow, rule: RuleBuiltinReadonly},
	{name: "mkfs --help prints", cmd: "mkfs --help", want: Allow, rule: RuleBuiltinReadonly},
	{name: "sudo --version prints", cmd: "sudo --version", want: Allow, rule: RuleBuiltinReadonly},
	{name: "any tool --version", cmd: "mytool --version", want: Allow, rule: RuleBuiltinReadonly},
	{name: "a path --help is a program guard cannot see", cmd: "./tool --help", want: Ask},
	{name: "printenv of a plain name", cmd: "printenv HOME", want: Allow, rule: RuleBuiltinReadonly},
	{name: "printenv of a secret name", cmd: "printenv GITHUB_TOKEN", want: Ask},
	{name: "printenv of a URL", cmd: "printenv DATABASE_URL", want: Ask},
	{name: "git remote -v", cmd: "git remote -v", want: Allow, rule: RuleBuiltinReadonly},
	{name: "git remote get-url", cmd: "git remote get-url origin", want: Allow, rule: RuleBuiltinReadonly},
	{name: "git remote add is no query", cmd: "git remote add up https://x", want: Ask},
	{name: "git tag -l", cmd: "git tag -l 'v1.*'", want: Allow, rule: RuleBuiltinReadonly},
	{name: "git tag NAME makes one", cmd: "git tag v1", want: Ask},
	{name: "git config --get of a plain key", cmd: "git config --get user.email", want: Allow, rule: RuleBuiltinReadonly},
	{name: "git config --get of a credential key", cmd: "git config --get http.extraheader", want: Ask},
	{name: "git config sets", cmd: "git config user.email x@y", want: Ask},
	{name: "kill -l", cmd: "kill -l", want: Allow, rule: RuleBuiltinReadonly},
	{name: "od on a project file", cmd: "od -c README.md", want: Allow},
	{name: "strings on a project file", cmd: "strings a.out", want: Allow},
	{name: "fold on a project file", cmd: "fold -w 80 x.txt", want: Allow},
	{name: "git -c of a harmless key under git *", cmd: "git -c color.ui=always log", rules: []string{"global-grants allow git *"}, want: Allow},
	{name: "git -c of a key guard does not know", cmd: "git -c frob.x=1 log", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git config of a key guard does not know", cmd: "git config frob.x 1", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "npm pkg set of a harmless key", cmd: "npm pkg set version=1.2.3", rules: []string{"global-grants allow npm *"}, want: Allow},
	{name: "npm pkg set of scripts", cmd: "npm pkg set scripts.test=x", rules: []string{"global-grants allow npm *"}, want: Ask, rule: RuleExecCapable},
	{name: "npm config set of a harmless key", cmd: "npm config set loglevel warn", rules: []string{"global-grants allow npm *"}, want: Allow},
	{name: "npm config set script-shell", cmd: "npm config set script-shell /bin/x", rules: []string{"global-grants allow npm *"}, want: Ask, rule: RuleExecCapable},
	{name: "mvn everyday options under mvn *", cmd: "mvn -B -q -ntp clean install -DskipTests -pl core -am", rules: []string{"global-grants allow mvn *"}, want: Allow},
	{name: "mvn -f another POM runs its plugins", cmd: "mvn -f /tmp/x/pom.xml install", rules: []string{"global-grants allow mvn *"}, want: Ask, rule: RuleExecCapable},
	{name: "gradle init script", cmd: "gradle --init-script /tmp/x.gradle build", rules: []string{"global-grants allow gradle *"}, want: Ask, rule: RuleExecCapable},
	{name: "cmake configure and build", cmd: "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -G Ninja", rules: []string{"global-grants allow cmake *"}, want: Allow},
	{name: "eslint --fix", cmd: "eslint . --fix --max-warnings 0", rules: []string{"global-grants allow eslint *"}, want: Allow},
	{name: "eslint --rulesdir loads code", cmd: "eslint --rulesdir /tmp/r .", rules: []string{"global-grants allow eslint *"}, want: Ask, rule: RuleExecCapable},
	{name: "bazel targets are labels, not paths", cmd: "bazel test //...", rules: []string{"global-grants allow bazel *"}, want: Allow},
	{name: "bazel --run_under runs a program", cmd: "bazel run //x --run_under=gdb", rules: []string{"global-grants allow bazel *"}, want: Ask, rule: RuleExecCapable},
	{name: "2>&1 is no composite", cmd: "go test ./... 2>&1", rules: []string{"global-grants allow go test *"}, want: Allow, rule: "go test *"},
	{name: "2>/dev/null 2>&1 is no composite", cmd: "go test ./... 2>/dev/null 2>&1", rules: []string{"global-grants allow go test *"}, want: Allow, rule: "go test *"},
	{name: "a read-only command with 2>/dev/null", cmd: "ls missing 2>/dev/null", want: Allow},
	{name: "awk comparison is no redirect", cmd: "awk 'NR > 5' x.txt", want: Allow, rule: RuleBuiltinReadonly},
	{name: "awk comparison under awk *", cmd: "awk 'NR>1 && NF > 2 {print}' x.txt", rules: []string{"global-grants allow awk *"}, want: Allow},
	{name: "awk print > FILE writes", cmd: "awk '{print > \"out\"}' x.txt", rules: []string{"global-grants allow awk *"}, want: Ask, rule: RuleExecCapable},
	{name: "awk ENVIRON prints the environment", cmd: "awk 'BEGIN{print ENVIRON[\"TOKEN\"]}'", want: Ask},

	// exec-capable arguments under a *
	{name: "git -c under git *", cmd: "git -c core.pager=sh log", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git -C under git *", cmd: "git -C /tmp/x status", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git --git-dir=", cmd: "git --git-dir=/x/.git log", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git --output", cmd: "git log --output=/tmp/x", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git abbreviated --outp", cmd: "git log --outp=/tmp/x", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git --ext-diff", cmd: "git diff --ext-diff", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git diff --text fine", cmd: "git diff --text", rules: []string{"global-grants allow git *"}, want: Allow},
	{name: "git diff --no-ext-diff fine", cmd: "git diff --no-ext-diff", rules: []string{"global-grants allow git *"}, want: Allow},
	{name: "git --upload-pack", cmd: "git fetch --upload-pack=evil origin", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git config core.pager", cmd: "git config core.pager 'sh -c x'", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git config alias", cmd: "git config --global alias.st '!sh'", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git config user.name fine", cmd: "git config user.name me", rules: []string{"global-grants allow git *"}, want: Allow},
	{name: "git grep -O", cmd: "git grep -Ovim foo", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "git log -C is not global -C", cmd: "git log -C", rules: []string{"global-grants allow git *"}, want: Allow},
	{name: "git rebase -x", cmd: "git rebase -x 'make test' main", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	{name: "literal pattern covers exec option", cmd: "git -C sub status", rules: []string{"global-grants allow git -C sub status"}, want: Allow},
	{name: "literal prefix then star on exec value", cmd: "git -C sub status", rules: []string{"global-grants allow git -C *"}, want: Ask, rule: RuleExecCapable},
	{name: "find -exec under find *", cmd: "find . -name x -exec rm {} +", rules: []string{"global-grants allow find *"}, want: Ask, rule: RuleExecCapable},
	{name: "find -delete under find *", cmd: "find . -name '*.o' -delete", rules: []string{"global-grants allow find *"}, want: Ask, rule: RuleExecCapable},
	{name: "find -fprint under find *", cmd: "find . -fprint0 /tmp/x", rules: []string{"global-grants allow find *"}, want: Ask, rule: RuleExecCapable},
	{name: "find -name -delete is a name", cmd: "find . -name x", rules: []string{"global-grants allow find *"}, want: Allow},
	{name: "tar --to-command", cmd: "tar -xf a.tar --to-command=sh", rules: []string{"global-grants allow tar *"}, want: Ask, rule: RuleExecCapable},
	{name: "tar -I", cmd: "tar -I zstd -xf a.tar", rules: []string{"global-grants allow tar *"}, want: Ask, rule: RuleExecCapable},
	{name: "tar bundled -xI", cmd: "tar -xIzstd -f a.tar", rules: []string{"global-grants allow tar *"}, want: Ask, rule: RuleExecCapable},
	{name: "tar checkpoint-action", cmd: "tar --checkpoint=1 --checkpoint-action=exec=sh -cf a.tar .", rules: []string{"global-grants allow tar *"}, want: Ask, rule: RuleExecCapable},
	{name: "tar old style F", cmd: "tar cfF a.tar x.sh .", rules: []string{"global-grants allow tar *"}, want: Ask, rule: RuleExecCapable},
	{name: "tar plain", cmd: "tar -xzf a.tar.gz", rules: []string{"global-grants allow tar *"}, want: Allow},
	{name: "xargs under xargs -0 *", cmd: "xargs -0 rm", rules: []string{"global-grants allow xargs -0 *"}, want: Ask, rule: RuleExecCapable},
	{name: "xargs literal grant", cmd: "xargs grep foo", rules: []string{"global-grants allow xargs grep foo"}, want: Allow},
	{name: "xargs not transparent", cmd: "xargs grep foo", rules: []string{"global-grants allow grep *"}, want: Ask, rule: RuleUnknown},
	{name: "env wrapper transparent", cmd: "env ls -la", want: Allow, rule: RuleBuiltinReadonly},
	{name: "env assigns not transparent", cmd: "env LD_PRELOAD=/tmp/x.so ls", want: Ask, rule: RuleUnknown},
	{name: "env -i transparent", cmd: "env -i make", rules: []string{"global-grants allow make *"}, want: Allow, rule: "make *"},
	{name: "rg --pre", cmd: "rg --pre cat foo", rules: []string{"global-grants allow rg *"}, want: Ask, rule: RuleExecCapable},
	{name: "rg --pre= attached", cmd: "rg --pre=./x foo", rules: []string{"global-grants allow rg *"}, want: Ask, rule: RuleExecCapable},
	{name: "rg -z bundled", cmd: "rg -iz foo", rules: []string{"global-grants allow rg *"}, want: Ask, rule: RuleExecCapable},
	{name: "rg plain", cmd: "rg -i foo src", rules: []string{"global-grants allow rg *"}, want: Allow},
	{name: "ssh remote command", cmd: "ssh host rm -rf x", rules: []string{"global-grants allow ssh *"}, want: Ask, rule: RuleExecCapable},
	{name: "ssh ProxyCommand attached", cmd: "ssh -oProxyCommand=sh host", rules: []string{"global-grants allow ssh *"}, want: Ask, rule: RuleExecCapable},
	{name: "ssh -o LocalCommand", cmd: "ssh -o 'LocalCommand id' host", rules: []string{"global-grants allow ssh *"}, want: Ask, rule: RuleExecCapable},
	{name: "ssh -F", cmd: "ssh -F ./cfg host", rules: []string{"global-grants allow ssh *"}, want: Ask, rule: RuleExecCapable},
	{name: "ssh plain", cmd: "ssh -p 22 -o ConnectTimeout=5 host", rules: []string{"global-grants allow ssh *", "project-grants allow [http] host"}, want: Allow},
	{name: "ssh plain, host not granted", cmd: "ssh -p 22 -o ConnectTimeout=5 host", rules: []string{"global-grants allow ssh *"}, want: Ask, rule: RuleNetwork},
	{name: "scp -S", cmd: "scp -S ./x a b:", rules: []string{"global-grants allow scp *"}, want: Ask, rule: RuleExecCapable},
	{name: "sed -i", cmd: "sed -i s/a/b/ f", rules: []string{"global-grants allow sed *"}, want: Ask, rule: RuleExecCapable},
	{name: "sed -ni bundle", cmd: "sed -ni p f", rules: []string{"global-grants allow sed *"}, want: Ask, rule: RuleExecCapable},
	{name: "sed w command", cmd: "sed 's/a/b/w /tmp/out' f", rules: []string{"global-grants allow sed *"}, want: Ask, rule: RuleExecCapable},
	{name: "sed e command", cmd: "sed '1e id' f", rules: []string{"global-grants allow sed *"}, want: Ask, rule: RuleExecCapable},
	{name: "sed r command via -e", cmd: "sed -e 'r /etc/hosts' f", rules: []string{"global-grants allow sed *"}, want: Ask, rule: RuleExecCapable},
	{name: "sed s///e flag", cmd: "sed s/x/id/e f", rules: []string{"global-grants allow sed *"}, want: Ask, rule: RuleExecCapable},
	{name: "sed plain substitute", cmd: "sed s/a/b/g f", rules: []string{"global-grants allow sed *"}, want: Allow},
	{name: "awk system", cmd: "awk '{system($0)}' f", rules: []string{"global-grants allow awk *"}, want: Ask, rule: RuleExecCapable},
	{name: "awk pipe", cmd: "awk '{print | \"sh\"}' f", rules: []string{"global-grants allow awk *"}, want: Ask, rule: RuleExecCapable},
	{name: "awk -f", cmd: "awk -f prog.awk f", rules: []string{"global-grants allow awk *"}, want: Ask, rule: RuleExecCapable},
	{name: "awk print", cmd: "awk -F: '{print $1}' f", rules: []string{"global-grants allow awk *"}, want: Allow},
	{name: "sort -o into the project", cmd: "sort -o out in", rules: []string{"global-grants allow sort *"}, want: Allow},
	{name: "sort -o outside the project", cmd: "sort -o /etc/out in", rules: []string{"global-grants allow sort *"}, want: Ask, rule: RuleExecCapable},
	{name: "curl -o into the project", cmd: "curl -o page.html https://example.com", rules: []string{"global-grants allow curl *"}, want: Ask, rule: RuleNetwork}, // the host, not -o
	{name: "curl -o outside the project", cmd: "curl -o ~/.bashrc https://example.com", rules: []string{"global-grants allow curl *"}, want: Ask, rule: RuleExecCapable},
	{name: "sort --compress-program", cmd: "sort --compress-program=sh in", rules: []string{"global-grants allow sort *"}, want: Ask, rule: RuleExecCapable},
	{name: "rsync -e bundled", cmd: "rsync -avze sh a b", rules: []string{"global-grants allow rsync *"}, want: Ask, rule: RuleExecCapable},
	{name: "rsync plain", cmd: "rsync -avz a b", rules: []string{"global-grants allow rsync *"}, want: Allow},
	{name: "zip -TT", cmd: "zip -T -TT ./x a.zip f", rules: []string{"global-grants allow zip *"}, want: Ask, rule: RuleExecCapable},
	{name: "vim -c", cmd: "vim -c '!id' f", rules: []string{"global-grants allow vim *"}, want: Ask, rule: RuleExecCapable},
	{name: "vim +cmd", cmd: "vim +!id f", rules: []string{"global-grants allow vim *"}, want: Ask, rule: RuleExecCapable},
	{name: "make -f", cmd: "make -f /tmp/evil.mk", rules: []string{"global-grants allow make *"}, want: Ask, rule: RuleExecCapable},
	{name: "make SHELL=", cmd: "make SHELL=/tmp/x all", rules: []string{"global-grants allow make *"}, want: Ask, rule: RuleExecCapable},
	{name: "docker run -v", cmd: "docker run -v /:/host alpine", rules: []string{"global-grants allow docker *"}, want: Ask, rule: RuleExecCapable},
	{name: "docker run --privileged", cmd: "docker run --privileged alpine", rules: []string{"global-grants allow docker *"}, want: Ask, rule: RuleExecCapable},
	{name: "docker container run --mount", cmd: "docker container run --mount type=bind,src=/,dst=/h alpine", rules: []string{"global-grants allow docker *"}, want: Ask, rule: RuleExecCapable},
	{name: "docker ps fine", cmd: "docker ps -a", rules: []string{"global-grants allow docker *"}, want: Allow},
	{name: "gdb -ex", cmd: "gdb -ex run ./a", rules: []string{"global-grants allow gdb *"}, want: Ask, rule: RuleExecCapable},
	{name: "strace runs program", cmd: "strace -f ./a", rules: []string{"global-grants allow strace *"}, want: Ask, rule: RuleExecCapable},
	{name: "npm exec", cmd: "npm exec cowsay", rules: []string{"global-grants allow npm *"}, want: Ask, rule: RuleExecCapable},
	{name: "npm install fine", cmd: "npm install", rules: []string{"global-grants allow npm *"}, want: Allow},
	{name: "npm install a package", cmd: "npm install left-pad", rules: []string{"global-grants allow npm *"}, want: Ask, rule: RulePackagePin},
	{name: "base64 -o", cmd: "base64 -o /tmp/x f", rules: []string{"global-grants allow base64 *"}, want: Ask, rule: RuleExecCapable},
	{name: "dynamic arg under git *", cmd: "git $ARGS", rules: []string{"global-grants allow git *"}, want: Ask, rule: RuleExecCapable},
	// npm takes --script-shell anywhere, so a dynamic argument could be it
	{name: "dynamic arg under npm test * asks", cmd: "npm test $X", rules: []string{"global-grants allow npm test *"}, want: Ask, rule: RuleExecCapable},
	{name: "dynamic arg under gofmt * fine", cmd: "gofmt -l $X", rules: []string{"global-grants allow gofmt *"}, want: Allow},

	// opaque interpreter one-liners
	{name: "opaque needs exact text", cmd: "python3 -c 'print(1)'", rules: []string{"global-grants allow python3 -c print*"}, want: Ask, rule: RuleExecCapable},
	{name: "opaque exact grant", cmd: "python3 -c 'print(1)'", rules: []string{"global-grants allow python3 -c print(1)"}, want: Allow},

	// dynamic command word
	{name: "dynamic command word", cmd: "$CMD -rf x", rules: []string{"global-grants allow *rf x"}, want: Ask, rule: RuleDynamicCommand},

	// transparent wrappers
	{name: "timeout transparent", cmd: "timeout 60 go test ./...", rules: []string{"project-grants allow go test *"}, want: Allow, rule: "go test *", risk: RiskLow},
	{name: "timeout inner unknown", cmd: "timeout 60 go build", rules: []string{"project-grants allow go test *"}, want: Ask, rule: RuleUnknown},
	{name: "nice -n transparent", cmd: "nice -n 5 make", rules: []string{"project-grants allow make"}, want: Allow},
	{name: "bash -c transparent", cmd: "bash -c ls", want: Allow, rule: RuleBuiltinReadonly, risk: RiskNone},
	{name: "bash -c inner granted", cmd: "bash -c 'go test ./x'", rules: []string{"project-grants allow go test *"}, want: Allow, risk: RiskLow},
	{name: "bash -c composite asks", cmd: "bash -c 'ls | head'", want: Ask, rule: RuleComposite},
	{name: "bash -c composite each", cmd: "bash -c 'ls | head'", mod: each, want: Allow},
	{name: "bash -c composite each part not allowed", cmd: "bash -c 'ls | curl x'", mod: each, want: Ask, rule: RuleUnknown},
	{name: "eval transparent", cmd: "eval 'git status'", want: Allow, rule: RuleBuiltinReadonly},
	{name: "nested shell", cmd: "bash -c 'timeout 5 ls'", want: Allow},
	{name: "bash * never covers -c", cmd: "bash -c 'curl x'", rules: []string{"global-grants allow bash -c curl*"}, want: Ask, rule: RuleExecCapable},

	// composite
	{name: "composite asks once", cmd: "ls | head", want: Ask, rule: RuleComposite},
	{name: "composite each allowed", cmd: "ls | head -5", mod: each, want: Allow, rule: RuleCompositeEach, risk: RiskNone},
	{name: "composite each with grant", cmd: "cd sub && make", rules: []string{"project-grants allow make *"}, mod: each, want: Allow, risk: RiskLow},
	{name: "composite each null redirect", cmd: "make 2>&1 | tail", rules: []string{"project-grants allow make *"}, mod: each, want: Allow},
	{name: "composite each part unknown", cmd: "ls ; curl x", mod: each, want: Ask, rule: RuleComposite},
	{name: "composite each redirect asks", cmd: "ls > out", mod: each, want: Ask, rule: RuleComposite},
	{name: "composite each dynamic part", cmd: "ls && $X", mod: each, want: Ask, rule: RuleComposite},

	// built-in read-only set
	{name: "ls read-only", cmd: "ls -la", want: Allow, rule: RuleBuiltinReadonly, risk: RiskNone},
	{name: "cat dynamic arg read-only", cmd: "cat $F", want: Allow, rule: RuleBuiltinReadonly},
	{name: "path-qualified ls not read-only", cmd: "/tmp/x/ls", want: Ask, rule: RuleUnknown},
	{name: "git status read-only", cmd: "git status", want: Allow, rule: RuleBuiltinReadonly, risk: RiskNone},
	{name: "git --no-pager log read-only", cmd: "git --no-pager log -p", want: Allow, rule: RuleBuiltinReadonly},
	{name: "git log --output not read-only", cmd: "git log --output=x", want: Ask, rule: RuleUnknown},
	{name: "git -c not read-only", cmd: "git -c core.pager=sh log", want: Ask, rule: RuleUnknown},
	{name: "git commit not read-only", cmd: "git commit -m x", want: Ask, rule: RuleUnknown},
	{name: "git branch lists", cmd: "git branch -a", want: Allow, rule: RuleBuiltinReadonly},
	{name: "git branch list pattern", cmd: "git branch --list 'feat*'", want: Allow},
	{name: "git branch -D", cmd: "git branch -D x", want: Ask, rule: RuleUnknown},
	{name: "git branch create", cmd: "git branch newbranch", want: Ask, rule: RuleUnknown},
	{name: "git branch -m", cmd: "git branch -m a b", want: Ask, rule: RuleUnknown},
	{name: "find read-only", cmd: "find . -name '*.go' -type f", want: Allow, rule: RuleBuiltinReadonly},
	{name: "find -exec not read-only", cmd: "find . -exec cat {} +", want: Ask, rule: RuleUnknown},
	{name: "find -delete not read-only", cmd: "find . -delete", want: Ask, rule: RuleUnknown},
	{name: "sed -n 5p read-only", cmd: "sed -n 5p f", want: Allow, rule: RuleBuiltinReadonly},
	{name: "sed -n range read-only", cmd: "sed -n '1,10p' f", want: Allow, rule: RuleBuiltinReadonly},
	{name: "sed -n regex read-only", cmd: "sed -n '/^func /p' f.go", want: Allow, rule: RuleBuiltinReadonly},
	{name: "sed -n -e read-only", cmd: "sed -n -e 3p -e '/x/p' f", want: Allow},
	{name: "sed without -n", cmd: "sed 5p f", want: Ask, rule: RuleUnknown},
	{name: "sed -n d", cmd: "sed -n 5d f", want: Ask, rule: RuleUnknown},
	{name: "sed -n w", cmd: "sed -n 'w /tmp/x' f", want: Ask, rule: RuleUnknown},
	{name: "sed -n -i", cmd: "sed -n -i 5p f", want: Ask, rule: RuleUnknown},
	{name: "rg read-only", cmd: "rg -n TODO", want: Allow},
	{name: "rg --pre not read-only", cmd: "rg --pre sh x", want: Ask, rule: RuleUnknown},
	{name: "sort read-only", cmd: "sort -u f", want: Allow},
	{name: "sort -o not read-only", cmd: "sort -o f f", want: Ask, rule: RuleUnknown},
	{name: "date read-only", cmd: "date -u +%s", want: Allow},
	{name: "date -s not read-only", cmd: "date -s 2020-01-01", want: Ask, rule: RuleUnknown},
	{name: "cd read-only", cmd: "cd /tmp", want: Allow},
	{name: "test bracket", cmd: "[ -f x ]", want: Allow},
	{name: "env dump asks", cmd: "env", want: Ask, rule: RuleEnvDump},
	{name: "printenv dump asks", cmd: "printenv", want: Ask, rule: RuleEnvDump},
	{name: "env dump asks under unknown deny", cmd: "env", mod: unknownDeny, want: Ask, rule: RuleEnvDump},
	{name: "read-only off", cmd: "ls", mod: noReadonly, want: Ask, rule: RuleUnknown},
	{name: "unknown deny", cmd: "curl x", mod: unknownDeny, want: Deny, rule: RuleUnknown},
	{name: "unknown ask", cmd: "curl x", want: Ask, rule: RuleUnknown, risk: RiskHigh},
}

func runCase(t *testing.T, tc decideCase, a *classify.Analysis) {
	t.Helper()
	s := settings(tc.rules...)
	if tc.mod != nil {
		tc.mod(s)
	}
	v := Decide(a, s)
	if v.Decision != tc.want || (tc.rule != "" && v.Rule != tc.rule) || (tc.risk != "" && v.Risk != tc.risk) {
		_, trace := Explain(a, s)
		t.Errorf("%q: got %s rule=%q risk=%s reason=%q; want %s rule=%q risk=%q\n  %s",
			tc.cmd, v.Decision, v.Rule, v.Risk, v.Reason, tc.want, tc.rule, tc.risk, strings.Join(trace, "\n  "))
	}
	v2, _ := Explain(a, s)
	if v2 != v {
		t.Errorf("%q: Explain verdict %+v differs from Decide %+v", tc.cmd, v2, v)
	}
	// risk grades what the command does (risk.go), not the decision:
	// only a built-in deny is always high
	if v.Risk == "" || blocksInEveryMode(v) && v.Risk != RiskHigh {
		t.Errorf("%q: %s with risk %q", tc.cmd, v.Decision, v.Risk)
	}
}

func TestDecideTable(t *testing.T) {
	for _, tc := range decideTable {
		t.Run(tc.name, func(t *testing.T) { runCase(t, tc, an(tc.cmd)) })
	}
}

func TestDecideFailClosed(t *testing.T) {
	s := settings("global-grants allow ls *")
	cases := []struct {
		name string
		a    *classify.Analysis
		s    *Settings
		rule string
	}{
		{"nil analysis", nil, s, classify.FailParse},
		{"nil settings", an("ls"), nil, RuleConfigError},
		{"parse error", &classify.Analysis{Text: "ls (", Fail: classify.FailParse, FailReason: "1:4: reached EOF"}, s, classify.FailParse},
		{"too long", &classify.Analysis{Fail: classify.FailTooLong}, s, classify.FailTooLong},
		{"config error", an("ls"), &Settings{Err: errors.New("/x/config.toml:3:1: unknown key \"foo\"")}, RuleConfigError},
		{"deny hit beats allow", func() *classify.Analysis {
			a := an("ls /")
			a.Deny = []classify.Hit{{ID: "rm-root", Reason: "deletes the root", Cmd: 0}}
			return a
		}(), s, "rm-root"},
		{"bad parent", func() *classify.Analysis { a := an("ls"); a.Commands[0].Parent = 7; return a }(), s, RuleInvalid},
		{"bad inner", func() *classify.Analysis { a := an("ls"); a.Commands[0].Inner = []int{0}; return a }(), s, RuleInvalid},
		{"bad dynamic", func() *classify.Analysis { a := an("ls"); a.Commands[0].Dynamic = []bool{}; return a }(), s, RuleInvalid},
		{"bad inner start", func() *classify.Analysis { a := an("ls"); a.Commands[0].InnerStart = 9; return a }(), s, RuleInvalid},
	}
	for _, tc := range cases {
		v := Decide(tc.a, tc.s)
		if v.Decision != Deny || v.Rule != tc.rule || v.Risk != RiskHigh {
			t.Errorf("%s: got %+v, want deny %s", tc.name, v, tc.rule)
		}
	}
	// a built-in ask hit asks even when granted, and only once
	a := an("git push --force")
	a.Ask = []classify.Hit{{ID: "git-force-push", Reason: "rewrites remote history", Cmd: 0}}
	v := Decide(a, settings("global-grants allow git *"))
	if v.Decision != Ask || v.Rule != "git-force-push" || !v.OnceOnly {
		t.Errorf("ask hit: %+v", v)
	}
	// an inner cycle cannot hang
	a = an("timeout 5 ls")
	a.Commands[1].Wrap = classify.WrapTransparent
	a.Commands[1].Inner = []int{0}
	if v := Decide(a, Defaults()); v.Decision == Allow {
		t.Errorf("cycle: %+v", v)
	}
	// empty text
	if v := Decide(&classify.Analysis{}, Defaults()); v.Decision != Allow || v.Rule != RuleEmpty {
		t.Errorf("empty: %+v", v)
	}
}

func TestDecideVerdictDetails(t *testing.T) {
	s := settings("global deny rm *", "project-grants allow npm test *")
	v := Decide(an("rm x"), s)
	if v.Layer != "global" || v.File != "/cfg/global.toml" || v.Line != 1 {
		t.Errorf("deny verdict origin: %+v", v)
	}
	v = Decide(an("npm run lint"), s)
	if v.Decision != Ask || v.Suggest != "npm run *" || v.OnceOnly {
		t.Errorf("unknown verdict: %+v", v)
	}
	v = Decide(an("ls | head"), s)
	if !v.OnceOnly || v.Suggest != "" {
		t.Errorf("composite verdict: %+v", v)
	}
	v = Decide(an("git -c core.pager=sh log"), settings("global-grants allow git *"))
	if !strings.Contains(v.Reason, "git -c") || v.Suggest != "git -c core.pager=sh log" {
		t.Errorf("exec-capable verdict: %+v", v)
	}
	v = Decide(an("timeout 5 npm run x"), s)
	if v.Suggest != "npm run *" {
		t.Errorf("wrapped suggestion: %+v", v)
	}
	_, trace := Explain(an("npm test"), s)
	joined := strings.Join(trace, "\n")
	for _, want := range []string{"command 1", `deny "rm *" [global /cfg/global.toml:1]: no command matches`, `allow "npm test *" [project-grants /cfg/project-grants.toml:2] matches`, "decision: allow"} {
		if !strings.Contains(joined, want) {
			t.Errorf("trace lacks %q:\n%s", want, joined)
		}
	}
}

func TestSuggest(t *testing.T) {
	cases := []struct{ cmd, want string }{
		{"npm install left-pad", "npm install *"},
		{"go test ./...", "go test *"},
		{"ls /tmp", "ls *"},
		{"make", "make"},
		{"bash ./x.sh --fast", "bash ./x.sh *"},
		{"python3 manage.py migrate", "python3 manage.py *"},
		{"python3 -m pytest", "python3 -m pytest *"},
		{"python3 -m pytest tests/ -x", "python3 -m pytest *"},
		{"python -m pip install requests", "python -m pip *"},
		{"python3 -c 'print(1)'", ""}, // a one-liner: allow once
		{"bash -c ls", "bash -c ls"},
		{"npx cowsay hi", "npx cowsay hi"},
		{"git -c a.b=c log", "git -c a.b=c log"},
		{"timeout 5 cargo build --release", "cargo build *"},
		{"env FOO=1 make", "env FOO=1 make"},
		{"xargs rm", "xargs rm"},
		{"$X y", ""},
		{"/usr/bin/git commit -m x", "/usr/bin/git commit *"},
	}
	for _, tc := range cases {
		a := an(tc.cmd)
		got := Suggest(a.Commands[0])
		if got != tc.want {
			t.Errorf("Suggest(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
		if got != "" && ValidatePattern(Allow, got) != nil && got != strings.Join(a.Commands[0].Args, " ") {
			t.Errorf("Suggest(%q) = %q is not a valid allow", tc.cmd, got)
		}
	}
}

func TestValidatePattern(t *testing.T) {
	bad := []struct {
		kind Decision
		p    string
	}{
		{Allow, ""}, {Deny, "  "}, {Allow, "*"}, {Deny, "*"}, {Ask, "* *"}, {Allow, "bash *"}, {Allow, "sh *"}, {Allow, "zsh *"},
		{Allow, "python *"}, {Allow, "python3 *"}, {Allow, "node *"}, {Allow, "perl *"}, {Allow, "ruby *"}, {Allow, "php *"},
		{Allow, "deno *"}, {Allow, "bun *"}, {Allow, "npx *"}, {Allow, "env *"}, {Allow, "xargs *"}, {Allow, "eval *"},
		{Allow, "exec *"}, {Allow, "bash*"}, {Allow, "b*sh *"}, {Allow, "/bin/bash *"}, {Allow, "*/python3 *"},
		{Allow, "bash -c *"}, {Allow, "node -e *"}, {Allow, "timeout *"}, {Allow, "git  status"}, {Allow, " git"},
		{Allow, "git\tstatus"}, {"maybe", "git"},
		{Allow, "guard *"}, {Allow, "guard -c *"}, // guard is a shell too (issue 18)
		{Allow, "guard-cli *"}, {Allow, "guard-cli -c *"}, {Allow, "/usr/local/bin/guard-cli *"}, // and guard-cli runs -c and exec as guard does
		// a bare shell or interpreter runs whatever is piped into it (ls | sh)
		{Allow, "bash"}, {Allow, "sh"}, {Allow, "/bin/sh"}, {Allow, "bash -s"}, {Allow, "python3 -"}, {Allow, "sh /dev/stdin"},
		// go run MODULE@VERSION runs any code, like node * (issue 8)
		{Allow, "go *"}, {Allow, "/usr/local/go/bin/go *"},
		// interpreters under other spellings (issue 18)
		{Allow, "python3.11 *"}, {Allow, "perl5.36.0 *"}, {Allow, "node18 *"}, {Allow, "ruby3.1 *"}, {Allow, "php8.2 *"}, {Allow, "lua5.4 *"},
		{Allow, "python3.* *"}, {Allow, "node1* *"}, {Allow, "/usr/bin/python3.12 *"}, {Allow, "bash5.2 *"},
		{Allow, "R *"}, {Allow, "ts-node *"}, {Allow, "tsx *"}, {Allow, "ipython *"}, {Allow, "guile *"}, {Allow, "sbcl *"}, {Allow, "groovy *"},
		{Allow, "elixir *"}, {Allow, "erl *"}, {Allow, "octave *"}, {Allow, "gnuplot *"}, {Allow, "dc *"}, {Allow, "bb *"},
		// download-and-run
		{Allow, "uvx *"},
	}
	for _, tc := range bad {
		if err := ValidatePattern(tc.kind, tc.p); err == nil {
			t.Errorf("ValidatePattern(%s, %q) = nil, want error", tc.kind, tc.p)
		}
	}
	good := []struct {
		kind Decision
		p    string
	}{
		{Allow, "git *"}, {Allow, "go test *"}, {Allow, "go build *"}, {Allow, "bash ./scripts/ci.sh *"}, {Allow, "python3 manage.py *"},
		{Deny, "bash *"}, {Ask, "python *"}, {Deny, "bash"}, {Allow, "npm install *"}, {Allow, "python3 -m pytest *"},
		{Allow, "python3.11 -m pytest *"}, {Allow, "sha256sum *"}, {Allow, "mytool *"}, {Allow, "node18 server.js *"},
	}
	for _, tc := range good {
		if err := ValidatePattern(tc.kind, tc.p); err != nil {
			t.Errorf("ValidatePattern(%s, %q) = %v", tc.kind, tc.p, err)
		}
	}
}
