// Package classify turns a command text into an Analysis: every simple
// command the text would run, where each sits, what is not provably literal,
// which composite syntax it uses, and which built-in rules it hits. It is
// pure: it never reads the disk, the environment or the clock (the caller's
// working directory, home and guard's own paths come in Options), so it can
// be tested exhaustively and fuzzed.
//
// # Parsing
//
// Text is parsed with mvdan.cc/sh/v3/syntax in its bash dialect. Text that
// does not parse, is longer than [MaxTextBytes], nests deeper than
// [MaxDepth] levels, or expands to an absurd number of words comes back with
// Fail set ([FailParse], [FailTooLong], [FailTooDeep]); guard denies it. A
// panic inside the walker is caught and becomes [FailParse] too: a bug here
// must refuse, never allow.
//
// # What counts as a command
//
// Every call expression wherever it sits: the top level, pipelines, lists,
// subshells, groups, $( ) and backticks (inside double quotes and
// arguments too), <( ) and >( ), function bodies, loops, if and case
// bodies, trap strings, aliases defined earlier in the text, and the scripts
// that wrappers run. Words are judged after what bash does to them: quote
// removal (r”m, "rm", r\m), ANSI-C strings ($'\x72\x6d'), brace expansion
// ({rm,-rf,/}), tilde and $HOME, $IFS splitting (rm$IFS-rf$IFS/), and
// variables the text itself set earlier (x=rm; $x -rf /). A word guard cannot
// know stays Dynamic; for path rules its unknown parts become '*', so
// rm -rf /$X still names the root.
//
// A literal cd or pushd moves the directory later relative paths resolve
// against (cd / && rm -rf etc deletes /etc). Inside a branch the directory
// becomes a set of possibilities, and a cd to somewhere unknown makes it
// unknown; a credential rule then also matches what the unknown directory
// could hide (cd $X && cat id_rsa).
//
// # Wrappers
//
// Commands that run other commands are judged by what they run. The wrapper
// table (wrappers.go) knows each wrapper's own option grammar, so
// timeout -s KILL 5 rm -rf / reaches rm: env, timeout, nice, nohup, time,
// command, builtin, exec, stdbuf, ionice, setsid, flock, taskset, watch,
// chroot, strace, busybox and the privilege tools are transparent
// ([WrapTransparent]); sh, bash, zsh and friends with -c, eval, env -S, trap,
// and literal text piped or redirected into a shell run a nested script
// ([WrapShell]); xargs, parallel and find -exec run a command with arguments
// guard cannot see ([WrapGenerated]). Interpreter one-liners (python -c,
// node -e, perl -e) are [Command.Opaque].
//
// # Rules
//
// The hard denylist (rules.go, denyRules) and the built-in ask rules
// (askRules) are each one table: an id, the one line an agent reads, and a
// check run on every command found. Redirect targets are checked too (a
// write to a block device or to guard's own files, a read of a credential).
// Their tests are the cases of table_test.go, grouped by id, with the
// spellings that try to slip past each rule and the look-alikes that must
// pass.
package classify
