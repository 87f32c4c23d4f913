package classify

import (
	"slices"
	"strings"
	"sync"
)

// Specs of the build tools: which options run another program, write
// outside the project, or point the tool at another directory.

func buildSpec(name string) *Spec {
	switch name {
	case "go":
		return &goSpec
	case "make", "gmake":
		return &makeSpec
	case "npm", "yarn", "bun":
		return &npmSpec
	case "pnpm":
		return &pnpmSpec
	case "cargo":
		return &cargoSpec
	case "pytest", "py.test":
		return &pytestSpec
	case "docker", "podman", "nerdctl":
		return &dockerSpec
	case "docker-compose", "podman-compose":
		return &dockerComposeSpec
	case "gofmt":
		return &gofmtSpec
	case "gcc", "g++", "cc", "clang", "clang++", "c++":
		return &ccSpec
	case "rustc":
		return &rustcSpec
	case "java":
		return &javaSpec
	case "pip", "pip3":
		return &pipSpec
	case "hyperfine":
		return &hyperfineSpec
	case "watchexec", "nodemon":
		return &watchSpec
	case "entr":
		return &entrSpec
	case "bazel", "bazelisk":
		return &bazelSpec
	case "mvn", "mvnw":
		return &mvnSpec
	case "gradle", "gradlew":
		return &gradleSpec
	case "cmake":
		return &cmakeSpec
	case "eslint":
		return &eslintSpec
	case "prettier":
		return &prettierSpec
	case "mypy":
		return &mypySpec
	case "pre-commit":
		return &preCommitSpec
	case "uvx", "pip-run":
		return &wrapperSpec // uvx PACKAGE ARGS…: downloads PACKAGE and runs it
	case "pipx", "uv", "nix", "nix-shell", "gem", "pixi", "rustup":
		return &untypedSubSpec
	case "dotnet":
		return &dotnetSpec
	case "dnx":
		return &wrapperSpec // dnx PACKAGE ARGS… (.NET 10): downloads a tool and runs it
	case "tmux":
		return &tmuxSpec
	case "gh":
		return &ghSpec
	}
	return nil
}

// bazelSpec: bazel [STARTUP] COMMAND [OPTIONS] TARGET…: targets
// (//..., //src:app, @repo//x) are labels, not paths. --run_under runs a
// program, --bazelrc and --output_base point bazel elsewhere; the
// options bazel has by the hundred beyond these are asked under a '*'.
var bazelSpec = Spec{Builds: true, Grant: GrantSub, GrantFor: []string{"bazel"}, Sub: bazelSub, Opts: []Opt{
	{Long: []string{"bazelrc"}, Val: RoleProgram},
	{Long: []string{"output_base", "output_user_root", "install_base"}, Val: RoleWrite},
	{Long: []string{"host_jvm_args", "max_idle_secs"}, Val: RoleText},
	{Long: []string{"batch", "nobatch", "noblock_for_lock", "client_debug", "nohome_rc", "nosystem_rc", "noworkspace_rc", "version", "help"}},
}}

func bazelSub(string) *Spec { return &bazelCmdSpec }

var bazelCmdSpec = Spec{Operands: RoleText, Opts: []Opt{
	{Long: []string{"run_under"}, Val: RoleProgram},
	{Long: []string{"script_path"}, Val: RoleWrite},
	{Long: []string{"disk_cache", "repository_cache"}, Val: RoleDir},
	{Short: "c", Long: []string{"compilation_mode"}, Val: RoleText},
	{Long: []string{"config", "test_output", "jobs", "test_filter", "test_arg", "define", "copt", "cxxopt", "conlyopt", "linkopt", "platforms", "cpu",
		"host_cpu", "test_env", "action_env", "test_tag_filters", "build_tag_filters", "test_size_filters", "test_timeout", "runs_per_test",
		"flaky_test_attempts", "color", "curses", "show_timestamps", "output_groups", "target_pattern_file", "output", "query_file", "experimental_ui_max_stdouterr_bytes",
		"local_test_jobs", "test_sharding_strategy", "java_runtime_version", "tool_java_runtime_version", "java_language_version", "compiler", "features",
		"strategy", "spawn_strategy", "sandbox_tmpfs_path", "ui_event_filters", "remote_download_outputs"}, Val: RoleText},
	{Short: "ks", Long: []string{"keep_going", "nokeep_going", "verbose_failures", "noverbose_failures", "subcommands", "announce_rc", "nocache_test_results",
		"cache_test_results", "build_tests_only", "nobuild_tests_only", "test_verbose_timeout_warnings", "sandbox_debug", "check_visibility", "nocheck_visibility",
		"build", "nobuild", "notest_keep_going", "test_keep_going", "check_up_to_date", "show_result", "expunge", "async", "long", "short", "help"}},
}}

// ghSpec: gh AREA ACTION [OPTIONS] (gh help reference, gh 2.23.0;
// testdata/options/gh.txt): one spec for the actions of every area, with
// the letters an area gives another meaning typed by the area's own spec
// (ghAreaSpecs). --body-file, --notes-file, --input and gist -a read a
// file, run and release download -D/-O write one; api -F/--field may
// upload one (key=@FILE): untyped. grants' exec table judges gh config
// set, gh alias, gh extension and the editor (-e/--editor).
var ghSpec = Spec{Network: true, Grant: GrantSub, Exec: ghExec, Sub: ghSub, EffectIf: ghEffect, Opts: []Opt{
	{Short: "R", Long: []string{"repo", "hostname"}, Val: RoleText},
	{Long: []string{"help", "version"}},
}}

func ghSub(area string) *Spec {
	if s := ghAreaSpecs()[area]; s != nil {
		return s
	}
	return &ghSubSpec
}

// ghAreaSpecs are the areas whose letters (or long names) mean something
// else than in ghSubOpts: their options come first, so they win. Made the
// first time a gh command is read, not by every guard at start.
var ghAreaSpecs = sync.OnceValue(func() map[string]*Spec {
	pr := ghArea(Opt{Short: "F", Long: []string{"body-file"}, Val: RoleRead}, Opt{Short: "e", Long: []string{"editor"}})
	codespace := ghArea(Opt{Short: "e", Long: []string{"expand"}}, Opt{Short: "r", Long: []string{"recursive"}}, Opt{Short: "d", Long: []string{"display-name"}, Val: RoleText},
		Opt{Short: "s", Long: []string{"shell"}, Val: RoleText}, Opt{Short: "p", Long: []string{"profile"}, Val: RoleText})
	return map[string]*Spec{
		"auth":      ghArea(Opt{Short: "h", Long: []string{"hostname"}, Val: RoleText}, Opt{Short: "s", Long: []string{"scopes"}, Val: RoleText}, Opt{Short: "t", Long: []string{"show-token"}}),
		"api":       ghArea(Opt{Short: "i", Long: []string{"include"}}),
		"pr":        pr, // pr and issue read their body from -F FILE; -e opens the editor (gh-editor)
		"issue":     pr,
		"release":   ghArea(Opt{Short: "F", Long: []string{"notes-file"}, Val: RoleRead}),
		"config":    ghArea(Opt{Short: "h", Long: []string{"host"}, Val: RoleText}),
		"secret":    ghArea(Opt{Short: "b", Long: []string{"body"}, Val: RoleSecret}, Opt{Short: "e", Long: []string{"env"}, Val: RoleText}, Opt{Short: "f", Long: []string{"env-file"}, Val: RoleRead}, Opt{Short: "r", Long: []string{"repos"}, Val: RoleText}),
		"variable":  ghArea(Opt{Short: "e", Long: []string{"env"}, Val: RoleText}, Opt{Short: "f", Long: []string{"env-file"}, Val: RoleRead}),
		"repo":      ghArea(Opt{Short: "s", Long: []string{"source"}, Val: RoleRead}, Opt{Short: "r", Long: []string{"remote"}, Val: RoleText}, Opt{Short: "u", Long: []string{"unset"}}),
		"codespace": codespace,
		"cs":        codespace,
		"gist":      ghArea(Opt{Short: "a", Long: []string{"add"}, Val: RoleRead}, Opt{Short: "f", Long: []string{"filename"}, Val: RoleText}, Opt{Short: "r", Long: []string{"raw"}}, Opt{Short: "d", Long: []string{"desc"}, Val: RoleText}),
		"alias":     ghArea(Opt{Short: "s", Long: []string{"shell"}}),
	}
})

// ghArea is ghSubSpec with opts first: a letter or long name they spell
// is theirs.
func ghArea(opts ...Opt) *Spec {
	s := ghSubSpec
	s.Opts = append(opts, ghSubOpts...)
	return &s
}

var ghSubSpec = Spec{Operands: RoleText, Untyped: []string{"F", "field"}, Opts: ghSubOpts}

var ghSubOpts = []Opt{
	{Long: []string{"body-file", "input", "notes-file"}, Val: RoleRead},
	{Short: "DO", Long: []string{"dir", "output"}, Val: RoleWrite},
	{Short: "RLqtabBHlmrSAXfjwpegnoui", Long: []string{"repo", "state", "limit", "json", "jq", "template", "title", "body", "base", "head", "label", "milestone",
		"reviewer", "assignee", "author", "search", "branch", "workflow", "method", "raw-field", "header", "hostname", "job", "commit", "event",
		"status", "user", "visibility", "description", "homepage", "remote", "source", "notes", "target", "discussion-category", "attempt",
		"created", "sort", "order", "app", "add-label", "remove-label", "add-assignee", "remove-assignee", "add-reviewer", "remove-reviewer",
		"subject", "merge-method", "preview", "cache", "name", "ref", "pattern", "clobber-name", "jobs", "interval", "topic",
		"language", "owner", "mention", "involves", "match", "include-content", "exclude", "rev", "since", "key",
		"add-project", "remove-project", "add-topic", "remove-topic", "author-date", "author-email", "author-name", "committer", "committer-date",
		"committer-email", "committer-name", "color", "comment", "commenter", "codespace", "days", "default-branch", "desc", "devcontainer-path",
		"display-name", "env", "filename", "followers", "fork-name", "forks", "git-protocol", "gitignore", "hash", "host", "idle-timeout",
		"interactions", "issue-repo", "license", "location", "machine", "mentions", "merged-at", "match-head-commit", "number-topics", "org",
		"parent", "pin", "precompiled", "profile", "project", "reactions", "reason", "repos", "retention-period", "review", "review-requested",
		"reviewed-by", "scopes", "server-port", "size", "stars", "tag", "team", "team-mentions", "tree", "updated", "upstream-remote-name",
		"archive", "debug-file", "notes-start-tag", "shell"}, Val: RoleText},
	{Short: "dsvcWhy", Long: []string{"draft", "fill", "fill-first", "fill-verbose", "web", "log", "log-failed", "exit-status", "watch", "verbose", "help",
		"paginate", "silent", "include", "squash", "merge", "rebase", "auto", "delete-branch", "admin", "disable-auto", "yes", "comments", "closed",
		"merged", "checks", "required", "fail-fast", "no-maintainer-edit", "dry-run", "public", "private", "internal", "clone", "fork", "archived",
		"no-archived", "prerelease", "latest", "generate-notes", "verify-tag", "force", "recover", "slurp", "confirm", "remote-name", "default-branch-only",
		"no-upstream", "current-branch", "detach", "list", "all", "force-with-lease", "exit-code", "colors", "name-only", "patch", "no-git", "update-branch",
		"add-readme", "allow-forking", "allow-update-branch", "allow-write", "approve", "checkout", "cleanup-tag", "clobber", "config", "debug",
		"default-permissions", "delete-branch-on-merge", "disable-issues", "disable-wiki", "edit-last", "editor", "enable-auto-merge", "enable-discussions",
		"enable-issues", "enable-merge-commit", "enable-projects", "enable-rebase-merge", "enable-squash-merge", "enable-wiki", "exclude-drafts",
		"exclude-pre-releases", "expand", "failed", "files", "follow", "full", "good-first-issues", "help-wanted-issues", "include-all-branches",
		"include-forks", "include-prs", "insiders", "locked", "no-assignee", "no-browser", "no-label", "no-milestone", "no-project", "no-store",
		"projects", "push", "raw", "recurse-submodules", "recursive", "request-changes", "secret", "settings", "show-token", "single-column",
		"skip-existing", "undo", "unset", "view", "wiki", "with-token", "yaml", "conflict-status"}},
}

