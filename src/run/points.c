#include "run/points.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/out.h"
#include "report/out_set.h"
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
	for (size_t c = 0; c < sc->ndev_cols; c++)
		h = fnv_str(h, sc->dev_cols[c]);
	/* Only when repeated: a plain sweep keeps the fingerprint it had. */
	if (sc->repeat > 1) {
		uint64_t rep = sc->repeat;
		h = fnv_str(h, "repeat");
		h = fnv(h, &rep, sizeof(rep));
	}
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

/* The whole file if it has at most max bytes; *len gets its length
 * (which strlen would cut at a NUL byte).  NULL when unreadable or
 * longer. */
static char *read_small_file(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = malloc(max + 2);
	size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
	fclose(f);
	if (!buf || n > max) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* A row as rs_points_save writes it: one line of ncells TAB-separated
 * cells of printable text.  NULL, or what is wrong with it. */
static const char *row_damage(const char *row, size_t len, size_t ncells, char *why,
			      size_t n)
{
	if (len == 0 || row[len - 1] != '\n')
		return "not one whole line";
	size_t cells = 1;
	for (size_t i = 0; i + 1 < len; i++) {
		unsigned char c = (unsigned char)row[i];
		if (c == '\t')
			cells++;
		else if (c < 0x20 || c > 0x7e)
			return "not text";
	}
	if (cells != ncells) {
		snprintf(why, n, "%zu cells, expected %zu", cells, ncells);
		return why;
	}
	return NULL;
}

/* Remove point files (and, with all, every other file) from the folder;
 * with rows, load whole point files into rows instead of removing. */
static int sweep_dir(const struct rs_points *ps, char **rows, size_t *found)
{
	DIR *d = opendir(ps->dir);
	if (!d)
		return -1;
	struct dirent *e;
	char path[8192];
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    strcmp(e->d_name, "scenario") == 0 || strcmp(e->d_name, "out") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", ps->dir, e->d_name);
		size_t i;
		if (rows && point_name(e->d_name, &i) && i < ps->npoints && !rows[i]) {
			size_t len = 0;
			char why[64];
			char *row = read_small_file(path, RS_POINT_ROW_MAX, &len);
			const char *bad = row ? row_damage(row, len, ps->ncells, why, sizeof(why))
					      : "unreadable or too long";
			if (!bad) {
				row[len - 1] = '\0';
				rows[i] = row;
				(*found)++;
				continue;
			}
			/* Renamed into place only when whole, so this is damage
			 * from outside: say so, and run the point again. */
			fprintf(stderr, "raidsim: warning: %s: damaged point file (%s); point %zu "
					"runs again\n", path, bad, i);
			free(row);
		}
		unlink(path);  /* temporary, foreign, damaged or (when fresh) old */
	}
	closedir(d);
	return 0;
}

/* Empty the staging folder (all files, or only temporaries). */
static void clear_out(const struct rs_points *ps, bool all)
{
	DIR *d = opendir(ps->out);
	if (!d)
		return;
	struct dirent *e;
	char path[8400];
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (all || rs_out_temporary(e->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", ps->out, e->d_name);
			unlink(path);
		}
	}
	closedir(d);
}

int rs_points_open(struct rs_points *ps, const char *out_dir, const char *name,
		   uint64_t fingerprint, size_t npoints, size_t ncells, bool resume,
		   char **rows, size_t *found)
{
	*found = 0;
	ps->npoints = npoints;
	ps->ncells = ncells;
	if ((size_t)snprintf(ps->dir, sizeof(ps->dir), "%s/%s.points", out_dir, name) >=
	    sizeof(ps->dir)) {
		fprintf(stderr, "raidsim: output path too long: '%s'\n", out_dir);
		return -1;
	}
	snprintf(ps->out, sizeof(ps->out), "%s/out", ps->dir);
	char stamp_path[4200], stamp[128];
	snprintf(stamp_path, sizeof(stamp_path), "%s/scenario", ps->dir);
	snprintf(stamp, sizeof(stamp), "fingerprint %016" PRIx64 " points %zu\n", fingerprint,
		 npoints);
	if (resume) {
		size_t len;
		char *old = read_small_file(stamp_path, 1024, &len);
		if (old && strcmp(old, stamp) != 0) {
			fprintf(stderr,
				"raidsim: %s holds results of another scenario (or other --set "
				"or --repeat values); run without --resume to start afresh\n",
				ps->dir);
			free(old);
			return -2;
		}
		bool have = old != NULL;
		free(old);
		if (have) {
			if (make_dirs(ps->out) != 0) {
				fprintf(stderr, "raidsim: cannot create '%s': %s\n", ps->out,
					strerror(errno));
				return -1;
			}
			clear_out(ps, false);
			return sweep_dir(ps, rows, found) == 0 ? 0 : -1;
		}
	}
	if (make_dirs(ps->out) != 0) {
		fprintf(stderr, "raidsim: cannot create '%s': %s\n", ps->out, strerror(errno));
		return -1;
	}
	clear_out(ps, true);
	if (sweep_dir(ps, NULL, found) != 0)
		return -1;
	if (rs_report_write_file(stamp_path, stamp, strlen(stamp)) != 0) {
		fprintf(stderr, "raidsim: cannot write '%s': %s\n", stamp_path, strerror(errno));
		return -1;
	}
	return 0;
}

int rs_points_save(const struct rs_points *ps, size_t i, const char *row)
{
	char final[4200], tmp[4300], line[RS_POINT_ROW_MAX + 2];
	snprintf(final, sizeof(final), "%s/%zu", ps->dir, i);
	/* Hidden, so a listing of the saved points never shows one that a
	 * killed worker left half-written. */
	snprintf(tmp, sizeof(tmp), "%s/.%zu.tmp.%ld", ps->dir, i, (long)getpid());
	int n = snprintf(line, sizeof(line), "%s\n", row);
	if (n < 0 || (size_t)n >= sizeof(line)) {
		fprintf(stderr, "raidsim: internal error: the row of point %zu is too long\n", i);
		return -1;
	}
	if (rs_report_write_file_as(final, tmp, line, (size_t)n) != 0) {
		fprintf(stderr, "raidsim: cannot write '%s': %s\n", final, strerror(errno));
		return -1;
	}
	return 0;
}

void rs_points_discard_partial(const struct rs_points *ps)
{
	clear_out(ps, false);
	DIR *d = opendir(ps->dir);
	if (!d)
		return;
	struct dirent *e;
	char path[8400];
	while ((e = readdir(d)) != NULL)
		if (rs_out_temporary(e->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", ps->dir, e->d_name);
			unlink(path);
		}
	closedir(d);
}

void rs_points_remove(const struct rs_points *ps)
{
	char path[4200];
	clear_out(ps, true);
	rmdir(ps->out);
	sweep_dir(ps, NULL, NULL);
	snprintf(path, sizeof(path), "%s/scenario", ps->dir);
	unlink(path);
	rmdir(ps->dir);
}
