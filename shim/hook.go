package shim

// guard hook AGENT: the agent's pre-tool hook, in the lean binary.
//
// The agent runs it before each shell command, with a JSON object on stdin,
// and reads the answer in its own protocol. The decision is the one guard -c
// would make (classify.Analyze, grants.Load and Decide), and it is recorded
// the same way, with the agent's name and session. An agent treats most
// non-zero exits as "go on", so nothing here exits 1: input that cannot be
// read, or anything that goes wrong, is answered with a deny.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/redact"
)

// modeHook is the audit mode of a decision made for an agent's hook.
const modeHook = "hook"

// maxHookInput bounds what a hook reads from stdin: a command at the size
// guard judges, escaped as JSON (\u00XX is six bytes), and the agent's other
// fields. More is refused, never cut: a cut command is another command.
const maxHookInput = 6*classify.MaxTextBytes + 64<<10

// Rules a hook reports when it could not judge the command.
const (
	ruleHookInput = "hook-input" // stdin is not the agent's JSON
	ruleHookError = "hook-error" // guard failed
)

// hookIn is what every supported agent sends, as far as guard reads it.
// Claude Code, Codex and Gemini CLI put the command in tool_input; guard's
// own protocol (OpenCode's and Pi's plugins) puts it at the top level.
type hookIn struct {
	SessionID      string                     `json:"session_id"`
	Cwd            string                     `json:"cwd"`
	HookEventName  string                     `json:"hook_event_name"`
	PermissionMode string                     `json:"permission_mode"`
	ToolName       string                     `json:"tool_name"`
	ToolInput      map[string]json.RawMessage `json:"tool_input"`
	Command        *string                    `json:"command"` // guard's own protocol
}

// hookVerdict is one hook's decision, ready to answer in any protocol.
type hookVerdict struct {
	v        grants.Verdict
	an       *classify.Analysis // nil when the input could not be judged
	text     string             // the command, unredacted
	in       hookIn
	cmdField json.RawMessage // tool_input.command as sent (codex rewrites it)
	self     string          // guard's own path, for a rewrite
	redact   func(string) string
}

// hookProtocol is one agent's side of the conversation.
type hookProtocol struct {
	agent string
	// shellTools are the tool names whose tool_input.command is a shell
	// command; nil: guard's own protocol (the command at the top level).
	shellTools []string
	// dirField names the tool_input field that moves the command's
	// directory relative to cwd ("" for none).
	dirField string
	// askAnswer is how an ask is recorded: who asks the human.
	askAnswer string
	// tickets: an ask leaves a ticket for guard as this agent's shell
	// (see hook_ticket.go); alwaysAsks: the agent's prompt shows for an ask
	// in every mode (Gemini forces it), so no permission mode is needed.
	tickets, alwaysAsks bool
	// answer writes the reply and returns the exit status.
	answer func(w io.Writer, h *hookVerdict) int
}

// Recorded answers for an ask a hook hands on.
const (
	answerAgent  = "agent"  // the agent's own prompt asks the human
	answerRouted = "routed" // the command was rewritten to run through guard, which asks
	answerPlugin = "plugin" // guard's plugin in the agent decides how to ask
	viaHook      = "hook"
)

// hookProtocols is the table of agents guard hook answers.
var hookProtocols = []hookProtocol{
	{agent: "claude", shellTools: []string{"Bash"}, askAnswer: answerAgent, tickets: true, answer: answerClaude},
	{agent: "codex", shellTools: []string{"Bash", "shell", "local_shell", "exec_command", "shell_command", "container.exec"},
		dirField: "workdir", askAnswer: answerRouted, answer: answerCodex},
	{agent: "gemini", shellTools: []string{"run_shell_command"}, dirField: "dir_path", askAnswer: answerAgent,
		tickets: true, alwaysAsks: true, answer: answerGemini},
	{agent: "opencode", askAnswer: answerPlugin, answer: answerCheckJSON},
	{agent: "pi", askAnswer: answerPlugin, answer: answerCheckJSON},
}

func protocolFor(agent string) (hookProtocol, bool) {
	for _, p := range hookProtocols {
		if p.agent == agent {
			return p, true
		}
	}
	return hookProtocol{}, false
}

// Hook runs guard hook AGENT (args are the words after hook) and returns
// the exit status. It never returns 1.
func Hook(env Env, args []string) (exit int) {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		// 2: Claude Code, Codex and Gemini CLI all block on it
		fmt.Fprintf(env.Stderr, "guard: error: usage: guard hook AGENT (one of %s)\n", hookAgents())
		return ExitUsage
	}
	p, ok := protocolFor(args[0])
	if !ok {
		fmt.Fprintf(env.Stderr, "guard: error: guard hook: unknown agent %q (one of %s)\n", oneLine(args[0]), hookAgents())
		return ExitUsage
	}
	a := newApp(env)
	defer a.close()
	a.agentOnce.Do(func() { a.agentName = p.agent })
	return a.hook(p)
}

