package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// tmuxServer is a tmux server of the test's own: a private socket in a
// temporary TMUX_TMPDIR, no config file, the guard environment's HOME and
// XDG dirs, and guard and guard-cli first on PATH. It is killed on cleanup.
type tmuxServer struct {
	bin, name string
	env       []string
}

func newTmux(t *testing.T, g *guardEnv) *tmuxServer {
	t.Helper()
	bin, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux): the tmux walkthrough needs it")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// guard hands approve to guard-cli, which it finds beside it on PATH
	cli := filepath.Join(filepath.Dir(g.bin), "guard-cli")
	if _, err := os.Lstat(cli); err != nil {
		if err := os.Symlink(exe, cli); err != nil {
			t.Fatal(err)
		}
	}
	tmp := t.TempDir()
	env := []string{"TMUX_TMPDIR=" + tmp, "TERM=xterm", "SHELL=/bin/sh"}
	for _, kv := range g.env {
		switch {
		case strings.HasPrefix(kv, "GUARD_NO_PROMPT="):
			// the pane is a terminal: guard looks at who holds it
		case strings.HasPrefix(kv, "PATH="):
			env = append(env, "PATH="+filepath.Dir(g.bin)+":"+strings.TrimPrefix(kv, "PATH="))
		default:
			env = append(env, kv)
		}
	}
	s := &tmuxServer{bin: bin, name: "guardtest", env: env}
	if out, err := s.cmd("-f", "/dev/null", "new-session", "-d", "-s", "agent", "-x", "200", "-y", "50", "-c", g.proj, "/bin/sh").CombinedOutput(); err != nil {
		t.Skipf("tmux cannot start a server here: %v %s", err, out)
	}
	pid := 0
	if out, err := s.cmd("display-message", "-p", "#{pid}").Output(); err == nil {
		pid, _ = strconv.Atoi(strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		_ = s.cmd("kill-server").Run()
		for i := 0; pid > 0 && i < 500 && syscall.Kill(pid, 0) == nil; i++ {
			time.Sleep(10 * time.Millisecond)
		}
	})
	return s
}

func (s *tmuxServer) cmd(args ...string) *exec.Cmd {
	cmd := exec.Command(s.bin, append([]string{"-L", s.name}, args...)...)
	cmd.Env = s.env
	return cmd
}

// typeIn types a line into a pane, as `tmux send-keys` does for any
// process of the user's: the agent's included.
func (s *tmuxServer) typeIn(t *testing.T, pane, line string) {
	t.Helper()
	if out, err := s.cmd("send-keys", "-t", pane, "-l", line).CombinedOutput(); err != nil {
		t.Fatalf("tmux send-keys: %v %s", err, out)
	}
	if out, err := s.cmd("send-keys", "-t", pane, "Enter").CombinedOutput(); err != nil {
		t.Fatalf("tmux send-keys: %v %s", err, out)
	}
}

func (s *tmuxServer) screen(pane string) string {
	out, _ := s.cmd("capture-pane", "-p", "-J", "-t", pane).Output()
	return string(out)
}

