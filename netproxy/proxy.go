// Package netproxy is guard's proxy for commands confined with network =
// "hosts": the command runs in a network namespace with nothing but its own
// loopback, guard makes a listening socket there, and guard-cli serves it
// (HTTP CONNECT, plain HTTP, SOCKS5), dialling from outside the namespace to
// the hosts the network tier allows. A refused host costs one line on the
// command's stderr and a record.
//
// It is a package of its own, not part of shim, because it needs the net
// package (a resolver and dialler), whose initialisation the lean guard
// binary must not pay on every command; guard-cli runs it (guard-cli proxy).
package netproxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Proxy serves one confined command's connections.
type Proxy struct {
	// Allowed decides a host (lowercase, no port): ok, and when not, the
	// grant that would allow it.
	Allowed func(host string) (ok bool, grant string)
	// Stderr is the command's stderr, for the one line per refused host.
	Stderr io.Writer
	// Refused records a refusal (nil: not recorded).
	Refused func(host string, port int)

	mu   sync.Mutex
	said map[string]bool // hosts already refused with a line
}

// Serve accepts connections on ln until it is closed.
func (p *Proxy) Serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go p.handle(c)
	}
}

const proxyTimeout = 30 * time.Second

func (p *Proxy) handle(c net.Conn) {
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(proxyTimeout))
	br := bufio.NewReaderSize(c, 4096)
	first, err := br.Peek(1)
	if err != nil {
		return
	}
	if first[0] == 5 {
		p.socks(c, br)
		return
	}
	p.http(c, br)
}

// http serves one CONNECT, or one plain request with an absolute URL
// (sent on with Connection: close, so that one connection reaches one
// host).
func (p *Proxy) http(c net.Conn, br *bufio.Reader) {
	var head bytes.Buffer
	for head.Len() < 64<<10 {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return
		}
		head.Write(line)
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			break
		}
	}
	lines := strings.Split(head.String(), "\n")
	method, target, version, ok := parseRequestLine(strings.TrimRight(lines[0], "\r"))
	if !ok {
		io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
		return
	}
	if method == "CONNECT" {
		host, port, ok := splitHostPort(target, 443)
		if !ok {
			io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
			return
		}
		up, why := p.dial(host, port)
		if up == nil {
			fmt.Fprintf(c, "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nguard: %s\n", why)
			return
		}
		defer up.Close()
		io.WriteString(c, "HTTP/1.1 200 Connection Established\r\n\r\n")
		_ = c.SetReadDeadline(time.Time{})
		pipe(c, br, up)
		return
	}
	rest, ok := strings.CutPrefix(target, "http://")
	if !ok {
		io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nguard: only http:// URLs and CONNECT go through this proxy\n")
		return
	}
	authority, path, _ := strings.Cut(rest, "/")
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		authority = authority[i+1:]
	}
	host, port, ok := splitHostPort(authority, 80)
	if !ok {
		io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
		return
	}
	up, why := p.dial(host, port)
	if up == nil {
		fmt.Fprintf(c, "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nguard: %s\n", why)
		return
	}
	defer up.Close()
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s /%s %s\r\n", method, path, version)
	for _, l := range lines[1:] {
		l = strings.TrimRight(l, "\r")
		if l == "" {
			continue
		}
		name, _, _ := strings.Cut(l, ":")
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "connection", "proxy-connection", "keep-alive", "proxy-authorization":
			continue
		}
		out.WriteString(l + "\r\n")
	}
	out.WriteString("Connection: close\r\n\r\n")
	if _, err := up.Write(out.Bytes()); err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	pipe(c, br, up)
}

// socks serves one SOCKS5 CONNECT (no authentication).
func (p *Proxy) socks(c net.Conn, br *bufio.Reader) {
	var hdr [2]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return
	}
	if _, err := io.ReadFull(br, make([]byte, hdr[1])); err != nil {
		return
	}
	c.Write([]byte{5, 0})
	var req [4]byte
	if _, err := io.ReadFull(br, req[:]); err != nil || req[0] != 5 {
		return
	}
	reply := func(code byte) { c.Write([]byte{5, code, 0, 1, 0, 0, 0, 0, 0, 0}) }
	if req[1] != 1 { // CONNECT only
		reply(7)
		return
	}
	var host string
	switch req[3] {
	case 1:
		var a [4]byte
		if _, err := io.ReadFull(br, a[:]); err != nil {
			return
		}
		host = netip.AddrFrom4(a).String()
	case 4:
		var a [16]byte
		if _, err := io.ReadFull(br, a[:]); err != nil {
			return
		}
		host = netip.AddrFrom16(a).String()
	case 3:
		n, err := br.ReadByte()
		if err != nil {
			return
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return
		}
		host = string(b)
	default:
		reply(8)
		return
	}
	var pb [2]byte
	if _, err := io.ReadFull(br, pb[:]); err != nil {
		return
	}
	up, _ := p.dial(normHost(host), int(binary.BigEndian.Uint16(pb[:])))
	if up == nil {
		reply(2) // not allowed by ruleset
		return
	}
	defer up.Close()
	reply(0)
	_ = c.SetReadDeadline(time.Time{})
	pipe(c, br, up)
}

