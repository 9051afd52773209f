#!/bin/sh
# raidsim plot DIR: the figure of a finished run drawn again from its
# files, without simulating: the same script the run wrote (also for a
# merged sweep and a repeated one), a PNG when gnuplot is installed, the
# table untouched, and a folder that is not a run's output refused with
# status 2.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
has() { grep -q -- "$2" "$1"; }

"$raidsim" run "$here/plot3.yaml" -q -j 2 -o "$tmp/a" --set "description=Three axes"
cp "$tmp/a/plot3.gp" "$tmp/plot3.gp.run"
cp "$tmp/a/plot3.tsv" "$tmp/plot3.tsv.run"
rm "$tmp/a/plot3.gp"
"$raidsim" plot "$tmp/a" >"$tmp/out" 2>"$tmp/err"
check "plot: status 0" test $? -eq 0
check "plot: the very script the run wrote" cmp -s "$tmp/a/plot3.gp" "$tmp/plot3.gp.run"
check "plot: the title from the description" has "$tmp/a/plot3.gp" "title 'Three axes'"
check "plot: the table untouched" cmp -s "$tmp/a/plot3.tsv" "$tmp/plot3.tsv.run"
check "plot: lists the script" has "$tmp/out" "^$tmp/a/plot3.gp\$"
check "plot: no lock left" test ! -e "$tmp/a/plot3.lock"
if command -v gnuplot >/dev/null 2>&1; then
	check "plot: PNG rendered" sh -c "head -c 4 '$tmp/a/plot3.png' | grep -q PNG"
else
	echo "replot: gnuplot not installed, PNG rendering not tested"
fi
# Nothing is simulated: a folder with only the two files does.
mkdir "$tmp/bare"
cp "$tmp/a/plot3.tsv" "$tmp/a/plot3.json" "$tmp/bare/"
"$raidsim" plot -q "$tmp/bare" >"$tmp/out" 2>&1
check "bare files: status 0, nothing printed with -q" sh -c "[ $? -eq 0 ] && [ ! -s '$tmp/out' ]"
check "bare files: the same script" cmp -s "$tmp/bare/plot3.gp" "$tmp/plot3.gp.run"

# A repeated sweep keeps its error bars; several sets in one folder are all
# drawn.
"$raidsim" run "$here/small.yaml" -q -j 2 -o "$tmp/a" --repeat 2
cp "$tmp/a/small.gp" "$tmp/small.gp.run"
rm "$tmp/a/small.gp" "$tmp/a/plot3.gp"
"$raidsim" plot -q "$tmp/a"
check "repeat: the same script, error bars and all" cmp -s "$tmp/a/small.gp" "$tmp/small.gp.run"
check "two sets: both drawn" test -s "$tmp/a/plot3.gp"

# A merged sweep: what its merge wrote.
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/s" --shard 0/2
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/s" --shard 1/2
"$raidsim" merge -q -o "$tmp/m" "$tmp/s/small.shard-0-of-2.tsv" "$tmp/s/small.shard-1-of-2.tsv"
cp "$tmp/m/small.gp" "$tmp/merged.gp"
"$raidsim" plot -q "$tmp/m"
check "merged: the same script" cmp -s "$tmp/m/small.gp" "$tmp/merged.gp"

# One point: no figure, said, and not an error.
cat >"$tmp/one.yaml" <<'YAML'
device: {model: ideal-1ms}
workload: {iometer: {spec: database, run: 0.2s}}
output: {name: one}
YAML
"$raidsim" run "$tmp/one.yaml" -q -j 1 -o "$tmp/one"
"$raidsim" plot "$tmp/one" 2>"$tmp/err"
check "one point: status 0" test $? -eq 0
check "one point: says there is no figure" has "$tmp/err" "one point (no sweep): no figure to draw"
check "one point: no script" test ! -e "$tmp/one/one.gp"

# Not a run's output: refused, nothing written.
mkdir "$tmp/empty"
"$raidsim" plot "$tmp/empty" 2>"$tmp/err"
check "empty folder: status 2" test $? -eq 2
check "empty folder: says why" has "$tmp/err" "is not the output of a run"
check "empty folder: nothing written" test -z "$(ls "$tmp/empty")"
mkdir "$tmp/other"
printf '{"name": "x"}\n' >"$tmp/other/x.json"
printf 'a\tb\n1\t2\n' >"$tmp/other/x.tsv"
"$raidsim" plot "$tmp/other" 2>"$tmp/err"
check "foreign JSON: status 2" test $? -eq 2
check "foreign JSON: nothing written" test "$(ls "$tmp/other" | wc -l)" -eq 2
"$raidsim" plot "$tmp/nonexistent" 2>"$tmp/err"
check "missing folder: status 2" test $? -eq 2
check "missing folder: named" has "$tmp/err" "cannot open '$tmp/nonexistent'"
# A table that does not match its JSON (cut short of its axes).
mkdir "$tmp/cut"
cp "$tmp/a/plot3.json" "$tmp/cut/"
printf 'iops\n1\n' >"$tmp/cut/plot3.tsv"
"$raidsim" plot "$tmp/cut" 2>"$tmp/err"
check "mismatched table: status 2" test $? -eq 2
check "mismatched table: says why" has "$tmp/err" "fewer than the 3 axes the JSON names"
check "mismatched table: no script" test ! -e "$tmp/cut/plot3.gp"
"$raidsim" plot 2>/dev/null
check "no folder given: status 2" test $? -eq 2
summary replot
