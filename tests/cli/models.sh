#!/bin/sh
# Models are found where users stand, with RAIDSIM_MODELS unset: every
# shipped scenario runs (its first point) with `raidsim run FILE` and no
# -M, from the source tree's root and from another folder; a scenario's
# own folder, its models/ folder and `model: ./file.yaml` work; `raidsim
# models show` prints a model with its defaults; `raidsim models` that
# finds none says where it looked and exits 2.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
unset RAIDSIM_MODELS
top=$(cd "$here/../.." && pwd)

# The first point of each (the slowest first points are left out: the
# iSCSI failovers and the S3700 ATTO sweep take seconds each).
quick() {
	for f in "$top"/scenarios/*/*.yaml; do
		case $f in
		*/iscsi/failover-* | */s3700/atto.yaml | */ssd/raid0-c226.yaml) ;;
		*) echo "${f#"$top"/}" ;;
		esac
	done
}
first_point() { # dir, scenario, output
	(cd "$1" && "$raidsim" run "$2" -o "$3" -q -j 1 --shard 0/100000) >/dev/null 2>>"$tmp/stderr"
}
for s in $(quick); do
	check "from the root: $s" first_point "$top" "$s" "$tmp/root"
done
mkdir -p "$tmp/elsewhere"
for s in scenarios/tx4000/database.yaml scenarios/tx4200/database.yaml \
	scenarios/examples/queueing.yaml scenarios/disks/access-time.yaml; do
	check "from another folder: $s" first_point "$tmp/elsewhere" "$top/$s" "$tmp/else"
done

# A study folder of its own: a model beside the scenario, one in its
# models/ folder, one named by its path.
mkdir -p "$tmp/study/models/drives" "$tmp/study/parts"
cat >"$tmp/study/beside.yaml" <<'YAML'
type: ideal
mean: 1ms
YAML
cat >"$tmp/study/models/drives/inside.yaml" <<'YAML'
type: ideal
mean: 2ms
YAML
cat >"$tmp/study/parts/by-path.yaml" <<'YAML'
type: ideal
model: ../beside.yaml
mean: 3ms
YAML
for m in beside inside ./parts/by-path.yaml parts/by-path.yaml; do
	printf 'device: {model: %s}\nworkload: {iometer: {spec: database, run: 0.1s}}\n' "$m" \
		>"$tmp/study/run.yaml"
	check "model: $m" first_point "$tmp/elsewhere" "$tmp/study/run.yaml" "$tmp/study-out"
done
printf 'device: {model: ./nowhere.yaml}\nworkload: {iometer: {spec: database}}\n' \
	>"$tmp/study/run.yaml"
(cd "$tmp/study" && "$raidsim" run run.yaml -o "$tmp/no" -q) 2>"$tmp/nowhere.err"
check "a missing model file: status 2" [ $? -eq 2 ]
check "a missing model file: where and what" grep -q \
	"^run.yaml:1:17: error: cannot read model file './nowhere.yaml': No such file" \
	"$tmp/nowhere.err"

# models show: the model with every default of its type filled in.
"$raidsim" models show wd-raptor-wd740gd >"$tmp/show" 2>>"$tmp/stderr"
check "models show: status 0" [ $? -eq 0 ]
check "models show: the model's own values" grep -q '^type: hdd$' "$tmp/show"
check "models show: defaults marked" grep -q '# default$' "$tmp/show"
(cd "$tmp/study" && "$raidsim" models show ./parts/by-path.yaml) >"$tmp/show2" 2>>"$tmp/stderr"
check "models show of a file: based on its model" grep -q '^mean: 3ms$' "$tmp/show2"
"$raidsim" models show no-such-model >/dev/null 2>"$tmp/show3"
check "models show of an unknown model: status 2" [ $? -eq 2 ]

# A binary outside any build tree with no models anywhere says where it
# looked (unless models are installed on this machine).
mkdir -p "$tmp/bin" "$tmp/tree/src" "$tmp/tree/models/disks"
cp "$raidsim" "$tmp/bin/raidsim"
"$tmp/bin/raidsim" models >/dev/null 2>"$tmp/none.err"
status=$?
if ! grep -q "(installed)" "$tmp/none.err" && [ $status -ne 0 ]; then
	check "no models: status 2" [ $status -eq 2 ]
	check "no models: says where it looked" grep -q \
		"^raidsim: no models found; looked in .*(installed, missing)" "$tmp/none.err"
fi
# A build tree copied elsewhere: TOP/src/raidsim finds TOP/models.
cp "$raidsim" "$tmp/tree/src/raidsim"
printf 'type: ideal\nmean: 1ms\n' >"$tmp/tree/models/disks/copied.yaml"
"$tmp/tree/src/raidsim" models >"$tmp/tree.out" 2>>"$tmp/stderr"
check "a copied build tree: its own models" grep -q '^copied ' "$tmp/tree.out"

# A model a workload names itself (a file copier's page cache) is found in
# the scenario's folder like the device's.
mkdir -p "$tmp/pc/models"
printf 'type: page_cache\nmemory: 64MiB\ndirty_threshold: 16MiB\n' \
	>"$tmp/pc/models/my-cache.yaml"
printf 'device: {type: ideal, mean: 1ms, capacity: 100GB}\nworkload:\n  filecopy:\n    set: install\n    action: copy-near\n    page_cache: {model: my-cache}\n' \
	>"$tmp/pc/copy.yaml"
check "a workload's page cache model from the scenario's folder" \
	"$raidsim" run "$tmp/pc/copy.yaml" -q -j 1 -o "$tmp/pc/out"

[ "$fail" -eq 0 ] || cat "$tmp/stderr"
summary models
