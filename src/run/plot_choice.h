/* Which figure a sweep gets: decided by how many axes it has. */
#ifndef RS_RUN_PLOT_CHOICE_H
#define RS_RUN_PLOT_CHOICE_H

#include "report/report.h"
#include "report/table.h"
#include "run/results.h"

/* Write the gnuplot script for the table into script_path.  0 or -1 with
 * err set. */
int rs_plot_write(const struct rs_table *t, const struct rs_results_meta *m,
		  const char *script_path, const char *tsv_name, const char *png_name,
		  struct rs_report_err *err);

#endif
