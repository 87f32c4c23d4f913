package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/guard-dev/guard/internal/testproc"
	"github.com/guard-dev/guard/shim"
)

func TestMain(m *testing.M) {
	// guard is the front program (cmd/guard, package shim) and hands every
	// management command to guard-cli, which it finds on the scripts' PATH.
	testscript.Main(strayChecked{m}, map[string]func(){
		"guard":     func() { os.Exit(shim.Front(shim.FromProcess())) },
		"guard-cli": func() { os.Exit(guardMain()) },
	})
}

// strayChecked runs the tests with every t.TempDir under one directory
// and then fails the run for any process still running there, naming it:
// it outlived its test (a guard watch left on a terminal, a background
// refresh).
type strayChecked struct{ m *testing.M }

func (s strayChecked) Run() int {
	tmp, err := testproc.Setup("gc")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	code := s.m.Run()
	if testproc.Check(os.Stderr, tmp) && code == 0 {
		code = 1
	}
	return code
}

// TestScripts runs testscripts/*.txtar against the real guard and guard-cli.
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	goEnv := goEnvironment(t)
	// Every process a script starts carries this mark in its environment:
	// one still running once all scripts are done outlived its test (a
	// background refresh filing a pending request into a deleted HOME).
	mark := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { checkNoStrays(t, strayMark+"="+mark) })
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join(repo, "testscripts"),
		Setup: func(env *testscript.Env) error {
			if err := setupEnv(env); err != nil {
				return err
			}
			env.Setenv(strayMark, mark)
			// A virtual console root may open, for the scripts that play
			// a root agent making one its own ([vt]).
			env.Setenv("TEST_VT", scriptVT())
			// Scripts that build guard (install.txtar) get the repository
			// and the outer Go caches, so the build is warm and offline.
			env.Setenv("GUARD_REPO", repo)
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			return nil
		},
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Condition:           scriptCondition,
	})
}

// scriptCondition answers the scripts' own conditions: [landlock] (the
// kernel can confine commands), [mountns] (guard draws a mount namespace:
// root with Landlock), [netns] (and a network namespace), [vt] (root, and
// a virtual console to open: $TEST_VT).
func scriptCondition(cond string) (bool, error) {
	switch cond {
	case "landlock":
		return shim.LandlockABI() > 0, nil
	case "mountns", "netns":
		return shim.LandlockABI() > 0 && os.Geteuid() == 0, nil
	case "vt":
		return scriptVT() != "", nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// scriptVT names a virtual console the scripts may open (as root), or "".
func scriptVT() string {
	if os.Geteuid() != 0 {
		return ""
	}
	for n := 62; n >= 32; n-- {
		path := fmt.Sprintf("/dev/tty%d", n)
		if f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0); err == nil {
			f.Close()
			return path
		}
	}
	return ""
}

// strayMark names the variable that marks the scripts' processes.
const strayMark = "GUARDTEST_SCRIPT_RUN"

// checkNoStrays fails the test for every process whose environment holds
// mark, after giving them a moment to finish exiting, and kills them.
func checkNoStrays(t *testing.T, mark string) {
	t.Helper()
	var strays []int
	for i := 0; i < 40; i++ { // processes on their way out get 2 s
		strays = processesWith(mark)
		if len(strays) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, pid := range strays {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		t.Errorf("a process outlived its script: pid %d: %s", pid, strings.ReplaceAll(strings.TrimRight(string(cmdline), "\x00"), "\x00", " "))
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// processesWith lists the processes whose environment holds the entry kv.
func processesWith(kv string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, v := range strings.Split(string(env), "\x00") {
			if v == kv {
				if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil && !isZombie(st) {
					out = append(out, pid)
				}
				break
			}
		}
	}
	return out
}

// isZombie reads a stat line's state: a zombie has exited, only unreaped.
func isZombie(stat []byte) bool {
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// goEnvironment returns the Go settings of the environment running the tests
// that would otherwise move with HOME.
func goEnvironment(t *testing.T) map[string]string {
	t.Helper()
	vars := []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN"}
	out, err := exec.Command("go", append([]string{"env"}, vars...)...).Output()
	if err != nil {
		return nil // scripts that need go skip themselves
	}
	env := map[string]string{}
	for i, v := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if i < len(vars) && v != "" {
			env[vars[i]] = v
		}
	}
	return env
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
