src_librs_a_SOURCES += \
	src/report/gnuplot.c \
	src/report/gp_name.c \
	src/report/gp_quote.c \
	src/report/json.c \
	src/report/out.c src/report/out.h \
	src/report/out_lock.c src/report/out_lock.h \
	src/report/out_set.c src/report/out_set.h \
	src/report/out_stream.c src/report/out_stream.h \
	src/report/render.c \
	src/report/report.h \
	src/report/table.c src/report/table.h \
	src/report/tsv.c \
	src/report/report_series.c src/report/series.h

UNIT_TESTS += tests/unit/check_report
tests_unit_check_report_CFLAGS = $(UNIT_CFLAGS)
