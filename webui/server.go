package webui

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
)

//go:embed assets
var assets embed.FS

// Limits of the page's protocol.
const (
	sessionTTL     = 8 * time.Hour    // a session's whole life
	challengeTTL   = 2 * time.Minute  // an assertion's, from its challenge
	maxBody        = 256 << 10        // bytes of a request body
	maxChallenges  = 32               // open challenges per session
	maxSessions    = 64               // sessions at once; the oldest goes
	maxCodeTries   = 5                // wrong registration codes before the code is void
	sessionCookie  = "guard_ui"       // the session cookie's name
	csrfHeader     = "X-Guard-CSRF"   // the header that carries the CSRF token
	registerWindow = 10 * time.Minute // how long a registration code lasts
)

// Config is what a Server needs.
type Config struct {
	// StateDir is guard's state directory: passkeys.json lives there.
	StateDir string
	// Origin is the page's origin, http://localhost:PORT: the only Host
	// and Origin the server answers.
	Origin  string
	Backend Backend
	Now     func() time.Time
	// RegisterCode, when not "", lets the first passkey be registered
	// with it until RegisterCode's time is up (registerWindow). guard ui
	// sets it only when it shows the code on a human's terminal.
	RegisterCode string
	// Log gets one line per refused or failed request (no secrets).
	Log io.Writer
}

// Server is the web console's HTTP handler.
type Server struct {
	cfg      Config
	host     string
	wa       *webauthn.WebAuthn
	keys     *passkeys
	page     *template.Template
	static   fs.FS
	codeTill time.Time

	mu        sync.Mutex
	sessions  map[string]*session
	codeTries int
	codeUsed  bool
}

// session is one browser's: its CSRF token, whether a passkey signed it
// in, the challenges it was given and not yet used, and a registration
// under way.
type session struct {
	csrf       string
	created    time.Time
	authed     bool
	challenges map[string]challenge
	reg        *webauthn.SessionData
	regTill    time.Time
}

// challenge is one assertion the server asked for: for this action, on
// this target, with these parameters (their digest), until expires.
type challenge struct {
	action, target string
	params         [32]byte
	data           webauthn.SessionData
	expires        time.Time
}

// New makes the server. It reads passkeys.json once.
func New(cfg Config) (*Server, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	host, ok := strings.CutPrefix(cfg.Origin, "http://")
	if !ok || host == "" || strings.ContainsAny(host, "/?#") {
		return nil, fmt.Errorf("web console origin %q: want http://localhost:PORT", cfg.Origin)
	}
	rpID := host
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		rpID = host[:i]
	}
	wa, err := webauthn.New(&webauthn.Config{
		RPID:          rpID,
		RPDisplayName: "guard",
		RPOrigins:     []string{cfg.Origin},
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:      protocol.ResidentKeyRequirementPreferred,
			UserVerification: protocol.VerificationRequired,
		},
	})
	if err != nil {
		return nil, fmt.Errorf("web console: %w", err)
	}
	keys, err := loadPasskeys(cfg.StateDir)
	if err != nil {
		return nil, err
	}
	page, err := template.ParseFS(assets, "assets/index.html")
	if err != nil {
		return nil, fmt.Errorf("web console page: %w", err)
	}
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, host: host, wa: wa, keys: keys, page: page, static: static,
		sessions: map[string]*session{}}
	if cfg.RegisterCode != "" {
		s.codeTill = cfg.Now().Add(registerWindow)
	}
	return s, nil
}

// Registered reports how many passkeys this install has.
func (s *Server) Registered() int { return s.keys.count() }

// apiError is a refusal the page shows: status and one line.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func refuse(status int, format string, args ...any) error {
	return &apiError{status, fmt.Sprintf(format, args...)}
}

