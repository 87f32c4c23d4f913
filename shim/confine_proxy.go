package shim

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// proxyLink is guard's side of the proxy of a command confined with
// network = "hosts": the listening socket, made inside the command's
// network namespace before it starts, and the guard-cli proxy process that
// serves it (netproxy). guard itself links no network code: it would cost
// every command its start-up.
type proxyLink struct {
	cli     string   // guard-cli
	cwd     string   // the command's directory: whose grants decide
	text    string   // the command, redacted, for the refusals' records
	environ []string // guard-cli's environment (guard's own)

	fd, port int      // the listening socket on 127.0.0.1
	pid      int      // guard-cli proxy
	life     *os.File // its stdin: closing it ends the proxy
	wake     *os.File // closing it ends watch
	watching chan struct{}
	err      error // why the proxy could not start (refused connections follow)
}

// watch starts guard-cli proxy when the first connection arrives, and not
// before: a command that never reaches the network never pays for it.
func (p *proxyLink) watch() error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	p.wake, p.watching = w, make(chan struct{})
	go func() {
		defer close(p.watching)
		defer r.Close()
		fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}, {Fd: int32(r.Fd()), Events: unix.POLLIN}}
		for {
			_, err := unix.Poll(fds, -1)
			if err == unix.EINTR {
				continue
			}
			if err != nil || fds[1].Revents != 0 {
				unix.Close(p.fd)
				return
			}
			if fds[0].Revents&unix.POLLIN != 0 {
				// (spawn closes guard's copy of the socket either way: with
				// no proxy, the command's connections are refused)
				p.err = p.spawn()
				return
			}
		}
	}()
	return nil
}

// listen makes the listening socket on 127.0.0.1 of the calling thread's
// network namespace (the command's, when called from confinement.enter).
func (p *proxyLink) listen() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		unix.Close(fd)
		return err
	}
	if err := unix.Listen(fd, 128); err != nil {
		unix.Close(fd)
		return err
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		unix.Close(fd)
		return err
	}
	p.fd, p.port = fd, sa.(*unix.SockaddrInet4).Port
	return nil
}

// env is what the command is told about the proxy: the conventional
// variables in both cases, and no NO_PROXY: a loopback service of the
// host is reached through the proxy too, when its host is granted (the
// namespace's own loopback is reached directly by clients that skip
// proxies for it, as Go's do).
func (p *proxyLink) env(environ []string) []string {
	addr := "127.0.0.1:" + strconv.Itoa(p.port)
	u, s := "http://"+addr, "socks5h://"+addr
	out := append(withoutVars(environ, proxyVars),
		"HTTP_PROXY="+u, "HTTPS_PROXY="+u, "http_proxy="+u, "https_proxy="+u,
		"ALL_PROXY="+s, "all_proxy="+s)
	// git over ssh goes through the proxy too, unless the agent named its
	// own ssh command (which then reaches nothing)
	if p.cli != "" && !slices.ContainsFunc(environ, func(kv string) bool { return strings.HasPrefix(kv, "GIT_SSH_COMMAND=") }) {
		out = append(out, "GIT_SSH_COMMAND=ssh -o ProxyCommand='"+p.cli+" proxy --connect %h:%p --via "+addr+"'")
	}
	return out
}

// proxyVars are the variables env sets, dropped from the agent's own.
var proxyVars = []string{"HTTP_PROXY=", "HTTPS_PROXY=", "http_proxy=", "https_proxy=", "ALL_PROXY=", "all_proxy=", "NO_PROXY=", "no_proxy="}

// spawn starts guard-cli proxy on the socket, from an unconfined thread.
func (p *proxyLink) spawn() error {
	defer unix.Close(p.fd)
	if p.cli == "" {
		return fmt.Errorf("guard-cli not found: the proxy cannot run")
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	argv := []string{CLIName, "proxy", "--cwd", p.cwd, "--command", p.text}
	// (no Pdeathsig: the thread that forks it may end before it does)
	pid, err := syscall.ForkExec(p.cli, argv, &syscall.ProcAttr{
		Env: p.environ, Files: []uintptr{r.Fd(), uintptr(unix.Stderr), uintptr(unix.Stderr), uintptr(p.fd)},
		Sys: &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		w.Close()
		return fmt.Errorf("start the proxy: %w", err)
	}
	p.pid, p.life = pid, w
	return nil
}

// close ends the watch and the proxy (which exits at the end of its
// stdin, unwaited for: guard itself exits after the run).
func (p *proxyLink) close() {
	if p.wake != nil {
		p.wake.Close()
		<-p.watching
	}
	if p.life != nil {
		p.life.Close()
	}
}
