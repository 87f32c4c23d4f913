#!/usr/bin/env bash
# bench/overhead.sh: what guard costs per command. A benchmark, not a test: CI does
# not run it. Run it from anywhere in the repo:
#
#   bench/overhead.sh            # 200 alternating repetitions
#   bench/overhead.sh -n 500
#
# It builds guard, guard-cli and bench/floor (a Go program that only forks
# `bash -c "$1"` and waits: the least a Go shim can cost) into a temp dir,
# points HOME and every XDG directory at a temp dir whose global config allows
# what is timed (filesystem confinement left on: [confine] mode is "auto"),
# and then measures, in ONE interleaved run (the order rotates every
# repetition), N times each:
#
#   guard -c true                          vs floor true              target <= 1.15
#   guard -c 'git status' (granted), in a
#     git work tree of 1,000 files         vs floor 'git status'      target <= 1.10
#   guard hook claude (git status allowed) vs floor true              target <= 0.80
#   a cache hit of `sh ./slow.sh` (sleep 1),
#     in a git work tree of 10,000 files   vs floor true              target <= 1.20
#
# Each ratio is given as the median of the per-round ratios (variant and
# floor timed in the same round) with their min..max, beside the ratio of
# the medians; the machine's load average is printed before and after, so
# that a noisy run shows as noisy. Then:
#
#   - peak RSS of `guard -c 'head -c 1G /dev/zero | wc -c'` (target < 30 MB),
#     from /usr/bin/time -v (installed with apt-get when missing and root) and
#     from polling guard's own VmHWM in /proc;
#   - `guard check --stdin --json` throughput over generated mixed lines
#     (target >= 100,000 lines/s): the best wall time of three runs, and the
#     CPU time that run used.
#
# The in-process figure (analyse + decide on one core, target >= 150,000/s)
# is a Go benchmark: go test ./grants -run '^$' -bench AnalyzeDecide -cpu 1
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
allow = ["true", "head -c 1G /dev/zero", "wc -c", "git status", "sh ./slow.sh"]
[[cache]]
match = "sh ./slow.sh"
ttl = "1h"
EOF

# A git work tree of 1,000 files (git status through guard and the floor),
# and one of 10,000 files holding the 1 s command whose output is cached.
echo "making work trees of 1,000 and 10,000 files" >&2
mk_tree() { # DIR N
	mkdir -p "$1" || die "mkdir $1"
	(cd "$1" && seq 1 "$2" | awk '{ print "d" int($1 / 100) "/f" $1 ".txt" }' |
		while read -r f; do mkdir -p "${f%/*}" && echo "$f" >"$f"; done &&
		printf 'sleep 1; echo done\n' >slow.sh &&
		git init -q && git add -A && git -c user.email=b@e -c user.name=bench commit -qm tree) ||
		die "could not make a work tree of $2 files in $1"
}
mk_tree "$TMP/repo1k" 1000
mk_tree "$TMP/repo10k" 10000
HOOK_IN=$TMP/hook.json
printf '%s\n' '{"session_id":"bench-session","transcript_path":"/tmp/t.jsonl","cwd":"'"$TMP/work"'","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","description":"Show working tree status"},"tool_use_id":"toolu_bench"}' >"$HOOK_IN"
cd "$TMP/work"

# --- sanity: nothing below means anything unless guard runs what it times
if ! "$GUARD" -c true 2>"$TMP/sanity.err"; then
	cat "$TMP/sanity.err" >&2
	die "'guard -c true' did not exit 0 in the bench setup; guard is not ready to measure"
fi
(cd "$TMP/repo1k" && "$GUARD" -c 'git status' >/dev/null 2>"$TMP/sanity.err") || {
	cat "$TMP/sanity.err" >&2
	die "'guard -c git status' failed in the bench setup"
}
out=$("$GUARD" hook claude <"$HOOK_IN") || die "guard hook claude failed"
[[ $out == *'"permissionDecision":"allow"'* ]] || die "guard hook claude did not allow git status: $out"
# Prime the cache the way the timed runs ask (stdout /dev/null, stderr
# discarded); the run after the warm-up is checked to be a hit.
(cd "$TMP/repo10k" && "$GUARD" -c 'sh ./slow.sh' >/dev/null 2>/dev/null) || die "guard -c 'sh ./slow.sh' failed"

# shellcheck source=bench/lib.sh
. "$REPO/bench/lib.sh"

# run_one VARIANT runs one variant once, output discarded, exit status checked.
# A cd is a builtin: it costs the timing nothing.
run_one() {
	case $1 in
	guard) cd "$TMP/work" && "$GUARD" -c true ;;
	floor) cd "$TMP/work" && "$FLOOR" true ;;
	gitg) cd "$TMP/repo1k" && "$GUARD" -c 'git status' ;;
	gitf) cd "$TMP/repo1k" && "$FLOOR" 'git status' ;;
	hook) cd "$TMP/work" && "$GUARD" hook claude <"$HOOK_IN" ;;
	cache) cd "$TMP/repo10k" && "$GUARD" -c 'sh ./slow.sh' 2>/dev/null ;;
	bash) cd "$TMP/work" && "$BASH_BIN" -c true ;;
	esac
}
now_us
t0=$REPLY
run_one cache >/dev/null || die "the cached command failed"
now_us
((REPLY - t0 < 500000)) || die "guard -c 'sh ./slow.sh' took $(((REPLY - t0) / 1000)) ms after priming: not a cache hit"

