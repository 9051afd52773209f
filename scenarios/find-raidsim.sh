# Sourced by the study scripts (scenarios/*/run.sh) with $srcdir set to the
# source tree: sets $rs to the raidsim binary to use: $RAIDSIM, else the
# build in the source tree, else raidsim on $PATH.
if [ -n "${RAIDSIM:-}" ]; then
	rs=$RAIDSIM
elif [ -x "$srcdir/src/raidsim" ]; then
	rs=$srcdir/src/raidsim
elif command -v raidsim >/dev/null 2>&1; then
	rs=$(command -v raidsim)
else
	echo "run.sh: no raidsim: build it (make) or set RAIDSIM" >&2
	exit 1
fi
