package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"mvdan.cc/sh/v3/shell"

	"github.com/guard-dev/guard/agentcfg"
	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/integrations"
	"github.com/guard-dev/guard/shim"
)

// exitProblems is guard doctor's status when something is broken.
const exitProblems = 1

// noHookCommand is the finding for a guard too old to have guard hook.
const noHookCommand = "this guard has no hook command"

// probeTimeout bounds one run of an agent's hook command.
const probeTimeout = 10 * time.Second

// The probes: a harmless command the policy decides one way or the other,
// and one the built-in denylist always denies. Neither is ever run.
const (
	probeRead = "git status"
	probeDeny = "sudo -n true"
)

func (a *App) doctorCommand() *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "check that guard is wired into each agent and works",
		UsageText: `guard doctor [--agent AGENT] [--json]

For each agent found (its config directory exists or its program is on
PATH), checks that its settings load, that guard is wired in (the hook is
registered and its command runs; the shell the agent will use leads to
guard and is one the agent accepts), and asks the hook for two probe
decisions: git status (what your policy says) and sudo -n true (always
denied). Nothing is run. Each problem comes with the command that fixes
it. Exits 1 when something is broken.

example:
   guard doctor
   guard doctor --agent claude`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Usage: "check only `AGENT`"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object: every finding, with its fix"},
		},
		Action: a.doctor,
	}
}

// report collects one agent's findings.
type report struct {
	out      *bytes.Buffer
	problems int
	// for --json: who the findings are about ("guard" or the agent), and
	// where they go
	who   string
	items *[]doctorItem
}

