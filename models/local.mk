# Models are installed under $(pkgdatadir)/models, keeping their folders.
nobase_dist_pkgdata_DATA = \
	models/devices/ideal-1ms.yaml \
	models/disks/maxtor-6l020l0.yaml \
	models/disks/wd-raptor-wd740gd.yaml
EXTRA_DIST += models/SOURCES.md
nobase_dist_pkgdata_DATA += \
	models/disks/quantum-atlas-10k.yaml \
	models/disks/seagate-cheetah-9lp.yaml
