src_librs_a_SOURCES += \
	src/load/load.c src/load/load.h \
	src/load/registry.c \
	src/load/iometer.c src/load/iometer.h \
	src/load/iometer_specs.c src/load/iometer_specs.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_load
TESTS += tests/unit/check_load
tests_unit_check_load_SOURCES = tests/unit/check_load.c
tests_unit_check_load_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_load_LDADD = $(UNIT_LDADD)
endif
