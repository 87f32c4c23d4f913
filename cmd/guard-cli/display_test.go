package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The attack of issue 22 §1: a command whose comment moves the cursor back
// to the start of the line, clears it and draws a harmless command. A
// terminal that is sent it raw shows "  command: git status"; the human
// answers y and touch runs.
const (
	spoofCommand = "touch pwned #\x1b[1G\x1b[2K  command: git status"
	spoofShown   = `touch pwned #\x1b[1G\x1b[2K  command: git status`
	// spoofLine is what a terminal shows, alone on its line, when the
	// command reaches it raw.
	spoofLine = "command: git status"
	// An agent name and a directory that clear their line and reverse
	// what follows.
	spoofAgent      = "claude\x1b[2K\r\u202eagent"
	spoofAgentShown = `claude\x1b[2K\r\u202eagent`
	spoofDir        = "sub\x1b[2K\u202e"
	spoofDirShown   = `sub\x1b[2K\u202e`
	controlNote     = "note: the command holds control characters, shown escaped"
	bothNote        = "note: the command and the directory hold control characters, shown escaped"
)

// vt is a tiny terminal emulator, enough of one to tell what a human would
// read on the screen: it prints characters on a grid of lines of any
// width, interprets CR, LF (as CR LF, as a terminal's driver sends it), BS
// and TAB, the CSI sequences that move the
// cursor (A, B, C, D, G, H, f) or erase (K, J), and drops every other CSI,
// OSC and ESC sequence. C1 CSI and OSC (U+009B, U+009D) count as 7-bit
// ones, as some terminals take them.
type vt struct {
	lines    [][]rune
	row, col int
}

// render returns the screen after out was written to a blank terminal, one
// line each, trailing blanks cut.
func render(out string) string {
	var v vt
	v.write(out)
	shown := make([]string, len(v.lines))
	for i, l := range v.lines {
		shown[i] = strings.TrimRight(string(l), " ")
	}
	return strings.Join(shown, "\n")
}

func (v *vt) write(s string) {
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == 0x1b && i+1 < len(rs) && rs[i+1] == '[', r == 0x9b:
			if r == 0x1b {
				i++
			}
			j := i + 1
			for j < len(rs) && (rs[j] < 0x40 || rs[j] > 0x7e) {
				j++
			}
			if j == len(rs) {
				return
			}
			v.csi(string(rs[i+1:j]), rs[j])
			i = j
		case r == 0x1b && i+1 < len(rs) && rs[i+1] == ']', r == 0x9d:
			// OSC: dropped up to BEL, ST or ESC \
			for i++; i < len(rs) && rs[i] != 0x07 && rs[i] != 0x9c && !(rs[i] == 0x1b && i+1 < len(rs) && rs[i+1] == '\\'); i++ {
			}
			if i < len(rs) && rs[i] == 0x1b {
				i++
			}
		case r == 0x1b:
			// ESC, its intermediates (ESC ( B) and its final character
			for i++; i+1 < len(rs) && rs[i] >= 0x20 && rs[i] < 0x30; i++ {
			}
		case r == '\r':
			v.col = 0
		case r == '\n':
			v.row, v.col = v.row+1, 0 // as the terminal's driver sends it (onlcr)
		case r == '\b':
			v.col = max(0, v.col-1)
		case r == '\t':
			v.col = (v.col/8 + 1) * 8
		case r < 0x20 || r >= 0x7f && r < 0xa0:
			// other controls move nothing
		default:
			v.put(r)
		}
	}
}

func (v *vt) line() []rune {
	for len(v.lines) <= v.row {
		v.lines = append(v.lines, nil)
	}
	for len(v.lines[v.row]) < v.col {
		v.lines[v.row] = append(v.lines[v.row], ' ')
	}
	return v.lines[v.row]
}

func (v *vt) put(r rune) {
	l := v.line()
	if v.col < len(l) {
		l[v.col] = r
	} else {
		v.lines[v.row] = append(l, r)
	}
	v.col++
}

