src_librs_a_SOURCES += \
	src/run/scenario.c src/run/scenario.h \
	src/run/runner.c src/run/runner.h \
	src/run/series.c src/run/series.h
