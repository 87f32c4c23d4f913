package webui

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// These tests check the page's guards without a browser; the browser test
// (cmd/guard-cli TestUIBrowser) checks them with real passkeys.

// noBackend answers nothing: the guards must refuse before reaching it.
type noBackend struct{}

var errNo = errors.New("not reached")

func (noBackend) Pending() ([]Request, error)              { return nil, errNo }
func (noBackend) Answer(string, Answer) error              { return errNo }
func (noBackend) Reveal(string) (string, error)            { return "", errNo }
func (noBackend) Audit(AuditFilter) ([]AuditRecord, error) { return nil, errNo }
func (noBackend) Explain(int64) (string, error)            { return "", errNo }
func (noBackend) Grants() ([]Grant, error)                 { return nil, errNo }
func (noBackend) Preview(string) (Preview, error)          { return Preview{}, errNo }
func (noBackend) AddGrant(GrantChange) error               { return errNo }
func (noBackend) RemoveGrant(GrantChange) error            { return errNo }
func (noBackend) Context() ([]ContextEntry, error)         { return nil, errNo }
func (noBackend) ContextShow(string) (string, error)       { return "", errNo }
func (noBackend) ContextClear(string) (int, error)         { return 0, errNo }
func (noBackend) Charts(int) (Charts, error)               { return Charts{}, errNo }

const testOrigin = "http://localhost:4321"

func newTestServer(t *testing.T, code string) (*Server, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := New(Config{StateDir: dir, Origin: testOrigin, Backend: noBackend{}, RegisterCode: code})
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

type client struct {
	t            *testing.T
	s            *Server
	cookie, csrf string
}

// open loads the page as a browser would, and keeps its session.
func open(t *testing.T, s *Server) *client {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Host = "localhost:4321"
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("GET /: %d", w.Code)
	}
	c := &client{t: t, s: s}
	for _, ck := range w.Result().Cookies() {
		if ck.Name == sessionCookie {
			if !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode {
				t.Errorf("session cookie %+v: want HttpOnly and SameSite=Strict", ck)
			}
			c.cookie = ck.Name + "=" + ck.Value
		}
	}
	m := regexp.MustCompile(`name="guard-csrf" content="([^"]+)"`).FindStringSubmatch(w.Body.String())
	if c.cookie == "" || m == nil {
		t.Fatal("the page set no session")
	}
	c.csrf = m[1]
	if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	return c
}

// call posts body to /api/NAME with what the page sends; change edits the
// request first.
func (c *client) call(name, body string, change func(*http.Request)) (int, string) {
	r := httptest.NewRequest(http.MethodPost, "/api/"+name, strings.NewReader(body))
	r.Host = "localhost:4321"
	r.Header.Set("Origin", testOrigin)
	r.Header.Set("Cookie", c.cookie)
	r.Header.Set(csrfHeader, c.csrf)
	r.Header.Set("Content-Type", "application/json")
	if change != nil {
		change(r)
	}
	w := httptest.NewRecorder()
	c.s.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Body)
	return w.Code, string(b)
}

func TestRequestGuards(t *testing.T) {
	s, _ := newTestServer(t, "")
	c := open(t, s)
	for _, tc := range []struct {
		name   string
		change func(*http.Request)
		want   int
		msg    string
	}{
		{"the page's own call", nil, http.StatusOK, `"registered":0`},
		{"a rebound Host", func(r *http.Request) { r.Host = "evil.example:4321" }, http.StatusMisdirectedRequest, "open http://localhost:4321"},
		{"127.0.0.1 is not the origin", func(r *http.Request) { r.Host = "127.0.0.1:4321" }, http.StatusMisdirectedRequest, ""},
		{"another Origin", func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") }, http.StatusForbidden, "cross-origin"},
		{"no Origin", func(r *http.Request) { r.Header.Del("Origin") }, http.StatusForbidden, "Origin"},
		{"a cross-site fetch", func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }, http.StatusForbidden, "cross-site"},
		{"no CSRF token", func(r *http.Request) { r.Header.Del(csrfHeader) }, http.StatusForbidden, "CSRF"},
		{"a wrong CSRF token", func(r *http.Request) { r.Header.Set(csrfHeader, "x"+c.csrf) }, http.StatusForbidden, "CSRF"},
		{"no session", func(r *http.Request) { r.Header.Del("Cookie") }, http.StatusUnauthorized, "no session"},
		{"an unknown session", func(r *http.Request) { r.Header.Set("Cookie", sessionCookie+"=forged") }, http.StatusUnauthorized, "no session"},
		{"GET", func(r *http.Request) { r.Method = http.MethodGet }, http.StatusMethodNotAllowed, ""},
	} {
		code, body := c.call("state", "{}", tc.change)
		if code != tc.want || !strings.Contains(body, tc.msg) {
			t.Errorf("%s: %d %s, want %d with %q", tc.name, code, body, tc.want, tc.msg)
		}
	}
}

