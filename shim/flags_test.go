package shim

import (
	"reflect"
	"testing"
)

func TestParseShellArgs(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		want  invocation
		usage bool
	}{
		{args: []string{"-c", "ls"}, want: invocation{HasC: true, Text: "ls"}},
		{args: []string{"-c", ""}, want: invocation{HasC: true, Text: ""}},
		{args: []string{"-lc", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"-l"}}},
		{args: []string{"-l", "-c", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"-l"}}},
		{args: []string{"-c", "-l", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"-l"}}},
		{args: []string{"--login", "-c", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"--login"}}},
		{args: []string{"-ec", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"-e"}}},
		{args: []string{"-e", "-c", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"-e"}}},
		{args: []string{"-xc", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"-x"}}},
		{args: []string{"-o", "pipefail", "-c", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"-o", "pipefail"}}},
		{args: []string{"-euo", "pipefail", "-c", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"-euo", "pipefail"}}},
		{args: []string{"+o", "histexpand", "-c", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"+o", "histexpand"}}},
		{args: []string{"--norc", "--noprofile", "-c", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"--norc", "--noprofile"}}},
		{args: []string{"--rcfile", "/x", "-ic", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"--rcfile", "/x", "-i"}}},
		{args: []string{"-O", "extglob", "-c", "ls"}, want: invocation{HasC: true, Text: "ls", Flags: []string{"-O", "extglob"}}},
		{args: []string{"-c", "echo $0 $1", "name", "one"}, want: invocation{HasC: true, Text: "echo $0 $1", Operands: []string{"name", "one"}}},
		{args: []string{"-c", "--", "ls"}, want: invocation{HasC: true, Text: "ls"}},
		{args: []string{"-c", "-", "ls"}, want: invocation{HasC: true, Text: "ls"}},
		{args: []string{"-c", "-x"}, want: invocation{HasC: true, Text: "", Flags: []string{"-x"}}, usage: true},
		{args: []string{}, want: invocation{}},
		{args: []string{"-l"}, want: invocation{Flags: []string{"-l"}}},
		{args: []string{"-s", "a", "b"}, want: invocation{Flags: []string{"-s"}, ReadStdin: true, Operands: []string{"a", "b"}}},
		{args: []string{"script.sh", "-c", "x"}, want: invocation{Operands: []string{"script.sh", "-c", "x"}}},
		{args: []string{"-c"}, usage: true},
		{args: []string{"-lq", "-c", "x"}, usage: true},
		{args: []string{"--bogus", "-c", "x"}, usage: true},
		{args: []string{"-o"}, usage: true},
		{args: []string{"--rcfile"}, usage: true},
	} {
		got, err := parseShellArgs(tc.args)
		if tc.usage {
			if err == nil {
				t.Errorf("%q: no usage error, got %+v", tc.args, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if got.Flags == nil {
			got.Flags = []string{}
		}
		if tc.want.Flags == nil {
			tc.want.Flags = []string{}
		}
		if got.Operands == nil {
			got.Operands = []string{}
		}
		if tc.want.Operands == nil {
			tc.want.Operands = []string{}
		}
		if !reflect.DeepEqual(*got, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.args, *got, tc.want)
		}
	}
}

func TestIsShellInvocation(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"guard"}, true},
		{[]string{"guard", "-c", "ls"}, true},
		{[]string{"guard", "-lc", "ls"}, true},
		{[]string{"guard", "-l", "-c", "ls"}, true},
		{[]string{"guard", "--login", "-c", "ls"}, true},
		{[]string{"guard", "--norc"}, true},
		{[]string{"guard", "-o", "pipefail", "-c", "ls"}, true},
		{[]string{"guard", "-euxo", "pipefail"}, true},
		{[]string{"guard", "-s"}, true},
		{[]string{"guard", "-"}, true},
		{[]string{"/usr/local/share/guard/shims/bash", "anything"}, true},
		{[]string{"sh", "exec"}, true},
		{[]string{"-bash"}, true},
		{[]string{"guard", "exec", "--", "ls"}, false},
		{[]string{"guard", "check", "ls"}, false},
		{[]string{"guard", "--help"}, false},
		{[]string{"guard", "-h"}, false},
		{[]string{"guard", "--version"}, false},
		{[]string{"guard", "-v"}, false},
		{[]string{"guard", "--json"}, false},
		{[]string{"guard", "-q"}, false},
		{[]string{"guard", "script.sh"}, false},
		{[]string{}, false},
	} {
		if got := IsShellInvocation(tc.args); got != tc.want {
			t.Errorf("IsShellInvocation(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestWithoutS(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"/bin/bash", "-s"}, []string{"/bin/bash"}},
		{[]string{"/bin/bash", "-es", "-o", "s"}, []string{"/bin/bash", "-e", "-o", "s"}},
		{[]string{"/bin/bash", "--rcfile", "-s"}, []string{"/bin/bash", "--rcfile", "-s"}},
	} {
		if got := withoutS(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("withoutS(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestQuoteArgv(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{"git", "status"}, "git status"},
		{[]string{"echo", "a b", ""}, "echo 'a b' ''"},
		{[]string{"echo", "it's"}, `echo "it's"`},
		{[]string{"printf", "a\nb"}, `printf $'a\nb'`},
	} {
		if got := quoteArgv(tc.in); got != tc.want {
			t.Errorf("quoteArgv(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