func hookAgents() string {
	names := make([]string, len(hookProtocols))
	for i, p := range hookProtocols {
		names[i] = p.agent
	}
	return strings.Join(names, ", ")
}

// hook reads, judges, records and answers one request.
func (a *app) hook(p hookProtocol) (exit int) {
	start := a.env.now()
	h := &hookVerdict{self: a.env.Self, redact: a.eng.redact}
	defer func() {
		// a bug here must deny, never fail open
		if r := recover(); r != nil {
			h.v = grants.Verdict{Decision: grants.Deny, Rule: ruleHookError, Reason: fmt.Sprintf("internal error: %v", r), Risk: grants.RiskHigh}
			exit = a.hookAnswer(p, h)
		}
	}()
	raw, err := readHookInput(a.env.Stdin)
	if err == nil {
		err = decodeHookIn(raw, &h.in) // as json.Unmarshal (hookjson.go)
	}
	if err != nil {
		h.v = hookDeny(ruleHookInput, "cannot read the agent's request: "+err.Error())
		if errors.Is(err, errTooLong) {
			h.v.Rule = classify.FailTooLong
		}
		a.record(job{mode: modeHook, cwd: a.env.Cwd}, h.v, "deny", byRule, 0, start)
		return a.hookAnswer(p, h)
	}
	text, field, isShell, err := p.command(&h.in)
	if !isShell {
		// not a shell command (a matcher wider than the shell tool): no opinion
		return 0
	}
	cwd, cerr := p.cwd(&h.in, a.env.Cwd)
	if err == nil {
		err = cerr
	}
	h.text, h.cmdField = text, field
	j := job{mode: modeHook, text: text, cwd: cwd, session: h.in.SessionID}
	if err != nil {
		h.v = hookDeny(ruleHookInput, err.Error())
		a.record(j, h.v, "deny", byRule, 0, start)
		return a.hookAnswer(p, h)
	}
	opts := classify.Options{Cwd: cwd, Home: a.env.getenv("HOME"), Protected: a.eng.protected(), Positional: []string{"bash"}}
	h.an = a.eng.analyze(text, opts)
	if len(h.an.Secrets) > 0 {
		base := a.eng.redact
		a.eng.redact = func(s string) string { return base(redact.Values(s, h.an.Secrets)) }
		h.redact = a.eng.redact
	}
	s := a.eng.settings(cwd)
	if s == nil {
		s = &grants.Settings{Unknown: grants.Deny, Err: errors.New("settings not loaded")}
	}
	s = s.As(p.agent) // [agents.NAME] profiles, power_agents, [[rule]] tables naming it
	a.root, a.telemetry = s.Root, s.Telemetry.Enabled()
	h.v = a.eng.decide(h.an, s)
	if h.v.Decision != grants.Allow && grants.WouldAllowTrusted(h.an, s, nil, h.v) {
		h.v.Reason += "; " + grants.UntrustedHint
	}
	how := byRule
	if h.v.Decision == grants.Ask {
		how = answered{p.askAnswer, viaHook}
		if p.tickets {
			mode := h.in.PermissionMode
			if p.alwaysAsks {
				mode = askingModes[0]
			}
			a.leaveTicket(j, mode)
		}
	}
	a.record(j, h.v, string(h.v.Decision), how, 0, start)
	return a.hookAnswer(p, h)
}

// hookAnswer writes the reply. A reply that cannot be written is a deny by
// exit status: 2 with the reason on stderr blocks in every agent.
func (a *app) hookAnswer(p hookProtocol, h *hookVerdict) int {
	var buf bytes.Buffer
	exit := p.answer(&buf, h)
	if _, err := a.env.Stdout.Write(buf.Bytes()); err != nil {
		fmt.Fprintf(a.env.Stderr, "guard: denied: %s: cannot answer the agent: %v\n", ruleHookError, err)
		return ExitUsage
	}
	return exit
}

func hookDeny(rule, reason string) grants.Verdict {
	return grants.Verdict{Decision: grants.Deny, Rule: rule, Reason: reason, Risk: grants.RiskHigh}
}

// readHookInput reads stdin whole, up to maxHookInput.
func readHookInput(r io.Reader) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no input")
	}
	b, err := io.ReadAll(io.LimitReader(r, maxHookInput+1))
	if err != nil {
		return nil, fmt.Errorf("read stdin: %w", err)
	}
	if len(b) > maxHookInput {
		return nil, fmt.Errorf("request is longer than %d KiB: %w", maxHookInput>>10, errTooLong)
	}
	return b, nil
}

