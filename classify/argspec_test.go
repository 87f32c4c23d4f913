package classify

import (
	"fmt"
	"strings"
	"testing"
)

// render shows a parse as "word:role" pairs, options as "--name=role:value".
func render(args []string) string {
	p := ParseCommand(args[0], args)
	var out []string
	for _, w := range p.Words {
		switch {
		case w.Name == "":
			out = append(out, fmt.Sprintf("%s:%s", w.Val, w.Role))
		case w.Role == RoleFlag:
			out = append(out, "--"+w.Name)
		default:
			out = append(out, fmt.Sprintf("--%s=%s:%s", w.Name, w.Role, w.Val))
		}
	}
	if p.Sub >= 0 {
		out = append([]string{"[" + args[p.Sub] + "]"}, out...)
	}
	return strings.Join(out, " ")
}

func TestParseArgs(t *testing.T) {
	cases := []struct{ in, want string }{
		{"cat -v KEY", "--v KEY:read"},
		{"head -v KEY", "--v KEY:read"},
		{"head -n5 f", "--lines=text:5 f:read"},
		{"head -n 5 f", "--lines=text:5 f:read"},
		{"grep -e. FILE", "--regexp=pattern:. FILE:read"},
		{"grep -fFILE x", "--file=read:FILE x:read"},
		{"grep --file=FILE x", "--file=read:FILE x:read"},
		{"grep --fil FILE x", "--fil=unknown: FILE:pattern x:read"}, // ambiguous in GNU grep too
		{"grep --rege=x FILE", "--regexp=pattern:x FILE:read"},
		{"grep -r -v x /home/u", "--recursive --invert-match x:pattern /home/u:read"},
		{"grep -c x KEY", "--count x:pattern KEY:meta"},
		{"grep -l x KEY", "--files-with-matches x:pattern KEY:meta"},
		{"wc -c KEY", "--c KEY:meta"},
		{"cmp -l a b", "--verbose a:read b:read"},
		{"cp a b c", "a:read b:read c:write"},
		{"cp -t d a", "--target-directory=write:d a:read"},
		{"git reset --har", "[reset] --hard"},
		{"git push --delet origin x", "[push] --delete origin:text x:text"},
		{"git push --f origin", "[push] --f=unknown: origin:text"},
		{"git -C /x commit -F KEY", "[commit] --C=dir:/x --file=read:KEY"},
		{"git blame --contents=KEY f", "[blame] --contents=read:KEY f:text"},
		{"git branch -vD x", "[branch] --v --D x:text"},
		{"tar -xPft.tar", "--extract --P --file=read:t.tar"},
		{"mysql -uroot -pSECRET db", "--u=text:root --password=secret:SECRET db:text"},
		{"mysql -p db", "--password db:text"},
		{"sshpass -p SECRET ssh h", "--p=secret:SECRET ssh:program h:program"},
		{"htpasswd -b f u SECRET", "--b f:text u:text SECRET:secret"},
		{"htpasswd f u", "f:text u:text"},
		{"openssl enc -k SECRET -in a", "[enc] --k=secret:SECRET --in=read:a"},
		{"go test -exec X ./...", "[test] --exec=program:X ./...:text"},
		{"go test -exec=X ./...", "[test] --exec=program:X ./...:text"},
		{"ssh -i K host ls -l", "--i=use:K host:text ls:program -l:program"},
		{"nm --plug x a.out", "--plugin=program:x a.out:read"},
		{"sed -n 1,20p f", "--n 1,20p:script f:read"},
		{"sed -e p -f s f", "--expression=script:p --file=read:s f:read"},
		{"unknowncmd -x y", "-x:unknown y:unknown"},
		{"docker login -u bob -p SECRET", "[login] --username=text:bob --password=secret:SECRET"},
		{"redis-cli -a SECRET get k", "--pass=secret:SECRET get:text k:text"},
		// an action operand picks the spec of the rest (Spec.Action)
		{"git submodule add https://h/r ~/x", "[submodule] add:text https://h/r:url ~/x:write"},
		{"git submodule --quiet add -b main https://h/r p", "[submodule] --quiet add:text --branch=text:main https://h/r:url p:write"},
		{"git submodule add https://h/r", "[submodule] add:text https://h/r:url"},
		{"git submodule update --init", "[submodule] update:text --init"},
		{"git submodule update --frob", "[submodule] update:text --frob=unknown:"},
		{"git submodule foreach make x", "[submodule] foreach:text make:program x:program"},
		{"git remote add x /tmp/e", "[remote] add:text x:text /tmp/e:url"},
		{"git remote set-url --push o u", "[remote] set-url:text --push o:text u:url"},
		{"git remote -v", "[remote] --verbose"},
		{"git fetch /tmp/e main", "[fetch] /tmp/e:url main:text"},
		{"docker buildx build -o type=local,dest=x .", "[buildx] build:text --output=write:type=local,dest=x .:read"},
		{"docker buildx ls", "[buildx] ls:unknown"},
		{"curl --create-dirs -o f u", "--create-dirs --output=write:f u:url"},
		{"git am --dir=/x m", "[am] --directory=dir:/x m:read"},
		{"git merge -sx main", "[merge] --strategy=text:x main:text"},
		{"git gc --prune=now", "[gc] --prune=text:now"},
		{"git gc --prune", "[gc] --prune"},
		{"git update-ref -d refs/heads/x", "[update-ref] --delete refs/heads/x:text"},
		{"go test ./x -args -test.gocoverdir=/d", "[test] ./x:text --args --test.gocoverdir=dir:/d"},
	}
	for _, c := range cases {
		args := strings.Fields(c.in)
		if got := render(args); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// TestSecrets: option values the model types as passwords come back in
// Analysis.Secrets, through wrappers and nested scripts too.
func TestSecrets(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{`mysql -uroot -pSECRET db`, []string{"SECRET"}},
		{`mysql --password=SECRET db`, []string{"SECRET"}},
		{`mysql -p db`, nil},
		{`sshpass -p SECRET ssh host ls`, []string{"SECRET"}},
		{`docker login -u bob -p SECRET`, []string{"SECRET"}},
		{`docker login -u bob --password SECRET registry.io`, []string{"SECRET"}},
		{`htpasswd -b .htpasswd user SECRET`, []string{"SECRET"}},
		{`htpasswd -cb .htpasswd user SECRET`, []string{"SECRET"}},
		{`htpasswd .htpasswd user`, nil},
		{`openssl enc -aes256 -k SECRET -in a -out b`, []string{"SECRET"}},
		{`openssl rsa -passin pass:SECRET -in k`, []string{"pass:SECRET"}},
		{`redis-cli -a SECRET get k`, []string{"SECRET"}},
		{`curl -u bob:SECRET https://e.com`, []string{"bob:SECRET"}},
		{`timeout 5 mysql -pSECRET`, []string{"SECRET"}},
		{`bash -c 'sshpass -p SECRET ssh h'`, []string{"SECRET"}},
		{`PGPASSWORD=SECRET psql -h db`, []string{"SECRET"}},
		{`mysql -p"$PW" db`, nil},
		{`grep -p x f`, nil},
	}
	for _, c := range cases {
		a := Analyze(c.in, tcOpt())
		if fmt.Sprint(a.Secrets) != fmt.Sprint(c.want) {
			t.Errorf("%s: Secrets = %q, want %q", c.in, a.Secrets, c.want)
		}
	}
}

// ruleCommands are the commands the hard denylist and the built-in ask
// rules name (rules.go).
var ruleCommands = []string{
	"rm", "rmdir", "unlink", "find", "mkfs", "mkfs.ext4", "mke2fs", "mkswap", "wipefs", "fdisk", "sfdisk", "gdisk",
	"parted", "blkdiscard", "cryptsetup", "nvme", "hdparm", "badblocks", "mdadm", "zpool", "dd", "tee", "sponge",
	"cp", "mv", "install", "rsync", "pv", "shred", "chmod", "chown", "chgrp", "chattr", "sudo", "su", "doas",
	"pkexec", "run0", "setpriv", "chpst", "machinectl", "systemd-run", "curl", "wget", "sh", "bash", "python3",
	"node", "cat", "grep", "rg", "tar", "zip", "git", "gpg", "setenforce", "ufw", "iptables", "nft", "systemctl",
	"service", "csrutil", "spctl", "auditctl", "apparmor_parser", "pfctl", "sysctl", "firewall-cmd", "kill",
	"pkill", "killall", "killall5", "guard", "guard-cli", "make", "pytest", "truncate", "psql", "mysql", "sqlite3",
	"kubectl", "terraform", "docker", "podman", "declare", "test", "jq", "ps", "env", "sed", "awk", "ssh",
	"newfs", "newfs_apfs", "diskutil", "format", "iptables-restore", "ip6tables-restore", "pgrep", "socat", "less",
	"scp", "rsync", "perl", "python3", "xargs", "parallel", "yes",
}

// TestRuleCommandsHaveSpecs: every command a built-in rule names has a
// spec in the family tables (the grants tests check the read-only set and
// the exec-capable table).
func TestRuleCommandsHaveSpecs(t *testing.T) {
	for _, n := range ruleCommands {
		if n == "declare" {
			continue // a shell declaration, not a command: walked by decl
		}
		if SpecFor(n) == nil {
			t.Errorf("%s: no spec", n)
		}
	}
}

// TestFreshFlags: the words that ask a tool for a fresh run, past its own
// caches, and look-alikes that do not.
func TestFreshFlags(t *testing.T) {
	cases := []struct{ in, want string }{
		{"go test -count=1 ./...", "-count=1"},
		{"go test -count 2 ./...", "-count"},
		{"go test -v -run X -count=1 .", "-count=1"},
		{"go build -a ./...", "-a"},
		{"go test -fuzz=FuzzX .", "-fuzz=FuzzX"},
		{"go test -shuffle=on ./...", "-shuffle=on"},
		{"go test ./...", ""},
		{"go test -run count ./...", ""},
		{"make -B", "-B"},
		{"make -kB all", "-kB"},
		{"make --always-make all", "--always-make"},
		{"make --always all", "--always"},
		{"make -W main.c", "-W"},
		{"make -k all", ""},
		{"pytest --cache-clear", "--cache-clear"},
		{"pytest --cache-c tests", "--cache-c"},
		{"pytest -x tests", ""},
		{"npm test -- --no-cache", "--no-cache"},
		{"pnpm test --no-cache", "--no-cache"},
		{"yarn test --clearCache", "--clearCache"},
		{"npm run build -- --force", "--force"},
		{"npm test", ""},
		{"npm test -- --watch=false", ""},
		{"docker build --no-cache .", "--no-cache"},
		{"docker build --pull -t x .", "--pull"},
		{"docker build -t x .", ""},
		{"cargo test", ""},
	}
	for _, c := range cases {
		a := Analyze(c.in, tcOpt())
		got := ""
		for i := range a.Commands {
			if f := a.Commands[i].Words().Fresh; f != "" {
				got = f
			}
		}
		if got != c.want {
			t.Errorf("%s: Fresh = %q, want %q", c.in, got, c.want)
		}
	}
}
