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
summary() { # name
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
