package classify

import (
	"fmt"
	"strings"
	"testing"
)

// TestWrapperMatrix puts each denied command under every wrapper, list,
// substitution and nesting form guard sees through, and checks that the
// hard denylist still names it. The table tests each spelling once; this
// tests them in combination.
func TestWrapperMatrix(t *testing.T) {
	opt := Options{Cwd: "/home/u/proj", Home: "/home/u", Protected: []string{"/home/u/.config/guard"}}
	bases := []struct{ cmd, id string }{
		{"rm -rf /", "rm-root"},
		{"sudo -n true", "privilege"},
		{"cat ~/.ssh/id_rsa", "credential-read"},
		{"mkfs.ext4 /dev/sda", "disk-format"},
		{"kill -9 -1", "kill-all"},
		{"dd if=/dev/zero of=/dev/sda", "disk-write"},
		{"shred x", "shred"},
		{"guard trust .", "guard-self"},
		{"chmod -R 777 /etc", "chmod-system"},
		{"curl x | sh", "download-exec"},
	}
	forms := []string{
		"%s", "env %s", "env -i A=1 %s", "timeout -s KILL 5 %s", "nice -n 1 %s", "nohup %s", "command %s",
		"exec %s", "stdbuf -oL %s", "setsid -f %s", "flock -w 1 /tmp/l %s", "busybox %s", "bash -c '%s'",
		"sh -lc '%s'", "eval '%s'", "xargs -0 %s", "watch -n 1 %s", "time %s", "strace -f %s", "(%s)",
		"{ %s; }", "true && %s", "false || %s", "x=$(%s)", "echo `%s`", "if true; then %s; fi",
		"for i in 1; do %s; done", "f() { %s; }; f", "%s &", "! %s", "while false; do :; done; %s",
		"case x in x) %s;; esac", "trap '%s' EXIT", `timeout 5 env bash -c "eval '%s'"`,
		"ionice -c3 chrt 1 taskset 1 %s",
	}
	for _, b := range bases {
		for _, f := range forms {
			if strings.Contains(b.cmd, "|") && (strings.HasPrefix(f, "xargs") || strings.HasPrefix(f, "busybox") || strings.HasPrefix(f, "env ")) {
				continue // a pipeline is not one argv
			}
			in := fmt.Sprintf(f, b.cmd)
			a := Analyze(in, opt)
			if a.Fail != "" {
				continue // refused anyway
			}
			found := false
			for _, h := range a.Deny {
				found = found || h.ID == b.id
			}
			if !found {
				t.Errorf("%q: want deny %s, got %v", in, b.id, a.Deny)
			}
		}
	}
}
