/* rename(2), getpid(2), unlink(2) are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "report/out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/assert.h"

void rs_report_err_set(struct rs_report_err *err, const char *path, const char *text)
{
	if (err != NULL)
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path, text);
}

int rs_report_out_open(struct rs_report_out *o, const char *path,
		       struct rs_report_err *err)
{
	size_t n = strlen(path) + 32;
	o->path = path;
	o->tmp = malloc(n);
	RS_ASSERT(o->tmp != NULL);
	snprintf(o->tmp, n, "%s.tmp.%ld", path, (long)getpid());
	o->f = fopen(o->tmp, "w");
	if (o->f == NULL) {
		rs_report_err_set(err, path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

void rs_report_out_abort(struct rs_report_out *o)
{
	if (o->f != NULL)
		fclose(o->f);
	if (o->tmp != NULL) {
		unlink(o->tmp);
		free(o->tmp);
	}
	o->f = NULL;
	o->tmp = NULL;
}

int rs_report_out_commit(struct rs_report_out *o, struct rs_report_err *err)
{
	/* A full disk shows up as a stream error or at fclose, not
	 * necessarily at the fprintf that ran out of room. */
	int bad = ferror(o->f);
	int saved = bad ? EIO : 0;
	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	o->f = NULL;
	if (!bad && rename(o->tmp, o->path) != 0) {
		bad = 1;
		saved = errno;
	}
	if (bad) {
		rs_report_err_set(err, o->path, strerror(saved));
		unlink(o->tmp);
	}
	free(o->tmp);
	o->tmp = NULL;
	return bad ? -1 : 0;
}
