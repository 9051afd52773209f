/* flock(2) is BSD, open with O_CLOEXEC POSIX 2008. */
#define _DEFAULT_SOURCE

#include "report/out_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The holder's pid, written into the file, makes the refusal useful. */
static long holder_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

int rs_out_lock_take(struct rs_out_lock *l, const char *dir, const char *name)
{
	l->fd = -1;
	if ((size_t)snprintf(l->path, sizeof(l->path), "%s/%s.lock", dir, name) >=
	    sizeof(l->path)) {
		fprintf(stderr, "raidsim: output path too long: '%s'\n", dir);
		return -1;
	}
	for (;;) {
		int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
		if (fd < 0) {
			fprintf(stderr, "raidsim: cannot create '%s': %s\n", l->path,
				strerror(errno));
			return -1;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			int e = errno;
			long pid = e == EWOULDBLOCK ? holder_pid(fd) : 0;
			close(fd);
			if (e != EWOULDBLOCK) {
				fprintf(stderr, "raidsim: cannot lock '%s': %s\n", l->path,
					strerror(e));
				return -1;
			}
			fprintf(stderr, "raidsim: %s: another raidsim", l->path);
			if (pid > 0)
				fprintf(stderr, " (pid %ld)", pid);
			fprintf(stderr, " is writing %s in %s; wait for it to finish or "
					"choose another output folder\n", name, dir);
			return 1;
		}
		/* The holder before us removes the file as it lets go: if the
		 * file we locked is no longer the one at the path, a newcomer
		 * could lock a fresh file there too, so start again. */
		struct stat a, b;
		if (fstat(fd, &a) == 0 && stat(l->path, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			char pid[32];
			int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
			if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
				/* Only the message of a second run would miss the pid. */
			}
			l->fd = fd;
			return 0;
		}
		close(fd);
	}
}

void rs_out_lock_release(struct rs_out_lock *l)
{
	if (l->fd < 0)
		return;
	unlink(l->path);
	close(l->fd);
	l->fd = -1;
}
