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

UNIT_TESTS += tests/unit/check_load
tests_unit_check_load_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_trace
tests_unit_check_trace_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_filecopy
tests_unit_check_filecopy_CFLAGS = $(UNIT_CFLAGS)

UNIT_TESTS += tests/unit/check_benchmarks
tests_unit_check_benchmarks_CFLAGS = $(UNIT_CFLAGS)
EXTRA_DIST += tests/unit/data/disksim_good.trace tests/unit/data/validate_good.trace
EXTRA_DIST += tests/unit/data/msr_good.csv tests/unit/data/spc_good.csv tests/unit/data/blkparse_good.txt

UNIT_TESTS += tests/unit/check_fio
tests_unit_check_fio_CFLAGS = $(UNIT_CFLAGS)
