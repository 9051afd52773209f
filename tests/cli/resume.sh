#!/bin/sh
# Interrupted sweeps: a run killed with SIGKILL at a random moment, or
# stopped with SIGINT (Ctrl-C) once or twice, leaves only whole point
# files, and `--resume` then writes the same table byte for byte as an
# uninterrupted run, also when a saved point file was damaged meanwhile
# (named in a warning and run again).  The sweep (tests/cli/resume.yaml) takes about 2 s.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
scenario="$here/resume.yaml"
# Each run gets its own process group (setsid), so a signal can go to the
# whole run, parent and workers, as a terminal's Ctrl-C does.
bg() { setsid "$raidsim" run "$scenario" -q "$@" & }

# A random delay between 0.2 and 1.4 s.
random_delay() {
	od -An -N2 -tu2 /dev/urandom | awk '{ printf "%.2f", 0.2 + ($1 % 1200) / 1000 }'
}

# Every saved point is one whole line with one cell per metric column
# (the table's columns minus the two axes).
whole_points() { # dir
	ncols=$(head -n 1 "$tmp/ref/resume.tsv" | awk -F'\t' '{ print NF - 2 }')
	for f in "$1"/resume.points/[0-9]*; do
		[ -e "$f" ] || continue
		[ "$(wc -l <"$f")" -eq 1 ] || return 1
		[ "$(awk -F'\t' '{ print NF }' "$f")" -eq "$ncols" ] || return 1
	done
	! ls "$1"/resume.points | grep -q tmp
}

"$raidsim" run "$scenario" -q -j 1 -o "$tmp/ref"

n=0
for jobs in 1 2 2; do
	n=$((n + 1))
	d=$(random_delay)
	bg -j $jobs -o "$tmp/k$n"
	pid=$!
	sleep "$d"
	kill -KILL -"$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	st=$?
	saved=$(ls "$tmp/k$n/resume.points" 2>/dev/null | grep -c '^[0-9]')
	echo "kill $n: SIGKILL after ${d}s with --jobs $jobs, $saved of 20 points saved"
	sleep 0.2 # orphaned workers of the killed group are gone too
	check "SIGKILL $n (-j $jobs) leaves only whole points" whole_points "$tmp/k$n"
	# On a fast machine the run may finish before the kill lands (status
	# 0): then its table is whole and there is nothing to check here.
	if [ "$st" -ne 0 ]; then
		check "SIGKILL $n (-j $jobs) leaves no table" test ! -e "$tmp/k$n/resume.tsv"
	else
		echo "kill $n: the run had finished before the kill"
	fi
	"$raidsim" run "$scenario" -q -j 2 --resume -o "$tmp/k$n"
	check "SIGKILL $n (-j $jobs) + --resume: same TSV" cmp "$tmp/ref/resume.tsv" "$tmp/k$n/resume.tsv"
	check "SIGKILL $n (-j $jobs) + --resume: same JSON" cmp "$tmp/ref/resume.json" "$tmp/k$n/resume.json"
	check "SIGKILL $n: point folder removed when done" test ! -e "$tmp/k$n/resume.points"
done

# One Ctrl-C: the running points finish, status 130, then resume.
bg -j 2 -o "$tmp/i" 2>"$tmp/i.err"
pid=$!
sleep 0.5
kill -INT -"$pid"
wait "$pid"
st=$?
check "SIGINT: exit status 130" [ "$st" -eq 130 ]
check "SIGINT: says how to resume" grep -q -- "--resume" "$tmp/i.err"
check "SIGINT: only whole points" whole_points "$tmp/i"
check "SIGINT: some points saved" sh -c "ls '$tmp/i/resume.points' | grep -q '^[0-9]'"
# A point file damaged meanwhile is named, dropped and run again.
first=$(ls "$tmp/i/resume.points" | grep '^[0-9]' | head -n 1)
printf 'garbage\n' >"$tmp/i/resume.points/$first"
"$raidsim" run "$scenario" -q -j 1 --resume -o "$tmp/i" 2>"$tmp/i.resume.err"
check "SIGINT + --resume over a damaged point: status 0" [ $? -eq 0 ]
check "damaged point file: named in a warning" \
	grep -q "resume.points/$first: damaged point file (1 cells, expected 24); point $first runs again" \
	"$tmp/i.resume.err"
check "SIGINT + --resume: same TSV" cmp "$tmp/ref/resume.tsv" "$tmp/i/resume.tsv"

# Two Ctrl-C: stops at once (by the signal, not after the points).
bg -j 2 -o "$tmp/ii"
pid=$!
sleep 0.3
kill -INT -"$pid"
sleep 0.05
kill -INT -"$pid"
wait "$pid"
st=$?
check "second SIGINT: killed by it (status $st)" [ "$st" -ge 129 ]
sleep 0.2
check "second SIGINT: only whole points" whole_points "$tmp/ii"
"$raidsim" run "$scenario" -q -j 2 --resume -o "$tmp/ii"
check "second SIGINT + --resume: same TSV" cmp "$tmp/ref/resume.tsv" "$tmp/ii/resume.tsv"

# --resume refuses points of another scenario.
# Killed once it has saved a point (a loaded machine may need longer than
# a fixed delay), so the folder holds points of the other seed.
check "a run of another seed killed after its first saved point" \
	kill_after_first_saved "$tmp/o/resume.points" "$raidsim" run "$scenario" -q -j 2 \
	-o "$tmp/o" --seed 9
"$raidsim" run "$scenario" -q -j 2 --resume -o "$tmp/o" 2>"$tmp/o.err"
st=$?
check "--resume with other settings: status 2" [ "$st" -eq 2 ]
check "--resume with other settings: says why" grep -q "another scenario" "$tmp/o.err"
# --resume with nothing saved simply runs everything.
"$raidsim" run "$scenario" -q -j 2 --resume -o "$tmp/fresh"
check "--resume with nothing saved: same TSV" cmp "$tmp/ref/resume.tsv" "$tmp/fresh/resume.tsv"

summary resume
