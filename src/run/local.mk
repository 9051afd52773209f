src_librs_a_SOURCES += \
	src/run/scenario.c src/run/scenario.h \
	src/run/runner.c src/run/runner.h \
	src/run/series.c src/run/series.h \
	src/run/points.c src/run/points.h \
	src/run/progress.c src/run/progress.h \
	src/run/results.c src/run/results.h \
	src/run/components.c src/run/components.h \
	src/run/summary.c src/run/summary.h \
	src/run/replot.c src/run/replot.h \
	src/run/result_set.c src/run/result_set.h \
	src/run/repeats.c src/run/repeats.h \
	src/run/plot_choice.c src/run/plot_choice.h \
	src/run/shard.c src/run/shard.h \
	src/run/study.c src/run/study.h \
	src/run/reproduce.c src/run/reproduce.h \
	src/run/reproduce_page.c \
	src/run/measured.h src/run/measured_read.c src/run/measured_eval.c

# `make reproduce`: every study of scenarios/studies.list, its figures and
# its findings (decided by the validation programs `make check` runs) on
# one page, reproduce/index.html.  RS_REPRODUCE_FLAGS adds options, e.g.
# RS_REPRODUCE_FLAGS='--jobs 1'.
reproduce: src/raidsim $(check_PROGRAMS)
	src/raidsim reproduce -o reproduce --srcdir $(abs_top_srcdir) \
		--builddir $(abs_top_builddir) $(RS_REPRODUCE_FLAGS)
.PHONY: reproduce

UNIT_TESTS += tests/unit/check_run
tests_unit_check_run_CFLAGS = $(UNIT_CFLAGS)
UNIT_TESTS += tests/unit/check_malformed
tests_unit_check_malformed_CFLAGS = $(UNIT_CFLAGS)
