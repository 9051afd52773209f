#!/bin/sh
# The findings tables of README.md and of each study's README against the
# studies' ledgers (scenarios/STUDY/ledger.tsv, the studies of
# scenarios/studies.list):
#   - the counts line of every study, e.g.
#       * TX4000: 1 of 11 predictions reproduced; 4 configuration
#     appears in README.md and in the study's README;
#   - every finding has one row in README.md's findings table (first cell
#     its id) and one in the study's README (first cell the id without the
#     study's prefix), and the row's last cell is its verdict: "reproduced"
#     or "not reproduced" for a prediction (the ledger's expected outcome,
#     which the validation program holds the runs to), else its class.
#
#   tests/validation/ledger-table.sh [--update] [SRCDIR]
#
# Prints what differs and exits 1, or exits 0.  --update rewrites the
# counts lines and the verdict cells in place instead (the rest of each row
# is prose and stays as written).
set -u
update=no
if [ "${1:-}" = --update ]; then
	update=yes
	shift
fi
srcdir=${1:-${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}}
readme=$srcdir/README.md
bad=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ledger-table.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# One study's verdicts (id TAB verdict) and its counts line.
verdicts() {
	awk -F'\t' '
	/^#/ || NF == 0 || $1 == "id" { next }
	{ v = $2 == "prediction" ? ($3 == "holds" ? "reproduced" : "not reproduced") : $2
	  print $1 "\t" v }' "$1"
}
counts() {
	awk -F'\t' '
	/^#/ || NF == 0 || $1 == "id" { next }
	{ if (!label) { label = $1; sub(/-.*/, "", label) }
	  n[$2]++; if ($2 == "prediction" && $3 == "holds") rep++ }
	END {
		line = sprintf("%s: %d of %d predictions reproduced", label, rep, n["prediction"])
		split("calibration|configuration|not testable", k, "|")
		for (i = 1; i <= 3; i++) if (n[k[i]]) line = line sprintf("; %d %s", n[k[i]], k[i])
		print line
	}' "$1"
}

# Check (or set) the verdict cells of FILE's rows whose first cell is an
# id of VERDICTS, the id shortened by PREFIX ("" for none); every id must
# have exactly one row.
rows() {
	awk -F'\t' -v prefix="$3" -v update="$update" -v file="$1" -v out="$tmp/out" '
	FNR == NR { id = $1; if (prefix != "") sub("^" prefix, "", id); want[id] = $2; next }
	{
		line = $0
		if (line ~ /^\| [^|]+ \|/) {
			cell = line; sub(/^\| /, "", cell); sub(/ \|.*/, "", cell)
			if (cell in want) {
				seen[cell]++
				last = line; sub(/^.*\| /, "", last); sub(/ \|$/, "", last)
				if (last != want[cell]) {
					if (update == "yes") {
						sub(/\| [^|]* \|$/, "| " want[cell] " |", line)
					} else {
						printf "%s: %s: verdict \"%s\", the ledger says \"%s\"\n", file, cell, last, want[cell]
						bad = 1
					}
				}
			}
		}
		print line > out
	}
	END {
		for (id in want) if (seen[id] != 1) {
			printf "%s: %s has %d rows in the findings table (want 1)\n", file, id, seen[id] + 0
			bad = 1
		}
		exit bad
	}' "$2" FS=' ' "$1" || bad=1
	[ $update = no ] || cp "$tmp/out" "$1"
}

# Check (or set) the counts line "* LINE" in FILE.
count_line() {
	file=$1 line=$2 label=${2%%:*}
	if [ $update = yes ]; then
		awk -v label="$label" -v line="$line" '
		index($0, "* " label ": ") == 1 && / predictions reproduced/ { print "* " line; next }
		{ print }' "$file" >"$tmp/out" && cp "$tmp/out" "$file"
	fi
	grep -qxF "* $line" "$file" || { echo "$file: no line '* $line'"; bad=1; }
}

grep -v '^#' "$srcdir/scenarios/studies.list" | while read -r name folder rest; do
	[ -n "$name" ] || continue
	ledger=$srcdir/$folder/ledger.tsv
	[ -f "$ledger" ] || continue
	echo "$name $folder"
done >"$tmp/studies"
[ -s "$tmp/studies" ] || { echo "no study has a ledger"; exit 1; }

while read -r name folder; do
	ledger=$srcdir/$folder/ledger.tsv
	verdicts "$ledger" >"$tmp/$name.verdicts"
	line=$(counts "$ledger")
	count_line "$readme" "$line"
	rows "$readme" "$tmp/$name.verdicts" ""
	if [ -f "$srcdir/$folder/README.md" ]; then
		count_line "$srcdir/$folder/README.md" "$line"
		rows "$srcdir/$folder/README.md" "$tmp/$name.verdicts" "${line%%:*}-"
	fi
done <"$tmp/studies"
exit $bad
