#!/bin/sh
# The whole Promise FastTrak TX4000 study (iXBT, 2003) in one command:
# six arrays x {write-through, write-back} x the IOMeter patterns, then the
# study's ratings and figures.
#
#   scenarios/tx4000/run.sh [-o DIR] [-j N] [--no-plot]
#
# DIR defaults to out/tx4000 (relative to the current directory).  raidsim
# is $RAIDSIM, else src/raidsim of the source tree this script lives in,
# else raidsim on $PATH; the models come from <srcdir>/models.  Writes
#   raw/ARRAY/NAME.tsv    raidsim's own output, one directory per array
#   NAME.tsv              the same tables merged, first column `array`
#                         (database, sequential, workstation, fileserver,
#                         webserver)
#   wbwt.tsv              Database WB/WT ratio per array, load, read share
#   ratings.tsv           Workstation, File Server and Web Server ratings
#   *.png                 the figures (needs gnuplot; --no-plot skips them)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
out=out/tx4000
# shellcheck source=../study.sh
. "$srcdir/scenarios/study.sh"

# The six arrays of the study: name, level, drives.  The single drive is
# the study's "JBOD" of one disk.
arrays='single single 1
raid0x2 raid0 2
raid0x3 raid0 3
raid0x4 raid0 4
raid1 raid1 2
raid01 raid01 4'
names='database sequential workstation fileserver webserver'

mkdir -p "$out/raw"
start=$(date +%s)
echo "$arrays" | while read -r a level n; do
	for s in $names; do
		"$rs" run "$here/$s.yaml" -M "$srcdir/models" -o "$out/raw/$a" --jobs "$jobs" -q \
			--set device.array.level="$level" --set device.array.disks.count="$n"
	done
	echo "run.sh: $a done ($(($(date +%s) - start)) s)" >&2
done

# Merge: one table per pattern with the array as the first column.
for s in $names; do
	first=yes
	echo "$arrays" | while read -r a level n; do
		if [ $first = yes ]; then
			printf 'array\t'
			head -n 1 "$out/raw/$a/$s.tsv"
			first=no
		fi
		tail -n +2 "$out/raw/$a/$s.tsv" | sed "s/^/$a	/"
	done >"$out/$s.tsv"
done

# Database WB/WT ratio: the study's third table.
awk -F'\t' -v OFS='\t' '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	k = $1 SUBSEP $(col["workload.iometer.outstanding"]) SUBSEP $(col["workload.iometer.read"])
	v[k, $(col["device.cache.mode"])] = $(col["iops"])
	if (!(k in seen)) { seen[k] = 1; order[++n] = k }
}
END {
	print "array", "outstanding", "read", "wt_iops", "wb_iops", "wb_wt"
	for (i = 1; i <= n; i++) {
		split(order[i], f, SUBSEP)
		wt = v[order[i], "write-through"]; wb = v[order[i], "write-back"]
		print f[1], f[2], f[3], wt, wb, sprintf("%.3f", wt > 0 ? wb / wt : 0)
	}
}' "$out/database.tsv" >"$out/wbwt.tsv"

