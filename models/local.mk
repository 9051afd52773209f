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
	models/ssds/intel-dc-s3700-100g.yaml
