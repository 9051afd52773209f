# raidsim import: DiskSim 4.0 set-ups as raidsim models.
src_librs_a_SOURCES += \
	src/import/dsim_parse.c src/import/dsim_parse.h \
	src/import/dsim_hdd.c src/import/dsim_hdd.h \
	src/import/dsim_hdd_params.c src/import/dsim_hdd_priv.h \
	src/import/dsim_hdd_geometry.c \
	src/import/dsim_hdd_mech.c

UNIT_TESTS += tests/unit/check_import
tests_unit_check_import_CFLAGS = $(UNIT_CFLAGS)
