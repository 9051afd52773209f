#!/bin/sh
# Installed like a tool: `make install DESTDIR=...` puts the binary, the
# manual page (rendered by `man -l`), the bash completion (`bash -n`
# clean), the models and the scenarios in place; the staged binary, moved
# away from the prefix it was configured for and with RAIDSIM_MODELS
# unset, finds its own models, runs an installed scenario, and
# `raidsim reproduce` runs a study from the installed scenarios.
# `make uninstall` leaves no file behind.  Without man the other checks
# still run, then the test is skipped (77).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
unset RAIDSIM_MODELS
build=${top_builddir:-$here/../..}
stage=$tmp/stage

make -s -C "$build" install DESTDIR="$stage" >"$tmp/install.log" 2>&1
check "make install DESTDIR" [ $? -eq 0 ] || cat "$tmp/install.log"
bin=$(find "$stage" -path '*/bin/raidsim' -type f | head -n 1)
share=$(find "$stage" -path '*/share/raidsim' -type d | head -n 1)
man1=$(find "$stage" -path '*/man1/raidsim.1' -type f | head -n 1)
comp=$(find "$stage" -path '*/bash-completion/completions/raidsim' -type f | head -n 1)
check "binary installed" test -x "$bin"
check "models installed" test -s "$share/models/devices/ideal-1ms.yaml"
check "example scenarios installed" test -s "$share/scenarios/examples/sync-writes.yaml"
check "study scripts installed executable" test -x "$share/scenarios/tx4000/run.sh"
check "manual page installed" test -s "$man1"
check "completion installed" test -s "$comp"
check "completion: bash -n" bash -n "$comp"
check "completion names the commands" grep -q 'run merge plot reproduce models import' "$comp"

check "--version" sh -c "'$bin' --version | grep -q '^raidsim [0-9]'"
check "--help lists --version" sh -c "'$bin' --help | grep -q -- '--version'"

# From elsewhere, so neither the build tree nor the source tree is near.
cd "$tmp" || exit 1
check "finds its own models" sh -c "'$bin' models | grep -q '^ideal-1ms .*$share/models/'"
complete_device() {
	# shellcheck disable=SC2016
	bash -c 'shopt -s extglob; . "$1"; COMP_WORDS=("$2" run --device ideal-1); COMP_CWORD=3
		_raidsim; [ "${COMPREPLY[*]}" = ideal-1ms ]' sh "$comp" "$bin"
}
check "completion: model names after --device" complete_device
run_example() {
	"$bin" run "$share/scenarios/examples/sync-writes.yaml" -o "$tmp/out" -q -j 1 \
		--set workload.iometer.run=200ms --set workload.iometer.ramp=0s &&
		grep -q 'flush_iops' "$tmp/out/sync-writes.tsv"
}
check "runs an installed scenario" run_example

# A study in miniature placed among the installed ones: reproduce finds
# the study list's folders and the models in the installed data.
mini=$share/scenarios/mini
mkdir -p "$mini"
cat >"$mini/run.sh" <<'STUDY'
#!/bin/sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift 2 ;; *) shift ;; esac; done
mkdir -p "$out"
"$RAIDSIM" run "$here/../examples/sync-writes.yaml" -o "$out" -q -j 1 \
	--set workload.iometer.run=100ms --set workload.iometer.ramp=0s
STUDY
chmod +x "$mini/run.sh"
printf 'mini  scenarios/mini  check_mini  A study in miniature\n' >"$tmp/studies.list"
reproduce() {
	"$bin" reproduce --studies "$tmp/studies.list" -o "$tmp/rep" -j 1 -q 2>"$tmp/rep.err"
	test -s "$tmp/rep/index.html" && test -s "$tmp/rep/mini/sync-writes.tsv"
}
check "reproduce from the installed prefix" reproduce
rm -rf "$mini"

no_man=
if command -v man >/dev/null 2>&1; then
	render() { MANWIDTH=80 man -l "$man1" 2>/dev/null | grep -q 'fio job file'; }
	check "man -l renders the page" render
else
	no_man=yes
fi

make -s -C "$build" uninstall DESTDIR="$stage" >"$tmp/uninstall.log" 2>&1
check "make uninstall" [ $? -eq 0 ]
check "uninstall leaves no file" [ -z "$(find "$stage" -type f)" ]

if [ -n "$no_man" ]; then
	echo "man not found: the page is not rendered"
	summary install || exit 1
	exit 77
fi
summary install
