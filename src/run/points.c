#include "run/points.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/runner.h"

/* FNV-1a: small, stable across machines and builds. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv(h, s, strlen(s) + 1);  /* the NUL separates neighbours */
}

static uint64_t hash_node(uint64_t h, const struct rs_node *n)
{
	unsigned char kind = (unsigned char)n->kind;
	h = fnv(h, &kind, 1);
	if (n->kind == RS_NODE_SCALAR)
		return fnv_str(h, n->str);
	uint64_t len = n->len;
	h = fnv(h, &len, sizeof(len));
	for (size_t i = 0; i < n->len; i++) {
		if (n->kind == RS_NODE_MAP)
			h = fnv_str(h, n->keys[i]->str);
		h = hash_node(h, n->items[i]);
	}
	return h;
}

uint64_t rs_scenario_fingerprint(const struct rs_scenario *sc)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	h = hash_node(h, sc->root);
	uint64_t n = sc->npoints;
	h = fnv(h, &n, sizeof(n));
	for (size_t m = 0; rs_metric_names[m]; m++)
		h = fnv_str(h, rs_metric_names[m]);
	h = fnv(h, &sc->figures_only, sizeof(sc->figures_only));
	for (size_t f = 0; f < sc->nfigure_cols; f++)
		h = fnv_str(h, sc->figure_cols[f]);
	if (sc->dev_col)
		h = fnv_str(h, sc->dev_col);
	return h;
}

static int make_dirs(const char *dir)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	}
	return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* A point file's name is its index in decimal and nothing else. */
static bool point_name(const char *name, size_t *index)
{
	if (!*name || name[strspn(name, "0123456789")] != '\0' || strlen(name) > 18)
		return false;
	*index = (size_t)strtoull(name, NULL, 10);
	return true;
}

static char *read_small_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 1024, n = 0;
	char *buf = malloc(cap);
	int c;
	while (buf && (c = fgetc(f)) != EOF) {
		if (n + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		buf[n++] = (char)c;
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

/* Remove point files (and, with all, every other file) from the folder;
 * with rows, load complete point files into rows instead of removing. */
static int sweep_dir(const struct rs_points *ps, char **rows, size_t *found)
{
	DIR *d = opendir(ps->dir);
	if (!d)
		return -1;
	struct dirent *e;
	char path[8192];
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    strcmp(e->d_name, "scenario") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", ps->dir, e->d_name);
		size_t i;
		if (rows && point_name(e->d_name, &i) && i < ps->npoints && !rows[i]) {
			char *row = read_small_file(path);
			size_t n = row ? strlen(row) : 0;
			/* Renamed into place only when whole, so it ends its line. */
			if (n > 0 && row[n - 1] == '\n') {
				row[n - 1] = '\0';
				rows[i] = row;
				(*found)++;
				continue;
			}
			free(row);
		}
		unlink(path);  /* temporary, foreign or (when fresh) old */
	}
	closedir(d);
	return 0;
}

int rs_points_open(struct rs_points *ps, const char *out_dir, const char *name,
		   uint64_t fingerprint, size_t npoints, bool resume, char **rows,
		   size_t *found)
{
	*found = 0;
	ps->npoints = npoints;
	if ((size_t)snprintf(ps->dir, sizeof(ps->dir), "%s/%s.points", out_dir, name) >=
	    sizeof(ps->dir)) {
		fprintf(stderr, "raidsim: output path too long: '%s'\n", out_dir);
		return -1;
	}
	char stamp_path[4200], stamp[128];
	snprintf(stamp_path, sizeof(stamp_path), "%s/scenario", ps->dir);
	snprintf(stamp, sizeof(stamp), "fingerprint %016" PRIx64 " points %zu\n", fingerprint,
		 npoints);
	if (resume) {
		char *old = read_small_file(stamp_path);
		if (old && strcmp(old, stamp) != 0) {
			fprintf(stderr,
				"raidsim: %s holds results of another scenario (or other --set "
				"values); run without --resume to start afresh\n", ps->dir);
			free(old);
			return -2;
		}
		bool have = old != NULL;
		free(old);
		if (have)
			return sweep_dir(ps, rows, found) == 0 ? 0 : -1;
	}
	if (make_dirs(ps->dir) != 0) {
		fprintf(stderr, "raidsim: cannot create '%s': %s\n", ps->dir, strerror(errno));
		return -1;
	}
	if (sweep_dir(ps, NULL, found) != 0)
		return -1;
	FILE *f = fopen(stamp_path, "w");
	if (!f || fputs(stamp, f) == EOF || fclose(f) != 0) {
		fprintf(stderr, "raidsim: cannot write '%s': %s\n", stamp_path, strerror(errno));
		return -1;
	}
	return 0;
}

int rs_points_save(const struct rs_points *ps, size_t i, const char *row)
{
	char final[4200], tmp[4300];
	snprintf(final, sizeof(final), "%s/%zu", ps->dir, i);
	snprintf(tmp, sizeof(tmp), "%s/.%zu.tmp.%ld", ps->dir, i, (long)getpid());
	FILE *f = fopen(tmp, "w");
	bool ok = f && fputs(row, f) != EOF && fputc('\n', f) != EOF;
	if (f && fclose(f) != 0)
		ok = false;
	if (!ok || rename(tmp, final) != 0) {
		fprintf(stderr, "raidsim: cannot write '%s': %s\n", final, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

void rs_points_remove(const struct rs_points *ps)
{
	char path[4200];
	sweep_dir(ps, NULL, NULL);
	snprintf(path, sizeof(path), "%s/scenario", ps->dir);
	unlink(path);
	rmdir(ps->dir);
}
