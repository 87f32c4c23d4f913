package shim

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestCtrlCParity: Ctrl-C typed at the terminal (which reaches only the
// command's process group) and SIGINT sent to guard itself both leave no
// background job of the command running.
func TestCtrlCParity(t *testing.T) {
	interrupts := []struct {
		name string
		send func(cmd *os.Process, ptmx *os.File)
	}{
		{"ctrl-c at the terminal", func(_ *os.Process, ptmx *os.File) { ptmx.Write([]byte{0x03}) }},
		{"sigint to guard", func(p *os.Process, _ *os.File) { p.Signal(syscall.SIGINT) }},
	}
	for _, in := range interrupts {
		t.Run(in.name, func(t *testing.T) {
			st := newShimTree(t)
			cmd := guardCmd(t, st, filepath.Join(st.shims, "bash"), "allow", "-c",
				`sleep 300 & echo $! > pids; touch ready; sleep 301`)
			ptmx, err := pty.Start(cmd)
			if err != nil {
				t.Skipf("no pty: %v", err)
			}
			defer ptmx.Close()
			go func() {
				var b [4096]byte
				for {
					if _, err := ptmx.Read(b[:]); err != nil {
						return
					}
				}
			}()
			ready := filepath.Join(cmd.Dir, "ready")
			for i := 0; ; i++ {
				if _, err := os.Stat(ready); err == nil {
					break
				}
				if i == 1000 {
					cmd.Process.Kill()
					t.Fatal("the command never got ready")
				}
				time.Sleep(10 * time.Millisecond)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Interrupt again each second until guard ends: what is
			// checked is what the interrupt leaves behind.
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			in.send(cmd.Process, ptmx)
		wait:
			for i := 0; ; i++ {
				select {
				case err := <-done:
					if code := exitCode(t, err); code != 128+int(syscall.SIGINT) {
						t.Errorf("exit %d, want %d", code, 128+int(syscall.SIGINT))
					}
					break wait
				case <-tick.C:
					if i == 10 {
						cmd.Process.Kill()
						t.Fatal("guard still running 10s after the interrupt")
					}
					in.send(cmd.Process, ptmx)
				}
			}
			for _, pid := range readPids(t, filepath.Join(cmd.Dir, "pids")) {
				if alive(pid) {
					t.Errorf("background job %d survived the interrupt", pid)
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		})
	}
}
