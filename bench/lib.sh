# bench/lib.sh: the timing loop the benchmarks share. Source it after
# defining die MESSAGE and run_one VARIANT (runs one variant once, output
# discarded, exit status checked), with $TMP a scratch directory.

# now_us sets REPLY to the wall clock in microseconds; CLOCK says which.
if [[ -n ${EPOCHREALTIME:-} ]]; then
	now_us() { REPLY=${EPOCHREALTIME/./}; }
	# shellcheck disable=SC2016 # the name, not its value
	CLOCK='$EPOCHREALTIME'
else
	now_us() { REPLY=$(($(date +%s%N) / 1000)); }
	CLOCK='date +%s%N (adds a fork per sample; bash >= 5 is better)'
fi

# time_alternating N VARIANT... warms each variant up ten times, then runs
# N rounds in which every variant runs once, the order rotating each round
# (so that no variant always follows the same one), and leaves each run's
# microseconds in $TMP/VARIANT.us.
time_alternating() {
	local n=$1 i k v t0
	shift
	local vs=("$@")
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		for v in "${vs[@]}"; do run_one "$v" >/dev/null || die "$v failed"; done
	done
	echo "timing $n repetitions of each, alternating (clock: $CLOCK)" >&2
	for v in "${vs[@]}"; do : >"$TMP/$v.us"; done
	for ((i = 0; i < n; i++)); do
		for ((k = 0; k < ${#vs[@]}; k++)); do
			v=${vs[(i + k) % ${#vs[@]}]}
			now_us
			t0=$REPLY
			run_one "$v" >/dev/null || die "$v failed on repetition $i"
			now_us
			echo $((REPLY - t0)) >>"$TMP/$v.us"
		done
	done
}

# stats FILE prints "median p90 min" in milliseconds (nearest-rank p90). The
# minimum is the cost with the least interference from the rest of the machine.
stats() {
	sort -n "$1" | awk '{ a[NR] = $1 }
		END {
			m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
			r = int(0.9 * NR); if (r < 0.9 * NR) r++
			printf "%.2f %.2f %.2f\n", m / 1000, a[r] / 1000, a[1] / 1000
		}'
}
