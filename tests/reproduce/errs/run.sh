#!/bin/sh
# A fake study for tests/reproduce/measured.sh, in the shape of
# scenarios/*/run.sh (-o DIR -j N): it writes the tables tiny.yaml would
# give, with round numbers, instead of running it, so the error table's
# every cell is known.
set -eu
out=out/errs
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	-j) shift 2 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
mkdir -p "$out/on" "$out/off"
table() { # iops at (1, 50%) (1, 100%) (4, 50%) (4, 100%)
	printf 'workload.iometer.outstanding\tworkload.iometer.read\tiops\tmib_s\n'
	printf '1\t50%%\t%s\t1\n1\t100%%\t%s\t2\n4\t50%%\t%s\t3\n4\t100%%\t%s\t4\n' "$@"
}
table 100 200 300 400 >"$out/tiny.tsv"
table 110 190 330 480 >"$out/on/tiny.tsv"
table 100 200 300 400 >"$out/off/tiny.tsv"
printf 't_s\tiops\tmib_s\terrors\terrors_total\n1\t500\t0.25\t0\t0\n2.0\t600\t0.3\t0\t0\n' \
	>"$out/tiny.series.0.tsv"
