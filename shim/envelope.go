package shim

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-dev/guard/classify"
)

// envelope recognises an agent's command envelope around text (see
// classify.RecognizeEnvelope) when guard runs as that agent's shell: Claude
// Code runs its shell by a path that contains "bash", which is the only way
// it accepts one. The plumbing may point only where the agent's own files
// are: its snapshot directory and the temporary directory.
func (a *app) envelope(argv0, text string) (classify.Envelope, bool) {
	if !strings.Contains(filepath.Base(argv0), "bash") || !strings.Contains(text, "eval ") {
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
