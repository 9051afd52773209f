#!/bin/sh
# The Intel DC S3700 strip-size study (2015) in one command: two S3700
# 100 GB in RAID0 on the Intel C226 (RST) at strip sizes 4..128 KiB, and one
# drive alone, under CrystalDiskMark 5.1 and ATTO Disk Benchmark 3.05; then
# the tables and figures of the review.
#
#   scenarios/s3700/run.sh [-o DIR] [-j N] [--no-plot]
#
# DIR defaults to out/s3700 (relative to the current directory).  raidsim
# is $RAIDSIM, else src/raidsim of the source tree this script lives in,
# else raidsim on $PATH; the models come from <srcdir>/models.  Writes
#   raid0/cdm.tsv, raid0/atto.tsv    raidsim's own tables, one row per point
#   single/cdm.tsv, single/atto.tsv  the same for one drive
#   cdm.tsv                          CDM MB/s: row, phase, single, then one column per strip
#   atto-read.tsv, atto-write.tsv    ATTO MB/s: size, single, then one column per strip
#   cdm.png, atto-read.png, atto-write.png   the figures (needs gnuplot)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
out=out/s3700
# shellcheck source=../study.sh
. "$srcdir/scenarios/study.sh"

start=$(date +%s)
mkdir -p "$out"
for s in cdm atto; do
	"$rs" run "$here/$s.yaml" -M "$srcdir/models" -o "$out/raid0" --jobs "$jobs" -q >/dev/null
done
# One drive: the same runs without the strip axis.
"$rs" run "$here/cdm.yaml" -M "$srcdir/models" -o "$out/single" --jobs "$jobs" -q \
	--set device.array.level=single --set device.array.disks.count=1 \
	--set 'sweep={workload.cdm.test: [seq-q32t1, 4k-q32t1, seq, 4k]}' \
	--set output.x=workload.cdm.test >/dev/null
"$rs" run "$here/atto.yaml" -M "$srcdir/models" -o "$out/single" --jobs "$jobs" -q \
	--set device.array.level=single --set device.array.disks.count=1 \
	--set "sweep={workload.atto.size: [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304, 8388608, 12582912, 16777216, 25165824, 33554432, 50331648, 67108864]}" \
	>/dev/null
echo "run.sh: simulation done in $(($(date +%s) - start)) s" >&2

# CDM: one line per (row, phase): single, then the strips in sweep order.
awk -F'\t' -v OFS='\t' '
FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
{
	test = $(col[FILENAME, "workload.cdm.test"])
	strip = (FILENAME ~ /single/) ? "single" : $(col[FILENAME, "device.array.strip"])
	if (!(strip in seen)) { seen[strip] = 1; if (strip != "single") strips[++ns] = strip }
	if (!(test in tseen)) { tseen[test] = 1; tests[++nt] = test }
	r[test, strip] = $(col[FILENAME, "read_MBps"]); w[test, strip] = $(col[FILENAME, "write_MBps"])
}
END {
	printf "test\tphase\tsingle"
	for (j = 1; j <= ns; j++) printf "\t%s", strips[j]
	printf "\n"
	for (i = 1; i <= nt; i++) {
		t = tests[i]
		printf "%s\tread\t%s", t, r[t, "single"]
		for (j = 1; j <= ns; j++) printf "\t%s", r[t, strips[j]]
		printf "\n%s\twrite\t%s", t, w[t, "single"]
		for (j = 1; j <= ns; j++) printf "\t%s", w[t, strips[j]]
		printf "\n"
	}
}' "$out/single/cdm.tsv" "$out/raid0/cdm.tsv" >"$out/cdm.tsv"

# ATTO: one line per size, one column per strip, for reads and for writes.
for ph in read write; do
	awk -F'\t' -v OFS='\t' -v fig="${ph}_MBps" '
	FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
	{
		size = $(col[FILENAME, "workload.atto.size"])
		strip = (FILENAME ~ /single/) ? "single" : $(col[FILENAME, "device.array.strip"])
		if (!(strip in seen)) { seen[strip] = 1; if (strip != "single") strips[++ns] = strip }
		if (!(size in zseen)) { zseen[size] = 1; sizes[++nz] = size }
		v[size, strip] = $(col[FILENAME, fig])
	}
	END {
		printf "size_bytes\tsingle"
		for (j = 1; j <= ns; j++) printf "\t%s", strips[j]
		printf "\n"
		for (i = 1; i <= nz; i++) {
			printf "%s\t%s", sizes[i], v[sizes[i], "single"]
			for (j = 1; j <= ns; j++) printf "\t%s", v[sizes[i], strips[j]]
			printf "\n"
		}
	}' "$out/single/atto.tsv" "$out/raid0/atto.tsv" >"$out/atto-$ph.tsv"
done

[ $plot = yes ] || exit 0
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "run.sh: gnuplot not found, no figures" >&2
	exit 0
fi
cat >"$out/figures.gp" <<GP
set terminal pngcairo size 1100,620 noenhanced font ",10"
set datafile separator "\t"
set key outside right top
set grid ytics
# CrystalDiskMark: bars per strip size (and the single drive), one group per row and phase.
set output "$out/cdm.png"
set title "2 x Intel DC S3700 100 GB, C226 RST RAID0: CrystalDiskMark 5.1 (500 MB) per strip size"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "MB/s (10^6 B/s)"
set logscale y
set xtics rotate by -30
plot for [c = 3:9] "$out/cdm.tsv" using c:xticlabels(stringcolumn(1) . " " . stringcolumn(2)) title columnheader(c)
unset logscale y
unset style
set style data linespoints
set xtics norotate
set logscale x 2
set xlabel "transfer size (bytes)"
set ylabel "MB/s"
set xtics ("512" 512, "4K" 4096, "32K" 32768, "256K" 262144, "2M" 2097152, "16M" 16777216, "64M" 67108864)
set output "$out/atto-read.png"
set title "ATTO read per strip size (queue depth 4, 256 MB)"
plot for [c = 2:8] "$out/atto-read.tsv" using 1:c title columnheader(c)
set output "$out/atto-write.png"
set title "ATTO write per strip size (queue depth 4, 256 MB)"
plot for [c = 2:8] "$out/atto-write.tsv" using 1:c title columnheader(c)
GP
gnuplot "$out/figures.gp"
echo "run.sh: figures done in $(($(date +%s) - start)) s: $out/*.png" >&2
