package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"github.com/guard-dev/guard/shim"
)

// The web console, driven in a real headless Chromium through the DevTools
// protocol, with a virtual authenticator standing in for the human's
// passkey. guard ui, the waiting guard -c and the agent's retries are the
// real programs (this test binary under their names).

// envScreenshots, set to 1, makes TestUIBrowser write its screenshots to
// docs/img/ (for the docs: they are taken by this test, not by hand).
const envScreenshots = "GUARD_UPDATE_SCREENSHOTS"

// uiStep bounds one browser step; the browser itself lives for the test.
const uiStep = 30 * time.Second

// chromiumPath finds Debian's chromium, or skips the test.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	t.Skip("chromium is not installed (apt-get install -y chromium): the web console's browser tests need it")
	return ""
}

// browser is one headless Chromium for the whole test, with one tab.
type browser struct {
	t   *testing.T
	ctx context.Context
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := chromiumPath(t)
	profile := t.TempDir()
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile),
		// chromium writes under HOME too (~/.pki): never the real one
		chromedp.Env("HOME="+profile, "XDG_CONFIG_HOME="+filepath.Join(profile, "config"), "XDG_CACHE_HOME="+filepath.Join(profile, "cache")),
		chromedp.WindowSize(1200, 900),
	)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc() // ends the browser process and waits for it
		if left := commandsWith(profile); len(left) > 0 {
			t.Errorf("chromium processes left behind: %v", left)
		}
	})
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return &browser{t: t, ctx: ctx}
}

// do runs steps, each run bounded.
func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, uiStep)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("browser: %v\npage status: %s", err, b.status())
	}
}

func (b *browser) status() string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("status")||{}).textContent||""`))
	return s
}

// eval runs a script (a promise is awaited) and returns its string value.
func (b *browser) eval(js string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, uiStep)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("browser: %v", err)
	}
	return s
}

// waitJS waits until the expression is true.
func (b *browser) waitJS(js string) {
	b.t.Helper()
	deadline := time.Now().Add(uiStep)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("the page never made %s true (err %v); status: %s", js, err, b.status())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// shot writes a screenshot to docs/img/NAME.png when envScreenshots is 1.
func (b *browser) shot(name string) {
	b.t.Helper()
	if os.Getenv(envScreenshots) != "1" {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, uiStep)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	dir := filepath.Join("..", "..", "docs", "img")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// authenticator adds a virtual platform passkey with user verification.
func (b *browser) authenticator() webauthn.AuthenticatorID {
	b.t.Helper()
	return b.authenticatorOn(webauthn.AuthenticatorTransportInternal)
}

// authenticatorOn adds a virtual authenticator on a transport: Chrome
// holds one internal (platform) authenticator at most, so a second
// passkey is a security key on USB.
func (b *browser) authenticatorOn(transport webauthn.AuthenticatorTransport) webauthn.AuthenticatorID {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, uiStep)
	defer cancel()
	if _, err := chromedp.Call(ctx, webauthn.Enable, webauthn.EnableParams{}); err != nil {
		b.t.Fatalf("WebAuthn.enable: %v", err)
	}
	res, err := chromedp.Call(ctx, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
		Options: &webauthn.VirtualAuthenticatorOptions{
			Protocol:                    webauthn.AuthenticatorProtocolCtap2,
			Ctap2version:                webauthn.Ctap2versionCtap21,
			Transport:                   transport,
			HasResidentKey:              true,
			HasUserVerification:         true,
			IsUserVerified:              true,
			AutomaticPresenceSimulation: true,
		},
	})
	if err != nil {
		b.t.Fatalf("WebAuthn.addVirtualAuthenticator: %v", err)
	}
	return res.AuthenticatorID
}

// presence turns an authenticator's simulated touch on or off: one that
// waits for a touch never answers, and the other answers instead.
func (b *browser) presence(id webauthn.AuthenticatorID, on bool) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, uiStep)
	defer cancel()
	if _, err := chromedp.Call(ctx, webauthn.SetAutomaticPresenceSimulation, webauthn.SetAutomaticPresenceSimulationParams{AuthenticatorID: id, Enabled: on}); err != nil {
		b.t.Fatalf("WebAuthn.setAutomaticPresenceSimulation: %v", err)
	}
}

func (b *browser) removeAuthenticator(id webauthn.AuthenticatorID) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, uiStep)
	defer cancel()
	if _, err := chromedp.Call(ctx, webauthn.RemoveVirtualAuthenticator, webauthn.RemoveVirtualAuthenticatorParams{AuthenticatorID: id}); err != nil {
		b.t.Fatalf("WebAuthn.removeVirtualAuthenticator: %v", err)
	}
}

// startUIUntrusted runs guard ui with no terminal at all (as an agent's
// tool call would) and returns its URL.
func (g *guardEnv) startUIUntrusted(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "ui")
	cmd.Args[0] = shim.CLIName
	cmd.Env = g.env
	cmd.Dir = g.proj
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`^guard ui: (http://localhost:\d+/)\n$`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("guard ui printed %q (%v)", line, err)
	}
	go io.Copy(io.Discard, out)
	return m[1]
}

