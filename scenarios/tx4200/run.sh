#!/bin/sh
# The whole Promise FastTrak TX4200 study (X-bit labs, 2005) in one command:
# six arrays x TCQ {off, on} x the IOMeter patterns and FC-Test, then the
# study's TCQ efficiency tables (on / off) and figures.
#
#   scenarios/tx4200/run.sh [-o DIR] [-j N] [--no-plot] [--no-filecopy]
#
# DIR defaults to out/tx4200 (relative to the current directory).  raidsim
# is $RAIDSIM, else src/raidsim of the source tree this script lives in,
# else raidsim on $PATH; the models come from <srcdir>/models.  Writes
#   raw/ARRAY/TCQ/NAME.tsv  raidsim's own output (TCQ is off or on)
#   NAME.tsv                the same tables merged, first columns array, tcq
#   database-eff.tsv        Database TCQ efficiency per array, load, read share
#   sequential-eff.tsv      sequential MB/s off, on and efficiency per size
#   ratings.tsv             server-pattern averages off, on and efficiency
#   filecopy-eff.tsv        FC-Test MB/s off, on and efficiency
#   pcix/pcix.tsv, .png     RAID0 sequential MB/s on PCI 32/66 vs PCI-X (D12)
#   *.png                   the figures (needs gnuplot; --no-plot skips them); the
#                           study's own efficiencies at one cell (measured.tsv) are
#                           circled on the Database maps, "measured (study)"
set -eu

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
out=out/tx4200
fc=yes
study_option() {
	case $1 in
	--no-filecopy) fc=no ;;
	*) return 1 ;;
	esac
}
# shellcheck source=../study.sh
. "$srcdir/scenarios/study.sh"

# The six arrays of the study: name, level, drives.  "JBOD" is one drive.
arrays='single single 1
raid0x2 raid0 2
raid0x3 raid0 3
raid0x4 raid0 4
raid1 raid1 2
raid10 raid10 4'
names='database sequential workstation workstation32 fileserver webserver'
[ $fc = no ] || names="$names filecopy"

mkdir -p "$out/raw"
start=$(date +%s)
echo "$arrays" | while read -r a level n; do
	for t in off on; do
		if [ $t = on ]; then qd=32; else qd=1; fi
		for s in $names; do
			"$rs" run "$here/$s.yaml" -M "$srcdir/models" -o "$out/raw/$a/$t" \
				--jobs "$jobs" -q \
				--set device.array.level="$level" --set device.array.disks.count="$n" \
				--set device.queue_depth=$qd --set device.array.disks.queue_depth=$qd
		done
	done
	echo "run.sh: $a done ($(($(date +%s) - start)) s)" >&2
done

# TX4200-D12: the same RAID0 arrays on PCI 32/66 and on PCI-X 64/133
# (raidsim's own table and, with gnuplot, its figure: pcix/pcix.png).
pl=
if [ $plot = yes ] && command -v gnuplot >/dev/null 2>&1; then pl=--plot; fi
"$rs" run "$here/pcix.yaml" -M "$srcdir/models" -o "$out/pcix" --jobs "$jobs" -q $pl >/dev/null
echo "run.sh: pcix done ($(($(date +%s) - start)) s)" >&2

# Merge: one table per pattern, first columns array and tcq.
for s in $names; do
	first=yes
	echo "$arrays" | while read -r a level n; do
		for t in off on; do
			if [ $first = yes ]; then
				printf 'array\ttcq\t'
				head -n 1 "$out/raw/$a/$t/$s.tsv"
				first=no
			fi
			tail -n +2 "$out/raw/$a/$t/$s.tsv" | sed "s/^/$a	$t	/"
		done
	done >"$out/$s.tsv"
done

