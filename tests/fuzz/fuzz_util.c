/* The fuzz targets' scratch folder, model path and verdict check. */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp */
#include "fuzz_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RS_FUZZ_MODELS
#define RS_FUZZ_MODELS "models"
#endif

static char scratch[4096];

/* Whatever an input left behind (the harnesses delete their files after
 * each input; this catches a crash's leftovers on the next normal exit). */
static void remove_tree(const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	while (dh && (de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char path[4400];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path) != 0)
			remove_tree(path);
	}
	if (dh)
		closedir(dh);
	rmdir(dir);
}

static void remove_scratch(void)
{
	if (scratch[0])
		remove_tree(scratch);
}

const char *fuzz_scratch(void)
{
	if (!scratch[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(scratch, sizeof(scratch), "%s/raidsim-fuzz-XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(scratch)) {
			perror("raidsim fuzz: scratch folder");
			abort();
		}
		atexit(remove_scratch);
	}
	return scratch;
}

void fuzz_scratch_path(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", fuzz_scratch(), name);
}

void fuzz_write(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
		perror(path);
		abort();
	}
}

void fuzz_model_path(struct rs_model_path *mp, const char *first)
{
	struct rs_diag d;
	rs_diag_init(&d);
	rs_model_path_init(mp);
	if (first && rs_model_path_add(mp, first, &d) != 0)
		goto fail;
	/* $RAIDSIM_MODELS is searched by the loader itself when set. */
	if (!getenv("RAIDSIM_MODELS") && rs_model_path_add(mp, RS_FUZZ_MODELS, &d) != 0)
		goto fail;
	return;
fail:
	rs_diag_print(&d, stderr);
	abort();
}

void fuzz_check_verdict(int rc, const struct rs_diag *d)
{
	if (rc == 0 && !d->failed)
		return;
	/* A named file is printed as file:line:column (1:1 for the file as a
	 * whole); without one the message would have no position at all. */
	if (rc != 0 && d->failed && d->file[0] && d->msg[0])
		return;
	fprintf(stderr, "raidsim fuzz: load returned %d with %s diagnostic: ", rc,
		d->failed ? "this" : "no");
	rs_diag_print(d, stderr);
	abort();
}
