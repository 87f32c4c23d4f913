package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfineNonRoot runs guard as a user who is not root (nobody, through
// setpriv), whose home sits under /tmp, inside the writable temporary tree:
// guard's stage draws the mounts in a user namespace, so home stays
// read-only and hidden, and the project's agent config read-only, as for
// root. The payload writes marker files only under the test's directory.
func TestConfineNonRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to become nobody")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir, err := os.MkdirTemp("", "guard-nonroot-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "guard")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	for _, d := range []string{home + "/.ssh", home + "/.config/guard", proj + "/.git/hooks", proj + "/.claude"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		home + "/.ssh/id_rsa":               "FAKE-KEY\n",
		home + "/.config/guard/config.toml": "[permissions.bash]\nallow = [\"sh t.sh\"]\n",
		proj + "/t.sh": `echo hi > made.txt && echo "project: written"
echo x > "$HOME/escaped" 2>/dev/null && echo "home: WRITTEN" || echo "home: refused"
cat "$HOME/.ssh/id_rsa" 2>/dev/null || echo "key: refused"
echo x > .claude/settings.local.json 2>/dev/null && echo "claude: WRITTEN" || echo "claude: refused"
echo x > .git/hooks/pre-commit 2>/dev/null && echo "hook: WRITTEN" || echo "hook: refused"
echo x >> "$HOME/.config/guard/config.toml" 2>/dev/null && echo "config: WRITTEN" || echo "config: refused"
`,
	}
	for f, text := range files {
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("chown", "-R", "65534:65534", dir).CombinedOutput(); err != nil {
		t.Skipf("chown: %v %s", err, out)
	}
	os.Chmod(dir, 0o755)
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin, "-c", "sh t.sh")
	cmd.Dir = proj
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home}
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "user namespace") || strings.Contains(string(out), "operation not permitted") {
		t.Skipf("no unprivileged user namespaces here: %s", out)
	}
	if err != nil {
		t.Fatalf("guard -c 'sh t.sh' as nobody: %v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{"project: written", "home: refused", "key: refused", "claude: refused", "hook: refused", "config: refused"} {
		if !strings.Contains(got, want) {
			t.Errorf("as nobody, want %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "FAKE-KEY") {
		t.Errorf("the key was read:\n%s", got)
	}
	for _, p := range []string{home + "/escaped", proj + "/.claude/settings.local.json", proj + "/.git/hooks/pre-commit"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}

	// network = "none": not even the host's loopback (a server this test
	// started there)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	conf := home + "/.config/guard/config.toml"
	probe := "exec 3<>/dev/tcp/" + strings.Replace(ln.Addr().String(), ":", "/", 1) + " && echo CONNECTED || echo REFUSED"
	if err := os.WriteFile(proj+"/n.sh", []byte(probe+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, []byte("[permissions.bash]\nallow = [\"bash n.sh\"]\n[confine]\nnetwork = \"none\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin, "-c", "bash n.sh")
	cmd.Dir = proj
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home}
	out, _ = cmd.CombinedOutput()
	if !strings.Contains(string(out), "REFUSED") || strings.Contains(string(out), "CONNECTED") {
		t.Errorf("network = none, as nobody: a connection to the host's loopback: %s", out)
	}
}
