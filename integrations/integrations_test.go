package integrations

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeHook stands in for `guard hook opencode` so that the plugin's own
// contract can be tested on its own: whatever guard answers (or fails to),
// the plugin runs a command only on allow, hands ask to guard's shell, and
// blocks everything else. It answers $FAKE_ANSWER and keeps its stdin.
const fakeHook = `#!/bin/sh
cat > "$FAKE_DIR/request.json"
case $FAKE_ANSWER in
exit1) echo 'boom' >&2; exit 1 ;;
silent) exit 0 ;;
esac
printf '%s\n' "$FAKE_ANSWER"
`

// runner imports the installed plugin and calls its hook once.
const runner = `
import { GuardPlugin } from "./guard.mjs"
const hooks = await GuardPlugin({ directory: process.env.FAKE_DIR })
const input = { tool: process.argv[2], sessionID: "ses_1", callID: "c1" }
const output = { args: { command: process.argv[3] } }
try {
  await hooks["tool.execute.before"](input, output)
  console.log(JSON.stringify({ threw: false, command: output.args.command }))
} catch (e) {
  console.log(JSON.stringify({ threw: true, message: e.message }))
}
`

type runResult struct {
	Threw   bool   `json:"threw"`
	Message string `json:"message"`
	Command string `json:"command"`
}

func TestOpenCodePlugin(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	guard := filepath.Join(dir, "bin dir", "guard")
	if err := os.MkdirAll(filepath.Dir(guard), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(guard, []byte(fakeHook), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"guard.mjs": OpenCode(guard), "runner.mjs": runner} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(answer, tool, command string) runResult {
		t.Helper()
		cmd := exec.Command(node, "runner.mjs", tool, command)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "FAKE_DIR="+dir, "FAKE_ANSWER="+answer)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("node: %v: %s", err, out)
		}
		var r runResult
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("runner output %q: %v", out, err)
		}
		return r
	}
	quotedGuard := "'" + guard + "'"
	cases := []struct {
		name, answer, command string
		threw                 bool
		want                  string // the command after the hook, or the error
	}{
		{"allow", `{"decision":"allow"}`, "git status", false, "git status"},
		{"allow with guard's rewrite", `{"decision":"allow","command":"git status --short"}`, "git status", false, "git status --short"},
		{"deny", `{"decision":"deny","reason":"privilege: sudo is never allowed"}`, "sudo -n true", true, "guard: denied: privilege: sudo is never allowed"},
		{"deny in guard's words", `{"decision":"deny","reason":"guard: denied: x"}`, "sudo -n true", true, "guard: denied: x"},
		{"ask goes to guard's shell", `{"decision":"ask","reason":"unknown"}`, "npm install it's", false,
			"GUARD_AGENT=opencode " + quotedGuard + " -c 'npm install it'\\''s'"},
		{"an unknown decision blocks", `{"decision":"maybe"}`, "ls", true, "guard: denied: unknown decision from guard"},
		{"garbage blocks", `not json`, "ls", true, "guard: denied: guard hook failed: answer is not JSON"},
		{"no decision blocks", `{"reason":"x"}`, "ls", true, "guard: denied: guard hook failed: answer has no decision"},
		{"a crash blocks", `exit1`, "ls", true, "guard: denied: guard hook failed: exited with status 1 without an answer"},
		{"silence blocks", `silent`, "ls", true, "guard: denied: guard hook failed: exited with status 0 without an answer"},
	}
	for _, tc := range cases {
		r := run(tc.answer, "bash", tc.command)
		got := r.Command
		if r.Threw {
			got = r.Message
		}
		if r.Threw != tc.threw || got != tc.want {
			t.Errorf("%s: threw=%v %q, want threw=%v %q", tc.name, r.Threw, got, tc.threw, tc.want)
		}
	}
	// what the plugin asked guard
	req, err := os.ReadFile(filepath.Join(dir, "request.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(req, &got); err != nil {
		t.Fatal(err)
	}
	if got["command"] != "ls" || got["cwd"] != dir || got["session_id"] != "ses_1" || len(got) != 3 {
		t.Errorf("request = %v", got)
	}
	// other tools do not reach guard
	os.Remove(filepath.Join(dir, "request.json"))
	if r := run(`{"decision":"deny"}`, "read", "x"); r.Threw {
		t.Errorf("read tool blocked: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "request.json")); err == nil {
		t.Error("guard was asked about a read")
	}
	// guard missing: blocked
	if err := os.Remove(guard); err != nil {
		t.Fatal(err)
	}
	if r := run(`{"decision":"allow"}`, "bash", "ls"); !r.Threw || !strings.HasPrefix(r.Message, "guard: denied: guard hook failed: ") {
		t.Errorf("missing guard: %+v", r)
	}
}

func TestFillEscapes(t *testing.T) {
	got := OpenCode(`/we"ird\path`)
	if !strings.Contains(got, `const GUARD = "/we\"ird\\path"`) || strings.Contains(got, GuardPlaceholder) {
		t.Errorf("placeholder not filled safely")
	}
	if !strings.Contains(Pi("/g"), `const GUARD = "/g";`) {
		t.Error("pi placeholder not filled")
	}
}
