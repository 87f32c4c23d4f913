package shim

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/classify"
)

// hookRun runs guard hook AGENT in this process, on the real engine (config
// and state under the test HOME), with input on stdin.
func hookRun(t *testing.T, agent, input string) (stdout, stderr string, exit int) {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.WriteFile(in, []byte(input), 0o600); err != nil {
		t.Fatal(err)
	}
	files := make([]*os.File, 3)
	for i, name := range []string{"in", "out", "err"} {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		files[i] = f
	}
	self, _ := os.Executable()
	env := Env{Stdin: files[0], Stdout: files[1], Stderr: files[2], Args: []string{"guard", "hook", agent},
		Getenv: os.Getenv, Environ: os.Environ(), Cwd: dir, Now: time.Now, Self: self}
	exit = Front(env)
	o, _ := os.ReadFile(filepath.Join(dir, "out"))
	e, _ := os.ReadFile(filepath.Join(dir, "err"))
	return string(o), string(e), exit
}

// request builds the agent's JSON for a command, as each agent sends it.
func request(agent, command string) string {
	var v any
	switch agent {
	case "claude":
		v = map[string]any{"session_id": "sess-1", "transcript_path": "/x.jsonl", "cwd": "/tmp", "permission_mode": "acceptEdits",
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": command, "description": "d"}}
	case "codex":
		v = map[string]any{"session_id": "sess-1", "turn_id": "t", "cwd": "/tmp", "hook_event_name": "PreToolUse", "model": "m",
			"permission_mode": "default", "tool_name": "Bash", "tool_use_id": "c1", "tool_input": map[string]any{"command": command}}
	case "gemini":
		v = map[string]any{"session_id": "sess-1", "cwd": "/tmp", "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T00:00:00Z",
			"tool_name": "run_shell_command", "tool_input": map[string]any{"command": command}}
	default:
		v = map[string]any{"command": command, "cwd": "/tmp", "session_id": "sess-1"}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

const (
	denyReason = "guard: deny: privilege: runs a command as another user (sudo, su, doas, pkexec, run0); guard never runs this: ask the human to run it; do not retry or work around it"
	askReason  = "guard: ask: unknown: no grant covers touch"
)

// TestHookProtocols is the golden answer of every agent to allow, ask and deny.
func TestHookProtocols(t *testing.T) {
	self, _ := os.Executable()
	rewritten, _ := classify.QuoteArgv([]string{self, "-c", "touch x"})
	for _, tc := range []struct{ agent, command, want string }{
		{"claude", "git status", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"guard: allow: builtin-readonly: git only reads"}}`},
		{"claude", "touch x", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"` + askReason + `"}}`},
		{"claude", "sudo -n true", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + denyReason + `"}}`},
		{"codex", "git status", ``},
		{"codex", "touch x", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"` + askReason + `; routed through guard for approval","updatedInput":{"command":` + jsonString(rewritten) + `}}}`},
		{"codex", "sudo -n true", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + denyReason + `"}}`},
		{"gemini", "git status", `{"decision":"allow"}`},
		{"gemini", "touch x", `{"decision":"ask","systemMessage":"` + askReason + `"}`},
		{"gemini", "sudo -n true", `{"decision":"deny","reason":"` + denyReason + `"}`},
		{"opencode", "git status", `{"command":"git status","decision":"allow","rule":"builtin-readonly","reason":"git only reads","risk":"none","composite":false,"commands":[["git","status"]],"layer":"builtin"}`},
		{"pi", "touch x", `{"command":"touch x","decision":"ask","rule":"unknown","reason":"no grant covers touch","risk":"low","composite":false,"commands":[["touch","x"]],"layer":"builtin","suggest":"touch x"}`},
		{"pi", "sudo -n true", `{"command":"sudo -n true","decision":"deny","rule":"privilege","reason":"runs a command as another user (sudo, su, doas, pkexec, run0); guard never runs this: ask the human to run it","risk":"high","composite":false,"commands":[["sudo","-n","true"],["true"]],"layer":"builtin"}`},
	} {
		out, errOut, exit := hookRun(t, tc.agent, request(tc.agent, tc.command))
		want := tc.want
		if want != "" {
			want += "\n"
		}
		if out != want || exit != 0 {
			t.Errorf("%s %q: exit %d\n got %s\nwant %s\nstderr %s", tc.agent, tc.command, exit, out, want, errOut)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(string(b), `\u003c`, "<"), `\u003e`, ">"), `\u0026`, "&")
}

