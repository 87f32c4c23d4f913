package classify

import (
	"os/exec"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// envCtx is the context the captured strings ran in.
var envCtx = EnvelopeContext{
	SnapshotDirs: []string{"/home/damu/.claude/shell-snapshots", "/root/.claude/shell-snapshots", "/home/hp/.claude/shell-snapshots", "/home/lin/.claude/shell-snapshots"},
	TempDirs:     []string{"/tmp"},
}

// Real envelopes, as Claude Code ran them (captured with ps by users and
// published in public repositories and issues; the eval payloads are theirs).
var envelopeCaptures = []struct {
	name, in, shape, payload string
}{
	{
		"2.1-unalias pipe",
		`source /home/damu/.claude/shell-snapshots/snapshot-bash-1788557415117-j0hu0n.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && { \builtin unalias -- 'unsetenv'; \builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1 || true && eval 'pgrep -af "5175" | head -3; echo "---"; true' < /dev/null && pwd -P >| /tmp/claude-f8eb-cwd`,
		"claude-bash-unalias", `pgrep -af "5175" | head -3; echo "---"; true`,
	},
	{
		"2.1-unalias quotes",
		`source /home/lin/.claude/shell-snapshots/snapshot-bash-1787645352430-itq4da.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && { \builtin unalias -- 'unsetenv'; \builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1 || true && eval 'P="nav2_costmap_2"d; pkill -f "$P" 2>/dev/null; sleep 2; pgrep -af costmap | head -3' < /dev/null && pwd -P >| /tmp/claude-93e6-cwd`,
		"claude-bash-unalias", `P="nav2_costmap_2"d; pkill -f "$P" 2>/dev/null; sleep 2; pgrep -af costmap | head -3`,
	},
	{
		"2.1 without unalias",
		`source /home/hp/.claude/shell-snapshots/snapshot-bash-1784794254234-aatt61.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'pgrep -af "kubectl.*port-forward" 2>&1 | grep orders-api || echo "none (clean)"' < /dev/null && pwd -P >| /tmp/claude-f0f5-cwd`,
		"claude-bash", `pgrep -af "kubectl.*port-forward" 2>&1 | grep orders-api || echo "none (clean)"`,
	},
	{
		"remote, embedded single quotes",
		`source /root/.claude/shell-snapshots/snapshot-bash-1790248092933-kmkub2.sh 2>/dev/null || true && export BUN_OPTIONS="--smol${BUN_OPTIONS:+ $BUN_OPTIONS}" && shopt -u extglob 2>/dev/null || true && { \builtin unalias -- 'unsetenv'; \builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1 || true && eval 'for b in 5 6 7 8; do ./launch-render.sh $b; done; printf '"'"'qa/beat-*/*.png\n'"'"' >> .gitignore' < /dev/null && pwd -P >| /tmp/claude-02c9-cwd`,
		"claude-bash-remote-unalias", `for b in 5 6 7 8; do ./launch-render.sh $b; done; printf 'qa/beat-*/*.png\n' >> .gitignore`,
	},
	{
		"no snapshot",
		`shopt -u extglob 2>/dev/null || true && { \builtin unalias -- 'unsetenv'; \builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1 || true && eval 'git status' < /dev/null && pwd -P >| /tmp/claude-1aad-cwd`,
		"claude-bash-nosnapshot-unalias", `git status`,
	},
	{
		"heredoc: no stdin redirect",
		"source /root/.claude/shell-snapshots/snapshot-bash-1787326986906-4m87dp.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && { \\builtin unalias -- 'unsetenv'; \\builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1 || true && eval 'cat <<'\"'\"'EOF'\"'\"'\nhi\nEOF' && pwd -P >| /tmp/claude-944b-cwd",
		"claude-bash-unalias", "cat <<'EOF'\nhi\nEOF",
	},
	{
		"shell-quote bare word",
		`source '/root/.claude/shell-snapshots/snapshot-bash-1787774876905-r620mp.sh' 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval ls < /dev/null && pwd -P >| /tmp/claude-944b-cwd`,
		"claude-bash", `ls`,
	},
	{
		"shell-quote double quotes",
		`source /root/.claude/shell-snapshots/snapshot-bash-1787774876905-r620mp.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval "echo 'it'\''s' \$HOME" < /dev/null && pwd -P >| /tmp/claude-944b-cwd`,
		"claude-bash", `echo 'it'\''s' $HOME`,
	},
}

// Look-alikes: each is judged as the composite it is.
var envelopeHostile = []struct{ name, in string }{
	{"command after eval", `source /root/.claude/shell-snapshots/snapshot-bash-1-a.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && rm -rf ~ && pwd -P >| /tmp/claude-1234-cwd`},
	{"command before eval", `source /root/.claude/shell-snapshots/snapshot-bash-1-a.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && rm -rf ~ && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"cwd file outside the temp dir", `source /root/.claude/shell-snapshots/snapshot-bash-1-a.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /root/.bashrc`},
	{"cwd file in a temp subdir", `shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/x/claude-1234-cwd`},
	{"cwd file with dotdot", `shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/../etc/claude-1234-cwd`},
	{"cwd file name", `shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/profile`},
	{"extra source", `source /root/.claude/shell-snapshots/snapshot-bash-1-a.sh 2>/dev/null || true && source /root/.claude/shell-snapshots/snapshot-bash-2-b.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"snapshot elsewhere", `source /tmp/snapshot-bash-1-a.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"snapshot other name", `source /root/.claude/shell-snapshots/evil.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"snapshot expanded", `source $HOME/.claude/shell-snapshots/snapshot-bash-1-a.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"redirect appended", `shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd > /root/.bashrc`},
	{"redirect on eval", `shopt -u extglob 2>/dev/null || true && eval 'ls' > /root/.bashrc && pwd -P >| /tmp/claude-1234-cwd`},
	{"second eval word", `shopt -u extglob 2>/dev/null || true && eval 'ls' '; rm -rf ~' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"payload expands", `shopt -u extglob 2>/dev/null || true && eval "$(curl x)" < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"payload param", `shopt -u extglob 2>/dev/null || true && eval $X < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"payload glob", `shopt -u extglob 2>/dev/null || true && eval r* < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"semicolon instead of and", `shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null ; pwd -P >| /tmp/claude-1234-cwd`},
	{"or before cwd", `shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null || rm -rf ~ && pwd -P >| /tmp/claude-1234-cwd`},
	{"background", `shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd &`},
	{"trailing statement", "shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd\nrm -rf ~"},
	{"assignment before eval", `shopt -u extglob 2>/dev/null || true && PATH=/x eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"shopt changed", `shopt -s extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"unalias other name", `shopt -u extglob 2>/dev/null || true && { \builtin unalias -- 'rm'; \builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1 || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"negated", `! shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"comment", `shopt -u extglob 2>/dev/null || true && eval 'ls' < /dev/null && pwd -P >| /tmp/claude-1234-cwd # x`},
	{"subshell eval", `shopt -u extglob 2>/dev/null || true && (eval 'ls') < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"no eval", `shopt -u extglob 2>/dev/null || true && ls < /dev/null && pwd -P >| /tmp/claude-1234-cwd`},
	{"plain command", `git status`},
	{"does not parse", `eval 'ls`},
}

func TestEnvelopeCaptures(t *testing.T) {
	for _, c := range envelopeCaptures {
		got, ok := RecognizeEnvelope(c.in, envCtx)
		if c.shape == "" {
			if ok {
				t.Errorf("%s: recognised as %s, want not recognised", c.name, got.Shape)
			}
			continue
		}
		if !ok {
			t.Errorf("%s: not recognised", c.name)
			continue
		}
		if got.Shape != c.shape || got.Payload != c.payload || got.Agent != "claude" {
			t.Errorf("%s: got %+v, want shape %s payload %q", c.name, got, c.shape, c.payload)
		}
	}
}

func TestEnvelopeHostile(t *testing.T) {
	for _, c := range envelopeHostile {
		if got, ok := RecognizeEnvelope(c.in, envCtx); ok {
			t.Errorf("%s: recognised as %s with payload %q; want judged as the composite it is", c.name, got.Shape, got.Payload)
		}
	}
}

// The recognised envelope must not hide what the payload does: the payload
// is what Analyze judges.
func TestEnvelopePayloadIsJudged(t *testing.T) {
	in := `shopt -u extglob 2>/dev/null || true && eval 'rm -rf /' < /dev/null && pwd -P >| /tmp/claude-1234-cwd`
	e, ok := RecognizeEnvelope(in, envCtx)
	if !ok || e.Payload != "rm -rf /" {
		t.Fatalf("got %+v %v", e, ok)
	}
	if a := Analyze(e.Payload, Options{Cwd: "/tmp", Home: "/root"}); len(a.Deny) == 0 && a.Fail == "" {
		t.Errorf("payload %q not denied: %+v", e.Payload, a)
	}
}

func FuzzEnvelope(f *testing.F) {
	for _, c := range envelopeCaptures {
		f.Add(c.in)
	}
	for _, c := range envelopeHostile {
		f.Add(c.in)
	}
	f.Add(geminiWrap("git status"))
	f.Add(geminiWrap("ls\n)\nrm -rf ~\n(\n:"))
	f.Fuzz(func(t *testing.T, in string) {
		e, ok := RecognizeEnvelope(in, envCtx)
		if !ok {
			return
		}
		if e.Agent == "gemini" {
			checkEnvelopeAddsOnlyPlumbing(t, in, e.Payload)
			return
		}
		// what is recognised ends with Claude's cwd write and holds an eval
		if !strings.Contains(in, "eval ") || !strings.Contains(in, "pwd -P >| /tmp/claude-") {
			t.Fatalf("recognised %q as %s", in, e.Shape)
		}
		checkEnvelopeAddsOnlyPlumbing(t, in, e.Payload)
	})
}

// envelopePlumbing are the commands an envelope itself runs.
var envelopePlumbing = map[string]bool{"source": true, "true": true, "shopt": true, "builtin": true, "unalias": true,
	"unset": true, "export": true, "eval": true, "pwd": true, "trap": true, "jobs": true, "exit": true}

// checkEnvelopeAddsOnlyPlumbing: every command the whole text runs is
// either envelope plumbing or one the payload runs.
func checkEnvelopeAddsOnlyPlumbing(t *testing.T, text, payload string) {
	t.Helper()
	opt := Options{Cwd: "/tmp", Home: "/root"}
	inPayload := map[string]bool{}
	for _, c := range Analyze(payload, opt).Commands {
		inPayload[c.Name] = true
	}
	for _, c := range Analyze(text, opt).Commands {
		// A name the analysis of the whole text could not resolve (an
		// assignment after && is only maybe-run) is judged as an unknown
		// program, never less strictly than the name the payload resolves.
		if c.Name == "" && len(c.Dynamic) > 0 && c.Dynamic[0] {
			continue
		}
		if !envelopePlumbing[c.Name] && !inPayload[c.Name] {
			t.Fatalf("envelope %q runs %q, which its payload %q does not", text, c.Name, payload)
		}
	}
}

func TestEnvelopeAddsOnlyPlumbing(t *testing.T) {
	for _, c := range envelopeCaptures {
		if e, ok := RecognizeEnvelope(c.in, envCtx); ok {
			checkEnvelopeAddsOnlyPlumbing(t, c.in, e.Payload)
		}
	}
}

// geminiWrap is Gemini CLI's wrapper, as ShellExecutionService and the shell
// tool build it (wrapCommandForBackgroundPIDs, ensurePromptvarsDisabled).
func geminiWrap(cmd string) string {
	return "shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=/tmp/gemini-shell-Ab12Cd/bgpids.tmp\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n" + cmd + "\n)\n__code=$?\nexit $__code"
}

func TestEnvelopeGemini(t *testing.T) {
	for _, cmd := range []string{"git status", "npm test 2>&1 | tail -5", "cat <<'EOF'\nhi\nEOF", "sleep 10 &"} {
		e, ok := RecognizeEnvelope(geminiWrap(cmd), envCtx)
		if !ok || e.Payload != cmd || e.Agent != "gemini" {
			t.Errorf("%q: got %+v %v", cmd, e, ok)
			continue
		}
		checkEnvelopeAddsOnlyPlumbing(t, geminiWrap(cmd), cmd)
	}
	for _, c := range []struct{ name, in string }{
		{"breaks out of the subshell", geminiWrap("ls\n)\nrm -rf ~\n(\n:")},
		{"retargets the trap", geminiWrap("_bgpids_file=~/.bashrc; sleep 1 &")},
		{"unterminated heredoc swallows the tail", geminiWrap("cat <<EOF\nx")},
		{"pids file elsewhere", strings.Replace(geminiWrap("ls"), "/tmp/gemini-shell-Ab12Cd/", "/home/u/", 1)},
		{"pids file in another dir", strings.Replace(geminiWrap("ls"), "gemini-shell-Ab12Cd", "evil", 1)},
		{"command appended", geminiWrap("ls") + "\nrm -rf ~"},
		{"trap changed", strings.Replace(geminiWrap("ls"), "jobs -p", "rm -rf ~;jobs -p", 1)},
		{"empty", geminiWrap("")},
		{"eval builds the name", geminiWrap(`eval "_bgp""ids_file=~/.bashrc"; sleep 1 &`)},
		{"read sets a name", geminiWrap(`read -r x <<< y`)},
		{"printf -v", geminiWrap(`printf -v "$n" x`)},
		{"dynamic command", geminiWrap(`$cmd x`)},
		{"declare", geminiWrap(`declare -g x=1`)},
	} {
		if e, ok := RecognizeEnvelope(c.in, envCtx); ok {
			t.Errorf("%s: recognised with payload %q", c.name, e.Payload)
		}
	}
}

// wordValue resolves quotes as bash does, for every word literalWord
// accepts (guard does not link mvdan's expand: its init costs every run).
// The table is confirmed against real bash; the fuzz against expand.Literal,
// which agrees with bash where no backslash stands outside quotes.
func literalArgs(in string) []*syntax.Word {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("x "+in), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil
	}
	c, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok {
		return nil
	}
	var out []*syntax.Word
	for _, w := range c.Args[1:] {
		if _, ok := literalWord(w); ok {
			out = append(out, w)
		}
	}
	return out
}

func TestWordValue(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`ls`, "ls"}, {`'a b'`, "a b"}, {`"a b"`, "a b"}, {`a\ b`, "a b"}, {`'it'"'"'s'`, "it's"},
		{`"echo 'it'\''s' \$HOME"`, `echo 'it'\''s' $HOME`}, {`"a\"b\\c\d"`, `a"b\c\d`}, {"a\\\nb", "ab"},
		{`"\!x"`, `\!x`}, {`\\x`, `\x`}, {`x'y'"z"`, "xyz"}, {`'\n'`, `\n`},
	} {
		ws := literalArgs(tc.in)
		if len(ws) != 1 {
			t.Errorf("%q: not one literal word", tc.in)
			continue
		}
		if got := wordValue(ws[0]); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
		if testing.Short() {
			continue
		}
		out, err := exec.Command("bash", "-c", "printf %s "+tc.in).Output()
		if err == nil && string(out) != tc.want {
			t.Errorf("%q: bash says %q, the table %q", tc.in, out, tc.want)
		}
	}
}

func FuzzWordValue(f *testing.F) {
	for _, in := range []string{`'a b'`, `"a\"b\\c\d"`, `'it'"'"'s'`, `x'y'"z"`} {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, w := range literalArgs(in) {
			got := wordValue(w)
			if strings.Contains(wordSource(w), "\\") {
				continue // expand.Literal keeps a backslash bash removes
			}
			if want, err := expand.Literal(nil, w); err == nil && got != want {
				t.Fatalf("%q: wordValue %q, expand.Literal %q", in, got, want)
			}
		}
	})
}

