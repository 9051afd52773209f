#!/bin/sh
# A study in miniature for tests/reproduce/run.sh: one small sweep and its
# figure, in the shape of scenarios/*/run.sh (-o DIR -j N).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=out/mini
jobs=1
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
"$RAIDSIM" run "$here/../../cli/small.yaml" -M "$here/../../../models" -o "$out" \
	-j "$jobs" -q --plot
