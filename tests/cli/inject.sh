#!/bin/sh
# Nothing from a scenario reaches gnuplot or a shell as code.  Output names,
# swept string values (tic labels, legend entries, panel titles), plot
# columns, the scenario's file name (plot titles, the default output name)
# and shard headers all end up in gnuplot scripts (NAME.gp, and
# NAME.series.N.gp for time series).  Each payload below would create a
# PWNED file if it were run, by gnuplot or by a shell; none may appear.
# Output names outside the plain alphabet are refused with status 2 and
# nothing written; the scripts of what is accepted still draw in gnuplot.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
marks=$tmp/marks                 # where the payloads with a path would write
work=$tmp/work                   # raidsim's working folder
mkdir -p "$marks" "$work"
cd "$work" || exit 1
no_marks() { [ -z "$(find "$tmp" -name 'PWNED*' -print)" ]; }
status_is() { # expected, command...
	want=$1
	shift
	"$@" >/dev/null 2>"$tmp/err"
	[ $? -eq "$want" ]
}
has() { grep -q -F -- "$2" "$1"; }

# The payloads as YAML double-quoted strings: backquotes, a line end
# followed by gnuplot code, breaking out of single and of double quotes, a
# trailing backslash, shell substitution, a carriage return, gnuplot's
# pipes, a printf format and terminal control characters.
payloads='"`touch PWNED-bq`", "`touch '$marks'/PWNED-bq2`",
   "a\nsystem \"touch '$marks'/PWNED-nl\"\n#", "b'"'"' . system('"'"'touch PWNED-sq'"'"') . '"'"'",
   "c\" . system(\"touch '$marks'/PWNED-dq\") . \"", "d\\", "$(touch '$marks'/PWNED-sh)",
   "e\rsystem \"touch '$marks'/PWNED-cr\"", "<touch PWNED-lt", "|touch PWNED-pipe",
   "50% %s", "\e[2J\u0001\u0085"'

scenario() { # file, sweep lines, output lines
	cat >"$1" <<EOF
device: {type: ideal, mean: 1ms}
workload:
  iometer: {spec: database, run: 0.05s}
sweep:
$2
output:
$3
EOF
}

# Swept strings as tic labels (one axis), legend entries (two axes) and
# panel titles (three axes), each with --plot (gnuplot runs the script),
# and with a time series per point.
scenario one.yaml "  description: [$payloads]" "  name: one"
scenario two.yaml "  workload.iometer.outstanding: [1, 2]
  description: [$payloads]" "  name: two
  timeseries: 0.01s"
scenario three.yaml "  workload.iometer.outstanding: [1, 2]
  workload.iometer.read: [50%, 100%]
  description: [$payloads]" "  name: three"
for s in one two three; do
	check "$s: swept strings run" status_is 0 "$raidsim" run $s.yaml -q -j 2 -o "$tmp/$s" --plot
	check "$s: no payload ran" no_marks
done
check "tic labels: payload kept, inert" has "$tmp/one/one.gp" "'\`touch PWNED-bq\`' 0"
check "tic labels: quote doubled" has "$tmp/one/one.gp" "'b'' . system(''touch PWNED-sq'') . ''' 3"
check "tic labels: no line end kept" has "$tmp/one/one.gp" "'a system \"touch $marks/PWNED-nl\" #' 2"
check "legend entries: payload inert" has "$tmp/two/two.gp" "title 'description=\`touch PWNED-bq\`'"
check "panel titles: payload inert" has "$tmp/three/three.gp" "set title 'description=|touch PWNED-pipe'"
check "time series written" test -s "$tmp/two/two.series.3.gp"

# A plot column or a sweep path that is a payload names no column: status 2.
scenario col.yaml "  workload.iometer.outstanding: [1, 2]" "  y: \"iops\`touch PWNED-y\`\""
check "payload as output.y: status 2" status_is 2 "$raidsim" run col.yaml -q -o "$tmp/col" --plot
scenario key.yaml "  \"description\`touch PWNED-key\`\": [a, b]" "  name: key"
check "payload as a sweep path: status 2" status_is 2 "$raidsim" run key.yaml -q -o "$tmp/key"
sed 's/^device: .*/device: {model: ideal-1ms}/' one.yaml >model.yaml
check "payload as a model name: status 2" status_is 2 "$raidsim" run model.yaml -q -o "$tmp/model" \
	--set 'device.model=`touch PWNED-model`'

