// Package shim is one run of guard as an agent's shell: it takes the command
// line apart, judges the command text, asks the human when it must, runs what
// is allowed, and records the decision.
//
// # Entry modes
//
// [Front] is the whole guard program (cmd/guard): shell invocations go to
// [Main], guard exec with the flags it documents (--timeout, --cwd) to
// [Exec], and every other command line to guard-cli ([FindCLI]: next to
// guard's executable, else on PATH, never guard itself), exec'd in place.
//
//   - guard -c CMD [arg0 [args…]], with the flags and orders a shell accepts
//     (-c, -lc, -l -c, -c -l, --login -c, -ec, -xc, -o pipefail -c, --norc,
//     --noprofile, …). -c with an empty command is valid (exit 0). Every flag
//     other than c is passed to the real shell unchanged. A command line bash
//     would reject (-c without a command, an unknown option) exits 2.
//   - argv[0] dispatch: invoked through a link named bash or sh, guard acts as
//     that shell and runs the real shell of that name found on PATH after the
//     directory it was invoked from. [IsShellInvocation] tells cmd/guard when
//     to call [Main].
//   - No -c and stdin is a terminal: an interactive session (interactive.go).
//     guard reads one complete command at a time (golang.org/x/term's line
//     editor, history in memory only; mvdan/sh says when the input is
//     complete, else "> " continues), judges it exactly as -c would, and runs
//     what is allowed in one persistent real shell, so cd, variables,
//     functions, aliases and set options carry over. After each line the
//     shell reports its functions, aliases, hash table and PATH: a later
//     line calls a function with its body, and a name that PATH or the
//     hash table now points at another program than PATH found at the start
//     (shadow.go) is judged as that program and asked. Each line is an audit
//     record of mode interactive. exit N ends the session with N; EOF with the
//     last line's status. No -c and stdin is not a terminal: the whole script
//     is read from stdin (at most 128 KiB; longer is refused), judged as one
//     text and run with -c (positional words after -s stay $1 …). The
//     command's own stdin is then at its end. A script file operand (bash x.sh
//     args, guard x.sh args) is judged as the command "bash x.sh args"; guard
//     PATH is a script when PATH is an existing regular file and not the name
//     of a guard-cli subcommand (./check names a file called check).
//   - [Exec]: guard exec -- PROG ARGS…, judged as the simple command it is and
//     run without a shell (PROG looked up on PATH; missing: exit 127).
//
// # Finding the real shell
//
// real_shell from the global config or the managed policy (loaded before
// the shell is found; the decision takes the same settings), else the
// dispatch name after guard's own directory on PATH, else bash then sh on
// PATH. No variable names it: the agent sets guard's environment, and a
// shell it named would run every command unjudged. Relative PATH entries are never used, and
// any candidate that is guard itself (os.SameFile, so through links) is
// skipped; when only guard was found the run stops with exit 125 and
// "guard: error: loop: …". GUARD_DEPTH counts nested guards; at 40 the run
// stops the same way, which catches loops through wrapper scripts.
//
// # Deciding and asking
//
// classify.Analyze (or AnalyzeArgv) and grants.Decide give a verdict. deny:
// exit 126 and one line "guard: denied: RULE: REASON". ask: an approval given
// with guard approve --once for exactly this text in this directory is used
// up; else, if prompting is on (not GUARD_NO_PROMPT=1, not no_tty_prompt),
// /dev/tty opens with guard in its foreground and [TrustTerminal] finds it
// is a human's, [Prompt] asks there, never on the agent's stdout or
// stderr; else the request is recorded as pending and guard exits 126 with
// one line "guard: needs approval: CMD (REASON (WHY NOT ASKED)); to allow
// it here: guard grants add --project 'PATTERN'  (or: guard approve ID)".
// Answers p and g store the pattern with grants.AddRule in the project's or
// the global grants. Text shown anywhere goes through redact first, then
// redact.Visible: the prompt and every message print control, bidi and
// zero-width characters escaped, and the prompt adds a line saying so
// ([ControlNote]).
//
// # Whose terminal is it
//
// An agent that drives its own pseudo-terminal (python's pty, script,
// expect, a tmux it started) could read the question and type the answer.
// So before asking, guard judges the terminal ([TrustTerminal]; for
// another process, [TrustProcessTerminal]). It is a human's only when:
//
//   - A terminal that is no pseudo-terminal (a virtual console /dev/ttyN,
//     a serial line, the kernel's console) has no program guard could
//     name as its holder, and an agent that can open one (root can) may
//     make it its own and run guard there. It counts only when the human
//     lists its device in trusted_terminals (a path like /dev/tty2, a glob
//     like /dev/tty[0-9]*, or another path to the same device), and only
//     while nothing of the agent's tree can push keys into it (below).
//   - Otherwise guard finds who holds its master side: every process with a
//     descriptor to /dev/ptmx whose /proc/PID/fdinfo tty-index is the
//     terminal's pts number. None found (another PID namespace, a process
//     guard may not read, no /proc, not Linux) is not a human's ("cannot
//     tell who holds this terminal"), with one exception: a user's sshd
//     session process, which guard cannot read, counts as the holder when
//     guard's session leader was started by it and its parent is root's
//     sshd.
//   - The agent is the nearest process above guard that is not a shell
//     (bash, sh, dash, zsh, fish, busybox, …) and not guard. Every holder
//     must be above the agent (an ancestor of it, not it and not below it).
//   - Every holder must also be a terminal program, judged by the program
//     it runs (/proc/PID/exe, not its name): a terminal emulator (gnome
//     terminal, kgx, ptyxis, xterm, urxvt, kitty, alacritty, foot, tilix,
//     xfce4-terminal, ghostty, …), an editor's terminal (VS Code and its
//     forks, not running as a plain node script), or sshd; installed by root
//     (the file and its directory root's and writable by no one else), so
//     an agent cannot call its own program xterm. Interpreters and pty
//     drivers (python, perl, node, script, expect, socat, ssh) never are,
//     so padding the tree (python holding the pty, then perl, then sh -c,
//     then guard) does not help. The user may add programs with
//     trusted_terminals in the global config.toml or the managed policy
//     (never a project's files): absolute paths, owned by root or the user,
//     writable by no one else; such a program counts as a terminal
//     emulator, whatever the tables say.
//   - Multiplexers (tmux, screen, zellij, dtach, abduco) and terminals any
//     process of the user can type into (wezterm cli send-text, konsole's
//     d-bus sendText) are not a human's: an agent could type the answer
//     into them. mosh-server neither: any process can start one.
//   - An editor's terminal or sshd directly above guard (only shells
//     between) is not a human's: the editor's extensions or the ssh client
//     may be the agent. A terminal emulator directly above guard is (the
//     human typed the command). An ssh client on this machine (loopback,
//     or the server's own address, in SSH_CONNECTION) may be the agent: not
//     a human's.
//   - A holder whose environment has GUARD_ACTIVE was started by a command
//     guard ran: not a human's.
//   - No process of the agent's tree (the agent and what descends from
//     it, guard itself aside; with no agent below the holder, every
//     process outside guard's chain of parents) may be able to push keys
//     into the terminal with TIOCSTI: one whose controlling terminal it is,
//     where the kernel allows that (before Linux 6.2, or
//     dev.tty.legacy_tiocsti=1), or one with CAP_SYS_ADMIN (root) that
//     holds it at all, by a descriptor or as its controlling terminal; on
//     a virtual console before Linux 6.7, any process that holds it
//     (TIOCLINUX's copy and paste needed no capability then).
//     guard scans /proc for them. So as root, the agent's own terminal is
//     never asked on: a guard watch in a terminal of the human's is.
//     (A root agent could still open a terminal after guard looked; root
//     is beyond what a terminal check can hold.)
//
// Every read is bounded (8192 processes, 200000 descriptors, 64 parent
// links) and never blocks; any error is not a human's. It runs only when
// guard must ask.
//
// The verbs that approve on a terminal (guard approve, reject, watch, and
// the web console's first passkey) judge it by the same rule. The verbs
// that grant without a question (grants add, grants rm, trust, policy
// reset), when typed on a terminal, are judged by [TrustGrantingTerminal]:
// its holder is not judged (a human may type them in tmux), but an
// unlisted console is refused, and so is a terminal a process outside the
// verb's own chain of parents can push keys into: it may have typed the
// verb into the human's shell.
//
// # The prompt
//
// An answer is a key, then Enter: o (once), p (this project), t (this
// project for a while: a duration, Enter alone for 2h; the grant expires),
// g (everywhere, confirmed with y and Enter), e (edit the pattern, then p,
// t or g), d (deny); v shows the unredacted command once, on that terminal only.
// Any other key shows the choices again. Keys typed before the question,
// or within 150 ms of it being drawn, are thrown away. Ctrl-C, Esc,
// Ctrl-D, the ask timeout and signals deny. [Reply] says how it ended
// ([Outcome]: once, project, global, edited, deny, timeout, cancelled).
//
// A pattern typed at e is previewed before it can be stored
// ([Question].Preview): guard runs guard-cli grants preview (the audit is
// SQLite, which guard does not link) for at most 5 s and shows what the
// pattern would have allowed. A pattern that covers a past command the
// denylist refused, or that grants.CoversDenied finds by probing its '*',
// is refused and edited again; when the audit cannot be read the prompt
// says so and the probe still stands.
//
// # Running
//
// The real shell runs in its own process group with the caller's environment
// plus GUARD_ACTIVE=1, minus what bash would run from it (BASH_ENV, ENV,
// exported functions, SHELLOPTS, BASHOPTS, PS4, PROMPT_COMMAND, PS0: dropped,
// not judged, see shellCodeVars), and with the caller's own stdin, stdout
// and stderr (nothing is copied); a stdout or stderr that was closed when
// guard started stays closed for it, as with bash (stdclosed.go). A command
// line naming --rcfile or --init-file is refused: with -i bash would source
// that file. When stdin is the terminal and guard is in its
// foreground, the child puts its group in the foreground itself (between fork
// and exec, so it can never be stopped for reading too early) and guard takes
// the terminal back afterwards. SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGWINCH
// go to the group. The exit status is the command's (signal N: 128+N).
//
// Timeout (guard exec --timeout > GUARD_TIMEOUT > timeout in the config >
// 10m): SIGTERM to the group and to every descendant, SIGKILL after 2 s, exit
// 124 and "guard: timed out after D". The same cleanup runs when guard itself
// gets SIGTERM or SIGHUP (forward, wait the grace, kill), and after SIGINT or
// SIGQUIT once the shell has ended. Ctrl-C (or Ctrl-\) typed at the terminal
// reaches only the command's group, not guard: when the command ends by that
// signal (killed by it, or exiting 130 or 131), guard cleans up the same way,
// so a background job survives neither kind of interrupt. What guard cannot
// see: a command that traps Ctrl-C and exits with another status keeps its
// background jobs, as after a normal end.
//
// A signal ends guard promptly in every phase: before the command starts the
// signals keep their default action (guard never blocks there: every file it
// opens is opened without blocking and every lock wait is bounded, 2 s); while
// it runs they are forwarded; after it ended (while the record is written)
// guard exits at once with 128+N and counts the record as lost.
//
// How "every descendant" is found: guard makes itself a child subreaper
// (PR_SET_CHILD_SUBREAPER), so processes that double-forked or left the group
// with setsid reparent to guard instead of init and stay in guard's subtree;
// the subtree is read from /proc and killed in rounds until nothing is left,
// and the orphans are reaped. As a last resort the shell gets
// Pdeathsig=SIGKILL, so it dies if guard is killed with SIGKILL. What guard
// cannot stop: after a SIGKILL to guard itself, the shell's own descendants
// outlive it (nothing runs in guard any more to kill them); a process that
// escapes with its own subreaper or a new PID namespace; a cgroup would be
// needed for those. A command that ends normally may leave background jobs
// running, as bash -c does.
//
// The cost per command is what this package is measured by
// (bench/overhead.sh), so the run keeps the Go runtime's threads few: the
// command starts with syscall.ForkExec and is waited for with wait4 on the
// calling goroutine; the timeout and the grace period are timers; one
// goroutine forwards signals. Work that must not delay the command (enabling
// signal delivery, looking up the agent's name) runs while it starts
// (runSpec.Meanwhile). guard never calls signal.Stop: it exits after the run.
//
// guard prints nothing to stdout in shell mode, ever. Exit statuses guard
// itself produces: [ExitUsage], [ExitTimeout], [ExitFailure], [ExitRefused],
// [ExitNoProg].
//
// # Confinement
//
// What guard runs starts inside a kernel boundary (confine.go says what it
// is, confine_linux.go draws it, confine_proxy.go is guard's side of the
// proxy): on an OS thread of its own, locked and never given back, guard
// unshares a mount namespace (and a network namespace under network =
// "hosts" or "none") when it is root, makes home a read-only view of its
// kept entries, binds the protected paths read-only, covers hidden ones,
// sets no_new_privs and a seccomp filter (TIOCSTI, TIOCLINUX, foreign ABIs),
// enforces a Landlock ruleset on that thread, and forks the command from it:
// the child inherits all of it before its first instruction. The thread lives
// until the command is reaped (the child's parent-death signal is tied to it).
// guard's own threads stay unconfined: the record is written as before. A
// kernel without Landlock runs commands unconfined (said once a day, or
// refused with [confine] required); a nested guard inside a boundary does not
// confine again. docs/confinement.md is the user's page.
//
// # Record
//
// Every decision becomes one audit record (ccs, all of it in record.go):
// time, agent (GUARD_AGENT, else the parent process name from /proc), cwd,
// the redacted text, its keyed hash (HMAC, see ccs), decision (the verdict;
// deny when a human refused), rule, answer (rule, once, project, global,
// edited, deny, timeout, cancelled, pending, rejected), via (rule, terminal,
// console, approve), mode (shell, stdin, exec, interactive), exit status and
// duration. A
// refusal is printed before it is recorded. A state directory that cannot be
// written costs one "guard: warning: audit not written: …" line per run; the
// command is still judged and run, and the lost record is counted in the
// state directory's audit-lost marker (count and last time), which guard
// audit reports ("guard: warning: N records were lost, last at TIME").
//
// The agent's file size limit (ulimit -f) is the command's, not guard's:
// guard raises its own soft limit to the hard one for its writes and gives
// the command the limit it was started with (rlimit.go). A hard limit it
// cannot raise makes every record a loss, counted as above (an empty file
// per loss in audit-lost.d when not even the marker can grow).
//
// audit_required = true (config; default false) turns that around: before an
// allowed command runs, guard checks that its record can be written (the
// state directory exists, the journal opens for appending as a regular
// file, and a record's worth of bytes written at the journal's end offset
// into an unnamed file there lands: a file size limit or a full disk fails
// it); if not, the command does not run and guard exits 125 (guard failed,
// not a refusal of the command: 126 would tell the agent the command itself
// is forbidden) with one "guard: error: audit_required …" line. The record is
// written after the command, so a record can still be lost in between (the
// disk fills while it runs); that is counted, and said in one "guard:
// error: audit_required …" line after the command's output. The default is
// false because
// guard's first job is to judge: a full disk or a broken state directory
// should not stop all work when every command is still judged, refused or
// asked as usual; a user who must have a complete trail sets it.
//
// # Asking without a terminal
//
// When guard must ask and has no trusted terminal (or prompting is off), it
// first refuses a text that a human rejected in the same project root within
// reject_memory ("rejected by the human at 14:02; do not retry"). Otherwise
// it stores a pending request and, if a human runs guard watch, offers it
// there (console.go): it connects to console.sock in the state directory,
// trusts the listener only if SO_PEERCRED shows this user, guard's own
// program, no guard shell among its ancestors and a human's terminal, sends
// the request and waits up to ask_timeout. With no console, or one it does
// not trust, the command is refused as needing approval, with the request
// id; SIGINT, SIGTERM or SIGHUP while waiting refuse at once.
package shim
