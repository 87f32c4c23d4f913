package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/shim"
	"github.com/guard-dev/guard/webui"
)

// The web console's side in guard-cli: the command, and the Backend that
// gives package webui the CLI's own stores.
const (
	// uiAuditScan bounds the records the grant preview and the charts read.
	uiAuditScan = 5000
	// uiExamples is how many covered commands a preview names.
	uiExamples = 8
)

func (a *App) uiCommand() *cli.Command {
	return &cli.Command{
		Name:  "ui",
		Usage: "serve the web console: approvals with a passkey, audit, grants, context (loopback only)",
		UsageText: `guard ui [--listen 127.0.0.1:PORT]

Serves the web console on the loopback address and prints its URL
(http://localhost:PORT/). The page lists the requests that wait for
approval, the audit, the grants with a preview of what a new one would
have allowed, the context store and charts of the decisions.

Every change on the page needs a passkey (WebAuthn, with user
verification). The first passkey is registered with a one-time code that
guard ui prints only on a terminal guard judges a human's (as for guard
approve); adding or removing one needs a passkey already registered.
Run it in a terminal of your own: there, while it runs, commands that need
approval also wait for your answer on the page, as with guard watch.

For a remote machine, forward the port: ssh -L PORT:127.0.0.1:PORT host

example:
   guard ui
   guard ui --listen 127.0.0.1:8765`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:0", Usage: "`ADDR`: 127.0.0.1:PORT or [::1]:PORT (port 0 picks one)"},
		},
		Action: a.ui,
	}
}

// uiListen opens ADDR, which must be 127.0.0.1 or ::1: the page's origin
// is http://localhost:PORT, which a browser resolves to those.
func uiListen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, usageError("--listen %q: want 127.0.0.1:PORT", addr)
	}
	if ip := net.ParseIP(host); ip == nil || !(ip.Equal(net.IPv4(127, 0, 0, 1)) || ip.Equal(net.IPv6loopback)) {
		return nil, &cliError{code: exitUsage, kind: "error",
			msg:  fmt.Sprintf("--listen %s: the web console listens only on 127.0.0.1 or ::1", addr),
			hint: "use --listen 127.0.0.1:PORT; for another machine, forward the port: ssh -L PORT:127.0.0.1:PORT host"}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, failure(err, "")
	}
	return ln, nil
}

func (a *App) ui(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("ui takes no arguments")
	}
	if err := a.refuseInsideGuard("ui"); err != nil {
		return err
	}
	ln, err := uiListen(c.String("listen"))
	if err != nil {
		return err
	}
	defer ln.Close()
	origin := "http://localhost:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	paths := a.paths()
	store := a.openStore()
	defer store.Close()
	b := &uiBackend{a: a, store: store, paths: paths, held: map[string]*watchItem{}}

	// On a human's terminal guard ui may show the registration code, and
	// may be the approval console that commands wait on.
	tty, ttyErr := a.humanTTY()
	if tty != nil {
		defer tty.Close()
		if cln, unlock, err := listenConsole(paths.StateDir); err == nil {
			defer unlock()
			defer cln.Close()
			reqs := make(chan *watchItem)
			go acceptRequests(cln, reqs)
			go b.hold(reqs)
		} else {
			a.diag("note", "commands will not wait for the page: "+err.Error())
		}
	}
	cfg := webui.Config{StateDir: paths.StateDir, Origin: origin, Backend: b, Now: a.Now, Log: a.Stderr}
	srv, err := webui.New(cfg)
	if err != nil {
		return failure(err, "")
	}
	switch {
	case srv.Registered() == 0 && tty == nil:
		// The page says registration is closed; nothing on it works.
		a.diag("warning", "no passkey is registered, and guard ui shows the one-time code only on a human's terminal; this one "+ttyErr.Error())
		a.diag("hint", a.humanHint("run guard ui yourself, in a terminal of your own, outside the agent, to register the first passkey", ttyErr))
	case tty == nil:
		a.diag("note", "commands that need approval will not wait for the page: this terminal "+ttyErr.Error()+
			"; answer their requests on the page, and the agent's retry runs")
	case srv.Registered() == 0:
		code, err := registrationCode()
		if err != nil {
			return failure(err, "")
		}
		cfg.RegisterCode = code
		if srv, err = webui.New(cfg); err != nil {
			return failure(err, "")
		}
		fmt.Fprintf(tty, "guard ui: no passkey yet; register one on the page with the code %s (valid 10 minutes, once)\r\n", code)
	}
	url := origin + "/"
	fmt.Fprintf(a.Stdout, "guard ui: %s\n", url)
	urlFile := filepath.Join(paths.StateDir, shim.UIURLName)
	if err := grants.WriteAtomic(urlFile, []byte(url+"\n"), 0o600); err == nil {
		defer os.Remove(urlFile)
	}

	hs := &http.Server{Handler: srv, ReadHeaderTimeout: serveReadTimeout, ReadTimeout: serveReadTimeout,
		WriteTimeout: serveWriteTimeout, IdleTimeout: serveIdleTimeout}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		b.release()
		return nil
	case err := <-done:
		b.release()
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return failure(err, "")
	}
}

