src_librs_a_SOURCES += \
	src/tree/tree.h \
	src/tree/registry.c

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_tree
TESTS += tests/unit/check_tree
tests_unit_check_tree_SOURCES = tests/unit/check_tree.c
tests_unit_check_tree_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_tree_LDADD = $(UNIT_LDADD)
endif
