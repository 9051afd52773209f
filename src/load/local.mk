src_librs_a_SOURCES += \
	src/load/load.c src/load/load.h \
	src/load/load_registry.c \
	src/load/iometer.c src/load/iometer.h \
	src/load/iometer_specs.c src/load/iometer_specs.h \
	src/load/trace.c src/load/trace.h \
	src/load/trace_parse.c src/load/trace_parse.h src/load/trace_lex.h \
	src/load/trace_formats.c \
	src/load/filecopy.c src/load/filecopy.h \
	src/load/filecopy_sets.c src/load/filecopy_sets.h \
	src/load/phase.c src/load/phase.h \
	src/load/cdm.c src/load/cdm.h \
	src/load/atto.c src/load/atto.h \
	src/load/fio_parse.c src/load/fio_parse.h \
	src/load/fio_job.c src/load/fio_job.h \
	src/load/fio_load.c src/load/fio_load.h \
	src/load/fio_scenario.c src/load/fio_scenario.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_load
TESTS += tests/unit/check_load
tests_unit_check_load_SOURCES = tests/unit/check_load.c
tests_unit_check_load_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_load_LDADD = $(UNIT_LDADD)
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_trace
TESTS += tests/unit/check_trace
tests_unit_check_trace_SOURCES = tests/unit/check_trace.c
tests_unit_check_trace_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_trace_LDADD = $(UNIT_LDADD)
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_filecopy
TESTS += tests/unit/check_filecopy
tests_unit_check_filecopy_SOURCES = tests/unit/check_filecopy.c
tests_unit_check_filecopy_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_filecopy_LDADD = $(UNIT_LDADD)
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_benchmarks
TESTS += tests/unit/check_benchmarks
tests_unit_check_benchmarks_SOURCES = tests/unit/check_benchmarks.c
tests_unit_check_benchmarks_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_benchmarks_LDADD = $(UNIT_LDADD)
endif
EXTRA_DIST += tests/unit/data/disksim_good.trace tests/unit/data/validate_good.trace
EXTRA_DIST += tests/unit/data/msr_good.csv tests/unit/data/spc_good.csv tests/unit/data/blkparse_good.txt

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_fio
TESTS += tests/unit/check_fio
tests_unit_check_fio_SOURCES = tests/unit/check_fio.c
tests_unit_check_fio_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_fio_LDADD = $(UNIT_LDADD)
endif
