package classify

import (
	"slices"
	"strings"
)

// Specs of git: its global options (exact names, before the subcommand)
// and, per subcommand, parse-options' grammar, where any unique prefix of
// a long option names it (git reset --har is --hard).

func vcsSpec(name string) *Spec {
	if name == "git" {
		return &gitSpec
	}
	return nil
}

// gitSpec is git's entry: its global options, its subcommands' specs
// (gitSubSpec), the options and operands that run programs or write
// elsewhere (gitExec), its queries in the read-only set (gitReadOnly), the
// subcommands that reach another machine, and the grants it suggests (git
// commit *). Its exec payloads are walked by wrapGit, its built-in asks
// are in rules_vcs.go.
var gitSpec = Spec{Sub: gitSubSpec, Exec: gitExec, ReadOnly: gitReadOnly, Closed: true, Reaches: gitReaches, Grant: GrantSub, Keeps: ".git", RepoURLs: true, Opts: []Opt{
	{Short: "C", Val: RoleDir},
	{Short: "c", Val: RoleText},
	{Long: []string{"git-dir", "work-tree"}, Val: RoleDir},
	{Long: []string{"exec-path"}, Val: RoleDir, Optional: true},
	{Long: []string{"namespace", "config-env", "super-prefix", "list-cmds", "attr-source"}, Val: RoleText},
	{Short: "pP", Long: []string{"paginate", "no-pager", "bare", "no-replace-objects", "literal-pathspecs", "glob-pathspecs", "noglob-pathspecs", "icase-pathspecs", "no-optional-locks", "no-advice", "version", "help", "html-path", "man-path", "info-path"}},
}}

func gitSubSpec(sub string) *Spec {
	switch sub {
	case "push":
		return &gitPushSpec
	case "reset":
		return &gitResetSpec
	case "clean":
		return &gitCleanSpec
	case "checkout":
		return &gitCheckoutSpec
	case "restore":
		return &gitRestoreSpec
	case "switch":
		return &gitSwitchSpec
	case "branch":
		return &gitBranchSpec
	case "stash":
		return &gitStashSpec
	case "commit":
		return &gitCommitSpec
	case "blame", "annotate":
		return &gitBlameSpec
	case "grep":
		return &gitGrepSpec
	case "diff":
		return &gitDiffSpec
	case "format-patch":
		return &gitFormatPatchSpec
	case "log", "show", "whatchanged", "range-diff":
		return &gitLogSpec
	case "rebase":
		return &gitRebaseSpec
	case "clone":
		return &gitCloneSpec
	case "init":
		return &gitInitSpec
	case "ls-remote":
		return &gitLsRemoteSpec
	case "fetch", "pull":
		return &gitFetchSpec
	case "archive":
		return &gitRemoteSpec
	case "submodule":
		return &gitSubmoduleSpec
	case "remote":
		return &gitRemoteCmdSpec
	case "am":
		return &gitAmSpec
	case "merge", "cherry-pick", "revert":
		return &gitMergeSpec
	case "gc":
		return &gitGcSpec
	case "reflog":
		return &gitReflogSpec
	case "update-ref":
		return &gitUpdateRefSpec
	case "config":
		return &gitConfigSpec
	case "difftool", "mergetool":
		return &gitDifftoolSpec
	case "checkout-index":
		return &gitCheckoutIndexSpec
	case "apply":
		return &gitApplySpec
	case "rev-list":
		return &gitLogSpec
	case "status":
		return &gitStatusSpec
	case "add":
		return &gitAddSpec
	case "rm":
		return &gitRmSpec
	case "mv":
		return &gitMvSpec
	case "tag":
		return &gitTagSpec
	case "rev-parse":
		return &gitRevParseSpec
	case "ls-files":
		return &gitLsFilesSpec
	case "ls-tree":
		return &gitLsTreeSpec
	case "describe", "name-rev", "merge-base", "show-ref", "symbolic-ref", "for-each-ref", "count-objects", "shortlog", "check-ignore", "check-attr", "cat-file", "fsck", "prune":
		return &gitQuerySpec
	case "worktree":
		return &gitWorktreeSpec
	case "notes", "bisect", "bundle", "help", "version", "var", "credential", "credential-store", "credential-cache":
		return &gitOtherSpec
	}
	return nil
}

var gitPushSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "f", Long: []string{"force"}},
	{Long: []string{"force-with-lease"}, Val: RoleText, Optional: true},
	{Long: []string{"force-if-includes"}},
	{Short: "d", Long: []string{"delete"}},
	{Long: []string{"mirror"}},
	{Long: []string{"prune"}},
	{Long: []string{"receive-pack", "exec"}, Val: RoleProgram},
	{Long: []string{"repo", "recurse-submodules", "push-option"}, Val: RoleText},
	{Short: "o", Val: RoleText},
	{Long: []string{"signed"}, Val: RoleText, Optional: true},
	{Short: "unqv46", Long: []string{"set-upstream", "dry-run", "quiet", "verbose", "all", "branches", "tags", "follow-tags", "atomic", "no-verify", "verify", "progress", "porcelain", "thin", "no-thin", "ipv4", "ipv6", "no-force-with-lease", "no-signed", "no-atomic", "no-follow-tags", "no-recurse-submodules"}},
}}

var gitResetSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Long: []string{"hard"}}, {Long: []string{"soft"}}, {Long: []string{"mixed"}}, {Long: []string{"merge"}}, {Long: []string{"keep"}},
	{Long: []string{"pathspec-from-file"}, Val: RoleRead},
	{Long: []string{"recurse-submodules"}, Val: RoleText, Optional: true},
	{Short: "qpN", Long: []string{"quiet", "patch", "intent-to-add", "no-refresh", "refresh", "pathspec-file-nul", "no-recurse-submodules"}},
}}

var gitCleanSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "f", Long: []string{"force"}},
	{Short: "e", Long: []string{"exclude"}, Val: RolePattern},
	{Short: "ndxXiq", Long: []string{"dry-run", "interactive", "quiet"}},
}}

var gitCheckoutSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "f", Long: []string{"force"}},
	{Long: []string{"ours"}}, {Long: []string{"theirs"}},
	{Short: "bB", Long: []string{"orphan", "conflict"}, Val: RoleText},
	{Long: []string{"pathspec-from-file"}, Val: RoleRead},
	{Long: []string{"track", "recurse-submodules"}, Val: RoleText, Optional: true},
	{Short: "tmpqlU", Long: []string{"detach", "merge", "patch", "quiet", "overlay", "no-overlay", "ignore-other-worktrees", "progress", "no-progress", "guess", "no-guess", "ignore-skip-worktree-bits", "no-track", "pathspec-file-nul"}},
	{Short: "d"},
	{Long: []string{"overwrite-ignore", "no-overwrite-ignore"}},
}}

var gitRestoreSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "S", Long: []string{"staged"}},
	{Short: "W", Long: []string{"worktree"}},
	{Short: "s", Long: []string{"source"}, Val: RoleText},
	{Long: []string{"pathspec-from-file"}, Val: RoleRead},
	{Long: []string{"conflict"}, Val: RoleText},
	{Short: "pmq23", Long: []string{"patch", "merge", "quiet", "ours", "theirs", "overlay", "no-overlay", "ignore-unmerged", "progress", "no-progress", "ignore-skip-worktree-bits", "recurse-submodules", "pathspec-file-nul"}},
}}

var gitSwitchSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Long: []string{"discard-changes"}},
	{Short: "f", Long: []string{"force"}},
	{Short: "cC", Long: []string{"create", "force-create", "orphan", "conflict"}, Val: RoleText},
	{Long: []string{"track"}, Val: RoleText, Optional: true},
	{Short: "dmqt", Long: []string{"detach", "merge", "quiet", "guess", "no-guess", "progress", "no-progress", "ignore-other-worktrees", "recurse-submodules", "no-track"}},
	{Long: []string{"overwrite-ignore", "no-overwrite-ignore"}},
}}

var gitBranchSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "d", Long: []string{"delete"}},
	{Short: "D"},
	{Short: "f", Long: []string{"force"}},
	{Short: "m", Long: []string{"move"}}, {Short: "M"},
	{Short: "c", Long: []string{"copy"}}, {Short: "C"},
	{Short: "l", Long: []string{"list"}},
	{Short: "u", Long: []string{"set-upstream-to"}, Val: RoleText},
	{Long: []string{"sort", "format", "points-at"}, Val: RoleText},
	{Long: []string{"contains", "no-contains", "merged", "no-merged", "color", "column", "abbrev", "track", "recurse-submodules"}, Val: RoleText, Optional: true},
	{Short: "arvqit", Long: []string{"all", "remotes", "verbose", "quiet", "show-current", "unset-upstream", "edit-description", "ignore-case", "create-reflog", "omit-empty", "no-abbrev", "no-color", "no-column", "no-track"}},
}}

var gitStashSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "m", Long: []string{"message"}, Val: RoleText},
	{Long: []string{"pathspec-from-file"}, Val: RoleRead},
	{Short: "pkuaqS", Long: []string{"patch", "keep-index", "no-keep-index", "include-untracked", "all", "quiet", "staged", "index", "only-untracked", "pathspec-file-nul"}},
}}

var gitCommitSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "m", Long: []string{"message"}, Val: RoleText},
	{Short: "F", Long: []string{"file"}, Val: RoleRead},
	{Short: "t", Long: []string{"template"}, Val: RoleRead},
	{Long: []string{"pathspec-from-file"}, Val: RoleRead},
	{Short: "cC", Long: []string{"reedit-message", "reuse-message", "fixup", "squash", "author", "date", "cleanup", "trailer"}, Val: RoleText},
	{Short: "Su", Long: []string{"gpg-sign", "untracked-files"}, Val: RoleText, Optional: true},
	{Short: "apnsiovqze", Long: []string{"all", "patch", "no-verify", "verify", "signoff", "include", "only", "verbose", "quiet", "dry-run", "amend", "allow-empty", "allow-empty-message", "no-edit", "edit", "reset-author", "porcelain", "short", "branch", "long", "null", "status", "no-status", "pathspec-file-nul", "no-gpg-sign"}},
	{Long: []string{"interactive", "ahead-behind", "no-ahead-behind", "no-post-rewrite"}},
}}

var gitBlameSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Long: []string{"contents"}, Val: RoleRead},
	{Short: "S", Val: RoleRead},
	{Long: []string{"ignore-revs-file"}, Val: RoleRead},
	{Short: "L", Long: []string{"ignore-rev", "date", "since"}, Val: RoleText},
	{Short: "CM", Val: RoleText, Optional: true},
	{Long: []string{"abbrev", "color-lines", "color-by-age"}, Val: RoleText, Optional: true},
	{Short: "bcfelnpstwh", Long: []string{"root", "show-stats", "show-name", "show-number", "show-email", "porcelain", "line-porcelain", "incremental", "score-debug", "progress", "reverse", "first-parent", "minimal", "encoding"}},
}}

var gitGrepSpec = Spec{Abbrev: true, Negate: true, First: RolePattern, FirstBy: []string{"e", "file"}, Operands: RoleText, Opts: []Opt{
	{Short: "e", Val: RolePattern},
	{Short: "f", Long: []string{"file"}, Val: RoleRead},
	{Short: "O", Long: []string{"open-files-in-pager"}, Val: RoleProgram, Optional: true},
	{Short: "ABCm", Long: []string{"after-context", "before-context", "context", "max-count", "max-depth", "threads"}, Val: RoleText},
	{Long: []string{"color"}, Val: RoleText, Optional: true},
	{Short: "aiIwvEGFPnhHlLcozqWp", Long: []string{"cached", "no-index", "untracked", "no-exclude-standard", "exclude-standard", "recurse-submodules", "text", "ignore-case", "word-regexp", "invert-match", "extended-regexp", "basic-regexp", "fixed-strings", "perl-regexp", "line-number", "column", "full-name", "files-with-matches", "name-only", "files-without-match", "count", "only-matching", "null", "break", "heading", "show-function", "function-context", "and", "or", "not", "all-match", "quiet"}},
	{Short: "rN", Long: []string{"textconv", "no-textconv", "recursive", "no-recursive", "ext-grep"}},
}}

// gitLogSpec: revisions, paths and REV:PATH blobs, which print files
// (git show HEAD:.env): unknown.
var gitLogSpec = Spec{Abbrev: true, Negate: true, Operands: RoleUnknown, Opts: gitLogOpts}

var gitLogOpts = []Opt{
	{Long: []string{"output"}, Val: RoleWrite},
	{Short: "o", Long: []string{"output-directory"}, Val: RoleWrite},
	{Long: []string{"no-index"}},
	{Long: []string{"ext-diff"}}, {Long: []string{"textconv"}},
	{Long: []string{"text", "no-ext-diff", "no-textconv"}},
	{Short: "O", Val: RoleRead},
	{Long: []string{"grep", "author", "committer", "since", "until", "after", "before", "format", "diff-filter", "max-count", "skip", "encoding"}, Val: RoleText},
	{Long: []string{"pretty", "date", "relative", "decorate", "stat", "color", "word-diff", "abbrev", "notes"}, Val: RoleText, Optional: true},
	{Short: "nGSL", Val: RoleText},
	// revision and diff options that only choose and shape what is printed
	{Short: "UIl", Long: []string{"output-indicator-new", "output-indicator-old", "output-indicator-context", "stat-width", "stat-name-width", "stat-graph-width", "stat-count",
		"word-diff-regex", "color-moved-ws", "ws-error-highlight", "find-object", "skip-to", "rotate-to", "diff-algorithm", "anchored", "ignore-matching-lines",
		"inter-hunk-context", "src-prefix", "dst-prefix", "line-prefix", "glob", "exclude", "min-parents", "max-parents", "grep-reflog", "since-as-filter",
		"diff-merges", "decorate-refs", "decorate-refs-exclude", "creation-factor", "max-age", "min-age", "exclude-hidden"}, Val: RoleText},
	{Short: "XMCB", Long: []string{"unified", "dirstat", "submodule", "color-moved", "color-words", "break-rewrites", "find-renames", "find-copies", "ignore-submodules",
		"show-notes", "expand-tabs", "branches", "tags", "remotes", "no-walk", "disk-usage"}, Val: RoleText, Optional: true},
	{Short: "pusztDRabwWgiEFPcmq", Long: []string{"patch", "no-patch", "raw", "patch-with-raw", "indent-heuristic", "no-indent-heuristic", "minimal", "patience", "histogram",
		"compact-summary", "numstat", "shortstat", "cumulative", "dirstat-by-file", "summary", "patch-with-stat", "name-only", "name-status", "no-color", "no-color-moved",
		"no-color-moved-ws", "no-renames", "rename-empty", "no-rename-empty", "check", "full-index", "binary", "find-copies-harder", "irreversible-delete",
		"pickaxe-all", "pickaxe-regex", "no-relative", "ignore-cr-at-eol", "ignore-space-at-eol", "ignore-space-change", "ignore-all-space", "ignore-blank-lines",
		"function-context", "exit-code", "quiet", "no-prefix", "default-prefix", "ita-invisible-in-index", "ita-visible-in-index",
		"oneline", "graph", "all", "reflog", "abbrev-commit", "no-abbrev-commit", "no-decorate", "first-parent", "merges", "no-merges", "no-min-parents", "no-max-parents",
		"reverse", "date-order", "author-date-order", "topo-order", "follow", "all-match", "invert-grep", "regexp-ignore-case", "basic-regexp", "extended-regexp",
		"fixed-strings", "perl-regexp", "relative-date", "parents", "children", "left-right", "left-only", "right-only", "cherry-pick", "cherry-mark", "cherry",
		"boundary", "simplify-by-decoration", "full-history", "dense", "sparse", "simplify-merges", "ancestry-path", "show-pulls", "show-signature", "no-show-signature",
		"walk-reflogs", "merge", "not", "root", "do-walk", "in-commit-order", "single-worktree", "alternate-refs", "bisect", "stdin", "cc", "no-diff-merges",
		"remerge-diff", "combined-all-paths", "full-diff", "log-size", "show-linear-break", "no-notes", "no-expand-tabs", "no-mailmap", "no-use-mailmap", "use-mailmap",
		"mailmap", "no-standard-notes", "standard-notes", "ignore-missing", "count", "objects", "source", "clear-decorations",
		"cached", "staged", "merge-base", "base", "ours", "theirs", "dual-color", "no-dual-color", "remove-empty", "unpacked", "header", "object-names",
		"no-object-names", "bisect-vars", "bisect-all", "timestamp", "objects-edge"}},
}

