package grants

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/classify"
)

func TestAgentProfiles(t *testing.T) {
	if !classifyWorks() {
		t.Skip("classify.Analyze is still a stub")
	}
	global := `unknown = "ask"
timeout = "10m"
[permissions.bash]
deny = ["git push --force*"]
[agents.codex]
unknown = "deny"
timeout = "2m"
mode = "dry_run"
[agents.codex.permissions.bash]
allow = ["cargo *", "git push *"]
deny = ["make deploy*"]
[agents.claude]
composite = "each"
[agents.claude.permissions.bash]
allow = ["go test *"]
`
	cases := []struct {
		name, managed, project string
		trust                  bool
		agent, cmd             string
		want, would            Decision
	}{
		{name: "codex allow", agent: "codex", cmd: "cargo build", want: Allow},
		{name: "codex allow is codex's only", agent: "claude", cmd: "cargo build", want: Ask},
		{name: "no agent: no profile", agent: "", cmd: "cargo build", want: Ask},
		{name: "profile never beats a deny rule", agent: "codex", cmd: "git push --force origin", want: Allow, would: Deny},
		{name: "profile deny", agent: "codex", cmd: "make deploy", want: Allow, would: Deny},
		{name: "profile deny not for others", agent: "claude", cmd: "make deploy", want: Ask},
		{name: "profile never beats the denylist", agent: "codex", cmd: "sudo -n cargo build", want: Deny},
		{name: "claude composite each", agent: "claude", cmd: "go test ./... | head", want: Allow},
		{name: "codex unknown deny (dry_run: would)", agent: "codex", cmd: "mytool", want: Allow, would: Deny},
		{name: "min_mode floors the profile's mode", managed: `min_mode = "enforce"`, agent: "codex", cmd: "mytool", want: Deny},
		{name: "managed unknown binds over a profile", managed: `unknown = "deny"`, agent: "claude", cmd: "mytool", want: Deny},
		{name: "managed profile", managed: "[agents.claude.permissions.bash]\nallow = [\"mytool *\"]\n", agent: "claude", cmd: "mytool x", want: Allow},
		{name: "untrusted project profile allow ignored", project: "[agents.claude.permissions.bash]\nallow = [\"mytool *\"]\n", agent: "claude", cmd: "mytool x", want: Ask},
		{name: "trusted project profile allow", project: "[agents.claude.permissions.bash]\nallow = [\"mytool *\"]\n", trust: true, agent: "claude", cmd: "mytool x", want: Allow},
		{name: "untrusted project profile cannot loosen mode", project: "[agents.claude]\nmode = \"off\"\n", agent: "claude", cmd: "mytool x", want: Ask},
		{name: "untrusted project profile tightens", project: "[agents.claude]\nunknown = \"deny\"\n", agent: "claude", cmd: "mytool x", want: Deny},
		{name: "allow_user_grants false: profile allows do not count", managed: "allow_user_grants = false", agent: "claude", cmd: "go test ./x", want: Ask},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.lay(t, policyFiles{managed: tc.managed, global: global, project: tc.project, trust: tc.trust})
			s := Load(e.p, e.proj).ForAgent(tc.agent)
			if s.Err != nil {
				t.Fatal(s.Err)
			}
			opts := classify.Options{Cwd: e.proj, Home: filepath.Dir(e.proj)}
			v := Decide(classify.Analyze(tc.cmd, opts), s)
			if v.Decision != tc.want || v.Would != tc.would {
				_, tr := Explain(classify.Analyze(tc.cmd, opts), s)
				t.Errorf("%s %q: %s would=%q (%s); want %s would=%q\n  %s", tc.agent, tc.cmd, v.Decision, v.Would, v.Rule, tc.want, tc.would, strings.Join(tr, "\n  "))
			}
		})
	}
	e := newEnv(t)
	e.lay(t, policyFiles{global: global})
	base := Load(e.p, e.proj)
	s := base.ForAgent("codex")
	if s.Timeout != 2*time.Minute || s.Policy.Effective() != ModeDryRun || !strings.Contains(s.Policy.ModeWhy, "agents.codex.mode") {
		t.Errorf("codex: timeout %s mode %s (%s)", s.Timeout, s.Policy.Effective(), s.Policy.ModeWhy)
	}
	if base.Timeout != 10*time.Minute || base.Policy.Effective() != ModeEnforce || len(base.Rules) != 1 {
		t.Errorf("ForAgent changed its receiver: %s %s %d rules", base.Timeout, base.Policy.Effective(), len(base.Rules))
	}
	if d := Defaults(); d.ForAgent("x") != d {
		t.Errorf("ForAgent copied settings that do not depend on the agent")
	}
}

func TestAgentProfileErrors(t *testing.T) {
	for text, want := range map[string]string{
		"[agents.x]\nfoo = 1\n":                             `config.toml:2:1: unknown key "agents.x.foo"`,
		"[agents.x]\nunknown = \"maybe\"\n":                 `agents.x.unknown must be "ask" or "deny"`,
		"[agents.x.permissions.read]\nallow = []\n":         `unknown key "agents.x.permissions.read"`,
		"[agents.x.permissions.bash]\nallow = [\"bash *\"]": `config.toml:2:10: allow pattern "bash *"`,
		"agents = 3\n": "agents must be a table",
	} {
		e := newEnv(t)
		write(t, e.p.GlobalConfig(), text)
		s := Load(e.p, e.proj)
		if s.Err == nil || !strings.Contains(s.Err.Error(), want) {
			t.Errorf("%q: err %v, want %q", text, s.Err, want)
		}
	}
}

// TestGrantsEditKeepsPolicy: guard grants add|rm rewrite a grants file
// whole; its mode, escalate and agent profiles must survive (a lost
// profile deny rule would loosen the policy).
func TestGrantsEditKeepsPolicy(t *testing.T) {
	e := newEnv(t)
	file := e.p.ProjectGrants(e.proj)
	write(t, file, `mode = "dry_run"
escalate = { after = 2, within = "30m" }
[permissions.bash]
allow = ["go test *"]
[agents.codex]
unknown = "deny"
timeout = "90s"
mode = "enforce"
[agents.codex.permissions.bash]
allow = ["cargo *"]
deny = ["git push *", "make deploy*"]
[agents."odd name"]
composite = "each"
`)
	before := Load(e.p, e.proj)
	if before.Err != nil {
		t.Fatal(before.Err)
	}
	if err := AddRule(file, Allow, "make test"); err != nil {
		t.Fatal(err)
	}
	if _, err := RemoveRule(file, "go test *"); err != nil {
		t.Fatal(err)
	}
	after := Load(e.p, e.proj)
	if after.Err != nil {
		t.Fatal(after.Err)
	}
	if after.Policy.Effective() != ModeDryRun || after.Policy.Escalate != (Escalation{2, 30 * time.Minute}) {
		t.Errorf("mode %s escalate %+v after the edit", after.Policy.Effective(), after.Policy.Escalate)
	}
	if len(after.Policy.Agents) != 2 {
		t.Fatalf("profiles after the edit: %+v", after.Policy.Agents)
	}
	got, want := after.Policy.Agents[0], before.Policy.Agents[0]
	if got.Unknown != want.Unknown || got.Timeout != want.Timeout || got.Mode != want.Mode || len(got.Rules) != 3 || got.Rules[2].Pattern != "make deploy*" {
		t.Errorf("codex profile after the edit: %+v, before %+v", got, want)
	}
	if a := after.Policy.Agents[1]; a.Name != "odd name" || a.Composite != "each" {
		t.Errorf("quoted profile after the edit: %+v", a)
	}
}
