#!/usr/bin/env bash
# bench/telemetry.sh: what [telemetry] adds to a command. A benchmark, not a
# test: CI does not run it.
#
#   bench/telemetry.sh            # 200 alternating repetitions
#   bench/telemetry.sh -n 500
#
# It builds guard, guard-cli and bench/floor into a temp dir, points HOME and
# every XDG directory at a temp dir whose global config allows `true`, and
# times `guard -c true` without [telemetry] ("off") and with it ("on", an
# endpoint on loopback where nothing listens), interleaved in one run with
# the floor (a Go program that only forks `bash -c true`). With telemetry
# on, guard stats telemetry.due after each record and starts the flusher
# (detached) at most once a minute; the flusher that the warm-up started
# fails and backs off, as it would with a collector that is down, so the
# timed runs pay the stat alone. Target (issue 20): "on" no slower than "off".
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
		echo "usage: bench/telemetry.sh [-n N]"
		exit 0
		;;
	*)
		echo "usage: bench/telemetry.sh [-n N]" >&2
		exit 2
		;;
	esac
	shift
done
[[ $N =~ ^[1-9][0-9]*$ ]] || {
	echo "telemetry: -n must be a positive number" >&2
	exit 2
}
die() {
	echo "telemetry: error: $*" >&2
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
export XDG_DATA_HOME=$HOME/.local/share XDG_CACHE_HOME=$HOME/.cache
export GUARD_NO_PROMPT=1
unset GUARD_ACTIVE GUARD_REAL_SHELL GUARD_TIMEOUT GUARD_MANAGED_POLICY
mkdir -p "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$TMP/work/.git"
for v in off on; do
	mkdir -p "$TMP/conf-$v/guard" "$TMP/state-$v"
	{
		printf '[permissions.bash]\nallow = ["true"]\n'
		[[ $v == on ]] && printf '[telemetry]\notlp_endpoint = "http://127.0.0.1:1"\n'
	} >"$TMP/conf-$v/guard/config.toml"
done
cd "$TMP/work"
run_one() {
	case $1 in
	floor) "$FLOOR" true ;;
	*) XDG_CONFIG_HOME=$TMP/conf-$1 XDG_STATE_HOME=$TMP/state-$1 "$GUARD" -c true ;;
	esac
}
for v in off on; do
	run_one "$v" || die "guard -c true failed with telemetry $v"
done
sleep 2 # the flusher the first "on" run started fails and backs off
[[ -e $TMP/state-on/guard/telemetry.due ]] || die "guard did not start the flusher"

# shellcheck source=bench/lib.sh
. "$REPO/bench/lib.sh"
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)
time_alternating "$N" off on floor
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)
read -r o_med _ _ < <(stats "$TMP/off.us")
printf '%-8s %8s %8s %8s %10s\n' variant median p90 min "-off(med)"
for v in off on floor; do
	read -r med p90 min < <(stats "$TMP/$v.us")
	printf '%-8s %8s %8s %8s %+10.2f\n' "$v" "$med" "$p90" "$min" "$(awk -v a="$med" -v b="$o_med" 'BEGIN{print a-b}')"
done
echo "(milliseconds; $N alternating runs each; load before: $LOAD0, after: $LOAD1)"