// mvnSpec: mvn [OPTIONS] GOAL… (mvn --help; testdata/options/build.txt):
// commons-cli, so multi-letter options take one dash (-pl, -am, -ntp) and
// -D, -P and -T join their value. -f names the POM, whose plugins run; -s,
// -gs and -t name settings it uses; -l writes a log.
var mvnSpec = Spec{Exec: mvnExec, Instructions: true, Builds: true, Grant: GrantSub, GrantFor: []string{"mvn"}, OneDash: true, Operands: RoleText, Joined: []string{"D", "P", "T"}, Untyped: []string{"emp", "encrypt-master-password", "ep", "encrypt-password"}, Opts: []Opt{
	{Long: []string{"f", "file"}, Val: RoleProgram},
	{Long: []string{"s", "settings", "gs", "global-settings", "t", "toolchains", "gt", "global-toolchains"}, Val: RoleUse},
	{Long: []string{"l", "log-file"}, Val: RoleWrite},
	{Long: []string{"D", "define", "P", "activate-profiles", "T", "threads", "pl", "projects", "rf", "resume-from", "b", "builder", "color"}, Val: RoleText},
	{Long: []string{"am", "also-make", "amd", "also-make-dependents", "B", "batch-mode", "C", "strict-checksums", "c", "lax-checksums", "cpu",
		"check-plugin-updates", "e", "errors", "fae", "fail-at-end", "ff", "fail-fast", "fn", "fail-never", "h", "help", "llr",
		"legacy-local-repository", "N", "non-recursive", "npr", "no-plugin-registry", "npu", "no-plugin-updates", "nsu", "no-snapshot-updates",
		"ntp", "no-transfer-progress", "o", "offline", "q", "quiet", "U", "update-snapshots", "up", "update-plugins", "v", "version", "V",
		"show-version", "X", "debug"}},
}}

// gradleSpec: gradle and ./gradlew TASK… (gradle --help): -I/--init-script,
// -b/--build-file and -c/--settings-file name scripts it runs; -p works
// in another directory; --scan uploads a build scan (untyped). -D and -P
// join their value.
var gradleSpec = Spec{Builds: true, Instructions: true, Grant: GrantSub, Operands: RoleText, Untyped: []string{"scan", "no-scan"}, Opts: []Opt{
	{Short: "Ibc", Long: []string{"init-script", "build-file", "settings-file"}, Val: RoleProgram},
	{Short: "p", Long: []string{"project-dir"}, Val: RoleDir},
	{Short: "g", Long: []string{"gradle-user-home", "project-cache-dir"}, Val: RoleDir},
	{Short: "DPxM", Long: []string{"system-prop", "project-prop", "exclude-task", "console", "warning-mode", "max-workers", "priority", "include-build",
		"dependency-verification", "write-verification-metadata", "update-locks", "watch-fs", "problems-report"}, Val: RoleText},
	{Short: "qiwsSdmtavh?", Long: []string{"quiet", "info", "warn", "stacktrace", "full-stacktrace", "debug", "dry-run", "continuous", "continue", "offline",
		"refresh-dependencies", "rerun-tasks", "rerun", "parallel", "no-parallel", "build-cache", "no-build-cache", "configuration-cache",
		"no-configuration-cache", "configure-on-demand", "daemon", "no-daemon", "foreground", "status", "stop", "profile", "version", "help",
		"no-rebuild", "write-locks", "no-watch-fs", "export-keys", "no-problems-report", "all"}},
}}

// cmakeSpec: cmake configure (-S, -B, -D, -G), --build, --install and -E
// (testdata/options/build.txt). -P and -C run CMake scripts, --toolchain
// names one; --install --prefix and --graphviz write.
var cmakeSpec = Spec{Exec: cmakeExec, Instructions: true, Builds: true, Grant: GrantSub, Operands: RoleText, Opts: []Opt{
	{Short: "PC", Long: []string{"toolchain"}, Val: RoleProgram},
	{Long: []string{"prefix", "graphviz", "system-information", "profiling-output"}, Val: RoleWrite},
	{Short: "SB", Long: []string{"build", "install", "open"}, Val: RoleDir},
	{Short: "DGTAUWjt", Long: []string{"preset", "config", "target", "parallel", "component", "log-level", "log-context", "trace-source", "trace-format",
		"debug-find-pkg", "debug-find-var", "profiling-format", "warn-uninitialized", "list-presets", "install-prefix", "default-directory-permissions",
		"workflow"}, Val: RoleText},
	{Short: "ENLvh", Long: []string{"fresh", "clean-first", "resolve-package-references", "strip", "verbose", "trace", "trace-expand", "debug-output",
		"debug-trycompile", "no-warn-unused-cli", "check-system-vars", "version", "help", "help-full", "help-command-list", "help-module-list",
		"help-policy-list", "help-variable-list", "help-property-list", "use-stderr"}},
}}

// eslintSpec: -c/--config, --plugin, --rulesdir, --parser and
// --resolve-plugins-relative-to load code; -o and --cache-location write.
var eslintSpec = Spec{Grant: GrantPlain, Operands: RoleRead, Opts: []Opt{
	{Short: "c", Long: []string{"config", "rulesdir", "plugin", "parser", "resolve-plugins-relative-to"}, Val: RoleProgram},
	{Short: "o", Long: []string{"output-file", "cache-location"}, Val: RoleWrite},
	{Long: []string{"ignore-path", "print-config"}, Val: RoleRead},
	{Short: "f", Long: []string{"format", "ext", "max-warnings", "ignore-pattern", "env", "global", "parser-options", "rule", "fix-type",
		"cache-strategy", "stdin-filename", "report-unused-disable-directives-severity", "flag", "concurrency"}, Val: RoleText},
	{Short: "hv", Long: []string{"fix", "fix-dry-run", "cache", "quiet", "debug", "color", "no-color", "no-eslintrc", "no-config-lookup", "no-ignore",
		"no-inline-config", "report-unused-disable-directives", "stdin", "init", "exit-on-fatal-error", "no-error-on-unmatched-pattern",
		"pass-on-no-patterns", "no-warn-ignored", "stats", "version", "help", "env-info", "inspect-config"}},
}}

// prettierSpec: --plugin loads code; -c is --check.
var prettierSpec = Spec{Grant: GrantPlain, Operands: RoleRead, Opts: []Opt{
	{Long: []string{"plugin", "config", "ignore-path"}, Val: RoleProgram},
	{Long: []string{"cache-location"}, Val: RoleWrite},
	{Long: []string{"log-level", "parser", "print-width", "tab-width", "trailing-comma", "end-of-line", "arrow-parens", "prose-wrap",
		"quote-props", "embedded-language-formatting", "html-whitespace-sensitivity", "cache-strategy", "stdin-filepath", "config-precedence",
		"object-wrap", "experimental-operator-position"}, Val: RoleText},
	{Short: "wcluv", Long: []string{"write", "check", "list-different", "ignore-unknown", "no-config", "no-editorconfig", "cache", "no-color", "color",
		"single-quote", "jsx-single-quote", "no-semi", "use-tabs", "no-bracket-spacing", "bracket-same-line", "with-node-modules",
		"no-error-on-unmatched-pattern", "debug-check", "find-config-path", "file-info", "support-info", "version", "help", "insert-pragma",
		"require-pragma", "vue-indent-script-and-style", "single-attribute-per-line", "experimental-ternaries"}},
}}

// mypySpec: the options agents pass; its hundreds of --disallow-* and
// --warn-* flags are typed by their --no- forms too. --install-types
// installs packages: untyped.
var mypySpec = Spec{Instructions: true, Operands: RoleRead, Negate: true, Untyped: []string{"install-types"}, Opts: []Opt{
	{Long: []string{"config-file"}, Val: RoleRead},
	{Long: []string{"cache-dir", "junit-xml", "html-report", "txt-report", "xml-report", "linecount-report", "any-exprs-report", "lineprecision-report", "cobertura-xml-report"}, Val: RoleWrite},
	{Short: "pmc", Long: []string{"package", "module", "command", "python-version", "platform", "exclude", "follow-imports", "always-true",
		"always-false", "enable-error-code", "disable-error-code", "custom-typeshed-dir", "shadow-file", "soft-error-limit"}, Val: RoleText},
	{Long: []string{"python-executable"}, Val: RoleProgram}, // mypy runs it to find site-packages
	{Short: "hV", Long: []string{"strict", "ignore-missing-imports", "non-interactive", "show-error-codes", "hide-error-codes", "incremental", "pretty",
		"show-column-numbers", "show-error-context", "show-absolute-path", "show-traceback", "check-untyped-defs", "disallow-untyped-defs",
		"disallow-incomplete-defs", "disallow-untyped-calls", "disallow-any-generics", "disallow-untyped-decorators", "disallow-subclassing-any",
		"warn-return-any", "warn-unused-ignores", "warn-redundant-casts", "warn-unreachable", "warn-unused-configs", "no-implicit-optional",
		"strict-optional", "implicit-reexport", "namespace-packages", "explicit-package-bases", "follow-untyped-imports", "local-partial-types",
		"allow-redefinition", "no-site-packages", "no-silence-site-packages", "skip-version-check", "skip-cache-mtime-checks", "sqlite-cache",
		"verbose", "version", "help", "color-output", "error-summary", "install-types", "scripts-are-modules", "strict-equality", "extra-checks"}},
}}

// preCommitSpec: pre-commit run|install|autoupdate…: -c/--config names
// the hooks' config (the hooks run); try-repo fetches hooks and runs
// them (grants' download-run).
var preCommitSpec = Spec{Instructions: true, Grant: GrantSub, Exec: runExec, Operands: RoleText, Opts: []Opt{
	{Short: "c", Long: []string{"config"}, Val: RoleRead},
	{Short: "tso", Long: []string{"hook-type", "hook-stage", "from-ref", "to-ref", "source", "origin", "remote-branch", "remote-name", "commit-msg-filename",
		"prepare-commit-message-source", "commit-object-name", "checkout-type", "is-squash-merge", "rewrite-command", "color", "repo", "jobs", "j"}, Val: RoleText},
	{Short: "afvV", Long: []string{"all-files", "files", "show-diff-on-failure", "verbose", "overwrite", "install-hooks", "allow-missing-config",
		"bleeding-edge", "freeze", "version", "help", "skip-on-missing-config"}},
}}

