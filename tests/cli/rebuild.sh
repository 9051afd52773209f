#!/bin/sh
# Member faults end to end: a scenario's `faults:` fails a drive of a
# RAID5 with a spare; the table gains a rebuild_s column with the rebuild's
# duration (a 16 MiB member of 100 MB/s drives: about 0.17 s idle, longer
# under the load) and its start, end, bytes, reconstructed bytes, rows
# lost and requests failed with data loss, the same bytes for any --jobs; a second failure loses
# data (requests fail, counted as errors); without member faults the
# table has no such column and is the same as with an empty faults list;
# after_ios, replaced, media errors and fail-slow run through a scenario.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"

scenario() { # name, faults lines
	cat <<EOF2
seed: 1
device:
  type: array
  level: raid5
  spares: 1
  speed_limit_min: 50MB/s
  disks: {type: ideal, mean: 0.5ms, bandwidth: 100MB/s, capacity: 16MiB, count: 4}
workload:
  iometer: {spec: database, outstanding: 4, run: 3s}
sweep:
  workload.iometer.outstanding: [1, 4]
output:
  name: $1
$2
EOF2
}
col() { # file, column name, row (1 = first data row)
	awk -F '\t' -v c="$2" -v r="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		NR == r + 1 { print k ? $k : "missing" }' "$1"
}

scenario one 'faults:
  - {at: 1s, member: disk2, state: failed}' >"$tmp/one.yaml"
scenario two 'faults:
  - {at: 1s, member: disk2, state: failed}
  - {at: 1s, member: disk0, state: failed}' >"$tmp/two.yaml"
scenario all 'faults:
  - {after_ios: 500, member: disk1, state: failed}
  - {at: 2s, member: disk1, state: replaced}
  - {member: disk1, lba: [0, 20000], error: media}
  - {at: 1s, member: disk0, slow: 3}' >"$tmp/all.yaml"
scenario none '' >"$tmp/none.yaml"
scenario empty 'faults: []' >"$tmp/empty.yaml"

"$raidsim" run "$tmp/one.yaml" -q -j 1 -o "$tmp/a" || exit 1
"$raidsim" run "$tmp/one.yaml" -q -j 2 -o "$tmp/b" || exit 1
check "same bytes for any --jobs" cmp -s "$tmp/a/one.tsv" "$tmp/b/one.tsv"
for row in 1 2; do
	r=$(col "$tmp/a/one.tsv" rebuild_s $row)
	check "rebuild_s row $row is a duration ($r)" \
		awk -v r="$r" 'BEGIN { exit !(r + 0 > 0.16 && r + 0 < 2) }'
	check "no errors with one failure (row $row)" [ "$(col "$tmp/a/one.tsv" errors $row)" = 0 ]
done
# The rebuild's other figures: it starts when disk2 fails (1 s) and ends
# rebuild_s later, having written the whole 16 MiB member; nothing lost.
start=$(col "$tmp/a/one.tsv" rebuild_start_s 1)
end=$(col "$tmp/a/one.tsv" rebuild_end_s 1)
check "rebuild starts at the failure ($start)" [ "$start" = 1 ]
check "rebuild_end_s - rebuild_start_s = rebuild_s ($end)" awk -v s="$start" -v e="$end" \
	-v r="$(col "$tmp/a/one.tsv" rebuild_s 1)" 'BEGIN { d = e - s - r; exit !(d < 1e-5 && d > -1e-5) }'
check "rebuild_mib is the member" awk -v b="$(col "$tmp/a/one.tsv" rebuild_mib 1)" \
	'BEGIN { exit !(b > 15.9 && b <= 16) }'
check "degraded reads reconstructed data" \
	awk -v b="$(col "$tmp/a/one.tsv" recon_mib 2)" 'BEGIN { exit !(b + 0 > 0) }'
check "no stripes lost with one failure" [ "$(col "$tmp/a/one.tsv" stripes_lost 1)" = 0 ]
check "no data-loss requests with one failure" [ "$(col "$tmp/a/one.tsv" dataloss_requests 1)" = 0 ]
"$raidsim" run "$tmp/two.yaml" -q -j 1 -o "$tmp/a" || exit 1
check "a second failure loses data" \
	awk -v e="$(col "$tmp/a/two.tsv" errors 1)" 'BEGIN { exit !(e + 0 > 0) }'
# (dataloss_requests counts the whole run, errors the measuring window.)
check "the lost requests are counted as data loss" awk -v e="$(col "$tmp/a/two.tsv" errors 1)" \
	-v l="$(col "$tmp/a/two.tsv" dataloss_requests 1)" 'BEGIN { exit !(l + 0 > 0 && l + 1 > e * 0.9) }'
# The columns come from every point, not the first only: a sweep whose
# point 0 has no faults still has them, nan where a point lacks them.
scenario mixed 'faults: []' | sed 's/^  workload.iometer.outstanding: .*/  faults: [[], [{at: 1s, member: disk2, state: failed}]]/' \
	>"$tmp/mixed.yaml"
"$raidsim" run "$tmp/mixed.yaml" -q -j 1 -o "$tmp/a" || exit 1
check "no rebuild at a point without faults" [ "$(col "$tmp/a/mixed.tsv" rebuild_s 1)" = nan ]
check "no stripes_lost at a point without faults" [ "$(col "$tmp/a/mixed.tsv" stripes_lost 1)" = nan ]
r=$(col "$tmp/a/mixed.tsv" rebuild_s 2)
check "rebuild_s at the faulty point 1 ($r)" awk -v r="$r" 'BEGIN { exit !(r + 0 > 0.16 && r + 0 < 2) }'
check "the JSON has the columns too" grep -q '"dataloss_requests"' "$tmp/a/mixed.json"
# Every kind of member fault in one run: disk1's bad blocks are read
# without it, then it dies after 500 commands and its replacement (without
# them) is rebuilt at 2 s; disk0 runs slow; nothing fails.  (Bad blocks on
# another member would lose data while disk1 is gone: RAID5 survives one
# fault per row.)
"$raidsim" run "$tmp/all.yaml" -q -j 1 -o "$tmp/a" || exit 1
r=$(col "$tmp/a/all.tsv" rebuild_s 2)
check "a replaced drive is rebuilt ($r)" awk -v r="$r" 'BEGIN { exit !(r + 0 > 0.16 && r + 0 < 1) }'
check "no errors with every kind of fault" [ "$(col "$tmp/a/all.tsv" errors 2)" = 0 ]
"$raidsim" run "$tmp/none.yaml" -q -j 1 -o "$tmp/a" || exit 1
"$raidsim" run "$tmp/empty.yaml" -q -j 1 -o "$tmp/a" || exit 1
check "no rebuild_s column without faults" [ "$(col "$tmp/a/none.tsv" rebuild_s 1)" = missing ]
check "an empty faults list changes nothing" cmp -s "$tmp/a/none.tsv" "$tmp/a/empty.tsv"
summary rebuild
