package shim

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseExec(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want *execArgs // nil: handed to guard-cli
	}{
		{[]string{"--", "git", "status"}, &execArgs{argv: []string{"git", "status"}}},
		{[]string{"git", "status"}, &execArgs{argv: []string{"git", "status"}}},
		{[]string{"--timeout", "30s", "--", "go", "test"}, &execArgs{argv: []string{"go", "test"}, timeout: 30 * time.Second}},
		{[]string{"--timeout=2m", "--cwd=sub", "make"}, &execArgs{argv: []string{"make"}, timeout: 2 * time.Minute, cwd: "sub"}},
		{[]string{"-timeout", "1s", "-cwd", "/tmp", "--", "ls"}, &execArgs{argv: []string{"ls"}, timeout: time.Second, cwd: "/tmp"}},
		// PROG's own flags are PROG's, after -- or after PROG
		{[]string{"--", "--timeout", "x"}, &execArgs{argv: []string{"--timeout", "x"}}},
		{[]string{"ls", "--cwd", "x"}, &execArgs{argv: []string{"ls", "--cwd", "x"}}},
		{[]string{"-", "x"}, &execArgs{argv: []string{"-", "x"}}},
		// everything else is guard-cli's to answer
		{nil, nil},
		{[]string{"--"}, nil},
		{[]string{"--help"}, nil},
		{[]string{"-h", "--", "ls"}, nil},
		{[]string{"--timeout", "soon", "--", "ls"}, nil},
		{[]string{"--timeout", "-1s", "--", "ls"}, nil},
		{[]string{"--timeout=0", "ls"}, nil},
		{[]string{"--timeout"}, nil},
		{[]string{"--cwd=", "ls"}, nil},
		{[]string{"--no-such-flag", "--", "ls"}, nil},
		{[]string{"--no-cache", "--", "ls"}, &execArgs{argv: []string{"ls"}, noCache: true}},
		{[]string{"--no-cache=1", "--", "ls"}, nil},
		{[]string{"---timeout", "1s", "ls"}, nil},
	} {
		got, ok := parseExec(tc.args)
		if tc.want == nil {
			if ok {
				t.Errorf("%q: parsed as %+v, want it handed to guard-cli", tc.args, got)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(got, *tc.want) {
			t.Errorf("%q: got %+v (ok %v), want %+v", tc.args, got, ok, *tc.want)
		}
	}
}

func TestFindCLI(t *testing.T) {
	dir := t.TempDir()
	bin, other := filepath.Join(dir, "bin"), filepath.Join(dir, "other")
	for _, d := range []string{bin, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	self := filepath.Join(bin, "guard")
	onPath := filepath.Join(other, CLIName)
	if err := os.WriteFile(onPath, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// not next to guard: the first on PATH, relative entries skipped
	if got, err := FindCLI(self, "rel:"+other); err != nil || got != onPath {
		t.Errorf("PATH: got %q, %v", got, err)
	}
	// next to guard wins over PATH
	sibling := filepath.Join(bin, CLIName)
	if err := os.WriteFile(sibling, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := FindCLI(self, other); err != nil || got != sibling {
		t.Errorf("sibling: got %q, %v", got, err)
	}
	// nowhere: one sentence that says where it looked and what to do
	_, err := FindCLI(filepath.Join(other, "sub", "guard"), "")
	if err == nil || !strings.Contains(err.Error(), "install.sh") || !strings.Contains(err.Error(), filepath.Join(other, "sub", CLIName)) {
		t.Errorf("missing: %v", err)
	}
}

// TestFrontWithoutCLI: a management command with no guard-cli to run says
// so in one line and exits 125; it never falls into shell mode.
func TestFrontWithoutCLI(t *testing.T) {
	dir := t.TempDir()
	errf, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer errf.Close()
	env := Env{
		Args: []string{"guard", "grants", "list"}, Stderr: errf, Self: filepath.Join(dir, "guard"),
		Getenv: func(string) string { return "" },
	}
	if got := Front(env); got != ExitFailure {
		t.Errorf("exit %d, want %d", got, ExitFailure)
	}
	b, _ := os.ReadFile(errf.Name())
	if !strings.HasPrefix(string(b), "guard: error: guard-cli, which runs guard's management commands, is not installed") ||
		strings.Count(string(b), "\n") != 1 {
		t.Errorf("stderr %q", b)
	}
}

// TestFrontAsCLI: a guard-cli that is guard itself (guard execs guard-cli
// with its path as argv[0]) stops at once instead of exec'ing itself for ever.
func TestFrontAsCLI(t *testing.T) {
	dir := t.TempDir()
	errf, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer errf.Close()
	cli := filepath.Join(dir, CLIName)
	env := Env{Args: []string{cli, "grants", "list"}, Stderr: errf, Self: cli, Getenv: func(string) string { return "" }}
	if got := Front(env); got != ExitFailure {
		t.Errorf("exit %d, want %d", got, ExitFailure)
	}
	b, _ := os.ReadFile(errf.Name())
	if want := "guard: error: " + cli + " is guard itself, not the management CLI; reinstall guard with ./install.sh\n"; string(b) != want {
		t.Errorf("stderr %q, want %q", b, want)
	}
}

func TestBinaries(t *testing.T) {
	for _, tc := range []struct {
		self string
		want []string
	}{
		{"/opt/bin/guard", []string{"/opt/bin/guard", "/opt/bin/guard-cli"}},
		{"/opt/bin/guard-cli", []string{"/opt/bin/guard-cli", "/opt/bin/guard"}},
		{"/tmp/x/guard.test", []string{"/tmp/x/guard.test", "/tmp/x/guard", "/tmp/x/guard-cli"}},
		{"", nil},
	} {
		if got := Binaries(tc.self); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.self, got, tc.want)
		}
	}
}
