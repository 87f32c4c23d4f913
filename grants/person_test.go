package grants

import (
	"testing"

	"github.com/guard-dev/guard/classify"
)

// TestPersonPartByPart: a line typed in guard's interactive shell
// (Settings.Person) has its plain assignments, loops and function
// definitions judged part by part, and a call of a function by its body;
// whatever makes a part or the body uncertain still asks.
func TestPersonPartByPart(t *testing.T) {
	if !classifyWorks() {
		t.Skip("classify is a stub")
	}
	session := map[string]string{"greet": "echo hi $1", "wipe": "rm -rf ~/x"}
	for _, tc := range []struct {
		in   string
		want Decision
		risk Risk // checked when set
		vars []string
	}{
		{`greet() { echo hi $1; }`, Allow, "", nil},
		{`greet bob`, Allow, RiskNone, nil},
		{`x=5`, Allow, RiskNone, nil},
		{`name=bob; echo hi $name`, Allow, "", nil},
		{`greet() { echo hi $1; }; greet bob`, Allow, "", nil},
		{`cd /tmp && frobnicate`, Ask, "", nil},
		{`for f in a b; do echo $f; done`, Allow, "", nil},
		{`for f in *.go; do wc -l $f; done`, Ask, "", nil}, // a file named by a loop variable: not read-only (tainted), as in guard -c
		{`for f in a b; do touch $f; done`, Ask, "", nil},
		{`while true; do frobnicate; done`, Ask, "", nil},
		{`wipe`, Ask, "", nil}, // its body asks
		{`g() { frobnicate $1; }`, Ask, "", nil},
		// the assignments a shell or a program gives meaning to
		{`HOME=/etc`, Ask, "", nil},
		{`PATH=/tmp:$PATH`, Ask, "", nil},
		{`http_proxy=http://x:1`, Ask, "", nil},
		{`export x=1`, Ask, "", nil},
		{`FOO=1 ls`, Ask, "", nil},
		{`x=$(frobnicate)`, Ask, "", nil},
		// which body runs is uncertain: asked
		{`greet() { echo a; }; greet() { touch x; }`, Ask, "", nil},
		{`unset -f greet; greet`, Ask, "", nil},
		{`if true; then greet() { echo; }; fi`, Ask, "", nil},
		{`rec() { rec; }`, Ask, "", nil},
		// a variable an earlier line set is the session's: unknown here
		{`cat $f`, Ask, "", []string{"f"}},
		{`echo $f`, Allow, "", []string{"f"}},
	} {
		opt := testOptions()
		opt.Funcs = session
		if tc.vars != nil {
			opt.SessionVars = map[string]bool{}
			for _, v := range tc.vars {
				opt.SessionVars[v] = true
			}
		}
		s := Defaults()
		s.Person = true
		v := Decide(classify.Analyze(tc.in, opt), s)
		if v.Decision != tc.want || tc.risk != "" && v.Risk != tc.risk {
			t.Errorf("%q: got %s (%s, risk %s: %s), want %s", tc.in, v.Decision, v.Rule, v.Risk, v.Reason, tc.want)
		}
		// without Person (guard -c), none of them is allowed as a whole
		// but the plain call, judged by its body
		s.Person = false
		if v := Decide(classify.Analyze(tc.in, opt), s); v.Decision == Allow && tc.in != `greet bob` && tc.in != `echo $f` {
			t.Errorf("%q without Person: allowed (%s)", tc.in, v.Rule)
		}
	}
}
