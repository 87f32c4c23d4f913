// Package integrations ships the small files that guard installs into
// agents that take a plugin rather than a hook command: the OpenCode
// plugin (opencode/guard.js) and the Pi extension (pi/guard.ts). They are
// readable source in the repository, reviewed like the rest of guard, and
// embedded here so that `guard install --agent opencode|pi` writes exactly
// the reviewed text, with one placeholder ([GuardPlaceholder]) replaced by
// the absolute path of the guard binary.
//
// Both call `guard hook AGENT` once per bash call: they write one JSON
// object ({"command","cwd","session_id"}) on its stdin and read one JSON
// line ({"decision","reason",…}) from its stdout. Anything else (guard
// missing, a crash, a timeout, output that does not parse) blocks the
// call: they never let a command through that guard did not allow.
//
// It is a package of its own only because go:embed cannot reach files
// outside the embedding package's directory.
package integrations
