// Command guard stands between an AI coding agent and the shell: it is the
// agent's $SHELL (guard -c CMD), the bash and sh links in the shim directory,
// and guard exec -- PROG ARGS…. Every command an agent runs starts this
// program, so it holds only that path: packages shim, classify, grants,
// redact and ccs's journal, built without cgo.
//
// Every other command line (guard check, guard grants …, guard audit, guard
// approve, guard --help, …) is handed to guard-cli, the management CLI built
// with urfave/cli and SQLite, found next to this executable (else on PATH):
// guard execs it in place, so its exit status and output are guard's. The
// split is a measured one: linking urfave/cli and cgo (for SQLite) made each
// start of guard about 1.6 ms slower, more than everything guard does to
// decide (see bench/overhead.sh and the README).
//
// Build it as install.sh does, with CGO_ENABLED=0: with cgo, os/user (through
// mvdan.cc/sh/v3/expand) would link the C library again.
//
//	CGO_ENABLED=0 go build -o guard ./cmd/guard
//	go build -tags urfave_cli_no_docs -o guard-cli ./cmd/guard-cli
package main
