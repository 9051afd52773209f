#!/bin/sh
# The validation programs measure what the study's scenario files say: in
# a copy of scenarios/tx4000 (RS_VALIDATION_SCENARIOS points at it),
# sequential.yaml's mirrors are made to interleave sequential reads over
# their halves (sequential_balance: true), and TX4000-C15's verdict must
# follow: its criterion (sequential reads not balanced) holds at every seed
# as shipped and at none after the change, and the program fails because
# the ledger expects it to hold.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
prog=$top_builddir/tests/validation/check_tx4000
[ -x "$prog" ] || { echo "follow.sh: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/follow.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scenarios" "$tmp/build/tests/validation"
cp -R "$top_srcdir/scenarios/tx4000" "$tmp/scenarios/tx4000"
fails=0
check() {
	what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fails=$((fails + 1)); fi
}
run() {
	RS_VALIDATION_SCENARIOS=$tmp/scenarios top_builddir=$tmp/build CK_RUN_CASE=TX4000-C15 \
		"$prog" >"$tmp/log" 2>&1
}
tsv=$tmp/build/tests/validation/findings-tx4000.tsv

run
check "as shipped: the program passes" [ $? -eq 0 ]
check "as shipped: C15's criterion holds at every seed" \
	grep -q "^TX4000-C15	configuration	.*criterion holds at 5 of 5" "$tsv"

# Interleave sequential reads over the halves: balance streams, and alternate
# even when a half is busy (alternate-split would send a stream's next reads
# to the half that owns its addresses).
sed -e 's/^\(    sequential_balance:\) false/\1 true/' \
	-e 's/^\(    read_policy:\) alternate-split/\1 alternate/' \
	"$tmp/scenarios/tx4000/sequential.yaml" \
	>"$tmp/seq.yaml" && mv "$tmp/seq.yaml" "$tmp/scenarios/tx4000/sequential.yaml"
check "the copy was changed" grep -q "sequential_balance: true" \
	"$tmp/scenarios/tx4000/sequential.yaml"
check "the copy alternates" grep -q "read_policy: alternate$" \
	"$tmp/scenarios/tx4000/sequential.yaml"
run
check "changed: the program fails (the ledger expects the criterion to hold)" [ $? -ne 0 ]
check "changed: C15's criterion holds at no seed" \
	grep -q "^TX4000-C15	configuration	.*criterion holds at 0 of 5" "$tsv"
check "changed: the failure names the ledger" grep -q "ledger.tsv" "$tmp/log"
[ $fails -eq 0 ] || { cat "$tmp/log"; exit 1; }
exit 0
