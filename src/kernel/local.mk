src_librs_a_SOURCES += \
	src/kernel/assert.c src/kernel/assert.h \
	src/kernel/pool.c src/kernel/pool.h \
	src/kernel/sim.c src/kernel/sim.h

UNIT_TESTS += tests/unit/check_kernel
tests_unit_check_kernel_CFLAGS = $(UNIT_CFLAGS)
