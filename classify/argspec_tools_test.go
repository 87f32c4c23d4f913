package classify

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// recMarker records the words an exec rule marks (what grants keeps
// sensitive); a path is outside the project when it is absolute or
// starts with ~ or ..
type recMarker struct{ marked []int }

func (r *recMarker) Mark(i int, _ string)                    { r.marked = append(r.marked, i) }
func (r *recMarker) MarkWord(_ *Command, w Word, _ string)   { r.marked = append(r.marked, w.Arg) }
func (r *recMarker) MarkAll(string)                          { r.marked = append(r.marked, 0) }
func (r *recMarker) Parse(name string, args []string) Parsed { return ParseCommand(name, args) }
func (r *recMarker) OutsideProject(_ *Command, p string) bool {
	return filepath.IsAbs(p) || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "..")
}

// execMarked applies the program's exec rules to the first command of
// text, as grants does, and returns the words they mark.
func execMarked(t *testing.T, text string) []string {
	t.Helper()
	a := Analyze(text, Options{})
	if len(a.Commands) == 0 {
		t.Fatalf("%q: no command", text)
	}
	c := &a.Commands[0]
	s := SpecFor(c.Name)
	if s == nil {
		t.Fatalf("%q: no spec", text)
	}
	p := ParseCommand(c.Name, c.Args)
	m := &recMarker{}
	for _, r := range s.Exec {
		if r.Only != nil && !slices.Contains(r.Only, c.Name) || r.Sub != nil && !slices.Contains(r.Sub, p.SubName(c.Args)) {
			continue
		}
		if r.Rest {
			m.Mark(1, r.Reason)
			continue
		}
		if r.Check != nil {
			r.Check(c, p, m)
		}
		for _, wd := range p.Words {
			if r.Hit(wd) {
				m.MarkWord(c, wd, r.Reason)
			}
		}
	}
	var out []string
	for _, i := range m.marked {
		if i < len(c.Args) {
			out = append(out, c.Args[i])
		}
	}
	return out
}

// TestToolEntriesMark (issue 18 §1/§2): the entries of the tools people
// grant wholesale mark the word that runs a program, prints a secret,
// reaches elsewhere or destroys, in its spellings; a look-alike gets no
// mark (want "").
func TestToolEntriesMark(t *testing.T) {
	cases := []struct{ in, want string }{
		{"kubectl exec pod -- id", "exec"},
		{"kubectl -n prod exec -it pod -- sh", "exec"},
		{"kubectl --context=x port-forward p 80", "port-forward"},
		{"kubectl frob", "frob"},
		{"oc rsh pod", "rsh"},
		{"k3s kubectl cp p:/x x", "cp"},
		{"k3s server", "server"},
		{"microk8s.kubectl debug node/x", "debug"},
		{"kubectl config set-credentials u --exec-command=x", "set-credentials"},
		{"kubectl get --raw /api/v1/secrets", "/api/v1/secrets"},
		{"kubectl get pods -o go-template-file=/tmp/x", "go-template-file=/tmp/x"},
		{"oc whoami -t", "-t"},
		{"helm plugin install x", "plugin"},
		{"helm repo add e https://e", "repo"},
		{"helm get values r", "get"},
		{"helm uninstall r", "uninstall"},
		{"kubectl get pods", ""},
		{"kubectl logs -f p", ""},
		{"kubectl config use-context prod", ""},
		{"k3s kubectl get pods", ""},
		{"helm upgrade --install r ./c", ""},
		{"helm repo update", ""},
		{`psql -c '\! id'`, `\! id`},
		{`psql --comm='\o |id'`, `--comm=\o |id`},
		{`psql -c 'select 1 \g |id'`, `select 1 \g |id`},
		{"psql -c \"copy t to  PROGRAM 'id'\"", "copy t to  PROGRAM 'id'"},
		{"psql -v 'PROMPT1=%`id`'", "PROMPT1=%`id`"},
		{"psql -o '|id'", "|id"},
		{"psql -f x.sql", "x.sql"},
		{`psql -c '\dt+' -c 'select 1'`, ""},
		{`psql -c 'select $$a\b$$'`, `select $$a\b$$`}, // a backslash psql reads as \b: asks, fail closed
		{"psql -o out.txt", ""},
		{"mysql -e 'system id'", "system id"},
		{`mysql -e 'select 1\G system id'`, `select 1\G system id`},
		{`mysql --exec='\! id'`, `--exec=\! id`},
		{"mysql -e 'select load_file(0x2f)'", "select load_file(0x2f)"},
		{"mysql --defaults-file=x.cnf", "--defaults-file=x.cnf"},
		{"mysql -e 'select 1'", ""},
		{`mysql -e 'select 1\G'`, ""},
		{"terraform apply -auto-approve", "-auto-approve"},
		{"terraform apply -destroy", "-destroy"},
		{"terraform state rm x", "rm"},
		{"terraform force-unlock 1", "1"},
		{"terraform apply", ""},
		{"terraform state list", ""},
		{"gh api -XPATCH repos/a/b", "-XPATCH"},
		{"gh gist create ~/.ssh/id_rsa", "~/.ssh/id_rsa"},
		{"gh release upload v1 ../x.tgz#asset", "../x.tgz#asset"},
		{"gh release upload v1 dist/x.tgz", ""},
		{"gh api -X GET repos/a/b", ""},
		{"docker plugin install x", "install"},
		{"docker plugin ls", ""},
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
