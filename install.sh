#!/usr/bin/env bash
# install.sh: build guard from this checkout and install it for the current user.
#
#   ./install.sh                      build, install, create the shim links and a default config
#   ./install.sh --uninstall          remove exactly what an earlier ./install.sh added, and
#                                     list what guard wrote that stays (grants, audit, …)
#   ./install.sh --uninstall --purge  also remove that, after you confirm (or with --yes)
#   ./install.sh --help
#
# Everything it creates is listed in a manifest, so --uninstall removes only that:
# the two binaries, the shim links, and the default config if it is still the one
# written here (compared by sha256). Running it again rebuilds the binaries and never
# touches an existing config. Paths follow PREFIX and the XDG variables, so it can run in a temp HOME.
set -euo pipefail

readonly PROG=install.sh

usage() {
	cat <<'EOF'
usage: ./install.sh [--uninstall [--purge [--yes]]] [--help]

Builds guard from this checkout (Go and a C compiler are needed: guard-cli
uses cgo through mattn/go-sqlite3) and installs:

  $PREFIX/bin/guard                          PREFIX defaults to $HOME/.local
  $PREFIX/bin/guard-cli                      the management commands guard hands on
  $XDG_DATA_HOME/guard/shims/{bash,sh}       links to guard (default ~/.local/share)
  $XDG_CONFIG_HOME/guard/config.toml         only if none exists (default ~/.config)
  $XDG_DATA_HOME/guard/install-manifest      what was created, for --uninstall

Running it again rebuilds and reinstalls the binaries and leaves your config alone.

  --uninstall   remove what install.sh created: the binaries, the shim links, the
                empty directories it made, and the config only if you never
                changed it. Refused while an agent is still wired to guard:
                run guard uninstall --agent AGENT first. What guard wrote
                itself stays, and is listed: grants (grants.toml,
                projects/*), lock files, the audit trail (audit.db,
                audit.jsonl), pending requests (pending/*) and a changed
                config.
  --purge       with --uninstall: remove those too, that is guard's config,
                state and cache directories whole. Asks you to type "purge"
                first; without a terminal, it needs --yes.
  --yes         do not ask before --purge
  --help        this text

The first build downloads guard's modules and compiles SQLite (C code, for the
audit trail): about 5 minutes on 2 cores; later builds take seconds. It needs Go, a C
compiler and access to the Go module proxy (or a filled module cache) for
guard's dependencies.

Environment: PREFIX, XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_STATE_HOME,
XDG_CACHE_HOME, GO (the go command), CC, GOPROXY.

example:
  ./install.sh && SHELL="$HOME/.local/bin/guard" some-agent
EOF
}

say() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() {
	say "error: $*"
	exit 1
}
hint() { say "hint: $*"; }

# absolute checks that a path variable is absolute: relative XDG paths are invalid
# by the spec, and a relative PREFIX would install somewhere surprising.
absolute() {
	case $2 in
	/*) ;;
	*) die "$1 must be an absolute path, got '$2'" ;;
	esac
}

# sha256 prints the sha256 of one file, with whichever tool the system has.
sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d' ' -f1
	else
		openssl dgst -sha256 -r "$1" | cut -d' ' -f1
	fi
}

# version_ge reports whether dotted version $1 >= $2 (go1.26.8 style, "go" stripped).
version_ge() {
	local a b i x y
	IFS=. read -r -a a <<<"$1"
	IFS=. read -r -a b <<<"$2"
	for i in 0 1 2; do
		x=${a[i]:-0} y=${b[i]:-0}
		x=${x%%[!0-9]*} y=${y%%[!0-9]*}
		x=${x:-0} y=${y:-0}
		if ((10#$x > 10#$y)); then return 0; fi
		if ((10#$x < 10#$y)); then return 1; fi
	done
	return 0
}

os_name() {
	case $(uname -s) in
	Darwin) echo macos ;;
	*) echo linux ;;
	esac
}

# find_go sets GO to a go command, also trying the official tarball's location.
find_go() {
	GO=${GO:-}
	if [[ -z $GO ]]; then
		if command -v go >/dev/null 2>&1; then
			GO=go
		elif [[ -x /usr/local/go/bin/go ]]; then
			GO=/usr/local/go/bin/go
		fi
	fi
	local want
	want=$(awk '$1 == "go" { print $2; exit }' "$REPO/go.mod")
	if [[ -z $GO ]]; then
		say "error: go not found; guard needs Go >= $want"
		if [[ $(os_name) == macos ]]; then
			hint "brew install go  (or https://go.dev/dl/)"
		else
			hint "install Go >= $want from https://go.dev/dl/ (Debian's golang-go package is often older)"
		fi
		exit 1
	fi
	local have
	have=$("$GO" env GOVERSION 2>/dev/null) || {
		say "error: '$GO env GOVERSION' failed; is $GO a Go toolchain?"
		hint "install Go >= $want from https://go.dev/dl/ or set GO=/path/to/go"
		exit 1
	}
	have=${have#go}
	if ! version_ge "$have" "$want"; then
		say "error: go $have is too old; guard needs Go >= $want"
		hint "install a newer Go from https://go.dev/dl/ or set GO=/path/to/go"
		exit 1
	fi
}

# build_in runs "VAR=value … command args…" in directory $1.
build_in() {
	local dir=$1
	shift
	(cd "$dir" && env "$@")
}

# find_cc checks for the C compiler cgo will use (go env CC honours $CC).
find_cc() {
	local cc
	cc=$("$GO" env CC 2>/dev/null || true)
	cc=${cc%% *}
	if [[ -n $cc ]] && command -v "$cc" >/dev/null 2>&1; then
		return 0
	fi
	say "error: C compiler '${cc:-gcc}' not found; guard stores its audit trail with mattn/go-sqlite3, which needs cgo"
	if [[ $(os_name) == macos ]]; then
		hint "xcode-select --install"
	else
		hint "apt-get install gcc libc6-dev   (Debian/Ubuntu; or dnf install gcc on Fedora)"
	fi
	exit 1
}

# The default config: every key commented, real values minimal. Keys are those the
# grants loader accepts (docs/formats.md); an unknown key would make
# every decision deny.
default_config() {
	cat <<'EOF'
# guard configuration. Written once by install.sh; edit freely: install.sh never
# overwrites this file, and `install.sh --uninstall` keeps it once you changed it.
# Precedence: flag > GUARD_* environment > this file > built-in.
# Answers you give at a prompt are stored beside it in grants.toml, not here.

# A command that no rule covers: "ask" on the terminal, or "deny".
unknown = "ask"

# Composite commands (pipes, &&, ||, ;, redirects, substitutions, subshells):
#   "ask"  asks about the whole text, allow-once only.
#   "each" lets a composite made only of |, &&, || and ; through when every part
#          is allowed on its own, so `cd x && go test ./... | tail` runs without a
#          prompt once `go test *` is allowed (cd and tail are read-only). Anything
#          else composite (redirects to files, $(...), subshells) still asks.
composite = "each"

# How long a command may run before guard kills its process group (exit 124).
timeout = "10m"

# How long a prompt waits for your answer; no answer is deny.
ask_timeout = "2m"

# true: never prompt on the terminal (for agents with their own full-screen UI);
# an ask becomes a refusal that prints the command that approves it.
no_tty_prompt = false

# Allow the built-in read-only commands (ls, cat, grep, git status, ...) without a grant.
builtin_readonly = true

# A command you rejected (guard reject, or d in guard watch) is refused at once,
# in that project, for this long, so the agent stops asking ("0s": off).
# reject_memory = "1h"

# true: a command whose audit record cannot be written does not run (exit 125).
# false (the default) runs it with one warning, and guard audit counts the loss.
# audit_required = false

# Terminal programs you vouch for as a human's (absolute paths), beyond those
# guard knows. Read only from this file and the managed policy. Only list a
# program no process of yours can type into (not tmux or screen, unless you
# accept that risk: any program you run can `tmux send-keys`).
# trusted_terminals = []

[permissions.bash]
# Patterns match the command's words after quote removal. `*` matches anything;
# "git *" covers git, git status and git log -p, but not gitk. Deny beats allow.
# Examples:
#   allow = ["go test *", "go build *", "git *", "npm test"]
#   ask   = ["git push *"]
#   deny  = ["git push --force*"]
allow = []
ask = []
deny = []
EOF
}

# with_progress runs a command, saying every PROGRESS_EVERY seconds (10) that
# it is still working, one plain line each: a spinner would garble CI logs.
# The time shown counts from BUILD_START, so it keeps growing across the two
# builds instead of starting again at 10s for the second one.
with_progress() {
	local start=${BUILD_START:-$SECONDS} ticker rc=0
	(
		trap - EXIT
		while sleep "${PROGRESS_EVERY:-10}"; do
			say "  still building ($((SECONDS - start))s)"
		done
	) &
	ticker=$!
	"$@" || rc=$?
	kill "$ticker" 2>/dev/null || true
	wait "$ticker" 2>/dev/null || true
	return "$rc"
}

# manifest lines are "kind<TAB>path[<TAB>sha256]"; kinds: bin, link, config, dir.
manifest_get() { # kind path -> prints the line's third field if present
	[[ -f $MANIFEST ]] || return 1
	awk -F'\t' -v k="$1" -v p="$2" '$1 == k && $2 == p { print $3; found = 1 } END { exit !found }' "$MANIFEST"
}

# mkdirs creates a directory and its missing parents, recording each one created.
mkdirs() {
	local d=$1 missing=()
	while [[ ! -d $d ]]; do
		missing=("$d" ${missing[@]+"${missing[@]}"})
		d=$(dirname "$d")
	done
	for d in ${missing[@]+"${missing[@]}"}; do
		mkdir "$d"
		NEW_MANIFEST+=("dir"$'\t'"$d")
	done
}

# save_manifest writes NEW_MANIFEST atomically. It runs after every step, so a run
# that fails half-way still leaves a manifest --uninstall can follow.
save_manifest() {
	if ((${#NEW_MANIFEST[@]})); then
		(umask 077 && printf '%s\n' "${NEW_MANIFEST[@]}" >"$MANIFEST.tmp.$$")
		mv "$MANIFEST.tmp.$$" "$MANIFEST"
	fi
}

install_guard() {
	find_go
	find_cc

	local bindir=$PREFIX/bin bin=$PREFIX/bin/guard cli=$PREFIX/bin/guard-cli
	local shims=$DATA/guard/shims conf=$CONFIG/guard/config.toml
	NEW_MANIFEST=()

	# Directories and the config recorded by an earlier run stay ours. Read them now:
	# the manifest is rewritten after every step below.
	local line old_sum=""
	old_sum=$(manifest_get config "$conf") || old_sum=""
	if [[ -f $MANIFEST ]]; then
		while IFS= read -r line; do
			# A binary from an earlier PREFIX stays listed until --uninstall.
			case $line in
			dir$'\t'*) NEW_MANIFEST+=("$line") ;;
			bin$'\t'*) if [[ $line != bin$'\t'"$bin" && $line != bin$'\t'"$cli" ]]; then NEW_MANIFEST+=("$line"); fi ;;
			esac
		done <"$MANIFEST"
	fi

	# Refuse before building or creating anything: a failed run leaves nothing behind.
	local name
	for name in bash sh; do
		if [[ -e $shims/$name && ! -L $shims/$name ]]; then
			die "$shims/$name exists and is not a link; move it away and run install.sh again"
		fi
	done

	# Build into a temp dir, so a failed build leaves nothing behind either.
	local version build tmp
	version=$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo dev)
	build=$(mktemp -d "${TMPDIR:-/tmp}/guard-build.XXXXXX")
	CLEANUP+=("$build")
	# go build stamps the VCS revision by running git; where git cannot read the
	# checkout (no .git, or "dubious ownership"), build without the stamp.
	local buildvcs=-buildvcs=auto
	if ! git -C "$REPO" status --porcelain >/dev/null 2>&1; then
		buildvcs=-buildvcs=false
	fi
	# Two programs, because start-up is paid on every command an agent runs:
	# guard (the shell, the shim links, guard exec) is built without cgo and
	# without urfave/cli; guard-cli holds every other command, with SQLite (cgo)
	# and urfave/cli, and guard execs it for them. urfave_cli_no_docs leaves out
	# urfave/cli's man/markdown generators, which guard-cli never calls.
	say "building guard $version (the first build downloads the modules and compiles SQLite, about 5 minutes on 2 cores; later builds take seconds)"
	BUILD_START=$SECONDS
	if ! with_progress build_in "$REPO" CGO_ENABLED=0 "$GO" build -trimpath "$buildvcs" \
		-ldflags "-X main.linkedVersion=$version" -o "$build/guard" ./cmd/guard; then
		die "go build ./cmd/guard failed"
	fi
	if ! with_progress build_in "$REPO" CGO_ENABLED=1 "$GO" build -trimpath "$buildvcs" -tags urfave_cli_no_docs \
		-ldflags "-X main.linkedVersion=$version" -o "$build/guard-cli" ./cmd/guard-cli; then
		die "go build ./cmd/guard-cli failed"
	fi
	say "built in $((SECONDS - BUILD_START))s"

	mkdirs "$bindir"
	mkdirs "$shims"
	mkdirs "$CONFIG/guard"
	# guard's own directories are the user's alone, like everything guard writes.
	chmod 0700 "$CONFIG/guard" "$DATA/guard" "$shims"
	save_manifest

	# Copy to a temp name beside the target, then rename: a guard that is running
	# right now (as someone's $SHELL) keeps its old inode and never sees half a
	# file. guard-cli first, so that a guard never finds its CLI missing.
	local prog
	for prog in guard-cli guard; do
		tmp=$(mktemp "$bindir/.$prog.XXXXXX")
		CLEANUP+=("$tmp")
		cp "$build/$prog" "$tmp"
		chmod 0755 "$tmp"
		mv -f "$tmp" "$bindir/$prog"
		NEW_MANIFEST+=("bin"$'\t'"$bindir/$prog")
		save_manifest
	done

	# Shim links: bash and sh that run guard, found first on the agent's PATH.
	for name in bash sh; do
		ln -sfn "$bin" "$shims/$name"
		NEW_MANIFEST+=("link"$'\t'"$shims/$name")
	done

	# Config: written only if none exists; remember its hash so --uninstall can tell
	# whether the user changed it.
	if [[ ! -e $conf ]]; then
		(umask 077 && default_config >"$conf.tmp.$$")
		mv "$conf.tmp.$$" "$conf"
		say "wrote default config $conf"
		NEW_MANIFEST+=("config"$'\t'"$conf"$'\t'"$(sha256 "$conf")")
	elif [[ -n $old_sum ]]; then
		NEW_MANIFEST+=("config"$'\t'"$conf"$'\t'"$old_sum")
		say "kept config $conf"
	else
		say "kept existing config $conf"
	fi

	save_manifest

	say "installed $bin and $cli"
	cat <<EOF
guard $version installed: $bin (the shell agents run commands through)
and $cli (the management commands, which guard hands on to)

Wire guard into your agent (it merges guard into the agent's own settings):
  $bin install --agent claude     # or codex, gemini, opencode, pi
  $bin doctor
For any other agent, start it with guard as its shell (bash and sh on its PATH lead to guard):
  SHELL="$bin" PATH="$shims:\$PATH" some-agent

Try it:
  $bin check -- 'rm -rf /'
  $bin exec -- git status
Config: $conf
Uninstall: $REPO/install.sh --uninstall   (add --purge to remove grants and the audit trail too)
EOF
	case ":$PATH:" in
	*":$bindir:"*) ;;
	*)
		cat <<EOF

note: $bindir is not on your PATH; add it, e.g. in ~/.profile:
  export PATH="$bindir:\$PATH"
EOF
		;;
	esac
}

uninstall_guard() {
	if [[ ! -f $MANIFEST ]]; then
		say "nothing to uninstall: no manifest at $MANIFEST"
		return 0
	fi
	local kind path sum bins=":" dirs=()
	while IFS=$'\t' read -r kind path sum; do
		if [[ $kind == bin ]]; then bins+="$path:"; fi
	done <"$MANIFEST"
	while IFS=$'\t' read -r kind path sum; do
		case $kind in
		bin)
			if [[ -f $path ]]; then
				rm -f "$path"
				say "removed $path"
			fi
			;;
		link)
			# Only a link that still points at a binary we installed is ours to remove.
			if [[ -L $path && $bins == *":$(readlink "$path"):"* ]]; then
				rm -f "$path"
				say "removed $path"
			elif [[ -e $path || -L $path ]]; then
				say "kept $path: it no longer points at guard"
			fi
			;;
		config)
			if [[ -f $path ]]; then
				if [[ $(sha256 "$path") == "$sum" ]]; then
					rm -f "$path"
					say "removed $path"
				else
					say "kept $path: you changed it"
				fi
			fi
			;;
		dir) dirs=("$path" ${dirs[@]+"${dirs[@]}"}) ;;
		"") ;;
		*) say "skipped unknown manifest entry '$kind'" ;;
		esac
	done <"$MANIFEST"
	rm -f "$MANIFEST"
	# Directories last, deepest first, and only when empty: grants and audit records
	# that guard wrote there keep them alive.
	local d
	for d in ${dirs[@]+"${dirs[@]}"}; do
		rmdir "$d" 2>/dev/null || true
	done
	say "uninstalled the programs and shim links"
}

# check_unwired refuses to uninstall while an agent is still wired to guard
# (guard install --agent left a record in $DATA/guard/agents/): the agent's
# settings would name a program that is gone, and --purge would also delete
# the record guard uninstall --agent needs to take its changes out again.
check_unwired() {
	local rec agent scope wired=() steps=()
	for rec in "$DATA"/guard/agents/*.json; do
		[[ -f $rec ]] || continue
		agent=$(sed -n 's/^  "agent": "\(.*\)",$/\1/p' "$rec")
		scope=$(sed -n 's/^  "scope": "\(.*\)",$/\1/p' "$rec")
		[[ -n $agent && -n $scope ]] || die "cannot read $rec; remove it by hand if that agent no longer uses guard"
		wired+=("$agent ($scope)")
		if [[ $scope == global ]]; then
			steps+=("guard uninstall --agent $agent")
		else
			steps+=("(cd '$scope' && guard uninstall --agent $agent --project)")
		fi
	done
	((${#wired[@]} == 0)) && return 0
	local w s
	w=$(printf ', %s' "${wired[@]}")
	s=$(printf '; %s' "${steps[@]}")
	say "error: guard is still wired into ${w#, }; its settings would name a program that is gone; nothing was removed"
	hint "first run: ${s#; }"
	exit 1
}

# guard_dirs prints guard's own directories: what guard itself writes lives there.
guard_dirs() {
	printf '%s\n' "$CONFIG/guard" "$STATE/guard" "$CACHE/guard" "$DATA/guard"
}

# report_left lists every file guard wrote that is still there, or says none is.
report_left() {
	local d left=()
	while IFS= read -r d; do
		if [[ -e $d ]]; then
			while IFS= read -r -d '' f; do
				left+=("$f")
			done < <(find "$d" \( -type f -o -type l \) -print0 | sort -z)
		fi
	done < <(guard_dirs)
	if ((${#left[@]} == 0)); then
		say "nothing of guard is left"
		return 0
	fi
	say "left in place (grants, project folders, locks, the audit trail, pending requests):"
	printf '  %s\n' "${left[@]}" >&2
	hint "remove them too with: $REPO/install.sh --uninstall --purge"
}

# purge_dirs prints guard's directories that exist, after checking each is
# one --purge may remove.
purge_dirs() {
	local d
	while IFS= read -r d; do
		# never more than a directory named guard, at an absolute path
		[[ $d == /*/guard && $d != *"/../"* ]] || die "refusing to purge '$d'"
		if [[ -e $d || -L $d ]]; then printf '%s\n' "$d"; fi
	done < <(guard_dirs)
}

