package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"guard": func() { os.Exit(guardMain()) },
	})
}

// TestScripts runs testscripts/*.txtar against the real CLI.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testscripts"),
		Setup:               setupEnv,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}

// setupEnv puts HOME and every XDG directory under $WORK, relocates the
// managed policy, and drops any GUARD_* variable of the environment running
// the tests, so that every script starts outside any guarded command.
func setupEnv(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	vars := map[string]string{
		"HOME":                 home,
		"XDG_CONFIG_HOME":      filepath.Join(home, ".config"),
		"XDG_STATE_HOME":       filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME":       filepath.Join(home, ".cache"),
		"XDG_DATA_HOME":        filepath.Join(home, ".local", "share"),
		"GUARD_MANAGED_POLICY": filepath.Join(env.WorkDir, "etc", "guard", "policy.toml"),
	}
	kept := env.Vars[:0]
	for _, kv := range env.Vars {
		if strings.HasPrefix(kv, "GUARD_") {
			continue
		}
		kept = append(kept, kv)
	}
	env.Vars = kept
	for k, v := range vars {
		env.Setenv(k, v)
	}
	return os.MkdirAll(home, 0o755)
}
