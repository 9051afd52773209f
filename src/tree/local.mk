src_librs_a_SOURCES += \
	src/tree/tree.h \
	src/tree/registry.c

UNIT_TESTS += tests/unit/check_tree
tests_unit_check_tree_CFLAGS = $(UNIT_CFLAGS)