// uiPost is a request made without a browser, as curl from the agent would.
func uiPost(t *testing.T, url, origin, cookie, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// sessionOf opens the page as a client without a browser and returns
// the cookie and CSRF token it was given.
func sessionOf(t *testing.T, url string) (cookie, csrf string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	for _, c := range resp.Cookies() {
		if c.Name == "guard_ui" {
			cookie = c.Name + "=" + c.Value
		}
	}
	if m := regexp.MustCompile(`name="guard-csrf" content="([^"]+)"`).FindSubmatch(page); m != nil {
		csrf = string(m[1])
	}
	if cookie == "" || csrf == "" {
		t.Fatalf("the page gave no session (status %d)", resp.StatusCode)
	}
	return cookie, csrf
}

func TestUIBrowser(t *testing.T) {
	chromiumPath(t)
	g := newGuardEnv(t)
	g.env = append(g.env, "GUARD_AGENT=claude")
	b := newBrowser(t)
	human := b.authenticator()

	// --- without a human's terminal, nobody can register a passkey ---
	untrusted := g.startUIUntrusted(t)
	staleCookie, _ := sessionOf(t, untrusted)
	b.do(chromedp.Navigate(untrusted), chromedp.WaitVisible(chromedp.ID("register")))
	b.waitJS(`document.getElementById("status").textContent.includes("Registration is closed")`)
	if got := b.eval(`guardUI.call("register/begin", {code: "aaaaa-bbbbb"}).then(() => "ok", e => e.message)`); !strings.Contains(got, "registration is closed") {
		t.Errorf("registration without the terminal's code: %q", got)
	}
	if _, err := os.Stat(filepath.Join(g.stateDir(), "passkeys.json")); err == nil {
		t.Errorf("a passkey was stored without the terminal's confirmation")
	}

	// --- guard ui on a human's terminal shows the one-time code there ---
	con := g.inTerminal(t, "", "ui")
	con.waitFor(t, "register one on the page with the code", 1)
	con.waitFor(t, "guard ui: http://localhost:", 1) // the URL's line comes after the code's
	screen := con.shown()
	url := regexp.MustCompile(`guard ui: (http://localhost:\d+/)`).FindStringSubmatch(screen)
	code := regexp.MustCompile(`with the code ([a-z0-9]{5}-[a-z0-9]{5})`).FindStringSubmatch(screen)
	if url == nil || code == nil {
		t.Fatalf("guard ui showed no URL or code:\n%s", screen)
	}
	origin := strings.TrimSuffix(url[1], "/")

	t.Run("register", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Navigate(url[1]), chromedp.WaitVisible(chromedp.ID("register")))
		if got := b.eval(`guardUI.call("register/begin", {code: "wrong-code"}).then(() => "ok", e => e.message)`); got != "wrong registration code" {
			t.Errorf("a wrong code: %q", got)
		}
		b.do(chromedp.SendKeys(chromedp.ID("register-code"), code[1]),
			chromedp.SendKeys(chromedp.ID("register-name"), "test passkey"))
		b.shot("ui-register")
		b.do(chromedp.Click(chromedp.ID("register-go")), chromedp.WaitVisible(chromedp.ID("tabs")))
		fi, err := os.Stat(filepath.Join(g.stateDir(), "passkeys.json"))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("passkeys.json: %v %v", fi, err)
		}
		// the code was for the first passkey only; another needs a passkey
		if got := b.eval(`guardUI.call("register/begin", {code: "` + code[1] + `"}).then(() => "ok", e => e.message)`); !strings.Contains(got, "a passkey is registered") {
			t.Errorf("a second registration with the code: %q", got)
		}
	})

	t.Run("approve once", func(t *testing.T) {
		b.t = t
		ch := g.runAsync(t, "-c", "touch made-once")
		b.waitJS(`!!document.querySelector("#pending-list article[id^=req-] button.once") && document.querySelector("#pending-list code.command").textContent === "touch made-once"`)
		b.waitJS(`document.querySelector("#pending-list article header").textContent.includes("a command waits")`)
		b.shot("ui-pending")
		b.do(chromedp.Click(chromedp.CSS("#pending-list article button.once")))
		r := waitResult(t, ch)
		if r.code != 0 {
			t.Fatalf("guard -c after allow once on the page: %d %q", r.code, r.stderr)
		}
		// the waiting command said at once where to answer it: the page
		if !strings.Contains(r.stderr, url[1]) {
			t.Errorf("the waiting command's stderr does not name the page %s: %q", url[1], r.stderr)
		}
		if _, err := os.Stat(filepath.Join(g.proj, "made-once")); err != nil {
			t.Errorf("the approved command did not run: %v", err)
		}
	})

	t.Run("deny with a message", func(t *testing.T) {
		b.t = t
		ch := g.runAsync(t, "-c", "touch made-deny")
		b.waitJS(`!!document.querySelector("#pending-list article button.reveal") && document.querySelector("#pending-list code.command").textContent === "touch made-deny"`)
		b.do(chromedp.Click(chromedp.CSS("#pending-list article button.reveal")))
		b.waitJS(`!!document.querySelector("#pending-list code.revealed")`)
		b.do(chromedp.SendKeys(chromedp.CSS("#pending-list article input.message"), "use make test instead"),
			chromedp.Click(chromedp.CSS("#pending-list article button.deny")))
		r := waitResult(t, ch)
		// (the answer comes on the console socket; should guard's own look
		// at the request file come first, the line says so, message and all)
		want := regexp.MustCompile(`\nguard: denied: unknown: (denied in the web console|rejected with guard reject or in the web console; do not retry): use make test instead\n$`)
		if r.code != exitRefused || !want.MatchString(r.stderr) {
			t.Fatalf("guard -c after deny on the page: %d %q, want the refusal line %q", r.code, r.stderr, want)
		}
		if _, err := os.Stat(filepath.Join(g.proj, "made-deny")); err == nil {
			t.Errorf("the denied command ran")
		}
		// the agent's retry is refused at once, with the message
		_, stderr, code := g.run(t, "-c", "touch made-deny")
		if code != exitRefused || !strings.Contains(stderr, "do not retry: use make test instead") {
			t.Errorf("retry after a deny with a message: %d %q", code, stderr)
		}
	})

	t.Run("allow in project, pattern edited", func(t *testing.T) {
		b.t = t
		ch := g.runAsync(t, "-c", "touch made-proj")
		b.waitJS(`!!document.querySelector("#pending-list article input.pattern") && document.querySelector("#pending-list code.command").textContent === "touch made-proj"`)
		b.do(chromedp.SetValue(chromedp.CSS("#pending-list article input.pattern"), "touch made-p*"),
			chromedp.SetValue(chromedp.CSS("#pending-list article select.for"), "8h"),
			chromedp.Click(chromedp.CSS("#pending-list article button.project")))
		if r := waitResult(t, ch); r.code != 0 {
			t.Fatalf("guard -c after allow in project: %d %q", r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(g.proj, "made-proj")); err != nil {
			t.Errorf("the approved command did not run: %v", err)
		}
		out, _, _ := g.run(t, "grants", "list")
		if !regexp.MustCompile(`allow +touch made-p\* +project-grants`).MatchString(out) {
			t.Errorf("the edited pattern is not a project grant:\n%s", out)
		}
		if out, _, _ := g.run(t, "grants", "list", "--json"); !regexp.MustCompile(`"pattern": "touch made-p\*",(\s*"[a-z]+": [^\n]*\n)*\s*"expires": "`).MatchString(out) {
			t.Errorf("the grant chosen for 8 hours has no expiry:\n%s", out)
		}
		// and it covers the next one without asking
		if _, stderr, code := g.run(t, "-c", "touch made-p2"); code != 0 {
			t.Errorf("touch made-p2 under the new grant: %d %q", code, stderr)
		}
		out, _, _ = g.run(t, "audit", "--json", "-n", "10")
		if !strings.Contains(out, `"answer":"edited","via":"ui"`) {
			t.Errorf("the page's answer is not in the audit as edited via ui:\n%s", out)
		}
	})

	t.Run("preview a grant", func(t *testing.T) {
		b.t = t
		// a denylisted command in the audit (refused, never run)
		if _, _, code := g.run(t, "-c", "sudo -n true"); code != exitRefused {
			t.Fatalf("sudo -n true was not refused: %d", code)
		}
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="grants"]`)), chromedp.WaitVisible(chromedp.ID("grant-form")),
			chromedp.SendKeys(chromedp.ID("g-pattern"), "touch *"), chromedp.Click(chromedp.ID("g-preview")))
		b.waitJS(`document.getElementById("grant-preview").textContent.includes("Would have allowed")`)
		got := b.eval(`document.getElementById("grant-preview").textContent`)
		if !strings.Contains(got, "touch made-once") || !strings.Contains(got, "touch made-deny") {
			t.Errorf("preview of touch *: %q", got)
		}
		b.do(chromedp.Click(chromedp.ID("g-add")))
		b.waitJS(`document.getElementById("status").textContent.startsWith("Added allow touch *")`)
		b.waitJS(`document.getElementById("grants-table").tBodies[0].textContent.includes("touch *")`)
		b.shot("ui-grant-preview")
		if out, _, _ := g.run(t, "grants", "list"); !strings.Contains(out, "touch *") {
			t.Errorf("the grant added on the page is not listed:\n%s", out)
		}
		// a pattern that covers a denylisted past command is refused, on
		// the page and in guard grants add alike
		b.do(chromedp.SetValue(chromedp.ID("g-pattern"), "sudo -n *"), chromedp.Click(chromedp.ID("g-preview")))
		b.waitJS(`document.getElementById("grant-preview").textContent.includes("denylist")`)
		_, stderr, code := g.run(t, "grants", "add", "sudo -n *")
		if code != exitRefused || !strings.Contains(stderr, "built-in denylist refused") {
			t.Errorf("guard grants add 'sudo -n *': %d %q", code, stderr)
		}
		stdout, _, code := g.run(t, "grants", "add", "touch made-*")
		if code != 0 || !strings.Contains(stdout, "preview: 'touch made-*' would have allowed") {
			t.Errorf("guard grants add prints no preview: %d %q", code, stdout)
		}
		// remove the page's grant again
		b.eval(`(() => { [...document.querySelectorAll("#grants-table tbody tr")].find(tr => tr.textContent.includes("touch *everywhere")).querySelector("button").click(); return ""; })()`)
		b.waitJS(`document.getElementById("status").textContent.startsWith("Removed allow touch *")`)
		if out, _, _ := g.run(t, "grants", "list"); strings.Contains(out, "touch * ") {
			t.Errorf("the grant removed on the page is still listed:\n%s", out)
		}
	})

	t.Run("audit and charts", func(t *testing.T) {
		b.t = t
		for _, cmd := range []string{"ls", "git status", "echo built"} {
			g.run(t, "-c", cmd) // some allowed commands for the charts
		}
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="audit"]`)))
		b.waitJS(`document.querySelectorAll("#audit-table tbody tr").length > 3`)
		b.do(chromedp.SetValue(chromedp.ID("f-decision"), "deny"), chromedp.Click(chromedp.CSS("#audit-filter button")))
		b.waitJS(`[...document.querySelectorAll("#audit-table tbody tr td:nth-child(2)")].every(td => td.textContent === "deny")`)
		b.do(chromedp.Click(chromedp.CSS("#audit-table tbody tr")))
		b.waitJS(`document.getElementById("audit-trace").textContent.includes("judged again now")`)
		b.shot("ui-audit")
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="charts"]`)))
		b.waitJS(`document.querySelectorAll("#chart-days rect").length > 0`)
		b.shot("ui-charts")
		// one click from a top asked command to its grant's preview
		b.do(chromedp.Click(chromedp.CSS("#top-table tbody tr button")))
		b.waitJS(`!document.getElementById("grants").hidden && document.getElementById("g-pattern").value.startsWith("touch made-") && document.getElementById("grant-preview").textContent.includes("Would have allowed")`)
	})

	t.Run("clear the context", func(t *testing.T) {
		b.t = t
		if out, _, code := g.run(t, "-c", "echo stored-output"); code != 0 || out != "stored-output\n" {
			t.Fatalf("echo: %d %q", code, out)
		}
		if out, _, _ := g.run(t, "context", "list"); !strings.Contains(out, "echo stored-output") {
			t.Fatalf("no stored run to clear:\n%s", out)
		}
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="context"]`)))
		b.waitJS(`document.querySelectorAll("#context-table tbody tr").length > 0`)
		b.shot("ui-context")
		b.eval(`(() => { [...document.querySelectorAll("#context-table tbody tr")].find(tr => tr.textContent.includes("echo stored-output")).querySelector("button").click(); return ""; })()`)
		b.waitJS(`document.getElementById("context-output").textContent === "stored-output\n"`)
		b.do(chromedp.Click(chromedp.ID("context-clear-all")))
		b.waitJS(`document.getElementById("status").textContent.startsWith("Cleared")`)
		if out, _, _ := g.run(t, "context", "list"); strings.Contains(out, "echo stored-output") {
			t.Errorf("the context store was not cleared:\n%s", out)
		}
	})

	t.Run("refused without a passkey", func(t *testing.T) {
		b.t = t
		// In the signed-in page, a call with no assertion.
		if got := b.eval(`guardUI.call("act", {action: "context-clear", target: "", params: {}}).then(() => "ok", e => e.message)`); got != "this needs your passkey" {
			t.Errorf("act without an assertion: %q", got)
		}
		// An assertion made for one action does not carry another.
		got := b.eval(`(async () => {
			const params = {};
			const opts = await guardUI.call("challenge", {action: "reveal", target: "abcdef", params});
			const cred = await navigator.credentials.get(guardUI.requestOptions(opts));
			return guardUI.call("act", {action: "context-clear", target: "", params, credential: guardUI.assertionJSON(cred)}).then(() => "ok", e => e.message);
		})()`)
		if got != "the passkey signed for another action" {
			t.Errorf("an assertion reused for another action: %q", got)
		}
		// curl from the agent: no session, a stale one, a wrong origin, a
		// rebound host.
		body := `{"action":"context-clear","target":"","params":{}}`
		if code, out := uiPost(t, url[1]+"api/act", origin, "", body); code != http.StatusUnauthorized {
			t.Errorf("POST without a session: %d %s", code, out)
		}
		if code, out := uiPost(t, url[1]+"api/act", origin, staleCookie, body); code != http.StatusUnauthorized {
			t.Errorf("POST with another guard ui's session: %d %s", code, out)
		}
		cookie, csrf := sessionOf(t, url[1])
		req, _ := http.NewRequest(http.MethodPost, url[1]+"api/pending", strings.NewReader("{}"))
		req.Header.Set("Cookie", cookie)
		req.Header.Set("X-Guard-CSRF", csrf)
		req.Header.Set("Origin", origin)
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("reading with a session no passkey signed in: %v %v", resp, err)
		}
		if code, out := uiPost(t, url[1]+"api/state", "http://evil.example", cookie, "{}"); code != http.StatusForbidden {
			t.Errorf("POST from another origin: %d %s", code, out)
		}
		req, _ = http.NewRequest(http.MethodGet, url[1], nil)
		req.Host = "evil.example"
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("a rebound Host: %v %v", resp, err)
		}
	})

	t.Run("passkeys", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="passkeys"]`)))
		b.waitJS(`document.getElementById("passkey-list").textContent.includes("test passkey")`)
		// adding one needs an assertion from a registered passkey: without
		// one it is refused, with one the browser gets the options
		if got := b.eval(`guardUI.call("act", {action: "passkey-add", target: "", params: {}}).then(() => "ok", e => e.message)`); got != "this needs your passkey" {
			t.Errorf("passkey-add without an assertion: %q", got)
		}
		got := b.eval(`guardUI.act("passkey-add", "", {}).then(o => String(o.publicKey.excludeCredentials.length) + " " + o.publicKey.authenticatorSelection.userVerification, e => e.message)`)
		if got != "1 required" {
			t.Errorf("passkey-add with an assertion: %q", got)
		}
		// the last passkey stays: without one nobody could approve
		b.do(chromedp.Click(chromedp.CSS("#passkey-list button")))
		b.waitJS(`document.getElementById("status").textContent.includes("the last passkey cannot be removed")`)

		// A second passkey on a second authenticator: the first signs the
		// passkey-add, the second makes the new key. Which authenticator
		// answers is chosen by which one simulates the user's touch.
		if got := b.eval(`guardUI.act("passkey-add", "", {}).then(o => { window.addOpts = o; return "ok"; }, e => e.message)`); got != "ok" {
			t.Fatalf("passkey-add signed by the first passkey: %q", got)
		}
		second := b.authenticatorOn(webauthn.AuthenticatorTransportUsb)
		b.presence(human, false)
		got = b.eval(`(async () => {
			const cred = await navigator.credentials.create(guardUI.creationOptions(window.addOpts));
			await guardUI.call("register/finish", {name: "second passkey", credential: guardUI.attestationJSON(cred)});
			return (await guardUI.call("passkeys")).map(p => p.name).sort().join(",");
		})().catch(e => "error: " + e.message)`)
		if got != "second passkey,test passkey" {
			t.Fatalf("the passkeys after adding a second: %q", got)
		}
		// the second one signs on its own
		if got := b.eval(`guardUI.act("login", "", {}).then(() => "ok", e => e.message)`); got != "ok" {
			t.Errorf("an assertion from the second passkey: %q", got)
		}
		// the first removes it (the list on the page shows both first)
		b.presence(human, true)
		b.presence(second, false)
		got = b.eval(`(async () => {
			const p = (await guardUI.call("passkeys")).find(p => p.name === "second passkey");
			window.secondID = p.id;
			await guardUI.act("passkey-rm", p.id, {});
			return (await guardUI.call("passkeys")).map(p => p.name).join(",");
		})().catch(e => "error: " + e.message)`)
		if got != "test passkey" {
			t.Fatalf("the passkeys after removing the second: %q", got)
		}
		// the removed passkey's assertion is refused, though its
		// authenticator still holds the key
		b.presence(second, true)
		b.presence(human, false)
		got = b.eval(`(async () => {
			const params = {};
			const opts = guardUI.requestOptions(await guardUI.call("challenge", {action: "context-clear", target: "", params}));
			const b64 = window.secondID.replace(/-/g, "+").replace(/_/g, "/");
			opts.publicKey.allowCredentials = [{type: "public-key", id: Uint8Array.from(atob(b64), c => c.charCodeAt(0))}];
			const cred = await navigator.credentials.get(opts);
			return guardUI.call("act", {action: "context-clear", target: "", params, credential: guardUI.assertionJSON(cred)}).then(() => "ok", e => e.message);
		})().catch(e => "error: " + e.message)`)
		if !strings.HasPrefix(got, "passkey refused") {
			t.Errorf("an assertion from the removed passkey: %q", got)
		}
		b.presence(human, true)
		b.removeAuthenticator(second)
	})

	t.Run("unregistered authenticator", func(t *testing.T) {
		b.t = t
		// The agent's own browser with its own virtual authenticator: its
		// key is not this install's. (This one comes last: the human's
		// authenticator is gone after it.)
		b.removeAuthenticator(human)
		b.authenticator()
		got := b.eval(`(async () => {
			const rnd = () => crypto.getRandomValues(new Uint8Array(32));
			const made = await navigator.credentials.create({publicKey: {
				challenge: rnd(), rp: {id: "localhost", name: "agent"},
				user: {id: rnd(), name: "agent", displayName: "agent"},
				pubKeyCredParams: [{type: "public-key", alg: -7}],
				authenticatorSelection: {residentKey: "required", userVerification: "required"}}});
			const params = {};
			const opts = guardUI.requestOptions(await guardUI.call("challenge", {action: "context-clear", target: "", params}));
			opts.publicKey.allowCredentials = [{type: "public-key", id: made.rawId}];
			const cred = await navigator.credentials.get(opts);
			return guardUI.call("act", {action: "context-clear", target: "", params, credential: guardUI.assertionJSON(cred)}).then(() => "ok", e => e.message);
		})()`)
		if !strings.HasPrefix(got, "passkey refused") {
			t.Errorf("an assertion from an unregistered authenticator: %q", got)
		}
	})
}

func (g *guardEnv) stateDir() string {
	for _, kv := range g.env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			return filepath.Join(v, "guard")
		}
	}
	return ""
}

// commandsWith lists the live processes (not zombies) whose command line
// holds s.
func commandsWith(s string) []string {
	var found []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if d.Name()[0] < '0' || d.Name()[0] > '9' {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if err != nil || !strings.Contains(string(cmdline), s) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + d.Name() + "/stat"); err == nil && !isZombie(st) {
			found = append(found, d.Name())
		}
	}
	return found
}