// untypedSubSpec: a tool with subcommands whose options guard does not
// type (pipx, uv, nix, gem, pixi, rustup, dotnet): every option is asked
// under a '*' grant, and the exec table finds their download-and-run
// forms (pipx run, uv tool run, nix run, gem exec, pixi exec, dotnet tool
// exec) and rustup run's command.
// gem's every use counted as an install before it had an entry; now gem
// install (and pixi install|add) do.
var untypedSubSpec = Spec{Installs: []string{"install", "add", "pip", "sync", "tool"}, InstallsFor: []string{"pipx", "uv", "gem", "pixi"}, Grant: GrantSub, GrantFor: []string{"uv", "nix", "gem", "rustup", "pixi"}, Exec: runExec, Sub: func(string) *Spec { return &unknownSpec }}

// dotnetSpec is untypedSubSpec for a build driver: dotnet build|test run
// the project's code; dotnet tool exec downloads a tool and runs it.
var dotnetSpec = Spec{Builds: true, Grant: GrantSub, Exec: runExec, Sub: func(string) *Spec { return &unknownSpec }}

var goSpec = Spec{Runs: []string{"go"}, SubRisk: goSubRisk, ReadOnly: goReadOnly, Instructions: true, Reaches: []string{"get", "mod", "install"}, Builds: true, Grant: GrantSub, Exec: goExec, Sub: goSub, Opts: []Opt{{Short: "C", Val: RoleDir}, {Long: []string{"version", "help"}}}}

func goSub(sub string) *Spec {
	switch sub {
	case "env":
		return &goEnvSpec
	case "run":
		return &goRunSpec
	case "test":
		return &goTestSpec
	}
	return &goBuildSpec
}

var goFlags = []Opt{
	{Long: []string{"exec", "toolexec", "vettool"}, Val: RoleProgram},
	{Long: []string{"o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "json-out", "test.coverprofile", "test.cpuprofile", "test.memprofile", "test.trace", "pgo",
		"test.blockprofile", "test.mutexprofile", "test.testlogfile"}, Val: RoleWrite},
	// -args passes the rest to the test binary, whose -test.* flags are typed here too
	{Long: []string{"C", "outputdir", "pkgdir", "test.outputdir", "test.gocoverdir", "test.fuzzcachedir"}, Val: RoleDir},
	{Long: []string{"overlay", "modfile"}, Val: RoleRead},
	{Long: []string{"ldflags", "gcflags", "asmflags", "gccgoflags", "compiler", "tags", "run", "skip", "bench", "timeout", "benchtime", "cpu", "p", "parallel", "mod", "covermode", "coverpkg", "buildmode", "buildvcs", "fuzztime", "fuzzminimizetime", "list", "installsuffix", "f", "test.run", "test.v", "vet", "debug-trace",
		"blockprofilerate", "memprofilerate", "mutexprofilefraction", "go", "compat", "droprequire", "require", "dropreplace", "exclude", "dropexclude", "retract",
		"dropretract", "toolchain", "godebug", "dropgodebug", "module", "http", "test.bench", "test.benchtime", "test.timeout", "test.short", "test.failfast",
		"test.parallel", "test.cpu", "test.skip", "test.fullpath", "test.paniconexit0"}, Val: RoleText},
	// a fresh run: -count (any: go test caches only runs without it), a
	// rebuild of everything, fuzzing and a shuffled order (random each run)
	{Long: []string{"count", "test.count", "fuzz", "shuffle", "test.shuffle"}, Val: RoleText, Fresh: true},
	{Long: []string{"a"}, Fresh: true},
	{Long: []string{"v", "x", "n", "i", "race", "msan", "asan", "cover", "short", "json", "trimpath", "linkshared", "work", "u", "t", "d", "m", "e", "fix", "insecure", "modcacherw", "c", "args",
		"failfast", "benchmem", "fullpath", "reuse", "find", "versions", "retracted", "compiled", "deps", "export", "test", "fmt", "print", "all", "src", "cmd", "short",
		"cache", "testcache", "modcache", "fuzzcache", "r", "tool", "diff", "changed", "help", "h", "test.benchmem"}},
}

// goUntyped: go mod edit -replace points a module at other code, perhaps
// outside the project; go vet's analyzer flags are too many to type.
var goUntyped = []string{"replace"}

var goBuildSpec = Spec{OneDash: true, Operands: RoleText, Opts: goFlags, Untyped: goUntyped}

// goTestSpec: go test hands the flags it does not know to the test binary
// (go test ./... -update): the project's own flags, text.
var goTestSpec = Spec{OneDash: true, Passthrough: true, Operands: RoleText, Opts: goFlags, Untyped: goUntyped}

// goRunSpec: go run PACKAGE ARGS…: after the package, the words are the
// program's own arguments.
var goRunSpec = Spec{OneDash: true, InOrder: true, First: RoleRead, Operands: RoleText, Opts: goFlags, Untyped: goUntyped}

var goEnvSpec = Spec{OneDash: true, Operands: RoleText, Opts: []Opt{{Long: []string{"w", "u", "json", "changed"}}}}

var gofmtSpec = Spec{Builds: true, ReadOnly: gofmtReadOnly, Grant: GrantPlain, OneDash: true, Operands: RoleRead, Opts: []Opt{
	{Long: []string{"w"}},
	{Long: []string{"r", "cpuprofile"}, Val: RoleText},
	{Long: []string{"l", "d", "e", "s"}},
}}

var makeSpec = Spec{WordRisk: makeWordRisk, ReadOnly: VersionUse, ReadOnlyFor: []string{"make"}, Exec: makeExec, Instructions: true, Builds: true, Grant: GrantTarget, Abbrev: true, Operands: RoleText, Opts: []Opt{
	{Short: "C", Long: []string{"directory"}, Val: RoleDir},
	{Short: "f", Long: []string{"file", "makefile"}, Val: RoleProgram},
	{Short: "E", Long: []string{"eval"}, Val: RoleScript},
	{Short: "I", Long: []string{"include-dir"}, Val: RoleDir},
	{Short: "o", Long: []string{"old-file", "assume-old"}, Val: RoleText},
	{Short: "W", Long: []string{"what-if", "new-file", "assume-new"}, Val: RoleText, Fresh: true}, // rebuild as if FILE changed
	{Short: "jlO", Long: []string{"jobs", "load-average", "max-load", "output-sync", "debug", "shuffle", "jobserver-style"}, Val: RoleText, Optional: true},
	{Short: "mhL", Long: []string{"help", "no-silent"}},
	{Short: "bdeiknpqrRsStvw", Long: []string{"environment-overrides", "ignore-errors", "keep-going", "just-print", "dry-run", "recon", "print-data-base", "question", "no-builtin-rules", "no-builtin-variables", "silent", "quiet", "no-keep-going", "stop", "touch", "trace", "version", "print-directory", "no-print-directory", "warn-undefined-variables", "check-symlink-times"}},
	{Short: "B", Long: []string{"always-make"}, Fresh: true},
}}

// npmSpec: npm takes every config key as an option on every command
// (npm config ls -l; testdata/options/npm.txt), with --no-KEY for the
// booleans. The keys that name a program npm runs (editor, shell,
// script-shell, git, node-options, browser, viewer, node-gyp,
// init-module) are programs; the directories and config files it uses
// are typed as such.
var npmSpec = Spec{Runs: []string{"bun"}, WordRisk: npmWordRisk, SubRisk: npmSubRisk, ReadOnly: VersionUse, Grant: GrantSub, GrantFor: []string{"npm", "yarn"}, Installs: npmInstalls, Builds: true, Exec: npmExec, Sub: npmSub, Negate: true, Opts: npmGlobal}

var npmGlobal = []Opt{
	{Short: "C", Long: []string{"prefix", "dir", "cwd"}, Val: RoleDir},
	{Long: []string{"pack-destination", "cache", "logs-dir", "nodedir"}, Val: RoleDir},
	{Short: "wF", Long: []string{"workspace", "filter", "network-timeout", "mode", "reporter", "workspace-concurrency", "resume-from", "depth"}, Val: RoleText},
	{Long: []string{"script-shell", "node-options", "shell", "editor", "git", "browser", "viewer", "node-gyp", "init-module", "init.module"}, Val: RoleProgram},
	{Short: "c", Long: []string{"call"}, Val: RoleProgram},
	{Long: []string{"userconfig", "globalconfig", "cafile"}, Val: RoleUse},
	{Long: []string{"provenance-file"}, Val: RoleRead},
	{Long: []string{"otp", "key"}, Val: RoleSecret},
	{Long: []string{"registry", "loglevel", "tag", "access", "allow-directory", "allow-file", "allow-git", "allow-remote", "allow-scripts", "also", "audit-level",
		"auth-type", "before", "ca", "cache-max", "cache-min", "cert", "cidr", "cpu", "depth", "diff", "diff-dst-prefix", "diff-src-prefix", "diff-unified",
		"expect-result-count", "expect-results", "expires", "fetch-retries", "fetch-retry-factor", "fetch-retry-maxtimeout", "fetch-retry-mintimeout", "fetch-timeout",
		"heading", "https-proxy", "include", "init-author-email", "init-author-name", "init-author-url", "init-license", "init-type", "init-version", "init.author.email",
		"init.author.name", "init.author.url", "init.license", "init.version", "install-strategy", "libc", "local-address", "location", "lockfile-version", "logs-max",
		"name", "maxsockets", "message", "min-release-age", "min-release-age-exclude", "noproxy", "omit", "only", "orgs", "optional", "os", "package", "packages",
		"preid", "production", "proxy", "replace-registry-host", "save-prefix", "sbom-format", "sbom-type", "scope", "scopes", "packages-and-scopes-permission",
		"orgs-permission", "token-description", "searchexclude", "searchlimit", "searchopts", "searchstaleness", "tag-version-prefix", "umask", "user-agent", "which",
		"workspaces", "npm-version"}, Val: RoleText},
	{Short: "gDSEOyPBfqdlpvshar", Long: []string{"global", "save-dev", "save", "save-exact", "yes", "silent", "quiet", "verbose", "version", "help", "usage", "ignore-scripts",
		"dry-run", "force", "workspaces", "include-workspace-root", "long", "json", "omit-lockfile-registry-resolved", "fund", "audit", "update-notifier", "all",
		"allow-same-version", "bin-links", "bypass-2fa", "color", "commit-hooks", "dangerously-allow-all-scripts", "description", "dev", "diff-ignore-all-space",
		"diff-name-only", "diff-no-prefix", "diff-text", "engine-strict", "foreground-scripts", "format-package-lock", "git-tag-version", "global-style", "if-present",
		"include-staged", "include-attestations", "init-private", "install-links", "legacy-bundling", "legacy-peer-deps", "link", "offline", "package-lock",
		"package-lock-only", "parseable", "allow-scripts-pending", "allow-scripts-pin", "prefer-dedupe", "prefer-offline", "prefer-online", "progress", "provenance",
		"read-only", "rebuild-bundle", "save-bundle", "save-optional", "save-peer", "save-prod", "packages-all", "shrinkwrap", "sign-git-commit", "sign-git-tag",
		"strict-peer-deps", "strict-allow-scripts", "strict-ssl", "timing", "unicode", "versions", "workspaces-update", "frozen-lockfile", "immutable", "recursive",
		// yarn's and pnpm's own
		"exact", "peer", "check-files", "ignore-engines", "pure-lockfile", "inline-builds", "shamefully-hoist", "aggregate-output", "parallel", "stream",
		"report-summary", "fix-lockfile", "lockfile-only", "prod", "no-optional", "workspace-root", "non-interactive", "no-lockfile", "production",
		"ignore-optional", "prefer-frozen-lockfile", "offline-mirror", "skip-integrity-check", "interactive", "latest", "caret", "tilde"}},
}

