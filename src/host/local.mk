src_librs_a_SOURCES += \
	src/host/stage.c src/host/stage.h \
	src/host/host_stack.c src/host/host_stack.h \
	src/host/hba.c src/host/hba.h \
	src/host/page_cache.c src/host/page_cache.h

UNIT_TESTS += tests/unit/check_host_stack
tests_unit_check_host_stack_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_page_cache
tests_unit_check_page_cache_CFLAGS = $(UNIT_CFLAGS)
