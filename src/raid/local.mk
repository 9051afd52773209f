src_librs_a_SOURCES += \
	src/raid/map.c src/raid/map.h \
	src/raid/map_stripe.c

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_raid_map
TESTS += tests/unit/check_raid_map
tests_unit_check_raid_map_SOURCES = tests/unit/check_raid_map.c
tests_unit_check_raid_map_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_raid_map_LDADD = $(UNIT_LDADD)
endif