// registrationCode is a one-time code a human reads off the terminal and
// types into the page: 10 characters, about 50 bits.
func registrationCode() (string, error) {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make registration code: %w", err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:5]) + "-" + string(b[5:]), nil
}

// uiBackend is webui's Backend: the CLI's stores.
type uiBackend struct {
	a     *App
	store *ccs.Store
	paths grants.Paths

	mu   sync.Mutex
	held map[string]*watchItem // requests whose guard waits on our console socket
}

// hold keeps every request a guard sends to the console until it is
// answered or the guard stops waiting.
func (b *uiBackend) hold(reqs <-chan *watchItem) {
	for it := range reqs {
		b.mu.Lock()
		if old := b.held[it.req.ID]; old != nil {
			old.conn.Close()
		}
		b.held[it.req.ID] = it
		b.mu.Unlock()
		go func() {
			<-it.gone
			b.mu.Lock()
			if b.held[it.req.ID] == it {
				delete(b.held, it.req.ID)
			}
			b.mu.Unlock()
			it.conn.Close()
		}()
	}
}

// release lets every waiting guard go: they fall back to needing approval.
func (b *uiBackend) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, it := range b.held {
		it.conn.Close()
		delete(b.held, id)
	}
}

func (b *uiBackend) heldItem(id string) *watchItem {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held[id]
}

// judge decides text as guard -c would in cwd for agent, with the settings
// as they are now.
func (b *uiBackend) judge(text, cwd, agent string) (grants.Verdict, *classify.Analysis) {
	a := b.a
	an := classify.Analyze(text, classify.Options{Cwd: cwd, Home: a.Getenv("HOME"), Protected: a.protected(b.paths),
		EnvNames: shim.KnownEnv(a.Environ, nil)})
	s := grants.Load(b.paths, cwd).As(agent)
	return grants.DecideWith(an, s, shim.Facts(an, s, a.Getenv("HOME"))), an
}

func (b *uiBackend) Pending() ([]webui.Request, error) {
	list, err := b.store.ListPendingAt(b.a.Now(), b.a.pendingTTL())
	if err != nil {
		return nil, err
	}
	red := b.a.redactor()
	var out []webui.Request
	for _, p := range list {
		r := webui.Request{ID: p.ID, Time: p.Time, Command: p.Command, Cwd: p.Cwd, Project: p.Root, Suggest: p.Suggest}
		text, cwd := p.Command, p.Cwd
		if it := b.heldItem(p.ID); it != nil && b.matches(p, it.req) {
			text, cwd = it.req.Text, it.req.Cwd
			r.Agent, r.Waiting, r.Revealed = red.String(it.req.Agent), true, true
		} else if p.Pid > 0 {
			r.Waiting = true // in guard watch, elsewhere
		}
		v, _ := b.judge(text, cwd, r.Agent)
		r.Risk, r.Rule, r.Reason, r.OnceOnly = string(v.Risk), red.String(v.Rule), red.String(v.Reason), v.OnceOnly
		if r.Suggest == "" {
			r.OnceOnly = true
		}
		out = append(out, r)
	}
	return out, nil
}

// matches reports whether the request a guard sent is the stored request
// p: the same text (keyed hash) in the same directory. The console does
// not take a guard's word for the ID.
func (b *uiBackend) matches(p ccs.Pending, req shim.ConsoleRequest) bool {
	sum, err := b.store.Sum(req.Text)
	if err != nil || p.HMAC != sum {
		return false
	}
	cwdSum, err := b.store.SumCwd(req.Cwd)
	return err == nil && p.CwdHMAC == cwdSum
}

func (b *uiBackend) Reveal(id string) (string, error) {
	p, err := b.store.GetPending(id)
	if err != nil {
		return "", err
	}
	it := b.heldItem(id)
	if it == nil || !b.matches(p, it.req) {
		return "", errors.New("the full text is not kept on disk; guard ui has it only while its command waits here")
	}
	return it.req.Text, nil
}

