#include "budget.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static _Noreturn void child(char *const argv[], const char *dir, const char *err_path,
			    const struct budget *b)
{
	/* Its own group: the time-out kills raidsim's point workers too. */
	setpgid(0, 0);
	int in = open("/dev/null", O_RDWR);
	int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || err < 0 || chdir(dir) != 0)
		_exit(127);
	dup2(in, 0);
	dup2(in, 1);
	dup2(err, 2);
	if (b->mib) {
		rlim_t bytes = (rlim_t)b->mib << 20;
		struct rlimit rl = { bytes, bytes };
		setrlimit(RLIMIT_AS, &rl);
	}
	/* A core file per crash would fill the disk over a long campaign;
	 * the reproducer is what is kept. */
	struct rlimit none = { 0, 0 };
	setrlimit(RLIMIT_CORE, &none);
	execv(argv[0], argv);
	fprintf(stderr, "random_sets: cannot run %s\n", argv[0]);
	_exit(127);
}

struct outcome budget_run(char *const argv[], const char *dir, const char *err_path,
			  const struct budget *b)
{
	struct outcome o = { 0 };
	double start = now();
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("random_sets: fork");
		o.status = 127;
		return o;
	}
	if (pid == 0)
		child(argv, dir, err_path, b);
	setpgid(pid, pid);  /* either side may run first */
	for (;;) {
		/* Seen ended but not reaped: its pid, and so its group's id,
		 * cannot be taken by another process while the group is killed. */
		siginfo_t si = { 0 };
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == pid)
			break;
		if (!o.timed_out && now() - start > b->seconds) {
			o.timed_out = true;
			kill(-pid, SIGKILL);
		}
		nanosleep(&(struct timespec){ 0, 5 * 1000 * 1000 }, NULL);
	}
	/* Whatever of its group outlived it (a worker) goes too. */
	kill(-pid, SIGKILL);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	o.seconds = now() - start;
	o.started = true;
	if (WIFEXITED(st)) {
		o.status = WEXITSTATUS(st);
		o.started = o.status != 127;
	} else if (WIFSIGNALED(st)) {
		o.signal = WTERMSIG(st);
	}
	return o;
}
