src_librs_a_SOURCES += \
	src/ssd/ssd_params.c src/ssd/ssd_params.h \
	src/ssd/ftl.c src/ssd/ftl.h src/ssd/ftl_wear.c \
	src/ssd/wbuf.c src/ssd/wbuf.h \
	src/ssd/flash.c src/ssd/flash.h \
	src/ssd/ssd.c src/ssd/ssd.h src/ssd/ssd_priv.h \
	src/ssd/ssd_sched.c \
	src/ssd/ssd_gc.c \
	src/ssd/ssd_wl.c

UNIT_TESTS += tests/unit/check_ssd
tests_unit_check_ssd_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_ssd_family
tests_unit_check_ssd_family_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_ssd_flush
tests_unit_check_ssd_flush_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_nvme
tests_unit_check_nvme_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_ssd_tail
tests_unit_check_ssd_tail_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_ssd_merge
tests_unit_check_ssd_merge_CFLAGS = $(UNIT_CFLAGS)
