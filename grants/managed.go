package grants

import (
	"fmt"
	"time"
)

// The managed policy (/etc/guard/policy.toml, or $GUARD_MANAGED_POLICY)
// binds every user of the machine:
//
//   - its deny and ask rules apply, like every layer's, and no allow of any
//     layer overrides them;
//   - a scalar it sets (unknown = "deny", composite, timeout, …) may only be
//     made stricter by the layers after it;
//   - min_mode = "enforce" | "dry_run" | "off" is a floor under every
//     layer's mode (enforce > dry_run > off);
//   - allow_user_grants = false: the user's grants (global and per project),
//     the user's global config and a trusted project config allow nothing;
//     only the managed policy's own allow rules and the built-in read-only
//     set allow;
//   - power_agents = ["claude", …] names the agents that may use guard's
//     power mode; any other agent (or an unnamed one) gets safe behaviour
//     (see Settings.ForAgent).
//
// min_mode, allow_user_grants and power_agents are read only from the
// managed policy: anywhere else they are config errors.

// allowCounts reports whether an allow rule may allow under the managed
// policy: with allow_user_grants = false only the managed layer's rules
// do; for an agent not in power_agents, none do.
func (s *Settings) allowCounts(r *Rule) bool {
	return s.allowWhyNot(r) == ""
}

// allowWhyNot says why the managed policy keeps an allow rule from
// counting, "" when it counts.
func (s *Settings) allowWhyNot(r *Rule) string {
	switch {
	case r.Expired:
		return "it expired at " + r.Expires.Format(time.RFC3339)
	case s.Policy.Safe:
		return fmt.Sprintf("agent %q is not in the managed power_agents", s.Policy.Agent)
	case s.Policy.NoUserGrants && r.Layer != LayerManaged:
		return "the managed policy sets allow_user_grants = false"
	}
	return ""
}