// gitDiffSpec: git diff's operands are revisions or paths, and with
// --no-index files anywhere, read out.
var gitDiffSpec = Spec{Abbrev: true, Negate: true, Operands: RoleRead, Opts: gitLogOpts}

// The subcommands that run a program given in an option (rebase -x CMD,
// difftool --extcmd=CMD, fetch --upload-pack=CMD, clone -u CMD) or take
// their hooks from a template directory. Their exec options are typed
// here, so every spelling parse-options accepts (--exe, -x'CMD', -ix CMD)
// reaches the rules that judge a program, not only the full one.
var gitCloneSpec = Spec{Abbrev: true, Negate: true, Operands: RoleURL, Last: RoleWrite, Opts: []Opt{
	{Short: "u", Long: []string{"upload-pack"}, Val: RoleProgram},
	{Long: []string{"template"}, Val: RoleProgram}, // its hooks run in the new repository
	{Long: []string{"separate-git-dir"}, Val: RoleWrite},
	{Long: []string{"reference", "reference-if-able"}, Val: RoleRead},
	{Short: "obcj", Long: []string{"origin", "branch", "config", "depth", "shallow-since", "shallow-exclude", "filter", "jobs", "server-option", "bundle-uri", "ref-format", "revision"}, Val: RoleText},
	{Long: []string{"recurse-submodules", "recursive"}, Val: RoleText, Optional: true},
	{Short: "lsqvn", Long: []string{"local", "no-local", "no-hardlinks", "shared", "dissociate", "quiet", "verbose", "progress", "no-checkout", "bare", "mirror", "single-branch", "no-single-branch", "no-tags", "tags", "shallow-submodules", "no-shallow-submodules", "remote-submodules", "no-remote-submodules", "sparse", "also-filter-submodules", "reject-shallow", "no-reject-shallow", "ipv4", "ipv6"}},
}}

var gitInitSpec = Spec{Abbrev: true, Negate: true, Operands: RoleWrite, Opts: []Opt{
	{Long: []string{"template"}, Val: RoleProgram}, // its hooks run in the new repository
	{Long: []string{"separate-git-dir"}, Val: RoleWrite},
	{Short: "b", Long: []string{"initial-branch", "object-format", "ref-format"}, Val: RoleText},
	{Long: []string{"shared"}, Val: RoleText, Optional: true},
	{Short: "q", Long: []string{"quiet", "bare"}},
}}

var gitRemoteSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: gitRemoteOpts}

// gitFetchSpec: git fetch|pull REPOSITORY REFSPEC…: the first operand is
// a remote's name or a repository's URL (a path: another repository on
// this machine).
var gitFetchSpec = Spec{Abbrev: true, Negate: true, First: RoleURL, Operands: RoleText, Opts: gitRemoteOpts}

var gitRemoteOpts = []Opt{
	{Long: []string{"upload-pack", "exec"}, Val: RoleProgram},
	{Short: "o", Long: []string{"output"}, Val: RoleWrite},
	{Short: "F", Long: []string{"file", "pathspec-from-file", "add-file"}, Val: RoleRead},
	{Long: []string{"remote", "prefix", "format", "depth", "deepen", "shallow-since", "shallow-exclude", "refmap", "server-option", "negotiation-tip", "filter", "jobs", "strategy", "strategy-option", "sort", "add-virtual-file", "compression-level"}, Val: RoleText},
	{Short: "mjXs", Val: RoleText},
	{Short: "S", Val: RoleText, Optional: true},
	{Long: []string{"recurse-submodules", "rebase", "signoff", "gpg-sign", "log", "cleanup", "recurse-submodules-default"}, Val: RoleText, Optional: true},
	{Short: "qvapPtfkuln46hr", Long: []string{"quiet", "verbose", "all", "append", "atomic", "prune", "prune-tags", "tags", "no-tags", "force", "keep", "multiple", "dry-run", "progress", "no-progress", "unshallow", "update-shallow", "update-head-ok", "write-fetch-head", "no-write-fetch-head", "set-upstream", "ff", "no-ff", "ff-only", "squash", "no-squash", "commit", "no-commit", "edit", "no-edit", "stat", "no-stat", "autostash", "no-autostash", "verify", "no-verify", "no-rebase", "heads", "branches", "refs", "get-url", "symref", "exit-code", "list", "ipv4", "ipv6", "show-forced-updates", "no-show-forced-updates", "porcelain", "worktree-attributes", "no-recurse-submodules", "allow-unrelated-histories",
		"prefetch", "refetch", "negotiate-only", "auto-maintenance", "no-auto-maintenance", "auto-gc", "no-auto-gc", "write-commit-graph", "no-write-commit-graph", "stdin",
		"verify-signatures", "no-verify-signatures"}},
}

// gitStatusSpec … gitQuerySpec: the subcommands that look at the
// repository or change only its index and work tree, their options from
// git SUB -h (testdata/options/git.txt).
var gitStatusSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Long: []string{"pathspec-from-file"}, Val: RoleRead},
	{Short: "uM", Long: []string{"porcelain", "untracked-files", "ignored", "ignore-submodules", "column", "find-renames"}, Val: RoleText, Optional: true},
	{Short: "vsbz", Long: []string{"verbose", "short", "branch", "show-stash", "ahead-behind", "no-ahead-behind", "long", "null", "no-renames", "renames", "no-column", "pathspec-file-nul"}},
}}

// gitAddSpec: -e/--edit and -p run the editor or a dialogue on the diff.
var gitAddSpec = Spec{Abbrev: true, Negate: true, Operands: RoleUnknown, Opts: []Opt{
	{Long: []string{"pathspec-from-file"}, Val: RoleRead},
	{Long: []string{"chmod"}, Val: RoleText},
	{Short: "nvipefuNA", Long: []string{"dry-run", "verbose", "interactive", "patch", "edit", "force", "update", "renormalize", "intent-to-add", "all", "no-all",
		"ignore-removal", "no-ignore-removal", "refresh", "ignore-errors", "ignore-missing", "sparse", "pathspec-file-nul"}},
}}

var gitRmSpec = Spec{Abbrev: true, Negate: true, Operands: RoleUnknown, Opts: []Opt{
	{Long: []string{"pathspec-from-file"}, Val: RoleRead},
	{Short: "nqfr", Long: []string{"dry-run", "quiet", "cached", "force", "ignore-unmatch", "sparse", "pathspec-file-nul"}},
}}

var gitMvSpec = Spec{Abbrev: true, Negate: true, Operands: RoleUnknown, Opts: []Opt{
	{Short: "vnfk", Long: []string{"verbose", "dry-run", "force", "sparse"}},
}}

// gitTagSpec: -d deletes tags; -F reads the message from a file.
var gitTagSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "F", Long: []string{"file"}, Val: RoleRead},
	{Short: "mu", Long: []string{"message", "local-user", "cleanup", "contains", "no-contains", "merged", "no-merged", "sort", "points-at", "format"}, Val: RoleText},
	{Short: "n", Val: RoleText, Optional: true},
	{Long: []string{"column", "color"}, Val: RoleText, Optional: true},
	{Short: "ldvaesfi", Long: []string{"list", "delete", "verify", "annotate", "edit", "no-edit", "sign", "no-sign", "force", "create-reflog", "ignore-case", "no-column"}},
}}

var gitRevParseSpec = Spec{Operands: RoleText, Opts: []Opt{
	{Long: []string{"default", "glob", "exclude", "since", "until", "after", "before", "path-format", "git-path", "prefix", "disambiguate", "resolve-git-dir"}, Val: RoleText},
	{Long: []string{"abbrev-ref", "short", "branches", "tags", "remotes", "show-object-format"}, Val: RoleText, Optional: true},
	{Short: "q", Long: []string{"quiet"}},
	{Long: []string{"show-toplevel", "verify", "git-dir", "git-common-dir", "absolute-git-dir", "is-inside-work-tree", "is-inside-git-dir",
		"is-bare-repository", "is-shallow-repository", "show-prefix", "show-cdup", "show-superproject-working-tree", "symbolic", "symbolic-full-name",
		"sq", "sq-quote", "quiet", "all", "revs-only", "no-revs", "flags", "no-flags", "not", "local-env-vars", "shared-index-path", "parseopt",
		"keep-dashdash", "stop-at-non-option", "stuck-long"}},
}}

