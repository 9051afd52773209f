/* An output file too big to build in memory (a request log), written as
 * a stream to "PATH.tmp.<pid>" and renamed over PATH when complete.  The
 * stream remembers the errno of its first failed write, so a full disk is
 * reported as "No space left on device" whenever the stdio layer noticed
 * it. */
#ifndef RS_REPORT_OUT_STREAM_H
#define RS_REPORT_OUT_STREAM_H

#include <stdio.h>

#include "report/report.h"

struct rs_out_stream {
	FILE *f;                      /* write here */
	int fd;
	int err;                      /* errno of the first failed write, or 0 */
	char path[4096], tmp[4200];
};

/* 0, or -1 with err set ("PATH: reason"). */
int rs_out_stream_open(struct rs_out_stream *s, const char *path, struct rs_report_err *err);
/* Flush, sync, close and rename.  0, or -1 with err set and the temporary
 * file removed.  Always releases s. */
int rs_out_stream_commit(struct rs_out_stream *s, struct rs_report_err *err);
/* Close and remove the temporary file. */
void rs_out_stream_abort(struct rs_out_stream *s);

#endif