// dial connects to host:port if the host is allowed, refusing the cloud
// metadata addresses whatever the name resolves to, and loopback unless
// the host granted is a loopback one. On refusal it says why (and has
// told the command's stderr once per host).
func (p *Proxy) dial(host string, port int) (net.Conn, string) {
	if host == "" || port <= 0 || port > 65535 {
		return nil, "bad address"
	}
	if MetadataHost(host) {
		return nil, p.refuse(host, port, "is a cloud metadata address; guard never lets a command reach it", "")
	}
	ok, grant := p.Allowed(host)
	if !ok {
		return nil, p.refuse(host, port, "is not a granted host", grant)
	}
	loop := loopbackHost(host)
	d := net.Dialer{Timeout: proxyTimeout, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		a := ap.Addr().Unmap()
		if metadataAddr(a) || a.IsLinkLocalUnicast() || (a.IsLoopback() && !loop) || a.IsUnspecified() {
			return errors.New("refused address " + a.String())
		}
		return nil
	}}
	up, err := d.DialContext(context.Background(), "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, "cannot reach " + host + ": " + err.Error()
	}
	return up, ""
}

// refuse says once per host, on the command's stderr, why guard's proxy
// refused it and what would allow it, and records it.
func (p *Proxy) refuse(host string, port int, why, grant string) string {
	msg := fmt.Sprintf("network: %s %s", host, why)
	if grant != "" {
		msg += "; to allow it: " + grant
	}
	p.mu.Lock()
	first := !p.said[host]
	if p.said == nil {
		p.said = map[string]bool{}
	}
	p.said[host] = true
	p.mu.Unlock()
	if first {
		fmt.Fprintf(p.Stderr, "guard: denied: %s\n", strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(msg))
		if p.Refused != nil {
			p.Refused(host, port)
		}
	}
	return msg
}

// pipe copies both ways until either side is done.
func pipe(c net.Conn, br *bufio.Reader, up net.Conn) {
	done := make(chan struct{}, 2)
	go func() {
		io.Copy(up, br)
		if tc, ok := up.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
		done <- struct{}{}
	}()
	go func() {
		io.Copy(c, up)
		if tc, ok := c.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
		done <- struct{}{}
	}()
	<-done
	<-done
}

// parseRequestLine splits "METHOD TARGET HTTP/1.x".
func parseRequestLine(l string) (method, target, version string, ok bool) {
	f := strings.Split(l, " ")
	if len(f) != 3 || !strings.HasPrefix(f[2], "HTTP/1.") || f[0] == "" || f[1] == "" {
		return "", "", "", false
	}
	return f[0], f[1], f[2], true
}

// splitHostPort reads host[:port] (IPv6 in brackets), def when no port.
func splitHostPort(s string, def int) (string, int, bool) {
	host, portText, err := net.SplitHostPort(s)
	if err != nil {
		host, portText = s, strconv.Itoa(def)
		if strings.Count(s, ":") == 1 || strings.HasPrefix(s, "[") {
			return "", 0, false
		}
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port <= 0 || port > 65535 {
		return "", 0, false
	}
	host = normHost(host)
	return host, port, host != ""
}

// normHost is a host as the network tier compares it: lowercase, no
// brackets, no trailing dot.
func normHost(h string) string {
	h = strings.ToLower(strings.TrimSuffix(strings.Trim(h, "[]"), "."))
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Unmap().String()
	}
	return h
}

// MetadataHost reports the cloud metadata services' names and addresses in
// the spellings a URL may use (decimal, hex and octal IPv4 among them).
func MetadataHost(h string) bool {
	switch h {
	case "metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal":
		return true
	}
	if a, ok := parseIPLoose(h); ok {
		return metadataAddr(a)
	}
	return false
}

func metadataAddr(a netip.Addr) bool {
	a = a.Unmap()
	switch a.String() {
	case "169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254", "169.254.169.253":
		return true
	}
	return false
}

// loopbackHost reports localhost names and loopback addresses.
func loopbackHost(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, ok := parseIPLoose(h)
	return ok && a.Unmap().IsLoopback()
}

// parseIPLoose reads an address the way inet_aton does too: 2852039166,
// 0xa9fea9fe, 0251.0376.0251.0376, 169.254.43518.
func parseIPLoose(h string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(h); err == nil {
		return a, true
	}
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var vals []uint64
	for _, p := range parts {
		v, err := strconv.ParseUint(p, 0, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		vals = append(vals, v)
	}
	var n uint64
	switch len(vals) {
	case 1:
		n = vals[0]
	case 2:
		n = vals[0]<<24 | vals[1]
	case 3:
		n = vals[0]<<24 | vals[1]<<16 | vals[2]
	case 4:
		n = vals[0]<<24 | vals[1]<<16 | vals[2]<<8 | vals[3]
	}
	if n > 0xffffffff {
		return netip.Addr{}, false
	}
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], uint32(n))
	return netip.AddrFrom4(b), true
}
