#!/usr/bin/env bash
# bench/context.sh: what the command context store costs. A benchmark, not a
# test: CI does not run it. Run it from anywhere in the repo:
#
#   bench/context.sh            # 100 interleaved repetitions
#   bench/context.sh -n 300
#
# It builds guard, guard-cli and bench/floor into a temp dir, points HOME and
# every XDG directory there, and measures:
#
#   1. `guard -c true` with stdout a file (captured) and with GUARD_NO_CACHE=1
#      (not captured), with and without [[cache]] rules that do not match it:
#      guard's own system calls (strace -f, the command's left out, runtime
#      noise such as futex and nanosleep left out) and wall-time medians.
#   2. a cache hit for `sh ./slow.sh` (sleep 1) against `floor true`, in a plain
#      directory of 100 files and in a git work tree of 100 files.
#   3. `guard -c 'cat FILE'` for a 100 MB file into a pipe (| cat) and into
#      a file, captured and with GUARD_NO_CACHE=1, interleaved: wall-time
#      medians. guard-cli is moved away for this part so that the spool
#      import it would start does not compete.
#
# On a busy machine wall times are noisy: prefer the system-call counts and CPU.
set -euo pipefail
export LC_ALL=C
N=100
while (($#)); do
	case $1 in
	-n) N=${2:?-n needs a number}; shift ;;
	-h | --help) sed -n '2,22p' "$0"; exit 0 ;;
	*) echo "usage: bench/context.sh [-n N]" >&2; exit 2 ;;
	esac
	shift
done
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$repo" && CGO_ENABLED=0 go build -o "$tmp/bin/guard" ./cmd/guard && go build -o "$tmp/bin/guard-cli" ./cmd/guard-cli &&
	go build -o "$tmp/bin/floor" ./bench/floor)
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config XDG_CACHE_HOME=$tmp/home/.cache XDG_STATE_HOME=$tmp/home/.state
mkdir -p "$XDG_CONFIG_HOME/guard" "$tmp/plain" "$tmp/repo" "$tmp/conf-rules/guard"
G=$tmp/bin/guard
cat >"$XDG_CONFIG_HOME/guard/config.toml" <<'TOML'
[permissions.bash]
allow = ["true", "sh ./slow.sh", "cat *"]
[[cache]]
match = "sh ./slow.sh"
ttl = "1h"
TOML
cat >"$tmp/conf-rules/guard/config.toml" <<'TOML'
[permissions.bash]
allow = ["true"]
[[cache]]
match = "go test *"
ttl = "1h"
[[cache]]
match = "cargo build *"
ttl = "1h"
TOML
for d in plain repo; do
	printf 'sleep 1; echo done\n' >"$tmp/$d/slow.sh"
	for i in $(seq 100); do echo "$i" >"$tmp/$d/f$i.txt"; done
done
(cd "$tmp/repo" && git init -q && git add . && git -c user.email=b@e -c user.name=b commit -qm x)

median() { sort -n | awk '{a[NR]=$1} END{printf "%.2f", a[int((NR+1)/2)]}'; }
# wall NAME CMD…: N interleaved runs are done by the caller; this times one
declare -A samples
timeit() {
	local name=$1
	shift
	local s=$EPOCHREALTIME
	"$@" >"$tmp/out" 2>/dev/null </dev/null || true
	local e=$EPOCHREALTIME
	samples[$name]+="$(awk -v s="$s" -v e="$e" 'BEGIN{print (e-s)*1000}') "
}
report() { for k in "$@"; do printf '  %-34s median %s ms\n' "$k" "$(echo "${samples[$k]}" | tr ' ' '\n' | grep . | median)"; done; }

syscalls() { # guard-side system calls of one run
	strace -f -o "$tmp/trace" "$@" >"$tmp/out" 2>/dev/null </dev/null
	local child
	child=$(grep -m1 'execve("[^"]*/\(bash\|sh\|true\|cat\)"' "$tmp/trace" | awk '{print $1}')
	grep -v "^$child " "$tmp/trace" | grep -v resumed | awk '{print $2}' | sed 's/(.*//' |
		grep -Evc 'nanosleep|futex|sched_yield|rt_sig|sigaltstack|gettid|mmap|munmap|madvise|clone|tgkill|getpid|epoll_pwait|mprotect|set_robust|rseq|exit'
}

echo "1. guard -c true (stdout a file)"
cd "$tmp/plain"
"$G" -c true >"$tmp/out"
if command -v strace >/dev/null; then
	echo "  system calls, captured:                 $(syscalls "$G" -c true)"
	echo "  system calls, GUARD_NO_CACHE=1:         $(GUARD_NO_CACHE=1 syscalls "$G" -c true)"
	echo "  system calls, captured, 2 other rules:  $(XDG_CONFIG_HOME=$tmp/conf-rules syscalls "$G" -c true)"
fi
for ((i = 0; i < N; i++)); do
	timeit floor "$tmp/bin/floor" true
	timeit captured "$G" -c true
	GUARD_NO_CACHE=1 timeit no-cache "$G" -c true
	XDG_CONFIG_HOME=$tmp/conf-rules timeit "captured, 2 other rules" "$G" -c true
done
report floor captured no-cache "captured, 2 other rules"

echo "2. a cache hit for a 1 s command"
# (stdout and stderr apart, as timeit has them: the key records a merge)
(cd "$tmp/plain" && "$G" -c 'sh ./slow.sh' >"$tmp/out" 2>/dev/null </dev/null)
(cd "$tmp/repo" && "$G" -c 'sh ./slow.sh' >"$tmp/out" 2>/dev/null </dev/null)
for ((i = 0; i < N; i++)); do
	timeit floor-true "$tmp/bin/floor" true
	cd "$tmp/plain" && timeit "hit, plain directory" "$G" -c 'sh ./slow.sh'
	cd "$tmp/repo" && timeit "hit, git work tree" "$G" -c 'sh ./slow.sh'
done
report floor-true "hit, plain directory" "hit, git work tree"

echo "3. 100 MB through guard -c cat"
cd "$tmp/plain"
seq 1 1200000 | awk '{print "2026-12-01T10:00:00Z INFO request id=" $1 " path=/api/v1/items status=200 took=12ms"}' >big.txt
truncate -s 100000000 big.txt
mv "$tmp/bin/guard-cli" "$tmp/guard-cli.off"
# Interleaved, the order flipped every round: run in blocks, whichever
# block comes second pays for the page cache the first one left to write
# back, and the figures flip with the order.
for dest in "| cat >/dev/null" ">$tmp/out.txt"; do
	for ((i = 0; i < N; i++)); do
		order=(captured passthrough)
		((i % 2)) && order=(passthrough captured)
		for mode in "${order[@]}"; do
			env=(GUARD_CACHE_BENCH=1)
			[[ $mode == passthrough ]] && env=(GUARD_NO_CACHE=1)
			s=$EPOCHREALTIME
			env "${env[@]}" sh -c "$G -c 'cat big.txt' $dest" </dev/null 2>/dev/null
			e=$EPOCHREALTIME
			samples["100MB $dest $mode"]+="$(awk -v s="$s" -v e="$e" 'BEGIN{print (e-s)*1000}') "
		done
	done
	echo "  stdout $dest:"
	for mode in captured passthrough; do
		printf '    %-12s median %s ms\n' "$mode" "$(echo "${samples["100MB $dest $mode"]}" | tr ' ' '\n' | grep . | median)"
	done
done
mv "$tmp/guard-cli.off" "$tmp/bin/guard-cli"