# confirm_purge asks, before anything is removed, whether guard's config,
# state, cache and data directories may go: the user types "purge", or
# passed --yes. Without a terminal and --yes it stops, having removed nothing.
confirm_purge() {
	local dirs=()
	mapfile -t dirs < <(purge_dirs)
	if ((${#dirs[@]} == 0)) || [[ $YES == 1 ]]; then
		return 0
	fi
	say "--purge removes, with everything in them (grants, the audit trail, pending requests):"
	printf '  %s\n' "${dirs[@]}" >&2
	if [[ ! -t 0 ]]; then
		die "--purge asks for a confirmation and there is no terminal; nothing was removed; add --yes to remove them"
	fi
	local answer=""
	printf '%s: type "purge" to remove them: ' "$PROG" >&2
	read -r answer || true
	if [[ $answer != purge ]]; then
		say "purge cancelled; nothing removed"
		return 1
	fi
}

# purge removes guard's config, state, cache and data directories whole
# (confirmed by confirm_purge).
purge_guard() {
	local dirs=()
	mapfile -t dirs < <(purge_dirs)
	if ((${#dirs[@]} == 0)); then
		say "nothing to purge"
		return 0
	fi
	rm -rf -- "${dirs[@]}"
	say "purged"
}

# CLEANUP lists temp paths removed on exit, whatever the exit path.
CLEANUP=()
cleanup() {
	if ((${#CLEANUP[@]})); then
		rm -rf "${CLEANUP[@]}"
	fi
}
trap cleanup EXIT

main() {
	local mode=install purge=0
	YES=0
	while (($#)); do
		case $1 in
		-h | --help)
			usage
			return 0
			;;
		--uninstall) mode=uninstall ;;
		--purge) purge=1 ;;
		--yes) YES=1 ;;
		*)
			usage >&2
			die "unknown argument '$1'"
			;;
		esac
		shift
	done

	: "${HOME:?HOME must be set}"
	PREFIX=${PREFIX:-$HOME/.local}
	DATA=${XDG_DATA_HOME:-$HOME/.local/share}
	CONFIG=${XDG_CONFIG_HOME:-$HOME/.config}
	STATE=${XDG_STATE_HOME:-$HOME/.local/state}
	CACHE=${XDG_CACHE_HOME:-$HOME/.cache}
	absolute PREFIX "$PREFIX"
	absolute XDG_DATA_HOME "$DATA"
	absolute XDG_CONFIG_HOME "$CONFIG"
	absolute XDG_STATE_HOME "$STATE"
	absolute XDG_CACHE_HOME "$CACHE"
	if [[ $mode != uninstall ]] && ((purge || YES)); then
		usage >&2
		die "--purge and --yes go with --uninstall"
	fi
	MANIFEST=$DATA/guard/install-manifest
	REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

	case $mode in
	install) install_guard ;;
	uninstall)
		check_unwired
		if ((purge)); then
			confirm_purge || return 1 # before anything is removed
		fi
		uninstall_guard
		if ((purge)); then
			purge_guard || return 1
		else
			report_left
		fi
		;;
	esac
}

main "$@"
