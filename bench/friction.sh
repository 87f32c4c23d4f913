#!/usr/bin/env bash
# bench/friction.sh: how often guard would interrupt an agent. A measurement,
# not a test: CI does not run it.
#
#   bench/friction.sh [COMMANDS-FILE]     (default: bench/agent-commands.txt)
#
# It installs guard with install.sh into a temp HOME (so the default config
# install.sh writes is the one measured), judges every command of the file
# with `guard check --stdin --json`, and counts allow / ask / deny. Then it
# plays a user who answers "allow for this project" with guard's suggested
# pattern to every ask that offers one, and judges the file again: the
# prompts left are the ones a grant cannot or must not silence (composites
# with an ungranted part, built-in destructive patterns, dynamic commands).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FILE=${1:-$REPO/bench/agent-commands.txt}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export HOME=$TMP/home XDG_CONFIG_HOME=$TMP/home/.config XDG_DATA_HOME=$TMP/home/.local/share
export XDG_STATE_HOME=$TMP/home/.local/state XDG_CACHE_HOME=$TMP/home/.cache PREFIX=$TMP/prefix
export GOCACHE=${GOCACHE:-$(go env GOCACHE)} GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)} GOPATH=${GOPATH:-$(go env GOPATH)}
unset GUARD_ACTIVE
mkdir -p "$HOME" "$TMP/proj"
(cd "$REPO" && bash install.sh >/dev/null 2>&1) || { echo "friction: install.sh failed" >&2; exit 1; }
guard=$PREFIX/bin/guard
cd "$TMP/proj" && git init -q .

count() { # $1: label; reads JSON lines on stdin
	local out allow ask deny total
	out=$(cat)
	total=$(grep -c . <<<"$out" || true)
	allow=$(grep -c '"decision":"allow"' <<<"$out" || true)
	ask=$(grep -c '"decision":"ask"' <<<"$out" || true)
	deny=$(grep -c '"decision":"deny"' <<<"$out" || true)
	printf '%-34s %4d commands: %4d allow (%d%%)  %4d ask  %4d deny\n' "$1" "$total" "$allow" $((100 * allow / total)) "$ask" "$deny"
}

grep -v '^#' "$FILE" | grep . >"$TMP/cmds"
"$guard" check --stdin --json <"$TMP/cmds" >"$TMP/first"
count "install defaults, no grants" <"$TMP/first"

# the user answers "allow for this project" with each suggested pattern
grep '"decision":"ask"' "$TMP/first" | grep -o '"suggest":"[^"]*"' | sed 's/^"suggest":"//; s/"$//' | sort -u >"$TMP/grants"
while IFS= read -r p; do
	"$guard" grants add --project "$p" >/dev/null 2>&1 || true
done <"$TMP/grants"
"$guard" check --stdin --json <"$TMP/cmds" >"$TMP/second"
count "after $(grep -c . "$TMP/grants" || true) project answers" <"$TMP/second"
# ... and answers the questions a grant uncovers (a command's grant first,
# then the host it reaches: [http] HOST), for up to two more rounds
rounds=1
cp "$TMP/second" "$TMP/last"
while [ "$rounds" -lt 3 ]; do
	grep '"decision":"ask"' "$TMP/last" | grep -o '"suggest":"[^"]*"' | sed 's/^"suggest":"//; s/"$//' | sort -u |
		grep -vxF -f "$TMP/grants" >"$TMP/more" || true
	[ -s "$TMP/more" ] || break
	while IFS= read -r p; do
		"$guard" grants add --project "$p" >/dev/null 2>&1 || true
	done <"$TMP/more"
	cat "$TMP/more" >>"$TMP/grants"
	rounds=$((rounds + 1))
	"$guard" check --stdin --json <"$TMP/cmds" >"$TMP/last"
	count "after $(grep -c . "$TMP/grants" || true) answers, round $rounds" <"$TMP/last"
done
cp "$TMP/last" "$TMP/second"
echo
# list FILE: the asks of a judged run, with their rule and command
list() {
	paste -d' ' <(grep -o '"decision":"[a-z]*","rule":"[^"]*"' "$1" | sed 's/"decision":"//; s/","rule":"/ /; s/"$//') "$TMP/cmds" |
		grep '^ask ' | sed 's/^/  /'
}
echo "asked before the answers:"
list "$TMP/first"
echo
echo "still asked after the answers:"
list "$TMP/second"
