#!/usr/bin/env bash
# bench/overhead.sh: what guard costs per command. A benchmark, not a test: CI does
# not run it. Run it from anywhere in the repo:
#
#   bench/overhead.sh            # 200 alternating repetitions
#   bench/overhead.sh -n 500
#
# It builds guard and bench/floor (a Go program that only forks `bash -c "$1"` and
# waits: the least a Go shim can cost) into a temp dir, points HOME and every XDG
# directory at a temp dir whose global config allows `true`, and then measures:
#
#   1. wall time of `guard -c true` (allowed, audit on), `bash -c true` and
#      `floor true`, interleaved in one run (the order rotates every repetition),
#      N times each; medians, p90s and the ratios of medians. Target: guard/floor <= 1.3.
#   2. peak RSS of `guard -c 'head -c 1G /dev/zero | wc -c'` (target < 30 MB), from
#      /usr/bin/time -v (installed with apt-get when missing and root) and from
#      polling guard's own VmHWM in /proc.
#   3. `guard check --stdin --json` throughput over generated mixed lines (lines/s).
#
# Times come from bash's $EPOCHREALTIME (no fork per sample); hyperfine, when
# installed, is run as a second opinion.
set -euo pipefail
export LC_ALL=C

N=200
LINES=50000
KEEP=0
usage() {
	cat <<'EOF'
usage: bench/overhead.sh [-n N] [-l LINES] [--keep] [--help]

  -n N        repetitions of each timed command (default 200)
  -l LINES    lines for the guard check --stdin throughput run (default 50000)
  --keep      keep the temp dir (binaries, config, audit trail, samples)
EOF
}
while (($#)); do
	case $1 in
	-n)
		N=${2:?-n needs a number}
		shift
		;;
	-l)
		LINES=${2:?-l needs a number}
		shift
		;;
	--keep) KEEP=1 ;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		usage >&2
		exit 2
		;;
	esac
	shift
done
[[ $N =~ ^[1-9][0-9]*$ ]] || {
	echo "overhead: -n must be a positive number" >&2
	exit 2
}
[[ $LINES =~ ^[1-9][0-9]*$ ]] || {
	echo "overhead: -l must be a positive number" >&2
	exit 2
}

die() {
	echo "overhead: error: $*" >&2
	exit 1
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
if [[ -x /usr/local/go/bin/go ]]; then
	PATH=/usr/local/go/bin:$PATH
fi
command -v go >/dev/null || die "go not found"
export CGO_ENABLED=1

TMP=$(mktemp -d "${TMPDIR:-/tmp}/guard-bench.XXXXXX")
cleanup() {
	if ((KEEP)); then
		echo "kept $TMP" >&2
	else
		rm -rf "$TMP"
	fi
}
trap cleanup EXIT

# --- build (before HOME moves, so the Go caches are the usual ones)
echo "building guard and floor in $TMP/bin" >&2
mkdir -p "$TMP/bin"
# The same flags as install.sh, so the guard measured is the guard installed:
# guard without cgo, guard-cli (which guard execs for guard check) beside it.
(cd "$REPO" && CGO_ENABLED=0 go build -trimpath -o "$TMP/bin/guard" ./cmd/guard) ||
	die "go build ./cmd/guard failed"
(cd "$REPO" && CGO_ENABLED=1 go build -trimpath -tags urfave_cli_no_docs -o "$TMP/bin/guard-cli" ./cmd/guard-cli) ||
	die "go build ./cmd/guard-cli failed"
(cd "$REPO" && go build -trimpath -o "$TMP/bin/floor" ./bench/floor) || die "go build ./bench/floor failed"
GUARD=$TMP/bin/guard FLOOR=$TMP/bin/floor
BASH_BIN=$(command -v bash)

# --- a private HOME: `true` granted, composites of allowed parts allowed, audit on
export HOME=$TMP/home
export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share
export XDG_STATE_HOME=$HOME/.local/state XDG_CACHE_HOME=$HOME/.cache
export GUARD_NO_PROMPT=1
unset GUARD_ACTIVE GUARD_TIMEOUT GUARD_MANAGED_POLICY
mkdir -p "$XDG_CONFIG_HOME/guard" "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME" "$TMP/work"
cat >"$XDG_CONFIG_HOME/guard/config.toml" <<'EOF'
composite = "each"
[permissions.bash]
allow = ["true", "head -c 1G /dev/zero", "wc -c"]
EOF
cd "$TMP/work"

# --- sanity: nothing below means anything unless guard runs `true`
if ! "$GUARD" -c true 2>"$TMP/sanity.err"; then
	cat "$TMP/sanity.err" >&2
	die "'guard -c true' did not exit 0 in the bench setup; guard is not ready to measure"
fi

# shellcheck source=bench/lib.sh
. "$REPO/bench/lib.sh"

# run_one VARIANT runs one variant once, output discarded, exit status checked.
run_one() {
	case $1 in
	guard) "$GUARD" -c true ;;
	bash) "$BASH_BIN" -c true ;;
	floor) "$FLOOR" true ;;
	esac
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)
echo "warming up" >&2
time_alternating "$N" guard bash floor
read -r g_med g_p90 g_min < <(stats "$TMP/guard.us")
read -r b_med b_p90 b_min < <(stats "$TMP/bash.us")
read -r f_med f_p90 f_min < <(stats "$TMP/floor.us")
ratio_gf=$(awk -v a="$g_med" -v b="$f_med" 'BEGIN { printf "%.2f", a / b }')
ratio_gb=$(awk -v a="$g_med" -v b="$b_med" 'BEGIN { printf "%.2f", a / b }')
ratio_gf_min=$(awk -v a="$g_min" -v b="$f_min" 'BEGIN { printf "%.2f", a / b }')
verdict_gf=$(awk -v r="$ratio_gf" 'BEGIN { print (r <= 1.3) ? "met" : "MISSED" }')

