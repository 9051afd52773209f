src_librs_a_SOURCES += \
	src/kernel/assert.c src/kernel/assert.h \
	src/kernel/pool.c src/kernel/pool.h \
	src/kernel/sim.c src/kernel/sim.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_kernel
TESTS += tests/unit/check_kernel
tests_unit_check_kernel_SOURCES = tests/unit/check_kernel.c
tests_unit_check_kernel_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_kernel_LDADD = $(UNIT_LDADD)
endif
