# Sourced by the study scripts (scenarios/*/run.sh) once they have set
# $here (their folder), $srcdir (the source tree) and $out (their default
# output folder).  Parses the options every study takes:
#   -o|--output DIR   -j|--jobs N   --no-plot   -h|--help
# and sets $out, $jobs and $plot (yes|no).  A script with options of its
# own defines study_option() before sourcing this: it is given one
# argument and returns 0 if it took it, 1 if it does not know it.  --help
# prints the script's header comment.  Then $rs is the raidsim to run
# (find-raidsim.sh).
jobs=2
plot=yes
while [ $# -gt 0 ]; do
	case $1 in
	-o|--output) out=$2; shift 2 ;;
	-j|--jobs) jobs=$2; shift 2 ;;
	--jobs=*) jobs=${1#--jobs=}; shift ;;
	--no-plot) plot=no; shift ;;
	-h|--help)
		awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
		exit 0 ;;
	*)
		if command -v study_option >/dev/null 2>&1 && study_option "$1"; then
			shift
		else
			echo "run.sh: unknown argument '$1' (try --help)" >&2
			exit 2
		fi ;;
	esac
done

# shellcheck source=find-raidsim.sh
. "$srcdir/scenarios/find-raidsim.sh"