// Answer answers request id as guard approve, guard reject or guard watch
// would, and tells the guard that waits for it, if it waits here.
func (b *uiBackend) Answer(id string, ans webui.Answer) error {
	a := b.a
	p, err := b.store.GetPending(id)
	if err != nil {
		return err
	}
	if p.Status != ccs.StatusPending {
		return fmt.Errorf("request %s is already %s", id, p.Status)
	}
	if p.Expired(a.Now(), a.pendingTTL()) || p.Abandoned() {
		return fmt.Errorf("request %s expired, or its command is gone", id)
	}
	it := b.heldItem(id)
	if it != nil && !b.matches(p, it.req) {
		it = nil
	}
	// Judged again, as guard watch does: settings may have changed since
	// the command asked. (Without the waiting guard's text, the redacted
	// one stands in.)
	text, cwd, agent := p.Command, p.Cwd, ""
	if it != nil {
		text, cwd, agent = it.req.Text, it.req.Cwd, it.req.Agent
	}
	v, _ := b.judge(text, cwd, agent)
	if ans.Kind != webui.AnswerDeny && v.Decision == grants.Deny {
		return fmt.Errorf("guard now denies this command (%s): it cannot be allowed", oneLine(a.redactor().String(v.Rule)))
	}
	if (ans.Kind == webui.AnswerProject || ans.Kind == webui.AnswerGlobal) && v.OnceOnly {
		return fmt.Errorf("request %s can only be allowed once (%s)", id, onceOnlyWhy(v.Rule))
	}
	reply := func(answer, msg string) {
		if it == nil {
			return
		}
		data, _ := json.Marshal(shim.ConsoleAnswer{Answer: answer, Message: msg, Where: "ui"})
		it.conn.SetWriteDeadline(time.Now().Add(watchWriteAnswer))
		it.conn.Write(append(data, '\n'))
		it.conn.Close()
	}
	switch ans.Kind {
	case webui.AnswerDeny:
		if err := b.store.ResolveWith(id, ccs.StatusRejected, ans.Message, a.Now()); err != nil {
			return err
		}
		a.recordUI(b.store, "deny", "reject", ccs.AnswerDeny, p.HMAC)
		msg := ""
		if q, err := b.store.GetPending(id); err == nil {
			msg = q.Message // as stored: redacted
		}
		reply(ccs.AnswerDeny, msg)
		return nil
	case webui.AnswerOnce:
		status := ccs.StatusApprovedOnce
		if it != nil {
			status = ccs.StatusUsed // the waiting guard runs it now
		}
		if err := b.store.Resolve(id, status, a.Now()); err != nil {
			return err
		}
		a.recordUI(b.store, "allow", "approve-once", ccs.AnswerOnce, p.HMAC)
		reply(ccs.AnswerOnce, "")
		return nil
	case webui.AnswerProject, webui.AnswerGlobal:
	default:
		return fmt.Errorf("%q is not an answer", ans.Kind)
	}
	if p.Suggest == "" {
		return fmt.Errorf("request %s has no pattern to store (a composite command): allow it once", id)
	}
	pattern := strings.TrimSpace(ans.Pattern)
	if pattern == "" {
		pattern = p.Suggest
	}
	if err := grants.ValidatePattern(grants.Allow, pattern); err != nil {
		return err
	}
	root := p.Root
	if it != nil {
		root = grants.ProjectRoot(it.req.Cwd)
	}
	pv, err := a.grantPreview(b.store, pattern, root)
	if err != nil {
		return err
	}
	if pv.Refused != "" {
		return errors.New(pv.Refused)
	}
	var until time.Time
	if ans.For != "" {
		d, err := parseAge(ans.For)
		if err != nil {
			return fmt.Errorf("for: %w", err)
		}
		until = a.Now().Add(d)
	}
	file, status, name := b.paths.ProjectGrants(root), ccs.StatusApprovedProject, ccs.AnswerProject
	if ans.Kind == webui.AnswerGlobal {
		file, status, name = b.paths.GlobalGrants(), ccs.StatusApprovedGlobal, ccs.AnswerGlobal
	}
	if pattern != p.Suggest {
		name = ccs.AnswerEdited
	}
	if err := grants.AddRuleUntil(file, grants.Allow, pattern, until); err != nil {
		return err
	}
	if status == ccs.StatusApprovedProject {
		_ = grants.RecordRoot(b.paths, root) // names the folder in guard grants list
	}
	if err := b.store.Resolve(id, status, a.Now()); err != nil {
		return err
	}
	a.recordUI(b.store, "allow", status, name, p.HMAC)
	reply(name, "")
	return nil
}

