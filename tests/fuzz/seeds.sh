#!/bin/sh
# Seed corpora for the fuzz targets, assembled from the source tree:
#   seeds.sh SRCDIR DEST
# makes DEST/<target>/ for each target, one file per seed, named after its
# path in the tree (so a finding can be traced back to the file it grew
# from):
#   fuzz_scenario        scenarios/**/*.yaml and tests/errors/*/in.yaml
#   fuzz_model           models/**/*.yaml and tests/errors/*/models/*.yaml
#   fuzz_trace_*         every trace file in the tree (*.trace, *.csv, the
#                        blkparse samples), for every format: each format's
#                        parser learns from the others'
# plus the regression inputs of tests/fuzz/regressions/<target>/.
set -eu
src=$1
dest=$2

# seed TARGET FILE...: copy each file in as a seed named after its path.
seed() {
	target=$1
	shift
	mkdir -p "$dest/$target"
	for f in "$@"; do
		[ -f "$src/$f" ] || continue
		cp "$src/$f" "$dest/$target/$(printf '%s' "$f" | tr '/' '_')"
	done
}

list() { # DIR PATTERN: files below SRC/DIR, relative to SRC, sorted
	(cd "$src" && find "$1" -type f -name "$2" 2>/dev/null | LC_ALL=C sort)
}

rm -rf "$dest"
# shellcheck disable=SC2046
seed fuzz_scenario $(list scenarios '*.yaml') $(list tests/errors in.yaml)
# shellcheck disable=SC2046
seed fuzz_model $(list models '*.yaml') $(list tests/errors '*.yaml' | grep /models/)
traces=$( (list tests '*.trace'; list scenarios '*.trace'; list tests '*.csv'
	list tests/unit/data 'blkparse*'; list tests/errors 't.txt') | LC_ALL=C sort -u)
trace_targets="fuzz_trace_disksim fuzz_trace_validate fuzz_trace_msr fuzz_trace_spc
	fuzz_trace_blkparse"
for target in $trace_targets; do
	# shellcheck disable=SC2086
	seed $target $traces
done
for target in fuzz_scenario fuzz_model $trace_targets; do
	# shellcheck disable=SC2046
	seed $target $(list tests/fuzz/regressions/$target '*')
	printf '%s: %s seeds\n' "$target" "$(ls "$dest/$target" | wc -l)"
done
