#!/bin/sh
# `raidsim reproduce` on a study in miniature (tests/reproduce/mini): the
# script's figure appears with its caption, the findings table is what the
# validation program wrote, a study missing from the tree is skipped, a
# failing validation program makes the command fail and the page say so.
# The validation program here is a stand-in written by this script.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
# shellcheck source=../cli/lib.sh
. "$here/../cli/lib.sh"
# The stand-in validation program: writes its findings where validation.h
# would ($top_builddir/tests/validation) and exits with $MINI_STATUS.
mkdir -p "$tmp/build/tests/validation"
cat >"$tmp/build/tests/validation/check_mini" <<'PROG'
#!/bin/sh
f=$top_builddir/tests/validation/findings-mini.tsv
printf 'id\tstatus\tmeasured\tstudy\n' >"$f"
printf 'MINI-1\treproduced\t647 IOPS at QD 16 & 50 %% read\t<about 650>\n' >>"$f"
printf 'MINI-2\tnot reproduced\tflat over the queue depth\t"rises"\n' >>"$f"
exit "${MINI_STATUS:-0}"
PROG
chmod +x "$tmp/build/tests/validation/check_mini"
rep() { "$raidsim" reproduce --studies "$here/studies.list" --srcdir "$srcdir" \
	--builddir "$tmp/build" "$@"; }

rep -o "$tmp/a" -j 2 2>"$tmp/a.err" >/dev/null
check "reproduce succeeds" [ $? -eq 0 ]
check "page written" test -s "$tmp/a/index.html"
check "page: images exist, findings match the tsv" "$here/page.sh" "$tmp/a"
check "findings tsv kept beside the figures" test -s "$tmp/a/mini/findings-mini.tsv"
check "findings escaped" grep -q '&lt;about 650&gt;' "$tmp/a/index.html"
check "verdicts shown" grep -q '<td class="no">not reproduced</td>' "$tmp/a/index.html"
check "summary counts" grep -q '<td>1 of 2</td>' "$tmp/a/index.html"
check "summary: study not in the tree" grep -q 'A study not in this tree</td><td colspan="3">not in this source tree' "$tmp/a/index.html"
check "missing study skipped with a note" grep -q "ghost: no .* in this tree, skipped" "$tmp/a.err"
if command -v gnuplot >/dev/null 2>&1; then
	check "figure shown with its caption" grep -q '<img src="mini/small.png" alt="IOPS over the queue depth &lt;for&gt; two read shares &amp; &quot;quotes&quot;."><p>' "$tmp/a/index.html"
fi
check "figure the script did not draw: left out" sh -c "! grep -q never.png '$tmp/a/index.html' || grep -q 'figure never.png was not drawn' '$tmp/a/index.html'"
check "times reported per study" grep -q "mini: run.sh ok in [0-9]*s, validation passed" "$tmp/a.err"

MINI_STATUS=1 rep -o "$tmp/b" -j 1 -q 2>/dev/null
st=$?
check "failing validation: status 1" [ $st -eq 1 ]
check "failing validation: page still written" test -s "$tmp/b/index.html"
check "failing validation: page says so" grep -q "validation program failed" "$tmp/b/index.html"

# Results make check left behind, newer than the program: shown as they are.
v=$tmp/build/tests/validation
sleep 1
printf 'id\tstatus\tmeasured\tstudy\nMINI-9\treproduced\tfrom make check\tx\n' >"$v/findings-mini.tsv"
printf ':test-result: PASS\n:global-test-result: PASS\n' >"$v/check_mini.trs"
MINI_STATUS=1 rep -o "$tmp/r" -j 2 2>"$tmp/r.err" >/dev/null
check "make check's results reused: status 0" [ $? -eq 0 ]
check "make check's results reused: said so" grep -q "passed (results of make check)" "$tmp/r.err"
check "make check's results reused: on the page" grep -q "MINI-9" "$tmp/r/index.html"
check "make check's results reused: page checks" "$here/page.sh" "$tmp/r"
printf ':global-test-result: FAIL\n' >"$v/check_mini.trs"
rep -o "$tmp/r2" -j 1 -q 2>/dev/null
check "make check failed: status 1" [ $? -eq 1 ]
rep -o "$tmp/r3" -j 1 -q --rerun-validation 2>/dev/null
check "--rerun-validation runs the program" grep -q "MINI-2" "$tmp/r3/index.html"
touch "$v/check_mini"
rep -o "$tmp/r4" -j 1 -q 2>/dev/null
check "program rebuilt since: run again" grep -q "MINI-2" "$tmp/r4/index.html"

rm "$tmp/build/tests/validation/check_mini"
rep -o "$tmp/c" -j 1 -q 2>/dev/null
check "validation not built: status 1" [ $? -eq 1 ]
check "validation not built: page says how to build it" grep -q "make reproduce" "$tmp/c/index.html"

rep -o "$tmp/d" --study nosuch 2>"$tmp/d.err"
check "unknown --study: status 2" [ $? -eq 2 ]
printf 'broken line\n' >"$tmp/bad.list"
"$raidsim" reproduce --studies "$tmp/bad.list" -o "$tmp/e" 2>"$tmp/e.err"
check "bad study list: status 2" [ $? -eq 2 ]
check "bad study list: file:line" grep -q "bad.list:1: expected NAME FOLDER VALIDATION TITLE" "$tmp/e.err"
summary reproduce
