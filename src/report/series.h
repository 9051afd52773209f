/* Time-series files: NAME.series.POINT.tsv (one line per interval: its end
 * in seconds, IOPS, MiB/s, errors in the interval, errors so far) and a
 * gnuplot script drawing it (IOPS and MiB/s over time above, errors per
 * interval below), so a cable pull shows where it happens. */
#ifndef RS_REPORT_SERIES_H
#define RS_REPORT_SERIES_H

#include "report/report.h"
#include "stats/timeseries.h"

int rs_report_write_series_tsv(const struct rs_timeseries *ts, const char *path,
			       struct rs_report_err *err);
/* The script reads data_tsv_name and writes png_name, both relative to
 * the directory gnuplot runs in. */
int rs_report_write_series_gnuplot(const char *script_path, const char *data_tsv_name,
				   const char *png_name, const char *title,
				   struct rs_report_err *err);

#endif
