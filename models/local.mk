# Models are installed under $(pkgdatadir)/models, keeping their folders.
nobase_dist_pkgdata_DATA = \
	models/devices/ideal-1ms.yaml \
	models/disks/maxtor-6l020l0.yaml \
	models/disks/wd-raptor-wd740gd.yaml \
	models/disks/seagate-barracuda-7200-7-ncq.yaml
EXTRA_DIST += models/SOURCES.md
nobase_dist_pkgdata_DATA += \
	models/disks/quantum-atlas-10k.yaml \
	models/disks/seagate-cheetah-9lp.yaml
nobase_dist_pkgdata_DATA += \
	models/buses/ata-100.yaml \
	models/buses/ata-133.yaml \
	models/buses/dmi-2.yaml \
	models/buses/pci-32-33.yaml \
	models/buses/pci-32-66.yaml \
	models/buses/pci-32-66-e7520-pxh.yaml \
	models/buses/pci-64-66.yaml \
	models/buses/pcie1-x1.yaml \
	models/buses/pcie1-x4.yaml \
	models/buses/pcie1-x8.yaml \
	models/buses/pcie2-x1.yaml \
	models/buses/pcie2-x4.yaml \
	models/buses/pcie2-x8.yaml \
	models/buses/pcie3-x1.yaml \
	models/buses/pcie3-x4.yaml \
	models/buses/pcie3-x8.yaml \
	models/buses/pcix-133.yaml \
	models/buses/sata-1.5.yaml \
	models/buses/sata-3.yaml \
	models/buses/sata-6.yaml \
	models/controllers/generic-hw-raid.yaml \
	models/controllers/intel-c226-rst.yaml \
	models/controllers/promise-sx4000.yaml \
	models/controllers/promise-tx4000.yaml \
	models/controllers/promise-tx4200.yaml
nobase_dist_pkgdata_DATA += \
	models/adapters/adaptec-7211c.yaml \
	models/adapters/alacritech-ses1001t.yaml \
	models/adapters/intel-pro1000t-ipsa.yaml \
	models/targets/mcdata-ips3300-lsi-df4000r.yaml \
	models/ssds/intel-dc-s3700-family.yaml \
	models/ssds/intel-dc-s3700-100g.yaml \
	models/ssds/intel-dc-s3700-200g.yaml \
	models/ssds/intel-dc-s3700-400g.yaml \
	models/ssds/intel-dc-s3700-800g.yaml
# Drive models written by 'raidsim import disksim' from the set-ups below
# (tests/unit/check_import regenerates them and compares).
nobase_dist_pkgdata_DATA += \
	models/disks/disksim/atlas10k.yaml \
	models/disks/disksim/atlas_III.yaml \
	models/disks/disksim/barracuda.yaml \
	models/disks/disksim/cheetah4LP.yaml \
	models/disks/disksim/cheetah9LP.yaml \
	models/disks/disksim/dec_rz26.yaml \
	models/disks/disksim/hp_c2247a.yaml \
	models/disks/disksim/hp_c2490a.yaml \
	models/disks/disksim/hp_c3323a.yaml \
	models/disks/disksim/ibm18es.yaml \
	models/disks/disksim/st41601n.yaml
# DiskSim 4.0 validation set (valid/), with its licence: the source of the
# DiskSim-derived models and of the Atlas 10K validation trace.
EXTRA_DIST += \
	models/disks/disksim/source/COPYING \
	models/disks/disksim/source/atlas10k.diskspecs \
	models/disks/disksim/source/atlas10k.model \
	models/disks/disksim/source/atlas10k.parv \
	models/disks/disksim/source/atlas10k.seek \
	models/disks/disksim/source/atlas10k.trace \
	models/disks/disksim/source/atlas_III.diskspecs \
	models/disks/disksim/source/atlas_III.model \
	models/disks/disksim/source/atlas_III.parv \
	models/disks/disksim/source/atlas_III.seek \
	models/disks/disksim/source/barracuda.diskspecs \
	models/disks/disksim/source/barracuda.model \
	models/disks/disksim/source/barracuda.parv \
	models/disks/disksim/source/barracuda.seek \
	models/disks/disksim/source/cheetah4LP.diskspecs \
	models/disks/disksim/source/cheetah4LP.model \
	models/disks/disksim/source/cheetah4LP.parv \
	models/disks/disksim/source/cheetah4LP.seek \
	models/disks/disksim/source/cheetah9LP.diskspecs \
	models/disks/disksim/source/cheetah9LP.model \
	models/disks/disksim/source/cheetah9LP.parv \
	models/disks/disksim/source/cheetah9LP.seek \
	models/disks/disksim/source/dec_rz26.diskspecs \
	models/disks/disksim/source/dec_rz26.parv \
	models/disks/disksim/source/dec_rz26_validate.model \
	models/disks/disksim/source/dec_rz26_validate.seek \
	models/disks/disksim/source/hp_c2247a.diskspecs \
	models/disks/disksim/source/hp_c2247a.parv \
	models/disks/disksim/source/hp_c2247a_validate.model \
	models/disks/disksim/source/hp_c2249a.diskspecs \
	models/disks/disksim/source/hp_c2249a.model \
	models/disks/disksim/source/hp_c2490a.diskspecs \
	models/disks/disksim/source/hp_c2490a.parv \
	models/disks/disksim/source/hp_c2490a_validate.model \
	models/disks/disksim/source/hp_c2490a_validate.seek \
	models/disks/disksim/source/hp_c3323a.diskspecs \
	models/disks/disksim/source/hp_c3323a.model \
	models/disks/disksim/source/hp_c3323a.parv \
	models/disks/disksim/source/hp_c3323a.seek \
	models/disks/disksim/source/hp_c3323a_validate.diskspecs \
	models/disks/disksim/source/hp_c3323a_validate.model \
	models/disks/disksim/source/hp_c3323a_validate.seek \
	models/disks/disksim/source/ibm18es.diskspecs \
	models/disks/disksim/source/ibm18es.model \
	models/disks/disksim/source/ibm18es.parv \
	models/disks/disksim/source/ibm18es.seek \
	models/disks/disksim/source/st41601n.diskspecs \
	models/disks/disksim/source/st41601n.parv \
	models/disks/disksim/source/st41601n_validate.model \
	models/disks/disksim/source/st41601n_validate.seek \
	models/disks/disksim/source/statdefs
# NVMe drive, host storage stacks and HBAs.
nobase_dist_pkgdata_DATA += \
	models/ssds/intel-dc-p3700-400g.yaml
nobase_dist_pkgdata_DATA += \
	models/hbas/lsi-sas3008.yaml \
	models/hosts/linux-4-blk-mq.yaml
nobase_dist_pkgdata_DATA += \
	models/hosts/windows-xp-cache-manager.yaml
