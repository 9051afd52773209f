src_librs_a_SOURCES += \
	src/ctrl/cache.c src/ctrl/cache.h \
	src/ctrl/hostq.c src/ctrl/hostq.h \
	src/ctrl/port.c src/ctrl/port.h \
	src/ctrl/controller.c src/ctrl/controller.h \
	src/ctrl/ctrl_io.c src/ctrl/ctrl_priv.h \
	src/ctrl/raid_levels.c src/ctrl/raid_levels.h

UNIT_TESTS += tests/unit/check_ctrl
tests_unit_check_ctrl_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_hostq
tests_unit_check_hostq_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_wb_scope
tests_unit_check_wb_scope_CFLAGS = $(UNIT_CFLAGS)
