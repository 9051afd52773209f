/* raidsim plot DIR: the figure of a finished run drawn again from its
 * files, without simulating anything.  Every result set in DIR (a
 * NAME.json written by raidsim beside its NAME.tsv) gets NAME.gp rewritten
 * by the code a run uses (run/plot_choice.h), from the table in NAME.tsv
 * and the settings the JSON's header holds (description, plot x, series,
 * y, log x, axes), and NAME.png rendered when gnuplot is installed.  So an
 * old run's figure takes a newer raidsim's look, or is drawn on another
 * machine than the one that ran it. */
#ifndef RS_RUN_REPLOT_H
#define RS_RUN_REPLOT_H

#include <stdbool.h>

/* 0 ok, 1 runtime failure (gnuplot failed, a file cannot be written),
 * 2 DIR is not a run's output or its files do not agree (messages
 * printed).  Lists the files written on stdout unless quiet. */
int rs_replot(const char *dir, bool quiet);

#endif
