#!/bin/sh
# The TX4200 study's platform bus (models/buses/pci-32-66-e7520-pxh.yaml:
# X-bit labs' 2005 bench, the card in a 6700PXH slot in PCI 32/66 mode)
# loads, carries the sustained PCI 32/66 rate, and, as its file says, the
# same rate both ways: RAID0 of four Raptors, 1 MiB sequential reads and
# writes (scenarios/tx4200/pcix.yaml) stop at the same MB/s on it as on
# pci-32-66, and the bus is what limits them.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
scen=$here/../../scenarios/tx4200/pcix.yaml
# run BUS SPEC: the MB/s and limited_by of RAID0x4 on BUS
run() {
	"$raidsim" run "$scen" -q -j 1 -o "$tmp/$1-$2" --set device.host_bus="$1" \
		--set device.array.disks.count=4 --set workload.iometer.spec="$2" &&
		awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
			{ print $h["mb_s"], $h["limited_by"] }' "$tmp/$1-$2/pcix.tsv"
}
for spec in seqread seqwrite; do
	p=$(run pci-32-66-e7520-pxh $spec)
	q=$(run pci-32-66 $spec)
	check "platform bus runs ($spec)" test -n "$p"
	check "platform bus = pci-32-66 ($spec: $p / $q)" test "$p" = "$q"
	check "platform bus limits ($spec)" sh -c "echo '$p' | grep -q ' ctrl.bus\$'"
	check "sustained 200..230 MB/s ($spec)" awk -v v="${p%% *}" 'BEGIN { exit !(v >= 200 && v <= 230) }'
done
summary platform-bus
