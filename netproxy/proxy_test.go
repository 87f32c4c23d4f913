package netproxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMetadataHost(t *testing.T) {
	for _, h := range []string{
		"169.254.169.254", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "169.254.43518", "0xa9.0xfe.0xa9.0xfe",
		"::ffff:169.254.169.254", "fd00:ec2::254", "metadata.google.internal", "100.100.100.200", "169.254.170.2",
	} {
		if !MetadataHost(normHost(h)) {
			t.Errorf("MetadataHost(%q) = false", h)
		}
	}
	for _, h := range []string{"169.254.169.25", "example.com", "127.0.0.1", "10.0.0.1", "metadata.example.com", "2852039167"} {
		if MetadataHost(normHost(h)) {
			t.Errorf("MetadataHost(%q) = true", h)
		}
	}
}

func TestSplitHostPort(t *testing.T) {
	for _, tc := range []struct {
		in   string
		host string
		port int
		ok   bool
	}{
		{"example.com:443", "example.com", 443, true},
		{"Example.COM.", "example.com", 80, true},
		{"[::1]:8080", "::1", 8080, true},
		{"127.0.0.1", "127.0.0.1", 80, true},
		{"example.com:0", "", 0, false},
		{"example.com:99999", "", 0, false},
		{"example.com:x", "", 0, false},
	} {
		h, p, ok := splitHostPort(tc.in, 80)
		if h != tc.host || p != tc.port || ok != tc.ok {
			t.Errorf("splitHostPort(%q) = %q %d %v, want %q %d %v", tc.in, h, p, ok, tc.host, tc.port, tc.ok)
		}
	}
}

// start serves a Proxy that allows exactly allowed on a loopback listener
// and returns its address and what it refused.
func start(t *testing.T, allowed ...string) (addr string, stderr *syncBuffer, refused *[]string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	stderr = &syncBuffer{}
	var mu sync.Mutex
	var got []string
	p := &Proxy{
		Allowed: func(host string) (bool, string) {
			for _, a := range allowed {
				if a == host {
					return true, ""
				}
			}
			return false, "guard grants add --project '[http] " + host + "'"
		},
		Stderr: stderr,
		Refused: func(host string, port int) {
			mu.Lock()
			got = append(got, fmt.Sprintf("%s:%d", host, port))
			mu.Unlock()
		},
	}
	go p.Serve(ln)
	return ln.Addr().String(), stderr, &got
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// origin is a loopback HTTP server saying hello.
func origin(t *testing.T) (port int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello %s", r.URL.Path)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

func TestPlainHTTP(t *testing.T) {
	port := origin(t)
	addr, stderr, refused := start(t, "127.0.0.1")
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET http://127.0.0.1:%d/x HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Connection: keep-alive\r\n\r\n", port)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(body) != "hello /x" {
		t.Fatalf("got %d %q", resp.StatusCode, body)
	}
	if stderr.String() != "" || len(*refused) != 0 {
		t.Fatalf("an allowed host was refused: %q %v", stderr.String(), *refused)
	}
}

func TestConnectRefusedOnce(t *testing.T) {
	port := origin(t)
	addr, stderr, refused := start(t) // nothing allowed
	for i := 0; i < 2; i++ {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "CONNECT localhost:%d HTTP/1.1\r\nHost: x\r\n\r\n", port)
		line, _ := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if !strings.Contains(line, " 403 ") {
			t.Fatalf("CONNECT to an ungranted host answered %q", line)
		}
	}
	want := "guard: denied: network: localhost is not a granted host; to allow it: guard grants add --project '[http] localhost'\n"
	if stderr.String() != want {
		t.Errorf("stderr = %q, want one line %q", stderr.String(), want)
	}
	if len(*refused) != 1 {
		t.Errorf("refusals recorded: %v, want one", *refused)
	}
}

func TestSOCKS5(t *testing.T) {
	port := origin(t)
	for _, tc := range []struct {
		allowed []string
		reply   byte
	}{{[]string{"127.0.0.1"}, 0}, {nil, 2}} {
		addr, _, _ := start(t, tc.allowed...)
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte{5, 1, 0})
		var hello [2]byte
		io.ReadFull(c, hello[:])
		c.Write([]byte{5, 1, 0, 1, 127, 0, 0, 1, byte(port >> 8), byte(port)})
		var rep [10]byte
		if _, err := io.ReadFull(c, rep[:]); err != nil {
			t.Fatal(err)
		}
		if rep[1] != tc.reply {
			t.Fatalf("allowed %v: SOCKS reply %d, want %d", tc.allowed, rep[1], tc.reply)
		}
		if tc.reply == 0 {
			fmt.Fprintf(c, "GET /s HTTP/1.0\r\n\r\n")
			b, _ := io.ReadAll(c)
			if !bytes.Contains(b, []byte("hello /s")) {
				t.Fatalf("through SOCKS: %q", b)
			}
		}
		c.Close()
	}
}

func TestMetadataNeverDialled(t *testing.T) {
	addr, stderr, _ := start(t, "169.254.169.254") // even when "granted"
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET http://0xa9fea9fe/latest HTTP/1.1\r\nHost: x\r\n\r\n")
	line, _ := bufio.NewReader(c).ReadString('\n')
	if !strings.Contains(line, " 403 ") || !strings.Contains(stderr.String(), "cloud metadata address") {
		t.Fatalf("metadata: %q, stderr %q", line, stderr.String())
	}
}