# eff KEYCOLS... -- VALUECOL FILE: one row per key, value off, on, on/off.
eff() {
	file=$1; val=$2; shift 2
	awk -F'\t' -v OFS='\t' -v keys="$*" -v val="$val" '
	NR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i
		nk = split(keys, kn, " ")
		h = "array"
		for (j = 1; j <= nk; j++) { c = kn[j]; sub(/.*\./, "", c); h = h OFS c }
		print h, "off", "on", "eff"
		next
	}
	{
		k = $1
		for (j = 1; j <= nk; j++) k = k SUBSEP $(col[kn[j]])
		v[k, $2] = $(col[val])
		if (!(k in seen)) { seen[k] = 1; order[++n] = k }
	}
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]; off = v[k, "off"]; on = v[k, "on"]; line = k
			gsub(SUBSEP, OFS, line)
			print line, off, on, sprintf("%.3f", off > 0 ? on / off : 0)
		}
	}' "$file"
}
eff "$out/database.tsv" iops workload.iometer.outstanding workload.iometer.read \
	>"$out/database-eff.tsv"
eff "$out/sequential.tsv" mb_s workload.iometer.spec workload.iometer.size \
	>"$out/sequential-eff.tsv"
for s in workstation workstation32 fileserver webserver; do
	eff "$out/$s.tsv" iops workload.iometer.outstanding | sed "1!s/^/$s	/;1s/^/pattern	/"
done | awk 'NR == 1 || $1 != "pattern"' >"$out/server-eff.tsv"
[ $fc = no ] || eff "$out/filecopy.tsv" file_mb_s workload.filecopy.set workload.filecopy.action \
	>"$out/filecopy-eff.tsv"

# Ratings: mean IOPS over the four loads 4, 16, 64, 256 (avg4) and over all
# five (avg5), TCQ off and on, and the efficiency of the four-load mean.
awk -F'\t' -v OFS='\t' '
NR == 1 { next }
{
	k = $1 SUBSEP $2
	if (!(k in seen)) { seen[k] = 1; order[++n] = k }
	off5[k] += $4; on5[k] += $5; n5[k]++
	if ($3 != 1) { off4[k] += $4; on4[k] += $5; n4[k]++ }
}
END {
	print "pattern", "array", "avg4_off", "avg4_on", "eff4", "avg5_off", "avg5_on", "eff5"
	for (i = 1; i <= n; i++) {
		k = order[i]; split(k, f, SUBSEP)
		a = off4[k] / n4[k]; b = on4[k] / n4[k]; c = off5[k] / n5[k]; d = on5[k] / n5[k]
		print f[1], f[2], sprintf("%.1f", a), sprintf("%.1f", b), sprintf("%.3f", b / a),
		      sprintf("%.1f", c), sprintf("%.1f", d), sprintf("%.3f", d / c)
	}
}' "$out/server-eff.tsv" >"$out/ratings.tsv"

echo "run.sh: simulation and tables done in $(($(date +%s) - start)) s: $out" >&2
[ $plot = yes ] || exit 0
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "run.sh: gnuplot not found, no figures" >&2
	exit 0
fi

# ---- figures ---------------------------------------------------------------
p=$out/plot
mkdir -p "$p"
anames='single raid0x2 raid0x3 raid0x4 raid1 raid10'
titles='"JBOD" "RAID0 x2" "RAID0 x3" "RAID0 x4" "RAID1" "RAID10"'

# TCQ efficiency heat map per array: x = read share column, y = load row.
withm=
for a in $anames; do
	awk -F'\t' -v a=$a '
	NR == 1 { next }
	$1 == a {
		if (!($2 in row)) { row[$2] = nrow++ }
		print $3 / 10, row[$2], $6
	}' "$out/database-eff.tsv" >"$p/eff-$a.dat"
	# The study's own efficiencies at one cell (measured.tsv), as x y value.
	awk -F'\t' -v a=$a -v t="raw/$a/on/database.tsv / raw/$a/off/database.tsv" '
	FNR == NR { if (FNR > 1 && $1 == a && !($2 in row)) row[$2] = nrow++; next }
	/^#/ || $1 != t || $3 != "iops" { next }
	{
		n = split($2, kv, " "); q = ""; r = ""
		for (i = 1; i <= n; i++) {
			if (kv[i] ~ /^workload\.iometer\.outstanding=/) q = substr(kv[i], 30)
			if (kv[i] ~ /^workload\.iometer\.read=/) r = substr(kv[i], 23)
		}
		if (q in row && r != "") print r / 10, row[q], $4
	}' "$out/database-eff.tsv" "$here/measured.tsv" >"$p/measured-eff-$a.dat"
	if [ -s "$p/measured-eff-$a.dat" ]; then withm="$withm $a"; fi
