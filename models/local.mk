# Models are installed under $(pkgdatadir)/models, keeping their folders.
nobase_dist_pkgdata_DATA = \
	models/devices/ideal-1ms.yaml
