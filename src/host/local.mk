src_librs_a_SOURCES += \
	src/host/stage.c src/host/stage.h \
	src/host/host_stack.c src/host/host_stack.h \
	src/host/hba.c src/host/hba.h \
	src/host/page_cache.c src/host/page_cache.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_host_stack
TESTS += tests/unit/check_host_stack
tests_unit_check_host_stack_SOURCES = tests/unit/check_host_stack.c
tests_unit_check_host_stack_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_host_stack_LDADD = $(UNIT_LDADD)
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_page_cache
TESTS += tests/unit/check_page_cache
tests_unit_check_page_cache_SOURCES = tests/unit/check_page_cache.c
tests_unit_check_page_cache_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_page_cache_LDADD = $(UNIT_LDADD)
endif
