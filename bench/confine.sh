#!/usr/bin/env bash
# bench/confine.sh: what confinement adds to a command. A benchmark, not a
# test: CI does not run it.
#
#   bench/confine.sh            # 200 alternating repetitions
#   bench/confine.sh -n 500
#
# It builds guard, guard-cli and bench/floor into a temp dir, points HOME and
# every XDG directory at a temp dir whose global config allows `true`, and
# times `guard -c true` with [confine] mode = "off", with the filesystem
# confined (network "open", the default), with network = "none" and with
# network = "hosts" (guard-cli's proxy started beside the command),
# interleaved in one run with the floor (a Go program that only forks
# `bash -c true`). It prints medians, p90s and minima, each variant's cost
# over "off", and the machine's load before and after. Budgets (issue 17):
# filesystem +0.3 ms (+1 ms more for the mount namespace's carve-outs),
# hosts +1.5 ms.
set -euo pipefail
export LC_ALL=C

N=200
while (($#)); do
	case $1 in
	-n)
		N=${2:?-n needs a number}
		shift
		;;
	-h | --help)
		echo "usage: bench/confine.sh [-n N]"
		exit 0
		;;
	*)
		echo "usage: bench/confine.sh [-n N]" >&2
		exit 2
		;;
	esac
	shift
done
[[ $N =~ ^[1-9][0-9]*$ ]] || {
	echo "confine: -n must be a positive number" >&2
	exit 2
}
die() {
	echo "confine: error: $*" >&2
	exit 1
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
if [[ -x /usr/local/go/bin/go ]]; then
	PATH=/usr/local/go/bin:$PATH
fi
command -v go >/dev/null || die "go not found"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/guard-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
echo "building guard, guard-cli and floor in $TMP/bin" >&2
mkdir -p "$TMP/bin"
(cd "$REPO" && CGO_ENABLED=0 go build -trimpath -o "$TMP/bin/guard" ./cmd/guard) || die "go build ./cmd/guard failed"
(cd "$REPO" && CGO_ENABLED=1 go build -trimpath -tags urfave_cli_no_docs -o "$TMP/bin/guard-cli" ./cmd/guard-cli) ||
	die "go build ./cmd/guard-cli failed"
(cd "$REPO" && go build -trimpath -o "$TMP/bin/floor" ./bench/floor) || die "go build ./bench/floor failed"
GUARD=$TMP/bin/guard FLOOR=$TMP/bin/floor

export HOME=$TMP/home
export XDG_DATA_HOME=$HOME/.local/share XDG_STATE_HOME=$HOME/.local/state XDG_CACHE_HOME=$HOME/.cache
export GUARD_NO_PROMPT=1
unset GUARD_ACTIVE GUARD_REAL_SHELL GUARD_TIMEOUT GUARD_MANAGED_POLICY
mkdir -p "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME" "$TMP/work/.git"
for v in off fs none hosts; do
	mkdir -p "$TMP/conf-$v/guard"
	{
		printf '[permissions.bash]\nallow = ["true"]\n[confine]\n'
		case $v in
		off) printf 'mode = "off"\n' ;;
		fs) printf 'network = "open"\n' ;;
		*) printf 'network = "%s"\n' "$v" ;;
		esac
	} >"$TMP/conf-$v/guard/config.toml"
done
cd "$TMP/work"
for v in off fs none hosts; do
	XDG_CONFIG_HOME=$TMP/conf-$v "$GUARD" -c true || die "guard -c true failed with [confine] $v"
done
echo "kernel: $(uname -r); euid $(id -u) (root draws a mount and a network namespace; others get Landlock only)" >&2

# shellcheck source=bench/lib.sh
. "$REPO/bench/lib.sh"
run_one() {
	case $1 in
	floor) "$FLOOR" true ;;
	*) XDG_CONFIG_HOME=$TMP/conf-$1 "$GUARD" -c true ;;
	esac
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)
time_alternating "$N" off fs none hosts floor
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)
read -r o_med o_p90 o_min < <(stats "$TMP/off.us")
printf '%-8s %8s %8s %8s %10s\n' variant median p90 min "-off(med)"
for v in off fs none hosts floor; do
	read -r med p90 min < <(stats "$TMP/$v.us")
	printf '%-8s %8s %8s %8s %+10.2f\n' "$v" "$med" "$p90" "$min" "$(awk -v a="$med" -v b="$o_med" 'BEGIN{print a-b}')"
done
echo "(milliseconds; $N alternating runs each; load before: $LOAD0, after: $LOAD1)"
