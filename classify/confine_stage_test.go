package classify

import "testing"

// TestConfineStage: guard __confine FD PATH ARGV… (guard's own stage) is
// judged as PATH run with ARGV's arguments; anything that makes what runs
// uncertain leaves it opaque, never allowed as a read.
func TestConfineStage(t *testing.T) {
	for _, tc := range []struct {
		in     string
		deny   string // a denylist hit the inner command must carry
		opaque bool
		inner  string // the inner command's name, when judged
	}{
		{`guard __confine 3 /bin/ls ls -l`, "", false, "ls"},
		{`guard __confine 3 /bin/ls /bin/ls -l`, "", false, "ls"},
		{`guard __confine 3 /bin/rm rm -rf /`, "rm-root", false, "rm"},
		{`guard-cli __confine 9 /usr/bin/sudo sudo -n true`, "privilege", false, "sudo"},
		{`guard __confine 3 /bin/bash bash -c 'rm -rf /'`, "rm-root", false, "bash"},
		// busybox runs the tool it is called as: not the program judged
		{`guard __confine 3 /bin/busybox rm -rf /`, "", true, "busybox"},
		{`guard __confine 3 /tmp/x/ls cat /etc/passwd`, "", true, "ls"},
		// no slash: the stage runs it from the working directory
		{`guard __confine 3 ls ls`, "", true, "ls"},
		{`guard __confine x /bin/ls ls`, "", true, "ls"},
		{`guard __confine $fd /bin/ls ls`, "", true, "ls"},
		{`guard __confine 3 $p ls`, "", true, ""},
		{`guard __confine 3 /bin/ls`, "", true, ""},
		{`guard __confine`, "", true, ""},
	} {
		a := Analyze(tc.in, tcOpt())
		if a.Fail != "" {
			t.Errorf("%q: fail %s", tc.in, a.Fail)
			continue
		}
		if tc.deny != "" && !tcHasHit(a.Deny, tc.deny) {
			t.Errorf("%q: want deny %s, got %v", tc.in, tc.deny, tcIDs(a.Deny))
		}
		if tc.deny == "" && len(a.Deny) > 0 {
			t.Errorf("%q: want no deny, got %v", tc.in, tcIDs(a.Deny))
		}
		top := a.Commands[0]
		if top.Opaque != tc.opaque {
			t.Errorf("%q: opaque %v, want %v", tc.in, top.Opaque, tc.opaque)
		}
		if tc.inner == "" {
			continue
		}
		if len(top.Inner) == 0 {
			t.Errorf("%q: not unwrapped", tc.in)
			continue
		}
		if got := a.Commands[top.Inner[0]].Name; got != tc.inner {
			t.Errorf("%q: inner %q, want %q", tc.in, got, tc.inner)
		}
	}
}
