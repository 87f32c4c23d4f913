package grants

import (
	"testing"

	"github.com/guard-dev/guard/classify"
)

// TestIssue18UnderGrants: under the common '*' grants with composite =
// "each", the classes of issue 18 §4-§6 keep their verdicts: the
// irreversible ones deny, an agent's project config and bash state that
// changes later commands ask (allow-once: no grant covers them), guard's
// read-only verbs are allowed and guard -c is judged by what it runs.
func TestIssue18UnderGrants(t *testing.T) {
	if !classifyWorks() {
		t.Skip("classify is a stub")
	}
	s := Defaults()
	s.Composite = "each"
	s.Root = "/home/u/proj"
	for _, p := range append(commonGrants, "cargo *", "cmake *", "zfs *", "lvremove *", "ssh *", "printf *", "ls *", "cp *", "gh *", "aws *", "gcloud *") {
		s.Rules = append(s.Rules, Rule{Kind: Allow, Pattern: p, Layer: LayerProjectGrants})
	}
	for _, tc := range []struct {
		cmd  string
		want Decision
		rule string
	}{
		{"zfs destroy -r tank", Deny, "volume-destroy"},
		{"lvremove -f vg0/lv", Deny, "volume-destroy"},
		{"cargo clean --target-dir /", Deny, "rm-root"},
		{"cmake -E rm -rf ~", Deny, "rm-home-all"},
		{"tar --remove-files -cf /tmp/x.tar /etc", Deny, "rm-root"},
		{"rm -rf ~", Deny, "rm-home-all"},
		{"dd if=/dev/zero of=/dev/mem", Deny, "disk-write"},
		{"ssh root@2130706433 id", Deny, "privilege"},
		{"guard -c 'rm -rf /'", Deny, "rm-root"},
		{"guard exec -- sudo -n true", Deny, "privilege"},
		{"cp x .claude/settings.json", Ask, "agent-config"},
		{"cp x .mcp.json", Ask, "agent-config"},
		{"tar -xf hooks.tar -C .claude", Ask, "agent-config"},
		{"printf -v PATH %s /tmp/evil:/usr/bin; ls", Ask, "shell-state"},
		{"printf -v 'BASH_CMDS[ls]' %s /tmp/evil/ls; ls", Ask, "shell-state"},
		{"git reset --merge HEAD~1", Ask, "git-lose-work"},
		{"git tag -d v1", Ask, "git-lose-work"},
		{"gh repo delete me/x --yes", Ask, "cloud-delete"},
		{"gh api -X DELETE repos/me/x", Ask, "cloud-delete"},
		{"aws s3 rm s3://b --recursive", Ask, "cloud-delete"},
		{"gcloud projects delete p", Ask, "cloud-delete"},
		{"git status", Allow, ""},
		{"gh repo view", Allow, ""},
		{"aws s3 ls", Allow, ""},
		{"printf -v x %s y; ls", Allow, ""},
		{"cargo clean", Allow, ""},
		{"cp x docs/mcp.md", Allow, ""},
		{"guard grants list", Allow, ""},
		{"guard explain 'rm -rf /'", Allow, ""},
		{"guard check -- ls", Allow, ""},
		{"guard -c 'ls -la'", Allow, ""},
	} {
		v := Decide(classify.Analyze(tc.cmd, testOptions()), s)
		if v.Decision != tc.want || tc.rule != "" && v.Rule != tc.rule {
			t.Errorf("%q: got %v (%s: %s), want %v %s", tc.cmd, v.Decision, v.Rule, v.Reason, tc.want, tc.rule)
		}
		if v.Decision == Ask && !v.OnceOnly {
			t.Errorf("%q: an ask a grant could silence (%s)", tc.cmd, v.Rule)
		}
	}
}
