src_librs_a_SOURCES += src/io/io.c src/io/io.h

UNIT_TESTS += tests/unit/check_io
tests_unit_check_io_CFLAGS = $(UNIT_CFLAGS)
