# Sourced by the command-line test scripts (tests/cli/*.sh) once they have
# set $here (their folder): $raidsim is the binary under test (absolute),
# RAIDSIM_MODELS points at the source tree's models unless already set,
# $tmp is a scratch folder removed on exit, and check NAME COMMAND... runs
# one check, counting it in $pass or $fail.  A script ends with
# `summary NAME`: the totals line, and the exit status (0 if none failed).
raidsim=${RAIDSIM:-${top_builddir:-$here/../..}/src/raidsim}
case $raidsim in /*) ;; *) raidsim=$(pwd)/$raidsim ;; esac
RAIDSIM_MODELS=${RAIDSIM_MODELS:-$here/../../models}
export RAIDSIM_MODELS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # name, command...
	name=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name"
	fi
}
# kill_after_first_saved POINTS_DIR COMMAND...: run COMMAND (a raidsim run)
# in a process group of its own and kill the group once POINTS_DIR holds a
# saved point, so the run is cut short with some points kept.  On a loaded
# machine the run may still end between the look and the kill (a finished
# run removes its saved points): then its output folder, POINTS_DIR's
# parent, is cleared and it starts over, at most 5 times; status 1 if no
# attempt was cut short.
has_saved() { # POINTS_DIR: it holds a saved point (files named by number)
	for f in "$1"/[0-9]*; do
		[ -e "$f" ] && return 0
	done
	return 1
}
kill_after_first_saved() {
	points=$1
	shift
	attempt=0
	while [ $attempt -lt 5 ]; do
		rm -rf "$(dirname "$points")"
		setsid "$@" &
		pid=$!
		i=0
		while [ $i -lt 400 ] && ! has_saved "$points"; do
			sleep 0.05
			i=$((i + 1))
		done
		kill -KILL -"$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		has_saved "$points" && return 0
		attempt=$((attempt + 1))
	done
	return 1
}
summary() { # name
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
