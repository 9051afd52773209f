src_librs_a_SOURCES += \
	src/run/scenario.c src/run/scenario.h \
	src/run/runner.c src/run/runner.h \
	src/run/points.c src/run/points.h \
	src/run/progress.c src/run/progress.h \
	src/run/results.c src/run/results.h \
	src/run/plot_choice.c src/run/plot_choice.h \
	src/run/shard.c src/run/shard.h