func npmSub(sub string) *Spec {
	switch sub {
	case "config", "c", "get":
		return &npmConfigSpec
	}
	return &npmSubSpec
}

// npmSubSpec: npm test, pnpm run build…: the script's own flags come
// after "--" (npm) or among the operands (pnpm, yarn, bun); those that ask
// the test runner or build tool for a fresh run are fresh here too.
var npmSubSpec = Spec{Negate: true, Operands: RoleUnknown, Opts: npmSubOpts, FreshOperands: scriptFreshFlags}

var npmSubOpts = append(npmGlobal[:len(npmGlobal):len(npmGlobal)], npmFreshOpt)

// npmFreshOpt: the package managers' own flags that skip a cache.
var npmFreshOpt = Opt{Long: []string{"no-cache", "clearCache", "clear-cache", "cache-clear", "skip-nx-cache", "rerun-tasks"}, Fresh: true}

// scriptFreshFlags are the flags of the common test runners and build
// tools that skip their caches: jest, vitest, pytest, turbo, nx, gradle.
var scriptFreshFlags = []string{"--no-cache", "--clearCache", "--clear-cache", "--cache-clear", "--force", "--skip-nx-cache", "--rerun-tasks", "--no-build-cache"}

// npmConfigSpec: npm config get KEY (npm get KEY) prints an auth key's
// token (secrets.go).
var npmConfigSpec = Spec{Operands: RoleUnknown, Opts: npmGlobal, EffectIf: npmEffect}

// pnpmSpec: pnpm's -w is --workspace-root, a flag (npm's takes a
// workspace): pnpm add -w PKG names the package PKG.
var pnpmSpec = Spec{WordRisk: npmWordRisk, SubRisk: npmSubRisk, ReadOnly: VersionUse, Installs: npmInstalls, Builds: true, Grant: GrantSub, Exec: npmExec, Sub: pnpmSub, Negate: true, Opts: pnpmGlobal}

var pnpmGlobal = append([]Opt{{Short: "w", Long: []string{"workspace-root"}}}, npmGlobal...)

func pnpmSub(sub string) *Spec {
	switch sub {
	case "config", "c", "get":
		return &pnpmConfigSpec
	}
	return &pnpmSubSpec
}

// pnpmConfigSpec: pnpm config get KEY prints an auth key's token, as npm's.
var pnpmConfigSpec = Spec{Negate: true, Operands: RoleUnknown, Opts: pnpmGlobal, EffectIf: npmEffect}

var pnpmSubSpec = Spec{Negate: true, Operands: RoleUnknown, Opts: pnpmSubOpts, FreshOperands: scriptFreshFlags}

var pnpmSubOpts = append(pnpmGlobal[:len(pnpmGlobal):len(pnpmGlobal)], npmFreshOpt)

// cargoSpec: cargo and its subcommands (cargo SUB --help;
// testdata/options/cargo.txt). --path and --git name code cargo builds and
// runs the build scripts of; --root and --target-dir are written.
var cargoSpec = Spec{ReadOnly: VersionSubUse, Instructions: true, Installs: []string{"install", "add", "publish"}, Builds: true, Grant: GrantSub, Exec: cargoExec, Sub: cargoSub, Opts: cargoGlobal}

var cargoGlobal = []Opt{
	{Short: "C", Val: RoleDir},
	{Long: []string{"config"}, Val: RoleProgram},
	{Short: "Z", Val: RoleText},
	{Long: []string{"manifest-path", "path"}, Val: RoleRead},
	{Short: "s", Long: []string{"sync"}, Val: RoleRead},
	{Long: []string{"target-dir", "artifact-dir", "out-dir", "root"}, Val: RoleWrite},
	{Long: []string{"token"}, Val: RoleSecret},
	{Short: "pjFWADe", Long: []string{"package", "jobs", "features", "target", "bin", "example", "test", "bench", "profile", "color", "exclude", "message-format",
		"warn", "allow", "deny", "forbid", "base", "branch", "charset", "depth", "index", "edges", "limit", "rename", "name", "precise", "prefix", "registry",
		"rev", "prune", "tag", "filter-platform", "git", "vcs", "format-version", "publish-time", "explain", "edition", "format"}, Val: RoleText},
	{Short: "i", Long: []string{"invert"}, Val: RoleText, Optional: true},
	{Short: "vqrVhnbwfdl", Long: []string{"verbose", "quiet", "release", "locked", "offline", "frozen", "all-features", "no-default-features", "workspace", "all", "all-targets",
		"lib", "bins", "tests", "examples", "benches", "doc", "no-run", "no-fail-fast", "version", "list", "help", "future-incompat-report", "keep-going", "unit-graph",
		"timings", "ignore-rust-version", "no-deps", "fix", "check", "open", "document-private-items", "dry-run", "default-features", "optional", "no-optional",
		"public", "no-public", "dev", "build", "recursive", "breaking", "force", "no-track", "debug", "no-dedupe", "duplicates", "edition-idioms", "broken-code",
		"allow-no-vcs", "allow-dirty", "allow-staged", "no-verify", "no-metadata", "exclude-lockfile", "no-delete", "respect-source-config", "versioned-dirs"}},
}

func cargoSub(sub string) *Spec {
	if sub == "tree" {
		return &cargoTreeSpec
	}
	return &cargoSubSpec
}

var cargoSubSpec = Spec{Operands: RoleUnknown, Opts: cargoGlobal}

// cargoTreeSpec: cargo tree -f FORMAT (elsewhere -f is --force).
var cargoTreeSpec = Spec{Operands: RoleUnknown, Opts: append([]Opt{{Short: "f", Long: []string{"format"}, Val: RoleText}}, cargoGlobal...)}

// pytestSpec: argparse, so unique prefixes resolve (--base is --basetemp).
var pytestSpec = Spec{Exec: pytestExec, Instructions: true, Builds: true, Abbrev: true, Operands: RoleRead, Opts: []Opt{
	{Long: []string{"basetemp", "junitxml", "junit-xml", "report-log", "log-file", "resultlog", "result-log", "html", "cov-report"}, Val: RoleWrite},
	{Long: []string{"debug"}, Val: RoleWrite, Optional: true},
	{Short: "c", Long: []string{"config-file", "confcutdir", "inifile"}, Val: RoleRead},
	{Long: []string{"rootdir"}, Val: RoleDir},
	{Short: "p", Long: []string{"pdbcls", "tx", "dist"}, Val: RoleProgram},
	{Long: []string{"pastebin"}, Val: RoleURL},
	{Short: "o", Long: []string{"override-ini"}, Val: RoleText},
	{Short: "k", Val: RolePattern},
	{Short: "mnr", Long: []string{"maxfail", "tb", "durations", "durations-min", "log-level", "log-cli-level", "log-format", "capture", "import-mode", "deselect", "ignore", "ignore-glob", "cov", "color", "code-highlight", "junit-prefix", "timeout", "numprocesses", "maxprocesses"}, Val: RoleText},
	{Long: []string{"cov-config"}, Val: RoleRead},
	{Short: "W", Long: []string{"pythonwarnings", "lfnf", "last-failed-no-failures", "verbosity", "show-capture", "doctest-report", "doctest-glob", "assert",
		"log-date-format", "log-cli-format", "log-cli-date-format", "log-file-mode", "log-file-level", "log-file-format", "log-file-date-format",
		"log-auto-indent", "log-disable", "cov-fail-under", "timeout-method", "reruns", "reruns-delay", "only-rerun"}, Val: RoleText},
	{Long: []string{"cache-show"}, Val: RoleText, Optional: true},
	{Short: "V", Long: []string{"funcargs", "fixtures-per-test", "sw-skip", "stepwise-skip", "no-fold-skipped", "disable-pytest-warnings", "no-showlocals", "xfail-tb",
		"full-trace", "strict-config", "continue-on-collection-errors", "pyargs", "noconftest", "keep-duplicates", "collect-in-virtualenv", "doctest-modules",
		"doctest-ignore-import-errors", "doctest-continue-on-failure", "trace-config", "setup-plan", "cov-append", "cov-branch", "no-cov", "no-cov-on-fail",
		"self-contained-html", "strict"}},
	{Short: "xqvslh", Long: []string{"exitfirst", "quiet", "verbose", "showlocals", "last-failed", "failed-first", "new-first", "collect-only", "co", "strict-markers", "pdb", "trace", "version", "help", "lf", "ff", "nf", "sw", "stepwise", "runxfail", "no-header", "no-summary", "disable-warnings", "setup-only", "setup-show", "fixtures", "markers"}},
	{Long: []string{"cache-clear"}, Fresh: true},
}}

var dockerSpec = Spec{WordRisk: dockerWordRisk, SubRisk: dockerSubRisk, ReadOnly: VersionSubUse, ReadOnlyFor: []string{"docker"}, Groups: []string{"container"}, WriteTarget: dockerWriteTarget, Instructions: true, Reaches: []string{"pull", "push", "login", "run", "build", "compose"}, Grant: GrantSub, Exec: dockerExec, Sub: dockerSub, Opts: []Opt{
	{Short: "H", Long: []string{"host"}, Val: RoleURL},
	{Short: "cl", Long: []string{"context", "log-level", "connection", "url", "namespace", "address"}, Val: RoleText},
	{Long: []string{"config"}, Val: RoleDir},
	{Long: []string{"tlscacert", "tlscert", "tlskey", "identity"}, Val: RoleUse},
	{Short: "Dv", Long: []string{"debug", "tls", "tlsverify", "version", "help"}},
}}

func dockerSub(sub string) *Spec {
	switch sub {
	case "run", "create", "exec":
		return &dockerRunSpec
	case "login":
		return &dockerLoginSpec
	case "build":
		return &dockerBuildSpec
	case "compose":
		return &dockerComposeSpec
	case "cp":
		return &dockerCpSpec
	case "buildx", "builder":
		return &dockerBuildxSpec
	}
	return &dockerOtherSpec
}

// dockerRunSpec: docker run IMAGE [COMMAND…]: options end at the image;
// the command runs inside the container, so it is text here.
//
// Left untyped: --use-api-socket hands the container the Docker API (the
// host, as root), --device-cgroup-rule opens host devices to it.
var dockerRunSpec = Spec{InOrder: true, First: RoleText, Operands: RoleText, Untyped: []string{"use-api-socket", "device-cgroup-rule"}, Opts: []Opt{
	{Short: "v", Long: []string{"volume", "mount", "volumes-from", "device"}, Val: RoleText},
	{Long: []string{"entrypoint"}, Val: RoleProgram},
	{Long: []string{"env-file", "cidfile", "label-file"}, Val: RoleRead},
	{Short: "eupwlhm", Long: []string{"env", "user", "publish", "workdir", "label", "hostname", "memory", "name", "network", "net", "pid", "ipc", "uts", "userns", "cap-add", "cap-drop", "security-opt", "platform", "restart", "cpus", "gpus", "shm-size", "ulimit", "add-host", "dns", "tmpfs", "log-driver", "log-opt", "runtime", "cgroupns", "stop-signal", "pull", "group-add"}, Val: RoleText},
	{Short: "ac", Long: []string{"annotation", "attach", "blkio-weight", "blkio-weight-device", "cgroup-parent", "cpu-count", "cpu-percent", "cpu-period", "cpu-quota", "cpu-rt-period",
		"cpu-rt-runtime", "cpu-shares", "cpuset-cpus", "cpuset-mems", "detach-keys", "device-read-bps", "device-read-iops", "device-write-bps",
		"device-write-iops", "dns-option", "dns-search", "domainname", "expose", "health-cmd", "health-interval", "health-retries", "health-start-interval",
		"health-start-period", "health-timeout", "io-maxbandwidth", "io-maxiops", "ip", "ip6", "isolation", "kernel-memory", "link", "link-local-ip",
		"mac-address", "memory-reservation", "memory-swap", "memory-swappiness", "network-alias", "oom-score-adj", "pids-limit", "stop-timeout", "storage-opt",
		"sysctl", "volume-driver"}, Val: RoleText},
	{Short: "itdPq", Long: []string{"interactive", "tty", "detach", "rm", "privileged", "init", "read-only", "publish-all", "quiet", "no-healthcheck", "oom-kill-disable",
		"disable-content-trust", "help", "sig-proxy"}},
}}

