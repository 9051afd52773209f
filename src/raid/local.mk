src_librs_a_SOURCES += \
	src/raid/map.c src/raid/map.h \
	src/raid/map_stripe.c \
	src/raid/volume.c src/raid/volume.h src/raid/volume_priv.h \
	src/raid/volume_io.c src/raid/volume_mirror.c src/raid/volume_parity.c \
	src/raid/member_fault.c src/raid/degraded.c src/raid/rebuild.c \
	src/raid/fault_script.c src/raid/fault_script.h \
	src/raid/mirror_pick.c src/raid/mirror_pick.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_raid_map
TESTS += tests/unit/check_raid_map
tests_unit_check_raid_map_SOURCES = tests/unit/check_raid_map.c
tests_unit_check_raid_map_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_raid_map_LDADD = $(UNIT_LDADD)
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_raid_volume
TESTS += tests/unit/check_raid_volume
tests_unit_check_raid_volume_SOURCES = tests/unit/check_raid_volume.c
tests_unit_check_raid_volume_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_raid_volume_LDADD = $(UNIT_LDADD)
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_degraded
TESTS += tests/unit/check_degraded
tests_unit_check_degraded_SOURCES = tests/unit/check_degraded.c tests/unit/array_harness.h
tests_unit_check_degraded_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_degraded_LDADD = $(UNIT_LDADD)
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_rebuild
TESTS += tests/unit/check_rebuild
tests_unit_check_rebuild_SOURCES = tests/unit/check_rebuild.c tests/unit/array_harness.h
tests_unit_check_rebuild_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_rebuild_LDADD = $(UNIT_LDADD)
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_mirror_pick
TESTS += tests/unit/check_mirror_pick
tests_unit_check_mirror_pick_SOURCES = tests/unit/check_mirror_pick.c
tests_unit_check_mirror_pick_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_mirror_pick_LDADD = $(UNIT_LDADD)
endif