// ServeHTTP checks what every request must pass, then routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	// DNS rebinding: a page on evil.example that resolves to 127.0.0.1
	// sends its own Host.
	if r.Host != s.host {
		s.fail(w, r, refuse(http.StatusMisdirectedRequest, "this is guard's web console; open %s", s.cfg.Origin))
		return
	}
	if o := r.Header.Get("Origin"); o != "" && o != s.cfg.Origin {
		s.fail(w, r, refuse(http.StatusForbidden, "cross-origin request refused"))
		return
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		s.fail(w, r, refuse(http.StatusForbidden, "cross-site request refused"))
		return
	}
	switch {
	case r.URL.Path == "/":
		s.index(w, r)
	case strings.HasPrefix(r.URL.Path, "/static/"):
		s.asset(w, r, strings.TrimPrefix(r.URL.Path, "/static/"))
	case strings.HasPrefix(r.URL.Path, "/api/"):
		s.api(w, r, strings.TrimPrefix(r.URL.Path, "/api/"))
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{http.StatusInternalServerError, err.Error()}
	}
	fmt.Fprintf(s.cfg.Log, "guard ui: %s %s: %d %s\n", r.Method, strconv.Quote(r.URL.Path), ae.status, oneLine(ae.msg))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(ae.status)
	json.NewEncoder(w).Encode(map[string]string{"error": ae.msg})
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		s.fail(w, r, refuse(http.StatusMethodNotAllowed, "GET only"))
		return
	}
	sess := s.sessionOf(r)
	if sess == nil {
		sess = s.newSession(w)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	s.page.Execute(w, map[string]string{"CSRF": sess.csrf})
}

func (s *Server) asset(w http.ResponseWriter, r *http.Request, name string) {
	types := map[string]string{"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
	ct, ok := types[name]
	if !ok || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(s.static, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Write(b)
}

func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error()) // Go's crypto/rand does not fail on Linux
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func (s *Server) newSession(w http.ResponseWriter) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	for id, ss := range s.sessions {
		if now.Sub(ss.created) > sessionTTL {
			delete(s.sessions, id)
		}
	}
	if len(s.sessions) >= maxSessions {
		// The oldest goes, one no passkey signed in first: a flood of new
		// sessions from a local process must not sign the human out.
		var oldest string
		older := func(a, b *session) bool {
			if a.authed != b.authed {
				return !a.authed
			}
			return a.created.Before(b.created)
		}
		for id, ss := range s.sessions {
			if oldest == "" || older(ss, s.sessions[oldest]) {
				oldest = id
			}
		}
		delete(s.sessions, oldest)
	}
	id := randomToken()
	ss := &session{csrf: randomToken(), created: now, challenges: map[string]challenge{}}
	s.sessions[id] = ss
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, MaxAge: int(sessionTTL / time.Second)})
	return ss
}

// sessionOf returns the request's live session, or nil.
func (s *Server) sessionOf(r *http.Request) *session {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[c.Value]
	if ss == nil {
		return nil
	}
	if s.cfg.Now().Sub(ss.created) > sessionTTL {
		delete(s.sessions, c.Value)
		return nil
	}
	return ss
}

