#!/bin/sh
# The figure a sweep gets from --plot follows its number of axes: one line
# for one axis, one line per value for two, one panel per value of the
# third for three; sizes become KiB on a log scale; labels carry units.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
has() { grep -q -- "$2" "$1"; }
hasnt() { ! grep -q -- "$2" "$1"; }

"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/one" --set workload.iometer.read=70%
g=$tmp/one/small.gp
check "one axis: a single line" has "$g" "with linespoints notitle"
check "one axis: no panels" hasnt "$g" "multiplot"
check "queue depth labelled" has "$g" "set xlabel 'outstanding, I/Os in flight'"
check "IOPS labelled with its unit" has "$g" "set ylabel 'IOPS (operations/s)'"

# A scenario that names its series and x, run with both pinned by --set:
# the plot falls back to the axes that are left instead of failing.
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/pinned" \
	--set output.series=workload.iometer.read --set workload.iometer.read=70%
check "pinned series: the run succeeds" test -s "$tmp/pinned/small.gp"
check "pinned series: a single line" has "$tmp/pinned/small.gp" "with linespoints notitle"
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/pinned-x" \
	--set output.x=workload.iometer.outstanding --set workload.iometer.outstanding=4
check "pinned x: the other axis becomes x" \
	has "$tmp/pinned-x/small.gp" "set xlabel 'read, %'"

"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/two"
g=$tmp/two/small.gp
check "two axes: one line per value, short legend" has "$g" "title 'read=100%'"
check "two axes: the legend outside the data" has "$g" "set key outside right top"
check "queue depths: integer tics at the values" has "$g" "set xtics ('1' 1, '4' 4, '16' 16)"
check "no description: titled by the name" has "$g" "set title 'small'"
check "two axes: no panels" hasnt "$g" "multiplot"
check "queue depths 1..16: log x" has "$g" "set logscale x"

"$raidsim" run "$here/plot3.yaml" -q -j 2 -o "$tmp/three"
g=$tmp/three/plot3.gp
check "three axes: one panel per value" has "$g" "set multiplot layout 1,3"
check "three axes: panel titles" has "$g" "set title 'read=50%'"
check "three axes: lines in each panel" has "$g" "title 'outstanding=4'"
check "three axes: legends below the panels" has "$g" "set key below"
check "three axes: one y range for every panel" sh -c "grep -c '^set yrange \[0:[0-9.]*\]\$' '$g' | grep -qx 1"
check "sizes: base-2 log scale" has "$g" "set logscale x 2"
check "sizes: tics named as sizes" has "$g" "set xtics ('4 KiB' 4, '64 KiB' 64, '1 MiB' 1024)"
check "sizes in KiB" has "$g" "set xlabel 'size, KiB'"
check "sizes as numbers" sh -c "grep -q '^1024	' '$g'"
check "sizes on a log scale" has "$g" "set logscale x"
check "MiB/s labelled" has "$g" "set ylabel 'throughput, MiB/s'"
# The scenario's description titles the figure.
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/desc" --set "description=Queue depth vs read share"
check "description: the figure's title" has "$tmp/desc/small.gp" "set title 'Queue depth vs read share'"
# Repeated runs: error bars from the CI columns, in every panel, inside
# the shared y range.
"$raidsim" run "$here/plot3.yaml" -q -j 2 -o "$tmp/rep" --repeat 2
g=$tmp/rep/plot3.gp
check "repeat: error bars in each panel" \
	test "$(grep -c '^plot .* using 1:2:3 with yerrorlines' "$g")" -eq 3
check "repeat: the y range holds the bars" awk '
	/^set yrange/ { v = $3; gsub(/[^0-9.:]/, "", v); split(v, a, ":"); hi = a[2] }
	/^[0-9]/ { if ($2 + $3 > hi + 1e-9) bad = 1 }
	END { exit bad || hi == "" }' "$g"

if command -v gnuplot >/dev/null 2>&1; then
	for d in one two three; do
		"$raidsim" run "$here/$( [ $d = three ] && echo plot3 || echo small).yaml" -q -j 1 \
			-o "$tmp/png-$d" --plot $( [ $d = one ] && echo --set workload.iometer.read=70%)
		check "$d: PNG rendered" sh -c "head -c 4 '$tmp'/png-$d/*.png | grep -q PNG"
	done
else
	echo "plot: gnuplot not installed, PNG rendering not tested"
fi
summary plot
