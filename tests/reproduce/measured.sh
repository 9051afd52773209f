#!/bin/sh
# The study's own numbers (FOLDER/measured.tsv) on a fake study
# (tests/reproduce/errs, whose run.sh writes round numbers by hand): the
# error table, DIR/errs/errors.tsv and the page, is computed right for every
# form of key; a malformed file is reported as FILE:LINE:COL with status 2
# before anything runs (no output folder at all).
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
# shellcheck source=../cli/lib.sh
. "$here/../cli/lib.sh"
mkdir -p "$tmp/build/tests/validation"
cat >"$tmp/build/tests/validation/check_errs" <<'PROG'
#!/bin/sh
printf 'id\tstatus\tmeasured\tstudy\n' >"$top_builddir/tests/validation/findings-errs.tsv"
PROG
chmod +x "$tmp/build/tests/validation/check_errs"
rep() { # study folder, output folder
	printf 'errs  %s  check_errs  A fake study\n' "$1" >"$tmp/list"
	"$raidsim" reproduce --studies "$tmp/list" --srcdir "$srcdir" --builddir "$tmp/build" \
		-o "$2" -j 1 -q
}

rep "$here/errs" "$tmp/a" >/dev/null 2>"$tmp/a.err"
check "good file: status 0" [ $? -eq 0 ]
# measured, simulated and error of each line of errs/measured.tsv, worked
# out by hand in its source column.
cut -f 4-6 "$tmp/a/errs/errors.tsv" >"$tmp/got"
cat >"$tmp/want" <<'TSV'
measured	simulated	error_pct
500	400	-20.0
160	200	25.0
1	1	0.0
2	3	50.0
1.25	1.2	-4.0
480	600	25.0
TSV
check "errors.tsv: every form of key" cmp -s "$tmp/want" "$tmp/got"
check "errors.tsv: the key and source columns" grep -q "^on/tiny.tsv / off/tiny.tsv	workload.iometer.outstanding=4	max(iops)	1.25	1.2	-4.0	ratio	max" "$tmp/a/errs/errors.tsv"
# |errors| 0 4 20 25 25 50: median 22.5, max 50.
check "page: per-study summary" grep -q "6 points: median 22.5 %, max 50.0 %" "$tmp/a/index.html"
check "page: a row of the table" grep -q '<td class="num">400</td><td class="num">-20.0 %</td>' "$tmp/a/index.html"
check "page: a gain is signed" grep -q '<td class="num">3</td><td class="num">+50.0 %</td>' "$tmp/a/index.html"
check "page: links errors.tsv" grep -q '<a href="errs/errors.tsv">' "$tmp/a/index.html"
check "page: findings table untouched" "$here/page.sh" "$tmp/a"

# A table run.sh did not write: the row says so and reproduce fails.
cp -r "$here/errs" "$tmp/s"
printf 'tiny.series.3.tsv\tt_s=1\tiops\t1\tIOPS\tx\n' >>"$tmp/s/measured.tsv"
rep "$tmp/s" "$tmp/m" >/dev/null 2>&1
check "missing table: status 1" [ $? -eq 1 ]
check "missing table: said in errors.tsv" grep -q '^tiny.series.3.tsv.*	1		' "$tmp/m/errs/errors.tsv"
check "missing table: said on the page" grep -q 'no table tiny.series.3.tsv' "$tmp/m/index.html"

bad() { # expected first line (after FILE:), then the line to add
	rm -rf "$tmp/s" "$tmp/o"
	cp -r "$here/errs" "$tmp/s"
	printf "$2" >>"$tmp/s/measured.tsv"
	rep "$tmp/s" "$tmp/o" >"$tmp/o.out" 2>"$tmp/o.err"
	st=$?
	[ $st -eq 2 ] && [ "$(head -n 1 "$tmp/o.err")" = "$tmp/s/measured.tsv:$1" ] &&
		[ ! -e "$tmp/o" ] && [ ! -s "$tmp/o.out" ] && return 0
	echo "  status $st; want: $1"
	echo "  got:  $(head -n 1 "$tmp/o.err")"
	return 1
}
n=$(($(wc -l <"$here/errs/measured.tsv") + 1))
check "five columns" bad "$n:1: error: expected 6 tab-separated columns (table, point, metric, value, unit, source), found 5" \
	'tiny.tsv\t-\tmax(iops)\t1\tIOPS\n'