// recordUI writes the audit record of an answer given on the page.
func (a *App) recordUI(store *ccs.Store, decision, rule, answer, sum string) {
	rec := ccs.Record{Time: a.Now(), Agent: "human", Cwd: a.Cwd, Command: "guard ui", HMAC: sum,
		Decision: decision, Rule: rule, Answer: answer, Via: ccs.ViaUI, Mode: "cli"}
	if err := store.Append(rec); err != nil {
		a.diag("warning", "audit not written: "+err.Error())
	}
}

// grantPreview tells what an allow pattern would have covered among the
// audit's past commands (the newest uiAuditScan): how many records, some
// of their texts, and, when one of them is a command the built-in
// denylist refuses, why the pattern must not be saved. guard grants add
// and the web console both call it. root, when not "", is the project
// the grant is for: only records in it count.
func (a *App) grantPreview(store *ccs.Store, pattern, root string) (webui.Preview, error) {
	pv := webui.Preview{Pattern: pattern, Examples: []string{}}
	if _, _, tier := grants.ParseTierGrant(pattern); tier {
		pv.Note = "a [write], [http] or [packages] grant: no past command to compare"
		return pv, nil
	}
	recs, err := store.Audit(ccs.Query{Limit: uiAuditScan})
	if err != nil {
		return pv, err
	}
	red := a.redactor()
	if root != "" {
		root = red.String(root) // stored redacted
	}
	type seen struct{ covered, denied bool }
	memo := map[string]seen{}
	home := a.Getenv("HOME")
	for _, r := range recs {
		if r.Mode == "cli" || r.Mode == "check" {
			continue // guard's own verbs, and commands only checked
		}
		if root != "" && r.Cwd != root && !strings.HasPrefix(r.Cwd, root+"/") {
			continue
		}
		s, ok := memo[r.Command]
		if !ok {
			an := classify.Analyze(r.Command, classify.Options{Cwd: r.Cwd, Home: home})
			for _, c := range an.Commands {
				if grants.Covers(pattern, c.Args) {
					s.covered = true
				}
			}
			s.denied = s.covered && len(an.Deny) > 0
			memo[r.Command] = s
		}
		if !s.covered {
			continue
		}
		if pv.Matched == 0 || len(pv.Examples) < uiExamples && !contains(pv.Examples, r.Command) {
			pv.Examples = append(pv.Examples, redactVisible(red.String(r.Command)))
		}
		pv.Matched++
		if s.denied && pv.Refused == "" {
			pv.Refused = fmt.Sprintf("%s would cover %s, which the built-in denylist refused on %s: choose a narrower pattern",
				classify.QuoteWord(pattern), redactVisible(red.String(r.Command)), r.Time.Local().Format("2006-01-02 15:04"))
		}
	}
	if n := grants.UntypedNote(pattern); n != "" {
		pv.Note = n
	}
	return pv, nil
}

func redactVisible(s string) string { return oneLine(s) }

func (b *uiBackend) Preview(pattern string) (webui.Preview, error) {
	pattern = strings.TrimSpace(pattern)
	if err := grants.ValidatePattern(grants.Allow, pattern); err != nil {
		return webui.Preview{Pattern: pattern, Examples: []string{}, Refused: err.Error()}, nil
	}
	return b.a.grantPreview(b.store, pattern, "")
}

func (b *uiBackend) Audit(f webui.AuditFilter) ([]webui.AuditRecord, error) {
	limit := f.Limit
	if limit <= 0 || limit > 1000 {
		limit = 200
	}
	q := ccs.Query{Decision: f.Decision, Since: f.Since}
	if f.Agent == "" && f.Project == "" && f.Rule == "" && f.Until.IsZero() {
		q.Limit = limit
	} else {
		q.Limit = uiAuditScan
	}
	recs, err := b.store.Audit(q)
	if err != nil {
		return nil, err
	}
	var out []webui.AuditRecord
	for _, r := range recs {
		switch {
		case f.Agent != "" && r.Agent != f.Agent,
			f.Project != "" && !strings.HasPrefix(r.Cwd, f.Project),
			f.Rule != "" && r.Rule != f.Rule,
			!f.Until.IsZero() && r.Time.After(f.Until):
			continue
		}
		out = append(out, webui.AuditRecord{ID: r.ID, Time: r.Time, Agent: r.Agent, Cwd: r.Cwd, Command: r.Command,
			Decision: r.Decision, Rule: r.Rule, Answer: r.Answer, Via: r.Via, Exit: r.Exit, Risk: r.Risk})
		if len(out) >= limit {
			break
		}
	}
	return out, nil
}

