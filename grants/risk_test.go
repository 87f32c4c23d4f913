package grants

import (
	"testing"

	"github.com/guard-dev/guard/classify"
)

// riskTable grades commands run in /home/u/proj (the project root).
var riskTable = []struct {
	cmd   string
	rules []string
	want  Risk
}{
	// none: reads inside the project
	{"ls -la", nil, RiskNone},
	{"cat README.md", nil, RiskNone},
	{"git status", nil, RiskNone},
	{"grep -rn TODO src", nil, RiskNone},
	{"ls | head -5", nil, RiskNone},
	{"cd sub && ls", nil, RiskNone},
	{"echo hello", nil, RiskNone},
	// low: writes inside the project, builds and tests
	{"touch x", nil, RiskLow},
	{"mkdir -p build/out", nil, RiskLow},
	{"go test ./...", nil, RiskLow},
	{"make test", nil, RiskLow},
	{"cargo build", nil, RiskLow},
	{"sed -i s/a/b/ f.go", nil, RiskLow},
	{"cp a.go b.go", nil, RiskLow},
	{"mytool x", []string{"project-grants allow mytool *"}, RiskLow},
	{"mytool --flag x", []string{"project-grants allow mytool --flag *"}, RiskLow},
	{"timeout 60 go test ./...", nil, RiskLow},
	// high: outside the project, network, installs, tree deletes, opaque
	{"cat /etc/passwd", nil, RiskHigh},
	{"cat ../other/secret", nil, RiskHigh},
	{"ls ~/.ssh", nil, RiskHigh},
	{"cd / && ls", nil, RiskHigh},
	{"touch /tmp/x", nil, RiskHigh},
	{"curl https://example.com", nil, RiskHigh},
	{"git push origin main", nil, RiskHigh},
	{"git clone https://x/y.git", nil, RiskHigh},
	{"npm install left-pad", nil, RiskHigh},
	{"pip install requests", nil, RiskHigh},
	{"rm -rf build", nil, RiskHigh},
	{"rm -r build", nil, RiskHigh},
	{"find . -delete", nil, RiskHigh},
	{"python3 x.py", nil, RiskHigh},
	{"bash ./script.sh", nil, RiskHigh},
	{"python3 -c 'print(1)'", nil, RiskHigh},
	{"mytool --flag x", nil, RiskHigh},
	{"$CMD x", nil, RiskHigh},
	{"echo x > out.txt", nil, RiskHigh},
	{"ls | sh", nil, RiskHigh},
	{"xargs rm < list", nil, RiskHigh},
	{"rm -rf /", nil, RiskHigh},
	{"ls (", nil, RiskHigh},
}

func TestRisk(t *testing.T) {
	if !classifyWorks() {
		t.Skip("classify.Analyze is still a stub")
	}
	for _, tc := range riskTable {
		s := settings(tc.rules...)
		s.Root = "/home/u/proj"
		a := classify.Analyze(tc.cmd, testOptions())
		v := Decide(a, s)
		if v.Risk != tc.want {
			t.Errorf("%q: risk %s (%s %s), want %s", tc.cmd, v.Risk, v.Decision, v.Rule, tc.want)
		}
	}
}

func TestRiskWithoutRoot(t *testing.T) {
	// no root known: the command's own directory stands in
	s := Defaults()
	for cmd, want := range map[string]Risk{"cat a.txt": RiskNone, "cat ../x": RiskHigh, "cat /etc/hosts": RiskHigh} {
		a := classify.Analyze(cmd, classify.Options{Cwd: "/w", Home: "/h"})
		if v := Decide(a, s); v.Risk != want {
			t.Errorf("%q: risk %s, want %s", cmd, v.Risk, want)
		}
	}
}
