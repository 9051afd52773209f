#!/bin/sh
# `make fuzz`: run each fuzz target for FUZZ_SECONDS (default 60), in turn.
#   run.sh SRCDIR WORKDIR TARGET...
# The targets are programs in the same folder as this script's build copy
# (tests/fuzz/TARGET in the build tree).  WORKDIR keeps, per target:
#   seeds/TARGET/      the seeds, assembled afresh from the source tree
#   corpus/TARGET/     what the fuzzer found interesting (kept across runs)
#   artifacts/TARGET/  a reproducer for each crash, leak or timeout
#   TARGET.log         libFuzzer's output
# Prints one line per target (executions, speed, coverage) and fails if any
# target found something; rerun a reproducer with `tests/fuzz/TARGET FILE`.
# An input slower than its target's timeout is a finding too: 60 s for the
# loader targets (a shipped sweep of 110 points takes 8 to 27 s to check
# under the sanitizers on a busy machine), 10 s for the trace parsers.  FUZZ_TIMEOUT (seconds
# per input), FUZZ_MAX_LEN (bytes per input) and FUZZ_FLAGS (more libFuzzer
# flags) tune a campaign by hand.
set -u
src=$1
work=$2
shift 2
seconds=${FUZZ_SECONDS:-60}

sh "$src/tests/fuzz/seeds.sh" "$src" "$work/seeds" >/dev/null || exit 1

failed=0
for target in "$@"; do
	case $target in
	fuzz_scenario | fuzz_model) dict=yaml.dict len=8192 slow=60 ;;
	fuzz_trace_disksim) dict=disksim.dict len=4096 slow=10 ;;
	fuzz_trace_validate) dict=validate.dict len=4096 slow=10 ;;
	fuzz_trace_msr) dict=msr.dict len=4096 slow=10 ;;
	fuzz_trace_spc) dict=spc.dict len=4096 slow=10 ;;
	fuzz_trace_blkparse) dict=blkparse.dict len=4096 slow=10 ;;
	*) echo "run.sh: unknown target $target" >&2 && exit 2 ;;
	esac
	mkdir -p "$work/corpus/$target" "$work/artifacts/$target"
	log=$work/$target.log
	# shellcheck disable=SC2086
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
		"tests/fuzz/$target" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-$slow}" \
		-max_len="${FUZZ_MAX_LEN:-$len}" -rss_limit_mb=2048 -print_final_stats=1 \
		-dict="$src/tests/fuzz/$dict" -artifact_prefix="$work/artifacts/$target/" \
		${FUZZ_FLAGS:-} "$work/corpus/$target" "$work/seeds/$target" >"$log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$log" | tail -n 1)
	echo "$target: ${runs:-?} runs, ${speed:-?} exec/s, ${cov:-no coverage line}, peak ${rss:-?} MB"
	if [ "$status" -ne 0 ]; then
		failed=$((failed + 1))
		echo "$target: FAILED (status $status), see $log"
		grep -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|^raidsim fuzz|ALARM|out-of-memory' \
			"$log" | head -n 5 | sed 's/^/  /'
		grep -E 'Test unit written to' "$log" | sed 's/^.*written to /  reproducer: /'
	fi
done
[ "$failed" -eq 0 ]