// gitLsFilesSpec: -X/--exclude-from reads a list of patterns from a file.
var gitLsFilesSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "X", Long: []string{"exclude-from"}, Val: RoleRead},
	{Short: "x", Long: []string{"exclude"}, Val: RoleText},
	{Long: []string{"with-tree", "format", "exclude-per-directory"}, Val: RoleText},
	{Long: []string{"abbrev"}, Val: RoleText, Optional: true},
	{Short: "ztvfcdiskumo", Long: []string{"cached", "deleted", "modified", "others", "ignored", "stage", "killed", "directory", "no-empty-directory", "empty-directory", "eol",
		"unmerged", "resolve-undo", "exclude-standard", "full-name", "recurse-submodules", "error-unmatch", "debug", "deduplicate", "sparse"}},
}}

var gitLsTreeSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Long: []string{"format"}, Val: RoleText},
	{Long: []string{"abbrev"}, Val: RoleText, Optional: true},
	{Short: "drtzl", Long: []string{"long", "name-only", "name-status", "object-only", "full-name", "full-tree"}},
}}

// gitQuerySpec: describe, name-rev, merge-base, show-ref, symbolic-ref,
// for-each-ref, count-objects, shortlog, check-ignore, check-attr,
// cat-file, fsck and prune: they print what the repository holds
// (symbolic-ref -d and prune delete refs and unreachable objects, inside
// .git; cat-file --textconv and --filters run the drivers the config
// names, which git config's keys judge).
var gitQuerySpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "m", Val: RoleText},
	{Long: []string{"path", "candidates", "match", "exclude", "refs", "count", "format", "sort", "points-at", "merged", "no-merged", "contains", "no-contains", "group", "expire"}, Val: RoleText},
	{Short: "sw", Long: []string{"abbrev", "dirty", "broken", "hash", "exclude-existing", "color", "batch", "batch-check", "batch-command", "disk-usage"}, Val: RoleText, Optional: true},
	{Short: "aqdvHpcneztrN", Long: []string{"debug", "all", "tags", "long", "first-parent", "exact-match", "always", "name-only", "stdin", "annotate-stdin", "undefined",
		"octopus", "independent", "is-ancestor", "fork-point", "heads", "verify", "head", "dereference", "quiet", "delete", "short", "no-short", "recurse", "shell", "perl", "python", "tcl",
		"ignore-case", "verbose", "human-readable", "committer", "numbered", "summary", "email", "non-matching", "no-index", "cached", "allow-unknown-type",
		"use-mailmap", "mailmap", "batch-all-objects", "buffer", "follow-symlinks", "unordered", "textconv", "filters", "unreachable", "dangling", "no-dangling", "root", "cache",
		"reflogs", "no-reflogs", "full", "connectivity-only", "strict", "lost-found", "progress", "no-progress", "name-objects", "dry-run", "exclude-promisor-objects", "no-abbrev"}},
}}

// gitWorktreeSpec: git worktree add PATH writes a checkout there (grants'
// exec table keeps "add" out of a '*').
var gitWorktreeSpec = Spec{Abbrev: true, Negate: true, Operands: RoleUnknown, Opts: []Opt{
	{Short: "bB", Long: []string{"reason", "expire", "orphan"}, Val: RoleText},
	{Long: []string{"lock", "track", "checkout", "guess-remote"}},
	{Short: "fqnvz", Long: []string{"force", "detach", "quiet", "no-checkout", "no-track", "no-guess-remote", "porcelain", "verbose", "dry-run"}},
}}

var gitOtherSpec = Spec{Abbrev: true, Negate: true, Operands: RoleUnknown, Opts: []Opt{
	{Short: "F", Long: []string{"file", "pathspec-from-file"}, Val: RoleRead},
	{Short: "o", Long: []string{"output", "upload-pack", "exec", "receive-pack"}, Val: RoleText},
	{Short: "m", Long: []string{"message", "ref"}, Val: RoleText},
}}

// gitRebaseSpec: -x/--exec runs a command after each commit.
var gitRebaseSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "x", Long: []string{"exec"}, Val: RoleProgram},
	{Short: "sX", Long: []string{"onto", "strategy", "strategy-option", "whitespace"}, Val: RoleText},
	{Short: "SrC", Long: []string{"gpg-sign", "rebase-merges", "empty"}, Val: RoleText, Optional: true},
	{Short: "iqvfnmk", Long: []string{"interactive", "continue", "abort", "skip", "quit", "edit-todo", "show-current-patch", "autosquash", "no-autosquash", "autostash", "no-autostash", "keep-base", "root", "quiet", "verbose", "force-rebase", "no-ff", "update-refs", "no-update-refs", "signoff", "stat", "no-stat", "no-verify", "verify", "merge", "apply", "keep-empty", "no-keep-empty", "reschedule-failed-exec", "no-reschedule-failed-exec", "fork-point", "no-fork-point", "committer-date-is-author-date", "reset-author-date", "ignore-date", "ignore-whitespace", "no-gpg-sign", "no-rebase-merges"}},
	{Long: []string{"rerere-autoupdate", "no-rerere-autoupdate", "reapply-cherry-picks", "no-reapply-cherry-picks"}},
}}

// gitLsRemoteSpec: --upload-pack runs a program.
var gitLsRemoteSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "u", Long: []string{"upload-pack"}, Val: RoleProgram},
	{Short: "o", Long: []string{"server-option", "sort"}, Val: RoleText},
	{Short: "qht", Long: []string{"quiet", "heads", "tags", "branches", "refs", "get-url", "symref", "exit-code"}},
}}

// gitConfigSpec: -f/--file reads another file (and writes it when a
// value is set: grants' exec table marks it either way), --edit runs an
// editor, --global/--system change git for every repository.
var gitConfigSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, EffectIf: gitConfigEffect, Opts: []Opt{
	{Short: "f", Long: []string{"file"}, Val: RoleRead},
	{Short: "e", Long: []string{"edit"}},
	{Short: "t", Long: []string{"type"}, Val: RoleText},
	{Long: []string{"blob", "default", "comment", "value"}, Val: RoleText},
	{Short: "lz", Long: []string{"global", "system", "local", "worktree", "get", "get-all", "get-regexp", "get-urlmatch", "list", "unset", "unset-all", "add", "replace-all", "rename-section", "remove-section", "get-color", "get-colorbool", "show-origin", "show-scope", "name-only", "includes", "no-includes", "null", "bool", "int", "bool-or-int", "path", "expiry-date", "no-type", "fixed-value", "all"}},
	{Long: []string{"bool-or-str"}},
}}

// gitDifftoolSpec: -x/--extcmd runs a program; -t/--tool names one
// from the config.
var gitDifftoolSpec = Spec{Abbrev: true, Negate: true, Operands: RoleUnknown, Opts: []Opt{
	{Short: "x", Long: []string{"extcmd"}, Val: RoleProgram},
	{Short: "t", Long: []string{"tool"}, Val: RoleText},
	{Short: "O", Val: RoleText, Optional: true},
	{Short: "ygd", Long: []string{"no-prompt", "prompt", "gui", "no-gui", "dir-diff", "no-dir-diff", "symlinks", "no-symlinks", "trust-exit-code", "no-trust-exit-code", "tool-help", "cached", "staged"}},
	{Long: []string{"no-index"}},
}}

// gitCheckoutIndexSpec: --prefix writes the files under another path.
var gitCheckoutIndexSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Long: []string{"prefix"}, Val: RoleWrite},
	{Long: []string{"stage"}, Val: RoleText},
	{Short: "uqafnz", Long: []string{"index", "quiet", "all", "force", "no-create", "temp", "stdin", "ignore-skip-worktree-bits"}},
}}

