#!/bin/sh
# The random-configuration stress test at a fixed seed (tests/stress/
# random_sets.c): a bounded number of shipped scenarios with odd values
# run to the end, none of which may crash, abort, time out or fail
# without a documented reason.  First, that the same seed plans the same
# runs, and that the harness does report a run that dies, one that fails
# with an undocumented status 1 and one refused without a diagnostic.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/cli/lib.sh
. "$here/../cli/lib.sh"
stress=${top_builddir:-$here/../..}/tests/stress/random_sets
srcdir=${top_srcdir:-$here/../..}
[ -x "$stress" ] || { echo "random-sets: $stress not built"; exit 99; }
# About 50 s of CPU time on one core (the run count, not the
# clock, bounds it, so that every machine runs the same runs).
runs=${RANDOM_SETS_RUNS:-800}
seed=${RANDOM_SETS_SEED:-1}

same_plan() {
	"$stress" --srcdir "$srcdir" --list --seed 5 --runs 50 >"$tmp/plan1" &&
	"$stress" --srcdir "$srcdir" --list --seed 5 --runs 50 >"$tmp/plan2" &&
	cmp -s "$tmp/plan1" "$tmp/plan2" &&
	[ "$(wc -l <"$tmp/plan1")" -eq 50 ] &&
	"$stress" --srcdir "$srcdir" --list --seed 6 --runs 50 >"$tmp/plan3" &&
	! cmp -s "$tmp/plan1" "$tmp/plan3"
}
check "the same seed plans the same runs, another seed others" same_plan

# fake STATUS-OR-SIGNAL STDERR: a raidsim that ends every run that way.
fake() {
	printf '#!/bin/sh\nprintf "%%s\\n" "%s" >&2\n%s\n' "$2" "$1" >"$tmp/fake"
	chmod +x "$tmp/fake"
}
# caught WHAT: the harness fails and prints a reproducer for WHAT.
caught() {
	"$stress" --srcdir "$srcdir" --raidsim "$tmp/fake" --runs 1 --timeout 5 \
		--workdir "$tmp/work" >"$tmp/caught" 2>&1
	st=$?
	if [ "$st" -ne 1 ] || ! grep -q "^FAIL run 0 of seed 1: $1" "$tmp/caught" ||
		! grep -q "^  reproduce: .* run .*scenarios/.*\.yaml -j 1 --set " "$tmp/caught"; then
		echo "  status $st, output:"
		sed 's/^/    /' "$tmp/caught" | head -n 8
		return 1
	fi
}
fake 'kill -ABRT $$' "raidsim: internal error: x.c:1: f: assertion 'x' failed"
check "an abort is a failure" caught "killed by signal 6"
fake 'exit 1' "raidsim: cannot open something"
check "an undocumented status 1 is a failure" caught "exit status 1, not one of"
fake 'exit 2' "something went wrong"
check "status 2 without a diagnostic is a failure" caught "exit status 2 without"
fake 'exit 0' "src/x.c:1:2: runtime error: signed integer overflow"
check "a sanitizer's report is a failure" caught "exit status 0 with a sanitizer report"
fake 'sleep 30' ""
check "a run past its time is a failure" caught "still running after 5 s"
fake 'exit 1' "raidsim: error: x: overloaded: 9 requests queued"
ok_fake() {
	"$stress" --srcdir "$srcdir" --raidsim "$tmp/fake" --runs 2 \
		--workdir "$tmp/work" >"$tmp/ok" 2>&1
}
check "a documented runtime failure is not" ok_fake

campaign() {
	"$stress" --srcdir "$srcdir" --raidsim "$raidsim" --seed "$seed" --runs "$runs" \
		--workdir "$tmp/work"
}
check "seed $seed, $runs runs" campaign
summary random-sets
