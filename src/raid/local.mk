src_librs_a_SOURCES += \
	src/raid/map.c src/raid/map.h \
	src/raid/map_stripe.c \
	src/raid/volume.c src/raid/volume.h src/raid/volume_priv.h \
	src/raid/volume_io.c src/raid/volume_mirror.c src/raid/volume_parity.c \
	src/raid/member_fault.c src/raid/degraded.c src/raid/rebuild.c \
	src/raid/fault_script.c src/raid/fault_script.h \
	src/raid/mirror_pick.c src/raid/mirror_pick.h

UNIT_TESTS += tests/unit/check_raid_map
tests_unit_check_raid_map_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_raid_volume
tests_unit_check_raid_volume_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_degraded
tests_unit_check_degraded_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_rebuild
tests_unit_check_rebuild_CFLAGS = $(UNIT_CFLAGS)
EXTRA_DIST += tests/unit/array_harness.h

UNIT_TESTS += tests/unit/check_mirror_pick
tests_unit_check_mirror_pick_CFLAGS = $(UNIT_CFLAGS)
