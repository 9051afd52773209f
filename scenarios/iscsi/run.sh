#!/bin/sh
# The whole iSCSI adapters study (Express-Electronika, 2004) in one command:
# each adapter alone with 512 B .. 1 MiB requests in 50/50 duplex, 100 %
# read and 100 % write (cached), then the failover run of each adapter type;
# the study's figures 1-6 (MB/s and IOPS versus request size per adapter),
# a table of the peaks beside the study's, and the failover time series.
#
#   scenarios/iscsi/run.sh [-o DIR] [-j N] [--no-plot]
#
# DIR defaults to out/iscsi (relative to the current directory).  raidsim
# is $RAIDSIM, else src/raidsim of the source tree this script lives in,
# else raidsim on $PATH; the models come from <srcdir>/models.  Writes
#   duplex.tsv read.tsv write.tsv   raidsim's tables (model, size, iops, mib_s, ...)
#   peaks.tsv                       peak MB/s (MiB/s) and 512 B IOPS per adapter, with the study's
#   failover-ADAPTER.series.0.tsv   per-second IOPS, MiB/s and errors of the failover runs
#   overlap.tsv                     Adaptec duplex MiB/s against size, per data-engine layout
#                                   reads and writes share (what N3..N6 leave free)
#   intel-write-cost.tsv            Intel duplex MiB/s against its processor's write rate
#                                   (what N5 leaves free)
#   fig1..fig6-*.png, failover-*.png, overlap.png, intel-write-cost.png   the figures (needs gnuplot; --no-plot skips them);
#                                   figures 1-6 and the failover ones show the study's own
#                                   numbers (measured.tsv) as points, "measured (study)"
# Sweep points simulate 2 s (cached closed-loop runs are steady within
# milliseconds); the failover runs follow the study's 320 s timeline.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
out=out/iscsi
# shellcheck source=../study.sh
. "$srcdir/scenarios/study.sh"

mkdir -p "$out"
start=$(date +%s)
for s in duplex read write overlap intel-write-cost; do
	"$rs" run "$here/$s.yaml" -M "$srcdir/models" -o "$out" --jobs "$jobs" -q
done
echo "run.sh: sweeps done ($(($(date +%s) - start)) s)" >&2
# The three failover runs are single points: run them side by side.
pids=
for a in alacritech adaptec intel; do
	"$rs" run "$here/failover-$a.yaml" -M "$srcdir/models" -o "$out" -q &
	pids="$pids $!"
done
for p in $pids; do wait "$p"; done
echo "run.sh: failover runs done ($(($(date +%s) - start)) s)" >&2

# Peaks beside the study's figures (ISCSI-N1..N6; MB/s are MiB/s).
{
	printf 'workload\tadapter\tpeak_mib_s\tat_size\tiops_512\tstudy_peak_mib_s\tstudy_iops_512\n'
	for s in duplex read write; do
		awk -F '\t' -v w=$s '
		BEGIN {
			study["duplex", "alacritech-ses1001t"] = "211.6\t47690.5"
			study["duplex", "adaptec-7211c"] = "134.4\t10728.2"
			study["duplex", "intel-pro1000t-ipsa"] = "129.1\t14486.9"
			study["read", "alacritech-ses1001t"] = "113.1\t46001.5"
			study["read", "adaptec-7211c"] = "93.7\t11657.2"
			study["read", "intel-pro1000t-ipsa"] = "76.4\t14491.7"
			study["write", "alacritech-ses1001t"] = "113.2\t23733"
			study["write", "adaptec-7211c"] = "109.9\t9354"
			study["write", "intel-pro1000t-ipsa"] = "113.1\t16992.3"
		}
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{
			m = $col["device.model"]
			if (!(m in order)) { order[m] = ++n; name[n] = m }
			v = $col["mib_s"] + 0
			if (v > peak[m]) { peak[m] = v; at[m] = $col["workload.iometer.size"] }
			if ($col["workload.iometer.size"] == "512") iops[m] = $col["iops"]
		}
		END {
			for (i = 1; i <= n; i++) {
				m = name[i]
				printf "%s\t%s\t%.1f\t%s\t%.0f\t%s\n", w, m, peak[m], at[m], iops[m], study[w, m]
			}
		}' "$out/$s.tsv"
	done
} >"$out/peaks.tsv"

[ $plot = yes ] || exit 0
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "run.sh: gnuplot not found, no figures" >&2
	exit 0