check "seven columns" bad "$n:31: error: expected 6 tab-separated columns (table, point, metric, value, unit, source), found 7" \
	'tiny.tsv\t-\tmax(iops)\t1\tIOPS\tx\textra\n'
check "not a number" bad "$n:22: error: expected the measured value, a non-zero number, found '12,5'" \
	'tiny.tsv\t-\tmax(iops)\t12,5\tIOPS\tx\n'
check "zero" bad "$n:22: error: expected the measured value, a non-zero number, found '0'" \
	'tiny.tsv\t-\tmax(iops)\t0\tIOPS\tx\n'
check "empty unit" bad "$n:24: error: expected a unit, found an empty column" \
	'tiny.tsv\t-\tmax(iops)\t1\t\tx\n'
check "no such axis" bad "$n:36: error: expected a sweep axis of tiny.yaml, found 'workload.iometer.outstandin'" \
	'tiny.tsv\tworkload.iometer.read=50%% workload.iometer.outstandin=1\tmax(iops)\t1\tIOPS\tx\n'
check "no such value" bad "$n:10: error: expected one of the values of workload.iometer.read in tiny.yaml, found '60%'" \
	'tiny.tsv\tworkload.iometer.read=60%%\tmax(iops)\t1\tIOPS\tx\n'
check "no such ratio value" bad "$n:10: error: expected one of the values of workload.iometer.outstanding in tiny.yaml, found '16'" \
	'tiny.tsv\tworkload.iometer.outstanding=4/16\tmax(iops)\t1\tratio\tx\n'
check "a value needs one row" bad "$n:36: error: expected max(iops) or min(iops), or a point naming every axis (workload.iometer.outstanding is missing)" \
	'tiny.tsv\tworkload.iometer.read=50%%\tiops\t1\tIOPS\tx\n'
check "no such column" bad "$n:36: error: expected a result column of tiny.tsv, found 'iopz'" \
	'tiny.tsv\tworkload.iometer.read=50%%\tmax(iopz)\t1\tIOPS\tx\n'
check "no such aggregate" bad "$n:12: error: expected a result column, max(COLUMN) or min(COLUMN), found 'avg(iops)'" \
	'tiny.tsv\t-\tavg(iops)\t1\tIOPS\tx\n'
check "no such table" bad "$n:1: error: expected a table a scenario of this study writes, found 'nosuch.tsv' (no nosuch.yaml beside this file)" \
	'nosuch.tsv\t-\tmax(iops)\t1\tIOPS\tx\n'
check "outside the output folder" bad "$n:1: error: expected a table of the study's output folder, TABLE.tsv or NUM.tsv / DEN.tsv (a relative path), found '../tiny.tsv'" \
	'../tiny.tsv\t-\tmax(iops)\t1\tIOPS\tx\n'
check "no time series" bad "$n:1: error: expected a time series the scenario writes, found 'tiny.series.9.tsv' (it has fewer points)" \
	'tiny.series.9.tsv\tt_s=1\tiops\t1\tIOPS\tx\n'
check "bad second" bad "$n:19: error: expected t_s=SECONDS (a positive number), found '-1'" \
	'tiny.series.0.tsv\tt_s=-1\tiops\t1\tIOPS\tx\n'
check "not a pair" bad "$n:10: error: expected COLUMN=VALUE (or '-' for no point), found 'read'" \
	'tiny.tsv\tread\tmax(iops)\t1\tIOPS\tx\n'
check "two ratios" bad "$n:28: error: expected one ratio per key (a ratio of tables or one COLUMN=A/B), found a second in 'workload.iometer.read=50%/100%'" \
	'on/tiny.tsv / off/tiny.tsv\tworkload.iometer.read=50%%/100%%\tmax(iops)\t1\tratio\tx\n'
summary measured
