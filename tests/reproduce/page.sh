#!/bin/sh
# Checks a page written by `raidsim reproduce`: DIR/index.html references
# only files that exist under DIR, loads nothing remote, and its findings
# tables hold exactly the lines of each study's findings*.tsv (the files
# the validation programs wrote), id, verdict and texts.
#   tests/reproduce/page.sh DIR
# Prints what is wrong and exits 1, or exits 0.
set -u
dir=$1
page=$dir/index.html
bad=0
say() { echo "page: $*"; bad=1; }
[ -s "$page" ] || { echo "page: no $page"; exit 1; }
# Every image and link target exists, and none is remote.
for src in $(grep -o 'src="[^"]*"' "$page" | sed 's/^src="//; s/"$//'); do
	case $src in
	*://*) say "remote reference $src" ;;
	*) [ -s "$dir/$src" ] || say "image $src does not exist" ;;
	esac
done
grep -q 'href="http\|src="http\|url(' "$page" && say "the page loads something remote"
# The findings rows, as the page shows them: id, status, measured, study.
html_rows() {
	sed -n "/<section id=\"$1\">/,/<\/section>/p" "$page" |
		grep '^<tr><td>' |
		sed 's/^<tr><td>//; s/<\/td><\/tr>$//; s/<\/td><td[^>]*>/\t/g' |
		sed 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&amp;/\&/g' |
		awk -F'\t' -v OFS='\t' '{ print $1, $4, $3, $2 }'
}
for sec in $(grep -o '<section id="[^"]*"' "$page" | sed 's/.*id="//; s/"$//'); do
	tsvs=$(ls "$dir/$sec"/findings*.tsv 2>/dev/null)
	if [ -z "$tsvs" ]; then
		[ -z "$(html_rows "$sec")" ] || say "$sec: findings shown but no findings tsv"
		continue
	fi
	for t in $tsvs; do tail -n +2 "$t"; done >"$dir/.expected-$sec"
	html_rows "$sec" >"$dir/.shown-$sec"
	cmp -s "$dir/.expected-$sec" "$dir/.shown-$sec" ||
		say "$sec: findings table differs from $(echo $tsvs)"
	rm -f "$dir/.expected-$sec" "$dir/.shown-$sec"
done
exit $bad
