#!/bin/sh
# Instructions per simulated request of the paths `rs-bench only` knows,
# beside their requests per wall second: `perf stat -e instructions:u` when
# the machine lets perf count them, else valgrind's cachegrind (exact and
# repeatable, but some 50 times slower, so shorter runs), else skipped.
# Each path runs twice, SMALL and LARGE requests; the difference divided
# by LARGE - SMALL leaves out building the device and loading the models.
# `hold` is the event kernel alone (the hold model of 1,000 pending
# events): its figure is per event fired, not per request.
#
#   sh bench/instructions.sh ./bench/rs-bench
bench=${1:-./bench/rs-bench}
paths="hold atlas10k-qd1 atlas10k-raid0-qd16"

count_perf() {
	perf stat -x, -e instructions:u -- "$bench" only "$1" "$2" 2>&1 >/dev/null |
		awk -F, '/instructions/ { print $1 }'
}

count_cachegrind() {
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
		"$bench" only "$1" "$2" 2>&1 >/dev/null |
		awk '/I *refs:/ { gsub(",", "", $NF); print $NF }'
}

is_number() { case $1 in ''|*[!0-9]*) return 1;; esac; return 0; }

tool=
if command -v perf >/dev/null 2>&1 && is_number "$(count_perf atlas10k-qd1 1000)"; then
	tool=perf small=100000 large=1100000
elif command -v valgrind >/dev/null 2>&1 &&
	is_number "$(count_cachegrind atlas10k-qd1 1000)"; then
	tool=cachegrind small=20000 large=120000
else
	echo "instructions per request: skipped (neither perf stat nor valgrind can count" \
		"instructions here)"
	exit 0
fi

echo "instructions per simulated request ($tool, runs of $small and $large requests):"
printf '  %-22s %16s %22s\n' path requests/s instructions/request
for p in $paths; do
	rate=$("$bench" only "$p" $small) || exit 1
	a=$(count_$tool "$p" $small)
	b=$(count_$tool "$p" $large)
	if ! is_number "$a" || ! is_number "$b"; then
		echo "instructions per request: $tool failed on $p" >&2
		exit 1
	fi
	printf '  %-22s %16s %22s\n' "$p" "$rate" \
		"$(awk -v a="$a" -v b="$b" -v n=$((large - small)) \
			'BEGIN { printf "%.0f", (b - a) / n }')"
done
