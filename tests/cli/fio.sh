#!/bin/sh
# fio job files as workloads: fio's own examples (tests/cli/fio/) run with
# `raidsim run JOB.fio --device MODEL`; fio-rand-read.fio gives the same
# table, byte for byte, as the iometer workload it describes; options that
# do not shape the I/O are listed once as ignored; flush columns appear
# with fsync and only then; --device goes with a job file and only there.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
jobs=$here/fio

# Every job shortened to $2 of simulated time.
run_job() { # job, runtime, output, extra...
	job=$1 t=$2 out=$3
	shift 3
	"$raidsim" run "$jobs/$job" --device ideal-1ms --set workload.fio.runtime="$t" \
		-o "$out" -j 1 "$@" >/dev/null 2>>"$tmp/stderr"
}

same_table() {
	run_job fio-rand-read.fio 2s "$tmp/fio" &&
		"$raidsim" run "$jobs/rand-read.yaml" --set device.model=ideal-1ms \
			--set workload.iometer.run=2s -o "$tmp/iometer" -q -j 1 &&
		cmp "$tmp/fio/fio-rand-read.tsv" "$tmp/iometer/rand-read.tsv"
}
check "fio-rand-read.fio and rand-read.yaml: the same table" same_table

# A result row with some IOPS.
has_iops() { # tsv
	awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "iops") c = i }
		NR == 2 { ok = c && $c > 0 } END { exit !ok }' "$1"
}
for j in fio-rand-RW fio-seq-write ssd-test sync; do
	check "$j.fio runs" run_job "$j.fio" 200ms "$tmp/$j"
	check "$j.fio has IOPS" has_iops "$tmp/$j/$j.tsv"
done

flush_cols() { head -n 1 "$1" | grep -q 'flush_iops	flush_lat_ms	limited_by$'; }
check "fsync=1: flush columns" flush_cols "$tmp/sync/sync.tsv"
check "no flushes: no flush columns" sh -c "! grep -q flush '$tmp/ssd-test/ssd-test.tsv'"

ignored_once() {
	: >"$tmp/stderr"
	run_job ssd-test.fio 100ms "$tmp/ignored" &&
		[ "$(grep -c 'ignored' "$tmp/stderr")" -eq 1 ] &&
		grep -q 'ignored (they do not change the I/O pattern): ioengine, directory, filename$' \
			"$tmp/stderr"
}
check "host options listed once as ignored" ignored_once

# A scenario names its job file relative to its own folder, from anywhere.
from_elsewhere() {
	mkdir -p "$tmp/s" && cp "$jobs/sync.fio" "$tmp/s/" &&
		printf 'device: {model: ideal-1ms}\nworkload: {fio: sync.fio}\n' >"$tmp/s/s.yaml" &&
		(cd / && "$raidsim" run "$tmp/s/s.yaml" -o "$tmp/s/out" -q -j 1 2>/dev/null) &&
		has_iops "$tmp/s/out/s.tsv"
}
check "a scenario's fio: is relative to its folder" from_elsewhere

status_is() { # status, command...
	want=$1
	shift
	"$@" >/dev/null 2>&1
	[ $? -eq "$want" ]
}
quiet() {
	"$raidsim" run "$jobs/ssd-test.fio" --device ideal-1ms --set workload.fio.runtime=10ms \
		-o "$tmp/quiet" -q -j 1 >"$tmp/q.out" 2>&1 && [ ! -s "$tmp/q.out" ]
}
check "-q: not even the ignored options" quiet
check "a job file needs --device" status_is 2 "$raidsim" run "$jobs/sync.fio" -o "$tmp/x"
check "--device only with a job file" status_is 2 \
	"$raidsim" run "$here/small.yaml" --device ideal-1ms -o "$tmp/x"
check "a job file that is not there" status_is 2 \
	"$raidsim" run "$tmp/none.fio" --device ideal-1ms -o "$tmp/x"
check "nothing written on refusal" test ! -e "$tmp/x"
summary fio
