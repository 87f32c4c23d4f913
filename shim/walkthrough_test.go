package shim

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestInteractiveStartedFromJobControlShell starts guard the way a person
// does: typed at an interactive bash, so guard is a job in that shell's
// session and not the session leader (the other PTY tests start guard as
// the leader, whose group is orphaned and never gets SIGTTOU). Handing the
// terminal to the session's shell from the background must not stop guard
// ("Stopped (tty output)").
func TestInteractiveStartedFromJobControlShell(t *testing.T) {
	st := newShimTree(t)
	outer, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "real")
	cmd.Path, cmd.Args = outer, []string{outer, "--norc", "--noprofile", "-i"}
	cmd.Env = append(cmd.Env, "PS1=outer$ ", "HISTFILE=/dev/null", "HOME="+t.TempDir())
	p := attachSession(t, cmd, `outer\$ `)
	p.send(filepath.Join(st.shims, "bash") + "\r")
	p.expect(`guard:\S*\$ `)
	p.send("echo hi-$((1+1))\r")
	p.expect(`hi-2\r\n`)
	p.expect(`guard:\S*\$ `)
	p.send("exit 3\r")
	p.expect(`outer\$ `)
	p.send("echo outer-$?\r")
	p.expect(`outer-3\r\n`)
	p.send("exit\r")
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the outer shell did not end")
	}
}

// A multiplexer directly above guard's shells (a human typed guard in a
// tmux pane) is named with its reason, not as "the agent's process tree".
func TestListedNotHost(t *testing.T) {
	for _, c := range []struct {
		why  string
		want bool
	}{
		{"tmux lets any process of this user type into its panes (tmux send-keys)", true},
		{"screen lets any process of this user type into its windows (screen -X stuff)", true},
		{"not a known terminal program", false},
		{"cannot read its program", false},
		{"", false},
	} {
		if got := listedNotHost(c.why); got != c.want {
			t.Errorf("listedNotHost(%q) = %v, want %v", c.why, got, c.want)
		}
	}
}
