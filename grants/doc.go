// Package grants decides whether a command may run: it turns a
// [classify.Analysis] and the user's settings into a [Verdict] (allow, ask
// or deny, with the rule that decided, a reason an agent can act on, and a
// risk grade).
//
// # Deciding
//
// [Decide] is pure and fast: no disk, no clock, a few microseconds. The
// first step that applies wins:
//
//  1. the text did not parse (or is too long or deep): deny, rule = the
//     failure id;
//  2. a hard-denylist hit from classify: deny;
//  3. a deny rule of any layer matches any command found anywhere (nested
//     in wrappers, substitutions, bash -c): deny;
//  4. a built-in destructive pattern (classify's Ask hits) or an ask rule:
//     ask, allow-once only, since a stored allow could never override it;
//  5. composite text: ask, allow-once only; 2>&1, >/dev/null and
//     2>/dev/null make nothing composite; with composite = "each" a
//     composite of only |, &&, || and ; is allowed when every top-level
//     part is allowed on its own by steps 6 to 8;
//  6. a dynamic command word ($x args): ask; an exec-capable argument, or
//     an option the argument model cannot type (rule untyped-option), under
//     a '*' of an allow pattern: ask, naming the option;
//  7. an allow rule matches: allow, risk low;
//  8. the built-in read-only set (ls, cat, grep, git status|log|diff|…,
//     find without -exec, sed -n Np, …): allow, risk none, unless
//     builtin_readonly = false; env and printenv without a command ask
//     (rule env-dump);
//  9. otherwise unknown = "ask" (default) or "deny".
//
// The path, network and package tiers (docs/tiers.md) add to this: their
// deny entries deny with step 3; a redirect, or a heredoc into cat or tee,
// whose target the write tier allows (inside the project, not .git or
// .guard) is no composite reason at step 5; an install that names packages
// is decided by its package approvals instead of steps 7-9; and a text
// allowed by steps 5-8 is then asked about (step 10) if it reads or writes
// a path, or reaches a host, that no entry allows. [DecideWith] takes the
// [Facts] they need from the disk (symlinks resolved), which the caller
// gathers for the paths [TierPaths] lists.
//
// A config that failed to load makes every decision deny with rule
// "config-error". [Explain] returns the same verdict plus a trace of every
// command found and every rule tried, with its layer and file:line.
//
// # Patterns
//
// A pattern matches a simple command's words joined by single spaces. '*'
// matches anything, spaces included; a trailing " *" also matches nothing,
// so "git *" covers git and git log -p but not gitk. Without '*' a pattern
// is exact. Allow patterns match the command word as written
// (/usr/bin/git is not git); deny and ask patterns also match its basename.
//
// A '*' in an allow pattern never covers a sensitive word: an argument from
// the exec-capable table (find -exec, git -c, rg --pre, tar --to-command,
// ssh host CMD, sed -i, awk system(), docker run -v, …: each program's
// classify.Spec.Exec), the
// command a wrapper runs (xargs, find -exec, timeout), the script of bash -c
// or of an interpreter one-liner (python -c), and for programs in that table
// any dynamic argument, and every word of a command the argument model
// says may print secrets (classify.EffectMayPrintSecret: kubectl get
// secret -o yaml, vault read, printenv or set alone). Only literal pattern
// text covers such a word.
// The table reads each command as the argument model types it
// (classify.Command.Words): an entry names options by the spec's names
// and operands by their text, so bundles (rsync -avze sh), attached values
// (-ofile, --out=file) and abbreviations (git rebase --exe, tar
// --to-com) come from the spec, and a letter that is another option's
// value (sort -to, curl -Ho) is not an option. An option the spec cannot
// type, or an ambiguous abbreviation, fails closed: it counts when it
// could be one of the entry's options.
//
// # Closed world under '*'
//
// A '*' covers only what guard can read. An option the command's spec
// does not type (classify.Parsed.UntypedOptions: unknown to the spec, an
// ambiguous abbreviation, or any option of a program or subcommand guard
// has no spec for) is marked untyped: a '*' does not cover it, the
// verdict is ask with rule untyped-option and a reason that names it
// ("npm run: --frobnicate is not an option guard knows; asked"), and
// Suggest keeps it literal. Untyped options are no reason to leave the
// read-only set (git's aside: its spec is audited whole). A word
// computed at run time ($X) of a program without a spec may be any
// option, and is untyped too; a project script run as ./script keeps its
// options, which are as opaque as its operands. [UntypedNote] tells
// grants add that 'mytool *' covers mytool's operands only. Interpreters under other names and versions
// (python3.11, node18, R, ipython) are refused as '*' patterns, and
// download-and-run (uvx, pipx run, uv tool run, nix run) is marked whole.
// Config that stores a command is judged by key against allowlists of
// harmless keys (git's, gh's and npm's in their classify entries). TOOL --help and TOOL --version of any program are
// read-only (classify.HelpQuery).
//
// Pass-through wrappers are judged by what they run: timeout 60 go test ./...
// is allowed by "go test *", bash -c 'ls' by the read-only set (the wrappers'
// entries in classify say which pass through, classify.Spec.PassThrough;
// passThroughWrappers and passThroughShells list the shells and the rest). Wrappers that write files or
// change how things run (strace -o, script, valgrind --log-file, GNU time -o)
// and a shell or interpreter reading a script guard cannot see (ls | sh,
// bash < file) need a grant of their own. Commands that run generated
// argument lists (xargs, find -exec, parallel) never pass through: only a
// grant whose literal text covers the command allows them.
//
// [ValidatePattern] refuses empty patterns, a bare '*', odd spacing, and
// allow patterns that cover every use of an interpreter or wrapper (bash *,
// python3 *, node -e *, env *, xargs *). [Suggest] offers the pattern for
// an answer "allow for this project/everywhere": "npm install *" for npm
// install left-pad, the exact text where nothing wider is safe, none for a
// command with a word computed at run time. [CoversDenied] refuses an
// allow pattern whose '*' would take in a command the built-in denylist
// refuses (rm -rf * covers rm -rf /), probing it without the audit; the
// prompt's e applies it beside guard-cli's preview of the audit.
//
// # Where a tool's knowledge lives
//
// Not here. What guard knows about one program (its grammar, roles,
// exec-capable options, read-only uses, the subcommands that reach a
// host, the shape of grant it suggests, the directory it keeps) is its
// entry in classify (see classify's package doc, "One tool, one place"),
// and this package reads it from the analysis: markCommand applies the
// entry's Exec rules (implementing classify.Marker, which knows the
// project root and the write tier), readOnlySet asks the entry's
// ReadOnly first, networkSub its Reaches, Suggest its Grant, the write
// tier its Keeps and WritesHere, the risk grades its Network, Reaches,
// Installs, Builds, Instructions and Uploads. grants keeps no exec-capable table of its
// own. The lists for programs without such an entry (risk grades,
// suggestion shapes, the rest of the read-only set, wrappers) are still
// here; onehome_test.go names them and fails on a new per-tool list.
//
// # Settings
//
// [Load] merges the layers, in order:
//
//	managed         /etc/guard/policy.toml ($GUARD_MANAGED_POLICY)
//	global          $XDG_CONFIG_HOME/guard/config.toml
//	global-grants   $XDG_CONFIG_HOME/guard/grants.toml
//	project-grants  $XDG_CONFIG_HOME/guard/projects/<sha256(root)[:16]>/grants.toml
//	project         <root>/.guard/config.toml (committed by the team)
//
// The project root is the nearest ancestor holding .guard/, else .git,
// else the working directory. Every file takes the same keys:
//
//	unknown          = "ask"   # ask | deny
//	composite        = "ask"   # ask | each
//	timeout          = "10m"
//	ask_timeout      = "2m"
//	reject_memory    = "1h"    # a text a human rejected is refused at once for this long ("0s": off)
//	pending_ttl      = "24h"   # an unanswered request expires after this long
//	builtin_readonly = true
//	no_tty_prompt    = false
//	audit_required   = false   # true: refuse to run a command whose record cannot be written
//	[permissions.bash]
//	allow = ["git *", "go test *"]
//	ask   = ["git push *"]
//	deny  = ["git push --force*"]
//
// Deny and ask rules of every layer apply. Allow rules are tried in scope
// order: project grants, global grants, the project config, then the
// hand-written global and managed configs. The project config's allow rules
// count only after [Trust] pinned the file's sha256 (kept under the user's
// config directory, never in the repository); a changed file is untrusted
// again. Scalar settings: later layers override earlier ones, except that a
// value the managed layer sets binds (later layers may only make it
// stricter: unknown deny, composite ask, builtin_readonly false, a shorter
// timeout, audit_required true), and an untrusted project config may only make values stricter.
//
// trusted_terminals = ["/abs/path", …] names programs the user vouches for
// as terminals guard may ask on, and consoles by their device: a path like
// /dev/tty2 or a glob like /dev/tty[0-9]* (see package shim, "Whose
// terminal is it"). It is read only from the managed and global configs; in
// a grants file or a project config it is a config error.
//
// Unknown keys, wrong types, TOML syntax errors and bad patterns are config
// errors reading "file:line:col: problem"; they never echo the file beyond
// the key or pattern. A missing file is an empty layer, but a name that
// holds anything other than a regular file ("PATH: not a regular file (a
// fifo)"), or a dangling symlink ("PATH: dangling symlink to TARGET"), is a
// config error too: every file is opened O_NONBLOCK and checked with one
// fstat, so nothing planted at a settings path can hang guard or make its
// rules vanish silently. The same holds for the trust pin.
//
// [[rule]] tables (structured rules, structrules.go) sit beside the
// patterns in any file: a command by its basename, arguments after flag
// normalisation (classify's [classify.Command.Normalized]), args_regex,
// cwd, agent, an effect, and examples checked at load. They are tried on
// every command anywhere in the text with the patterns of their effect;
// a deny or ask rule that a word guard cannot know may complete asks.
// docs/rules.md is their manual.
//
// # Policy
//
// Every verdict carries a risk graded from what the command does (risk.go:
// none reads inside the project; low writes inside it, builds, or is
// granted; high is outside the project, the network, installs, tree
// deletes, or opaque), and the rollout mode it was applied in (mode.go).
// mode = "enforce" | "dry_run" | "off" may be set in any layer, the most
// specific wins, and the managed min_mode is a floor. In dry_run and off,
// Decide's last step turns a deny or ask into allow with Verdict.Would
// saying what enforce would do; fail-closed verdicts, the hard denylist and
// self-protection block in every mode. escalate = { after, within } switches
// a project from dry_run to enforce after that many high-risk would-denies
// (state in the state directory, read by Load, written by NoteWouldDeny).
// The managed policy may set allow_user_grants = false and power_agents
// (managed.go); [agents.NAME] profiles apply through Settings.ForAgent
// (agents.go). docs/policy.md is the user's reference.
//
// # Storing
//
// [AddRule] and [RemoveRule] edit a grants file atomically (temp file,
// fsync, rename) under an flock on file.lock, so concurrent guards never
// lose a rule. The wait for that lock is bounded (2 s): past it the change
// fails with "held by another process". [RulesFiles] lists the layer files for `guard grants list`.
package grants
