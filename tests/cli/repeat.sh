#!/bin/sh
# raidsim run --repeat N: every point runs at seeds S, S+1, ..., S+N-1 and
# its row holds each result column's mean, COLUMN_ci95 (half-width of the
# 95 % confidence interval, Student t) and `repeats`.  Checked here:
# --repeat 1 writes exactly what no option writes; the means and CIs are
# those of N separate runs with --seed S+r; the output is the same for any
# --jobs, after an interrupted run and --resume, and through --shard and
# merge (which refuses shards of another N); the CI narrows as N grows;
# the figure draws error bars; bad values and too many runs are refused
# with status 2 and nothing written.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
small="$here/small.yaml"
status_is() { # expected, command...
	want=$1
	shift
	"$@" 2>"$tmp/err"
	[ $? -eq "$want" ]
}
run() { "$raidsim" run "$small" -q "$@"; }
same_set() { # dir1, dir2, name: the TSV, JSON and gnuplot script agree
	cmp "$1/$3.tsv" "$2/$3.tsv" && cmp "$1/$3.json" "$2/$3.json" && cmp "$1/$3.gp" "$2/$3.gp"
}

# --repeat 1 is the plain run, byte for byte (a shard file too).
run -o "$tmp/plain" -j 2
run -o "$tmp/one" -j 2 --repeat 1
check "--repeat 1: same files as without it" same_set "$tmp/plain" "$tmp/one" small
run -o "$tmp/plain" --shard 0/2
run -o "$tmp/one" --shard 0/2 --repeat 1
check "--repeat 1: same shard file" cmp "$tmp/plain/small.shard-0-of-2.tsv" "$tmp/one/small.shard-0-of-2.tsv"

# The columns: each result column, then its _ci95; repeats last.
run -o "$tmp/r3" -j 2 --repeat 3
head -n 1 "$tmp/r3/small.tsv" | tr '\t' '\n' >"$tmp/cols"
check "columns: axes, iops, iops_ci95, mib_s ..." \
	[ "$(sed -n 1,5p "$tmp/cols" | tr '\n' ' ')" = "workload.iometer.outstanding workload.iometer.read iops iops_ci95 mib_s " ]
check "columns: repeats, then limited_by last, 3 in every row" \
	[ "$(tail -n 2 "$tmp/cols" | tr '\n' ' ')" = "repeats limited_by " ] && [ "$(awk -F'\t' 'NR > 1 { print $(NF - 1) }' "$tmp/r3/small.tsv" | sort -u)" = 3 ]
check "columns: 2 axes + 2 x 23 results + repeats + limited_by" [ "$(wc -l <"$tmp/cols")" -eq 50 ]
check "limited_by: the first run's verdict" \
	[ "$(cut -f 26 "$tmp/plain/small.tsv")" = "$(awk -F'\t' '{ print $NF }' "$tmp/r3/small.tsv")" ]
check "JSON: \"repeat\": 3 and the same columns" sh -c "grep -q '^  \"repeat\": 3,\$' '$tmp/r3/small.json' &&
	grep -q '\"iops_ci95\", \"mib_s\"' '$tmp/r3/small.json'"
check "figure: error bars from iops_ci95" grep -q 'using 1:2:3 with yerrorlines' "$tmp/r3/small.gp"
check "figure of one run: no error bars" sh -c "! grep -q yerrorlines '$tmp/plain/small.gp'"

# Run r of each point is the run --seed 3+r makes: the repeated row is the
# mean of the three tables, and its CI t(0.975, 2) * s / sqrt(3), both to
# the 6 significant digits the tables carry.
for s in 3 4 5; do run -o "$tmp/seed$s" -j 2 --seed "$s"; done
mean_matches() {
	paste "$tmp/seed3/small.tsv" "$tmp/seed4/small.tsv" "$tmp/seed5/small.tsv" >"$tmp/three"
	paste "$tmp/r3/small.tsv" "$tmp/three" | awk -F'\t' '
	function close_to(a, b) { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a); return d <= 1e-5 * m + 1e-9 }
	NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; n = col["repeats"] + 1; k = (NF - n) / 3
		  if (k != 26) bad = "a single-seed table has " k " columns"; next }
	{ for (c = 3; c < k; c++) {
		a = $(n + c); b = $(n + k + c); e = $(n + 2 * k + c)
		mean = (a + b + e) / 3
		sd = sqrt(((a - mean) ^ 2 + (b - mean) ^ 2 + (e - mean) ^ 2) / 2)
		ci = 4.302652729749464 * sd / sqrt(3)
		got = $(2 * c - 3); gotci = $(2 * c - 2)
		if (!close_to(got, mean) || !close_to(gotci, ci))
			bad = bad sprintf("row %d column %d: %s +- %s, expected %.6g +- %.6g\n", NR, c, got, gotci, mean, ci)
	  } }
	END { printf "%s", bad; exit bad != "" }'
}
check "mean and CI equal those of 3 runs with --seed 3, 4, 5" mean_matches

# Any --jobs, the same bytes.
run -o "$tmp/j1" -j 1 --repeat 5
run -o "$tmp/j2" -j 2 --repeat 5
check "--repeat 5: same files with -j 1 and -j 2" same_set "$tmp/j1" "$tmp/j2" small

# A noisy point (the device's times are random): the interval narrows as
# the runs grow, by about 2 for 4 times the runs.
pin="--set workload.iometer.outstanding=4 --set workload.iometer.read=50%"
for n in 4 16 64; do
	# shellcheck disable=SC2086
	run -o "$tmp/ci$n" -j 2 --repeat $n $pin
	# One line: iops_ci95 and lat_mean_ms_ci95 of the one point.
	awk -F'\t' 'NR == 1 { for (c = 1; c <= NF; c++) at[$c] = c }
		   NR == 2 { print $at["iops_ci95"], $at["lat_mean_ms_ci95"] }' \
		"$tmp/ci$n/small.tsv" >"$tmp/ci$n.txt"
