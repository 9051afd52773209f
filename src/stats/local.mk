src_librs_a_SOURCES += \
	src/stats/hist.c src/stats/hist.h \
	src/stats/iostat.c src/stats/iostat.h \
	src/stats/tavg.c src/stats/tavg.h \
	src/stats/timeseries.c src/stats/timeseries.h \
	src/stats/welford.c src/stats/welford.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_stats
TESTS += tests/unit/check_stats
tests_unit_check_stats_SOURCES = tests/unit/check_stats.c
tests_unit_check_stats_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_stats_LDADD = $(UNIT_LDADD)
endif
