package grants

import (
	"reflect"
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
)

func TestTrustedTerminals(t *testing.T) {
	e := newEnv(t)
	write(t, e.p.Managed, "trusted_terminals = [\"/opt/term/bin/myterm\"]\n")
	write(t, e.p.GlobalConfig(), "trusted_terminals = [\"/usr/local/bin/../bin/zterm\", \"/dev/tty2\", \"/dev/tty[0-9]*\"]\n")
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	if want := []string{"/opt/term/bin/myterm", "/usr/local/bin/zterm", "/dev/tty2", "/dev/tty[0-9]*"}; !reflect.DeepEqual(s.TrustedTerminals, want) {
		t.Errorf("got %q, want %q", s.TrustedTerminals, want)
	}
}

func TestTrustedTerminalsOnlyManagedAndGlobal(t *testing.T) {
	for name, file := range map[string]func(e *testEnv) string{
		"global grants":  func(e *testEnv) string { return e.p.GlobalGrants() },
		"project grants": func(e *testEnv) string { return e.p.ProjectGrants(e.proj) },
		"project config": func(e *testEnv) string { return ProjectConfig(e.proj) },
	} {
		e := newEnv(t)
		f := file(e)
		write(t, f, "# x\ntrusted_terminals = [\"/usr/bin/python3\"]\n")
		s := Load(e.p, e.proj)
		if s.Err == nil || !strings.Contains(s.Err.Error(), f+":2:1: trusted_terminals is read only from the global config.toml or the managed policy") {
			t.Errorf("%s: err %v", name, s.Err)
		}
		if len(s.TrustedTerminals) != 0 {
			t.Errorf("%s: honoured %q", name, s.TrustedTerminals)
		}
	}
}

func TestTrustedTerminalsErrors(t *testing.T) {
	for _, text := range []string{
		"trusted_terminals = \"/usr/bin/xterm\"\n",
		"trusted_terminals = [\"xterm\"]\n",
		"trusted_terminals = [1]\n",
		"trusted_terminals = [\"/dev/tty[0-9\"]\n",
	} {
		e := newEnv(t)
		write(t, e.p.GlobalConfig(), text)
		s := Load(e.p, e.proj)
		if s.Err == nil || !strings.Contains(s.Err.Error(), "trusted_terminals") {
			t.Errorf("%q: err %v", text, s.Err)
		}
	}
}

// A project config's allow rule that guard ignores until guard trust is
// named when it would have allowed the command, and only then.
func TestWouldAllowTrusted(t *testing.T) {
	e := newEnv(t)
	write(t, ProjectConfig(e.proj), "[permissions.bash]\nallow = [\"make *\"]\ndeny = [\"make deploy\"]\n")
	s := Load(e.p, e.proj)
	for text, want := range map[string]bool{
		"make build":  true,
		"make deploy": false, // denied whatever the allow says
		"npm install": false, // no rule of the project covers it
		"ls":          false, // allowed already
	} {
		an := classify.Analyze(text, classify.Options{Cwd: e.proj})
		v := Decide(an, s)
		if got := WouldAllowTrusted(an, s, nil, v); got != want {
			t.Errorf("%s (%s): got %v", text, v.Decision, got)
		}
	}
}
