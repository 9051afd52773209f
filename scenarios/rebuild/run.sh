#!/bin/sh
# The rebuild study: a member failure under OLTP load, the rebuild onto a
# hot spare, and what the foreground sees before, during and after.
#
#   scenarios/rebuild/run.sh [-o DIR] [-j N] [--no-plot]
#
# DIR defaults to out/rebuild.  raidsim is $RAIDSIM, else src/raidsim of the
# source tree this script lives in, else raidsim on $PATH.  Writes
#   levels.tsv raptor8.tsv lse.tsv   raidsim's tables (rebuild_s: the
#                                    rebuild's duration in seconds, nan if
#                                    it had not finished when the load ended;
#                                    rebuild_start_s, rebuild_end_s,
#                                    rebuild_mib, recon_mib, stripes_lost,
#                                    dataloss_requests: README.md)
#   NAME.series.N.tsv                per-second IOPS, MiB/s and errors of point N
#   phases.tsv                       per point: IOPS and latency percentiles
#                                    before the failure, during the rebuild and
#                                    after it
#   levels-rebuild.png, levels-iops.png, raptor8-iops.png, lse-errors.png
#                                    the figures (needs gnuplot; --no-plot skips them)
# Every scenario uses a small part of each drive (member_size) so that a
# rebuild takes seconds, not hours; the three run in well under a minute
# each on one core.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
out=out/rebuild
# shellcheck source=../study.sh
. "$srcdir/scenarios/study.sh"

mkdir -p "$out"
start=$(date +%s)
for s in levels raptor8 lse; do
	"$rs" run "$here/$s.yaml" -M "$srcdir/models" -o "$out" --jobs "$jobs" -q
done
echo "run.sh: runs done ($(($(date +%s) - start)) s)" >&2

# Phases of each point from its request log: before the failure (at
# $fault s), during the rebuild (until fault + rebuild_s, or the end when
# it did not finish), after.  Requests are placed by their issue time.
phases() {
	name=$1 fault=$2 keys=$3
	awk -F '\t' -v keys="$keys" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; n = split(keys, k, " "); next }
	{ label = ""; for (i = 1; i <= n; i++) label = label (i > 1 ? "/" : "") $col[k[i]]
	  print NR - 2 "\t" label "\t" $col["rebuild_s"] }' "$out/$name.tsv" |
	while IFS="$(printf '\t')" read -r point label rebuild; do
		log="$out/$name.requests.$point.csv"
		[ -f "$log" ] || continue
		for phase in before during after; do
			awk -F, -v f="$fault" -v r="$rebuild" -v p="$phase" '
			NR == 1 { next }
			{ end = r == "nan" ? 1e300 : f + r
			  ph = $1 < f ? "before" : $1 < end ? "during" : "after"
			  if (ph == p) print $1 "\t" $5 * 1000 }' "$log" | sort -t "$(printf '\t')" -k2,2g |
			awk -F '\t' -v name="$name" -v label="$label" -v phase="$phase" '
			{ lat[NR] = $2; if (NR == 1 || $1 < t0) t0 = $1; if ($1 > t1) t1 = $1 }
			END {
				if (NR == 0) { printf "%s\t%s\t%s\t0\tnan\tnan\tnan\n", name, label, phase; exit }
				span = t1 - t0; if (span <= 0) span = 1
				i50 = int(NR * 0.5) + 1; if (i50 > NR) i50 = NR
				i99 = int(NR * 0.99) + 1; if (i99 > NR) i99 = NR
				printf "%s\t%s\t%s\t%d\t%.1f\t%.2f\t%.2f\n", name, label, phase, NR,
					NR / span, lat[i50], lat[i99]
			}'
		done
	done
}
{
	printf 'scenario\tpoint\tphase\trequests\tiops\tlat_p50_ms\tlat_p99_ms\n'
	phases levels 10 "device.level device.rebuild_priority workload.iometer.outstanding"
	phases raptor8 10 "device.level workload.iometer.outstanding"
} >"$out/phases.tsv"
echo "run.sh: phases done ($(($(date +%s) - start)) s)" >&2

[ $plot = yes ] || exit 0
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "run.sh: gnuplot not found, no figures" >&2
	exit 0
fi
mkdir -p "$out/plot"
# Rebuild time by level, priority and load (nan: not finished in 150 s).
awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["device.level"] "-" $c["device.rebuild_priority"] "\t" \
		$c["workload.iometer.outstanding"] "\t" $c["rebuild_s"] }' \
	"$out/levels.tsv" >"$out/plot/levels-rebuild.tsv"
# Point numbers of the series to draw, by their sweep values.
point() {
	awk -F '\t' -v want="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ v = ""; n = split(want, w, " ")
	  for (i = 1; i <= n; i++) { split(w[i], kv, "="); if ($c[kv[1]] != kv[2]) next }
	  print NR - 2; exit }' "$out/$1.tsv"
}
l5=$(point levels "device.level=raid5 device.rebuild_priority=high workload.iometer.outstanding=8")
l6=$(point levels "device.level=raid6 device.rebuild_priority=high workload.iometer.outstanding=8")
l10=$(point levels "device.level=raid10 device.rebuild_priority=high workload.iometer.outstanding=8")
r5=$(point raptor8 "device.level=raid5 workload.iometer.outstanding=4")
r6=$(point raptor8 "device.level=raid6 workload.iometer.outstanding=4")
gnuplot <<GP
set terminal pngcairo size 900,560 noenhanced
set datafile separator '\t'
set grid
set key top left
set output '$out/levels-rebuild.png'
set title 'levels: rebuild of a 512 MiB member under OLTP load (missing: not done in 150 s)'
set xlabel 'outstanding I/Os'
set ylabel 'rebuild time (s)'
set logscale x 2
set yrange [0:*]
plot for [s in 'raid5-low raid5-high raid6-low raid6-high raid10-low raid10-high'] \
	sprintf("< awk -F '\t' '\$1 == \"%s\"' '$out/plot/levels-rebuild.tsv'", s) \
	using 2:3 with linespoints title s
unset logscale x
set key top right
set output '$out/levels-iops.png'
set title 'levels: foreground IOPS per second, 8 outstanding, high priority; disk2 fails at 10 s'
set xlabel 'time (s)'
set ylabel 'IOPS'
plot '$out/levels.series.$l5.tsv' using 1:2 skip 1 with fsteps title 'raid5', \
     '$out/levels.series.$l6.tsv' using 1:2 skip 1 with fsteps title 'raid6', \
     '$out/levels.series.$l10.tsv' using 1:2 skip 1 with fsteps title 'raid10'
set output '$out/raptor8-iops.png'
set title 'raptor8: foreground IOPS per second, 4 outstanding, md speed_limit_min 10 MB/s; disk5 fails at 10 s'
plot '$out/raptor8.series.$r5.tsv' using 1:2 skip 1 with fsteps title 'raid5', \
     '$out/raptor8.series.$r6.tsv' using 1:2 skip 1 with fsteps title 'raid6'
set output '$out/lse-errors.png'
set title 'lse: requests failed per second (rows lost in the RAID5 rebuild); disk2 fails at 5 s'
set ylabel 'errors per second'
set yrange [0:1<*]
plot '$out/lse.series.0.tsv' using 1:4 skip 1 with impulses lw 2 title 'raid5', \
     '$out/lse.series.1.tsv' using 1:4 skip 1 with impulses lw 2 title 'raid6'
GP
echo "run.sh: figures done ($(($(date +%s) - start)) s)" >&2
