src_librs_a_SOURCES += \
	src/disk/layout.c src/disk/layout.h \
	src/disk/layout_gen.c src/disk/layout_gen.h \
	src/disk/seek.c src/disk/seek.h \
	src/disk/spindle.c src/disk/spindle.h \
	src/disk/spindle_position.c src/disk/spindle_position.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_disk_geom
TESTS += tests/unit/check_disk_geom
tests_unit_check_disk_geom_SOURCES = tests/unit/check_disk_geom.c
tests_unit_check_disk_geom_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_disk_geom_LDADD = $(UNIT_LDADD)
endif