# Ratings: Workstation sum IOPS(q)/q over q = 1..32; File Server and Web
# Server the mean IOPS over loads 1..256.
awk -F'\t' -v OFS='\t' '
FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; file = FILENAME; sub(/.*\//, "", file); next }
{
	q = $(col["workload.iometer.outstanding"]); k = $1 SUBSEP $(col["device.cache.mode"])
	if (!(k in seen)) { seen[k] = 1; order[++n] = k }
	if (file == "workstation.tsv") ws[k] += $(col["iops"]) / q
	else if (file == "fileserver.tsv") { fs[k] += $(col["iops"]); nfs[k]++ }
	else { web[k] += $(col["iops"]); nweb[k]++ }
}
END {
	print "array", "cache", "workstation", "fileserver", "webserver"
	for (i = 1; i <= n; i++) {
		k = order[i]; split(k, f, SUBSEP)
		print f[1], f[2], sprintf("%.1f", ws[k]), sprintf("%.1f", fs[k] / nfs[k]),
		      sprintf("%.1f", web[k] / nweb[k])
	}
}' "$out/workstation.tsv" "$out/fileserver.tsv" "$out/webserver.tsv" >"$out/ratings.tsv"

echo "run.sh: simulation and tables done in $(($(date +%s) - start)) s: $out" >&2
[ $plot = yes ] || exit 0
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "run.sh: gnuplot not found, no figures" >&2
	exit 0
fi

# ---- figures ---------------------------------------------------------------
# awk cuts the merged tables into gnuplot data blocks (one block per line
# of a graph, two blank lines apart, addressed with `index`).
p=$out/plot
mkdir -p "$p"
anames='single raid0x2 raid0x3 raid0x4 raid1 raid01'
titles='"single" "RAID0 x2" "RAID0 x3" "RAID0 x4" "RAID1" "RAID01"'

# Database: IOPS vs read share, one block per (mode, load, array).
for mode in write-through write-back; do
	for q in 1 16 256; do
		for a in $anames; do
			awk -F'\t' -v a=$a -v m=$mode -v q=$q '
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$1 == a && $(col["device.cache.mode"]) == m &&
			$(col["workload.iometer.outstanding"]) == q {
				print $(col["workload.iometer.read"]), $(col["iops"]) }' "$out/database.tsv"
			printf '\n\n'
		done
	done >"$p/database-$mode.dat"
done
# Sequential: MB/s vs block size in KiB, one block per (spec, mode, array).
for spec in seqread seqwrite; do
	for mode in write-through write-back; do
		for a in $anames; do
			awk -F'\t' -v a=$a -v m=$mode -v s=$spec '
			function kib(x) {
				if (x ~ /MiB$/) return x * 1024
				if (x ~ /KiB$/) return x + 0
				return x / 1024
			}
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$1 == a && $(col["device.cache.mode"]) == m &&
			$(col["workload.iometer.spec"]) == s {
				print kib($(col["workload.iometer.size"])), $(col["mb_s"]) }' "$out/sequential.tsv"
			printf '\n\n'
		done
	done
done >"$p/sequential.dat"
# WB/WT heat map: x = read share column, y = row (array x load, top down).
awk -F'\t' '
NR == 1 { next }
{
	k = $1 " q" $2
	if (!(k in row)) { row[k] = nrow + 0; lab[nrow++] = k }
	print $3 / 10, row[k], $6
}
END { for (i = 0; i < nrow; i++) print lab[i] > "/dev/stderr" }' "$out/wbwt.tsv" \
	>"$p/wbwt.dat" 2>"$p/wbwt.labels"
nrows=$(wc -l <"$p/wbwt.labels")
ytics=$(awk -v n="$nrows" '{ printf "%s\"%s\" %d", (NR > 1 ? ", " : ""), $0, NR - 1 }' "$p/wbwt.labels")

cat >"$p/figures.gp" <<EOF
set terminal pngcairo size 1500,480 font ",10"
set datafile separator whitespace
set key top left
set grid

do for [mode in "write-through write-back"] {
	set output sprintf("$out/database-%s.png", mode)
	set multiplot layout 1,3 title sprintf("Database (8 KiB random), TX4000 + Maxtor 6L020L0, driver cache %s", mode)
	set xlabel "read share, %"
	set ylabel "IOPS"
	set xrange [0:100]
	set xtics 10
	qs = "1 16 256"
	do for [j = 1:3] {
		set title sprintf("%s outstanding I/Os", word(qs, j))
		plot for [i = 1:6] sprintf("$p/database-%s.dat", mode) \
			index (j - 1) * 6 + i - 1 using 1:2 with linespoints title word('$titles', i)
	}
	unset multiplot
}

set output "$out/wbwt-heatmap.png"
set terminal pngcairo size 1000,900 font ",9"
set title "Database: IOPS write-back / write-through (blue > 1: WB helps, red < 1: WB hurts)"
set xlabel "read share, %"
set ylabel ""
set xrange [-0.5:10.5]
set yrange [$nrows - 0.5:-0.5]
set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set ytics ($ytics)
set cbrange [0.8:1.2]
set palette defined (0.8 "#c00000", 1.0 "white", 1.2 "#0040c0")
set cblabel "WB / WT"
unset grid
plot "$p/wbwt.dat" using 1:2:3 with image notitle, \
     "$p/wbwt.dat" using 1:2:(sprintf("%.2f", \$3)) with labels notitle

set terminal pngcairo size 1200,480 font ",10"
set grid
set title
set autoscale
set ytics autofreq
set xtics autofreq
set yrange [0:*]
set yrange [0:*]
set logscale x 2
set xlabel "block size, KiB"
set ylabel "MB/s (10^6 B/s)"
set xtics ("0.5" 0.5, "1" 1, "2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024)
specs = "seqread seqwrite"
names = "read write"
modes = "write-through write-back"
do for [s = 1:2] {
	set output sprintf("$out/sequential-%s.png", word(names, s))
	set multiplot layout 1,2 title sprintf("Sequential %s, 4 outstanding I/Os", word(names, s))
	do for [m = 1:2] {
		set title sprintf("driver cache %s", word(modes, m))
		plot for [i = 1:6] "$p/sequential.dat" index ((s - 1) * 2 + m - 1) * 6 + i - 1 \
			using 1:2 with linespoints title word('$titles', i)
	}
	unset multiplot
}
unset logscale x

set output "$out/ratings.png"
set terminal pngcairo size 1500,480 font ",10"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top left
set xlabel ""
set xtics autofreq
set ytics autofreq
set yrange [0:*]
unset grid
set grid ytics
array rtitle[3] = ["Workstation: sum of IOPS(q)/q, q = 1..32", \
	"File Server: mean IOPS over loads 1..256", "Web Server: mean IOPS over loads 1..256"]
set datafile separator "\t"
set multiplot layout 1,3 title "IOMeter ratings, TX4000 + Maxtor 6L020L0"
do for [r = 1:3] {
	set title rtitle[r]
	set ylabel "rating"
	plot "$p/ratings.dat" using (column(r * 2)):xtic(1) title "write-through", \
	     "" using (column(r * 2 + 1)) title "write-back"
}
unset multiplot
EOF
# Ratings as array rows with WT and WB side by side per rating.
awk -F'\t' -v OFS='\t' '
NR == 1 { next }
{ k = $1; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
  if ($2 == "write-through") { ws[k, 0] = $3; fs[k, 0] = $4; web[k, 0] = $5 }
  else { ws[k, 1] = $3; fs[k, 1] = $4; web[k, 1] = $5 } }
END { split("single RAID0x2 RAID0x3 RAID0x4 RAID1 RAID01", show, " ")
	split("single raid0x2 raid0x3 raid0x4 raid1 raid01", raw, " ")
	for (i in raw) label[raw[i]] = show[i]
	for (i = 1; i <= n; i++) { k = order[i]
	print (k in label ? label[k] : k), ws[k, 0], ws[k, 1], fs[k, 0], fs[k, 1], web[k, 0], web[k, 1] } }' \
	"$out/ratings.tsv" >"$p/ratings.dat"
gnuplot "$p/figures.gp"
echo "run.sh: figures done in $(($(date +%s) - start)) s: $out/*.png" >&2
