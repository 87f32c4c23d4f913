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
// variables the text itself set earlier (x=rm; $x -rf /), through what
// bash computes for certain (values.go): ${x//p/r}, ${x,,}, ${#x}, ${!v},
// namerefs, declare -i and -l/-u, a[n]=, a+=(…), ${a[n-1]} and ${a[-1]},
// read d <<< / and mapfile (from a here-string or a literal heredoc),
// unset and ${x-w}/${x+w} (set, empty and unset apart), and what
// dirname, basename and realpath print about literal paths. A word guard cannot
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
// chroot, strace, busybox, guard exec and the privilege tools are transparent
// ([WrapTransparent]); sh, bash, zsh and friends with -c, guard -c, eval, env -S, trap,
// and literal text piped or redirected into a shell run a nested script
// ([WrapShell]); xargs, parallel and find -exec run a command with arguments
// guard cannot see ([WrapGenerated]). Interpreter one-liners (python -c,
// node -e, perl -e) are [Command.Opaque].
//
// # Arguments
//
// One argument model types every command's words (argspec.go): a [Spec]
// per command, getopt-compatible — short options with and without values,
// bundles, attached values (-fFILE, -e.), --long=value and --long value,
// unique-prefix abbreviation where the program takes it (getopt_long,
// git's parse-options: git reset --har is --hard), --, subcommands (git,
// go, docker, npm) and one-dash operators (find -name X). [ParseCommand]
// gives each operand and option value a [Role]: read path, write path,
// meta (named or counted, not printed), used file, directory, program to
// run, script, URL, pattern, text, secret. The specs are one table per
// family (argspec_files.go, _search, _archive, _vcs, _net, _build, _shell,
// _admin). A command without a spec is judged conservatively: every word
// is RoleUnknown, which may be read or written. [Command.Words] returns the
// parse classify made, so grants and a later path tier ask the same table
// which words are read paths and which are written.
//
// The specs of the tools people grant wholesale are closed: every real
// option is typed or listed in the spec's Untyped (options deliberately
// left out, which a '*' grant then asks about). audit_test.go checks
// each spec against the tool's real option list (testdata/options/*.txt,
// taken from its --help, -h or manual). [Parsed.UntypedOptions] returns
// the option words a spec could not type, and every option word of a
// program or subcommand without a spec; grants asks about them under a
// '*'. Specs can be one-dash with joined values (gcc -O2 -Wall, [Spec.Joined]),
// take --no-NAME for any long NAME (git's parse-options, [Spec.Negate]),
// or hand unknown options to the program they run (go test,
// [Spec.Passthrough]). [HelpQuery] reports TOOL --help or TOOL --version,
// which no rule applies to.
//
// The rules consume typed words instead of re-parsing argv: credential-read
// looks at read roles (cat -v KEY reads, wc -c KEY and grep -l x KEY do
// not), guard-self at written ones (find -fprint, sed -i, awk's print >
// "FILE"), the git asks at git's resolved options. Program roles are
// walked as the command lines they are (go test -exec CMD, tar
// --to-command=CMD, rsync -e CMD, fd -x CMD…, hyperfine CMD, ssh localhost
// CMD, make VAR=$(shell CMD), GIT_SSH_COMMAND=CMD and the other variables a
// program runs), so a denylisted payload is denied. Secret roles (mysql
// -pX, sshpass -p X, docker login -p X, htpasswd -b F U X, openssl -k X,
// redis-cli -a X) and password variables come back in
// [Analysis.Secrets], which every record redacts.
//
// A spec also declares effects ([Effect], secrets.go): the subcommands,
// options and operands that make a program print a secret (gh auth token,
// kubectl config view --raw, aws configure get KEY, printenv NAME) or may
// print secrets among other output (kubectl get secret -o yaml, vault
// read). [Parsed.Effect] carries them: secret-print denies the first, and
// grants lets no '*' cover the second. [Hosts] types every word that sends
// a request somewhere (URLs, proxies, --resolve and --connect-to
// addresses, ssh jump hosts), [HostKey] keeps the port of a control API
// on this machine (localhost:6379), and [MetadataHost] reads an address
// in every spelling a client connects to (cloud-metadata).
//
// # One tool, one place
//
// Everything guard knows about one program is its entry: the [Spec] its
// family file returns (argspec_files.go, _search, _archive, _vcs, _net,
// _build, _shell, _admin). Besides the grammar and roles above, the entry
// holds:
//
//   - [Spec.Exec], its exec-capable argument table: the options and
//     operands that run another program, write elsewhere, set config that
//     does, or print stored secrets ([ExecRule]: by the spec's option
//     names, operand words, every word after a subcommand, or a Check
//     that marks words through a [Marker]). grants lets no '*' cover a
//     word a rule marks. A spec several programs share (cat's is more's,
//     sudo's is npx's) names the programs a rule is for in
//     [ExecRule.Only];
//   - [Spec.ReadOnly], the uses the built-in read-only set allows (git
//     status, git tag -l, sed -n 5p), and [Spec.Closed] when an option the
//     spec does not type takes a use out of it;
//   - [Spec.Effect], [Spec.EffectIf] and [Opt.Effect], what prints a
//     secret; the facts grants grades risk by: [Spec.Network] (every use
//     reaches another machine), [Spec.Reaches] (the subcommands that do),
//     [Spec.Installs], [Spec.Builds], [Spec.Instructions] (reads its
//     instructions from files it is given), [Spec.Uploads],
//     [Spec.WritesHere] (curl -O, tar -x) and [Spec.WriteTarget];
//     [Spec.Grant], the shape of grant guard suggests (git commit *, make
//     all, grep *, the exact mv command); [Spec.Keeps], the project
//     directory the program keeps for itself (.git); [Spec.RepoURLs], URL
//     words that may be local repositories;
//   - what grants once kept lists of: [Spec.Runs] (runs whatever its
//     arguments say: no allow pattern covers every use; [Runners] lists
//     them), [Spec.RunsFile], [Spec.PassThrough] (a wrapper judged by
//     what it runs), [Spec.PrintsFiles], [Spec.ReadsHere],
//     [Spec.DeletesTree], [Spec.InstallsAll], [Spec.DumpsEnv],
//     [Spec.InPlace] (sed -i), [Spec.Symlinks] (ln -s),
//     [Spec.DashlessFirst] (tar xzf), [Spec.ProgramsWalked] (find
//     -exec), and the word and subcommand checks no Exec rule says
//     ([Spec.WordRisk]: docker --network host, npm -g; [Spec.SubRisk]:
//     npm publish, docker context use). A fact of a spec several programs
//     share names the programs it is for where they differ
//     ([Spec.ReadOnlyFor], [Spec.GrantFor], [Spec.NetworkFor],
//     [Spec.InstallsFor]);
//   - its exec payloads, the walker's handler for the option values and
//     config the program runs as shell text (wrapGit in argspec_vcs.go;
//     the wrapper table in wrappers.go dispatches to it), and its
//     built-in asks in the family's rules file (rules_vcs.go).
//
// git is the model: argspec_vcs.go answers "what does guard do with
// git?" whole, and grants names git nowhere. docs/coverage.md is the
// table of every entry, generated by TestCoverageDoc. To add a tool, give it a
// spec in its family file and its real option list in
// testdata/options/TOOL.txt (TestSpecAudit, TestEntriesAudited); put
// what makes a '*' unsafe in its Exec, with cases in grants' exec tests.
// To add an option, type it in the spec (its role, its Effect) or list
// it in Untyped; if it runs or writes something, name it in an Exec rule.
// A Check or ReadOnly takes the typed words it is given; one that must
// type a value again (make's MAKEFLAGS, python -m pytest) asks its
// Marker's Parse, since a spec that refers to ParseCommand through its
// own entry is an initialization cycle. What grants still keeps per tool
// (the risk, suggestion and read-only lists for programs whose spec is
// shared with programs outside the list, or that have no spec; the
// wrappers it passes through) is listed in grants' onehome_test.go, a
// list that only shrinks.
//
// # Rules
//
// The hard denylist (rules.go, denyRules) and the built-in ask rules
// (askRules) are each one table: an id, the one line an agent reads, and a
// check run on every command found. The checks live in one file per family
// (rules_paths.go, rules_destroy.go, rules_credentials.go, rules_exec.go,
// rules_system.go, rules_self.go, rules_state.go, rules_vcs.go).
//
// Bash state that changes what a later command runs is the shell-state
// ask (rules_state.go): a write to PATH, BASH_ENV, IFS, LD_*, *_OPTIONS and
// their like, to the command hash, or an option that changes expansion.
// What guard can compute it follows instead: BASH_CMDS[ls]=/bin/sh (or
// hash -p) makes ls judged as /bin/sh, and [Options.Shadow] carries the
// names an interactive session's earlier lines pointed elsewhere. When several rules hit, [MostSevere] names
// the worst and lists the rest. Redirect targets are checked too (a
// write to a block device or to guard's own files, a read of a credential).
// Their tests are the cases of table_test.go, grouped by id, with the
// spellings that try to slip past each rule and the look-alikes that must
// pass.
package classify
