#!/bin/sh
# What limited a run: the per-component file NAME.components.tsv, the
# components of each JSON point, the limited_by column (the busiest part
# above 90 % utilisation, else the workload), and the summary printed on
# stdout (--output-format).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
has() { grep -q -- "$2" "$1"; }
hasnt() { ! grep -q -- "$2" "$1"; }
# column NAME FILE: the values of column NAME (by its header), one a line
column() {
	awk -F '\t' -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		{ print $k }' "$2"
}

"$raidsim" run "$here/bus-limit.yaml" -q -j 1 -o "$tmp/bus"
t=$tmp/bus/bus-limit.tsv
c=$tmp/bus/bus-limit.components.tsv
check "bus: limited_by is the last column" sh -c "head -n 1 '$t' | grep -q '	limited_by\$'"
check "bus: the host bus limits" test "$(column limited_by "$t")" = ctrl.bus
check "bus: components header" sh -c "head -n 1 '$c' | grep -qx 'component	kind	utilisation	ops_s	time_ms	service_ms	queue_ms'"
check "bus: the bus is busy" awk -F '\t' '$1 == "ctrl.bus" && $3 > 0.9 { ok = 1 } END { exit !ok }' "$c"
check "bus: every disk listed" sh -c "for d in disk0 disk1 disk2 disk3; do grep -q \"^\$d	device	\" '$c' || exit 1; done"
check "bus: the channels listed" has "$c" "^ctrl.channel3	link	"
check "bus: the disks are not the limit" awk -F '\t' '$2 == "device" && $3 > 0.9 { bad = 1 } END { exit bad }' "$c"
check "bus: JSON components" has "$tmp/bus/bus-limit.json" '"components": \[{"component": "ctrl", "kind": "ctrl", "utilisation": '
check "bus: JSON verdict" has "$tmp/bus/bus-limit.json" '"limited_by": "ctrl.bus"'
check "bus: no part files left" sh -c "! ls '$tmp/bus' | grep -q '\\.part'"

"$raidsim" run "$here/disk-limit.yaml" -q -j 1 -o "$tmp/disk"
t=$tmp/disk/disk-limit.tsv
c=$tmp/disk/disk-limit.components.tsv
check "disk: the disk limits" test "$(column limited_by "$t")" = disk0
check "disk: the disk is busy" awk -F '\t' '$1 == "disk0" && $3 > 0.9 { ok = 1 } END { exit !ok }' "$c"
check "disk: the bus is idle" awk -F '\t' '$1 ~ /^ctrl.bus/ && $3 > 0.1 { bad = 1 } END { exit bad }' "$c"
# The disk queues what it cannot serve: its time is mostly queue.
check "disk: queue time above service time" \
	awk -F '\t' '$1 == "disk0" && $7 > $6 { ok = 1 } END { exit !ok }' "$c"

# A sweep: one components row per point and part, keyed by the axes.
"$raidsim" run "$here/small.yaml" -q -j 2 -o "$tmp/small"
c=$tmp/small/small.components.tsv
check "sweep: keyed by the axes" sh -c "head -n 1 '$c' | grep -q '^workload.iometer.outstanding	workload.iometer.read	component	'"
check "sweep: one row per point and part" test "$(wc -l <"$c")" -eq 7
check "sweep: a lone device is named device" has "$c" "^16	100%	device	device	"

# stdout: nothing without a terminal unless asked; -q does not silence an
# explicit --output-format.
"$raidsim" run "$here/small.yaml" -j 1 -o "$tmp/o1" >"$tmp/plain.out"
check "no terminal: no summary" hasnt "$tmp/plain.out" "IOPS"
# At a terminal (script(1) gives one) the summary comes without asking,
# and -q silences it.
if command -v script >/dev/null 2>&1 &&
	script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "'$raidsim' run '$here/small.yaml' -j 1 -o '$tmp/tty1'" /dev/null >"$tmp/tty.out"
	check "terminal: the summary" grep -q "^small: 6 points" "$tmp/tty.out"
	script -qec "'$raidsim' run '$here/small.yaml' -q -j 1 -o '$tmp/tty2'" /dev/null >"$tmp/ttyq.out"
	check "terminal, -q: nothing" test ! -s "$tmp/ttyq.out"
else
	echo "limits-by: script(1) not usable, the terminal default not tested"
fi
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/o2" --output-format=normal >"$tmp/normal.out"
check "normal: names the scenario" has "$tmp/normal.out" "^small: 6 points"
check "normal: one line per point" test "$(grep -c '^  point ' "$tmp/normal.out")" -eq 6
check "normal: IOPS, MB/s, latency, limit" \
	has "$tmp/normal.out" "IOPS, .* MB/s, latency mean .* ms, p99 .* ms; limited by device"
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/o3" --output-format=terse,tsv >"$tmp/terse.out"
check "terse: one line per point" test "$(grep -c '^raidsim;1;small;' "$tmp/terse.out")" -eq 6
check "terse: the fields" has "$tmp/terse.out" \
	'^raidsim;1;small;5;workload.iometer.outstanding=16,workload.iometer.read=100%;[0-9.]*;[0-9.]*;[0-9.]*;[0-9.]*;device$'
check "tsv: the table follows" sh -c "tail -n 7 '$tmp/terse.out' | cmp -s - '$tmp/o3/small.tsv'"
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/o4" --output-format=json >"$tmp/json.out"
check "json: the JSON file" cmp -s "$tmp/json.out" "$tmp/o4/small.json"
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/o5" --output-format=xml 2>"$tmp/bad.err"
check "unknown format: exit 2" test $? -eq 2
check "unknown format: says which" has "$tmp/bad.err" "got 'xml'"
check "unknown format: nothing written" test ! -e "$tmp/o5"
# A merged sweep has the very parts of a run on one machine.
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/sh" --shard 0/2
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/sh" --shard 1/2
"$raidsim" merge -q -o "$tmp/merged" "$tmp/sh/small.shard-0-of-2.tsv" "$tmp/sh/small.shard-1-of-2.tsv"
check "merge: the same components file" cmp -s "$tmp/merged/small.components.tsv" "$tmp/small/small.components.tsv"
check "shards: no part files beside them" sh -c "! ls '$tmp/sh' | grep -q '\.part'"

# Many points: the summary keeps to the best and the worst.
cat >"$tmp/many.yaml" <<'YAML'
seed: 1
device: {model: ideal-1ms}
workload: {iometer: {spec: database, run: 0.2s}}
sweep:
  workload.iometer.outstanding: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
output: {name: many}
YAML
"$raidsim" run "$tmp/many.yaml" -q -j 2 -o "$tmp/many" --output-format=normal >"$tmp/many.out"
check "many points: two lines" test "$(grep -c '^  ' "$tmp/many.out")" -eq 2
check "many points: the best and the worst" \
	sh -c "grep -q '^  best, point [0-9]* (workload.iometer.outstanding=' '$tmp/many.out' &&
	       grep -q '^  worst, point [0-9]* (workload.iometer.outstanding=' '$tmp/many.out'"
summary limits-by