// Explain traces one audit record's command (as stored: redacted) with
// the settings as they are now, as guard explain would.
func (b *uiBackend) Explain(id int64) (string, error) {
	recs, err := b.store.Audit(ccs.Query{AfterID: id - 1, Oldest: true, Limit: 1})
	if err != nil {
		return "", err
	}
	if len(recs) == 0 || recs[0].ID != id {
		return "", fmt.Errorf("no audit record %d", id)
	}
	r := recs[0]
	a := b.a
	an := classify.Analyze(r.Command, classify.Options{Cwd: r.Cwd, Home: a.Getenv("HOME"), Protected: a.protected(b.paths)})
	s := grants.Load(b.paths, r.Cwd).ForAgent(r.Agent)
	v, trace := grants.ExplainWith(an, s, shim.Facts(an, s, a.Getenv("HOME")))
	var sb strings.Builder
	fmt.Fprintf(&sb, "recorded %s: %s by %s (%s, %s)\n", r.Time.Local().Format(time.DateTime), r.Decision, dash(r.Rule), r.Answer, r.Via)
	fmt.Fprintf(&sb, "judged again now, with today's settings:\n\n")
	writeExplain(&sb, a.redactor(), r.Cwd, an, s, v, trace)
	return sb.String(), nil
}

func (b *uiBackend) Grants() ([]webui.Grant, error) {
	var out []webui.Grant
	add := func(rules []grants.Rule, scope, project string) {
		for _, r := range rules {
			out = append(out, webui.Grant{Kind: string(r.Kind), Pattern: r.Pattern, Scope: scope, Project: project,
				File: r.File, Expires: r.Expires, Expired: r.Expired})
		}
	}
	global := grants.LoadAt(b.paths, "/", b.a.Now())
	var globals []grants.Rule
	for _, r := range global.Rules {
		if r.Layer == grants.LayerGlobalGrants {
			globals = append(globals, r)
		}
	}
	add(globals, "global", "")
	projects, err := grants.Projects(b.paths)
	for _, pr := range projects {
		add(pr.Grants, "project", pr.Root)
	}
	return out, err
}

// grantFile is the file a change names: the global grants, or a project's.
func (b *uiBackend) grantFile(g webui.GrantChange) (string, error) {
	switch g.Scope {
	case "global":
		return b.paths.GlobalGrants(), nil
	case "project":
		if !filepath.IsAbs(g.Project) {
			return "", errors.New("a project grant needs the project's root directory (an absolute path)")
		}
		return b.paths.ProjectGrants(filepath.Clean(g.Project)), nil
	}
	return "", fmt.Errorf("scope %q: want global or project", g.Scope)
}

func (b *uiBackend) AddGrant(g webui.GrantChange) error {
	kind := grants.Decision(g.Kind)
	if kind != grants.Allow && kind != grants.Ask && kind != grants.Deny {
		return fmt.Errorf("kind %q: want allow, ask or deny", g.Kind)
	}
	pattern := strings.TrimSpace(g.Pattern)
	if err := grants.ValidatePattern(kind, pattern); err != nil {
		return err
	}
	file, err := b.grantFile(g)
	if err != nil {
		return err
	}
	var until time.Time
	if g.For != "" {
		if kind != grants.Allow {
			return errors.New("only an allow expires")
		}
		d, err := parseAge(g.For)
		if err != nil {
			return fmt.Errorf("for: %w", err)
		}
		until = b.a.Now().Add(d)
	}
	if kind == grants.Allow {
		root := ""
		if g.Scope == "project" {
			root = filepath.Clean(g.Project)
		}
		pv, err := b.a.grantPreview(b.store, pattern, root)
		if err != nil {
			return err
		}
		if pv.Refused != "" {
			return errors.New(pv.Refused)
		}
	}
	if err := grants.AddRuleUntil(file, kind, pattern, until); err != nil {
		return err
	}
	if g.Scope == "project" {
		_ = grants.RecordRoot(b.paths, filepath.Clean(g.Project))
	}
	b.a.recordUI(b.store, string(kind), "grants-add", "", "")
	return nil
}