// command finds the shell command in the request. isShell is false when the
// request is about another tool, which guard does not judge. Only a JSON
// string (or a list of strings) is a command: null, a number, an object, a
// list holding anything but strings, and an empty or blank command are
// errors, which the caller answers with a deny. encoding/json would read
// null into a string as "" without a word, and "" judged is an allow.
func (p hookProtocol) command(in *hookIn) (text string, field json.RawMessage, isShell bool, err error) {
	if p.shellTools == nil {
		if in.Command == nil {
			return "", nil, true, errors.New(`the request has no "command"`)
		}
		if strings.TrimSpace(*in.Command) == "" {
			return "", nil, true, errors.New(`the request's "command" is empty`)
		}
		return *in.Command, nil, true, nil
	}
	if in.ToolName != "" && !isOneOf(in.ToolName, p.shellTools) {
		if _, has := in.ToolInput["command"]; !has {
			return "", nil, false, nil
		}
	}
	field, ok := in.ToolInput["command"]
	if !ok {
		return "", nil, true, errors.New(`the request has no tool_input.command`)
	}
	if s, ok := jsonStringValue(field); ok {
		if strings.TrimSpace(s) == "" {
			return "", nil, true, errors.New("tool_input.command is empty")
		}
		return s, field, true, nil
	}
	elems, ok := jsonArrayValues(field)
	if !ok || len(elems) == 0 {
		return "", nil, true, errors.New("tool_input.command is neither a string nor a list of strings")
	}
	argv := make([]string, len(elems))
	for i, e := range elems {
		s, ok := jsonStringValue(e)
		if !ok {
			return "", nil, true, errors.New("tool_input.command is a list with something else than strings in it")
		}
		argv[i] = s
	}
	if argv[0] == "" {
		return "", nil, true, errors.New("tool_input.command names no program")
	}
	// ["bash", "-lc", SCRIPT] runs SCRIPT: judge the script as guard -c would
	if len(argv) == 3 && isOneOf(filepath.Base(argv[0]), shellPrograms) && (argv[1] == "-c" || argv[1] == "-lc") {
		if strings.TrimSpace(argv[2]) == "" {
			return "", nil, true, errors.New("tool_input.command runs an empty script")
		}
		return argv[2], field, true, nil
	}
	return quoteArgv(argv), field, true, nil
}

// cwd is the directory the command runs in: the request's cwd (absolute),
// moved by the tool's own directory field, else guard's own.
func (p hookProtocol) cwd(in *hookIn, fallback string) (string, error) {
	cwd := in.Cwd
	if cwd == "" {
		cwd = fallback
	}
	if !filepath.IsAbs(cwd) {
		return "", fmt.Errorf("cwd %q is not an absolute path", oneLine(cwd))
	}
	if p.dirField != "" {
		if raw, ok := in.ToolInput[p.dirField]; ok && string(raw) != "null" {
			d, ok := jsonStringValue(raw)
			if !ok {
				return "", fmt.Errorf("tool_input.%s is not a string", p.dirField)
			}
			if d != "" {
				if !filepath.IsAbs(d) {
					d = filepath.Join(cwd, d)
				}
				cwd = d
			}
		}
	}
	return filepath.Clean(cwd), nil
}

// reason is the one line an agent shows for a decision.
func (h *hookVerdict) reason() string {
	rule := h.v.Rule
	if rule == "" {
		rule = string(h.v.Decision)
	}
	r := "guard: " + string(h.v.Decision) + ": " + rule
	if h.v.Reason != "" {
		r += ": " + h.redact(h.v.Reason)
	}
	if h.v.Decision == grants.Deny {
		r += "; do not retry or work around it"
	}
	return oneLine(r)
}

// writeJSON writes v as one line, without HTML escaping.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // into a bytes.Buffer: cannot fail for these types
}

// Claude Code: PreToolUse, hookSpecificOutput.permissionDecision (writeClaude).
func answerClaude(w io.Writer, h *hookVerdict) int {
	d := string(h.v.Decision)
	if d != string(grants.Allow) && d != string(grants.Ask) {
		d = string(grants.Deny)
	}
	writeClaude(w, d, h.reason(), nil)
	return 0
}

// Codex: deny as Claude does; allow is no answer (Codex's own policy
// stands); ask has no prompt of its own in the hook protocol, so the
// command is rewritten to run through guard's shell, where guard asks (the
// console, or a pending request).
func answerCodex(w io.Writer, h *hookVerdict) int {
	switch h.v.Decision {
	case grants.Allow:
		return 0
	case grants.Ask:
		in, err := h.rewrite()
		if err == nil {
			writeClaude(w, "allow", h.reason()+"; routed through guard for approval", in)
			return 0
		}
		h.v = hookDeny(ruleHookError, "needs approval, and the command could not be routed through guard: "+err.Error())
	}
	writeClaude(w, "deny", h.reason(), nil)
	return 0
}

