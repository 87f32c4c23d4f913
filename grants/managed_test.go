package grants

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/guard-dev/guard/classify"
)

// TestManagedPolicyBinds: the managed policy binds over every user grant.
func TestManagedPolicyBinds(t *testing.T) {
	if !classifyWorks() {
		t.Skip("classify.Analyze is still a stub")
	}
	userGrants := policyFiles{
		global:  "unknown = \"ask\"\n[permissions.bash]\nallow = [\"terraform *\"]\n[[rule]]\ncommand = \"kubectl\"\nargs_any = [\"get\"]\neffect = \"allow\"\n",
		grants:  "[permissions.bash]\nallow = [\"terraform *\", \"go test *\", \"cargo *\"]\n",
		project: "[permissions.bash]\nallow = [\"make *\"]\n",
		trust:   true,
	}
	cases := []struct {
		name    string
		managed string
		agent   string
		cmd     string
		want    Decision
		rule    string
	}{
		{name: "no managed policy: user grants allow", cmd: "go test ./...", want: Allow, rule: "go test *"},
		{name: "managed deny beats a project grant", managed: "[permissions.bash]\ndeny = [\"terraform destroy*\"]\n", cmd: "terraform destroy", want: Deny, rule: "terraform destroy*"},
		{name: "managed ask beats a project grant", managed: "[permissions.bash]\nask = [\"cargo publish*\"]\n", cmd: "cargo publish", want: Ask, rule: "cargo publish*"},
		{name: "managed unknown deny binds", managed: "unknown = \"deny\"\n", cmd: "mytool x", want: Deny, rule: RuleUnknown},
		{name: "allow_user_grants false: project grants do not count", managed: "allow_user_grants = false\n", cmd: "go test ./...", want: Ask},
		{name: "allow_user_grants false: trusted project allows do not count", managed: "allow_user_grants = false\n", cmd: "make build", want: Ask},
		{name: "allow_user_grants false: managed allows count", managed: "allow_user_grants = false\n[permissions.bash]\nallow = [\"go test *\"]\n", cmd: "go test ./...", want: Allow},
		{name: "user [[rule]] allow counts without a managed policy", cmd: "kubectl get pods", want: Allow},
		{name: "allow_user_grants false: user [[rule]] allows do not count", managed: "allow_user_grants = false\n", cmd: "kubectl get pods", want: Ask},
		{name: "allow_user_grants false: read-only set still allows", managed: "allow_user_grants = false\n", cmd: "git status", want: Allow, rule: RuleBuiltinReadonly},
		{name: "power agent keeps its grants", managed: "power_agents = [\"claude\"]\n", agent: "claude", cmd: "go test ./...", want: Allow},
		{name: "other agent: safe, grants do not count", managed: "power_agents = [\"claude\"]\n", agent: "codex", cmd: "go test ./...", want: Deny, rule: RuleUnknown},
		{name: "unnamed agent: safe", managed: "power_agents = [\"claude\"]\n", agent: "", cmd: "cargo build", want: Deny, rule: RuleUnknown},
		{name: "safe agent still reads", managed: "power_agents = [\"claude\"]\n", agent: "codex", cmd: "cat README.md", want: Allow},
		{name: "safe agent: dry_run does not apply", managed: "power_agents = [\"claude\"]\nmode = \"dry_run\"\n", agent: "codex", cmd: "cargo build", want: Deny},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			f := userGrants
			f.managed = tc.managed
			e.lay(t, f)
			s := Load(e.p, e.proj).As(tc.agent)
			if s.Err != nil {
				t.Fatal(s.Err)
			}
			opts := classify.Options{Cwd: e.proj, Home: filepath.Dir(e.proj)}
			v := Decide(classify.Analyze(tc.cmd, opts), s)
			if v.Decision != tc.want || (tc.rule != "" && v.Rule != tc.rule) {
				_, tr := Explain(classify.Analyze(tc.cmd, opts), s)
				t.Errorf("%q: %s %s (%s); want %s %s\n  %s", tc.cmd, v.Decision, v.Rule, v.Reason, tc.want, tc.rule, strings.Join(tr, "\n  "))
			}
		})
	}
}

// TestExamplePolicy loads the shipped sample managed policy.
func TestExamplePolicy(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	file := filepath.Join(filepath.Dir(here), "..", "examples", "policy.toml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	write(t, e.p.Managed, string(data))
	write(t, e.p.ProjectGrants(e.proj), "mode = \"off\"\nunknown = \"ask\"\n[permissions.bash]\nallow = [\"terraform *\"]\n")
	s := Load(e.p, e.proj)
	if s.Err != nil {
		t.Fatalf("examples/policy.toml: %v", s.Err)
	}
	if s.Policy.MinMode != ModeDryRun || s.Policy.Effective() != ModeDryRun || s.Unknown != Deny || !s.Policy.NoUserGrants {
		t.Errorf("example: min_mode %s mode %s unknown %s no-user-grants %v", s.Policy.MinMode, s.Policy.Effective(), s.Unknown, s.Policy.NoUserGrants)
	}
	if !classifyWorks() {
		return
	}
	opts := classify.Options{Cwd: e.proj, Home: filepath.Dir(e.proj)}
	for cmd, want := range map[string]Decision{
		"terraform destroy": Deny,  // a managed deny binds, in dry_run too (it is would-deny, and escalates)
		"git status":        Allow, // read-only
		"go test ./...":     Allow, // managed allow
	} {
		v := Decide(classify.Analyze(cmd, opts), s.ForAgent("claude"))
		got := v.Decision
		if v.Would != "" {
			got = v.Would
		}
		if got != want {
			t.Errorf("example %q: %s (would %q, %s), want %s", cmd, v.Decision, v.Would, v.Rule, want)
		}
	}
}
