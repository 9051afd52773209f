#include "report/series.h"

#include <stdio.h>

#include "report/out.h"
#include "report/table.h"

int rs_report_write_series_tsv(const struct rs_timeseries *ts, const char *path,
			       struct rs_report_err *err)
{
	struct rs_report_out o;
	if (rs_report_out_open(&o, path, err) != 0)
		return -1;
	fputs("t_s\tiops\tmib_s\terrors\terrors_total\n", o.f);
	double s = (double)ts->interval_ns / 1e9;
	uint64_t total = 0;
	for (size_t i = 0; i < ts->used; i++) {
		const struct rs_ts_bucket *b = &ts->b[i];
		char t[64], iops[64], mib[64];
		total += b->errors;
		rs_fmt_double(t, sizeof(t), (double)(i + 1) * s);
		rs_fmt_double(iops, sizeof(iops), (double)b->ops / s);
		rs_fmt_double(mib, sizeof(mib), (double)b->bytes / s / (1024.0 * 1024.0));
		fprintf(o.f, "%s\t%s\t%s\t%llu\t%llu\n", t, iops, mib,
			(unsigned long long)b->errors, (unsigned long long)total);
	}
	return rs_report_out_commit(&o, err);
}

int rs_report_write_series_gnuplot(const char *script_path, const char *data_tsv_name,
				   const char *png_name, const char *title,
				   struct rs_report_err *err)
{
	struct rs_report_out o;
	if (rs_report_out_open(&o, script_path, err) != 0)
		return -1;
	FILE *f = o.f;
	/* The names and the title come from the scenario: every one goes
	 * through rs_gp_quote, the comment's too. */
	fputs("# raidsim time series; data: ", f);
	rs_gp_quote(f, data_tsv_name, RS_GP_FILE);
	fputs("\nset terminal pngcairo size 900,640 noenhanced\n"
	      "set output ", f);
	rs_gp_quote(f, png_name, RS_GP_FILE);
	fputs("\nset datafile separator tab\n"
	      "set key top right\n"
	      "set grid\n"
	      "set xrange [0:*]\n"
	      "set lmargin 10\n"
	      "set rmargin 10\n"
	      "set multiplot layout 2,1 title ", f);
	rs_gp_quote(f, title, RS_GP_TEXT);
	fputs("\nset ylabel 'IOPS'\n"
	      "set y2label 'MiB/s'\n"
	      "set ytics nomirror\n"
	      "set y2tics\n"
	      "set yrange [0:*]\n"
	      "set y2range [0:*]\n"
	      "plot ", f);
	rs_gp_quote(f, data_tsv_name, RS_GP_FILE);
	fputs(" using 1:2 skip 1 with fsteps title 'IOPS' axes x1y1, \\\n"
	      "     '' using 1:3 skip 1 with fsteps title 'MiB/s' axes x1y2\n"
	      "unset y2label\n"
	      "unset y2tics\n"
	      "set ytics mirror\n"
	      "set xlabel 'time (s)'\n"
	      "set ylabel 'errors per interval'\n"
	      "set yrange [0:1<*]\n"
	      "set y2range [0:1]\n"
	      "plot ", f);
	rs_gp_quote(f, data_tsv_name, RS_GP_FILE);
	fputs(" using 1:4 skip 1 with impulses lw 2 title 'errors'\n"
	      "unset multiplot\n", f);
	return rs_report_out_commit(&o, err);
}
