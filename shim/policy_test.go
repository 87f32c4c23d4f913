package shim

import (
	"strings"
	"testing"
	"time"

	"github.com/guard-dev/guard/grants"
)

// TestDryRunRunsAndRecordsWould: a verdict the mode relaxed runs the
// command, is recorded as would-deny with its risk and mode, and counts
// toward escalation; the switch is said once and recorded.
func TestDryRunRunsAndRecordsWould(t *testing.T) {
	r := newTestRun(t, "allow")
	r.te.verdict = grants.Verdict{Decision: grants.Allow, Would: grants.Deny, Mode: grants.ModeDryRun, Rule: "ls /*",
		Reason: "deny rule", Risk: grants.RiskHigh}
	var counted []string
	runOnce := func(switchNow bool) int {
		return r.do(func(a *app) int {
			a.eng.settings = func(string) *grants.Settings {
				s := &grants.Settings{}
				s.Policy.Escalate = grants.Escalation{After: 2, Within: time.Hour}
				return s
			}
			a.eng.escalate = func(root string, now time.Time, e grants.Escalation) (*grants.EscalationState, error) {
				counted = append(counted, root)
				if !switchNow {
					return nil, nil
				}
				return &grants.EscalationState{Root: root, At: now, Events: e.After, Within: e.Within}, nil
			}
			a.env.Args = []string{"guard", "-c", "echo ran"}
			return a.shell()
		})
	}
	if code := runOnce(false); code != 0 || r.out() != "ran\n" || r.errOut() != "" {
		t.Fatalf("dry_run run: exit %d stdout %q stderr %q", code, r.out(), r.errOut())
	}
	if code := runOnce(true); code != 0 || r.out() != "ran\n" {
		t.Fatalf("escalating run: exit %d stdout %q", code, r.out())
	}
	if want := "guard: warning: 2 high-risk would-deny within 1h: this project now enforces (guard policy reset undoes it)\n"; r.errOut() != want {
		t.Errorf("stderr %q, want %q", r.errOut(), want)
	}
	if len(counted) != 2 || counted[0] != r.dir {
		t.Errorf("counted %q", counted)
	}
	recs := r.audit()
	if len(recs) != 3 {
		t.Fatalf("records: %+v", recs)
	}
	for _, e := range recs[:2] {
		if e.Decision != "would-deny" || e.Rule != "ls /*" || e.Answer != "dry_run" || e.Risk != "high" || e.Policy != "dry_run" || e.Exit != 0 {
			t.Errorf("record %+v", e)
		}
	}
	if e := recs[2]; e.Decision != "escalate" || e.Answer != "enforce" || e.Policy != "enforce" || !strings.Contains(e.Command, "after 2 high-risk would-deny within 1h") {
		t.Errorf("escalation record %+v", e)
	}
}

// TestDryRunNotCounted: would-ask, low risk and off are never counted.
func TestDryRunNotCounted(t *testing.T) {
	for _, v := range []grants.Verdict{
		{Decision: grants.Allow, Would: grants.Ask, Mode: grants.ModeDryRun, Rule: "unknown", Risk: grants.RiskHigh},
		{Decision: grants.Allow, Would: grants.Deny, Mode: grants.ModeDryRun, Rule: "unknown", Risk: grants.RiskLow},
		{Decision: grants.Allow, Would: grants.Deny, Mode: grants.ModeOff, Rule: "unknown", Risk: grants.RiskHigh},
	} {
		r := newTestRun(t, "allow")
		r.te.verdict = v
		counted := 0
		code := r.do(func(a *app) int {
			a.eng.settings = func(string) *grants.Settings {
				s := &grants.Settings{}
				s.Policy.Escalate = grants.Escalation{After: 1, Within: time.Hour}
				return s
			}
			a.eng.escalate = func(string, time.Time, grants.Escalation) (*grants.EscalationState, error) {
				counted++
				return nil, nil
			}
			a.env.Args = []string{"guard", "-c", "true"}
			return a.shell()
		})
		recs := r.audit()
		if code != 0 || counted != 0 || len(recs) != 1 || recs[0].Decision != "would-"+string(v.Would) || recs[0].Answer != string(v.Mode) {
			t.Errorf("%+v: exit %d, counted %d, records %+v", v, code, counted, recs)
		}
	}
}