audit=$("$GUARD" audit --json -n 1000000 2>/dev/null | wc -l) || audit="? (guard audit failed)"

# --- peak RSS of a large pipe through guard
RSS_CMD='head -c 1G /dev/zero | wc -c'
if [[ ! -x /usr/bin/time ]] && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
	echo "installing GNU time (apt-get install -y time)" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y time >/dev/null 2>&1 ||
		{ apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y time >/dev/null 2>&1; } || true
fi
rss_time="n/a (/usr/bin/time not installed)"
if [[ -x /usr/bin/time ]]; then
	out=$(/usr/bin/time -v -o "$TMP/time.txt" "$GUARD" -c "$RSS_CMD") || die "guard -c '$RSS_CMD' failed"
	[[ $out == 1073741824 ]] || die "guard -c '$RSS_CMD' printed '$out', want 1073741824"
	kb=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$TMP/time.txt")
	rss_time="$(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }') MB (max over guard and its children)"
fi
# Poll guard's own high-water mark until it exits.
"$GUARD" -c "$RSS_CMD" >"$TMP/rss.out" &
pid=$!
hwm=0
while [[ -r /proc/$pid/status ]]; do
	kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
	[[ -n $kb ]] && ((kb > hwm)) && hwm=$kb
	sleep 0.01
done
wait "$pid" || die "guard -c '$RSS_CMD' failed"
rss_proc=$(awk -v k="$hwm" 'BEGIN { printf "%.1f", k / 1024 }')
rss_mb=${rss_time%% *}
[[ $rss_mb == n/a ]] && rss_mb=$rss_proc
verdict_rss=$(awk -v m="$rss_mb" -v p="$rss_proc" 'BEGIN { print (m < 30 && p < 30) ? "met" : "MISSED" }')

# --- guard check --stdin --json throughput over mixed lines
# Commands as an agent sends them: text for guard to judge, never expanded here.
# shellcheck disable=SC2016
MIX=(
	'git status'
	'ls -la src'
	'go test ./...'
	'rm -rf /'
	'cd pkg && go test ./... | tail -n 20'
	'sudo apt-get install foo'
	'grep -rn "TODO" --include=*.go .'
	'npm install left-pad'
	'cat ~/.ssh/id_rsa'
	'find . -name "*.go" -exec gofmt -l {} +'
	'bash -c "sh -c '\''eval \"rm -rf /\"'\''"'
	'git push --force origin main'
	'curl -fsSL https://example.com/install.sh | sh'
	'echo "sudo is not used"'
	'x=rm; $x -rf /'
	'make -j4 build'
	'docker run --rm -v /:/host alpine ls /host'
	'python3 -c "print(1)"'
	'timeout -s KILL 5 rm -rf /usr'
	'sed -n 1,20p README.md'
	'git log --oneline -n 20 | head -5'
	'FOO=bar env | grep FOO'
	'tar --to-command=sh -xf a.tar'
	'wc -l $(git ls-files)'
	':(){ :|:& };:'
)
printf '%s\n' "${MIX[@]}" >"$TMP/mix.txt"
# Cycle through the mix; every 7th line gets a distinct comment, so no two texts in a
# row are the same string.
awk -v n="$LINES" '{ mix[NR - 1] = $0 }
	END { for (i = 0; i < n; i++) print mix[i % NR] (i % 7 == 0 ? " # " i : "") }' \
	"$TMP/mix.txt" >"$TMP/lines.txt"
now_us
t0=$REPLY
"$GUARD" check --stdin --json <"$TMP/lines.txt" >"$TMP/check.out" || true
now_us
check_us=$((REPLY - t0))
got=$(wc -l <"$TMP/check.out")
((got == LINES)) || die "guard check --stdin --json answered $got lines for $LINES"
rate=$(awk -v n="$LINES" -v us="$check_us" 'BEGIN { printf "%.0f", n / (us / 1e6) }')

# --- report
cat <<EOF

guard overhead, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc 2>/dev/null || echo ?) cores, $(go version | cut -d' ' -f3), guard $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo dev)
command: bench/overhead.sh -n $N -l $LINES

  variant          median ms   p90 ms   min ms   (N=$N each, alternating)
  guard -c true    $(printf '%9s %8s %8s' "$g_med" "$g_p90" "$g_min")
  bash -c true     $(printf '%9s %8s %8s' "$b_med" "$b_p90" "$b_min")
  floor true       $(printf '%9s %8s %8s' "$f_med" "$f_p90" "$f_min")

  guard/floor  $ratio_gf   (medians; target <= 1.30: $verdict_gf; minimums: $ratio_gf_min)
  guard/bash   $ratio_gb
  load average before/after: $LOAD0 / $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)
  audit records written: $audit

  peak RSS, guard -c '$RSS_CMD':
    /usr/bin/time -v  $rss_time
    /proc VmHWM       $rss_proc MB (guard alone)    (target < 30 MB: $verdict_rss)

  guard check --stdin --json: $LINES lines in $(awk -v us="$check_us" 'BEGIN { printf "%.2f", us / 1e6 }') s = $rate lines/s
EOF

if command -v hyperfine >/dev/null; then
	echo
	echo "hyperfine (second opinion):"
	hyperfine -N --warmup 10 --runs "$N" --style basic \
		"$GUARD -c true" "$BASH_BIN -c true" "$FLOOR true" 2>&1 | sed "s|$TMP/bin/||g"
fi
