package testproc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A process left running in a test's directory is found, named and
// killed; one that ended is not.
func TestCheck(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "proj")
	os.Mkdir(dir, 0o755)
	byCwd := exec.Command("sleep", "60")
	byCwd.Dir = dir
	byEnv := exec.Command("sleep", "61")
	byEnv.Env = []string{"HOME=" + filepath.Join(root, "home")}
	for _, c := range []*exec.Cmd{byCwd, byEnv} {
		if err := c.Start(); err != nil {
			t.Skip(err)
		}
		defer c.Wait()
		defer c.Process.Kill()
	}
	done := exec.Command("true")
	done.Dir = dir
	done.Run()
	var out bytes.Buffer
	if !Check(&out, root) {
		t.Fatal("no stray found")
	}
	for _, want := range []string{"sleep 60", "sleep 61", "its cwd " + dir, "its environ"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	for _, c := range []*exec.Cmd{byCwd, byEnv} {
		if err := c.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
			t.Errorf("pid %d: %v, want killed", c.Process.Pid, err)
		}
	}
	if len(Strays(root)) != 0 {
		t.Error("strays after Check")
	}
}