// rewrite is tool_input with the command run by guard's shell: GUARD -c CMD,
// in the same form (a string, or an argv) the agent sent.
func (h *hookVerdict) rewrite() (json.RawMessage, error) {
	if h.self == "" || !filepath.IsAbs(h.self) {
		return nil, errors.New("guard's own path is unknown")
	}
	var cmd any
	var s string
	if json.Unmarshal(h.cmdField, &s) == nil {
		q, err := classify.QuoteArgv([]string{h.self, "-c", h.text})
		if err != nil {
			return nil, err
		}
		cmd = q
	} else {
		cmd = []string{h.self, "-c", h.text}
	}
	out := make(map[string]any, len(h.in.ToolInput))
	for k, v := range h.in.ToolInput {
		out[k] = v
	}
	out["command"] = cmd
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(buf.Bytes())), nil
}

// Gemini CLI: BeforeTool, top-level decision.
type geminiOut struct {
	Decision      string `json:"decision"`
	Reason        string `json:"reason,omitempty"`
	SystemMessage string `json:"systemMessage,omitempty"`
}

func answerGemini(w io.Writer, h *hookVerdict) int {
	switch h.v.Decision {
	case grants.Allow:
		writeJSON(w, geminiOut{Decision: "allow"})
	case grants.Ask:
		writeJSON(w, geminiOut{Decision: "ask", SystemMessage: h.reason()})
	default:
		writeJSON(w, geminiOut{Decision: "deny", Reason: h.reason()})
	}
	return 0
}

// CheckJSON is guard check --json's object, field order included
// (docs/formats.md): guard check and serve print it, and so does guard
// hook opencode|pi.
type CheckJSON struct {
	Command   string     `json:"command"`
	Decision  string     `json:"decision"`
	Rule      string     `json:"rule"`
	Reason    string     `json:"reason"`
	Risk      string     `json:"risk"`
	Composite bool       `json:"composite"`
	Commands  [][]string `json:"commands"`
	Layer     string     `json:"layer,omitempty"`
	File      string     `json:"file,omitempty"`
	Suggest   string     `json:"suggest,omitempty"`
	// Confined is the kernel boundary an allowed command runs in
	// ("fs=project net=hosts", "off", "unconfined: why").
	Confined string `json:"confined,omitempty"`
	Mode     string `json:"mode,omitempty"`  // rollout mode when not enforce: dry_run, off
	Would    string `json:"would,omitempty"` // in dry_run/off: what enforce would decide
}

// ConfinedFor says what a command allowed or asked under v would run
// confined to, as check, explain and the record show it ("" for a deny).
func ConfinedFor(s *grants.Settings, v grants.Verdict) string {
	return ConfinedForABI(s, v, landlockABI())
}

// ConfinedForABI is ConfinedFor with the kernel's Landlock ABI already
// known (LandlockABI is a system call: a caller answering many commands,
// guard check --stdin, asks once).
func ConfinedForABI(s *grants.Settings, v grants.Verdict, abi int) string {
	if v.Decision != grants.Allow {
		return ""
	}
	c := s.ConfineFor(v)
	if c.Mode != grants.ConfineOff && abi < 1 {
		return "unconfined: this kernel has no Landlock"
	}
	return c.String()
}

// answerCheckJSON is guard's own protocol (OpenCode and Pi plugins): the
// guard check --json object on one line, exit 0 whatever was decided.
func answerCheckJSON(w io.Writer, h *hookVerdict) int {
	d := h.v.Decision
	if d != grants.Allow && d != grants.Ask {
		d = grants.Deny
	}
	o := CheckJSON{
		Command: h.redact(h.text), Decision: string(d), Rule: h.v.Rule, Reason: h.redact(h.v.Reason),
		Risk: string(h.v.Risk), Commands: [][]string{}, Layer: h.v.Layer, File: h.v.File, Suggest: h.redact(h.v.Suggest),
		Would: string(h.v.Would),
	}
	if h.v.Mode != "" && h.v.Mode != grants.ModeEnforce {
		o.Mode = string(h.v.Mode)
	}
	if o.Risk == "" {
		o.Risk = string(grants.RiskHigh)
	}
	if h.an != nil {
		o.Composite = len(h.an.Composite) > 0
		for _, c := range h.an.Commands {
			args := make([]string, len(c.Args))
			for i, s := range c.Args {
				args[i] = h.redact(s)
			}
			o.Commands = append(o.Commands, args)
		}
	}
	writeJSON(w, o)
	return 0
}
