package shim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/guard-dev/guard/classify"
	"github.com/guard-dev/guard/grants"
)

// previewWait bounds how long the prompt waits for guard-cli's grant
// preview: a person is waiting, not a command's hot path, but a locked
// database must not hold the question.
const previewWait = 5 * time.Second

// auditPreview is guard grants preview --json's answer.
type auditPreview struct {
	Matched  int      `json:"matched"`
	Examples []string `json:"examples"`
	Refused  string   `json:"refused"`
	Note     string   `json:"note"`
}

// cliPreview runs guard-cli grants preview for pattern over the whole
// audit (the prompt does not know yet where the pattern goes, and a
// refusal anywhere counts), and waits at most previewWait.
func cliPreview(self string, environ []string, cwd, pattern string) (auditPreview, error) {
	var pv auditPreview
	cli, err := FindCLI(self, "")
	if err != nil {
		return pv, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), previewWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, "grants", "preview", "--global", "--json", "--", pattern)
	cmd.Env = environ
	cmd.Dir = cwd
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return pv, fmt.Errorf("guard-cli gave no answer within %s", shortDuration(previewWait))
	}
	if err := json.Unmarshal(out.Bytes(), &pv); err != nil {
		why := strings.TrimSpace(errb.String())
		if why == "" && runErr != nil {
			why = runErr.Error()
		}
		if why == "" {
			why = "no answer"
		}
		return pv, errors.New(oneLine(strings.TrimPrefix(firstLine(why), "guard: ")))
	}
	return pv, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// promptPreview is the prompt's Preview for a command asked about in
// cwd: the denylist probe, which needs nothing (grants.CoversDenied),
// then the audit's past commands, which guard-cli reads. When the audit
// cannot be read the prompt says so, and the probe still stands.
func (a *app) promptPreview(cwd string) func(string) GrantPreview {
	return func(pattern string) GrantPreview {
		if err := grants.ValidatePattern(grants.Allow, pattern); err != nil {
			return GrantPreview{Refused: err.Error()}
		}
		opts := classify.Options{Cwd: cwd, Home: a.env.getenv("HOME")}
		if why := grants.CoversDenied(pattern, opts); why != "" {
			return GrantPreview{Refused: why}
		}
		if a.eng.preview == nil {
			return GrantPreview{Lines: []string{"no preview of past commands here; only the denylist was checked"}}
		}
		pv, err := a.eng.preview(cwd, pattern)
		if err != nil {
			return GrantPreview{Lines: []string{"no preview of past commands: " + a.eng.redact(err.Error()) + "; only the denylist was checked"}}
		}
		return GrantPreview{Lines: PreviewLines(pattern, pv.Matched, pv.Examples, pv.Note), Refused: pv.Refused}
	}
}

// PreviewLines are the lines the prompt shows of a grant preview, as guard
// grants add prints them.
func PreviewLines(pattern string, matched int, examples []string, note string) []string {
	q := classify.QuoteWord(pattern)
	var lines []string
	if matched == 0 {
		lines = append(lines, "preview: "+q+" covers no command in the audit")
	} else {
		s := "s"
		if matched == 1 {
			s = ""
		}
		lines = append(lines, fmt.Sprintf("preview: %s would have allowed %d past command%s, e.g.:", q, matched, s))
		for _, e := range examples {
			lines = append(lines, "  "+e)
		}
	}
	if note != "" {
		lines = append(lines, "note: "+note)
	}
	return lines
}