# pair A B prints "median min max" of A's time over B's in the same round.
pair() {
	paste "$TMP/$1.us" "$TMP/$2.us" | awk '$2 > 0 { print $1 / $2 }' | sort -g | awk '{ a[NR] = $1 }
		END {
			m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
			printf "%.2f %.2f %.2f\n", m, a[1], a[NR]
		}'
}
# line NAME A B TARGET prints one line of the report: A over B.
line() {
	local med p90 mn fmed fp90 fmn r lo hi rm verdict=-
	read -r med p90 mn < <(stats "$TMP/$2.us")
	read -r fmed fp90 fmn < <(stats "$TMP/$3.us")
	read -r r lo hi < <(pair "$2" "$3")
	rm=$(awk -v a="$med" -v b="$fmed" 'BEGIN { printf "%.2f", a / b }')
	[[ $4 == - ]] || verdict=$(awk -v r="$r" -v t="$4" 'BEGIN { print (r <= t) ? "met" : "MISSED" }')
	printf '  %-40s %6s %6s %6s   %5s  %5s..%-5s  %5s   <= %-4s %s\n' "$1" "$med" "$p90" "$mn" "$r" "$lo" "$hi" "$rm" "$4" "$verdict"
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)
echo "warming up" >&2
time_alternating "$N" guard floor gitg gitf hook cache bash
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)
cd "$TMP/work"
read -r f_med f_p90 f_min < <(stats "$TMP/floor.us")
read -r gf_med gf_p90 gf_min < <(stats "$TMP/gitf.us")

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
# Three runs; the best wall time counts (the others met more of the rest of
# the machine), with the CPU time that run used (from /usr/bin/time).
best_us=0 cpu_s=?
for _ in 1 2 3; do
	rm -f "$TMP/check.time"
	now_us
	t0=$REPLY
	if [[ -x /usr/bin/time ]]; then
		/usr/bin/time -f '%U %S' -o "$TMP/check.time" "$GUARD" check --stdin --json <"$TMP/lines.txt" >"$TMP/check.out" || true
	else
		"$GUARD" check --stdin --json <"$TMP/lines.txt" >"$TMP/check.out" || true
	fi
	now_us
	us=$((REPLY - t0))
	got=$(wc -l <"$TMP/check.out")
	((got == LINES)) || die "guard check --stdin --json answered $got lines for $LINES"
	if ((best_us == 0 || us < best_us)); then
		best_us=$us cpu_s=?
		[[ -r $TMP/check.time ]] && cpu_s=$(awk '{ printf "%.2f", $1 + $2 }' "$TMP/check.time")
	fi
done
check_us=$best_us
rate=$(awk -v n="$LINES" -v us="$check_us" 'BEGIN { printf "%.0f", n / (us / 1e6) }')
cpu_rate=$(awk -v n="$LINES" -v s="$cpu_s" 'BEGIN { if (s + 0 > 0) printf "%.0f", n / s; else print "?" }')
verdict_check=$(awk -v r="$rate" 'BEGIN { print (r >= 100000) ? "met" : "MISSED" }')

# --- report
cat <<EOF

guard overhead, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc 2>/dev/null || echo ?) cores, $(go version | cut -d' ' -f3), guard $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo dev), euid $(id -u), kernel $(uname -r)
command: bench/overhead.sh -n $N -l $LINES
load average before: $LOAD0   after: $LOAD1   (a busy machine widens min..max)

  ms; N=$N each, one interleaved run            median    p90    min   ratio  min..max     ratio    target
                                                                      (per round)          (medians)
EOF
line "guard -c true / floor true" guard floor 1.15
line "git status in 1,000 files / floor" gitg gitf 1.10
line "guard hook claude / floor true" hook floor 0.80
line "cache hit of 1 s in 10,000 files / floor" cache floor 1.20
line "bash -c true / floor true" bash floor -
cat <<EOF
  (floor true: median $f_med ms, min $f_min; floor 'git status' in 1,000 files: median $gf_med ms, min $gf_min)
  audit records written: $audit

  peak RSS, guard -c '$RSS_CMD':
    /usr/bin/time -v  $rss_time
    /proc VmHWM       $rss_proc MB (guard alone)    (target < 30 MB: $verdict_rss)

  guard check --stdin --json: $LINES lines in $(awk -v us="$check_us" 'BEGIN { printf "%.2f", us / 1e6 }') s = $rate lines/s (best of 3; target >= 100000: $verdict_check)
    CPU time of that run: $cpu_s s = $cpu_rate lines per CPU second
  in-process analyse+decide, one core: go test ./grants -run '^\$' -bench AnalyzeDecide -cpu 1
EOF

if command -v hyperfine >/dev/null; then
	echo
	echo "hyperfine (second opinion):"
	hyperfine -N --warmup 10 --runs "$N" --style basic \
		"$GUARD -c true" "$BASH_BIN -c true" "$FLOOR true" 2>&1 | sed "s|$TMP/bin/||g"
fi
