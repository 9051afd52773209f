#!/bin/sh
# Every #include "MODULE/..." in src/*/*.[ch] points to the file's own
# module or one below it in src/layers.txt; an upward include fails the
# check, listed as FILE:LINE: MODULE -> MODULE.  The checker first proves
# it can fail: a copy of the tree with one include planted upward must be
# refused.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$here/../../src

# check_tree SRC: 0 if no include of SRC points up, 1 (listing them) if
# one does or the order file is missing a module.
check_tree() {
	src=$1
	order=$src/layers.txt
	[ -r "$order" ] || { echo "layers: no $order"; return 1; }
	bad=0
	for f in "$src"/*/*.c "$src"/*/*.h; do
		[ -e "$f" ] || continue
		rel=${f#"$src"/}
		mod=${rel%%/*}
		# The rank of each module is its line among the order's modules.
		if ! awk -v m="$mod" '!/^#/ && NF && $1 == m { found = 1 } END { exit !found }' \
			"$order"; then
			echo "$rel: module '$mod' is not in layers.txt"
			bad=1
			continue
		fi
		out=$(awk -v mod="$mod" -v rel="$rel" -v order="$order" '
			BEGIN {
				while ((getline line < order) > 0) {
					if (line ~ /^#/ || line !~ /[^ \t]/)
						continue
					split(line, w, /[ \t]+/)
					rank[w[1]] = ++n
				}
			}
			/^[ \t]*#[ \t]*include[ \t]*"[^"\/]+\// {
				s = $0
				sub(/^[^"]*"/, "", s)
				inc = s
				sub(/\/.*/, "", inc)
				if (inc == mod)
					next
				if (!(inc in rank))
					printf "%s:%d: %s -> %s (not in layers.txt)\n", rel, FNR, mod, inc
				else if (rank[inc] > rank[mod])
					printf "%s:%d: %s -> %s (upward)\n", rel, FNR, mod, inc
			}' "$f")
		if [ -n "$out" ]; then
			echo "$out"
			bad=1
		fi
	done
	return $bad
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Self-test: the lowest module including the highest must be caught.
mkdir -p "$tmp/src"
cp "$srcdir/layers.txt" "$tmp/src/"
for f in "$srcdir"/*/*.c "$srcdir"/*/*.h; do
	d=$tmp/src/$(basename "$(dirname "$f")")
	mkdir -p "$d" && cp "$f" "$d/" || exit 1
done
first=$(awk '!/^#/ && NF { print $1; exit }' "$srcdir/layers.txt")
last=$(awk '!/^#/ && NF { m = $1 } END { print m }' "$srcdir/layers.txt")
victim=$(ls "$tmp/src/$first/"*.c | head -n 1)
printf '#include "%s/planted.h"\n' "$last" >>"$victim"
if check_tree "$tmp/src" >"$tmp/planted.out"; then
	echo "FAIL: a planted include $first -> $last passed the check"
	exit 1
fi
if ! grep -q "$first -> $last (upward)" "$tmp/planted.out"; then
	echo "FAIL: the planted include was not the one reported:"
	cat "$tmp/planted.out"
	exit 1
fi

if ! check_tree "$srcdir"; then
	echo "FAIL: includes point up the layers (src/layers.txt)"
	exit 1
fi
echo "layers: every include points down (self-test caught a planted one)"
exit 0
