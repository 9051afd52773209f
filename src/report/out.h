/* All-or-nothing output files for the report writers.  What a writer
 * prints goes to memory; commit writes it to "PATH.tmp.<pid>" with
 * write(2), syncs it and renames it over PATH.  A reader (or a crash)
 * never sees half a file, two processes writing the same name do not
 * mix, and a failure names its real cause: the errno of the first write,
 * fsync or close that failed (a full disk says "No space left on
 * device"), not a stream's sticky error flag. */
#ifndef RS_REPORT_OUT_H
#define RS_REPORT_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "report/report.h"

struct rs_report_out {
	FILE *f;                      /* write here (a memory stream) */
	const char *path;
	char *buf;                    /* the memory behind f */
	size_t len;
};

/* Returns 0, or -1 with err set. */
int rs_report_out_open(struct rs_report_out *o, const char *path,
		       struct rs_report_err *err);
/* Write, sync and rename; on any error removes the temporary file and
 * returns -1 with err set to "PATH: reason".  Always releases o. */
int rs_report_out_commit(struct rs_report_out *o, struct rs_report_err *err);
/* Give up: release o; nothing was written to disk. */
void rs_report_out_abort(struct rs_report_out *o);

/* Write buf[0..n) to path through "PATH.tmp.<pid>" (synced, renamed).
 * 0, or -1 with errno from the first step that failed and the temporary
 * file removed. */
int rs_report_write_file(const char *path, const void *buf, size_t n);

/* The same through the temporary file tmp (same folder as path). */
int rs_report_write_file_as(const char *path, const char *tmp, const void *buf, size_t n);

/* Write all n bytes to fd, retrying short writes and EINTR.  0, or -1
 * with errno of the failing write. */
int rs_report_write_all(int fd, const void *buf, size_t n);

/* err->msg = "path: text" (err may be NULL). */
void rs_report_err_set(struct rs_report_err *err, const char *path, const char *text);

#endif
