#!/bin/sh
# No command writes outside its output folder: run, run --plot, run
# --shard, merge (with -o and beside the shards) and a merge refused for
# a shard named '../victim/planted' are run from a fresh tree (its own
# working folder, HOME and TMPDIR); afterwards everything outside the
# output folders is exactly as before, and the model folder has nothing
# new.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
tree=$tmp/tree
mkdir -p "$tree/in" "$tree/work" "$tree/home" "$tree/tmpdir" "$tree/out"
cp "$here/small.yaml" "$tree/in/"
HOME=$tree/home
TMPDIR=$tree/tmpdir
export HOME TMPDIR
out=$tree/out
# Everything outside $out, with sizes and times to the nanosecond.
outside() { (cd "$tree" && find . -path ./out -prune -o -exec ls -ld --time-style=full-iso {} + | sort); }
touch "$tmp/marker"
sleep 0.01
outside >"$tmp/before"

cd "$tree/work" || exit 1
r() { "$raidsim" "$@" >/dev/null 2>>"$tmp/stderr"; }
check "run" r run ../in/small.yaml -j 2 -o "$out/run"
check "run --plot" r run ../in/small.yaml -j 1 --plot -o "$out/plot"
check "run --shard 0/2" r run ../in/small.yaml -j 1 --shard 0/2 -o "$out/shards"
check "run --shard 1/2" r run ../in/small.yaml -j 2 --shard 1/2 -o "$out/shards"
check "merge -o" r merge -o "$out/merged" "$out"/shards/small.shard-*.tsv
check "merge beside the shards" r merge "$out"/shards/small.shard-*.tsv
sed 's|^#name\tsmall$|#name\t../victim/planted|' "$out/shards/small.shard-0-of-2.tsv" \
	>"$out/evil.shard-0-of-2.tsv"
sed 's|^#name\tsmall$|#name\t../victim/planted|' "$out/shards/small.shard-1-of-2.tsv" \
	>"$out/evil.shard-1-of-2.tsv"
"$raidsim" merge -o "$out/m2" "$out"/evil.shard-*.tsv 2>"$tmp/evil.err"
check "merge of a shard named ../victim/planted: status 2" [ $? -eq 2 ]
check "merge of ../victim/planted: file:line:column" \
	grep -q "evil.shard-0-of-2.tsv:2:7: error: '#name' must be a plain file name" "$tmp/evil.err"
check "merge of ../victim/planted: nothing written" test ! -e "$out/m2"
cd "$tmp" || exit 1

outside >"$tmp/after"
check "nothing changed outside the output folders" cmp "$tmp/before" "$tmp/after"
check "nothing new in the model folder" [ -z "$(find "$RAIDSIM_MODELS" -newer "$tmp/marker")" ]
check "no victim anywhere" [ -z "$(find "$tree" -name planted)" ]
check "outputs in place" test -s "$out/run/small.tsv" -a -s "$out/merged/small.tsv" \
	-a -s "$out/shards/small.tsv"
if command -v gnuplot >/dev/null; then
	check "run --plot drew its PNG in place" test -s "$out/plot/small.png"
fi
[ "$fail" -eq 0 ] || { diff "$tmp/before" "$tmp/after"; cat "$tmp/stderr"; }
summary confined
