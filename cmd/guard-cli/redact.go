package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/guard-dev/guard/grants"
	"github.com/guard-dev/guard/redact"
)

func (a *App) redactCommand() *cli.Command {
	return &cli.Command{
		Name:  "redact",
		Usage: "copy stdin to stdout with secrets replaced by [REDACTED:kind]",
		UsageText: `guard redact < FILE

Replaces provider keys and tokens (AWS, GCP, Azure, Alibaba, GitHub, GitLab,
Bitbucket, Slack, Discord, Telegram, Stripe, Square, OpenAI, Anthropic,
Hugging Face, Groq, Replicate, npm, PyPI, RubyGems, Docker and more), JWTs,
private keys (every line of the block), passwords in URLs, Authorization
headers, cookies, .netrc passwords, password=/token=/api_key: values in
YAML, TOML, INI, JSON and .env text, and the values of this environment's
variables whose names contain KEY, TOKEN, SECRET, PASSWORD, PASSWD,
PASSPHRASE, CREDENTIAL, AUTH or PRIVATE. It adds the redact_patterns of
your settings and the current project's .guard/redact file.

It streams: each line is written as soon as it is complete (a line longer
than 64 KiB in 64 KiB pieces), so it can sit in a pipe that never ends.
See docs/redaction.md.

example:
   env | guard redact
   kubectl config view --raw | guard redact
   tail -f build.log | guard redact`,
		Action: a.redact,
	}
}

func (a *App) redact(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("redact takes no arguments: it filters stdin to stdout")
	}
	red, err := a.projectRedactor()
	if err != nil {
		return err
	}
	w := red.Writer(a.Stdout)
	if _, err := io.Copy(w, a.Stdin); err != nil {
		return failure(fmt.Errorf("redact: %w", err), "")
	}
	if err := w.Close(); err != nil {
		return failure(fmt.Errorf("redact: %w", err), "")
	}
	return nil
}

// projectRedactor is the redactor for the working directory's project: the
// built-in patterns, the environment, every settings layer's
// redact_patterns and the project's .guard/redact file. A settings file
// that does not load is an error: the user asked for redaction it holds.
func (a *App) projectRedactor() (*redact.Redactor, error) {
	cwd, err := a.cwdOr("")
	if err != nil {
		return a.redactor(), nil // no project to read: the built-in set
	}
	s := grants.Load(a.paths(), cwd)
	if s.Err != nil {
		return nil, failure(fmt.Errorf("redact: %s", a.redactor().String(s.Err.Error())), "fix the settings file named above")
	}
	pats := s.RedactPatterns
	more, err := redact.ReadPatternFile(redact.ProjectFile(s.Root))
	if err != nil {
		// an invalid line is still redacted, as literal text; say so
		a.diag("warning", a.redactor().String(err.Error()))
	}
	pats = append(pats[:len(pats):len(pats)], more...)
	return redact.New(a.Environ, redact.WithPatterns(pats...)), nil
}
