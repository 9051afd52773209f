#!/bin/sh
# Golden diagnostics.  Each folder below holds one bad input:
#   in.yaml    the scenario (or, for one case, a directory of that name)
#   args       optional extra command-line words (one line)
#   models/    optional model folder, passed as -M models
#   expected   the exact first line raidsim must print on stderr
# and raidsim must exit with status 2 and write no output at all.
set -u
here=$(cd "$(dirname "$0")" && pwd)
raidsim=${RAIDSIM:-${top_builddir:-$here/../..}/src/raidsim}
case $raidsim in /*) ;; *) raidsim=$(pwd)/$raidsim ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
for dir in "$here"/[0-9]*/; do
	name=$(basename "$dir")
	args=""
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	models=""
	[ -d "$dir/models" ] && models="-M models"
	out="$tmp/out-$name"
	# shellcheck disable=SC2086
	(cd "$dir" && "$raidsim" run $models $args in.yaml -o "$out" -j 1 -q) \
		>"$tmp/stdout" 2>"$tmp/stderr"
	status=$?
	got=$(head -n 1 "$tmp/stderr")
	want=$(cat "$dir/expected")
	why=""
	[ "$status" -eq 2 ] || why="exit status $status, expected 2"
	[ -z "$why" ] && [ "$got" != "$want" ] && why="first line differs"
	[ -z "$why" ] && [ -e "$out" ] && why="wrote $out"
	[ -z "$why" ] && [ -s "$tmp/stdout" ] && why="printed on stdout"
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name: $why"
		echo "  want: $want"
		echo "  got:  $got"
	fi
done
echo "errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -ge 40 ]