// gitApplySpec: --directory writes the patched files under another path,
// --unsafe-paths lets a patch write outside the work tree.
var gitApplySpec = Spec{Abbrev: true, Negate: true, Operands: RoleRead, Opts: []Opt{
	{Long: []string{"directory"}, Val: RoleDir},
	{Long: []string{"unsafe-paths"}},
	{Long: []string{"exclude", "include"}, Val: RolePattern},
	{Short: "pC", Long: []string{"whitespace", "build-fake-ancestor"}, Val: RoleText},
	{Short: "3RvqNz", Long: []string{"stat", "numstat", "summary", "check", "index", "intent-to-add", "cached", "3way", "reverse", "reject", "no-add", "allow-binary-replacement", "binary", "ignore-space-change", "ignore-whitespace", "inaccurate-eof", "verbose", "quiet", "recount", "apply", "allow-empty"}},
	{Long: []string{"unidiff-zero", "allow-overlap"}},
}}

// gitFormatPatchSpec: -o/--output-directory writes the patches elsewhere;
// -n is --numbered, a flag (in git log -n takes a count).
var gitFormatPatchSpec = Spec{Abbrev: true, Negate: true, Operands: RoleUnknown, Opts: []Opt{
	{Short: "o", Long: []string{"output-directory"}, Val: RoleWrite},
	{Long: []string{"output"}, Val: RoleWrite},
	{Short: "v", Long: []string{"reroll-count", "subject-prefix", "in-reply-to", "to", "cc", "from", "add-header", "start-number", "suffix", "base", "interdiff", "range-diff", "creation-factor", "signature", "signature-file", "cover-from-description", "description-file", "encoding", "filename-max-length"}, Val: RoleText},
	{Short: "GSO", Val: RoleText},
	{Long: []string{"attach", "inline", "thread"}, Val: RoleText, Optional: true},
	{Short: "nNksp", Long: []string{"numbered", "no-numbered", "keep-subject", "signoff", "stdout", "no-attach", "no-thread", "cover-letter", "no-cover-letter", "rfc", "zero-commit", "no-signature", "quiet", "progress", "ignore-if-in-upstream", "always", "no-stat", "patch", "stat", "ext-diff", "textconv", "no-ext-diff", "no-textconv", "text", "root"}},
	{Short: "q"},
	{Long: []string{"numbered-files", "no-binary", "force-in-body-from", "no-force-in-body-from"}},
}}

// gitSubmoduleSpec: git submodule ACTION …: add REPOSITORY PATH clones a
// repository into PATH (written); foreach runs a command in each.
var gitSubmoduleSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Action: gitSubmoduleAction, Opts: []Opt{
	{Short: "q", Long: []string{"quiet"}},
	{Long: []string{"cached"}},
	{Long: []string{"reference"}, Val: RoleRead},
	{Short: "bjn", Long: []string{"depth", "jobs", "filter", "branch", "summary-limit"}, Val: RoleText},
	{Short: "fN", Long: []string{"init", "remote", "recursive", "force", "checkout", "rebase", "merge", "no-fetch", "single-branch", "recommend-shallow",
		"dissociate", "progress", "all", "files", "default", "for-status"}},
}}

func gitSubmoduleAction(a string) *Spec {
	switch a {
	case "add":
		return &gitSubmoduleAddSpec
	case "foreach":
		return &gitForeachSpec
	}
	return nil
}

var gitSubmoduleAddSpec = Spec{Abbrev: true, Negate: true, Operands: RoleURL, Last: RoleWrite, Opts: []Opt{
	{Long: []string{"reference"}, Val: RoleRead},
	{Short: "b", Long: []string{"branch"}, Val: RoleText},
	{Long: []string{"name", "depth"}, Val: RoleText},
	{Short: "fq", Long: []string{"force", "quiet", "dissociate"}},
}}

// gitForeachSpec: git submodule foreach [--recursive] COMMAND…
var gitForeachSpec = Spec{Abbrev: true, Negate: true, InOrder: true, Operands: RoleProgram, Opts: []Opt{
	{Short: "q", Long: []string{"quiet"}},
	{Long: []string{"recursive"}},
}}

// gitRemoteCmdSpec: git remote add NAME URL and set-url NAME URL point a
// remote at a repository (a path: another repository on this machine).
var gitRemoteCmdSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Action: gitRemoteAction, Opts: []Opt{
	{Short: "v", Long: []string{"verbose"}},
}}

func gitRemoteAction(a string) *Spec {
	switch a {
	case "add", "set-url":
		return &gitRemoteAddSpec
	}
	return nil
}

var gitRemoteAddSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Last: RoleURL, Opts: []Opt{
	{Short: "tm", Long: []string{"track", "master"}, Val: RoleText},
	{Long: []string{"mirror"}, Val: RoleText, Optional: true},
	{Short: "f", Long: []string{"fetch"}},
	{Long: []string{"tags", "no-tags", "push", "add", "delete"}},
}}

// gitAmSpec: git am MBOX…: --directory writes the patched files under
// another path, as git apply's does.
var gitAmSpec = Spec{Abbrev: true, Negate: true, Operands: RoleRead, Opts: []Opt{
	{Long: []string{"directory"}, Val: RoleDir},
	{Long: []string{"exclude", "include"}, Val: RolePattern},
	{Short: "pC", Long: []string{"whitespace", "patch-format", "resolvemsg", "quoted-cr", "empty"}, Val: RoleText},
	{Short: "S", Long: []string{"gpg-sign"}, Val: RoleText, Optional: true},
	{Short: "sk3qucmi", Long: []string{"signoff", "keep", "keep-non-patch", "keep-cr", "no-keep-cr", "scissors", "no-scissors", "message-id", "no-message-id", "quiet", "utf8", "no-utf8", "3way", "no-3way", "rerere-autoupdate", "no-rerere-autoupdate", "ignore-space-change", "ignore-whitespace", "reject", "interactive", "verify", "no-verify", "committer-date-is-author-date", "ignore-date", "skip", "continue", "resolved", "abort", "quit", "allow-empty", "show-current-patch", "no-gpg-sign"}},
	{Short: "r", Long: []string{"no-reject"}},
}}

// gitMergeSpec: git merge|cherry-pick|revert: -s/--strategy names a merge
// strategy, which git runs as the program git-merge-NAME unless it is
// one of its own (grants' exec table judges the name).
var gitMergeSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "s", Long: []string{"strategy"}, Val: RoleText},
	{Short: "F", Long: []string{"file"}, Val: RoleRead},
	{Short: "X", Long: []string{"strategy-option"}, Val: RoleText},
	{Long: []string{"cleanup", "into-name"}, Val: RoleText},
	{Short: "m", Long: []string{"message"}, Val: RoleText},
	{Long: []string{"mainline"}, Val: RoleText},
	{Short: "S", Long: []string{"gpg-sign"}, Val: RoleText, Optional: true},
	{Long: []string{"log", "signoff"}, Val: RoleText, Optional: true},
	{Short: "nevqx", Long: []string{"commit", "no-commit", "edit", "no-edit", "ff", "no-ff", "ff-only", "squash", "no-squash", "stat", "no-stat", "summary", "no-summary", "verify", "no-verify", "verify-signatures", "no-verify-signatures", "autostash", "no-autostash", "allow-unrelated-histories", "rerere-autoupdate", "no-rerere-autoupdate", "abort", "continue", "quit", "skip", "quiet", "verbose", "progress", "no-progress", "overwrite-ignore", "no-overwrite-ignore", "allow-empty", "allow-empty-message", "keep-redundant-commits", "empty", "no-gpg-sign", "no-log", "no-signoff", "reference"}},
}}

// gitGcSpec: --prune=DATE deletes unreachable objects older than DATE
// (now: all of them, the last copy of work a reset or rebase dropped).
var gitGcSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Long: []string{"prune"}, Val: RoleText, Optional: true},
	{Short: "q", Long: []string{"quiet"}},
	{Long: []string{"aggressive", "auto", "force", "keep-largest-pack", "no-prune", "cruft", "no-cruft", "detach", "no-detach"}},
}}

// gitReflogSpec: git reflog expire|delete forget where branches were, the
// record a reset --hard or a dropped commit is recovered from.
var gitReflogSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Long: []string{"expire", "expire-unreachable", "format", "date"}, Val: RoleText},
	{Short: "n", Long: []string{"dry-run"}},
	{Long: []string{"all", "rewrite", "updateref", "stale-fix", "verbose", "single-worktree"}},
}}

