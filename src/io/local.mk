src_librs_a_SOURCES += src/io/io.c src/io/io.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_io
TESTS += tests/unit/check_io
tests_unit_check_io_SOURCES = tests/unit/check_io.c
tests_unit_check_io_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_io_LDADD = $(UNIT_LDADD)
endif
