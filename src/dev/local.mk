src_librs_a_SOURCES += \
	src/dev/job.h \
	src/dev/dev.c src/dev/dev.h \
	src/dev/fanin.c src/dev/fanin.h \
	src/dev/components.c \
	src/dev/build.c src/dev/build.h \
	src/dev/link.c src/dev/link.h \
	src/dev/bus.c src/dev/bus.h \
	src/dev/server.c src/dev/server.h \
	src/dev/ioq.c src/dev/ioq.h \
	src/dev/ideal.c src/dev/ideal.h

UNIT_TESTS += tests/unit/check_dev
tests_unit_check_dev_CFLAGS = $(UNIT_CFLAGS)