// gitUpdateRefSpec: -d deletes a ref (a branch, with its reflog).
var gitUpdateRefSpec = Spec{Abbrev: true, Negate: true, Operands: RoleText, Opts: []Opt{
	{Short: "d", Long: []string{"delete"}},
	{Short: "m", Val: RoleText},
	{Short: "z"},
	{Long: []string{"no-deref", "stdin", "create-reflog"}},
}}

// gitExec is git's exec-capable argument table (see [ExecRule]).
var gitExec = []ExecRule{
	{ID: "git-config-opt", Global: true, Opts: []string{"config-env"}, Check: checkGitC,
		Reason: "git -c/--config-env sets config that can run programs (core.pager, alias.*)"},
	{ID: "git-elsewhere", Global: true, Opts: []string{"C", "git-dir", "work-tree", "exec-path"},
		Reason: "git -C/--git-dir/--work-tree/--exec-path points git at another repository or program"},
	{ID: "git-output", Opts: []string{"output"},
		Reason: "git --output writes a file"},
	{ID: "git-ext", Opts: []string{"ext-diff", "textconv"},
		Reason: "git --ext-diff/--textconv runs external diff programs"},
	{ID: "git-pack", Opts: []string{"upload-pack", "receive-pack", "exec"},
		Reason: "git --upload-pack/--receive-pack/--exec runs another program"},
	{ID: "git-rebase-exec", Sub: []string{"rebase"}, Opts: []string{"exec", "x"},
		Reason: "git rebase -x/--exec runs a command after each commit"},
	{ID: "git-difftool", Sub: []string{"difftool", "mergetool"}, Opts: []string{"extcmd", "tool", "x", "t"},
		Reason: "git difftool -x/--extcmd runs another program"},
	{ID: "git-grep-pager", Sub: []string{"grep"}, Opts: []string{"open-files-in-pager", "O"},
		Reason: "git grep -O opens the files in another program"},
	{ID: "git-clone-program", Sub: []string{"clone", "ls-remote", "fetch", "pull", "archive"}, Opts: []string{"upload-pack", "config", "template", "separate-git-dir", "u", "c"},
		Reason: "git clone -u/-c/--template runs a program or sets config that does"},
	{ID: "git-ext-transport", Check: checkGitExt,
		Reason: "an ext:: or fd:: remote makes git run a command"},
	{ID: "git-pager", Global: true, Opts: []string{"paginate", "p"},
		Reason: "git -p/--paginate runs the pager that git's config or the environment names"},
	{ID: "git-strategy", Sub: []string{"merge", "pull", "rebase", "cherry-pick", "revert"}, Check: checkGitStrategy,
		Reason: "git merge -s NAME runs the program git-merge-NAME unless NAME is one of git's own strategies"},
	{ID: "git-config-dump", Sub: []string{"config", "var"}, Check: checkGitConfigDump,
		Reason: "git config --list prints every setting, tokens in remote URLs and extra headers included"},
	{ID: "git-shell-filters", Sub: []string{"filter-branch", "filter-repo", "send-email", "instaweb", "mergetool", "p4", "svn", "cvsimport", "quiltimport", "request-pull"}, Rest: true,
		Reason: "git filter-branch/filter-repo/send-email/… run shell commands or Python callbacks given as arguments"},
	{ID: "git-credential", Check: checkGitCredential,
		Reason: "git credential helpers print stored passwords and tokens"},
	{ID: "git-write-elsewhere", Sub: []string{"archive", "format-patch", "bundle", "checkout-index", "apply", "worktree"},
		Opts: []string{"output", "output-directory", "prefix", "directory", "unsafe-paths", "o"}, Words: []string{"create", "add"},
		Reason: "git archive -o/format-patch -o/bundle create/checkout-index --prefix/apply --directory/worktree add write files elsewhere"},
	{ID: "git-config-global", Sub: []string{"config"}, Opts: []string{"global", "system", "worktree"},
		Reason: "git config --global/--system changes git for every repository"},
	{ID: "git-run", Sub: []string{"bisect", "submodule"}, Words: []string{"run", "foreach"},
		Reason: "git bisect run/submodule foreach runs a command"},
	{ID: "git-config-set", Sub: []string{"config"}, Check: checkGitConfig,
		Reason: "git config core.pager/core.sshCommand/core.editor/diff.external/alias.* makes git run a program"},
}

// gitConfigKeys are config keys whose value git runs as a program.
var gitConfigKeys = []string{"core.pager", "core.sshcommand", "core.editor", "core.hookspath", "core.fsmonitor", "core.askpass",
	"core.gitproxy", "diff.external", "sequence.editor", "credential.helper", "gpg.program", "gpg.ssh.program", "gpg.x509.program",
	"interactive.difffilter", "web.browser", "sendemail.sendmailcmd", "sendemail.smtpserver", "uploadpack.packobjectshook"}

var gitConfigPrefixes = []string{"alias.", "pager.", "filter.", "include.", "includeif.", "credential.", "man.", "remote.",
	"protocol.", "url.", "submodule.", "sendemail.", "instaweb.", "init.templatedir", "core.worktree", "core.alternaterefscommand",
	"safe.directory", "core.sshcommand", "uploadarchive.", "receive.procreceiverefs", "gc.", "maintenance."}
var gitConfigSuffixes = []string{".textconv", ".command", ".driver", ".cmd", ".program", ".path", ".helper", ".proxy", ".receivepack", ".uploadpack"}

