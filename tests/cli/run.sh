#!/bin/sh
# End-to-end checks of `raidsim run`: the same scenario and seed give
# byte-identical TSV and JSON; --jobs 2 equals --jobs 1; --seed changes the
# numbers; --set pins a swept axis; the outputs have the promised columns.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
scenario="$here/small.yaml"
run() { "$raidsim" run "$scenario" -q "$@"; }

run -o "$tmp/a" -j 1
run -o "$tmp/b" -j 1
run -o "$tmp/c" -j 2
run -o "$tmp/d" -j 1 --seed 7
run -o "$tmp/e" -j 1 --set workload.iometer.outstanding=4

check "same seed, same TSV" cmp -s "$tmp/a/small.tsv" "$tmp/b/small.tsv"
check "same seed, same JSON" cmp -s "$tmp/a/small.json" "$tmp/b/small.json"
check "--jobs 2 equals --jobs 1 (TSV)" cmp -s "$tmp/a/small.tsv" "$tmp/c/small.tsv"
check "--jobs 2 equals --jobs 1 (JSON)" cmp -s "$tmp/a/small.json" "$tmp/c/small.json"
check "another seed, other numbers" sh -c "! cmp -s '$tmp/a/small.tsv' '$tmp/d/small.tsv'"
check "header row" sh -c "head -n 1 '$tmp/a/small.tsv' | grep -q \"^workload.iometer.outstanding	workload.iometer.read	iops	mib_s	\""
for col in iops mib_s lat_mean_ms lat_p99_ms read_iops write_iops; do
	check "column $col" sh -c "head -n 1 '$tmp/a/small.tsv' | tr '\t' '\n' | grep -qx $col"
done
check "one row per point" sh -c "[ \$(wc -l < '$tmp/a/small.tsv') -eq 7 ]"
check "--set pins a swept axis" sh -c "[ \$(wc -l < '$tmp/e/small.tsv') -eq 3 ]"
run -o "$tmp/r" -j 2 --set output.requests=true
check "per-request log per point" test -s "$tmp/r/small.requests.5.csv"
check "per-request log header" sh -c "head -n 1 '$tmp/r/small.requests.0.csv' | grep -qx 'issue_s,op,block,blocks,response_s,status'"
check "request log leaves the table unchanged" cmp -s "$tmp/a/small.tsv" "$tmp/r/small.tsv"
"$raidsim" run "$here/filecopy.yaml" -q -j 1 -o "$tmp/f"
check "workload's own column (file_mb_s), before limited_by" sh -c "head -n 1 '$tmp/f/filecopy.tsv' | tr '\t' '\n' | tail -n 2 | head -n 1 | grep -qx file_mb_s"
# Benchmarks: the workload's figures replace the generic columns.
"$raidsim" run "$here/cdm.yaml" -q -j 1 -o "$tmp/cdm1"
"$raidsim" run "$here/cdm.yaml" -q -j 2 -o "$tmp/cdm2"
check "cdm columns" sh -c "head -n 1 '$tmp/cdm1/cdm.tsv' | grep -qx 'workload.cdm.test	read_MBps	write_MBps	read_iops	write_iops	read_lat_ms	write_lat_ms	errors'"
check "cdm one row per test" sh -c "[ \$(wc -l < '$tmp/cdm1/cdm.tsv') -eq 5 ]"
check "cdm --jobs 2 equals --jobs 1" cmp -s "$tmp/cdm1/cdm.tsv" "$tmp/cdm2/cdm.tsv"
check "cdm JSON has the figures" grep -q '"read_MBps": [0-9]' "$tmp/cdm1/cdm.json"
check "cdm plot defaults to read_MBps" grep -q "^set ylabel 'read_MBps'" "$tmp/cdm1/cdm.gp"
"$raidsim" run "$here/atto.yaml" -q -j 1 -o "$tmp/atto"
check "atto columns" sh -c "head -n 1 '$tmp/atto/atto.tsv' | grep -qx 'workload.atto.size	write_MBps	read_MBps	write_iops	read_iops	write_lat_ms	read_lat_ms	errors'"
check "models --types lists cdm and atto" sh -c "'$raidsim' models --types | grep -q '^  cdm ' && '$raidsim' models --types | grep -q '^  atto '"
check "gnuplot script written" test -s "$tmp/a/small.gp"
check "JSON names its columns" grep -q '"columns"' "$tmp/a/small.json"
check "--help" sh -c "'$raidsim' --help | grep -q 'Usage: raidsim'"
check "run --help" sh -c "'$raidsim' run --help | grep -q -- '--jobs'"
check "--version" sh -c "'$raidsim' --version | grep -q '^raidsim '"
check "models lists the reference device" sh -c "RAIDSIM_MODELS='$here/../../models' '$raidsim' models | grep -q '^ideal-1ms'"
check "unknown command exits 2" sh -c "'$raidsim' frobnicate 2>/dev/null; [ \$? -eq 2 ]"
# A time series per point (output.timeseries), the table unchanged.
run -o "$tmp/t" -j 2 --set output.timeseries=0.5s
check "time series per point" test -s "$tmp/t/small.series.5.tsv"
check "time series header" sh -c "head -n 1 '$tmp/t/small.series.0.tsv' | grep -qx 't_s	iops	mib_s	errors	errors_total'"
check "time series: one line per 0.5 s of a 2 s run" sh -c "[ \$(wc -l < '$tmp/t/small.series.0.tsv') -eq 5 ]"
check "time series script" grep -q "small.series.3.tsv" "$tmp/t/small.series.3.gp"
check "time series leaves the table unchanged" cmp -s "$tmp/a/small.tsv" "$tmp/t/small.tsv"

# A scenario with no sweep is one point: a table and no figure, status 0.
"$raidsim" run "$here/small.yaml" -q -j 1 -o "$tmp/single" \
	--set workload.iometer.outstanding=4 --set workload.iometer.read=70% --plot
check "one point: status 0" test $? -eq 0
check "one point: one row" sh -c "[ \$(wc -l < '$tmp/single/small.tsv') -eq 2 ]"
check "one point: no figure" test ! -e "$tmp/single/small.gp"

if command -v gnuplot >/dev/null 2>&1; then
	run -o "$tmp/p" -j 1 --plot
	check "PNG rendered" sh -c "head -c 4 '$tmp/p/small.png' | grep -q PNG"
	(cd "$tmp" && run -o rel/dir -j 1 --plot)
	check "PNG rendered into a relative -o" sh -c "head -c 4 '$tmp/rel/dir/small.png' | grep -q PNG"
fi
summary cli
