src_librs_a_SOURCES += \
	src/net/frame.c src/net/frame.h \
	src/net/target.c src/net/target.h \
	src/net/adapter.c src/net/adapter.h \
	src/net/multipath.c src/net/multipath.h \
	src/net/faults.c src/net/faults.h

UNIT_TESTS += tests/unit/check_net
tests_unit_check_net_CFLAGS = $(UNIT_CFLAGS)
