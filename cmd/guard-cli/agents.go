package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-dev/guard/agentcfg"
	"github.com/guard-dev/guard/integrations"
)

// The agents guard wires itself into, and how. One entry per agent: where
// its settings live, and the edits each mode makes (docs/agents-install.md
// has the same table for humans; TestAgentGoldens pins both).
//
// power: the shell is on and every command goes through guard (a hook the
// agent calls before each shell command, and/or guard as its shell).
// safe: the agent's own switch that turns its shell off or read-only.

const (
	modePower = "power"
	modeSafe  = "safe"
)

// agentSpec is one agent's wiring.
type agentSpec struct {
	name    string
	program string // the agent's command, looked for on PATH by guard doctor
	// configDir is the agent's global config directory.
	configDir func(e *agentEnv) string
	// noSafe, when set, says plainly why the agent has no safe mode.
	noSafe string
	// plan makes the edits of one mode, for one scope.
	plan func(p *plan) error
	// instructions is the instruction file for the scope.
	instructions func(p *plan) string
}

// agentEnv is what locating an agent's files needs.
type agentEnv struct {
	getenv func(string) string
	home   string
}

// envDir returns $VAR if it is an absolute path, else fallback.
func (e *agentEnv) envDir(v, fallback string) string {
	if d := e.getenv(v); filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return fallback
}

func agentSpecs() []agentSpec {
	return []agentSpec{
		{
			name:    "claude",
			program: "claude",
			configDir: func(e *agentEnv) string {
				return e.envDir("CLAUDE_CONFIG_DIR", filepath.Join(e.home, ".claude"))
			},
			plan: func(p *plan) error {
				// the project file is settings.local.json: it holds this
				// user's absolute paths, which do not belong in the team's
				// committed .claude/settings.json
				file := p.pick(filepath.Join(p.dir, "settings.json"), filepath.Join(p.root, ".claude", "settings.local.json"))
				if p.mode == modeSafe {
					return p.jsonAppend(file, []string{"permissions", "deny"}, "Bash")
				}
				if err := p.jsonAppend(file, []string{"hooks", "PreToolUse"}, agentcfg.Obj(
					"matcher", "Bash",
					"hooks", []any{agentcfg.Obj("type", "command", "command", p.hookCommand("claude"))},
				)); err != nil {
					return err
				}
				// Claude Code takes a shell only if its path contains bash
				// or zsh: the shim link is named bash
				return p.jsonSet(file, []string{"env", "CLAUDE_CODE_SHELL"}, p.shim)
			},
			instructions: func(p *plan) string {
				return p.pick(filepath.Join(p.dir, "CLAUDE.md"), filepath.Join(p.root, "CLAUDE.md"))
			},
		},
		{
			name:    "codex",
			program: "codex",
			configDir: func(e *agentEnv) string {
				return e.envDir("CODEX_HOME", filepath.Join(e.home, ".codex"))
			},
			plan: func(p *plan) error {
				dir := p.pick(p.dir, filepath.Join(p.root, ".codex"))
				config := filepath.Join(dir, "config.toml")
				if p.mode == modeSafe {
					if err := p.tomlSet(config, "", "sandbox_mode", `"read-only"`); err != nil {
						return err
					}
					return p.tomlSet(config, "", "approval_policy", `"untrusted"`)
				}
				// Codex reads hooks.json beside config.toml; codex_hooks is
				// the feature switch of the versions where hooks are not on
				// by default (later ones keep it as an alias of hooks)
				if err := p.jsonAppend(filepath.Join(dir, "hooks.json"), []string{"hooks", "PreToolUse"}, agentcfg.Obj(
					"matcher", "^Bash$",
					"hooks", []any{agentcfg.Obj("type", "command", "command", p.hookCommand("codex"))},
				)); err != nil {
					return err
				}
				return p.tomlSet(config, "features", "codex_hooks", "true")
			},
			instructions: func(p *plan) string {
				return p.pick(filepath.Join(p.dir, "AGENTS.md"), filepath.Join(p.root, "AGENTS.md"))
			},
		},
		{
			name:    "gemini",
			program: "gemini",
			configDir: func(e *agentEnv) string {
				return filepath.Join(e.home, ".gemini")
			},
			plan: func(p *plan) error {
				file := p.pick(filepath.Join(p.dir, "settings.json"), filepath.Join(p.root, ".gemini", "settings.json"))
				if p.mode == modeSafe {
					return p.jsonAppend(file, []string{"tools", "exclude"}, "run_shell_command")
				}
				return p.jsonAppend(file, []string{"hooks", "BeforeTool"}, agentcfg.Obj(
					"matcher", "run_shell_command",
					"hooks", []any{agentcfg.Obj("name", "guard", "type", "command", "command", p.hookCommand("gemini"))},
				))
			},
			instructions: func(p *plan) string {
				return p.pick(filepath.Join(p.dir, "GEMINI.md"), filepath.Join(p.root, "GEMINI.md"))
			},
		},
		{
			name:    "opencode",
			program: "opencode",
			configDir: func(e *agentEnv) string {
				return filepath.Join(e.envDir("XDG_CONFIG_HOME", filepath.Join(e.home, ".config")), "opencode")
			},
			plan: func(p *plan) error {
				if p.mode == modeSafe {
					file := p.pick(openCodeConfig(p.dir), openCodeConfig(p.root))
					if err := p.jsonSet(file, []string{"permission", "bash"}, "deny"); err != nil {
						return err
					}
					return p.jsonSet(file, []string{"permission", "external_directory"}, "deny")
				}
				// The plugin is the gate. guard does not also become
				// OpenCode's shell: the plugin hands every command it
				// cannot allow to guard -c, and judging each command twice
				// would ask twice.
				plugins := p.pick(filepath.Join(p.dir, "plugins"), filepath.Join(p.root, ".opencode", "plugins"))
				return p.whole(filepath.Join(plugins, "guard.js"), integrations.OpenCode(p.guard))
			},
			instructions: func(p *plan) string {
				return p.pick(filepath.Join(p.dir, "AGENTS.md"), filepath.Join(p.root, "AGENTS.md"))
			},
		},
		{
			name:    "pi",
			program: "pi",
			configDir: func(e *agentEnv) string {
				return e.envDir("PI_CODING_AGENT_DIR", filepath.Join(e.home, ".pi", "agent"))
			},
			noSafe: "pi has no setting that turns its bash tool off or makes it read-only, so guard has no safe mode for it; " +
				"use --mode power, where every command goes through guard",
			plan: func(p *plan) error {
				dir := p.pick(p.dir, filepath.Join(p.root, ".pi"))
				if err := p.whole(filepath.Join(dir, "extensions", "guard.ts"), integrations.Pi(p.guard)); err != nil {
					return err
				}
				return p.jsonSet(filepath.Join(dir, "settings.json"), []string{"shellPath"}, p.shim)
			},
			instructions: func(p *plan) string {
				return p.pick(filepath.Join(p.dir, "AGENTS.md"), filepath.Join(p.root, "AGENTS.md"))
			},
		},
	}
}

