package classify

import (
	"slices"
	"testing"
)

// TestIssue18LeftExecMarks: the word each new exec rule marks (what the
// reason names), and look-alikes it leaves alone.
func TestIssue18LeftExecMarks(t *testing.T) {
	cases := []struct{ in, want string }{
		{"terraform apply plan.out", "plan.out"},
		{"terraform -chdir=x apply -input=false tfplan", "tfplan"},
		{"terraform taint a.b", "taint"},
		{"terraform refresh", "refresh"},
		{"terraform test", "test"},
		{"terraform apply -var-file=x.tfvars", ""},
		{"terraform untaint a.b", ""},
		{"aws ssm send-command --instance-ids i-1", "send-command"},
		{"aws lambda invoke --function-name f out.json", "invoke"},
		{"aws ec2-instance-connect send-ssh-public-key", "send-ssh-public-key"},
		{"aws secretsmanager get-secret-value", "get-secret-value"},
		{"aws ssm get-parameters-by-path --with-decryption", "get-parameters-by-path"},
		{"aws frob do-thing", "do-thing"},
		{"aws s3 mv s3://b/x .", "mv"},
		{"aws ec2", "ec2"},
		{"aws ec2 describe-instances", ""},
		{"aws s3 ls", ""},
		{"aws s3 sync s3://b/x ./d", ""},
		{"aws s3 cp s3://b/x -", ""},
		{"aws s3 cp - s3://b/x", "cp"},
		{"aws s3 presign s3://b/x", "presign"},
		{"aws ssm get-parameter --name x", ""},
		{"gcloud compute ssh vm", "ssh"},
		{"gcloud alpha functions call f", "call"},
		{"gcloud compute instances create list", "create"},
		{"gcloud frob x", "x"},
		{"gcloud compute instances list", ""},
		{"az vm run-command invoke", "run-command"},
		{"az keyvault secret show -n x", "secret"},
		{"az vm list", ""},
		{"ansible-playbook site.yml", ""}, // opsSpec's other tools keep their own rules
		{"psql -c \"COPY t FROM '/etc/passwd'\"", "COPY t FROM '/etc/passwd'"},
		{"psql -c \"copy t (a, b) from E'/x' with (format csv)\"", "copy t (a, b) from E'/x' with (format csv)"},
		{"psql -c \"COPY (select 1) TO '/tmp/x'\"", "COPY (select 1) TO '/tmp/x'"},
		{"psql -c 'select 1; copy t from $$/etc/passwd$$'", "select 1; copy t from $$/etc/passwd$$"},
		{"psql --command=\"select pg_stat_file('/etc/passwd')\"", "--command=select pg_stat_file('/etc/passwd')"},
		{"psql -c '\\copy t from /etc/passwd'", "\\copy t from /etc/passwd"},
		{"psql -c 'COPY t FROM STDIN'", ""},
		{"psql -c 'COPY t TO STDOUT'", ""},
		{"psql -c 'select * from mycopy'", ""},
	}
	for _, tc := range cases {
		got := execMarked(t, tc.in)
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%q: marked %q, want none", tc.in, got)
		case tc.want != "" && !slices.Contains(got, tc.want):
			t.Errorf("%q: marked %q, want %q among them", tc.in, got, tc.want)
		}
	}
}

// TestIssue18LeftArchiveRoles: the members an extracting tar or unzip
// names are written; listing, printing and creating leave them alone.
func TestIssue18LeftArchiveRoles(t *testing.T) {
	cases := []struct {
		in    string
		write []string
	}{
		{"tar -xf x.tar .claude/settings.json", []string{".claude/settings.json"}},
		{"tar xf x.tar .mcp.json a", []string{".mcp.json", "a"}},
		{"tar --extract --file=x.tar -C d m", []string{"m"}},
		{"tar -xOf x.tar m", nil},
		{"tar -x --to-stdout -f x.tar m", nil},
		{"tar -tf x.tar m", nil},
		{"tar -cf x.tar m", []string{"x.tar"}},
		{"unzip x.zip .mcp.json", []string{".mcp.json"}},
		{"unzip x.zip -d out m", []string{"out", "m"}},
		{"unzip -l x.zip m", nil},
		{"unzip -p x.zip m", nil},
	}
	for _, tc := range cases {
		a := Analyze(tc.in, Options{})
		c := &a.Commands[0]
		p := ParseCommand(c.Name, c.Args)
		var got []string
		for _, wd := range p.Words {
			if wd.Role == RoleWrite {
				got = append(got, wd.Val)
			}
		}
		if !slices.Equal(got, tc.write) {
			t.Errorf("%q: writes %q, want %q", tc.in, got, tc.write)
		}
	}
}

