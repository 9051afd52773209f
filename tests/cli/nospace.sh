#!/bin/sh
# A full disk: on a 128 KiB tmpfs filled to leave 0, 1, 2, ... pages free,
# a rerun with other settings either replaces the whole result set or
# fails with status 1 saying "No space left on device" and leaves the
# earlier set exactly as it was, with no temporary files and no lock
# behind.  Needs root and a working mount (skipped, status 77, otherwise).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
scenario="$here/small.yaml"
if [ "$(id -u)" != 0 ]; then
	echo "nospace: SKIP (mounting a tmpfs needs root)"
	exit 77
fi
mnt=$tmp/mnt
mkdir "$mnt"
if ! mount -t tmpfs -o size=128k tmpfs "$mnt" 2>/dev/null; then
	echo "nospace: SKIP (cannot mount a tmpfs here)"
	exit 77
fi
trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT

"$raidsim" run "$scenario" -q -j 1 -o "$tmp/old" || exit 1
"$raidsim" run "$scenario" -q -j 1 -o "$tmp/new" --seed 7 || exit 1
same_set() { # dir, reference dir
	for f in small.tsv small.json small.gp small.components.tsv; do
		cmp -s "$1/$f" "$2/$f" || return 1
	done
	[ "$(ls "$1" | grep -v '^small\.points$' | tr '\n' ' ')" = "small.components.tsv small.gp small.json small.tsv " ]
}

ok=0
set_failed=0
points_failed=0
k=0
while [ $k -le 32 ]; do
	rm -rf "${mnt:?}"/*
	cp -r "$tmp/old" "$mnt/d"
	head -c 1M /dev/zero >"$mnt/fill" 2>/dev/null
	truncate -s -$((k * 4096)) "$mnt/fill"
	"$raidsim" run "$scenario" -q -j 1 -o "$mnt/d" --seed 7 2>"$tmp/err"
	st=$?
	if [ $st -eq 0 ]; then
		ok=$((ok + 1))
		check "$k pages free: success writes the whole new set" same_set "$mnt/d" "$tmp/new"
	else
		[ -n "${NOSPACE_VERBOSE:-}" ] && cat "$tmp/err"
		check "$k pages free: status 1 ($st)" [ $st -eq 1 ]
		check "$k pages free: says No space left on device" grep -q "No space left on device" "$tmp/err"
		check "$k pages free: no Input/output error" sh -c "! grep -q 'Input/output error' '$tmp/err'"
		check "$k pages free: the earlier set is untouched" same_set "$mnt/d" "$tmp/old"
		if grep -q "results were not written" "$tmp/err"; then
			set_failed=$((set_failed + 1))
		else
			points_failed=$((points_failed + 1))
		fi
	fi
	check "$k pages free: no temporary files" [ -z "$(find "$mnt/d" -name '*tmp.*')" ]
	check "$k pages free: no lock left" test ! -e "$mnt/d/small.lock"
	k=$((k + 1))
done
echo "nospace: $ok runs succeeded, $set_failed failed writing the result set," \
	"$points_failed failed saving points"
check "some run failed while writing the result set" [ $set_failed -gt 0 ]
check "some run succeeded" [ $ok -gt 0 ]
summary nospace