fi
# The study's own numbers (measured.tsv) go beside the curves: for each
# figure, the lines of its table and metric, as "adapter x value" with x
# the request size's place in the sweep, as the curves' x is.
mkdir -p "$out/plot"
measured() { # table metric
	awk -F'\t' -v t="$1" -v m="$2" '
	FNR == NR {
		if (FNR == 1) { for (i = 1; i <= NF; i++) col[$i] = i; next }
		z = $col["workload.iometer.size"]
		if (!(z in at)) at[z] = n++
		next
	}
	/^#/ || $1 != t || $3 != m { next }
	{
		split($2, kv, " ")
		a = ""; z = ""
		for (i in kv) {
			if (kv[i] ~ /^device\.model=/) a = substr(kv[i], 14)
			if (kv[i] ~ /^workload\.iometer\.size=/) z = substr(kv[i], 23)
		}
		if (z in at) print a "\t" at[z] "\t" $4
	}' "$out/$1" "$here/measured.tsv"
}
# Figures 1-6: MB/s and IOPS versus request size, one line per adapter.
n=0
for s in duplex read write; do
	case $s in
	duplex) what='50/50 read/write, full duplex' ;;
	read) what='100 % read' ;;
	write) what='100 % write' ;;
	esac
	for m in mib_s iops; do
		n=$((n + 1))
		if [ $m = mib_s ]; then yl='MB/s (MiB/s)'; else yl='IOPS'; fi
		measured "$s.tsv" $m >"$out/plot/measured-$s-$m.tsv"
		gnuplot <<GP
set terminal pngcairo size 800,500 noenhanced
set output '$out/fig$n-$s-$m.png'
set datafile separator '\t'
set title 'Figure $n: $what, $yl vs request size'
set xlabel 'request size'
set ylabel '$yl'
set yrange [0:*]
set grid
set key top left
col = '$m' eq 'iops' ? 3 : 4
adapters = 'alacritech-ses1001t adaptec-7211c intel-pro1000t-ipsa'
plot for [i = 1:3] \
	sprintf("< awk -F '\t' '\$1 == \"%s\"' '$out/$s.tsv'", word(adapters, i)) \
	using 0:col:xtic(2) with linespoints lc i title word(adapters, i), \
     for [i = 1:3] \
	sprintf("< awk -F '\t' '\$1 == \"%s\"' '$out/plot/measured-$s-$m.tsv'", word(adapters, i)) \
	using 2:3 with points pt 13 ps 2.2 lc i title (i == 1 ? 'measured (study)' : '')
GP
	done
done
# The failover runs: IOPS and MiB/s per second, errors per second, and the
# study's readings (ISCSI-F1 at 120 s, F2 at 180 s) as points.
for a in alacritech adaptec intel; do
	t=failover-$a.series.0.tsv
	awk -F'\t' -v t="$t" '
	/^#/ || $1 != t { next }
	{ s = substr($2, 5); if (!(s in seen)) { seen[s] = 1; order[++n] = s }
	  if ($3 == "iops") io[s] = $4; if ($3 == "mib_s") mb[s] = $4 }
	END { for (i = 1; i <= n; i++) print order[i] "\t" io[order[i]] "\t" mb[order[i]] }' \
		"$here/measured.tsv" >"$out/plot/measured-failover-$a.tsv"
	gnuplot <<GP
set terminal pngcairo size 900,640 noenhanced
set output '$out/failover-$a.png'
set datafile separator '\t'
set key top right
set grid
set xrange [0:*]
set lmargin 10
set rmargin 10
set multiplot layout 2,1 title 'failover-$a: port 1 pulled at 120 s, restored at 300 s, port 2 pulled at 310 s'
set ylabel 'IOPS'
set y2label 'MiB/s'
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
plot '$out/$t' using 1:2 skip 1 with fsteps title 'IOPS' axes x1y1, \
     '' using 1:3 skip 1 with fsteps title 'MiB/s' axes x1y2, \
     '$out/plot/measured-failover-$a.tsv' using 1:2 with points pt 13 ps 2.2 lc 1 \
	title 'measured (study): IOPS' axes x1y1, \
     '' using 1:3 with points pt 12 ps 2.2 lc 2 lw 2 title 'measured (study): MiB/s' axes x1y2
unset y2label
unset y2tics
set ytics mirror
set xlabel 'time (s)'
set ylabel 'errors per interval'
set yrange [0:1<*]
set y2range [0:1]
plot '$out/$t' using 1:4 skip 1 with impulses lw 2 title 'errors'
unset multiplot
GP
done
(cd "$out" && gnuplot overlap.gp && gnuplot intel-write-cost.gp)
echo "run.sh: figures done ($(($(date +%s) - start)) s)" >&2