// TestIssue18LeftValues (issue 18 §4): values bash computes for certain
// (cd to a literal directory then pwd, ${x@P} and ${x@E} of plain text,
// printf's directives) are followed, so the deletes behind them are
// denied; look-alikes of other values are not.
func TestIssue18LeftValues(t *testing.T) {
	deny := []string{
		`rm -rf "$(cd / && pwd)"`, `rm -rf "$(cd /; pwd -P)"`, `rm -rf $(cd / && pwd)/`, `rm -rf "$(cd /usr/.. && pwd -L)"`,
		`rm -rf "$(cd -P / && pwd)"`, `x=$(cd / && pwd); rm -rf "$x"`, `bash -c 'rm -rf "$(cd / && pwd)"'`, `rm -rf "$(cd /etc && pwd)"`,
		`x=/; rm -rf "${x@P}"`, `x=/etc; rm -rf ${x@E}`, `printf -v x %c /; rm -rf "$x"`, `printf -v x %c /tmp; rm -rf "$x"`,
		`printf -v x '%.1s' /tmp; rm -rf "$x"`, `printf -v x '%5s' /; rm -rf $x`, `printf -v x '%s%s' / etc; rm -rf "$x"`,
		`rm -rf "$(printf %c /tmp)"`, `rm -rf "$(printf -- %.1s /x)"`, `eval 'printf -v x %c /; rm -rf "$x"'`,
		`declare -A a=([k]=/); rm -rf "${a[k]}"`, `declare -A a; a[k]=/; rm -rf "${a[k]}"`, `typeset -A a=([x]=/usr); rm -rf ${a[x]}`,
		`declare -A a=(['k']=/); rm -rf "${a['k']}"`, `declare -A a=([k]=/e); a[k]+=tc; rm -rf "${a[k]}"`, `declare -A a=([k]=x); rm -rf "${a[j]}"/`,
		`bash -c 'declare -A a=([k]=/); rm -rf "${a[k]}"'`,
	}
	for _, in := range deny {
		if a := Analyze(in, tcOpt()); !tcHasHit(a.Deny, "rm-root") {
			t.Errorf("%q: deny %v, want rm-root", in, tcIDs(a.Deny))
		}
	}
	notDeny := []string{
		`rm -rf "$(cd build && pwd)"`, `x='\w'; rm -rf "${x@P}"`, `printf -v x '\x25s' /; rm -rf "$x"`,
		`declare -A a=([k]=build); rm -rf "${a[k]}"`, `declare -A a=([k]=/ [j]=build); rm -rf "${a[j]}"`, `printf -v x %q /; rm -rf "$x"`, `printf -v x %c build; rm -rf "$x"`, `echo "$(cd / && pwd)"`, `printf -v x '%05d' 1; echo $x`,
	}
	for _, in := range notDeny {
		if a := Analyze(in, tcOpt()); len(a.Deny) > 0 {
			t.Errorf("%q: denied %v", in, tcIDs(a.Deny))
		}
	}
}

// TestIssue18LeftLinks (issue 18 §6): a link made earlier in the same
// text is followed like cd: a write or read through it is judged at its
// target.
func TestIssue18LeftLinks(t *testing.T) {
	cases := []struct{ in, deny, ask string }{
		{"ln -s ~ h; cp x h/.config/guard/config.toml", "guard-self", ""},
		{"ln -s $HOME h && cp x h/.config/guard/config.toml", "guard-self", ""},
		{"ln -s /home/u h; echo x > h/.config/guard/config.toml", "guard-self", ""},
		{"ln -sfn ~ h; ln -s h/.config k; cp x k/guard/config.toml", "guard-self", ""},
		{"ln -s -t lnk ~; cp x lnk/u/.config/guard/config.toml", "guard-self", ""},
		{"ln -s ~ h; cd h/.config/guard && cp /tmp/x config.toml", "guard-self", ""},
		{"ln -s ~ h; cat h/.ssh/id_rsa", "credential-read", ""},
		{"ln -s ~ h; cd h && cat .ssh/id_rsa", "credential-read", ""},
		{"ln -s / r; rm -rf r/", "rm-root", ""},
		{"ln -s ~ h; rm -rf h/", "rm-home-all", ""},
		{"ln -s . h; cp x h/.claude/settings.json", "", "agent-config"},
		{"ln -s .claude c; cp x c/settings.json", "", "agent-config"},
		{"ln -s ~ h; cp x h/.mcp.json", "", ""},
		{"ln -s src s; cp x s/a.go", "", ""},
		{"ln -s src s; cd s && cp x y", "", ""},
		{"cp x h/.config/guard/config.toml", "", ""}, // no link: h is a directory of the project
	}
	for _, tc := range cases {
		a := Analyze(tc.in, tcOpt())
		switch {
		case tc.deny != "" && !tcHasHit(a.Deny, tc.deny):
			t.Errorf("%q: deny %v, want %s", tc.in, tcIDs(a.Deny), tc.deny)
		case tc.deny == "" && len(a.Deny) > 0:
			t.Errorf("%q: denied %v", tc.in, tcIDs(a.Deny))
		case tc.ask != "" && !tcHasHit(a.Ask, tc.ask):
			t.Errorf("%q: ask %v, want %s", tc.in, tcIDs(a.Ask), tc.ask)
		}
	}
}
