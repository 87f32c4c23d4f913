package shim

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// program writes an executable file name in dir.
func program(t *testing.T, dir, name string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestShadowed(t *testing.T) {
	root := t.TempDir()
	sys, evil, tools := filepath.Join(root, "sys"), filepath.Join(root, "evil"), filepath.Join(root, "tools")
	sysLs := program(t, sys, "ls")
	program(t, sys, "git")
	program(t, sys, "echo")
	evilLs := program(t, evil, "ls")
	program(t, evil, "echo") // a builtin: bash runs it whatever PATH says
	program(t, tools, "mytool")
	notExec := filepath.Join(evil, "git")
	if err := os.WriteFile(notExec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name        string
		base, cur   string
		hashed      map[string]string
		want        map[string]string
		description string
	}{
		{"unchanged", sys, sys, nil, nil, "nothing moved"},
		{"planted first in PATH", sys, evil + ":" + sys, nil, map[string]string{"ls": evilLs}, "ls now runs evil/ls; echo is a builtin; evil/git is not executable"},
		{"new tools are not shadows", sys, sys + ":" + tools, nil, nil, "mytool was not found before: judged by its name"},
		{"relative entry", sys, ".:" + sys, nil, map[string]string{"ls": evilLs}, "the shell's directory holds an ls"},
		{"PATH unset", sys, "", nil, map[string]string{"ls": evilLs}, "unset PATH: bash looks names up in the shell's directory"},
		{"hash -p to another program", sys, sys, map[string]string{"ls": "/bin/sh"}, map[string]string{"ls": "/bin/sh"}, "BASH_CMDS[ls]=/bin/sh"},
		{"hash of what PATH finds", sys, sys, map[string]string{"ls": sysLs}, nil, "the table after ls ran"},
		{"hash of a new name to a shell", sys, sys, map[string]string{"lister": "/bin/sh"}, map[string]string{"lister": "/bin/sh"}, "hash -p /bin/sh lister"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := shadowed(c.base, c.cur, evil, c.hashed)
			if !maps.Equal(got, c.want) {
				t.Errorf("%s: shadowed = %v, want %v", c.description, got, c.want)
			}
		})
	}
}

func TestHashEntries(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	out, err := exec.Command(bash, "--norc", "-c", `hash -p "/tmp/a b/x" foo; hash -p /bin/sh ls; hash -l`).Output()
	if err != nil {
		t.Fatal(err)
	}
	got, err := hashEntries(string(out))
	if err != nil {
		t.Fatalf("hashEntries(%q): %v", out, err)
	}
	if want := map[string]string{"foo": "/tmp/a b/x", "ls": "/bin/sh"}; !maps.Equal(got, want) {
		t.Errorf("hashEntries(%q) = %v, want %v", out, got, want)
	}
	if got, err := hashEntries("hash: hash table empty\n"); err != nil || got != nil {
		t.Errorf("empty table: %v, %v", got, err)
	}
	if _, err := hashEntries("rm -rf /\n"); err == nil {
		t.Error("a line that is no hash entry was taken")
	}
}

// TestInteractiveShadowedName: a name the session's hash table points at
// another program is judged as that program. A sourced file (granted: guard
// cannot see inside it) runs hash -p /bin/sh ls, so ls -c 'sudo -n true'
// runs sudo through sh: the privilege rule denies it. (BASH_ENV would
// have done it at the start once; guard drops it from the environment.)
func TestInteractiveShadowedName(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	env := filepath.Join(dir, "env.sh")
	if err := os.WriteFile(env, []byte("hash -p /bin/sh ls\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "config")
	if err := os.MkdirAll(filepath.Join(conf, "guard"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "guard", "config.toml"), []byte("[permissions.bash]\nallow = [\"source "+env+"\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startSession(t, "real", "GUARD_NO_PROMPT=1", "XDG_CONFIG_HOME="+conf)
	p.send("source " + env + "\r")
	p.expect(guardPrompt)
	p.send("ls -c 'sudo -n true'\r")
	p.expect(`guard: denied: privilege: `)
	p.expect(guardPrompt)
	p.send("exit\r")
	p.wait()
}

// TestInteractiveStateWriters: each writer of shell state that changes
// what a later line runs, with a harmless payload, needs approval in a
// session (GUARD_NO_PROMPT: an ask is refused), and the session goes on.
func TestInteractiveStateWriters(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	p := startSession(t, "real", "GUARD_NO_PROMPT=1")
	for _, line := range stateWriters {
		p.send(line + "\r")
		p.expect(`guard: (needs approval: .*changes which program|denied: guard-session)`)
		p.expect(guardPrompt)
	}
	p.send(`echo "[${BASH_CMDS[ls]}]"` + "\r")
	p.expect(`\[\]\r\n`) // none of them ran
	p.send("exit\r")
	p.wait()
}

// stateWriters write shell state with harmless payloads: a PATH that
// still finds every program, the command hash pointing ls at ls.
var stateWriters = []string{
	`printf -v PATH %s "$PATH"`,
	`printf -v 'BASH_CMDS[ls]' %s /bin/ls`,
	`read -r PATH <<< "$PATH"`,
	`mapfile -t LD_PRELOAD < /dev/null`,
	`readarray -t BASH_CMDS < /dev/null`,
	`declare PATH="$PATH"`,
	`export BASH_ENV=/dev/null`,
	`typeset -x NODE_OPTIONS=`,
	`PATH="$PATH"`,
	`BASH_CMDS[ls]=/bin/ls`,
	`hash -p /bin/ls ls`,
	`enable -n kill`,
	`shopt -s nocaseglob`,
	`set -k`,
	`IFS=$' \t\n'`,
	`PS4='+ '`,
}

func TestStateWritersListed(t *testing.T) {
	// the txtar of composite = "each" runs the same writers
	b, err := os.ReadFile(filepath.Join("..", "testscripts", "shell_state.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range stateWriters {
		if !strings.Contains(string(b), line) {
			t.Errorf("testscripts/shell_state.txtar does not run %q", line)
		}
	}
}

func TestKnownEnv(t *testing.T) {
	env := []string{"HOME=/h", "PATH=/bin", "X="}
	got := KnownEnv(env, nil)
	if !got["HOME"] || !got["X"] || got["UNSET"] {
		t.Errorf("knownEnv = %v", got)
	}
	for _, c := range []struct {
		env   []string
		flags []string
	}{
		{env, []string{"-l"}}, // a login shell runs the profile first
		{env, []string{"--login"}},
		{env, []string{"-il"}},
		{append(env, "BASH_ENV=/x"), nil}, // runs /x first
		{append(env, "ENV=/x"), nil},
		{append(env, "BASH_FUNC_f%%=() { :; }"), nil}, // a function may set anything
	} {
		if got := KnownEnv(c.env, c.flags); got != nil {
			t.Errorf("KnownEnv(%q, %q) = %v, want nil (unknown)", c.env, c.flags, got)
		}
	}
}
