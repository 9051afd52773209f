/* The result files of a run or a merge, written and replaced as one set
 * (report/out_set.h): the table, JSON, gnuplot script and PNG are written
 * into a staging folder by rs_results_write, then moved into the output
 * folder together with whatever else the staging folder holds (per-point
 * series and request logs). */
#ifndef RS_RUN_RESULT_SET_H
#define RS_RUN_RESULT_SET_H

#include <stdbool.h>

#include "report/table.h"
#include "run/results.h"

/* Write t's files into stage (which must exist), then move the set into
 * out_dir, NAME.tsv last, and remove out_dir's members of NAME of the
 * prune kinds (RS_OUT_*) the set does not hold.  Lists NAME.tsv, .json,
 * .gp, .png in out_dir on stdout unless quiet.  0, or -1 with a message
 * printed and out_dir as it was: the table files are removed from stage,
 * anything else staged is left there. */
int rs_result_set_write(const struct rs_table *t, const struct rs_results_meta *m,
			const char *stage, const char *out_dir, unsigned prune, bool plot,
			bool quiet);

#endif