// openCodeConfig is OpenCode's config file in dir: opencode.json, or
// opencode.jsonc when only that exists.
func openCodeConfig(dir string) string {
	jsonc := filepath.Join(dir, "opencode.jsonc")
	if _, err := os.Stat(filepath.Join(dir, "opencode.json")); err != nil {
		if _, err := os.Stat(jsonc); err == nil {
			return jsonc
		}
	}
	return filepath.Join(dir, "opencode.json")
}

func findAgent(name string) (agentSpec, error) {
	var names []string
	for _, s := range agentSpecs() {
		if s.name == name {
			return s, nil
		}
		names = append(names, s.name)
	}
	return agentSpec{}, &cliError{code: exitUsage, kind: "error",
		msg:  fmt.Sprintf("unknown agent %q", name),
		hint: "agents: " + strings.Join(names, ", ")}
}

// instructionsText is the section --instructions writes, by mode. Safe mode
// does not mention a shell the agent does not have.
func instructionsText(mode string) string {
	if mode == modeSafe {
		return `## Working under guard (safe mode)

This session runs in guard's safe mode: shell commands are turned off, or
read-only where that is all the agent offers. Work with the file tools.
Do not try to run commands another way (scripts, other tools, asking a
tool to run one for you). If a task needs a command, say which one and
why, and let the human run it.`
	}
	return `## Working under guard

Every shell command you run goes through guard, which checks it against
the human's policy before it runs. Keep shell use scoped to this project.

- A refused command fails with one line on stderr:
  ` + "`guard: denied: …`" + ` (not allowed) or
  ` + "`guard: needs approval: …`" + ` (waiting for the human).
- Never work around a refusal: do not rephrase, split, encode, wrap or
  script the command, and do not reach the same effect another way. Say
  what you wanted to run and why, then wait.
- The human approves in a terminal of their own: ` + "`guard watch`" + ` (the
  approval console) or ` + "`guard approve ID`" + ` with the ID from the message.`
}
