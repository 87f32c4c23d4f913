#!/usr/bin/env bash
# bench/hook.sh: what `guard hook claude` costs for an allowed command, as a
# whole process, against the floor (bench/floor: fork `bash -c true`, wait)
# and `bash -c true`. A benchmark, not a test: CI does not run it.
#
#   bench/hook.sh          # 200 alternating repetitions
#   bench/hook.sh -n 500
#
# It builds guard (CGO_ENABLED=0, as install.sh does) and floor into a temp dir,
# points HOME and every XDG directory at a temp dir, and feeds guard hook claude
# the PreToolUse JSON Claude Code sends for `git status` (allowed: read-only),
# audit on. Target: hook/floor <= 1.3 (issue 9). Times come from bash's
# $EPOCHREALTIME; the order of the variants rotates every repetition. When perf
# or strace is installed it also prints instructions or syscalls per run, which
# a busy machine does not move.
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
		echo "usage: bench/hook.sh [-n N]"
		exit 0
		;;
	*)
		echo "usage: bench/hook.sh [-n N]" >&2
		exit 2
		;;
	esac
	shift
done
[[ $N =~ ^[1-9][0-9]*$ ]] || {
	echo "hook: -n must be a positive number" >&2
	exit 2
}
die() {
	echo "hook: error: $*" >&2
	exit 1
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
if [[ -x /usr/local/go/bin/go ]]; then
	PATH=/usr/local/go/bin:$PATH
fi
command -v go >/dev/null || die "go not found"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/guard-hook-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "building guard and floor in $TMP/bin" >&2
mkdir -p "$TMP/bin"
(cd "$REPO" && CGO_ENABLED=0 go build -trimpath -o "$TMP/bin/guard" ./cmd/guard) || die "go build ./cmd/guard failed"
(cd "$REPO" && go build -trimpath -o "$TMP/bin/floor" ./bench/floor) || die "go build ./bench/floor failed"
GUARD=$TMP/bin/guard FLOOR=$TMP/bin/floor
BASH_BIN=$(command -v bash)

export HOME=$TMP/home
export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share
export XDG_STATE_HOME=$HOME/.local/state XDG_CACHE_HOME=$HOME/.cache
unset GUARD_ACTIVE GUARD_TIMEOUT GUARD_MANAGED_POLICY GUARD_AGENT
mkdir -p "$XDG_CONFIG_HOME/guard" "$XDG_STATE_HOME" "$TMP/work"
cd "$TMP/work"
IN=$TMP/in.json
printf '%s\n' '{"session_id":"bench-session","transcript_path":"/tmp/t.jsonl","cwd":"'"$TMP/work"'","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","description":"Show working tree status"},"tool_use_id":"toolu_bench"}' >"$IN"

out=$("$GUARD" hook claude <"$IN") || die "guard hook claude failed"
[[ $out == *'"permissionDecision":"allow"'* ]] || die "guard hook claude did not allow git status: $out"

run_one() {
	case $1 in
	hook) "$GUARD" hook claude <"$IN" ;;
	bash) "$BASH_BIN" -c true ;;
	floor) "$FLOOR" true ;;
	esac
}
# shellcheck source=bench/lib.sh
. "$REPO/bench/lib.sh"

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)
time_alternating "$N" hook bash floor
read -r h_med h_p90 h_min < <(stats "$TMP/hook.us")
read -r b_med b_p90 b_min < <(stats "$TMP/bash.us")
read -r f_med f_p90 f_min < <(stats "$TMP/floor.us")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
r_med=$(ratio "$h_med" "$f_med")
r_min=$(ratio "$h_min" "$f_min")
records=$(grep -c '"mode":"hook"' "$XDG_STATE_HOME/guard/audit.jsonl" || true)

echo
echo "guard hook claude, an allowed command (git status), $N runs each; load before: $LOAD0, after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)"
printf '  %-20s median %6s ms   p90 %6s ms   min %6s ms\n' "guard hook claude" "$h_med" "$h_p90" "$h_min"
printf '  %-20s median %6s ms   p90 %6s ms   min %6s ms\n' "bash -c true" "$b_med" "$b_p90" "$b_min"
printf '  %-20s median %6s ms   p90 %6s ms   min %6s ms\n' "floor true" "$f_med" "$f_p90" "$f_min"
echo "  hook/floor: median $r_med (target <= 1.3: $(awk -v r="$r_med" 'BEGIN { print (r <= 1.3) ? "met" : "MISSED" }')), min $r_min; hook/bash median $(ratio "$h_med" "$b_med")"
echo "  audit records written by the hook: $records"

if command -v perf >/dev/null; then
	for v in hook floor; do
		case $v in
		hook) ins=$(perf stat -x, -e instructions:u -r 20 -- "$GUARD" hook claude <"$IN" 2>&1 >/dev/null | awk -F, '/instructions/ { print $1 }') ;;
		floor) ins=$(perf stat -x, -e instructions:u -r 20 -- "$FLOOR" true 2>&1 >/dev/null | awk -F, '/instructions/ { print $1 }') ;;
		esac
		[[ $ins =~ ^[0-9]+$ ]] && echo "  user-space instructions per run ($v, perf stat -r 20): $ins"
	done
fi
if command -v strace >/dev/null; then
	for v in hook floor; do
		case $v in
		hook) strace -f -c -o "$TMP/strace.txt" "$GUARD" hook claude <"$IN" >/dev/null 2>&1 || true ;;
		floor) strace -f -c -o "$TMP/strace.txt" "$FLOOR" true >/dev/null 2>&1 || true ;;
		esac
		calls=$(awk '$NF == "total" { print ($6 == "total") ? $4 : $4 }' "$TMP/strace.txt")
		echo "  syscalls per run ($v, strace -f -c, children included): $calls"
	done
fi
