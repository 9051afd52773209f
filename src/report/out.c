/* open_memstream(3), fsync(2), rename(2), getpid(2), unlink(2): POSIX. */
#define _POSIX_C_SOURCE 200809L

#include "report/out.h"

#include <errno.h>
#include <fcntl.h>
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
	o->path = path;
	o->buf = NULL;
	o->len = 0;
	/* In memory, a stream cannot fail half-way for want of disk room:
	 * the only writes that can are the plain ones in commit, whose errno
	 * is the real reason. */
	o->f = open_memstream(&o->buf, &o->len);
	if (o->f == NULL) {
		rs_report_err_set(err, path, strerror(errno));
		return -1;
	}
	return 0;
}

void rs_report_out_abort(struct rs_report_out *o)
{
	if (o->f != NULL)
		fclose(o->f);
	free(o->buf);
	o->f = NULL;
	o->buf = NULL;
}

int rs_report_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;      /* no progress and no reason given */
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int rs_report_write_file_as(const char *path, const char *tmp, const void *buf, size_t n)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	/* The first failure decides the message; later steps only clean up. */
	int bad = rs_report_write_all(fd, buf, n) != 0 || fsync(fd) != 0;
	int e = errno;
	if (close(fd) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad && rename(tmp, path) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad)
		unlink(tmp);
	errno = e;
	return bad ? -1 : 0;
}

int rs_report_write_file(const char *path, const void *buf, size_t n)
{
	size_t tn = strlen(path) + 32;
	char *tmp = malloc(tn);
	RS_ASSERT(tmp != NULL);
	snprintf(tmp, tn, "%s.tmp.%ld", path, (long)getpid());
	int rc = rs_report_write_file_as(path, tmp, buf, n);
	int e = errno;
	free(tmp);
	errno = e;
	return rc;
}

int rs_report_out_commit(struct rs_report_out *o, struct rs_report_err *err)
{
	int rc = 0;
	/* Closing the memory stream fixes buf and len; it fails only for
	 * want of memory. */
	if (fclose(o->f) != 0) {
		rs_report_err_set(err, o->path, strerror(errno));
		rc = -1;
	} else if (rs_report_write_file(o->path, o->buf, o->len) != 0) {
		rs_report_err_set(err, o->path, strerror(errno));
		rc = -1;
	}
	o->f = NULL;
	free(o->buf);
	o->buf = NULL;
	return rc;
}
