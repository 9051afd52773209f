/* fork, execvp, pipe, waitpid, chdir: POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/assert.h"
#include "report/report.h"

/* Whether an executable named prog is in a PATH directory: checked up
 * front because "not installed" is a normal outcome, not a failure. */
static int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	if (path == NULL || *path == '\0')
		path = "/usr/bin:/bin";
	while (*path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		char buf[4096];
		if (len + strlen(prog) + 2 < sizeof(buf)) {
			/* An empty entry means the current directory. */
			if (len == 0)
				snprintf(buf, sizeof(buf), "./%s", prog);
			else
				snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path, prog);
			if (access(buf, X_OK) == 0)
				return 1;
		}
		path += len;
		if (*path == ':')
			path++;
	}
	return 0;
}

/* Child side: never returns. */
static void run_child(char *script_arg, const char *workdir, int out_fd)
{
	int null_fd = open("/dev/null", O_RDONLY);
	if (null_fd >= 0) {
		dup2(null_fd, STDIN_FILENO);
		close(null_fd);
	}
	dup2(out_fd, STDOUT_FILENO);
	dup2(out_fd, STDERR_FILENO);
	close(out_fd);
	if (workdir != NULL && chdir(workdir) != 0) {
		fprintf(stderr, "cannot enter %s: %s\n", workdir, strerror(errno));
		_exit(126);
	}
	char *argv[] = { "gnuplot", script_arg, NULL };
	execvp(argv[0], argv);
	fprintf(stderr, "cannot run gnuplot: %s\n", strerror(errno));
	_exit(127);
}

static void set_err(char *err, size_t n, const char *fmt, const char *text)
{
	if (err != NULL && n > 0)
		snprintf(err, n, fmt, text);
}

int rs_report_render_png(const char *script_path, const char *workdir,
			 char *err, size_t n)
{
	if (err != NULL && n > 0)
		err[0] = '\0';
	if (!on_path("gnuplot"))
		return 1;

	/* No shell: the script's name is one argument, whatever it holds.
	 * A relative name gets "./" in front so that gnuplot cannot read it
	 * as an option ("-e ...") or as standard input ("-").  Made before
	 * the fork: the child only calls what is safe after one. */
	size_t arg_len = strlen(script_path) + 3;
	char *script_arg = malloc(arg_len);
	RS_ASSERT(script_arg != NULL);
	snprintf(script_arg, arg_len, "%s%s", script_path[0] == '/' ? "" : "./", script_path);

	int fds[2];
	if (pipe(fds) != 0) {
		set_err(err, n, "pipe: %s", strerror(errno));
		free(script_arg);
		return -1;
	}
	fflush(NULL);                 /* or buffered output is written twice */
	pid_t pid = fork();
	if (pid < 0) {
		set_err(err, n, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(script_arg);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		run_child(script_arg, workdir, fds[1]);
	}
	close(fds[1]);
	free(script_arg);

	/* Keep the beginning of gnuplot's output (its first complaint is
	 * the useful one) and drain the rest so it never blocks on a full
	 * pipe. */
	char msg[1024];
	size_t len = 0;
	for (;;) {
		char buf[512];
		ssize_t r = read(fds[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		size_t take = (size_t)r;
		if (take > sizeof(msg) - 1 - len)
			take = sizeof(msg) - 1 - len;
		memcpy(msg + len, buf, take);
		len += take;
	}
	close(fds[0]);
	msg[len] = '\0';
	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		msg[--len] = '\0';

	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			set_err(err, n, "waitpid: %s", strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (len == 0)
		snprintf(msg, sizeof(msg), "gnuplot %s with status %d",
			 WIFEXITED(status) ? "exited" : "was killed",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	set_err(err, n, "gnuplot: %s", msg);
	return -1;
}
