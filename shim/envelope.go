package shim

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
)

// envelope recognises an agent's command envelope around text (see
// classify.RecognizeEnvelope) when guard runs as that agent's shell: Claude
// Code runs its shell by a path that contains "bash", which is the only way
// it accepts one. The plumbing may point only where the agent's own files
// are: its snapshot directory and the temporary directory.
func (a *app) envelope(argv0, text string) (classify.Envelope, bool) {
	if !strings.Contains(filepath.Base(argv0), "bash") {
		return classify.Envelope{}, false
	}
	var ctx classify.EnvelopeContext
	if d := a.env.getenv("CLAUDE_CONFIG_DIR"); filepath.IsAbs(d) {
		ctx.SnapshotDirs = append(ctx.SnapshotDirs, filepath.Join(d, "shell-snapshots"))
	}
	if h := a.env.getenv("HOME"); filepath.IsAbs(h) {
		ctx.SnapshotDirs = append(ctx.SnapshotDirs, filepath.Join(h, ".claude", "shell-snapshots"))
	}
	for _, k := range []string{"CLAUDE_CODE_TMPDIR", "TMPDIR"} {
		if d := a.env.getenv(k); filepath.IsAbs(d) {
			ctx.TempDirs = append(ctx.TempDirs, filepath.Clean(d))
		}
	}
	ctx.TempDirs = append(ctx.TempDirs, os.TempDir(), "/tmp")
	return classify.RecognizeEnvelope(text, ctx)
}

// rulePlumbing is the rule of a snapshot-creation script let through.
const rulePlumbing = "agent-plumbing"

// snapshotScript recognises Claude Code's snapshot-creation script (see
// classify.RecognizeSnapshotScript) and returns the snapshot it writes. On
// top of the text, it must come from the agent itself, not from inside a
// guarded command (GUARD_ACTIVE unset, GUARD_DEPTH 0), and it must create a
// new snapshot: rewriting one that envelopes already source would let its
// text run unjudged later.
func (a *app) snapshotScript(argv0, text string) (string, bool) {
	if !strings.Contains(filepath.Base(argv0), "bash") || !strings.HasPrefix(strings.TrimSpace(text), "SNAPSHOT_FILE=") {
		return "", false
	}
	if a.env.getenv("GUARD_ACTIVE") != "" || (a.env.getenv("GUARD_DEPTH") != "" && a.env.getenv("GUARD_DEPTH") != "0") {
		return "", false
	}
	var ctx classify.EnvelopeContext
	if d := a.env.getenv("CLAUDE_CONFIG_DIR"); filepath.IsAbs(d) {
		ctx.SnapshotDirs = append(ctx.SnapshotDirs, filepath.Join(d, "shell-snapshots"))
	}
	var rc []string
	if h := a.env.getenv("HOME"); filepath.IsAbs(h) {
		ctx.SnapshotDirs = append(ctx.SnapshotDirs, filepath.Join(h, ".claude", "shell-snapshots"))
		for _, f := range []string{".bashrc", ".bash_profile", ".profile", ".zshrc"} {
			rc = append(rc, filepath.Join(h, f))
		}
	}
	e, ok := classify.RecognizeSnapshotScript(text, ctx, rc)
	if !ok {
		return "", false
	}
	if _, err := os.Lstat(e.Snapshot); !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	return e.Snapshot, true
}

// plumbing recognises the agent's own plumbing that reaches guard as its
// bash: Claude Code's snapshot-creation script, and guard hook itself (Gemini
// CLI runs its hooks with the bash on PATH, which may be guard's link). It
// returns why it is plumbing, whether it is a hook call, and the snapshot a
// creation script writes ("" for none), which guard notes once written
// (envelope_run.go).
func (a *app) plumbing(argv0, text string) (why string, hook bool, snapshot string) {
	if s, ok := a.snapshotScript(argv0, text); ok {
		return "Claude Code writes its shell snapshot " + s, false, s
	}
	if a.hookInvocation(text) {
		return "the agent runs guard's hook", true, ""
	}
	return "", false, ""
}

// hookInvocation reports whether text is exactly guard's own hook command
// (GUARD hook AGENT, GUARD this guard by its path or found as guard on
// PATH), run by the agent's runtime: not from inside a guarded command,
// where guard hook is refused (it could leave a ticket).
func (a *app) hookInvocation(text string) bool {
	if a.env.getenv("GUARD_ACTIVE") != "" || len(text) > 4096 {
		return false
	}
	for _, r := range text {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._- ", r)) {
			return false // quotes, expansions, operators: not the plain command
		}
	}
	f := strings.Fields(text)
	if len(f) != 3 || f[1] != "hook" {
		return false
	}
	if _, ok := protocolFor(f[2]); !ok {
		return false
	}
	prog := f[0]
	if !strings.Contains(prog, "/") {
		p, err := lookPath(prog, a.env.getenv("PATH"), a.env.Cwd)
		if err != nil {
			return false
		}
		prog = p
	}
	got, err := filepath.EvalSymlinks(prog)
	if err != nil {
		return false
	}
	self, err := filepath.EvalSymlinks(a.env.Self)
	return err == nil && a.env.Self != "" && got == self
}

// plumbingVerdict lets recognised plumbing run, unless the verdict is a
// deny (a deny rule, the denylist, a config that did not load) other than
// guard-self.
func plumbingVerdict(j job, v grants.Verdict) grants.Verdict {
	// guard hook is a guard-self verb, and Claude's snapshot lives under
	// ~/.claude/shell-snapshots, which guard protects from guarded
	// commands (it is sourced before each one): both are recognised
	// exactly, outside the guarded state, so guard-self is theirs to pass.
	// Every other deny stands.
	if j.plumbing == "" || (v.Decision == grants.Deny && v.Rule != "guard-self") {
		return v
	}
	return grants.Verdict{Decision: grants.Allow, Rule: rulePlumbing, Reason: j.plumbing, Risk: grants.RiskLow}
}
