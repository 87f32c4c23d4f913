// Command guard-cli is guard's management CLI: the human's tool for looking
// at and changing what agents may run. Users never type its name: guard
// (cmd/guard, the program on every command's path) execs it in place for
// every command line that is not a shell invocation or a plain guard exec,
// so `guard grants list` runs here and calls itself guard.
//
// It is a program of its own because it needs urfave/cli and SQLite (cgo),
// which made every start of guard about 1.6 ms slower; guard, built without
// them, stays within its budget (see bench/overhead.sh). It still runs shell
// invocations (guard-cli -c CMD) and guard exec the same way guard does.
//
// # Commands
//
//	guard check [--json] [--stdin] [--cwd DIR] -- CMD   decide without running
//	guard explain CMD                                  show why, step by step
//	guard exec [--timeout D] [--cwd DIR] -- PROG ARGS  judge an argv, then run it
//	guard grants list [--json] [--builtin]             every rule, with layer and file
//	guard grants add [--project|--global] [--deny|--ask] PATTERN
//	guard grants rm [--project|--global] PATTERN
//	guard trust [DIR]                                  trust a project's .guard/config.toml
//	guard pending                                      requests waiting for a human
//	guard approve ID [--once|--project|--global]       (needs a terminal)
//	guard reject ID                                    (needs a terminal)
//	guard audit [--json] [-n N] [--decision D] [--since DUR]
//	guard telemetry flush                              send the audit records over OTLP ([telemetry])
//	guard redact                                       stdin → stdout with secrets replaced
//	guard install --agent A [--mode power|safe] [--project|--global] [--dry-run] [--instructions]
//	guard uninstall --agent A [--project|--global] [--dry-run]
//	guard doctor [--agent A]                           is guard wired into each agent, and working?
//	guard serve --listen unix:PATH|127.0.0.1:PORT      the decision API (POST /v1/decide)
//	guard ui [--listen 127.0.0.1:PORT]                 the web console (package webui), passkey-gated
//	guard hook claude|codex|gemini|opencode|pi          the agent hook (the lean guard answers it itself)
//	guard version
//
// # Output policy
//
// Stdout carries only what the user asked for (a verdict, a listing, a trace)
// and, in shell mode, the wrapped command's own output. Every diagnostic goes to
// stderr as one lowercase line: `guard: error: …`, `guard: denied: …` or
// `guard: hint: …`. Command text shown anywhere passes through package redact.
//
// # Exit codes
//
//	0    success; for check, a decision was made (whatever it was: read the output)
//	1    usage or generic error
//	124  the command timed out (exec and shell mode)
//	125  guard itself failed
//	126  guard refused (denied, needs approval, or a granting verb run from inside
//	     a guarded command or without a human at a terminal)
//
// In shell mode and under exec the wrapped command's own status travels up untouched.
//
// # Structure
//
// main.go is a few lines; App (app.go) holds the streams, the environment, the
// working directory, the clock and the path of the running binary, and every
// subcommand is a method on it, one file each. There is no package-level mutable
// state. Shell invocations are handed to package shim before the CLI parser sees
// them. main_test.go runs the testscripts with both programs, guard and
// guard-cli, as the user has them.
package main