// TestEnvelopeRewrite: the rewritten text is the envelope's own, byte for
// byte, except the snapshot sourced from a descriptor and pwd -P writing to
// another, both closed for the payload (issue 22: bash followed a link
// planted at the cwd file).
func TestEnvelopeRewrite(t *testing.T) {
	for _, c := range envelopeCaptures {
		if c.shape == "" {
			continue
		}
		e, ok := RecognizeEnvelope(c.in, envCtx)
		if !ok {
			t.Fatalf("%s: not recognised", c.name)
		}
		if e.CwdFile == "" || !strings.HasPrefix(e.CwdFile, "/tmp/claude-") {
			t.Errorf("%s: cwd file %q", c.name, e.CwdFile)
		}
		got, ok := e.Rewrite(4, 3)
		if !ok {
			t.Fatalf("%s: no rewrite", c.name)
		}
		want := strings.Replace(c.in, "pwd -P >| "+e.CwdFile, "pwd -P >&3", 1)
		if e.Sourced != "" {
			want = strings.Replace(want, "source "+c.in[e.srcWord.start:e.srcWord.end]+" ", "source /dev/fd/4 ", 1)
		}
		closes := " 3>&-"
		if e.Sourced != "" {
			closes += " 4<&-"
		}
		i := strings.LastIndex(want, " && pwd -P >&3")
		want = want[:i] + closes + want[i:]
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, want)
		}
		if _, err := syntax.NewParser().Parse(strings.NewReader(got), ""); err != nil {
			t.Errorf("%s: the rewrite does not parse: %v", c.name, err)
		}
		if nosnap, _ := e.Rewrite(-1, 3); e.Sourced != "" && !strings.Contains(nosnap, "source /dev/null 2>/dev/null") {
			t.Errorf("%s: a missing snapshot is still sourced: %s", c.name, nosnap)
		}
	}
	g, ok := RecognizeEnvelope(geminiWrap("ls"), envCtx)
	if !ok {
		t.Fatal("gemini's wrapper not recognised")
	}
	if _, ok := g.Rewrite(4, 3); ok {
		t.Error("gemini's wrapper, which has no cwd file, was rewritten")
	}
}
