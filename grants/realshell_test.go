package grants

import (
	"strings"
	"testing"
)

// real_shell names the shell guard runs commands with; only the user's
// global config and the managed policy may (issue 22: GUARD_REAL_SHELL,
// which the agent could set, is gone).
func TestRealShell(t *testing.T) {
	e := newEnv(t)
	write(t, e.p.GlobalConfig(), "real_shell = \"/opt/bash5/bin/../bin/bash\"\n")
	if s := Load(e.p, e.proj); s.Err != nil || s.RealShell != "/opt/bash5/bin/bash" {
		t.Errorf("global: %q, %v", s.RealShell, s.Err)
	}
	write(t, e.p.Managed, "real_shell = \"/usr/bin/bash\"\n")
	if s := Load(e.p, e.proj); s.Err != nil || s.RealShell != "/usr/bin/bash" {
		t.Errorf("managed over global: %q, %v", s.RealShell, s.Err)
	}
}

func TestRealShellOnlyManagedAndGlobal(t *testing.T) {
	for name, file := range map[string]func(e *testEnv) string{
		"global grants":  func(e *testEnv) string { return e.p.GlobalGrants() },
		"project grants": func(e *testEnv) string { return e.p.ProjectGrants(e.proj) },
		"project config": func(e *testEnv) string { return ProjectConfig(e.proj) },
	} {
		e := newEnv(t)
		f := file(e)
		write(t, f, "# x\nreal_shell = \"/tmp/evil/bash\"\n")
		s := Load(e.p, e.proj)
		if s.Err == nil || !strings.Contains(s.Err.Error(), f+":2:1: real_shell is read only from the global config.toml or the managed policy") {
			t.Errorf("%s: err %v", name, s.Err)
		}
		if s.RealShell != "" {
			t.Errorf("%s: honoured %q", name, s.RealShell)
		}
	}
}

func TestRealShellErrors(t *testing.T) {
	for _, text := range []string{"real_shell = \"bash\"\n", "real_shell = [\"/bin/bash\"]\n", "real_shell = 1\n"} {
		e := newEnv(t)
		write(t, e.p.GlobalConfig(), text)
		if s := Load(e.p, e.proj); s.Err == nil || !strings.Contains(s.Err.Error(), "real_shell must be an absolute path") {
			t.Errorf("%q: err %v", text, s.Err)
		}
	}
}
