package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/netproxy"
)

// proxyCommand is guard-cli proxy, which guard starts for a command
// confined with network = "hosts": it serves the listening socket guard
// made in the command's network namespace (descriptor 3) until its stdin
// ends (guard closes it when the command is done, or dies).
func (a *App) proxyCommand() *cli.Command {
	return &cli.Command{
		Name:   "proxy",
		Usage:  "serve a confined command's proxy (started by guard itself)",
		Hidden: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "the command's directory `DIR`"},
			&cli.StringFlag{Name: "command", Usage: "the command, redacted, for the records"},
			&cli.StringFlag{Name: "connect", Usage: "as ssh's ProxyCommand: reach `HOST:PORT` through the proxy at --via"},
			&cli.StringFlag{Name: "via", Usage: "the proxy's `ADDRESS` (127.0.0.1:PORT), with --connect"},
		},
		Action: a.proxy,
	}
}

func (a *App) proxy(c *cli.Context) error {
	if c.IsSet("connect") {
		return proxyConnect(c.String("connect"), c.String("via"), a.Stdin, a.Stdout)
	}
	cwd, err := a.cwdOr(c.String("cwd"))
	if err != nil {
		return err
	}
	f := os.NewFile(3, "proxy")
	ln, err := net.FileListener(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("proxy: descriptor 3 is not a listening socket: %w", err)
	}
	s := grants.Load(a.paths(), cwd)
	store := ccs.Open(a.paths().StateDir, a.redactor())
	defer store.Close()
	text := c.String("command")
	p := &netproxy.Proxy{
		Allowed: func(host string) (bool, string) {
			if s.Err != nil {
				return false, "fix the config first: " + s.Err.Error()
			}
			return s.HostAllowed(host)
		},
		Stderr: os.Stderr,
		Refused: func(host string, port int) {
			_ = store.Append(ccs.Record{
				Time: a.Now(), Agent: os.Getenv("GUARD_AGENT"), Cwd: cwd,
				Command:  text + "  # network: " + host + ":" + strconv.Itoa(port),
				Decision: "deny", Rule: "network-proxy", Answer: ccs.AnswerRule, Via: ccs.ViaRule, Mode: "proxy",
				Exit: 126, Risk: "high", Confined: "fs=project net=hosts",
			})
		},
	}
	go p.Serve(ln)
	// stdin ends when guard is done with the command (or gone)
	_, _ = io.Copy(io.Discard, os.Stdin)
	ln.Close()
	time.Sleep(10 * time.Millisecond)
	return nil
}

// proxyConnect is ssh's ProxyCommand inside a confined command (git over
// ssh under network = "hosts"): an HTTP CONNECT to target through the proxy
// at via, then stdin and stdout both ways. The proxy decides the host.
func proxyConnect(target, via string, in io.Reader, out io.Writer) error {
	if via == "" {
		return usageError("--connect needs --via 127.0.0.1:PORT")
	}
	c, err := net.DialTimeout("tcp", via, 10*time.Second)
	if err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	defer c.Close()
	if _, err := fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	br := bufio.NewReader(c)
	status, err := br.ReadString('\n')
	if err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return fmt.Errorf("proxy: %w", err)
		}
		if line == "\r\n" || line == "\n" {
			break
		}
	}
	if !strings.Contains(status, " 200 ") {
		return fmt.Errorf("proxy refused %s: %s", target, strings.TrimSpace(status))
	}
	// the session lasts until the far side closes (ssh's stdin may end
	// first: what is in flight back is still delivered)
	go func() {
		io.Copy(c, in)
		c.(*net.TCPConn).CloseWrite()
	}()
	_, err = io.Copy(out, br)
	return err
}
