#!/bin/sh
# ledger-table.sh can fail and can fix: in a copy of the READMEs and
# ledgers, a ledger that now expects TX4000-C10's criterion to fail makes the
# check fail on README.md's counts and C10's rows, and --update rewrites them
# so that the check passes again.
set -u
: "${top_srcdir:?}"
script=$top_srcdir/tests/validation/ledger-table.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ledger-table-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$top_srcdir/README.md" "$tmp/"
mkdir -p "$tmp/scenarios"
cp "$top_srcdir/scenarios/studies.list" "$tmp/scenarios/"
for d in "$top_srcdir"/scenarios/*/; do
	n=$(basename "$d")
	[ -f "$d/ledger.tsv" ] || continue
	mkdir -p "$tmp/scenarios/$n"
	cp "$d/ledger.tsv" "$d/README.md" "$tmp/scenarios/$n/"
done
fails=0
check() {
	what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fails=$((fails + 1)); fi
}
sh "$script" "$tmp" >"$tmp/out" 2>&1
check "the copy agrees with its ledgers" [ $? -eq 0 ]
# One reproduced prediction (C10) is turned into a failing one.
line=$(grep '^\* TX4000: [0-9]* of [0-9]* predictions reproduced' "$tmp/README.md")
before=$(echo "$line" | sed 's/^\* TX4000: \([0-9]*\) of .*/\1/')
total=$(echo "$line" | sed 's/^\* TX4000: [0-9]* of \([0-9]*\) predictions.*/\1/')
rest=$(echo "$line" | sed 's/^\* TX4000: [0-9]* of [0-9]* predictions reproduced//')
want=$((before - 1))
sed 's/^\(TX4000-C10	prediction	\)holds/\1fails/' "$tmp/scenarios/tx4000/ledger.tsv" \
	>"$tmp/l" && mv "$tmp/l" "$tmp/scenarios/tx4000/ledger.tsv"
sh "$script" "$tmp" >"$tmp/out" 2>&1
check "a changed ledger: the check fails" [ $? -eq 1 ]
check "... on the counts" grep -q "no line '\\* TX4000: $want of $total predictions reproduced" "$tmp/out"
check "... on README.md's row" grep -q "README.md: TX4000-C10: verdict \"reproduced\", the ledger says \"not reproduced\"" "$tmp/out"
check "... on the study's row" grep -q "tx4000/README.md: C10: verdict" "$tmp/out"
sh "$script" --update "$tmp" >"$tmp/out" 2>&1
sh "$script" "$tmp" >"$tmp/out" 2>&1
check "--update: the check passes" [ $? -eq 0 ]
check "--update: the counts line" grep -qF "* TX4000: $want of $total predictions reproduced$rest" "$tmp/README.md"
check "--update: the row" grep -q "^| TX4000-C10 | .* | not reproduced |$" "$tmp/README.md"
[ $fails -eq 0 ] || { cat "$tmp/out"; exit 1; }
exit 0
