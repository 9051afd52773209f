/* realpath() */
#define _DEFAULT_SOURCE
#include "load/fio_scenario.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool rs_fio_is_job_file(const char *arg)
{
	size_t n = strlen(arg);
	return n > 4 && strcmp(arg + n - 4, ".fio") == 0;
}

int rs_fio_scenario_write(const char *job, char *yaml, size_t n, char *why, size_t nwhy)
{
	char abs[PATH_MAX];
	if (!realpath(job, abs)) {
		snprintf(why, nwhy, "cannot open fio job file '%s': %s", job, strerror(errno));
		return -1;
	}
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/raidsim-fio.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		snprintf(why, nwhy, "cannot make a temporary folder in '%s': %s",
			 tmp && tmp[0] ? tmp : "/tmp", strerror(errno));
		return -1;
	}
	/* Named after the job, so the results are: out/JOB/JOB.tsv. */
	const char *base = strrchr(job, '/') ? strrchr(job, '/') + 1 : job;
	snprintf(yaml, n, "%s/%.*s.yaml", dir, (int)(strlen(base) - 4), base);
	FILE *f = fopen(yaml, "w");
	bool ok = f != NULL;
	if (ok) {
		/* A YAML single-quoted string: only the quote itself is doubled. */
		/* A mapping, so --set workload.fio.runtime=T applies. */
		fputs("workload:\n  fio:\n    file: '", f);
		for (const char *c = abs; *c; c++)
			fputs(*c == '\'' ? "''" : (char[]){ *c, '\0' }, f);
		fputs("'\n", f);
		ok = !ferror(f);
		ok = fclose(f) == 0 && ok;
	}
	if (!ok) {
		snprintf(why, nwhy, "cannot write '%s': %s", yaml, strerror(errno));
		rs_fio_scenario_remove(yaml);
		return -1;
	}
	return 0;
}

void rs_fio_scenario_remove(const char *yaml)
{
	remove(yaml);
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", yaml);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		rmdir(dir);
	}
}