func gitKeyDangerous(k string) bool {
	k = strings.ToLower(k)
	if slices.Contains(gitConfigKeys, k) {
		return true
	}
	for _, p := range gitConfigPrefixes {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	for _, s := range gitConfigSuffixes {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

func checkGitConfig(c *Command, p Parsed, m Marker) {
	var keys []Word
	for _, wd := range p.Words {
		switch {
		case wd.Arg <= p.Sub:
		case wd.Name == "":
			keys = append(keys, wd)
		case wd.Name == "file" || wd.Name == "edit" || wd.Role == RoleUnknown && Unresolved(wd, "file", "edit", "f", "e"):
			m.MarkWord(c, wd, "git config -f/--edit writes another file or runs an editor")
		}
	}
	set := len(keys) >= 2 || p.Has("unset", "unset-all", "add", "replace-all", "rename-section", "remove-section")
	for k, wd := range keys {
		switch {
		case strings.Contains(wd.Val, ".") && gitKeyDangerous(wd.Val):
			m.Mark(wd.Arg, "git config "+strings.ToLower(wd.Val)+" makes git run a program")
		case k == 0 && set && !gitKeyHarmless(wd.Val):
			// closed world: a key git config sets is judged by the
			// allowlist of keys that only change how git shows or merges
			m.Mark(wd.Arg, "git config "+strings.ToLower(wd.Val)+" is not a key guard knows to be harmless; asked")
		default:
			continue
		}
		if k+1 < len(keys) {
			m.Mark(keys[k+1].Arg, "git config sets a program")
		}
	}
}

// gitHarmlessKeys are the config keys (lower case; a trailing "." is a
// section) whose values only change how git shows, merges or names
// things: git config KEY VALUE and git -c KEY=VALUE may set them under a
// '*' grant. Any other key is asked.
var gitHarmlessKeys = []string{"user.name", "user.email", "user.signingkey", "color.", "core.autocrlf", "core.eol", "core.filemode", "core.ignorecase",
	"core.quotepath", "core.whitespace", "core.safecrlf", "core.precomposeunicode", "core.symlinks", "core.abbrev", "core.compression",
	"init.defaultbranch", "pull.rebase", "pull.ff", "push.default", "push.autosetupremote", "push.followtags", "fetch.prune", "fetch.prunetags",
	"fetch.parallel", "merge.ff", "merge.conflictstyle", "merge.log", "merge.stat", "rebase.autosquash", "rebase.autostash", "rebase.updaterefs",
	"rebase.stat", "diff.renames", "diff.algorithm", "diff.colormoved", "diff.mnemonicprefix", "diff.noprefix", "diff.context", "diff.renamelimit",
	"diff.indentheuristic", "log.date", "log.decorate", "log.follow", "log.abbrevcommit", "log.showsignature", "format.pretty", "branch.", "advice.",
	"column.", "status.", "commit.verbose", "commit.gpgsign", "commit.cleanup", "tag.gpgsign", "tag.sort", "help.autocorrect", "rerere.enabled",
	"rerere.autoupdate", "feature.manyfiles", "pack.threads", "grep.", "i18n.", "interactive.singlekey", "checkout.defaultremote", "blame.",
	"versionsort.", "pretty.", "am.threeway", "apply.whitespace", "transfer.fsckobjects", "fetch.fsckobjects", "receive.fsckobjects",
	"submodule.recurse", "core.untrackedcache", "core.fscache", "core.preloadindex", "index.", "gc.auto", "maintenance.auto"}

func gitKeyHarmless(k string) bool {
	k = strings.ToLower(k)
	if gitKeyDangerous(k) && k != "gc.auto" && k != "maintenance.auto" {
		return false
	}
	for _, h := range gitHarmlessKeys {
		if k == h || strings.HasSuffix(h, ".") && strings.HasPrefix(k, h) {
			return true
		}
	}
	return false
}

// checkGitC marks git -c KEY=VALUE (before the subcommand) unless the key
// only changes how git shows or names things (git -c color.ui=always
// log): -c core.pager=X, -c alias.x=!sh and any key guard does not know
// run or may run programs.
func checkGitC(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		if p.Sub >= 0 && wd.Arg >= p.Sub {
			break
		}
		switch {
		case wd.Name == "c" && wd.Role != RoleFlag:
			key, _, _ := strings.Cut(wd.Val, "=")
			if !gitKeyHarmless(key) {
				m.MarkWord(c, wd, "git -c "+strings.ToLower(key)+" sets config guard does not know to be harmless (core.pager, alias.* run programs)")
			}
		case wd.Name == "c", wd.Role == RoleUnknown && Unresolved(wd, "c"):
			m.MarkWord(c, wd, "git -c/--config-env sets config that can run programs (core.pager, alias.*)")
		}
	}
}

// checkGitExt marks an ext:: or fd:: remote anywhere in a git command:
// with protocol.allow set, git runs the command the URL names.
func checkGitExt(c *Command, _ Parsed, m Marker) {
	for i := 1; i < len(c.Args); i++ {
		if strings.Contains(c.Args[i], "ext::") || strings.Contains(c.Args[i], "fd::") {
			m.Mark(i, "an ext:: or fd:: remote makes git run a command")
		}
	}
}

// checkGitCredential marks git credential and the credential-* helpers.
func checkGitCredential(c *Command, p Parsed, m Marker) {
	if sub := p.Sub; sub > 0 && sub < len(c.Args) && strings.HasPrefix(c.Args[sub], "credential") {
		for i := sub; i < len(c.Args); i++ {
			m.Mark(i, "git credential helpers print stored passwords and tokens")
		}
	}
}

// checkGitConfigDump marks git config --list (and git var -l) over the
// user's and the system's settings and every file they include: tokens in
// remote URLs and extra headers, credential helpers' arguments. The
// project's own settings (--local, --worktree) are what cat .git/config
// prints, which the read-only set allows too.
func checkGitConfigDump(c *Command, p Parsed, m Marker) {
	const why = "git config --list prints every setting, tokens in remote URLs and extra headers included"
	if p.SubName(c.Args) == "config" && p.Has("local", "worktree") {
		return
	}
	for _, wd := range p.Words {
		if wd.Arg > p.Sub && (wd.Name == "list" || wd.Name == "l" || wd.Role == RoleUnknown && Unresolved(wd, "list", "l")) {
			m.MarkWord(c, wd, why)
		}
	}
}

// gitStrategies are the merge strategies git runs itself; any other name
// is the program git-merge-NAME.
var gitStrategies = []string{"ort", "recursive", "resolve", "octopus", "ours", "subtree"}

func checkGitStrategy(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		if wd.Role == RoleUnknown && Unresolved(wd, "strategy", "s") ||
			(wd.Name == "strategy" || wd.Name == "s") && wd.Role != RoleFlag && !slices.Contains(gitStrategies, wd.Val) {
			m.MarkWord(c, wd, "git -s "+wd.Val+" runs the program git-merge-"+wd.Val)
		}
	}
}

// gitReadOnlySubs are the subcommands the read-only set allows (some
// only in their listing forms, see gitReadOnly).
var gitReadOnlySubs = []string{"status", "log", "diff", "show", "branch", "rev-parse", "ls-files", "blame", "grep", "remote", "tag", "config",
	"ls-tree", "rev-list", "describe", "shortlog", "show-ref", "merge-base", "name-rev", "cat-file", "stash"}

// gitReadOnly: the git queries in the built-in read-only set (status,
// log, diff, …), and the listing forms of remote, tag, config, branch and
// stash.
func gitReadOnly(c *Command, p Parsed) bool {
	sub := p.Sub
	if sub < 0 || !slices.Contains(gitReadOnlySubs, c.Args[sub]) {
		return false
	}
	switch c.Args[sub] {
	case "remote":
		return gitRemoteReadOnly(c, sub)
	case "tag":
		return gitTagReadOnly(p)
	case "config":
		return gitConfigGetReadOnly(p, sub)
	case "branch":
		return gitBranchReadOnly(p)
	case "stash":
		// git stash list / show: the rest of stash changes the tree
		return sub+1 < len(c.Args) && (c.Args[sub+1] == "list" || c.Args[sub+1] == "show")
	}
	return true
}

// gitRemoteReadOnly: git remote, git remote -v and git remote get-url NAME
// list the remotes (show and prune ask the remote; add, set-url, rm
// change them).
func gitRemoteReadOnly(c *Command, sub int) bool {
	rest := c.Args[sub+1:]
	for len(rest) > 0 && (rest[0] == "-v" || rest[0] == "--verbose") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return true
	}
	if rest[0] != "get-url" {
		return false
	}
	for _, w := range rest[1:] {
		if strings.HasPrefix(w, "-") && w != "--push" && w != "--all" {
			return false
		}
	}
	return true
}

// gitTagListOpts are git tag's options, by the spec's names, that leave it
// listing; with none of gitTagListing it lists only without operands.
var gitTagListOpts = []string{"n", "column", "no-column", "color", "sort", "format", "contains", "no-contains", "merged", "no-merged", "points-at", "ignore-case", "i", "list", "l"}
var gitTagListing = []string{"list", "l", "contains", "no-contains", "merged", "no-merged", "points-at"}

// gitTagReadOnly: git tag, git tag -l PATTERN (no -d, -a, -s, -f, -m, -F).
func gitTagReadOnly(p Parsed) bool {
	if !p.Spec || p.Unknown {
		return false
	}
	list, operands := false, 0
	for _, wd := range p.Words {
		switch {
		case wd.Arg <= p.Sub:
		case wd.Name == "":
			operands++
		case slices.Contains(gitTagListing, wd.Name):
			list = true
		case !slices.Contains(gitTagListOpts, wd.Name):
			return false
		}
	}
	return operands == 0 || list
}

// gitConfigGetReadOnly: git config --get KEY (or KEY alone, or --get-all)
// of a key that holds no credential and names no program: the value is
// what cat .git/config would print of it. --list and --get-regexp print
// every key (checkGitConfigDump), --global and the other scopes too.
func gitConfigGetReadOnly(p Parsed, sub int) bool {
	if !p.Spec || p.Unknown {
		return false
	}
	get := false
	var keys []string
	for _, wd := range p.Words {
		switch {
		case wd.Arg <= sub:
		case wd.Name == "":
			keys = append(keys, wd.Val)
		case wd.Name == "get" || wd.Name == "get-all":
			get = true
		case wd.Name == "local" || wd.Name == "null" || wd.Name == "z" || wd.Name == "type" || wd.Name == "t" || wd.Name == "bool" || wd.Name == "int" ||
			wd.Name == "path" || wd.Name == "default" || wd.Name == "show-origin" || wd.Name == "show-scope" || wd.Name == "includes" || wd.Name == "no-includes":
		default:
			return false
		}
	}
	if len(keys) != 1 || !get && len(keys) != 1 {
		return false
	}
	k := strings.ToLower(keys[0])
	return strings.Contains(k, ".") && !gitKeyDangerous(k) && !MaySecretName(strings.ReplaceAll(k, ".", "_"))
}