// TestHookBadInput: whatever comes in, every agent gets a deny in its own
// protocol and exit 0, never 1 (which Claude, Codex and Gemini run on).
func TestHookBadInput(t *testing.T) {
	long := strings.Repeat("a", classify.MaxTextBytes+1)
	for _, tc := range []struct{ name, rule, input string }{
		{"not json", "hook-input", "rm -rf /"},
		{"empty", "hook-input", ""},
		{"no command", "hook-input", `{"tool_input":{}}`},
		{"command not a string", "hook-input", `{"tool_name":"Bash","command":7,"tool_input":{"command":{"x":1}}}`},
		{"relative cwd", "hook-input", `{"tool_name":"Bash","cwd":"proj","command":"ls","tool_input":{"command":"ls"}}`},
		// issue 22: null was read as "" and answered allow
		{"null command", "hook-input", `{"tool_name":"Bash","command":null,"tool_input":{"command":null}}`},
		{"number command", "hook-input", `{"tool_name":"Bash","command":3,"tool_input":{"command":3}}`},
		{"bool command", "hook-input", `{"tool_name":"Bash","command":true,"tool_input":{"command":true}}`},
		{"empty command", "hook-input", `{"tool_name":"Bash","command":"","tool_input":{"command":""}}`},
		{"blank command", "hook-input", `{"tool_name":"Bash","command":" \n\t","tool_input":{"command":" \n\t"}}`},
		{"empty list", "hook-input", `{"tool_name":"Bash","tool_input":{"command":[]}}`},
		{"list with null", "hook-input", `{"tool_name":"Bash","tool_input":{"command":[null]}}`},
		{"list with a number", "hook-input", `{"tool_name":"Bash","tool_input":{"command":["ls",1]}}`},
		{"list with an empty program", "hook-input", `{"tool_name":"Bash","tool_input":{"command":[""]}}`},
		{"shell list with null script", "hook-input", `{"tool_name":"Bash","tool_input":{"command":["bash","-lc",null]}}`},
		{"shell list with empty script", "hook-input", `{"tool_name":"Bash","tool_input":{"command":["bash","-c",""]}}`},
		{"tool_input null", "hook-input", `{"tool_input":null}`},
		{"tool_input a string", "hook-input", `{"tool_input":"ls"}`},
		{"oversized command", "too-long", `{"tool_name":"Bash","command":"` + long + `","tool_input":{"command":"` + long + `"}}`},
		{"oversized input", "too-long", `{"tool_name":"Bash","x":"` + strings.Repeat("b", maxHookInput) + `"}`},
	} {
		for _, agent := range []string{"claude", "codex", "gemini", "opencode", "pi"} {
			out, _, exit := hookRun(t, agent, tc.input)
			var got struct {
				Decision string `json:"decision"`
				Rule     string `json:"rule"`
				Reason   string `json:"reason"`
				H        struct {
					D string `json:"permissionDecision"`
					R string `json:"permissionDecisionReason"`
				} `json:"hookSpecificOutput"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil || exit != 0 {
				t.Errorf("%s %s: exit %d, stdout %q", tc.name, agent, exit, out)
				continue
			}
			d, why := got.Decision, got.Reason+got.Rule
			if agent == "claude" || agent == "codex" {
				d, why = got.H.D, got.H.R
			}
			if d != "deny" || !strings.Contains(why, tc.rule) {
				t.Errorf("%s %s: got %s", tc.name, agent, out)
			}
		}
	}
}

// TestHookOtherTools: a hook matched to a tool that is not the shell has
// no opinion (no output, exit 0), so Claude's own rules apply to it.
func TestHookOtherTools(t *testing.T) {
	out, _, exit := hookRun(t, "claude", `{"tool_name":"Read","tool_input":{"file_path":"/etc/passwd"}}`)
	if out != "" || exit != 0 {
		t.Errorf("exit %d stdout %q", exit, out)
	}
	for _, args := range [][]string{{"nosuch"}, {}, {"claude", "extra"}} {
		_, errOut, exit := hookRun(t, strings.Join(args, " "), "{}")
		if exit != ExitUsage || !strings.HasPrefix(errOut, "guard: error: ") {
			t.Errorf("%q: exit %d stderr %q", args, exit, errOut)
		}
	}
}

// TestHookCodexRewrite: Codex's ask keeps the other tool_input fields, and
// an argv command stays an argv; the directory the tool names is judged.
func TestHookCodexRewrite(t *testing.T) {
	self, _ := os.Executable()
	in := `{"cwd":"/tmp","tool_name":"shell","tool_input":{"command":["bash","-lc","touch x"],"workdir":"/var","timeout_ms":5}}`
	out, _, _ := hookRun(t, "codex", in)
	var got struct {
		H struct {
			D  string         `json:"permissionDecision"`
			In map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(out)
	}
	cmd, _ := json.Marshal(got.H.In["command"])
	want, _ := json.Marshal([]string{self, "-c", "touch x"})
	if got.H.D != "allow" || string(cmd) != string(want) || got.H.In["workdir"] != "/var" || got.H.In["timeout_ms"] != float64(5) {
		t.Errorf("got %s", out)
	}
	// cd-relative judging sees workdir: .ssh under HOME is a credential directory
	out, _, _ = hookRun(t, "gemini", `{"cwd":"`+os.Getenv("HOME")+`","tool_name":"run_shell_command","tool_input":{"command":"cat id_rsa","dir_path":".ssh"}}`)
	if !strings.Contains(out, `"decision":"deny"`) && !strings.Contains(out, `"decision":"ask"`) {
		t.Errorf("cat id_rsa in ~/.ssh: %s", out)
	}
}

// TestHookRecordsSession: the decision is in the journal with the agent's
// name and session id.
func TestHookRecordsSession(t *testing.T) {
	hookRun(t, "gemini", `{"session_id":"sess-rec-9","cwd":"/tmp","tool_name":"run_shell_command","tool_input":{"command":"git log -n 1"}}`)
	f, err := os.Open(filepath.Join(os.Getenv("XDG_STATE_HOME"), "guard", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	found := false
	for s := bufio.NewScanner(f); s.Scan(); {
		var r struct{ Agent, Session, Mode, Decision, Command string }
		if json.Unmarshal(s.Bytes(), &r) == nil && r.Session == "sess-rec-9" {
			found = r.Agent == "gemini" && r.Mode == "hook" && r.Decision == "allow" && r.Command == "git log -n 1"
		}
	}
	if !found {
		t.Error("no hook record with agent gemini and session sess-rec-9")
	}
}