func (v *vt) csi(params string, final rune) {
	var n []int
	for _, p := range strings.Split(params, ";") {
		x, _ := strconv.Atoi(p)
		n = append(n, x)
	}
	arg := func(i, def int) int {
		if i < len(n) && n[i] > 0 {
			return n[i]
		}
		return def
	}
	switch final {
	case 'A':
		v.row = max(0, v.row-arg(0, 1))
	case 'B':
		v.row += arg(0, 1)
	case 'C':
		v.col += arg(0, 1)
	case 'D':
		v.col = max(0, v.col-arg(0, 1))
	case 'G':
		v.col = arg(0, 1) - 1
	case 'H', 'f':
		v.row, v.col = arg(0, 1)-1, arg(1, 1)-1
	case 'K':
		l := v.line()
		switch n[0] {
		case 0:
			v.lines[v.row] = l[:v.col]
		case 1:
			for i := 0; i < v.col && i < len(l); i++ {
				l[i] = ' '
			}
		case 2:
			v.lines[v.row] = nil
		}
	case 'J':
		switch n[0] {
		case 0:
			v.lines[v.row] = v.line()[:v.col]
			v.lines = v.lines[:v.row+1]
		case 2, 3:
			v.lines = nil
		}
	}
}

func TestVT(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"abc\r\nde", "abc\nde"},
		{"abc\rX", "Xbc"},
		{"abc\bX", "abX"},
		{"a\tb", "a       b"},
		{spoofCommand, "  command: git status"},
		{"one\r\ntwo\x1b[Aline\x1b[K", "oneline\ntwo"},
		{"abcdef\x1b[3D\x1b[K", "abc"},
		{"x\x1b[2J\x1b[H\x1b[1;3Hy", "  y"},
		{"a\x1b]0;title\x07b\x1b]8;;http://x\x1b\\c", "abc"},
		{"ab\u009b1G\u009bKc", "c"},
		{"a\x1b7b\x1b(Bc", "abc"},
	} {
		if got := render(tt.in); got != tt.want {
			t.Errorf("render(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// checkScreen fails when the output of a view holds any character of the
// payloads raw, or when the screen it draws lacks a line with each of want
// or shows a line that is only the spoofed command.
func checkScreen(t *testing.T, view, out string, want ...string) {
	t.Helper()
	for _, raw := range []string{"\x1b", "\u202e", "\r\u202e"} {
		if strings.Contains(out, raw) {
			t.Errorf("%s: %q reached the terminal raw:\n%q", view, raw, out)
		}
	}
	screen := render(out)
	for _, line := range strings.Split(screen, "\n") {
		if strings.TrimSpace(line) == spoofLine {
			t.Errorf("%s: the screen shows the spoofed line %q:\n%s", view, line, screen)
		}
	}
	for _, w := range want {
		if !strings.Contains(screen, w) {
			t.Errorf("%s: the screen does not show %q:\n%s", view, w, screen)
		}
	}
}

// spoofEnv is a guard installation with a project subdirectory whose name
// holds escapes, where the agent (named with escapes too) asks to run the
// spoofing command: it is refused for want of a terminal and pending.
func spoofEnv(t *testing.T) (g *guardEnv, id string) {
	t.Helper()
	g = newGuardEnv(t)
	sub := filepath.Join(g.proj, spoofDir)
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Skipf("cannot make a directory named %q: %v", spoofDir, err)
	}
	a := *g
	a.proj = sub
	a.env = append(append([]string{}, g.env...), "GUARD_AGENT="+spoofAgent)
	_, stderr, code := a.run(t, "-c", spoofCommand)
	if code != exitRefused || !strings.HasPrefix(stderr, "guard: needs approval: "+spoofShown) {
		t.Fatalf("guard -c %q: status %d, stderr %q; want 126 and needs approval", spoofCommand, code, stderr)
	}
	checkScreen(t, "guard's refusal", stderr)
	stdout, _, _ := g.run(t, "pending")
	for _, line := range strings.Split(stdout, "\n") {
		if strings.Contains(line, spoofShown) {
			return g, strings.Fields(line)[0]
		}
	}
	t.Fatalf("guard pending does not list the request:\n%s", stdout)
	return nil, ""
}

func TestDisplayEscapesListings(t *testing.T) {
	g, id := spoofEnv(t)
	if _, err := os.Stat(filepath.Join(g.proj, spoofDir, "pwned")); err == nil {
		t.Fatal("the refused command ran")
	}

	out, _, _ := g.run(t, "pending")
	checkScreen(t, "guard pending", out, spoofShown, spoofDirShown, bothNote+" (request "+id+")")

	out, _, _ = g.run(t, "audit")
	checkScreen(t, "guard audit", out, spoofAgentShown, spoofShown)

	// An allowed run, stored in the context store.
	echo := "echo hi #\x1b[1G\x1b[2K\u202e" + spoofLine
	if out, stderr, code := g.run(t, "-c", echo); code != 0 || out != "hi\n" {
		t.Fatalf("guard -c %q: status %d, stdout %q, stderr %q", echo, code, out, stderr)
	}
	out, _, _ = g.run(t, "context", "list")
	checkScreen(t, "guard context list", out, `echo hi #\x1b[1G\x1b[2K\u202e`+spoofLine)

	out, _, _ = g.run(t, "explain", "--", spoofCommand)
	checkScreen(t, "guard explain", out, "command: "+spoofShown, controlNote)

	out, _, _ = g.run(t, "check", "--", "touch 'x\x1b[2K\u202ey'")
	checkScreen(t, "guard check", out, `suggest  guard grants add --project 'touch x\x1b[2K\u202ey'`)
}

func TestDisplayEscapesApprove(t *testing.T) {
	g, id := spoofEnv(t)
	c := g.inTerminal(t, "", "approve", id)
	c.waitFor(t, "confirm? [y/N]", 1)
	checkScreen(t, "guard approve", c.shown(), "  command: "+spoofShown, spoofDirShown, "  "+bothNote)
	c.send(t, "n\r")
	if code := c.exited(t); code != exitRefused {
		t.Errorf("approve answered n: status %d", code)
	}
}

func TestDisplayEscapesPrompt(t *testing.T) {
	// guard's own prompt, on a terminal it trusts (a human's).
	g := newGuardEnv(t)
	g.env = append(g.env, "GUARD_NO_PROMPT=0")
	c := g.inTerminalAs(t, "guard", "", "-c", spoofCommand)
	c.waitFor(t, asked, 1)
	checkScreen(t, "guard's prompt", c.shown(), "    "+spoofShown, "  "+controlNote)
	c.send(t, "d\r")
	if code := c.exited(t); code != exitRefused {
		t.Errorf("prompt answered d: status %d", code)
	}
	if _, err := os.Stat(filepath.Join(g.proj, "pwned")); err == nil {
		t.Error("the denied command ran")
	}
}

func TestDisplayEscapesWatch(t *testing.T) {
	g, _ := spoofEnv(t) // an earlier request, listed when the console starts
	c := g.startWatch(t, "")
	a := *g
	a.proj = filepath.Join(g.proj, spoofDir)
	a.env = append(append([]string{}, g.env...), "GUARD_AGENT="+spoofAgent)
	ch := a.runAsync(t, "-c", spoofCommand)
	c.waitFor(t, asked, 1)
	checkScreen(t, "guard watch", c.shown(),
		"earlier request(s)", spoofShown, // the earlier request
		"agent "+spoofAgentShown, spoofDirShown, "note: the agent name holds control characters, shown escaped", // the card
		"    "+spoofShown, "  "+bothNote) // the prompt
	c.send(t, "d\r")
	if r := waitResult(t, ch); r.code != exitRefused {
		t.Errorf("denied in the console: status %d, stderr %q", r.code, r.stderr)
	}
}