func TestNothingWithoutAPasskey(t *testing.T) {
	s, dir := newTestServer(t, "")
	c := open(t, s)
	for _, tc := range []struct{ name, body, msg string }{
		{"pending", "{}", "sign in with your passkey first"},
		{"audit", "{}", "sign in with your passkey first"},
		{"challenge", `{"action":"login"}`, "no passkey is registered"},
		{"act", `{"action":"answer","target":"abcdef","params":{"kind":"once"}}`, "sign in with your passkey first"},
		{"act", `{"action":"login","params":{}}`, "this needs your passkey"},
		{"act", `{"action":"login","params":{},"credential":{"id":"x"}}`, "not a passkey assertion"},
		{"act", `{"action":"format-disk"}`, "not an action"},
		{"register/begin", `{"code":""}`, "registration is closed"},
		{"register/finish", `{"credential":{}}`, "no registration under way"},
		{"nonsense", `{}`, "no such call"},
	} {
		code, body := c.call(tc.name, tc.body, nil)
		if code < 400 || !strings.Contains(body, tc.msg) {
			t.Errorf("%s %s: %d %s, want %q", tc.name, tc.body, code, body, tc.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, PasskeysName)); err == nil {
		t.Errorf("%s was written without a registration", PasskeysName)
	}
}

func TestRegistrationCode(t *testing.T) {
	s, _ := newTestServer(t, "abcde-fghjk")
	c := open(t, s)
	if code, body := c.call("state", "{}", nil); code != 200 || !strings.Contains(body, `"can_register":true`) {
		t.Fatalf("state: %d %s", code, body)
	}
	code, body := c.call("register/begin", `{"code":"abcde-fghjk"}`, nil)
	if code != 200 || !strings.Contains(body, `"publicKey"`) || !strings.Contains(body, `"userVerification":"required"`) {
		t.Fatalf("the right code: %d %s", code, body)
	}
	// wrong codes use up the tries; then even the right one is refused
	for range maxCodeTries {
		c.call("register/begin", `{"code":"zzzzz-zzzzz"}`, nil)
	}
	if code, body := c.call("register/begin", `{"code":"abcde-fghjk"}`, nil); code != http.StatusForbidden || !strings.Contains(body, "closed") {
		t.Errorf("the right code after %d wrong ones: %d %s", maxCodeTries, code, body)
	}
}

func TestRegistrationCodeExpires(t *testing.T) {
	now := time.Now()
	s, err := New(Config{StateDir: t.TempDir(), Origin: testOrigin, Backend: noBackend{}, RegisterCode: "abcde-fghjk",
		Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	c := open(t, s)
	now = now.Add(registerWindow + time.Second)
	if code, body := c.call("register/begin", `{"code":"abcde-fghjk"}`, nil); code != http.StatusForbidden {
		t.Errorf("an expired code: %d %s", code, body)
	}
}

func TestNewRefusesAnOrigin(t *testing.T) {
	for _, o := range []string{"", "localhost:1", "https://localhost:1", "http://localhost:1/x"} {
		if _, err := New(Config{StateDir: t.TempDir(), Origin: o, Backend: noBackend{}}); err == nil {
			t.Errorf("New accepted origin %q", o)
		}
	}
}

func TestDamagedPasskeys(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, PasskeysName), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{StateDir: dir, Origin: testOrigin, Backend: noBackend{}}); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a damaged passkeys file: %v", err)
	}
}

// A flood of new sessions evicts those no passkey signed in, not the
// human's.
func TestSessionFloodKeepsTheSignedIn(t *testing.T) {
	s, _ := newTestServer(t, "")
	human := open(t, s)
	s.mu.Lock()
	for _, ss := range s.sessions {
		ss.authed = true // as after a passkey sign-in
	}
	s.mu.Unlock()
	for range 3 * maxSessions {
		open(t, s)
	}
	if code, body := human.call("state", "{}", nil); code != 200 || !strings.Contains(body, `"signed_in":true`) {
		t.Errorf("the signed-in session after a flood: %d %s", code, body)
	}
}