// waitFile waits until file holds want, and returns its text.
func waitFile(t *testing.T, file, want string, s *tmuxServer, pane string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(file)
		if strings.Contains(string(b), want) {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %q; it holds %q; the pane shows:\n%s", file, want, b, s.screen(pane))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWalkthroughTmux follows the README as a tmux user: the agent's
// command in a tmux pane cannot be approved in tmux, the line it prints
// names the routes that work, the human's route (guard watch in a
// terminal of their own, not a multiplexer) approves it, and the agent's
// route (send-keys into a pane running guard approve) is refused.
func TestWalkthroughTmux(t *testing.T) {
	g := newGuardEnv(t)
	s := newTmux(t, g)
	out := t.TempDir()
	made := filepath.Join(g.proj, "x")

	// the agent in a tmux pane, nobody watching: refused at once, with
	// the routes that work from here
	s.typeIn(t, "agent", "guard -c 'touch x' 2>"+out+"/refused; echo status=$? >>"+out+"/refused")
	text := waitFile(t, out+"/refused", "status=", s, "agent")
	for _, want := range []string{
		"guard: needs approval: touch x (",
		"guard: hint: run guard watch in a terminal of your own, outside the agent and not inside tmux or screen: commands then wait there for your answer; or list ",
		"tmux in trusted_terminals in " + filepath.Join(filepath.Dir(g.proj), "home", ".config", "guard", "config.toml"),
		"status=126",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal in tmux does not say %q:\n%s", want, text)
		}
	}
	if _, err := os.Stat(made); err == nil {
		t.Fatal("touch x ran without an approval")
	}

	// the README's route: guard watch in a terminal of the human's own
	w := g.startWatch(t, "")
	s.typeIn(t, "agent", "guard -c 'touch x' 2>"+out+"/waited; echo status=$? >>"+out+"/waited")
	text = waitFile(t, out+"/waited", "guard: waiting for approval: request ", s, "agent")
	m := regexp.MustCompile(`^guard: waiting for approval: request ([0-9a-f]{6}), up to 2m; answer it in guard watch, or with guard approve ([0-9a-f]{6}) in a terminal of your own\n`).FindStringSubmatch(text)
	if m == nil || m[1] != m[2] {
		t.Fatalf("the waiting line:\n%s", text)
	}
	id := m[1]
	w.waitFor(t, asked, 1)

	// the agent's route: guard approve in another pane, answered with
	// send-keys, is refused there
	if outp, err := s.cmd("new-window", "-d", "-t", "agent", "-n", "approver", "-c", g.proj, "/bin/sh").CombinedOutput(); err != nil {
		t.Fatalf("tmux new-window: %v %s", err, outp)
	}
	s.typeIn(t, "agent:approver", "guard approve "+id+" 2>"+out+"/approve; echo status=$? >>"+out+"/approve")
	s.typeIn(t, "agent:approver", "y")
	text = waitFile(t, out+"/approve", "status=", s, "agent:approver")
	if !strings.Contains(text, "guard: denied: ") || !strings.Contains(text, "tmux") || strings.Contains(text, "status=0") {
		t.Errorf("guard approve typed into tmux by send-keys:\n%s", text)
	}
	if _, err := os.Stat(made); err == nil {
		t.Fatal("touch x ran on an approval typed into tmux")
	}
	if b, _ := os.ReadFile(out + "/waited"); strings.Contains(string(b), "status=") {
		t.Fatalf("the waiting command ended before the human answered:\n%s", b)
	}

	// the human answers in guard watch: the command runs
	w.send(t, "o\r")
	text = waitFile(t, out+"/waited", "status=", s, "agent")
	if !strings.Contains(text, "status=0") {
		t.Errorf("after allow once in guard watch:\n%s", text)
	}
	if _, err := os.Stat(made); err != nil {
		t.Errorf("touch x did not run after the human's approval: %v", err)
	}
}

// TestWalkthroughTmuxPage follows the README's page route for a tmux
// user: register a passkey once with guard ui in a plain terminal window;
// then guard ui in tmux serves the page (commands do not wait for it
// there), the agent's refused command names the page, the human allows
// it once on the page with the passkey, and the agent's retry runs. The
// agent's own route to the page, a request without the passkey, gets
// nowhere.
func TestWalkthroughTmuxPage(t *testing.T) {
	chromiumPath(t)
	g := newGuardEnv(t)
	s := newTmux(t, g)
	out := t.TempDir()
	made := filepath.Join(g.proj, "x")
	b := newBrowser(t)
	b.authenticator()

	// once, in a plain terminal window: the code, and the first passkey
	con := g.inTerminal(t, "", "ui")
	con.waitFor(t, "register one on the page with the code", 1)
	con.waitFor(t, "guard ui: http://localhost:", 1) // the URL's line comes after the code's
	screen := con.shown()
	url := regexp.MustCompile(`guard ui: (http://localhost:\d+/)`).FindStringSubmatch(screen)
	code := regexp.MustCompile(`with the code ([a-z0-9]{5}-[a-z0-9]{5})`).FindStringSubmatch(screen)
	if url == nil || code == nil {
		t.Fatalf("guard ui showed no URL or code:\n%s", screen)
	}
	b.do(chromedp.Navigate(url[1]), chromedp.WaitVisible(chromedp.ID("register")),
		chromedp.SendKeys(chromedp.ID("register-code"), code[1]),
		chromedp.SendKeys(chromedp.ID("register-name"), "laptop"),
		chromedp.Click(chromedp.ID("register-go")), chromedp.WaitVisible(chromedp.ID("tabs")))
	con.send(t, "\x03")
	con.exited(t)

	// then guard ui in tmux: the page, without a code, and a note that
	// commands will not wait for it
	s.typeIn(t, "agent", "guard ui >"+out+"/ui 2>&1; echo ui-ended >>"+out+"/ui")
	text := waitFile(t, out+"/ui", "answer their requests on the page", s, "agent")
	url = regexp.MustCompile(`guard ui: (http://localhost:\d+/)`).FindStringSubmatch(text)
	if url == nil || strings.Contains(text, "register one on the page") {
		t.Fatalf("guard ui in tmux:\n%s", text)
	}
	t.Cleanup(func() {
		_ = s.cmd("send-keys", "-t", "agent:0", "C-c").Run()
		waitFile(t, out+"/ui", "ui-ended", s, "agent:0")
	})

	// the agent, in another tmux window: refused at once, naming the page
	if o, err := s.cmd("new-window", "-d", "-t", "agent", "-n", "work", "-c", g.proj, "/bin/sh").CombinedOutput(); err != nil {
		t.Fatalf("tmux new-window: %v %s", err, o)
	}
	s.typeIn(t, "agent:work", "guard -c 'touch x' 2>"+out+"/first; echo status=$? >>"+out+"/first")
	text = waitFile(t, out+"/first", "status=", s, "agent:work")
	if !strings.Contains(text, "guard: needs approval: touch x (") || !strings.Contains(text, ", or at "+url[1]+")") || !strings.Contains(text, "status=126") {
		t.Fatalf("the agent's command in tmux with the page running:\n%s", text)
	}
	if _, err := os.Stat(made); err == nil {
		t.Fatal("touch x ran without an approval")
	}

	// the agent's route to the page: an approval without the passkey
	if code, body := uiPost(t, url[1]+"api/act", strings.TrimSuffix(url[1], "/"), "", `{"action":"once","target":"","params":{}}`); code < 400 {
		t.Errorf("an approval without a session or a passkey: %d %s", code, body)
	}

	// the human, on the page: sign in with the passkey, allow once
	b.do(chromedp.Navigate(url[1]), chromedp.WaitVisible(chromedp.ID("login")),
		chromedp.Click(chromedp.ID("login-go")), chromedp.WaitVisible(chromedp.ID("tabs")))
	b.waitJS(`!!document.querySelector("#pending-list article[id^=req-] button.once") && document.querySelector("#pending-list code.command").textContent === "touch x"`)
	b.do(chromedp.Click(chromedp.CSS("#pending-list article button.once")))
	b.waitJS(`!document.querySelector("#pending-list article[id^=req-] button.once")`)

	// the agent's retry runs
	s.typeIn(t, "agent:work", "guard -c 'touch x' 2>"+out+"/retry; echo status=$? >>"+out+"/retry")
	text = waitFile(t, out+"/retry", "status=", s, "agent:work")
	if !strings.Contains(text, "status=0") {
		t.Errorf("the agent's retry after allow once on the page:\n%s", text)
	}
	if _, err := os.Stat(made); err != nil {
		t.Errorf("touch x did not run after the human's approval: %v", err)
	}
}