# Output names: the payloads are refused before anything is written, in
# the file and with --set alike; so are spaces, a leading '-' and names
# too long to take raidsim's suffixes.
long=$(printf '%0200d' 0 | tr 0 r)
n=0
for name in '"r`touch PWNED-name`"' '"r\nsystem \"touch PWNED-name\""' \
	"\"r' . system('touch PWNED-name') . '\"" '"r\" . system(\"touch PWNED-name\") . \""' \
	'"$(touch PWNED-name)"' '"|touch PWNED-name"' '"my results"' '-rf' "${long}r"; do
	n=$((n + 1))
	scenario name$n.yaml "  workload.iometer.outstanding: [1, 2]" "  name: $name
  timeseries: 0.01s"
	check "output name $n: status 2" status_is 2 "$raidsim" run name$n.yaml -q -o "$tmp/name$n" --plot
	check "output name $n: a file:line:column error" grep -q "^name$n.yaml:[0-9]*:[0-9]*: error: 'name' " "$tmp/err"
	check "output name $n: nothing written" test ! -e "$tmp/name$n"
done
check "output name by --set: status 2" status_is 2 "$raidsim" run one.yaml -q -o "$tmp/set" \
	--set 'output.name=r`touch PWNED-set`'
check "output names: no payload ran" no_marks

# What the alphabet allows works, up to the longest name: the time series,
# the request log and the shards (the longest suffixes) fit, and gnuplot
# gets a name starting with '+' as a file.
scenario ok.yaml "  workload.iometer.outstanding: [1, 2]" "  name: +A-z_0.9
  timeseries: 0.01s
  requests: true"
check "plain name: runs" status_is 0 "$raidsim" run ok.yaml -q -o "$tmp/ok" --plot
check "plain name: table" test -s "$tmp/ok/+A-z_0.9.tsv"
check "longest name: runs" status_is 0 "$raidsim" run ok.yaml -q -o "$tmp/long" --plot \
	--set "output.name=$long"
check "longest name: time series" test -s "$tmp/long/$long.series.1.gp"
check "longest name: request log" test -s "$tmp/long/$long.requests.1.csv"
check "longest name: shard" status_is 0 "$raidsim" run ok.yaml -q -o "$tmp/shard" --shard 1/2 \
	--set "output.name=$long"
check "longest name: shard table" test -s "$tmp/shard/$long.shard-1-of-2.tsv"

# The default output name comes from the scenario's file name, which may
# hold anything: it is made plain, and the plot title (the file name as it
# is) is inert.
hostile=$(printf 'h`touch PWNED-fn`q\n$(touch PWNED-fn2)%s"x' "'")
scenario "$hostile.yaml" "  workload.iometer.outstanding: [1, 2]" "  timeseries: 0.01s"
check "hostile file name: runs" status_is 0 "$raidsim" run "$hostile.yaml" -q -o "$tmp/fn" --plot
check "hostile file name: a plain default name" \
	test -s "$tmp/fn/h_touch_PWNED-fn_q___touch_PWNED-fn2___x.gp"
check "hostile file name: no payload ran" no_marks

# A shard header is a file too: merge with --plot quotes its name and
# scenario like any other (whether or not merge accepts them).
"$raidsim" run one.yaml -q -o "$tmp/sh" --shard 0/1
sed -e 's/^#name	.*/#name	r`touch PWNED-merge`'"'"'x/' \
	-e 's/^#scenario	.*/#scenario	s`touch PWNED-merge2`'"'"'/' \
	"$tmp/sh/one.shard-0-of-1.tsv" >"$tmp/sh/evil.tsv"
"$raidsim" merge -q -o "$tmp/merged" --plot "$tmp/sh/evil.tsv" 2>/dev/null
check "merge of a hostile shard header: no payload ran" no_marks

# Every script written above still draws in gnuplot, and runs nothing.
if command -v gnuplot >/dev/null 2>&1; then
	cairo=no
	gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1 && cairo=yes
	for gp in "$tmp"/*/*.gp; do
		case $gp in *.series.*) [ $cairo = yes ] || continue ;; esac
		check "gnuplot draws $(basename "$gp")" sh -c \
			'cd "$(dirname "$1")" && gnuplot "./$(basename "$1")" >/dev/null 2>&1' sh "$gp"
	done
	check "gnuplot: no payload ran" no_marks
	check "gnuplot: PNG of the tic labels" sh -c "head -c 4 '$tmp/one/one.png' | grep -q PNG"
else
	echo "inject: gnuplot not installed, scripts not run"
fi
summary inject