var dockerLoginSpec = Spec{Operands: RoleURL, Opts: []Opt{
	{Short: "p", Long: []string{"password"}, Val: RoleSecret},
	{Short: "u", Long: []string{"username"}, Val: RoleText},
	{Long: []string{"password-stdin"}},
}}

// dockerBuildSpec: docker build (legacy and buildx). --allow grants the
// build entitlements (network.host, security.insecure): untyped.
var dockerBuildSpec = Spec{Operands: RoleRead, Untyped: []string{"allow"}, Opts: []Opt{
	{Short: "f", Long: []string{"file"}, Val: RoleRead},
	{Short: "o", Long: []string{"output", "iidfile", "metadata-file"}, Val: RoleWrite},
	{Short: "t", Long: []string{"tag", "build-arg", "target", "platform", "label", "network", "cache-from", "cache-to", "progress", "add-host"}, Val: RoleText},
	{Long: []string{"secret", "ssh", "build-context"}, Val: RoleText}, // docker-build-host reads them by name
	{Long: []string{"no-cache", "pull"}, Fresh: true},                 // build every layer again; pull newer base images
	{Short: "cm", Long: []string{"cgroup-parent", "cpu-period", "cpu-quota", "cpu-shares", "cpuset-cpus", "cpuset-mems", "isolation", "memory", "memory-swap", "security-opt",
		"shm-size", "ulimit", "annotation", "attest", "builder", "call", "sbom", "provenance", "no-cache-filter", "cache-to", "cache-from"}, Val: RoleText},
	{Short: "q", Long: []string{"quiet", "load", "push", "rm", "force-rm", "compress", "disable-content-trust", "squash", "check", "help"}},
}}

// dockerBuildxSpec: docker buildx build (and docker builder build) is
// docker build.
var dockerBuildxSpec = Spec{Operands: RoleUnknown, Action: dockerBuildAction, Opts: []Opt{
	{Long: []string{"builder"}, Val: RoleText},
}}

func dockerBuildAction(a string) *Spec {
	if a == "build" || a == "b" {
		return &dockerBuildSpec
	}
	return nil
}

// dockerComposeSpec: docker compose [GLOBAL] ACTION [OPTIONS] (and
// docker-compose, podman-compose). run takes docker run's host options
// (-v, --privileged, --cap-add), which grants' exec table judges; the
// other actions' options are one list. Its compose file is its
// instructions (services, mounts, privileges): one from outside the
// project is not covered by docker-compose * (Instructions), as docker's.
// The options are docker.txt's, listed again in compose.txt.
var dockerComposeSpec = Spec{Instructions: true, Exec: dockerExec, Operands: RoleText, Action: composeAction, Opts: composeGlobal}

var composeGlobal = []Opt{
	{Short: "f", Long: []string{"file", "env-file"}, Val: RoleRead},
	{Long: []string{"project-directory"}, Val: RoleDir},
	{Short: "p", Long: []string{"project-name", "profile", "ansi", "progress", "parallel"}, Val: RoleText},
	{Long: []string{"compatibility", "dry-run", "all-resources", "verbose", "version", "help"}},
}

func composeAction(a string) *Spec {
	switch a {
	case "run", "exec", "create":
		return &composeRunSpec
	case "up", "down", "logs", "ps", "build", "pull", "push", "config", "restart", "stop", "start", "rm", "kill", "images", "top", "ls", "version", "pause", "unpause", "port", "events", "watch", "wait", "cp", "attach", "stats":
		return &composeOtherSpec
	}
	return nil
}

var composeRunSpec = Spec{InOrder: true, First: RoleText, Operands: RoleText, Untyped: []string{"use-api-socket"}, Opts: []Opt{
	{Short: "v", Long: []string{"volume", "mount", "device"}, Val: RoleText},
	{Long: []string{"entrypoint"}, Val: RoleProgram},
	{Long: []string{"env-from-file"}, Val: RoleRead},
	{Short: "euwlp", Long: []string{"env", "user", "workdir", "label", "publish", "name", "cap-add", "cap-drop", "pull", "index", "pid", "security-opt", "userns"}, Val: RoleText},
	{Short: "dTiqt", Long: []string{"detach", "rm", "privileged", "no-TTY", "tty", "interactive", "service-ports", "use-aliases", "no-deps", "build", "quiet-pull",
		"remove-orphans", "quiet", "quiet-build", "help"}},
}}

var composeOtherSpec = Spec{Operands: RoleText, Opts: []Opt{
	{Short: "o", Long: []string{"output"}, Val: RoleWrite},
	{Long: []string{"build-arg", "ssh", "builder", "memory", "exit-code-from", "scale", "wait-timeout", "pull", "attach", "no-attach", "rmi", "tail", "since", "until",
		"format", "filter", "status", "policy", "hash", "index", "signal", "timeout"}, Val: RoleText},
	{Short: "tnm", Val: RoleText},
	{Short: "v", Long: []string{"volumes"}},
	{Short: "dVyqwafsTL", Long: []string{"detach", "build", "no-build", "force-recreate", "no-recreate", "no-deps", "remove-orphans", "abort-on-container-exit",
		"abort-on-container-failure", "wait", "renew-anon-volumes", "no-start", "no-color", "no-log-prefix", "quiet-pull", "always-recreate-deps", "yes", "watch",
		"menu", "follow", "timestamps", "all", "quiet", "services", "no-cache", "push", "with-dependencies", "print", "check", "ignore-pull-failures",
		"include-deps", "images", "profiles", "resolve-image-digests", "no-interpolate", "no-normalize", "no-path-resolution", "variables", "environment",
		"force", "stop", "ignore-buildable", "no-trunc", "dry-run", "help"}},
}}

// dockerCpSpec: docker cp SRC DST, either side a container path (c:/x)
// or a host path: the last is written.
var dockerCpSpec = Spec{Operands: RoleRead, Last: RoleWrite, Opts: []Opt{
	{Short: "aLq", Long: []string{"archive", "follow-link", "quiet"}},
}}

// dockerOtherSpec: the rest of docker's subcommands (ps, images, logs,
// pull, push, tag, rm, rmi, stop, start, inspect, save, load, commit, …;
// testdata/options/docker.txt). save -o writes, load -i and import read;
// start --checkpoint-dir reads a checkpoint from a directory, untyped.
var dockerOtherSpec = Spec{Operands: RoleUnknown, Untyped: []string{"checkpoint-dir"}, Opts: []Opt{
	{Short: "o", Long: []string{"output"}, Val: RoleWrite},
	{Short: "i", Long: []string{"input"}, Val: RoleRead},
	{Short: "fnmcs", Long: []string{"format", "filter", "tail", "since", "until", "name", "message", "change", "author", "signal", "platform", "type", "time", "timeout",
		"limit", "last", "checkpoint", "detach-keys", "memory", "memory-swap", "cpu-period", "cpu-quota", "cpu-shares", "cpuset-cpus", "cpuset-mems",
		"blkio-weight", "kernel-memory", "memory-reservation", "pids-limit", "restart", "cpus", "cpu-rt-period", "cpu-rt-runtime"}, Val: RoleText},
	{Short: "aqltfvpHdz", Long: []string{"all", "quiet", "size", "latest", "no-trunc", "follow", "timestamps", "force", "volumes", "link", "digests", "tree", "details", "all-tags",
		"disable-content-trust", "no-prune", "attach", "interactive", "no-stream", "pause", "no-stdin", "sig-proxy", "human", "help", "compress", "squash", "depth"}},
}}

// hyperfineSpec: every operand is a command line hyperfine runs.
var hyperfineSpec = Spec{Operands: RoleProgram, Opts: []Opt{
	{Short: "p", Long: []string{"prepare"}, Val: RoleProgram},
	{Short: "c", Long: []string{"cleanup"}, Val: RoleProgram},
	{Short: "s", Long: []string{"setup"}, Val: RoleProgram},
	{Short: "S", Long: []string{"shell"}, Val: RoleProgram},
	{Long: []string{"export-json", "export-csv", "export-markdown", "export-asciidoc", "export-orgmode", "output"}, Val: RoleWrite},
	{Short: "wrmMnLPu", Long: []string{"warmup", "runs", "min-runs", "max-runs", "command-name", "parameter-scan", "parameter-step-size", "parameter-list", "time-unit", "style", "sort", "reference", "input", "conclude"}, Val: RoleText},
	{Short: "NiD", Long: []string{"ignore-failure", "show-output", "help", "version"}},
}}

// watchSpec: watchexec [OPTIONS] [--] COMMAND…: the operands are one
// command it runs on every change.
var watchSpec = Spec{InOrder: true, Operands: RoleProgram, Opts: []Opt{
	{Long: []string{"shell"}, Val: RoleProgram},
	{Short: "ewfiEdpsW", Long: []string{"exts", "watch", "filter", "ignore", "env", "debounce", "signal", "stop-signal", "on-busy-update", "delay-run", "project-origin", "workdir", "filter-file", "ignore-file", "poll", "emit-events-to", "exec"}, Val: RoleText},
	{Short: "rcnNoqvaz", Long: []string{"restart", "clear", "postpone", "notify", "no-vcs-ignore", "no-project-ignore", "no-global-ignore", "no-default-ignore", "quiet", "verbose"}},
}}

// mvnExec: goals of plugins that run what the command line says
// (exec:exec -Dexec.executable=X, antrun:run, groovy:execute), not
// what the project's POM says.
var mvnExec = []ExecRule{
	{ID: "mvn-exec", Check: checkMvnExec, Reason: "mvn exec:/antrun:/groovy: goals run a program or script the command line names"},
}

func checkMvnExec(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		if wd.Name != "" {
			continue
		}
		g := wd.Val
		if strings.HasPrefix(g, "exec:") || strings.HasPrefix(g, "antrun:") || strings.HasPrefix(g, "groovy:") || strings.HasPrefix(g, "gplus:") ||
			strings.Contains(g, "exec-maven-plugin:") || strings.Contains(g, "maven-antrun-plugin:") || strings.Contains(g, "groovy-maven-plugin:") ||
			strings.Contains(g, "gmavenplus-plugin:") {
			m.MarkWord(c, wd, "mvn "+g+" runs a program or script the command line names")
		}
	}
}

