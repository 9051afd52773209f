#!/bin/sh
# The page of `raidsim reproduce` in a real browser: headless Chromium
# (Debian's chromium package, installed when missing) loads DIR/index.html
# from disk with the network unused; every image must load and every study
# section have its findings table; a screenshot is written to
# DIR/screenshot.png.  The page's own checks (tests/reproduce/page.sh) run
# first.
#   tests/reproduce/chromium.sh DIR
# Skips (exit status 77) when not root and chromium is missing, or when it
# cannot be installed.  Run by .ci/run on the page `make reproduce` wrote.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$(cd "$1" && pwd) || exit 1
skip() { echo "chromium: SKIP: $*"; exit 77; }
die() { echo "chromium: FAIL: $*"; exit 1; }

if ! command -v chromium >/dev/null 2>&1; then
	[ "$(id -u)" -eq 0 ] || skip "chromium is not installed and installing needs root"
	echo "chromium: installing chromium"
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium ||
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q chromium; }; } >/dev/null 2>&1 ||
		skip "cannot install chromium"
fi
"$here/page.sh" "$dir" || die "the page's own checks failed"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; rm -f "$dir/.browser-check.html"' EXIT
# Flags for a closed network and a root user; a fresh profile each time.
browse() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$(mktemp -d "$tmp/profile.XXXXXX")" "$@"
}

# A test page beside index.html frames it and reports, once loaded, how
# many images it has, how many failed to load and how many findings tables
# and study sections it holds.
cat >"$dir/.browser-check.html" <<'HTML'
<!DOCTYPE html>
<html><body><iframe id="f" src="index.html" width="1400" height="900"></iframe>
<pre id="r">not loaded</pre>
<script>
document.getElementById('f').onload = function () {
	var d = this.contentDocument, bad = [], imgs = d.images;
	for (var i = 0; i < imgs.length; i++)
		if (!imgs[i].complete || imgs[i].naturalWidth === 0)
			bad.push(imgs[i].getAttribute('src'));
	document.getElementById('r').textContent = 'RESULT images=' + imgs.length +
		' broken=' + bad.length + ' tables=' + d.querySelectorAll('table.findings').length +
		' sections=' + d.querySelectorAll('section').length + ' ' + bad.join(' ');
};
</script></body></html>
HTML
browse --allow-file-access-from-files --virtual-time-budget=20000 --dump-dom \
	"file://$dir/.browser-check.html" >"$tmp/dom" 2>"$tmp/dom.err" ||
	{ tail -n 5 "$tmp/dom.err"; die "chromium failed to load the page"; }
result=$(sed -n 's/.*<pre id="r">\(RESULT[^<]*\)<.*/\1/p' "$tmp/dom")
echo "chromium: $result"
[ -n "$result" ] || die "the page did not finish loading"
images=$(echo "$result" | sed 's/.*images=\([0-9]*\).*/\1/')
broken=$(echo "$result" | sed 's/.*broken=\([0-9]*\).*/\1/')
tables=$(echo "$result" | sed 's/.*tables=\([0-9]*\).*/\1/')
sections=$(echo "$result" | sed 's/.*sections=\([0-9]*\).*/\1/')
[ "$broken" -eq 0 ] || die "$broken of $images images did not load"
[ "$images" -gt 0 ] || die "the page shows no figure"
[ "$tables" -eq "$sections" ] || die "$sections studies but $tables findings tables"

# The screenshot: a PNG of the top of the page, not blank.
browse --window-size=1400,2400 --hide-scrollbars --screenshot="$dir/screenshot.png" \
	"file://$dir/index.html" >"$tmp/shot.err" 2>&1 ||
	{ tail -n 5 "$tmp/shot.err"; die "chromium could not take a screenshot"; }
head -c 8 "$dir/screenshot.png" | od -An -c | grep -q 'P   N   G' || die "no PNG screenshot"
size=$(wc -c <"$dir/screenshot.png")
[ "$size" -gt 20000 ] || die "screenshot of $size bytes: blank page?"
echo "chromium: PASS: $images images loaded, $tables findings tables, screenshot $dir/screenshot.png ($size bytes)"