// gitBranchListOpts are git branch's options, by the spec's names, that
// leave it listing; gitBranchListing make it list whatever the operands.
var gitBranchListOpts = []string{"a", "r", "v", "q", "i", "all", "remotes", "verbose", "quiet", "show-current", "ignore-case",
	"no-color", "no-column", "no-abbrev", "omit-empty", "color", "column", "abbrev"}
var gitBranchListing = []string{"list", "sort", "format", "contains", "no-contains", "merged", "no-merged", "points-at"}

// gitBranchReadOnly: git branch that only lists (no -d/-D/-m/-M/-c/-C, no
// new branch), read from the argument model's parse.
func gitBranchReadOnly(p Parsed) bool {
	if !p.Spec || p.Unknown {
		return false
	}
	list, operands := false, 0
	for _, wd := range p.Words {
		switch {
		case wd.Arg <= p.Sub: // git's own options
		case wd.Name == "":
			operands++
		case slices.Contains(gitBranchListing, wd.Name):
			list = true
		case !slices.Contains(gitBranchListOpts, wd.Name):
			return false
		}
	}
	return operands == 0 || list
}

// gitReaches are the subcommands that fetch from or send to another
// machine.
var gitReaches = []string{"clone", "fetch", "pull", "push", "ls-remote", "remote", "submodule", "send-email", "request-pull"}

// gitShellOptions are git options whose value git runs through the shell.
func gitShellOptions(name string) bool {
	switch name {
	case "--tree-filter", "--index-filter", "--msg-filter", "--env-filter", "--commit-filter",
		"--parent-filter", "--tag-name-filter", "--sendmail-cmd", "--to-cmd", "--cc-cmd",
		"--header-cmd", "--upload-pack", "--receive-pack", "--exec", "--extcmd":
		return true
	}
	return false
}

// gitShellKeys are config keys (git -c KEY=VALUE) whose value git runs.
var gitShellKeys = []string{"core.sshcommand", "core.pager", "core.editor", "core.fsmonitor", "core.askpass", "sequence.editor",
	"diff.external", "gpg.program", "credential.helper", "core.hookspath", "uploadpack.packobjectshook"}

// wrapGit: git options and config values that hold shell commands
// (filter-branch filters, send-email commands, clone -u, rebase -x,
// -c core.sshCommand=…, -c alias.x='!…', bisect run, submodule foreach) are
// judged as the scripts they are, so the denylist sees inside them.
func (w *walker) wrapGit(c int, fs []field) {
	run := func(f field, where string) {
		w.shellText(c, f, where)
	}
	sub := gitSub(fs)
	for i := 1; i < len(fs); i++ {
		a := fs[i].val
		name, val, eq := strings.Cut(a, "=")
		switch {
		case gitShellOptions(name):
			if eq {
				f := fs[i]
				f.val, f.pat = val, val
				run(f, "git "+name)
			} else if i+1 < len(fs) {
				run(fs[i+1], "git "+name)
			}
		case a == "-u" && i+1 < len(fs) && sub > 0 && i > sub && (fs[sub].val == "clone" || fs[sub].val == "ls-remote"),
			a == "-x" && i+1 < len(fs) && sub > 0 && i > sub && (fs[sub].val == "rebase" || fs[sub].val == "difftool" || fs[sub].val == "mergetool"):
			// clone/ls-remote -u PROGRAM, rebase/difftool -x CMD
			run(fs[i+1], "git "+a)
		case a == "-c" && i+1 < len(fs) && (sub < 0 || i < sub || fs[sub].val == "clone"):
			k, v, ok := strings.Cut(fs[i+1].val, "=")
			k = strings.ToLower(k)
			if ok && (strings.HasPrefix(k, "alias.") && strings.HasPrefix(v, "!") || slices.Contains(gitShellKeys, k)) {
				f := fs[i+1]
				f.val, f.pat = strings.TrimPrefix(v, "!"), strings.TrimPrefix(v, "!")
				run(f, "git -c "+k)
			}
		}
	}
	if sub > 0 && sub+1 < len(fs) {
		switch {
		case fs[sub].val == "bisect" && fs[sub+1].val == "run" && sub+2 < len(fs):
			w.transparent(c, sub+2, "git bisect run")
		case fs[sub].val == "submodule" && sub+2 < len(fs):
			for k := sub + 1; k < len(fs); k++ {
				if fs[k].val == "foreach" && k+1 < len(fs) {
					parts := make([]string, 0, len(fs)-k-1)
					for _, f := range fs[k+1:] {
						if !strings.HasPrefix(f.val, "--") {
							parts = append(parts, f.val)
						}
					}
					run(field{val: strings.Join(parts, " ")}, "git submodule foreach")
					break
				}
			}
		}
	}
}

// gitConfigParameters splits GIT_CONFIG_PARAMETERS, git's own quoting of
// -c options ('key'='value' …, a quote inside written as the four bytes
// quote, backslash, quote, quote), into key/value
// pairs; ok is false when the text is not in that form.
func gitConfigParameters(v string) ([][2]string, bool) {
	var out [][2]string
	quoted := func(s string) (string, string, bool) {
		if !strings.HasPrefix(s, "'") {
			return "", s, false
		}
		var b strings.Builder
		s = s[1:]
		for {
			k := strings.IndexByte(s, '\'')
			if k < 0 {
				return "", s, false
			}
			b.WriteString(s[:k])
			s = s[k+1:]
			if !strings.HasPrefix(s, "\\''") {
				return b.String(), s, true
			}
			b.WriteByte('\'')
			s = s[3:]
		}
	}
	s := strings.TrimSpace(v)
	for s != "" {
		key, rest, ok := quoted(s)
		if !ok {
			return nil, false
		}
		val := ""
		if strings.HasPrefix(rest, "=") {
			if val, rest, ok = quoted(rest[1:]); !ok {
				return nil, false
			}
		}
		out = append(out, [2]string{strings.ToLower(key), val})
		s = strings.TrimLeft(rest, " ")
	}
	return out, true
}

// gitShellValue returns the command line a git config value runs: the
// value of a key git runs (core.pager, core.sshCommand …), or an alias
// that starts with "!".
func gitShellValue(key, val string) (string, bool) {
	if strings.HasPrefix(key, "alias.") {
		return strings.CutPrefix(val, "!")
	}
	return val, slices.Contains(gitShellKeys, key)
}

// gitProgramKeys are git config keys whose value git runs as a command
// line (alias.* and credential.helper only when they start with "!").
func gitProgramKey(k, v string) bool {
	k = strings.ToLower(k)
	switch k {
	case "core.sshcommand", "core.pager", "core.editor", "core.fsmonitor", "core.askpass", "core.gitproxy",
		"sequence.editor", "diff.external", "gpg.program", "gpg.ssh.program", "gpg.x509.program",
		"interactive.difffilter", "sendemail.sendmailcmd", "uploadpack.packobjectshook":
		return true
	}
	switch {
	case strings.HasPrefix(k, "pager."), strings.HasSuffix(k, ".textconv"), strings.HasSuffix(k, ".command"),
		strings.HasSuffix(k, ".cmd"), strings.HasSuffix(k, ".clean"), strings.HasSuffix(k, ".smudge"), strings.HasSuffix(k, ".process"):
		return true
	case strings.HasPrefix(k, "alias."), strings.HasPrefix(k, "credential.") && strings.HasSuffix(k, "helper"):
		return strings.HasPrefix(v, "!")
	}
	return false
}

// gitConfigCommands returns the command lines git config values on the
// command line run: git -c core.sshCommand=CMD, git config core.pager CMD.
func gitConfigCommands(p *Parsed, args []string) []string {
	var out []string
	for _, wd := range p.Words {
		if wd.Name == "c" && wd.Role == RoleText {
			if k, v, ok := strings.Cut(wd.Val, "="); ok && gitProgramKey(k, v) {
				out = append(out, strings.TrimPrefix(v, "!"))
			}
		}
	}
	if p.SubName(args) == "config" {
		ops := p.Operands()
		for i := 0; i+1 < len(ops); i++ {
			if gitProgramKey(ops[i].Val, ops[i+1].Val) {
				out = append(out, strings.TrimPrefix(ops[i+1].Val, "!"))
			}
		}
	}
	return out
}
