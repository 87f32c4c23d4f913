package shim

import (
	"fmt"
	"time"

	"github.com/guard-dev/guard/grants"
)

// Rollout modes in the runtime (grants.Mode). In dry_run and off,
// grants.Decide turns a deny or ask it may relax into allow and says in
// Verdict.Would what enforce would have done: the command runs, and its
// record says decision would-deny or would-ask, answer dry_run or off.
// The verdicts that block in every mode (fail-closed ones, the hard
// denylist, self-protection) stay denies and never reach here.
//
// Escalation: in dry_run with escalate = { after = N, within = DUR }, each
// high-risk would-deny is counted in the state directory
// (grants.NoteWouldDeny); the Nth within DUR switches the project to
// enforce, which is recorded as one more audit record (decision escalate)
// and said once on stderr. guard policy reset switches it back.

// recordWould records a run the mode let through, and counts it toward
// escalation.
func (a *app) recordWould(j job, v grants.Verdict, s *grants.Settings, exit int, start time.Time) {
	a.record(j, v, "would-"+string(v.Would), answered{string(v.Mode), viaRule}, exit, start)
	esc := s.Policy.Escalate
	if v.Would != grants.Deny || v.Risk != grants.RiskHigh || v.Mode != grants.ModeDryRun || esc.After <= 0 || a.eng.escalate == nil {
		return
	}
	root := a.eng.projectRoot(j.cwd)
	now := a.env.now()
	st, err := a.eng.escalate(root, now, esc)
	if err != nil {
		a.warnPending("the would-deny was not counted for escalation", err)
		return
	}
	if st == nil {
		return
	}
	fmt.Fprintf(a.env.Stderr, "guard: warning: %d high-risk would-deny within %s: this project now enforces (guard policy reset undoes it)\n",
		st.Events, shortDuration(st.Within))
	why := fmt.Sprintf("policy: dry_run switched to enforce in %s after %d high-risk would-deny within %s", root, st.Events, shortDuration(st.Within))
	a.record(job{mode: j.mode, cwd: j.cwd, text: why},
		grants.Verdict{Rule: grants.RuleEscalate, Risk: grants.RiskHigh, Mode: grants.ModeEnforce},
		grants.RuleEscalate, answered{string(grants.ModeEnforce), viaRule}, 0, now)
}
