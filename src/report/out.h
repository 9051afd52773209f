/* All-or-nothing output files for the report writers: write to
 * "PATH.tmp.<pid>", then rename over PATH.  A reader (or a crash) never
 * sees half a file, and two processes writing the same name do not mix. */
#ifndef RS_REPORT_OUT_H
#define RS_REPORT_OUT_H

#include <stdio.h>

#include "report/report.h"

struct rs_report_out {
	FILE *f;
	const char *path;
	char *tmp;
};

/* Returns 0, or -1 with err set. */
int rs_report_out_open(struct rs_report_out *o, const char *path,
		       struct rs_report_err *err);
/* Flush, close and rename; on any error removes the temporary file and
 * returns -1 with err set.  Always releases o. */
int rs_report_out_commit(struct rs_report_out *o, struct rs_report_err *err);
/* Give up: close and remove the temporary file. */
void rs_report_out_abort(struct rs_report_out *o);

/* err->msg = "path: text" (err may be NULL). */
void rs_report_err_set(struct rs_report_err *err, const char *path, const char *text);

#endif
