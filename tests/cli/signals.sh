#!/bin/sh
# Signals and the output lock, on a sweep whose last point is long
# (tests/cli/long.yaml): SIGTERM stops at once (status 143) even while a
# point runs, keeps the finished points and drops the running one, and
# --resume then writes the same bytes as an uninterrupted run; a second
# SIGINT stops at once too (status 130).  While a run writes NAME in a
# folder, a second run of the same NAME there fails at once (status 1)
# and touches nothing; another NAME in the same folder is fine.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
scenario="$here/long.yaml"
bg() { setsid "$raidsim" run "$scenario" -q "$@" & }
now() { date +%s.%N; }
# Whether b - a < limit seconds.
within() { awk -v a="$1" -v b="$2" -v l="$3" 'BEGIN { exit !(b - a < l) }'; }
# Wait (at most 5 s) until the three short points are saved in dir.
wait_saved() { # dir
	i=0
	while [ "$(ls "$1/long.points" 2>/dev/null | grep -c '^[0-9]')" -lt 3 ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# No process of the run's group is left.
group_gone() { ! kill -0 -"$1" 2>/dev/null; }
listing() { (cd "$1" && find . -exec ls -ld --time-style=full-iso {} + | sort); }

"$raidsim" run "$scenario" -q -j 1 -o "$tmp/ref" || exit 1

for jobs in 1 2; do
	d=$tmp/t$jobs
	bg -j $jobs -o "$d" 2>"$d.err"
	pid=$!
	wait_saved "$d"
	sleep 0.3
	if [ $jobs = 1 ]; then
		# The long point is running: a second run of the name is refused.
		listing "$d" >"$tmp/before"
		t0=$(now)
		"$raidsim" run "$scenario" -q -j 1 -o "$d" 2>"$tmp/second.err"
		st=$?
		t1=$(now)
		listing "$d" >"$tmp/after"
		check "second run into a busy folder: status 1 ($st)" [ "$st" -eq 1 ]
		check "second run: fails at once" within "$t0" "$t1" 1
		check "second run: says why" grep -q "another raidsim (pid [0-9]*) is writing long" "$tmp/second.err"
		check "second run: touches nothing" cmp -s "$tmp/before" "$tmp/after"
		"$raidsim" run "$here/small.yaml" -q -j 1 -o "$d"
		check "another name in the same folder runs (status $?)" test -s "$d/small.tsv"
	fi
	t0=$(now)
	kill -TERM "$pid"
	wait "$pid"
	st=$?
	t1=$(now)
	check "SIGTERM (-j $jobs): status 143 ($st)" [ "$st" -eq 143 ]
	check "SIGTERM (-j $jobs): exits within 2 s" within "$t0" "$t1" 2
	check "SIGTERM (-j $jobs): workers gone" group_gone "$pid"
	check "SIGTERM (-j $jobs): says how to resume" grep -q -- "--resume" "$d.err"
	check "SIGTERM (-j $jobs): the 3 finished points kept" \
		[ "$(ls "$d/long.points" | grep -c '^[0-9]')" -eq 3 ]
	check "SIGTERM (-j $jobs): no temporaries" [ -z "$(find "$d" -name '*tmp.*')" ]
	check "SIGTERM (-j $jobs): no table, no lock" sh -c "! ls '$d' | grep -q '^long\\.[tjgl]'"
	"$raidsim" run "$scenario" -q -j $jobs --resume -o "$d"
	check "SIGTERM (-j $jobs) + --resume: same TSV" cmp "$tmp/ref/long.tsv" "$d/long.tsv"
	check "SIGTERM (-j $jobs) + --resume: same JSON" cmp "$tmp/ref/long.json" "$d/long.json"
	check "SIGTERM (-j $jobs) + --resume: folder clean" \
		[ "$(ls -A "$d" | grep '^long' | tr '\n' ' ')" = "long.components.tsv long.gp long.json long.tsv " ]
done

# Two SIGINT while the long point runs: the second stops at once.
d=$tmp/ii
bg -j 2 -o "$d" 2>/dev/null
pid=$!
wait_saved "$d"
sleep 0.3
t0=$(now)
kill -INT "$pid"
sleep 0.2
kill -0 "$pid" 2>/dev/null
check "first SIGINT: the running point goes on" [ $? -eq 0 ]
kill -INT "$pid"
wait "$pid"
st=$?
t1=$(now)
check "second SIGINT: status 130 ($st)" [ "$st" -eq 130 ]
check "second SIGINT: exits within 2 s" within "$t0" "$t1" 2
check "second SIGINT: workers gone" group_gone "$pid"
check "second SIGINT: the 3 finished points kept" \
	[ "$(ls "$d/long.points" | grep -c '^[0-9]')" -eq 3 ]

summary signals
