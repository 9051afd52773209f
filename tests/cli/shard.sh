#!/bin/sh
# Sweeps split with --shard K/N and joined with `raidsim merge`: the merged
# table equals a --jobs 1 run byte for byte, whatever N and whatever
# --jobs each shard used; merge refuses a missing or duplicated shard,
# shards of another sweep and a damaged shard with status 2.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
scenario="$here/small.yaml"
status_is() { # expected, command...
	want=$1
	shift
	"$@" 2>"$tmp/err"
	[ $? -eq "$want" ]
}
run() { "$raidsim" run "$scenario" -q "$@"; }

run -o "$tmp/ref" -j 1
# 6 points: 3 shards of 2 points, and 8 shards, two of them empty.
for n in 3 8; do
	k=0
	while [ $k -lt $n ]; do
		run -o "$tmp/s$n" -j $((k % 2 + 1)) --shard $k/$n
		k=$((k + 1))
	done
	check "$n shards written" [ "$(ls "$tmp/s$n"/small.shard-*-of-$n.tsv | wc -l)" -eq $n ]
	"$raidsim" merge -q -o "$tmp/m$n" "$tmp/s$n"/small.shard-*.tsv
	check "merge of $n shards: same TSV" cmp "$tmp/ref/small.tsv" "$tmp/m$n/small.tsv"
	check "merge of $n shards: same JSON" cmp "$tmp/ref/small.json" "$tmp/m$n/small.json"
	check "merge of $n shards: same gnuplot script" cmp "$tmp/ref/small.gp" "$tmp/m$n/small.gp"
done
check "shard runs leave no point folders" sh -c "! ls -d '$tmp'/s3/*.points 2>/dev/null"
# Without -o the table goes beside the shards; the order of the files given does not matter.
"$raidsim" merge -q "$tmp/s3/small.shard-2-of-3.tsv" "$tmp/s3/small.shard-0-of-3.tsv" \
	"$tmp/s3/small.shard-1-of-3.tsv"
check "merge beside the shards, any order" cmp "$tmp/ref/small.tsv" "$tmp/s3/small.tsv"

s=$tmp/s3/small.shard
check "missing shard: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$s-0-of-3.tsv" "$s-2-of-3.tsv"
check "missing shard: named" grep -q "missing shard 1/3" "$tmp/err"
check "missing shard: nothing written" test ! -e "$tmp/x/small.tsv"
check "duplicated shard: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$s-0-of-3.tsv" "$s-1-of-3.tsv" "$s-1-of-3.tsv" "$s-2-of-3.tsv"
check "duplicated shard: named" grep -q "shard 1/3 given twice" "$tmp/err"
cp "$s-1-of-3.tsv" "$tmp/copy.tsv"
check "same shard under two names: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$s-0-of-3.tsv" "$s-1-of-3.tsv" "$tmp/copy.tsv" "$s-2-of-3.tsv"
run -o "$tmp/other" --seed 8 --shard 1/3
check "shard of another sweep: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$s-0-of-3.tsv" "$tmp/other/small.shard-1-of-3.tsv" "$s-2-of-3.tsv"
check "shard of another sweep: says so" grep -q "different sweeps" "$tmp/err"
check "shards of another N: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$s-0-of-3.tsv" "$tmp/s8/small.shard-1-of-8.tsv"
# Shard 1/3 holds points 1 and 4; cut its last row.
mkdir -p "$tmp/cut"
sed '$d' "$s-1-of-3.tsv" >"$tmp/cut/small.shard-1-of-3.tsv"
check "shard missing a point: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$s-0-of-3.tsv" "$tmp/cut/small.shard-1-of-3.tsv" "$s-2-of-3.tsv"
check "shard missing a point: named" grep -q "point 4 is in no shard" "$tmp/err"
check "not a shard: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$tmp/ref/small.tsv"
check "no files: status 2" status_is 2 "$raidsim" merge -q
check "--shard 3/3: status 2" status_is 2 run -o "$tmp/x" --shard 3/3
check "--shard 1: status 2" status_is 2 run -o "$tmp/x" --shard 1
check "--shard -1/2: status 2" status_is 2 run -o "$tmp/x" --shard -1/2
summary shard
