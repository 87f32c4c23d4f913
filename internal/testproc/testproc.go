// Package testproc finds the processes a package's tests left running.
//
// A test that starts guard, a shell or a background refresh must end them.
// One that outlives its test filed a pending request into a temp HOME that
// was deleted under it. TestMain points TMPDIR at a fresh directory (Setup),
// so that every t.TempDir, and so every temp HOME, project and socket of the
// run, lies under it; after the tests it fails the run for every process
// other than itself whose working directory, program, command line or
// environment names that directory, and kills it (Check).
//
// Only tests import it.
package testproc

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Setup makes a fresh directory (0755), points TMPDIR at it and returns it.
func Setup(prefix string) (string, error) {
	root, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	// as /tmp is: a test that runs a command as another user (nobody)
	// gives it a directory in here
	if err := os.Chmod(root, 0o755); err != nil {
		return "", err
	}
	os.Setenv("TMPDIR", root)
	return root, nil
}

// Proc is a process found pointing into a test's directories.
type Proc struct {
	Pid  int
	Cmd  string // its command line, spaces between the words
	What string // what names the directory: cwd, exe, args or environ
}

// Strays lists the live processes, this one and its ancestors aside, whose
// working directory, program, command line or environment holds one of
// roots. Zombies have ended and are not listed.
func Strays(roots ...string) []Proc {
	skip := map[int]bool{}
	for pid := os.Getpid(); pid > 1 && !skip[pid]; {
		skip[pid] = true
		pid = parent(pid)
	}
	ents, _ := os.ReadDir("/proc")
	var out []Proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || skip[pid] {
			continue
		}
		dir := "/proc/" + e.Name()
		if st, err := os.ReadFile(dir + "/stat"); err != nil || zombie(st) {
			continue
		}
		cmdline, _ := os.ReadFile(dir + "/cmdline")
		cwd, _ := os.Readlink(dir + "/cwd")
		exe, _ := os.Readlink(dir + "/exe")
		env, _ := os.ReadFile(dir + "/environ")
		what := ""
		for _, r := range roots {
			if r == "" {
				continue
			}
			switch {
			case under(cwd, r):
				what = "cwd " + cwd
			case under(exe, r):
				what = "exe " + exe
			case bytes.Contains(cmdline, []byte(r)):
				what = "args"
			case bytes.Contains(env, []byte(r)):
				what = "environ"
			}
			if what != "" {
				break
			}
		}
		if what == "" {
			continue
		}
		out = append(out, Proc{Pid: pid, Cmd: strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " ")), What: what})
	}
	return out
}

// Check waits up to two seconds for the strays under roots to end (a
// process on its way out), then writes one line to w for each left, kills
// it and reports whether there was any.
func Check(w io.Writer, roots ...string) bool {
	var left []Proc
	for i := 0; i < 40; i++ {
		if left = Strays(roots...); len(left) == 0 {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, p := range left {
		fmt.Fprintf(w, "testproc: a process outlived its test (its %s is under the tests' temp dir): pid %d: %s\n", p.What, p.Pid, p.Cmd)
		syscall.Kill(p.Pid, syscall.SIGKILL)
	}
	return true
}

func under(path, root string) bool {
	return path == root || strings.HasPrefix(path, root+"/")
}

// parent reads a process's parent from /proc/PID/stat, 0 when it cannot.
func parent(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// zombie reads a stat line's state: a zombie has exited, only unreaped.
func zombie(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}