// cmakeExec: -D of a variable that makes cmake or the build run another
// program or read CMake code from elsewhere.
var cmakeExec = []ExecRule{
	{ID: "cmake-program", Check: checkCmakeProgram,
		Reason: "cmake -D…_LAUNCHER runs a program around every compile; -DCMAKE_TOOLCHAIN_FILE / CMAKE_PROJECT_INCLUDE outside the project run its CMake code"},
}

func checkCmakeProgram(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		if wd.Name != "D" {
			continue
		}
		k, v, _ := strings.Cut(wd.Val, "=")
		k, _, _ = strings.Cut(k, ":") // KEY:TYPE=VALUE
		switch {
		case strings.HasSuffix(k, "_LAUNCHER"), k == "CMAKE_LINKER" && m.OutsideProject(c, v):
			m.MarkWord(c, wd, "cmake -D"+k+" runs "+v)
		case (k == "CMAKE_TOOLCHAIN_FILE" || strings.HasPrefix(k, "CMAKE_PROJECT_") && strings.Contains(k, "INCLUDE")) && m.OutsideProject(c, v):
			m.MarkWord(c, wd, "cmake -D"+k+" runs CMake code from outside the project")
		}
	}
}

// entrSpec: entr [-acdnprsz] UTILITY [ARGUMENT…]: the operands are the
// command it runs on every change (with -s, the first is a shell
// command line). Its letters are flags, unlike watchexec's.
var entrSpec = Spec{InOrder: true, Operands: RoleProgram, Opts: []Opt{
	{Short: "acdnprsz"},
}}

// ccSpec: the C and C++ compilers (gcc, clang): one-dash options, many
// with their value joined (-O2, -Wall, -fPIC, -I/x, -DX=1, -lm;
// testdata/options/gcc.txt). -B, -wrapper and -specs make them run
// programs from elsewhere, -o and -MF write; -fplugin= and -fuse-ld=PATH
// (a value of -f) are judged by grants' exec table.
var ccSpec = Spec{ReadOnly: VersionUse, ReadOnlyFor: []string{"gcc", "clang"}, Builds: true, Exec: ccExec, OneDash: true, Operands: RoleRead, Joined: []string{"O", "W", "f", "m", "g", "I", "D", "U", "L", "l", "B", "std=", "print-", "iquote", "isystem", "idirafter", "x"}, Opts: []Opt{
	{Long: []string{"o", "MF", "save-temps="}, Val: RoleWrite},
	{Long: []string{"B", "wrapper", "specs", "fplugin"}, Val: RoleProgram},
	{Long: []string{"include", "imacros", "T"}, Val: RoleRead},
	{Long: []string{"O", "W", "f", "m", "g", "print-"}, Val: RoleText, Optional: true},
	{Long: []string{"I", "D", "U", "L", "l", "x", "MT", "MQ", "isystem", "iquote", "idirafter", "isysroot", "sysroot", "Xlinker", "Xassembler", "Xpreprocessor",
		"std", "target", "arch", "e", "u", "z", "param", "imultilib", "iprefix", "iwithprefix", "framework", "F", "aux-info", "dumpbase", "dumpdir",
		"include-pch", "ccc-gcc-name"}, Val: RoleText},
	{Long: []string{"c", "S", "E", "v", "w", "s", "p", "pg", "shared", "static", "static-libgcc", "static-libstdc++", "static-pie", "pthread", "pipe", "pie",
		"no-pie", "rdynamic", "M", "MM", "MD", "MMD", "MP", "MG", "C", "CC", "P", "H", "ansi", "pedantic", "pedantic-errors", "save-temps", "time",
		"nostdlib", "nostdinc", "nostdinc++", "nodefaultlibs", "nostartfiles", "nolibc", "dumpversion", "dumpmachine", "dumpspecs", "help", "version",
		"target-help", "pass-exit-codes", "Q", "undef", "trigraphs", "traditional", "traditional-cpp", "symbolic", "r", "bundle", "dynamiclib",
		"print-search-dirs", "print-libgcc-file-name", "print-multiarch", "print-sysroot", "no-canonical-prefixes", "emit-llvm", "Qunused-arguments",
		"coverage", "integrated-cpp", "X", "t", "shared-libgcc"}},
}}

var rustcSpec = Spec{ReadOnly: VersionUse, Builds: true, Operands: RoleRead, Opts: []Opt{
	{Short: "o", Val: RoleWrite},
	{Long: []string{"out-dir"}, Val: RoleWrite},
	{Short: "LlCW", Long: []string{"edition", "crate-type", "crate-name", "emit", "target", "cfg", "cap-lints", "explain"}, Val: RoleText},
	{Short: "gOvV", Long: []string{"test", "version", "verbose", "help"}},
}}

// javaSpec: java -jar FILE and a class name both run a program.
var javaSpec = Spec{InOrder: true, OneDash: true, Operands: RoleText, First: RoleProgram, Opts: []Opt{
	{Long: []string{"jar"}, Val: RoleProgram},
	{Long: []string{"cp", "classpath", "p", "module-path"}, Val: RoleText},
	{Long: []string{"javaagent", "agentpath", "agentlib"}, Val: RoleProgram, Optional: true},
	{Long: []string{"version", "showversion", "help", "server", "client", "ea", "da"}},
}}

var pipSpec = Spec{ReadOnly: VersionUse, Installs: []string{"install", "add", "pip", "sync", "tool"}, Grant: GrantSub, Sub: pipSub}

func pipSub(string) *Spec { return &pipSubSpec }

var pipSubSpec = Spec{Operands: RoleText, Opts: []Opt{
	{Short: "r", Long: []string{"requirement", "constraint"}, Val: RoleRead},
	{Short: "te", Long: []string{"target", "editable", "prefix", "root", "src", "cache-dir"}, Val: RoleWrite},
	{Short: "ic", Long: []string{"index-url", "extra-index-url", "find-links", "proxy", "cert", "client-cert"}, Val: RoleText},
	{Short: "UVqv", Long: []string{"upgrade", "user", "no-deps", "pre", "version", "quiet", "verbose", "help", "break-system-packages"}},
}}

// cargoExec is the exec-capable argument table of cargoSpec's programs (see [ExecRule]).
var cargoExec = []ExecRule{
	{ID: "cargo-config", Opts: []string{"config", "Z"},
		Reason: "cargo --config can set build.rustc-wrapper and other programs cargo runs"},
}

// dockerExec is the exec-capable argument table of docker, podman and
// nerdctl, and of docker-compose and podman-compose, which hold only
// compose-host (see [ExecRule]).
var dockerExec = []ExecRule{
	{ID: "docker-daemon", Only: dockerNames, Global: true, Opts: []string{"H", "host", "context", "c", "url", "connection"},
		Reason: "docker -H/--host/--context sends the command to another daemon"},
	{ID: "docker-host", Only: dockerNames, Sub: []string{"run", "exec", "create"},
		Opts:   []string{"volume", "mount", "device", "volumes-from", "privileged", "cap-add", "pid", "userns", "security-opt", "v"},
		Reason: "docker run|exec with host mounts or --privileged reaches the host"},
	{ID: "docker-plugin", Only: dockerNames, Sub: []string{"plugin"}, Words: []string{"install", "create", "enable", "upgrade", "set"},
		Reason: "docker plugin install|enable runs a plugin as root on the host"},
	{ID: "compose-host", Check: checkComposeHost,
		Reason: "docker compose run|exec with host mounts or --privileged reaches the host"},
	{ID: "docker-build-host", Only: dockerNames, Check: checkDockerBuildHost,
		Reason: "docker build --build-context or --secret src= outside the project, or --ssh, hands the build files or keys of the host"},
}

// checkDockerBuildHost marks what a build is given of the host beyond
// its context: --build-context NAME=PATH and --secret …,src=PATH outside
// the project, and --ssh (the agent's keys).
func checkDockerBuildHost(c *Command, p Parsed, m Marker) {
	const why = "docker build --build-context or --secret src= outside the project, or --ssh, hands the build files or keys of the host"
	for _, wd := range p.Words {
		switch wd.Name {
		case "ssh":
			m.MarkWord(c, wd, why)
		case "build-context":
			_, v, _ := strings.Cut(wd.Val, "=")
			if !strings.Contains(v, "://") && !strings.HasPrefix(v, "git@") && m.OutsideProject(c, v) {
				m.MarkWord(c, wd, why)
			}
		case "secret":
			for _, kv := range strings.Split(wd.Val, ",") {
				if k, v, _ := strings.Cut(kv, "="); (k == "src" || k == "source") && m.OutsideProject(c, v) {
					m.MarkWord(c, wd, why)
				}
			}
		}
	}
}

// checkComposeHost marks compose run's host options (docker compose run
// -v /:/h, docker-compose run --privileged), typed by compose's spec.
func checkComposeHost(c *Command, p Parsed, m Marker) {
	if c.Name != "docker-compose" && c.Name != "podman-compose" && p.SubName(c.Args) != "compose" {
		return
	}
	for _, wd := range p.Words {
		if slices.Contains(composeHostOpts, wd.Name) || Unresolved(wd, composeHostOpts...) {
			m.MarkWord(c, wd, "docker compose run|exec with host mounts or --privileged reaches the host")
		}
	}
}

// composeHostOpts are docker compose run's options that reach the host.
var composeHostOpts = []string{"volume", "mount", "device", "privileged", "cap-add", "pid", "userns", "security-opt", "v"}

// ccExec is the exec-capable argument table of ccSpec's programs (see [ExecRule]).
var ccExec = []ExecRule{
	{ID: "cc-plugin", Check: checkCCPlugin,
		Reason: "gcc/clang -fplugin, -fuse-ld=PATH or -Wl,--plugin load or run a program"},
}

// checkCCPlugin marks the compiler's values of -f and -W that load or
// run a program: -fplugin-arg-…, -fuse-ld=/path (clang runs any linker
// named by a path), -Wl,-plugin / --plugin.
func checkCCPlugin(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		v := strings.ToLower(wd.Val)
		switch {
		case wd.Name == "f" && (strings.HasPrefix(v, "plugin") || strings.HasPrefix(v, "use-ld=") && strings.Contains(v, "/")),
			wd.Name == "W" && strings.Contains(v, "plugin"):
			m.MarkWord(c, wd, "gcc/clang -fplugin, -fuse-ld=PATH or -Wl,--plugin load or run a program")
		}
	}
}

// ghExec is the exec-capable argument table of ghSpec's programs (see [ExecRule]).
var ghExec = []ExecRule{
	{ID: "gh-editor", Sub: []string{"pr", "issue"}, Opts: []string{"editor"},
		Reason: "gh pr|issue -e/--editor runs the configured text editor"},
	{ID: "gh-config", Check: checkGh,
		Reason: "gh config set of a program or socket, gh alias set and gh extension install run programs"},
	{ID: "gh-send", Check: checkGhSend,
		Reason: "gh api -X PUT|PATCH|DELETE changes a repository's settings or access; gh gist create and release upload send files from outside the project"},
	{ID: "gh-local", Check: checkGhLocal,
		Reason: "gh repo|gist clone DIR and gh codespace cp write (or send) local files outside the project"},
}

// ghOperands returns the operands after gh's area (the action first:
// clone, set, create).
func ghOperands(p Parsed) []Word {
	var ops []Word
	for _, wd := range p.Words {
		if wd.Name == "" && wd.Arg > p.Sub {
			ops = append(ops, wd)
		}
	}
	return ops
}

