/* One command run under a budget: wall-clock seconds and address space,
 * its stderr kept in a file, its process group killed at the time-out so
 * the workers it forked go with it. */
#ifndef STRESS_BUDGET_H
#define STRESS_BUDGET_H

#include <stdbool.h>

struct budget {
	double seconds;        /* wall clock, then SIGKILL */
	unsigned long mib;     /* RLIMIT_AS of the command, 0 = none */
};

struct outcome {
	bool started;          /* false: fork or exec failed (status 127) */
	bool timed_out;
	int status;            /* exit status, when it exited */
	int signal;            /* the signal that ended it, else 0 */
	double seconds;
};

/* Runs ARGV in folder DIR with stdin and stdout on /dev/null and stderr
 * into ERR_PATH (truncated). */
struct outcome budget_run(char *const argv[], const char *dir, const char *err_path,
			  const struct budget *b);

#endif
