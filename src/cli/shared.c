/* What several commands share: where the installed data is, the model
 * path (-M, $RAIDSIM_MODELS, the build tree, the installation), and the
 * parsers of option values (--jobs, --repeat, --output-format), kept out
 * of any one command so each is refused with the same message wherever
 * it is taken. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "config/diag.h"
#include "config/limits.h"
#include "config/models.h"
#include "run/repeats.h"
#include "run/summary.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef RS_DATA_DIR
#define RS_DATA_DIR "."
#endif

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The installed data (models/, scenarios/): BINDIR/../share/raidsim beside
 * this binary when it is there -- an installation moved or staged with
 * DESTDIR -- else where configure said it would be.  NULL for a binary run
 * from its build tree (that tree is its own). */
const char *cli_installed_data(void)
{
	static char dir[PATH_MAX];
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[len > 0 ? len : 0] = '\0';
	char *slash = strrchr(self, '/');
	if (len <= 0 || !slash)
		return RS_DATA_DIR;
	*slash = '\0';
	char mk[PATH_MAX + 16];
	snprintf(mk, sizeof(mk), "%.*s/../Makefile", PATH_MAX, self);
	if (access(mk, R_OK) == 0)
		return NULL;
	/* PREFIX/bin -> PREFIX/share/raidsim, without a "bin/.." in the
	 * paths users read. */
	char *up = strrchr(self, '/');
	if (up && up != self)
		*up = '\0';
	else
		strcat(self, "/..");
	snprintf(dir, sizeof(dir), "%.*s/share/%s", PATH_MAX - 32, self, PACKAGE_NAME);
	return is_dir(dir) ? dir : RS_DATA_DIR;
}

int cli_setup_models(struct rs_model_path *mp, char **dirs, size_t ndirs)
{
	struct rs_diag d;
	rs_diag_init(&d);
	rs_model_path_init(mp);
	for (size_t i = 0; i < ndirs; i++) {
		if (rs_model_path_add(mp, dirs[i], &d) != 0) {
			rs_diag_print(&d, stderr);
			rs_model_path_free(mp);
			return -1;
		}
	}
	rs_model_path_add_defaults(mp);
	return 0;
}

/* An installation that is not where configure put it (moved, or staged
 * with DESTDIR) still finds its own models: they join the end of
 * $RAIDSIM_MODELS, so every place searched before keeps its precedence
 * and the studies' scripts it runs inherit them. */
void cli_find_moved_models(void)
{
	const char *data = cli_installed_data();
	if (!data || strcmp(data, RS_DATA_DIR) == 0)
		return;
	char moved[PATH_MAX + 16], env[3 * PATH_MAX];
	snprintf(moved, sizeof(moved), "%.*s/models", PATH_MAX, data);
	if (!is_dir(moved))
		return;
	const char *old = getenv("RAIDSIM_MODELS");
	snprintf(env, sizeof(env), "%s%s%s", old && old[0] ? old : "", old && old[0] ? ":" : "",
		 moved);
	setenv("RAIDSIM_MODELS", env, 1);
}

/* --repeat N: 1..RS_REPEAT_MAX runs per point.  0, or -1 with the
 * message printed. */
int cli_parse_repeat(const char *arg, unsigned *repeat)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || n < 1 || n > RS_REPEAT_MAX) {
		fprintf(stderr, "raidsim: --repeat expects a number from 1 to %d, got '%s'\n",
			RS_REPEAT_MAX, arg);
		return -1;
	}
	*repeat = (unsigned)n;
	return 0;
}

int cli_add_model_dir(char **dirs, size_t *ndirs, size_t cap, char *dir)
{
	if (*ndirs == cap) {
		fprintf(stderr, "raidsim: at most %zu -M/--models options\n", cap);
		return -1;
	}
	dirs[(*ndirs)++] = dir;
	return 0;
}

int cli_set_limit(const char *arg)
{
	char why[256];
	if (rs_limits_set(arg, why, sizeof(why)) != 0) {
		fprintf(stderr, "raidsim: %s\n", why);
		return -1;
	}
	return 0;
}

/* --jobs N: 1..256 processes.  0, or -1 with the message printed. */
int cli_parse_jobs(const char *arg, unsigned *jobs)
{
	char *end;
	long j = strtol(arg, &end, 10);
	if (*end || j < 1 || j > 256) {
		fprintf(stderr, "raidsim: --jobs expects a number from 1 to 256, got '%s'\n", arg);
		return -1;
	}
	*jobs = (unsigned)j;
	return 0;
}

/* --output-format LIST (run/summary.h).  0, or -1 with the message
 * printed. */
int cli_parse_output_format(const char *arg, unsigned *formats)
{
	char why[256];
	if (rs_output_formats_parse(arg, formats, why, sizeof(why)) == 0)
		return 0;
	fprintf(stderr, "raidsim: %s\n", why);
	return -1;
}