// checkGhLocal marks the local paths gh writes or reads that no option
// names: the directory gh repo clone and gh gist clone make (their second
// operand), and gh codespace cp's local operands (any not spelled
// remote:PATH): the last one is written, the others are uploaded.
func checkGhLocal(c *Command, p Parsed, m Marker) {
	ops := ghOperands(p)
	if len(ops) == 0 {
		return
	}
	sub, act := p.SubName(c.Args), ops[0].Val
	var local []Word
	switch {
	case (sub == "repo" || sub == "gist") && act == "clone" && len(ops) > 2:
		local = ops[2:3]
	case (sub == "codespace" || sub == "cs") && act == "cp":
		for _, wd := range ops[1:] {
			if !strings.HasPrefix(wd.Val, "remote:") {
				local = append(local, wd)
			}
		}
	}
	for _, wd := range local {
		if m.OutsideProject(c, wd.Val) {
			m.MarkWord(c, wd, "gh "+sub+" "+act+" writes or sends "+wd.Val+", outside the project")
		}
	}
}

// ghUploads are the gh actions whose operands (after the ones named in
// skip) are local files they upload: a gist's files, a release's assets.
var ghUploads = []struct {
	sub, act string
	skip     int
}{{"gist", "create", 0}, {"gist", "new", 0}, {"gist", "edit", 1}, {"release", "create", 1}, {"release", "new", 1}, {"release", "upload", 1}}

// checkGhSend marks gh api with a method that changes or deletes (PUT,
// PATCH, DELETE: a visibility change, a collaborator added, a repository
// deleted) and a file from outside the project that gh gist create or gh
// release create|upload would publish.
func checkGhSend(c *Command, p Parsed, m Marker) {
	const why = "gh api -X PUT|PATCH|DELETE changes a repository's settings or access; gh gist create and release upload send files from outside the project"
	sub := p.SubName(c.Args)
	var ops []Word
	for _, wd := range p.Words {
		switch {
		case sub == "api" && (wd.Name == "X" || wd.Name == "method"):
			if v := strings.ToUpper(strings.TrimSpace(wd.Val)); v != "GET" && v != "POST" && v != "HEAD" {
				m.MarkWord(c, wd, why)
			}
		case wd.Name == "" && wd.Arg > p.Sub:
			ops = append(ops, wd)
		}
	}
	for _, u := range ghUploads {
		if sub != u.sub || len(ops) == 0 || ops[0].Val != u.act {
			continue
		}
		for k, wd := range ops[1:] {
			file, _, _ := strings.Cut(wd.Val, "#") // release assets take FILE#LABEL
			if k >= u.skip && m.OutsideProject(c, file) {
				m.MarkWord(c, wd, why)
			}
		}
	}
}

// ghConfigKeys are the gh settings gh config set may set under a '*'
// grant; editor, browser, pager and http_unix_socket name programs or a
// socket.
var ghConfigKeys = []string{"git_protocol", "prompt", "spinner", "color_labels", "accessible_colors", "accessible_prompter"}

// checkGh marks gh config set of a key not known to be harmless, gh alias
// set|import (an alias may be !shell) and gh extension
// install|upgrade|exec|create (they download and run code).
func checkGh(c *Command, p Parsed, m Marker) {
	ops := ghOperands(p)
	if len(ops) == 0 {
		return
	}
	act := ops[0].Val
	risky := false
	switch p.SubName(c.Args) {
	case "config":
		risky = act == "set" && (len(ops) < 2 || !slices.Contains(ghConfigKeys, ops[1].Val))
	case "alias":
		risky = act == "set" || act == "import"
	case "extension", "ext", "extensions":
		risky = act == "install" || act == "upgrade" || act == "exec" || act == "create"
	}
	if !risky {
		return
	}
	for i := p.Sub; i < len(c.Args); i++ {
		m.Mark(i, "gh config set of a program or socket, gh alias set and gh extension install run programs")
	}
}

// goExec is the exec-capable argument table of goSpec's programs (see [ExecRule]).
var goExec = []ExecRule{
	{ID: "go-elsewhere", Check: checkGoElsewhere,
		Reason: "go -ldflags=-extld, -compiler, -gccgoflags run another program; -o or profile outputs outside the project write elsewhere"},
	{ID: "go-exec", Sub: []string{"test", "run", "build", "install", "vet", "generate", "list", "get", "mod", "tool", "fix"},
		Opts:   []string{"exec", "toolexec", "vettool", "overlay", "modfile", "C"},
		Reason: "go -exec/-toolexec/-vettool/-overlay runs another program or reads build inputs from elsewhere"},
}

// checkGoElsewhere marks go's options that run another program
// (-ldflags=-extld, -compiler, -gccgoflags) and outputs that leave the
// project (-o, -coverprofile, -cpuprofile, … with an absolute path, ~ or ..).
func checkGoElsewhere(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		switch {
		case wd.Name == "ldflags" && !toolFlagsSafe(wd.Val, ldflagsSafe),
			wd.Name == "gcflags" && !toolFlagsSafe(wd.Val, gcflagsSafe),
			wd.Name == "compiler", wd.Name == "gccgoflags", wd.Name == "asmflags" && strings.Contains(wd.Val, "-"):
			m.MarkWord(c, wd, "go -"+wd.Name+" runs another program")
		case slices.Contains(goOutputs, wd.Name) && (strings.HasPrefix(wd.Val, "/") || strings.HasPrefix(wd.Val, "~") || strings.Contains(wd.Val, "..")):
			m.MarkWord(c, wd, "go -"+wd.Name+" writes outside the project")
		}
	}
}

// toolFlagsSafe reports a -ldflags or -gcflags value (optionally after a
// PATTERN=, as in all=-N -l) whose every flag is one of safe, by name
// (a value after = or as the next word, as -X name=value, is the flag's).
func toolFlagsSafe(v string, safe []string) bool {
	if k := strings.IndexByte(v, '='); k > 0 && !strings.HasPrefix(v, "-") {
		v = v[k+1:] // all=-N -l, ./...=-m
	}
	f := strings.Fields(strings.NewReplacer("'", " ", "\"", " ").Replace(v))
	for i := 0; i < len(f); i++ {
		name, _, _ := strings.Cut(f[i], "=")
		name = "-" + strings.TrimLeft(name, "-")
		switch {
		case slices.Contains(safe, f[i]), slices.Contains(safe, name):
			if (name == "-X" || name == "-lang") && !strings.Contains(f[i], "=") {
				i++ // -X main.version=1: its value is the next word
			}
		default:
			return false
		}
	}
	return true
}

// goOutputs are go's options that write a file.
var goOutputs = []string{"o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir", "json", "pgo"}

// ldflagsSafe and gcflagsSafe are the linker's and compiler's flags that
// only change the binary built: strip symbols, set a string variable
// (-X name=value), turn optimisation or inlining off, print decisions.
// Any other flag may run or load another program (-extld, -extldflags,
// -linkmode=external, -I interpreter, -r rpath) or write files (-cpuprofile,
// -d=ssa/…/dump), and a '*' grant does not cover it.
var (
	ldflagsSafe = []string{"-s", "-w", "-X", "-buildid", "-race", "-v", "-checklinkname", "-strictdups", "-compressdwarf", "-dumpdep"}
	gcflagsSafe = []string{"-N", "-l", "-m", "-S", "-B", "-C", "-e", "-h", "-L", "-w", "-K", "-live", "-std", "-race", "-complete", "-lang", "-json", "-d=checkptr", "-wb", "-smallframes", "-spectre"}
)

// npmInstallSubs are the npm subcommands that install the packages their
// operands name.
var npmInstallSubs = []string{"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add", "update", "up", "upgrade", "udpate", "ci", "install-test", "it", "install-ci-test", "cit", "clean-install", "ic"}

// checkNpmInstall marks a package named by a path outside the project
// (npm install ~/x, ../other, file:/x, /tmp/x.tgz): npm runs its
// lifecycle scripts. A package's name (left-pad, @scope/x, x@1, a git or
// https URL) is the registry's, as under any npm * grant.
func checkNpmInstall(c *Command, p Parsed, m Marker) {
	if !slices.Contains(npmInstallSubs, p.SubName(c.Args)) {
		return
	}
	for _, wd := range p.Operands() {
		v := strings.TrimPrefix(wd.Val, "file:")
		if i := strings.IndexByte(v, '@'); i > 0 && !strings.ContainsAny(v[:i], "/.~") {
			continue // name@version
		}
		if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, ".") || strings.HasPrefix(wd.Val, "file:") {
			if m.OutsideProject(c, v) {
				m.Mark(wd.Arg, "npm install DIR runs the install scripts of a package from outside the project")
			}
		}
	}
}

// npmExec is the exec-capable argument table of npm, yarn, bun (npm's
// spec) and pnpm (see [ExecRule]).
var npmExec = []ExecRule{
	{ID: "npm-install-path", Check: checkNpmInstall,
		Reason: "npm install DIR runs the install scripts of a package from outside the project"},
	{ID: "npm-shell", Only: []string{"npm", "pnpm", "yarn", "bun"}, Opts: []string{"script-shell", "node-options"},
		Reason: "npm --script-shell/--node-options runs scripts through another program"},
	{ID: "npm-exec", Sub: []string{"exec", "x", "dlx", "explore"}, Rest: true,
		Reason: "npm exec/npx runs a package's program"},
}

// gofmtReadOnly: gofmt -l/-d prints; -w rewrites the files.
func gofmtReadOnly(_ *Command, p Parsed) bool {
	return !p.Has("w")
}

// npmInstalls are the subcommands of npm, yarn, bun and pnpm that install
// packages (or fetch and run one: exec, dlx, x) or publish.
var npmInstalls = []string{"install", "i", "add", "ci", "update", "upgrade", "exec", "dlx", "x", "publish"}

// pytestOptions are pytest's options, by the spec's names, that write,
// delete, upload, or load code and configuration from elsewhere (-c is
// config-file, -p pdbcls, -o override-ini); the letters catch what the
// spec cannot type.
var pytestOptions = []string{"basetemp", "junitxml", "junit-xml", "junitprefix", "debug", "pastebin", "rootdir",
	"confcutdir", "inifile", "override-ini", "result-log", "resultlog", "log-file", "cov-report", "report-log", "html",
	"json-report-file", "config-file", "pdbcls", "cache-dir", "c", "p", "o"}

// checkPytest marks pytest's dangerous options, for pytest itself and for
// python -m pytest (its arguments typed with pytest's spec).
func checkPytest(c *Command, p Parsed, m Marker) {
	p, ok := pytestModule(c, p, m.Parse)
	if !ok {
		return
	}
	for _, wd := range p.Words {
		if wd.Name == "pdbcls" && strings.HasPrefix(wd.Val, "no:") || wd.Name == "p" && strings.HasPrefix(wd.Val, "no:") {
			continue // -p no:NAME turns a plugin off
		}
		if slices.Contains(pytestOptions, wd.Name) || Unresolved(wd, pytestOptions...) {
			m.MarkWord(c, wd, "pytest --"+wd.Name+" writes, deletes, uploads or loads code from elsewhere")
		}
	}
}

// PytestWords returns the words of pytest, or of python -m pytest typed
// with pytest's spec (their Arg still indexes c.Args); ok is false for
// another python command.
func PytestWords(c *Command, p Parsed) (Parsed, bool) {
	return pytestModule(c, p, ParseCommand)
}

