package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"
)

func (a *App) redactCommand() *cli.Command {
	return &cli.Command{
		Name:  "redact",
		Usage: "copy stdin to stdout with secrets replaced by [REDACTED:kind]",
		UsageText: `guard redact < FILE

Replaces API keys and tokens (AWS, GitHub, GitLab, Slack, Stripe, OpenAI,
Anthropic, Google, npm), JWTs, PEM private keys, passwords in URLs,
Authorization headers, password=/token=/… values, and the values of this
environment's variables whose names contain KEY, TOKEN, SECRET, PASSWORD,
PASSWD, CREDENTIAL or AUTH.

example:
   env | guard redact
   guard redact < build.log > build.redacted.log`,
		Action: a.redact,
	}
}

func (a *App) redact(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("redact takes no arguments: it filters stdin to stdout")
	}
	w := a.redactor().Writer(a.Stdout)
	if _, err := io.Copy(w, a.Stdin); err != nil {
		return failure(fmt.Errorf("redact: %w", err), "")
	}
	if err := w.Close(); err != nil {
		return failure(fmt.Errorf("redact: %w", err), "")
	}
	return nil
}
