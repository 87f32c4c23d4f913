package classify

import "testing"

// TestFuncCallCertain: a call of a function is judged by its body only
// when the text leaves no doubt which body runs; otherwise the call is
// opaque (asked). The session's functions count as defined before the text.
func TestFuncCallCertain(t *testing.T) {
	session := map[string]string{"greet": "echo hi $1"}
	for _, tc := range []struct {
		in     string
		opaque bool
	}{
		{`greet bob`, false},
		{`f() { echo; }; f`, false},
		{`greet() { touch x; }; greet`, false}, // redefined before the call: that body is judged
		{`f() { echo; }; f() { rm -rf ~/x; }; f`, true},
		{`for i in 1 2; do greet; greet() { touch x; }; done`, true},
		{`if true; then greet() { touch x; }; fi; greet`, true},
		{`unset -f greet; greet`, true},
		{`unset greet; greet`, true},
		{`source ./x.sh; greet`, true},
		{`. ./x.sh; greet`, true},
		{`eval "$x"; greet`, true},
	} {
		opt := tcOpt()
		opt.Funcs = session
		a := Analyze(tc.in, opt)
		found := false
		for _, c := range a.Commands {
			if !c.Func {
				continue
			}
			found = true
			if c.Opaque != tc.opaque {
				t.Errorf("%q: call of %s opaque %v, want %v", tc.in, c.Name, c.Opaque, tc.opaque)
			}
		}
		if !found {
			t.Errorf("%q: no call judged by a body", tc.in)
		}
	}
	// recursion: the inner call is not judged by the body again, so it is
	// an unknown command, not a function call
	a := Analyze(`rec() { rec; }; rec`, tcOpt())
	calls := 0
	for _, c := range a.Commands {
		if c.Func {
			calls++
		}
	}
	if calls != 1 {
		t.Errorf("rec: %d calls judged by the body, want 1", calls)
	}
	// what a text sets
	a = Analyze(`x=1; for f in a; do y=2; done; export z=3`, tcOpt())
	if got := a.Assigned; len(got) != 3 || got[0] != "x" || got[1] != "f" || got[2] != "y" || !a.Declared {
		t.Errorf("assigned %v declared %v", got, a.Declared)
	}
}
