#!/bin/sh
# Sweeps split with --shard K/N and joined with `raidsim merge`: the merged
# table equals a --jobs 1 run byte for byte, whatever N and whatever
# --jobs each shard used; merge refuses a missing or duplicated shard,
# shards of another sweep, a damaged shard and hostile headers (a name
# that leaves the folder, counts out of bounds or at odds with the rows,
# endless lines) with status 2 and file:line:column, writing nothing.
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
check "shard missing a point: named" grep -q "small.shard-1-of-3.tsv:[0-9]*:1: error: point 4 is missing" "$tmp/err"
# Damaged or hostile headers: refused at file:line:column, nothing written.
bad_head() { # name, sed expression, expected message
	sed "$2" "$s-0-of-3.tsv" >"$tmp/bad/small.shard-0-of-3.tsv"
	check "$1: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$tmp/bad/small.shard-0-of-3.tsv" \
		"$s-1-of-3.tsv" "$s-2-of-3.tsv"
	check "$1: says '$3'" grep -q "$3" "$tmp/err"
	check "$1: nothing written" test ! -e "$tmp/x"
}
mkdir -p "$tmp/bad"
bad_head "#name ../victim/planted" 's|^#name\tsmall|#name\t../victim/planted|' \
	"small.shard-0-of-3.tsv:2:7: error: '#name' must be a plain file name, got '../victim/planted'"
bad_head "#name .hidden" 's|^#name\tsmall|#name\t.hidden|' "plain file name"
bad_head "#points -1" 's|^#points\t6|#points\t-1|' ":7:9: error: '#points' must be a count from 1, got '-1'"
bad_head "huge #points" 's|^#points\t6|#points\t123456789012|' "cap sweep_points=1000000; raise it with --limit sweep_points=N"
bad_head "#points above the rows" 's|^#points\t6|#points\t9|' "point 6 is missing (shard 0/3 must hold 3 points, the file has 2)"
bad_head "#shard 3/3" 's|^#shard\t0/3|#shard\t3/3|' "'#shard' must be K/N"
bad_head "#axes too many" 's|^#axes\t2|#axes\t99|' "'#axes' must be a count from 0 to 64"
bad_head "a backquote" 's|^#scenario\tsmall|#scenario\tx`id`|' "a backquote is not allowed"
bad_head "a row of another shard" 's|^3\t|1\t|' "this point belongs to another shard"
sed 's|^#points\t6|#points\t9|' "$s-0-of-3.tsv" >"$tmp/bad/one.tsv"
sed 's|^#shard\t0/3|#shard\t0/1|' "$tmp/bad/one.tsv" >"$tmp/bad/alone.tsv"
check "fewer rows than #points: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$tmp/bad/alone.tsv"
check "fewer rows than #points: says which point" grep -q "alone.tsv:[0-9]*:1: error: point 1 is missing" "$tmp/err"
check "/dev/zero: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" /dev/zero
check "/dev/zero: refused at once" grep -q "^/dev/zero:1:1: error: not text" "$tmp/err"
head -c 70000 /dev/zero | tr '\0' a >"$tmp/bad/long.tsv"
check "a 70000-byte line: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$tmp/bad/long.tsv"
check "a 70000-byte line: capped" grep -q "long.tsv:1:1: error: line longer than 65536 bytes" "$tmp/err"
sed 's|^#points\t6|#points\t2000000|' "$s-0-of-3.tsv" >"$tmp/bad/big.tsv"
check "#points above the cap, raised with --limit: status 2" status_is 2 "$raidsim" merge -q \
	-o "$tmp/x" --limit sweep_points=3000000 "$tmp/bad/big.tsv"
check "#points above the cap, raised with --limit: passes the cap" grep -q "point 6 is missing (shard 0/3 must hold 666667 points" "$tmp/err"
check "not a shard: status 2" status_is 2 "$raidsim" merge -q -o "$tmp/x" "$tmp/ref/small.tsv"
check "no files: status 2" status_is 2 "$raidsim" merge -q
check "--shard 3/3: status 2" status_is 2 run -o "$tmp/x" --shard 3/3
check "--shard 1: status 2" status_is 2 run -o "$tmp/x" --shard 1
check "--shard -1/2: status 2" status_is 2 run -o "$tmp/x" --shard -1/2
summary shard
