# The validation suite: one test per finding of the reference studies and
# per datasheet check of the disk models (tests/validation/check_validation.c).
# Each test prints "ID: reproduced|NOT reproduced: ..." and the program
# writes the same lines to tests/validation/findings.tsv in the build tree.
# All its tests are tagged "slow": CK_EXCLUDE_TAGS=slow skips them.
if HAVE_CHECK
check_PROGRAMS += tests/validation/check_validation
TESTS += tests/validation/check_validation
tests_validation_check_validation_SOURCES = tests/validation/check_validation.c
tests_validation_check_validation_CFLAGS = $(UNIT_CFLAGS)
tests_validation_check_validation_LDADD = $(UNIT_LDADD)
endif
CLEANFILES += tests/validation/findings.tsv
