#include "run/plot_choice.h"

#include <stddef.h>

/* Sizes and queue depths read best on a log axis: use one when the x
 * column is numeric and spans a factor of 16 or more. */
static int wide_numeric_range(const struct rs_table *t, const char *col)
{
	if (!col)
		return 0;
	long c = rs_table_find_col(t, col);
	if (c < 0 || t->nrows == 0)
		return 0;
	double lo = 0, hi = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		double v;
		const char *text = rs_table_get(t, r, (size_t)c);
		if (!text || !rs_table_number(text, &v) || v <= 0)
			return 0;
		if (r == 0 || v < lo)
			lo = v;
		if (r == 0 || v > hi)
			hi = v;
	}
	return hi / lo >= 16;
}

int rs_plot_write(const struct rs_table *t, const struct rs_results_meta *m,
		  const char *script_path, const char *tsv_name, const char *png_name,
		  struct rs_report_err *err)
{
	struct rs_plot_spec ps = { 0 };
	ps.x_col = m->plot_x;
	ps.series_col = m->plot_series;
	ps.y_col = m->plot_y;
	ps.title = m->scenario;
	ps.logx = m->plot_logx >= 0 ? m->plot_logx : wide_numeric_range(t, ps.x_col);
	return rs_report_write_gnuplot(t, script_path, tsv_name, png_name, &ps, err);
}