// api checks the session and the CSRF token, then answers one call.
func (s *Server) api(w http.ResponseWriter, r *http.Request, name string) {
	sess := s.sessionOf(r)
	if sess == nil {
		s.fail(w, r, refuse(http.StatusUnauthorized, "no session, or it expired: reload the page"))
		return
	}
	if subtle.ConstantTimeCompare([]byte(r.Header.Get(csrfHeader)), []byte(sess.csrf)) != 1 {
		s.fail(w, r, refuse(http.StatusForbidden, "missing or wrong CSRF token: reload the page"))
		return
	}
	if r.Method != http.MethodPost {
		s.fail(w, r, refuse(http.StatusMethodNotAllowed, "POST only"))
		return
	}
	if r.Header.Get("Origin") != s.cfg.Origin {
		s.fail(w, r, refuse(http.StatusForbidden, "a request without this page's Origin is refused"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		s.fail(w, r, refuse(http.StatusRequestEntityTooLarge, "request too large"))
		return
	}
	out, err := s.call(sess, name, body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	enc.Encode(out)
}

// reads are the calls a signed-in session may make without an assertion:
// they change nothing.
var reads = map[string]bool{
	"pending": true, "audit": true, "explain": true, "grants": true, "preview": true,
	"context": true, "context-show": true, "charts": true, "passkeys": true,
}

func (s *Server) call(sess *session, name string, body []byte) (any, error) {
	switch name {
	case "state":
		s.mu.Lock()
		defer s.mu.Unlock()
		return map[string]any{"registered": s.keys.count(), "signed_in": sess.authed,
			"can_register": s.keys.count() == 0 && s.codeOpen()}, nil
	case "challenge":
		return s.challenge(sess, body)
	case "act":
		return s.act(sess, body)
	case "register/begin":
		return s.registerBegin(sess, body)
	case "register/finish":
		return s.registerFinish(sess, body)
	}
	if !reads[name] {
		return nil, refuse(http.StatusNotFound, "no such call")
	}
	s.mu.Lock()
	authed := sess.authed
	s.mu.Unlock()
	if !authed {
		return nil, refuse(http.StatusUnauthorized, "sign in with your passkey first")
	}
	return s.read(name, body)
}

// codeOpen reports whether the registration code may still be used; s.mu
// is held.
func (s *Server) codeOpen() bool {
	return s.cfg.RegisterCode != "" && !s.codeUsed && s.codeTries < maxCodeTries && s.cfg.Now().Before(s.codeTill)
}

// actionReq is a call to /api/challenge or /api/act: the action, its
// target, its parameters, and (for act) the assertion.
type actionReq struct {
	Action     string          `json:"action"`
	Target     string          `json:"target"`
	Params     json.RawMessage `json:"params"`
	Credential json.RawMessage `json:"credential"`
}

// actions are what an assertion may be asked for.
var actions = map[string]bool{
	"login": true, "answer": true, "reveal": true, "grant-add": true, "grant-rm": true,
	"context-clear": true, "passkey-add": true, "passkey-rm": true,
}

// paramsDigest is the digest of a call's parameters, compacted, so that
// an assertion for one answer cannot carry another.
func paramsDigest(p json.RawMessage) [32]byte {
	var b bytes.Buffer
	if len(p) > 0 && json.Compact(&b, p) != nil {
		b.Reset()
		b.WriteString("invalid")
	}
	return sha256.Sum256(b.Bytes())
}

// challenge starts an assertion for one action on one target: the options
// navigator.credentials.get needs, with a challenge good once, for two
// minutes, for exactly this call.
func (s *Server) challenge(sess *session, body []byte) (any, error) {
	var req actionReq
	if err := json.Unmarshal(body, &req); err != nil || !actions[req.Action] {
		return nil, refuse(http.StatusBadRequest, "not an action")
	}
	u := s.keys.user()
	if len(u.creds) == 0 {
		return nil, refuse(http.StatusForbidden, "no passkey is registered yet")
	}
	s.mu.Lock()
	authed := sess.authed
	s.mu.Unlock()
	if req.Action != "login" && !authed {
		return nil, refuse(http.StatusUnauthorized, "sign in with your passkey first")
	}
	opts, data, err := s.wa.BeginLogin(u, webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return nil, fmt.Errorf("start an assertion: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	for k, c := range sess.challenges {
		if now.After(c.expires) {
			delete(sess.challenges, k)
		}
	}
	if len(sess.challenges) >= maxChallenges {
		return nil, refuse(http.StatusTooManyRequests, "too many open challenges; finish or reload")
	}
	sess.challenges[data.Challenge] = challenge{action: req.Action, target: req.Target,
		params: paramsDigest(req.Params), data: *data, expires: now.Add(challengeTTL)}
	return opts, nil
}

// verify checks an assertion made for exactly this call in this session
// and uses up its challenge.
func (s *Server) verify(sess *session, req actionReq) error {
	if len(req.Credential) == 0 {
		return refuse(http.StatusUnauthorized, "this needs your passkey")
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(req.Credential)
	if err != nil {
		return refuse(http.StatusUnauthorized, "not a passkey assertion")
	}
	s.mu.Lock()
	ch, ok := sess.challenges[parsed.Response.CollectedClientData.Challenge]
	delete(sess.challenges, parsed.Response.CollectedClientData.Challenge)
	s.mu.Unlock()
	switch {
	case !ok:
		return refuse(http.StatusUnauthorized, "the passkey signed a challenge this session was not given")
	case s.cfg.Now().After(ch.expires):
		return refuse(http.StatusUnauthorized, "the passkey's challenge expired: try again")
	case ch.action != req.Action || ch.target != req.Target || ch.params != paramsDigest(req.Params):
		return refuse(http.StatusUnauthorized, "the passkey signed for another action")
	}
	cred, err := s.wa.ValidateLogin(s.keys.user(), ch.data, parsed)
	if err != nil {
		return refuse(http.StatusUnauthorized, "passkey refused: %s", protocolWhy(err))
	}
	if !cred.Flags.UserVerified {
		return refuse(http.StatusUnauthorized, "passkey refused: the authenticator did not verify the user")
	}
	if cred.Authenticator.CloneWarning {
		return refuse(http.StatusUnauthorized, "passkey refused: its signature counter went back (a cloned authenticator?)")
	}
	s.keys.used(cred)
	return nil
}

func protocolWhy(err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		return pe.Details
	}
	return err.Error()
}

// act runs one state-changing action after its assertion.
func (s *Server) act(sess *session, body []byte) (any, error) {
	var req actionReq
	if err := json.Unmarshal(body, &req); err != nil || !actions[req.Action] {
		return nil, refuse(http.StatusBadRequest, "not an action")
	}
	s.mu.Lock()
	authed := sess.authed
	s.mu.Unlock()
	if req.Action != "login" && !authed {
		return nil, refuse(http.StatusUnauthorized, "sign in with your passkey first")
	}
	if err := s.verify(sess, req); err != nil {
		return nil, err
	}
	b := s.cfg.Backend
	switch req.Action {
	case "login":
		s.mu.Lock()
		sess.authed = true
		s.mu.Unlock()
		return map[string]bool{"signed_in": true}, nil
	case "answer":
		var a Answer
		if err := json.Unmarshal(req.Params, &a); err != nil {
			return nil, refuse(http.StatusBadRequest, "not an answer")
		}
		if err := b.Answer(req.Target, a); err != nil {
			return nil, refuse(http.StatusConflict, "%s", err.Error())
		}
		return map[string]string{"answered": req.Target}, nil
	case "reveal":
		text, err := b.Reveal(req.Target)
		if err != nil {
			return nil, refuse(http.StatusConflict, "%s", err.Error())
		}
		return map[string]string{"text": text}, nil
	case "grant-add", "grant-rm":
		var g GrantChange
		if err := json.Unmarshal(req.Params, &g); err != nil {
			return nil, refuse(http.StatusBadRequest, "not a grant")
		}
		do := b.AddGrant
		if req.Action == "grant-rm" {
			do = b.RemoveGrant
		}
		if err := do(g); err != nil {
			return nil, refuse(http.StatusConflict, "%s", err.Error())
		}
		return map[string]string{"done": req.Action}, nil
	case "context-clear":
		n, err := b.ContextClear(req.Target)
		if err != nil {
			return nil, refuse(http.StatusConflict, "%s", err.Error())
		}
		return map[string]int{"cleared": n}, nil
	case "passkey-add":
		return s.beginRegistration(sess)
	case "passkey-rm":
		id, err := base64.RawURLEncoding.DecodeString(req.Target)
		if err != nil {
			return nil, refuse(http.StatusBadRequest, "not a passkey id")
		}
		if err := s.keys.remove(id); err != nil {
			return nil, refuse(http.StatusConflict, "%s", err.Error())
		}
		return map[string]string{"removed": req.Target}, nil
	}
	return nil, refuse(http.StatusBadRequest, "not an action")
}

// registerBegin starts the first passkey's registration, with the code
// guard ui showed on the human's terminal. Later passkeys start with the
// passkey-add action instead, which needs an assertion.
func (s *Server) registerBegin(sess *session, body []byte) (any, error) {
	var req struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, refuse(http.StatusBadRequest, "not a registration")
	}
	if s.keys.count() > 0 {
		return nil, refuse(http.StatusForbidden, "a passkey is registered: adding another needs it (Passkeys, add)")
	}
	s.mu.Lock()
	open := s.codeOpen()
	if open {
		s.codeTries++
	}
	s.mu.Unlock()
	if !open {
		return nil, refuse(http.StatusForbidden, "registration is closed: run guard ui in a terminal of your own (a human's, as for guard approve) to get a one-time code")
	}
	if subtle.ConstantTimeCompare([]byte(strings.TrimSpace(req.Code)), []byte(s.cfg.RegisterCode)) != 1 {
		return nil, refuse(http.StatusForbidden, "wrong registration code")
	}
	return s.beginRegistration(sess)
}

func (s *Server) beginRegistration(sess *session) (any, error) {
	u := s.keys.user()
	var exclude []protocol.CredentialDescriptor
	for _, c := range u.creds {
		exclude = append(exclude, c.Descriptor())
	}
	opts, data, err := s.wa.BeginRegistration(u,
		webauthn.WithExclusions(exclude),
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementPreferred, UserVerification: protocol.VerificationRequired}))
	if err != nil {
		return nil, fmt.Errorf("start a registration: %w", err)
	}
	s.mu.Lock()
	sess.reg, sess.regTill = data, s.cfg.Now().Add(challengeTTL)
	s.mu.Unlock()
	return opts, nil
}

// registerFinish stores the passkey the browser made for the registration
// this session began.
func (s *Server) registerFinish(sess *session, body []byte) (any, error) {
	var req struct {
		Name       string          `json:"name"`
		Credential json.RawMessage `json:"credential"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, refuse(http.StatusBadRequest, "not a registration")
	}
	s.mu.Lock()
	data, till := sess.reg, sess.regTill
	sess.reg = nil
	s.mu.Unlock()
	if data == nil || s.cfg.Now().After(till) {
		return nil, refuse(http.StatusForbidden, "no registration under way in this session, or it expired")
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(req.Credential)
	if err != nil {
		return nil, refuse(http.StatusBadRequest, "not a passkey")
	}
	cred, err := s.wa.CreateCredential(s.keys.user(), *data, parsed)
	if err != nil {
		return nil, refuse(http.StatusUnauthorized, "passkey refused: %s", protocolWhy(err))
	}
	if !cred.Flags.UserVerified {
		return nil, refuse(http.StatusUnauthorized, "passkey refused: the authenticator did not verify the user")
	}
	name := oneLine(req.Name)
	if name == "" || len(name) > 64 {
		name = "passkey " + s.cfg.Now().Format("2006-01-02 15:04")
	}
	s.mu.Lock()
	first := s.keys.count() == 0
	if first && !s.codeOpen() {
		s.mu.Unlock()
		return nil, refuse(http.StatusForbidden, "registration is closed")
	}
	if first {
		s.codeUsed = true
	}
	s.mu.Unlock()
	if err := s.keys.add(name, *cred, s.cfg.Now()); err != nil {
		return nil, err
	}
	s.mu.Lock()
	sess.authed = true
	s.mu.Unlock()
	return map[string]any{"registered": s.keys.count()}, nil
}

// read answers a call that only reads.
func (s *Server) read(name string, body []byte) (any, error) {
	b := s.cfg.Backend
	var arg struct {
		ID      string      `json:"id"`
		Num     int64       `json:"num"`
		Pattern string      `json:"pattern"`
		Days    int         `json:"days"`
		Filter  AuditFilter `json:"filter"`
	}
	if len(body) > 0 {
		if err := json.Unmarshal(body, &arg); err != nil {
			return nil, refuse(http.StatusBadRequest, "bad request")
		}
	}
	wrap := func(v any, err error) (any, error) {
		if err != nil {
			return nil, refuse(http.StatusConflict, "%s", err.Error())
		}
		return v, nil
	}
	switch name {
	case "pending":
		list, err := b.Pending()
		if list == nil {
			list = []Request{}
		}
		return wrap(list, err)
	case "audit":
		list, err := b.Audit(arg.Filter)
		if list == nil {
			list = []AuditRecord{}
		}
		return wrap(list, err)
	case "explain":
		text, err := b.Explain(arg.Num)
		return wrap(map[string]string{"trace": text}, err)
	case "grants":
		list, err := b.Grants()
		if list == nil {
			list = []Grant{}
		}
		return wrap(list, err)
	case "preview":
		return wrap(b.Preview(arg.Pattern))
	case "context":
		list, err := b.Context()
		if list == nil {
			list = []ContextEntry{}
		}
		return wrap(list, err)
	case "context-show":
		text, err := b.ContextShow(arg.ID)
		return wrap(map[string]string{"output": text}, err)
	case "charts":
		days := arg.Days
		if days <= 0 || days > 90 {
			days = 14
		}
		return wrap(b.Charts(days))
	case "passkeys":
		var out []map[string]any
		for _, p := range s.keys.list() {
			out = append(out, map[string]any{"name": p.Name, "added": p.Added,
				"id": base64.RawURLEncoding.EncodeToString(p.Cred.ID)})
		}
		return out, nil
	}
	return nil, refuse(http.StatusNotFound, "no such call")
}
