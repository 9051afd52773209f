#!/bin/sh
# The fuzz harnesses, built with the normal compiler and a plain main(),
# replay every seed and regression input: each must load or be refused
# with file:line:column, leak-free under the sanitizer build, and no
# regression may crash again.  Inputs of bugs not fixed yet wait in
# tests/fuzz/pending/ and are not replayed.
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${top_builddir:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh "$src/tests/fuzz/seeds.sh" "$src" "$tmp" >/dev/null || exit 1
fail=0
for target in scenario model trace_disksim trace_validate trace_msr trace_spc \
	trace_blkparse; do
	if ! "$build/tests/fuzz/replay_$target" "$tmp/fuzz_$target"; then
		echo "FAIL replay_$target"
		fail=1
	fi
done
exit $fail
