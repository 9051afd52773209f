src_librs_a_SOURCES += \
	src/stats/hist.c src/stats/hist.h \
	src/stats/iostat.c src/stats/iostat.h \
	src/stats/tavg.c src/stats/tavg.h \
	src/stats/timeseries.c src/stats/timeseries.h \
	src/stats/welford.c src/stats/welford.h

UNIT_TESTS += tests/unit/check_stats
tests_unit_check_stats_CFLAGS = $(UNIT_CFLAGS)