// pytestModule is PytestWords with the argument model given: a check in
// a spec's own entry cannot name the model (an initialization cycle), so
// it passes its Marker's Parse.
func pytestModule(c *Command, p Parsed, parse func(name string, args []string) Parsed) (Parsed, bool) {
	if c.Name == "pytest" || c.Name == "py.test" {
		return p, true
	}
	k := -1
	for _, wd := range p.Words {
		if wd.Name == "m" && wd.Val == "pytest" {
			k = wd.Arg
			break
		}
	}
	if k < 0 {
		return p, false
	}
	q := parse("pytest", append([]string{"pytest"}, c.Args[k+1:]...))
	for i := range q.Words {
		q.Words[i].Arg += k
	}
	return q, true
}

// makeProgramVars name programs make runs.
var makeProgramVars = []string{"SHELL", "MAKESHELL", "CC", "CXX", "CPP", "LD", "AR", "AS", "RM", "MAKE", "INSTALL", "GO", "CARGO", "PYTHON", "NODE", "NPM", "DOCKER", "KUBECTL", "CURL", "SED", "AWK", "PERL"}

// makeFlagVars hold options make reads as if given on its command line.
var makeFlagVars = []string{"MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS"}

// makeFlagsRisky judges the options in a MAKEFLAGS value as make's own
// command line, typed by make's spec: MAKEFLAGS=--eval=X is make
// --eval=X. A first word without a dash is a bundle of letters
// (MAKEFLAGS=ks is -ks). Anything but flags and plain values (a makefile,
// a directory, --eval text, an option the spec does not know, a
// variable definition) is risky.
func makeFlagsRisky(c *Command, val string, parse func(name string, args []string) Parsed) bool {
	args := append([]string{c.Name}, strings.Fields(val)...)
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && !strings.Contains(args[1], "=") {
		args[1] = "-" + args[1]
	}
	p := parse(c.Name, args)
	if p.Unknown {
		return true
	}
	for _, wd := range p.Words {
		if wd.Role != RoleFlag && (wd.Name == "" || wd.Role != RoleText) {
			return true
		}
	}
	return false
}

// checkMakeVars marks command-line variables that run code: any value with
// $(, ` or ; in it (VAR:=$(shell …)), and program variables set to
// anything but a plain name.
func checkMakeVars(c *Command, p Parsed, m Marker) {
	for _, wd := range p.Words {
		k := strings.IndexByte(wd.Val, '=')
		if wd.Name != "" || k <= 0 || strings.HasPrefix(wd.Val, "-") {
			continue
		}
		name := strings.TrimRight(wd.Val[:k], ":+?!")
		val := wd.Val[k+1:]
		if slices.Contains(makeFlagVars, name) && makeFlagsRisky(c, val, m.Parse) {
			m.Mark(wd.Arg, "make "+name+"= passes make options that run other programs or read other makefiles")
			continue
		}
		if strings.ContainsAny(val, "$`;|&") || slices.Contains(makeProgramVars, name) && strings.ContainsAny(val, "/ ") {
			m.Mark(wd.Arg, "make "+name+"= runs other programs")
		}
	}
}

// makeExec is make's exec-capable argument table (see [ExecRule]).
var makeExec = []ExecRule{
	{ID: "make-vars", Check: checkMakeVars,
		Reason: "make VAR:=$(shell …) or a program variable (CC=, SHELL=) set on the command line runs other programs"},
	{ID: "make-shell", Opts: []string{"file", "eval", "f", "E"}, Words: []string{"SHELL=*", "MAKESHELL=*", ".SHELLFLAGS=*"},
		Reason: "make -f/SHELL=/--eval runs other commands"},
}

// pytestExec is pytest's exec-capable argument table, and python's for
// python -m pytest (see [ExecRule]).
var pytestExec = []ExecRule{
	{ID: "pytest-files", Only: []string{"pytest", "py.test", "python", "python3", "python2", "pypy", "pypy3"}, Check: checkPytest,
		Reason: "pytest --basetemp deletes a directory; --junitxml/--debug/-o write files; -c/-p/--rootdir load code and config from elsewhere; --pastebin uploads"},
}

// dockerWriteTarget: docker build --output takes type=local,dest=PATH (a
// path alone is dest); type=registry and type=image name nothing here.
func dockerWriteTarget(wd Word) (string, bool) {
	if (wd.Name == "output" || wd.Name == "o") && strings.Contains(wd.Val, "=") {
		for _, kv := range strings.Split(wd.Val, ",") {
			if k, v, _ := strings.Cut(kv, "="); k == "dest" {
				return v, true
			}
		}
		return "", false
	}
	return wd.Val, true
}

// dockerNames are the programs of docker's own spec (docker-compose's is
// another).
var dockerNames = []string{"docker", "podman", "nerdctl"}

// goReadOnly: go env prints the settings (go env -w/-u writes them), and
// go version, go --version print the version.
func goReadOnly(c *Command, p Parsed) bool {
	if len(c.Args) >= 2 && c.Args[1] == "env" {
		return !p.Has("w", "u")
	}
	return VersionSubUse(c, p)
}

// makeWordRisk: make VAR=VALUE whose value makes the build run other
// programs (CFLAGS=-B/tmp: gcc runs programs from there).
func makeWordRisk(_ *Command, _ string, wd Word, _ Parsed) string {
	if wd.Role != RoleText {
		return ""
	}
	if k := strings.IndexByte(wd.Val, '='); k > 0 && wd.Name == "" {
		v := wd.Val[k+1:]
		for _, bad := range []string{"-B", "-wrapper", "-fplugin", "-specs", "--sysroot", "-load", "$(shell", "${shell", "-exec"} {
			if strings.Contains(v, bad) {
				return "make " + wd.Val[:k] + "= makes the build run other programs"
			}
		}
	}
	return ""
}

// dockerWordRisk: options that reach the host (docker run --network
// host, -v, --privileged).
func dockerWordRisk(c *Command, _ string, wd Word, _ Parsed) string {
	switch wd.Role {
	case RoleText:
		switch wd.Name {
		case "network", "net", "pid", "ipc", "uts", "userns", "cgroupns":
			if wd.Val == "host" {
				return c.Name + " --" + wd.Name + " host reaches the host"
			}
		case "v", "volume", "mount":
			return c.Name + " -v/--mount shares host files with the container"
		}
	case RoleFlag:
		if wd.Name == "privileged" {
			return c.Name + " --privileged reaches the host"
		}
	}
	return ""
}

// dockerSubRisk: docker login/logout store credentials outside the
// project; docker context use|create|update|import sends later commands
// to another daemon.
func dockerSubRisk(c *Command, p Parsed, sub string) string {
	switch sub {
	case "login", "logout":
		return c.Name + " " + sub + " stores or changes registry credentials outside the project"
	case "context":
		if ops := p.Operands(); len(ops) > 0 {
			switch ops[0].Val {
			case "use", "create", "update", "import":
				return c.Name + " context " + ops[0].Val + " sends later commands to another daemon"
			}
		}
	}
	return ""
}

// npmWordRisk: npm -g installs outside the project.
func npmWordRisk(c *Command, _ string, wd Word, _ Parsed) string {
	if wd.Role == RoleFlag && (wd.Name == "global" || wd.Name == "g") {
		return c.Name + " -g installs outside the project"
	}
	return ""
}

// npmAccountSubs are the subcommands of npm (pnpm, yarn, bun) that a '*'
// grant does not cover, by what they do: store the user's credentials
// outside the project, publish the project, change what the registry
// holds, or change the tool's settings for every project.
var npmAccountSubs = []struct {
	subs []string
	why  string
}{
	{[]string{"login", "adduser", "add-user", "logout", "token"}, "stores or changes registry credentials outside the project"},
	{[]string{"publish", "unpublish", "deprecate", "undeprecate", "dist-tag", "dist-tags", "owner", "author", "access", "team", "org", "profile", "star", "unstar", "hook"}, "publishes or changes what the registry holds"},
	{[]string{"set"}, "changes npm's settings (script-shell, prefix) outside the project"},
	{[]string{"link", "ln", "unlink"}, "writes links in the global prefix, outside the project"},
}

// npmPkgKeys are the package.json keys npm pkg set may set under a '*'
// grant (a trailing "." covers a section): they describe the package.
// scripts, bin, config and the rest change what npm runs.
var npmPkgKeys = []string{"name", "version", "description", "keywords", "author", "contributors", "license", "homepage", "repository", "bugs",
	"private", "type", "engines", "files", "main", "module", "types", "typings", "exports", "sideEffects", "funding", "browserslist"}

// npmConfigKeys are the npm settings npm config set may set under a '*'
// grant: how npm prints, saves and resolves, never a program or a place.
var npmConfigKeys = []string{"loglevel", "fund", "audit", "progress", "color", "update-notifier", "save-exact", "save-prefix", "engine-strict",
	"legacy-peer-deps", "prefer-offline", "prefer-online", "init-author-name", "init-author-email", "init-author-url", "init-license",
	"init-version", "package-lock", "strict-peer-deps", "unicode", "fetch-retries", "fetch-timeout", "lockfile-version", "install-strategy",
	"omit", "include", "save", "audit-level"}

func npmKeyHarmless(keys []string, k string) bool {
	for _, h := range keys {
		if k == h || strings.HasPrefix(k, h+".") || strings.HasPrefix(k, h+"[") {
			return true
		}
	}
	return false
}

// npmSubRisk: npm's account and registry subcommands, npm create/init
// PKG (downloads and runs a package), npm pkg set of a key that changes
// what npm runs, npm config edit|set of a setting that does.
func npmSubRisk(c *Command, p Parsed, sub string) string {
	for _, r := range npmAccountSubs {
		if slices.Contains(r.subs, sub) {
			return c.Name + " " + sub + " " + r.why
		}
	}
	ops := p.Operands()
	op := func(i int) string {
		if i < len(ops) {
			return ops[i].Val
		}
		return ""
	}
	switch sub {
	case "create", "init", "innit":
		if len(ops) > 0 && !strings.HasPrefix(op(0), "-") {
			return c.Name + " " + sub + " PKG downloads and runs a package"
		}
	case "pkg":
		if op(0) == "set" {
			for _, o := range ops[1:] {
				if k, _, _ := strings.Cut(o.Val, "="); !npmKeyHarmless(npmPkgKeys, k) {
					return c.Name + " pkg set " + k + " is not a key guard knows to be harmless (scripts.* changes what npm runs)"
				}
			}
		}
	case "config", "c":
		switch op(0) {
		case "edit":
			return c.Name + " config edit runs an editor"
		case "set":
			for k := 1; k < len(ops); k++ {
				key, _, eq := strings.Cut(ops[k].Val, "=")
				if !npmKeyHarmless(npmConfigKeys, key) {
					return c.Name + " config set " + key + " is not a key guard knows to be harmless (script-shell, prefix change how npm runs)"
				}
				if !eq {
					k++ // npm config set KEY VALUE: the next operand is KEY's value
				}
			}
			if len(ops) < 2 {
				return c.Name + " config set with no key"
			}
		}
	}
	return ""
}

// goSubRisk: go run|install|get MODULE@VERSION downloads and runs
// another module.
func goSubRisk(_ *Command, p Parsed, sub string) string {
	switch sub {
	case "run", "install", "get":
		for _, o := range p.Operands() {
			if strings.Contains(o.Val, "@") {
				return "go " + sub + " MODULE@VERSION downloads and runs another module"
			}
		}
	}
	return ""
}