// doctorItem is one finding, as guard doctor --json prints it.
type doctorItem struct {
	Who     string `json:"who"`   // guard, or the agent
	Level   string `json:"level"` // ok, fail, note
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

func (r *report) add(level, fix, msg string) {
	if r.items != nil {
		*r.items = append(*r.items, doctorItem{Who: r.who, Level: level, Message: msg, Fix: fix})
	}
}

func (r *report) ok(format string, args ...any) {
	fmt.Fprintf(r.out, "  ok    %s\n", fmt.Sprintf(format, args...))
	r.add("ok", "", fmt.Sprintf(format, args...))
}

func (r *report) fail(fix, format string, args ...any) {
	r.problems++
	fmt.Fprintf(r.out, "  FAIL  %s\n", fmt.Sprintf(format, args...))
	if fix != "" {
		fmt.Fprintf(r.out, "        fix: %s\n", fix)
	}
	r.add("fail", fix, fmt.Sprintf(format, args...))
}

func (r *report) note(format string, args ...any) {
	fmt.Fprintf(r.out, "  note  %s\n", fmt.Sprintf(format, args...))
	r.add("note", "", fmt.Sprintf(format, args...))
}

// doctorRun is what every agent's check needs.
type doctorRun struct {
	a      *App
	cwd    string
	root   string
	home   string
	guard  string // the guard binary ("" if not found)
	shim   string
	expect map[string]string // probe command → the engine's decision
}

func (a *App) doctor(c *cli.Context) error {
	cwd, err := a.cwdOr("")
	if err != nil {
		return err
	}
	home := a.Getenv("HOME")
	if !filepath.IsAbs(home) {
		return failure(errors.New("HOME is not set to an absolute path"), "")
	}
	d := &doctorRun{a: a, cwd: cwd, root: grants.ProjectRoot(cwd), home: home,
		shim: filepath.Join(a.paths().DataDir, "shims", "bash"), expect: map[string]string{}}
	d.guard, _ = a.guardBinary()

	problems := 0
	var out bytes.Buffer
	items := []doctorItem{}
	g := &report{out: &out, who: "guard", items: &items}
	fmt.Fprintln(&out, "guard:")
	if d.guard == "" {
		g.fail("reinstall guard with ./install.sh", "the guard program is not next to guard-cli nor on PATH")
	} else {
		g.ok("program %s", d.guard)
	}
	settings := grants.Load(a.paths(), cwd)
	if settings.Err != nil {
		g.fail("guard explain 'git status'  (names the file and line)", "guard's config does not load, so every command is denied: %s", oneLine(a.redactor().String(settings.Err.Error())))
	} else {
		g.ok("config loads")
	}
	d.confinement(settings, g)
	a.doctorTelemetry(settings, g)
	for _, cmd := range []string{probeRead, probeDeny} {
		var buf bytes.Buffer
		ck := a.newChecker(cwd, "", true, &buf)
		if err := ck.decide(cmd); err == nil {
			var v checkJSON
			if json.Unmarshal(buf.Bytes(), &v) == nil {
				d.expect[cmd] = v.Decision
			}
		}
	}
	if d.expect[probeDeny] != "deny" {
		g.fail("", "the policy does not deny %q (it says %q)", probeDeny, d.expect[probeDeny])
	}
	problems += g.problems

	only := c.String("agent")
	if only != "" {
		if _, err := findAgent(only); err != nil {
			return err
		}
	}
	found := 0
	for _, spec := range agentSpecs() {
		if only != "" && spec.name != only {
			continue
		}
		dir := spec.configDir(&agentEnv{getenv: a.Getenv, home: home})
		onPath := lookPathIn(spec.program, a.Getenv("PATH"))
		if !isDir(dir) && onPath == "" && only == "" {
			continue
		}
		found++
		r := &report{out: &out, who: spec.name, items: &items}
		var where []string
		if isDir(dir) {
			where = append(where, dir)
		}
		if onPath != "" {
			where = append(where, onPath)
		}
		if len(where) == 0 {
			where = append(where, "not found")
		}
		fmt.Fprintf(&out, "%s: %s\n", spec.name, strings.Join(where, ", "))
		d.check(spec, dir, r)
		problems += r.problems
	}
	if found == 0 {
		fmt.Fprintln(&out, "no agent found (claude, codex, gemini, opencode, pi): nothing to check")
	}
	if c.Bool("json") {
		enc := json.NewEncoder(a.Stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(map[string]any{"problems": problems, "findings": items}); err != nil {
			return failure(fmt.Errorf("write doctor: %w", err), "")
		}
	} else {
		a.Stdout.Write(out.Bytes())
	}
	if problems > 0 {
		return &cliError{code: exitProblems, kind: "error", msg: fmt.Sprintf("%d problem(s) found; each FAIL above names its fix", problems)}
	}
	return nil
}

// confinement says whether what guard allows runs inside the kernel
// boundary here, with a live probe (a confined write into home must fail).
func (d *doctorRun) confinement(s *grants.Settings, g *report) {
	c := s.Confine
	switch {
	case c.Mode == grants.ConfineOff:
		g.note(`confinement is off ([confine] mode = "off"): allowed commands run with your full rights`)
		return
	case shim.LandlockABI() < 1 && c.Required:
		g.fail("run guard on Linux 5.13 or newer with Landlock enabled (lsm=landlock,…), or set [confine] required = false",
			"this kernel has no Landlock and [confine] required = true: every command is refused")
		return
	case shim.LandlockABI() < 1:
		g.note("commands run unconfined: this kernel has no Landlock (Linux 5.13+, lsm=landlock); [confine] required = true would refuse them instead")
		return
	}
	applied, err := shim.ProbeConfinement(s, d.cwd, d.a.Getenv, d.guard)
	if err != nil {
		g.fail("guard explain 'git status' shows the settings; report this with the line above", "confinement probe: %s", oneLine(err.Error()))
		return
	}
	g.ok("confinement holds (Landlock ABI %d, %s): %s", shim.LandlockABI(), applied, c.String())
	if !strings.Contains(applied, "mounts") {
		g.note("no mount namespace (guard is not root): the project's agent configs and .git/hooks stay writable, and home is hidden by Landlock only")
	}
	if c.Network != grants.NetOpen && !strings.Contains(applied, "netns") {
		g.note("no network namespace: under network = %q only TCP is held to guard's proxy (Landlock), not UDP", c.Network)
	}
}

// check runs one agent's checks, for its global settings and, where the
// project has them, the project's.
func (d *doctorRun) check(spec agentSpec, dir string, r *report) {
	type place struct {
		global bool
		files  []string
	}
	var places []place
	seen := map[string]bool{}
	for _, global := range []bool{true, false} {
		p := &plan{agent: spec, global: global, dir: dir, root: d.root}
		files := doctorFiles(p)
		if !global {
			// a project whose root is HOME has the global files
			for i, f := range files {
				if seen[f] {
					files[i] = ""
				}
			}
			if !anyExists(files) {
				continue
			}
		}
		for _, f := range files {
			seen[f] = true
		}
		places = append(places, place{global, files})
	}
	wired := false
	for _, pl := range places {
		fix := "guard install --agent " + spec.name
		if !pl.global {
			fix += " --project"
		}
		if d.checkPlace(spec, pl.global, pl.files, fix, r) {
			wired = true
		}
	}
	if !wired {
		paths := d.a.paths()
		if exists(unwiredPath(recordPath(paths, spec.name, true, d.root))) || exists(unwiredPath(recordPath(paths, spec.name, false, d.root))) {
			r.note("guard is not wired into %s: you unwired it with guard uninstall (guard install --agent %s wires it again)", spec.name, spec.name)
			return
		}
		r.fail("guard install --agent "+spec.name, "guard is not wired into %s", spec.name)
	}
}

// doctorFiles are the files that hold an agent's wiring, for one scope:
// the settings first, then the plugin, if the agent takes one.
func doctorFiles(p *plan) []string {
	switch p.agent.name {
	case "claude":
		if p.global {
			return []string{filepath.Join(p.dir, "settings.json")}
		}
		return []string{filepath.Join(p.root, ".claude", "settings.local.json"), filepath.Join(p.root, ".claude", "settings.json")}
	case "codex":
		dir := p.pick(p.dir, filepath.Join(p.root, ".codex"))
		return []string{filepath.Join(dir, "hooks.json"), filepath.Join(dir, "config.toml")}
	case "gemini":
		return []string{p.pick(filepath.Join(p.dir, "settings.json"), filepath.Join(p.root, ".gemini", "settings.json"))}
	case "opencode":
		return []string{p.pick(openCodeConfig(p.dir), openCodeConfig(p.root)),
			filepath.Join(p.pick(filepath.Join(p.dir, "plugins"), filepath.Join(p.root, ".opencode", "plugins")), "guard.js")}
	case "pi":
		dir := p.pick(p.dir, filepath.Join(p.root, ".pi"))
		return []string{filepath.Join(dir, "settings.json"), filepath.Join(dir, "extensions", "guard.ts")}
	}
	return nil
}

// checkPlace checks one scope's files and reports whether guard is wired
// in there (in either mode).
func (d *doctorRun) checkPlace(spec agentSpec, global bool, files []string, fix string, r *report) bool {
	docs := map[string]*agentcfg.Doc{}
	texts := map[string]string{}
	for _, f := range files {
		if f == "" {
			continue
		}
		data, _, ok, err := readRegular(f)
		if err != nil {
			r.fail("move it away, or fix it", "%s: %v", f, err)
			continue
		}
		if !ok {
			continue
		}
		switch {
		case strings.HasSuffix(f, ".toml"):
			if err := agentcfg.CheckTOML(string(data)); err != nil {
				r.fail("fix the file at that line", "%s:%v", f, err)
				continue
			}
			texts[f] = string(data)
		case strings.HasSuffix(f, ".json") || strings.HasSuffix(f, ".jsonc"):
			doc, err := agentcfg.ParseJSON(data)
			if err != nil {
				r.fail("fix the file at that line", "%s:%v", f, err)
				continue
			}
			docs[f] = doc
		default:
			texts[f] = string(data) // a plugin: checked below
			continue
		}
		r.ok("loads: %s", f)
	}
	switch spec.name {
	case "claude":
		return d.checkClaude(files, docs, fix, r)
	case "codex":
		return d.checkCodex(files[0], files[1], docs, texts, fix, r)
	case "gemini":
		doc := docs[files[0]]
		if doc != nil && arrayHas(doc, []string{"tools", "exclude"}, "run_shell_command") {
			r.ok("safe mode: run_shell_command is excluded (%s)", files[0])
			return true
		}
		return d.checkHook(doc, files[0], []string{"hooks", "BeforeTool"}, "gemini", fix, r)
	case "opencode":
		doc := docs[files[0]]
		if doc != nil {
			if v, ok := doc.Get("permission", "bash"); ok && v == "deny" {
				r.ok("safe mode: permission.bash is deny (%s)", files[0])
				return true
			}
		}
		return d.checkPlugin(files[1], texts[files[1]], integrations.OpenCode(d.guard), "opencode", fix, r)
	case "pi":
		wired := d.checkPlugin(files[1], texts[files[1]], integrations.Pi(d.guard), "pi", fix, r)
		if doc := docs[files[0]]; doc != nil || wired {
			d.checkShell(doc, files[0], []string{"shellPath"}, false, fix, r)
		}
		return wired
	}
	return false
}

func (d *doctorRun) checkClaude(files []string, docs map[string]*agentcfg.Doc, fix string, r *report) bool {
	for _, f := range files {
		doc := docs[f]
		if doc == nil {
			continue
		}
		if arrayHas(doc, []string{"permissions", "deny"}, "Bash") {
			r.ok("safe mode: the Bash tool is denied (%s)", f)
			return true
		}
		if d.checkHook(doc, f, []string{"hooks", "PreToolUse"}, "claude", fix, r) {
			d.checkShell(doc, f, []string{"env", "CLAUDE_CODE_SHELL"}, true, fix, r)
			return true
		}
	}
	return false
}

func (d *doctorRun) checkCodex(hooksFile, configFile string, docs map[string]*agentcfg.Doc, texts map[string]string, fix string, r *report) bool {
	if cfg, ok := texts[configFile]; ok {
		sb, _ := agentcfg.TOMLGet(cfg, "", "sandbox_mode")
		ap, _ := agentcfg.TOMLGet(cfg, "", "approval_policy")
		if sb == `"read-only"` && ap == `"untrusted"` {
			r.ok("safe mode: read-only sandbox, untrusted approvals (%s)", configFile)
			return true
		}
		if v, ok := agentcfg.TOMLGet(cfg, "features", "codex_hooks"); ok && v == "false" {
			r.fail(fix, "hooks are turned off in %s ([features] codex_hooks = false)", configFile)
		}
	}
	return d.checkHook(docs[hooksFile], hooksFile, []string{"hooks", "PreToolUse"}, "codex", fix, r)
}

// checkHook finds guard's hook in doc and probes it.
func (d *doctorRun) checkHook(doc *agentcfg.Doc, file string, path []string, agent, fix string, r *report) bool {
	if doc == nil {
		return false
	}
	command := findHookCommand(doc, path, agent)
	if command == "" {
		return false
	}
	r.ok("hook registered in %s: %s", file, command)
	d.probe(command, agent, fix, r)
	return true
}

// findHookCommand returns the command of the hook in the groups at path
// that runs `… hook AGENT`.
func findHookCommand(doc *agentcfg.Doc, path []string, agent string) string {
	groups, ok := doc.Get(path...)
	if !ok {
		return ""
	}
	for _, g := range elems(groups) {
		o, ok := g.(*agentcfg.Object)
		if !ok {
			continue
		}
		hooks, _ := o.Get("hooks")
		for _, h := range elems(hooks) {
			ho, ok := h.(*agentcfg.Object)
			if !ok {
				continue
			}
			c, _ := ho.Get("command")
			if s, ok := c.(string); ok && strings.HasSuffix(strings.TrimSpace(s), " hook "+agent) {
				return s
			}
		}
	}
	return ""
}

func elems(v any) []any {
	if a := asArray(v); a != nil {
		return a.Elems
	}
	return nil
}

func asArray(v any) *agentcfg.Array {
	switch v := v.(type) {
	case *agentcfg.Array:
		return v
	case []any:
		return &agentcfg.Array{Elems: v}
	}
	return nil
}

func arrayHas(doc *agentcfg.Doc, path []string, want string) bool {
	v, ok := doc.Get(path...)
	if !ok {
		return false
	}
	for _, e := range elems(v) {
		if e == want {
			return true
		}
	}
	return false
}

// checkPlugin checks that guard's plugin is there and is the one this
// guard ships, then probes guard hook AGENT as the plugin runs it.
func (d *doctorRun) checkPlugin(file, have, want, agent, fix string, r *report) bool {
	if have == "" {
		return false
	}
	if d.guard != "" && have != want {
		r.fail(fix, "%s is not the plugin this guard ships (an older guard's, or edited)", file)
	} else {
		r.ok("plugin installed: %s", file)
	}
	if d.guard != "" {
		// the plugin runs guard itself, with no shell between
		d.probe(classify.QuoteWord(d.guard)+" hook "+agent, agent, fix, r)
	}
	return true
}

// checkShell checks the shell an agent will run commands with.
func (d *doctorRun) checkShell(doc *agentcfg.Doc, file string, path []string, bashOrZsh bool, fix string, r *report) {
	var shellPath string
	if doc != nil {
		if v, ok := doc.Get(path...); ok {
			shellPath, _ = v.(string)
		}
	}
	name := strings.Join(path, ".")
	switch {
	case shellPath == "":
		r.fail(fix, "%s is not set in %s: commands that reach the shell bypass guard", name, file)
	case bashOrZsh && !strings.Contains(shellPath, "bash") && !strings.Contains(shellPath, "zsh"):
		r.fail(fix, "%s = %s: Claude Code ignores a shell whose path contains neither bash nor zsh", name, shellPath)
	case d.guard == "" || !sameFile(shellPath, d.guard):
		r.fail(fix, "%s = %s does not lead to guard", name, shellPath)
	default:
		r.ok("shell: %s = %s (leads to guard)", name, shellPath)
	}
}

// probe runs the hook command the way the agent does (sh -c, the agent's
// JSON on stdin) for the two probe commands and checks each answer
// against the decision guard's engine makes.
func (d *doctorRun) probe(command, agent, fix string, r *report) {
	if words, err := shell.Fields(command, nil); err != nil || len(words) == 0 {
		r.fail(fix, "the hook command does not parse: %s", command)
		return
	} else if !isExecutable(words[0]) {
		r.fail(fix, "the hook's program %s is missing or not executable", words[0])
		return
	}
	for _, cmd := range []string{probeRead, probeDeny} {
		want := d.expect[cmd]
		got, detail := d.runHook(command, agent, cmd)
		switch {
		case got == want || got == "ask" && want == "ask":
			r.ok("probe: %s → %s", cmd, got)
		case got == "error" && detail == noHookCommand:
			r.fail("reinstall guard from a newer checkout: ./install.sh", "probe: %s: %s", cmd, detail)
		case got == "error":
			r.fail(fix, "probe: %s: the hook failed: %s", cmd, detail)
		default:
			r.fail(fix, "probe: %s → %s, but guard's policy says %s (%s)", cmd, got, want, detail)
		}
	}
}

// doctorSession is the session the probes say they come from: guard audit
// shows their records as doctor's.
const doctorSession = "guard-doctor"

// runHook runs the hook for one command and reads its answer in the
// agent's protocol: "allow", "ask", "deny" or "error".
func (d *doctorRun) runHook(command, agent, probe string) (string, string) {
	var in []byte
	switch agent {
	case "claude", "codex":
		in, _ = json.Marshal(map[string]any{
			"session_id": doctorSession, "transcript_path": "", "cwd": d.cwd,
			"permission_mode": "default", "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]string{"command": probe},
		})
	case "gemini":
		in, _ = json.Marshal(map[string]any{
			"session_id": doctorSession, "transcript_path": "", "cwd": d.cwd,
			"hook_event_name": "BeforeTool", "timestamp": d.a.Now().UTC().Format(time.RFC3339),
			"tool_name": "run_shell_command", "tool_input": map[string]string{"command": probe},
		})
	default:
		in, _ = json.Marshal(map[string]string{"command": probe, "cwd": d.cwd, "session_id": doctorSession})
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Dir = d.cwd
	cmd.Env = d.a.Environ
	cmd.Stdin = bytes.NewReader(append(in, '\n'))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "error", fmt.Sprintf("no answer in %s", probeTimeout)
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		return "error", err.Error()
	}
	errText := oneLine(d.a.redactor().String(strings.TrimSpace(stderr.String())))
	if strings.Contains(errText, `unknown command "hook"`) {
		return "error", noHookCommand
	}
	if code == 2 && agent != "opencode" && agent != "pi" {
		return "deny", "exit 2: " + errText
	}
	if code != 0 {
		return "error", fmt.Sprintf("exit status %d (the agent would %s): %s", code, failMode(agent), errText)
	}
	return readHookAnswer(agent, stdout.Bytes())
}

// failMode is what an agent does when its hook fails with an unexpected
// status.
func failMode(agent string) string {
	switch agent {
	case "claude", "codex", "gemini":
		return "go on and run the command"
	}
	return "block the command"
}

// readHookAnswer reads a hook's stdout in the agent's protocol.
func readHookAnswer(agent string, out []byte) (string, string) {
	out = bytes.TrimSpace(out)
	switch agent {
	case "claude", "codex":
		if len(out) == 0 {
			return "allow", "no objection"
		}
		var v struct {
			HSO struct {
				Decision string         `json:"permissionDecision"`
				Reason   string         `json:"permissionDecisionReason"`
				Updated  map[string]any `json:"updatedInput"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			return "error", "output is not JSON"
		}
		if agent == "codex" && v.HSO.Decision == "allow" && v.HSO.Updated != nil {
			if c, _ := v.HSO.Updated["command"].(string); strings.Contains(c, "guard") && c != "" {
				return "ask", "rewritten to run under guard"
			}
		}
		if v.HSO.Decision == "" {
			return "allow", "no decision"
		}
		return v.HSO.Decision, v.HSO.Reason
	case "gemini":
		if len(out) == 0 {
			return "allow", "no objection"
		}
		var v struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			return "error", "output is not JSON"
		}
		switch v.Decision {
		case "", "allow", "approve":
			return "allow", v.Reason
		case "block":
			return "deny", v.Reason
		}
		return v.Decision, v.Reason
	default:
		line, _, _ := bytes.Cut(out, []byte("\n"))
		var v struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}
		if err := json.Unmarshal(line, &v); err != nil || v.Decision == "" {
			return "error", "the answer is not one JSON line with a decision"
		}
		return v.Decision, v.Reason
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func anyExists(files []string) bool {
	for _, f := range files {
		if _, err := os.Stat(f); f != "" && err == nil {
			return true
		}
	}
	return false
}

// lookPathIn finds an executable on a PATH value (absolute entries only).
func lookPathIn(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if filepath.IsAbs(dir) {
			if p := filepath.Join(dir, name); isExecutable(p) {
				return p
			}
		}
	}
	return ""
}