func (b *uiBackend) RemoveGrant(g webui.GrantChange) error {
	file, err := b.grantFile(g)
	if err != nil {
		return err
	}
	removed, err := grants.RemoveRule(file, strings.TrimSpace(g.Pattern))
	if err != nil {
		return err
	}
	if !removed {
		return fmt.Errorf("%s is not in %s", classify.QuoteWord(g.Pattern), file)
	}
	b.a.recordUI(b.store, "deny", "grants-rm", "", "")
	return nil
}

func (b *uiBackend) openContext() (*ccs.ContextStore, error) {
	cs := b.a.contextStore()
	if err := cs.Import(); err != nil {
		cs.Close()
		return nil, err
	}
	return cs, nil
}

func (b *uiBackend) Context() ([]webui.ContextEntry, error) {
	cs, err := b.openContext()
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	runs, err := cs.List(ccs.RunQuery{Limit: 500})
	if err != nil {
		return nil, err
	}
	var out []webui.ContextEntry
	for _, r := range runs {
		out = append(out, webui.ContextEntry{ID: r.ID, Time: r.Time, Command: r.Command, Cwd: r.Cwd,
			Bytes: r.StdoutBytes + r.StderrBytes, Hits: r.Hits, Exit: r.Exit})
	}
	return out, nil
}

func (b *uiBackend) ContextShow(id string) (string, error) {
	cs, err := b.openContext()
	if err != nil {
		return "", err
	}
	defer cs.Close()
	r, found, err := cs.Get(ccs.RunQuery{ID: id})
	if err != nil {
		return "", err
	}
	if !found {
		return "", fmt.Errorf("no stored run %q", id)
	}
	var sb strings.Builder
	for _, ch := range r.Chunks {
		sb.Write(ch.Data)
	}
	return strings.ToValidUTF8(sb.String(), "\uFFFD"), nil
}

func (b *uiBackend) ContextClear(id string) (int, error) {
	cs, err := b.openContext()
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	return cs.Clear(ccs.RunQuery{ID: id})
}

func (b *uiBackend) Charts(days int) (webui.Charts, error) {
	now := b.a.Now()
	start := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.Local).AddDate(0, 0, -(days - 1))
	recs, err := b.store.Audit(ccs.Query{Since: start, Limit: uiAuditScan * 4})
	if err != nil {
		return webui.Charts{}, err
	}
	var ch webui.Charts
	index := map[string]int{}
	for i := range days {
		d := start.AddDate(0, 0, i).Format(time.DateOnly)
		index[d] = i
		ch.Days = append(ch.Days, webui.DayCount{Day: d})
	}
	asked := map[string]int{}
	for _, r := range recs {
		if r.Mode == "cli" || r.Mode == "check" {
			continue
		}
		i, ok := index[r.Time.Local().Format(time.DateOnly)]
		if !ok {
			continue
		}
		// A decision a human was asked about counts as an ask, whatever
		// the answer: these are the prompts a grant would save.
		switch {
		case r.Answer != ccs.AnswerRule && r.Answer != "" && r.Answer != ccs.AnswerRejected:
			ch.Days[i].Ask++
			asked[r.Command]++
		case r.Decision == "allow":
			ch.Days[i].Allow++
		case r.Decision == "deny":
			ch.Days[i].Deny++
		default:
			ch.Days[i].Ask++
			asked[r.Command]++
		}
	}
	for cmd, n := range asked {
		t := webui.TopAsked{Command: cmd, Count: n}
		an := classify.Analyze(cmd, classify.Options{Home: b.a.Getenv("HOME")})
		if len(an.Commands) == 1 && len(an.Composite) == 0 && len(an.Deny) == 0 {
			t.Suggest = grants.Suggest(an.Commands[0])
			if grants.ValidatePattern(grants.Allow, t.Suggest) != nil {
				t.Suggest = ""
			}
		}
		ch.Top = append(ch.Top, t)
	}
	sortTop(ch.Top)
	if len(ch.Top) > 10 {
		ch.Top = ch.Top[:10]
	}
	return ch, nil
}

// sortTop puts the commands asked most first (ties by text).
func sortTop(t []webui.TopAsked) {
	slices.SortFunc(t, func(x, y webui.TopAsked) int {
		if c := cmp.Compare(y.Count, x.Count); c != 0 {
			return c
		}
		return strings.Compare(x.Command, y.Command)
	})
}