done
narrows() { # field of ci*.txt: 1 iops, 2 latency
	a=$(cut -d' ' -f"$1" "$tmp/ci4.txt")
	b=$(cut -d' ' -f"$1" "$tmp/ci16.txt")
	c=$(cut -d' ' -f"$1" "$tmp/ci64.txt")
	echo "CI at 4, 16, 64 runs: $a, $b, $c"
	awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { exit !(a > 0 && b < 0.75 * a && c < 0.75 * b) }'
}
check "iops CI narrows as N grows" narrows 1
check "latency CI narrows as N grows" narrows 2

# An interrupted run (SIGKILL, at a random moment) resumed: the same bytes.
resume="$here/resume.yaml"
rrun() { "$raidsim" run "$resume" -q --repeat 3 --set workload.iometer.read=50% "$@"; }
rrun -o "$tmp/rref" -j 2
delay=$(od -An -N2 -tu2 /dev/urandom | awk '{ printf "%.2f", 0.4 + ($1 % 900) / 1000 }')
setsid "$raidsim" run "$resume" -q --repeat 3 --set workload.iometer.read=50% -j 1 -o "$tmp/k" &
pid=$!
sleep "$delay"
kill -KILL -"$pid" 2>/dev/null
wait "$pid" 2>/dev/null
sleep 0.2
saved=$(ls "$tmp/k/resume.points" 2>/dev/null | grep -c '^[0-9]')
echo "SIGKILL after ${delay}s: $saved of 12 runs saved"
check "killed: saved runs are numbered 0..11" sh -c "! ls '$tmp/k/resume.points' | grep '^[0-9]' | grep -qv '^\([0-9]\|1[01]\)\$'"
# Whether the kill above left any saved run depends on the moment (and a
# finished run removes its saved runs): here the kill waits for the first
# (kill_after_first_saved, lib.sh).
rkill() { # DIR
	kill_after_first_saved "$1/resume.points" "$raidsim" run "$resume" -q --repeat 3 \
		--set workload.iometer.read=50% -j 1 -o "$1"
}
check "a run killed after its first saved run" rkill "$tmp/other"
check "--resume with another --repeat: status 2" status_is 2 rrun -o "$tmp/other" -j 2 --resume --repeat 2
check "--resume with another --repeat: says why" grep -q "other --set or --repeat values" "$tmp/err"
rrun -o "$tmp/k" -j 2 --resume
check "killed + --resume: same files" same_set "$tmp/rref" "$tmp/k" resume
# A saved run whose point lost its components file (removed by hand, or by
# another run that ended and cleared the folder) runs again on --resume.
check "a run killed after its first saved run (lost)" rkill "$tmp/lost"
rm -f "$tmp/lost/resume.points/out/"*.part
rrun -o "$tmp/lost" -j 2 --resume 2>"$tmp/lost.err"
check "lost components + --resume: same files" same_set "$tmp/rref" "$tmp/lost" resume

# Shards hold whole points; merged, the same bytes as one run.
run -o "$tmp/sh" -j 1 --repeat 3 --shard 0/2
run -o "$tmp/sh" -j 2 --repeat 3 --shard 1/2
check "shard file says #repeat 3" grep -q "^#repeat	3\$" "$tmp/sh/small.shard-0-of-2.tsv"
"$raidsim" merge -q -o "$tmp/merged" "$tmp/sh"/small.shard-*-of-2.tsv
check "merge of --repeat 3 shards: same files as one run" same_set "$tmp/r3" "$tmp/merged" small
run -o "$tmp/sh2" --repeat 2 --shard 1/2
check "merge of shards of another --repeat: status 2" status_is 2 \
	"$raidsim" merge -q -o "$tmp/x" "$tmp/sh/small.shard-0-of-2.tsv" "$tmp/sh2/small.shard-1-of-2.tsv"
check "merge of shards of another --repeat: says so" grep -q "runs per point (--repeat) differ" "$tmp/err"
check "merge refused: nothing written" test ! -e "$tmp/x"

# Time series come from each point's first run, named as without --repeat.
run -o "$tmp/ts1" --set output.timeseries=0.5s
run -o "$tmp/ts3" --set output.timeseries=0.5s --repeat 3
check "time series: one per point, that of the first seed" sh -c "
	[ \$(ls '$tmp/ts3' | grep -c '^small\.series\..*\.tsv\$') -eq 6 ] &&
	cmp '$tmp/ts1/small.series.4.tsv' '$tmp/ts3/small.series.4.tsv'"

# Bad values: status 2, a message, nothing written.
for bad in 0 1001 -2 abc "" 2x +3 " 4" 99999999999999999999; do
	check "--repeat '$bad': status 2" status_is 2 run -o "$tmp/bad" --repeat "$bad"
	check "--repeat '$bad': says what is expected" \
		grep -q "^raidsim: --repeat expects a number from 1 to 1000, got '$bad'\$" "$tmp/err"
done
check "bad --repeat: nothing written" test ! -e "$tmp/bad"
check "runs beyond the cap: status 2" status_is 2 run -o "$tmp/bad" --repeat 1000 --limit sweep_points=5000
check "runs beyond the cap: named, at the sweep" grep -q \
	"small.yaml:[0-9]*:[0-9]*: error: 6 points run 1000 times each (--repeat 1000) make 6000 runs, more than the cap sweep_points=5000 (raise it with --limit sweep_points=N)" "$tmp/err"
check "runs beyond the cap: nothing written" test ! -e "$tmp/bad"

summary repeat
