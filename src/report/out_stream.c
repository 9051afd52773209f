/* fopencookie(3) is a GNU extension: the one way to see each write's
 * errno through stdio. */
#define _GNU_SOURCE

#include "report/out_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "report/out.h"

static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
	struct rs_out_stream *s = cookie;
	if (s->err)
		return -1;
	if (rs_report_write_all(s->fd, buf, n) != 0) {
		s->err = errno;
		return -1;
	}
	return (ssize_t)n;
}

int rs_out_stream_open(struct rs_out_stream *s, const char *path, struct rs_report_err *err)
{
	s->f = NULL;
	s->err = 0;
	snprintf(s->path, sizeof(s->path), "%s", path);
	snprintf(s->tmp, sizeof(s->tmp), "%s.tmp.%ld", s->path, (long)getpid());
	s->fd = open(s->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (s->fd < 0) {
		rs_report_err_set(err, s->path, strerror(errno));
		return -1;
	}
	cookie_io_functions_t io = { .write = cookie_write };
	s->f = fopencookie(s, "w", io);
	if (s->f == NULL) {
		rs_report_err_set(err, s->path, strerror(errno));
		close(s->fd);
		unlink(s->tmp);
		return -1;
	}
	return 0;
}

void rs_out_stream_abort(struct rs_out_stream *s)
{
	if (s->f != NULL)
		fclose(s->f);
	s->f = NULL;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	unlink(s->tmp);
}

int rs_out_stream_commit(struct rs_out_stream *s, struct rs_report_err *err)
{
	int bad = fflush(s->f) != 0 || ferror(s->f);
	int e = s->err ? s->err : errno;
	if (!bad && fsync(s->fd) != 0) {
		bad = 1;
		e = errno;
	}
	fclose(s->f);
	s->f = NULL;
	if (close(s->fd) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	s->fd = -1;
	if (!bad && rename(s->tmp, s->path) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		rs_report_err_set(err, s->path, strerror(e ? e : EIO));
		unlink(s->tmp);
	}
	return bad ? -1 : 0;
}
