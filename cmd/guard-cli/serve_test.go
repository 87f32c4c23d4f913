package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startServe runs the decision API on a real listener and returns a
// client and the base URL.
func startServe(t *testing.T, addr string) (*App, *http.Client, string) {
	t.Helper()
	app := testApp(t, nil, nil)
	ln, cleanup, err := app.listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.serveOn(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		cleanup()
	})
	client := &http.Client{Timeout: 10 * time.Second}
	base := "http://" + ln.Addr().String()
	if ln.Addr().Network() == "unix" {
		path := ln.Addr().String()
		client.Transport = &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", path)
		}}
		base = "http://guard"
	}
	return app, client, base
}

func post(t *testing.T, c *http.Client, url, ctype string, body []byte, hdr ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ctype)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func decideBody(command, cwd string) []byte {
	b, _ := json.Marshal(map[string]string{"command": command, "cwd": cwd, "agent": "claude"})
	return b
}

// TestServeDecides answers like guard check --json, over loopback TCP.
func TestServeDecides(t *testing.T) {
	app, c, base := startServe(t, "127.0.0.1:0")
	cases := []struct{ command, decision, rule string }{
		{"git status", "allow", "builtin-readonly"},
		{"sudo -n true", "deny", "privilege"},
		{"npm run lint", "ask", "unknown"},
		{"rm -rf /", "deny", "rm-root"},
	}
	for _, tc := range cases {
		code, body := post(t, c, base+"/v1/decide", "application/json", decideBody(tc.command, app.Cwd))
		if code != 200 {
			t.Fatalf("%s: status %d: %s", tc.command, code, body)
		}
		var got checkJSON
		if err := json.Unmarshal([]byte(body), &got); err != nil {
			t.Fatalf("%s: %v: %s", tc.command, err, body)
		}
		if got.Decision != tc.decision || got.Rule != tc.rule || got.Command != tc.command {
			t.Errorf("%s: got %+v, want %s %s", tc.command, got, tc.decision, tc.rule)
		}
	}
	// the same bytes as guard check --json
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	app.Stdout = out
	if code := app.run([]string{"guard", "check", "--json", "--cwd", app.Cwd, "--", "sudo -n true"}); code != 0 {
		t.Fatal(code)
	}
	want, _ := os.ReadFile(out.Name())
	if _, body := post(t, c, base+"/v1/decide", "application/json", decideBody("sudo -n true", app.Cwd)); body != string(want) {
		t.Errorf("serve %q != check %q", body, want)
	}
}

// TestServeRefuses covers every way a request is turned away.
func TestServeRefuses(t *testing.T) {
	app, c, base := startServe(t, "127.0.0.1:0")
	big := decideBody(strings.Repeat("x", maxDecideBody), app.Cwd)
	cases := []struct {
		name, path, ctype string
		body              []byte
		hdr               []string
		code              int
	}{
		{"oversized", "/v1/decide", "application/json", big, nil, 413},
		{"no command", "/v1/decide", "application/json", []byte(`{"cwd":"/"}`), nil, 400},
		{"relative cwd", "/v1/decide", "application/json", decideBody("ls", "rel"), nil, 400},
		{"unknown field", "/v1/decide", "application/json", []byte(`{"command":"ls","cwd":"/","grant":"allow"}`), nil, 400},
		{"two objects", "/v1/decide", "application/json", []byte(`{"command":"ls","cwd":"/"}{}`), nil, 400},
		{"bad agent", "/v1/decide", "application/json", []byte(`{"command":"ls","cwd":"/","agent":"../x"}`), nil, 400},
		{"not json", "/v1/decide", "text/plain", decideBody("ls", "/"), nil, 415},
		{"from a web page", "/v1/decide", "application/json", decideBody("ls", "/"), []string{"Origin", "http://evil.example"}, 403},
		{"grants route", "/v1/grants", "application/json", []byte(`{"pattern":"*"}`), nil, 404},
		{"approve route", "/v1/approve", "application/json", []byte(`{"id":"1"}`), nil, 404},
	}
	for _, tc := range cases {
		code, body := post(t, c, base+tc.path, tc.ctype, tc.body, tc.hdr...)
		if code != tc.code || !strings.Contains(body, `"error"`) {
			t.Errorf("%s: status %d (want %d): %s", tc.name, code, tc.code, body)
		}
	}
	resp, err := c.Get(base + "/v1/decide")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET: %d %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	// nothing was written under guard's config: no grants through the API
	if entries, err := os.ReadDir(filepath.Join(app.Getenv("XDG_CONFIG_HOME"), "guard")); err == nil && len(entries) > 0 {
		t.Errorf("serve wrote into guard's config: %v", entries)
	}
}

// TestServeListenOnlyLocal refuses every address that is not loopback.
func TestServeListenOnlyLocal(t *testing.T) {
	app := testApp(t, nil, nil)
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "localhost:0", "192.0.2.1:80", "example.com:80", "unix:", "127.0.0.1"} {
		if ln, _, err := app.listen(addr); err == nil {
			ln.Close()
			t.Errorf("listen %q accepted", addr)
		}
	}
}

// TestServeUnixSocket serves over a 0600 Unix socket and refuses a path
// that is not a socket.
func TestServeUnixSocket(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "guard.sock")
	app, c, base := startServe(t, "unix:"+sock)
	fi, err := os.Stat(sock)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want 0600", fi.Mode().Perm())
	}
	code, body := post(t, c, base+"/v1/decide", "application/json", decideBody("sudo -n true", app.Cwd))
	if code != 200 || !strings.Contains(body, `"decision":"deny"`) {
		t.Errorf("unix: %d %s", code, body)
	}
	// a second server on the same live socket is refused
	if _, _, err := app.listen("unix:" + sock); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second listen: %v", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	if _, _, err := app.listen("unix:" + file); err == nil {
		t.Error("a regular file was replaced by a socket")
	}
}

// BenchmarkServeDecide is one decision over a kept-alive loopback
// connection, settings loaded per request (so new grants apply at once).
func BenchmarkServeDecide(b *testing.B) {
	app := testApp(b, nil, nil)
	ln, cleanup, err := app.listen("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer cleanup()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.serveOn(ctx, ln) }()
	defer func() { cancel(); <-done }()
	client := &http.Client{}
	url := "http://" + ln.Addr().String() + "/v1/decide"
	body := decideBody("git status", app.Cwd)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		resp, err := client.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatal(resp.StatusCode)
		}
	}
}