done
# Sequential: MB/s vs block size in KiB, one block per (spec, tcq, array).
for spec in seqread seqwrite; do
	for t in off on; do
		for a in $anames; do
			awk -F'\t' -v a=$a -v t=$t -v s=$spec '
			function kib(x) {
				if (x ~ /MiB$/) return x * 1024
				if (x ~ /KiB$/) return x + 0
				return x / 1024
			}
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$1 == a && $2 == t && $(col["workload.iometer.spec"]) == s {
				print kib($(col["workload.iometer.size"])), $(col["mb_s"]) }' \
				"$out/sequential.tsv"
			printf '\n\n'
		done
	done
done >"$p/sequential.dat"
# Ratings as rows: pattern/array, off, on.
awk -F'\t' 'NR > 1 { print $1 ":" $2, $3, $4 }' "$out/ratings.tsv" >"$p/ratings.dat"

cat >"$p/figures.gp" <<GP
set terminal pngcairo size 900,420 font ",9"
set datafile separator whitespace
arrays = "$anames"
array titles[6] = [$(echo "$titles" | sed 's/" "/", "/g')]
do for [i = 1:6] {
	a = word(arrays, i)
	set output sprintf("$out/database-eff-%s.png", a)
	set title sprintf("Database, %s: IOPS TCQ on / TCQ off (blue > 1: TCQ helps, red < 1: TCQ hurts)", titles[i])
	set xlabel "read share, %"
	set ylabel "outstanding I/Os"
	set xrange [-0.5:10.5]
	set yrange [4.5:-0.5]
	set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
	set ytics ("1" 0, "4" 1, "16" 2, "64" 3, "256" 4)
	set cbrange [0.5:1.5]
	set palette defined (0.5 "#c00000", 1.0 "white", 1.5 "#0040c0")
	set cblabel "TCQ on / off"
	if (strstrt(" $withm ", " " . a . " ") > 0) {
		set key at screen 0.99, 0.02 right bottom
		plot sprintf("$p/eff-%s.dat", a) using 1:2:3 with image notitle, \
		     "" using 1:2:(sprintf("%.2f", \$3)) with labels notitle, \
		     sprintf("$p/measured-eff-%s.dat", a) using 1:2 with points pt 6 ps 4 lw 2 \
			lc rgb "black" title "measured (study)", \
		     "" using 1:2:(sprintf("study %.2f", \$3)) with labels offset 0,-1.3 notitle
	} else {
		plot sprintf("$p/eff-%s.dat", a) using 1:2:3 with image notitle, \
		     "" using 1:2:(sprintf("%.2f", \$3)) with labels notitle
	}
}

set terminal pngcairo size 1200,480 font ",10"
set autoscale
set xtics autofreq
set ytics autofreq
unset cbrange
set grid
set key top left
set yrange [0:*]
set logscale x 2
set xlabel "block size, KiB"
set ylabel "MB/s (10^6 B/s)"
set xtics ("0.5" 0.5, "1" 1, "2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024)
names = "read write"
modes = "off on"
do for [s = 1:2] {
	set output sprintf("$out/sequential-%s.png", word(names, s))
	set multiplot layout 1,2 title sprintf("Sequential %s, 4 outstanding I/Os, TX4200 + WD740GD", word(names, s))
	do for [m = 1:2] {
		set title sprintf("TCQ %s", word(modes, m))
		plot for [i = 1:6] "$p/sequential.dat" index ((s - 1) * 2 + m - 1) * 6 + i - 1 \
			using 1:2 with linespoints title titles[i]
	}
	unset multiplot
}
unset logscale x

set output "$out/ratings.png"
set terminal pngcairo size 1500,480 font ",9"
set title "Server patterns: mean IOPS over loads 4, 16, 64, 256, TCQ off and on"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xlabel ""
set ylabel "IOPS"
set xtics rotate by -45 autofreq
set yrange [0:*]
plot "$p/ratings.dat" using 2:xtic(1) title "TCQ off", "" using 3 title "TCQ on"
GP
gnuplot "$p/figures.gp"
echo "run.sh: figures done in $(($(date +%s) - start)) s: $out/*.png" >&2
