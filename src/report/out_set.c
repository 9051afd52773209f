/* opendir(3), rename(2), unlink(2): POSIX. */
#define _POSIX_C_SOURCE 200809L

#include "report/out_set.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/assert.h"
#include "report/out.h"

static bool is_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* "<digits><suffix>" exactly, for suffix one of the NULL-ended list. */
static bool numbered(const char *s, const char *const *suffixes)
{
	size_t d = strspn(s, "0123456789");
	if (d == 0)
		return false;
	for (size_t i = 0; suffixes[i]; i++)
		if (strcmp(s + d, suffixes[i]) == 0)
			return true;
	return false;
}

bool rs_out_member(const char *name, const char *file, unsigned kinds)
{
	size_t n = strlen(name);
	if (strncmp(file, name, n) != 0)
		return false;
	const char *rest = file + n;
	static const char *const table[] = { ".tsv", ".json", ".gp", ".png", ".components.tsv",
					     NULL };
	static const char *const series[] = { ".tsv", ".gp", ".png", NULL };
	static const char *const requests[] = { ".csv", NULL };
	if (kinds & RS_OUT_TABLE)
		for (size_t i = 0; table[i]; i++)
			if (strcmp(rest, table[i]) == 0)
				return true;
	if (kinds & RS_OUT_POINT_FILES) {
		if (strncmp(rest, ".series.", 8) == 0 && numbered(rest + 8, series))
			return true;
		if (strncmp(rest, ".requests.", 10) == 0 && numbered(rest + 10, requests))
			return true;
	}
	return false;
}

/* Whether file is a work file of the staging folder ("....part", a
 * point's parts before they are gathered): never moved into the output
 * folder, so it stays with the saved points until the set is in place. */
static bool rs_out_staging_only(const char *file)
{
	size_t n = strlen(file);
	return n > 5 && strcmp(file + n - 5, ".part") == 0;
}

bool rs_out_temporary(const char *file)
{
	const char *t = strstr(file, "tmp.");
	const char *last = NULL;
	for (; t; t = strstr(t + 1, "tmp."))
		last = t;
	return last && (last == file || last[-1] == '.') &&
	       is_digits(last + 4, strlen(last + 4));
}

struct names {
	char **v;
	size_t n, cap;
};

static void names_add(struct names *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		RS_ASSERT(l->v != NULL);
	}
	l->v[l->n] = strdup(s);
	RS_ASSERT(l->v[l->n] != NULL);
	l->n++;
}

static void names_free(struct names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool names_has(const struct names *l, const char *s)
{
	return bsearch(&s, l->v, l->n, sizeof(*l->v), cmp_name) != NULL;
}

/* The plain files of a folder, sorted (temporaries removed on the way
 * when clean is set). */
static int list_files(const char *dir, struct names *out, bool clean)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct dirent *e;
	char path[8400];
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (e->d_name[1] == '\0' ||
					    (e->d_name[1] == '.' && e->d_name[2] == '\0')))
			continue;
		if (rs_out_temporary(e->d_name)) {
			if (clean) {
				snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
				unlink(path);
			}
			continue;
		}
		names_add(out, e->d_name);
	}
	closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_name);
	return 0;
}

static int move(const char *stage, const char *dir, const char *file,
		struct rs_report_err *err)
{
	char from[8400], to[8400];
	snprintf(from, sizeof(from), "%s/%s", stage, file);
	snprintf(to, sizeof(to), "%s/%s", dir, file);
	if (rename(from, to) == 0)
		return 0;
	rs_report_err_set(err, to, strerror(errno));
	return -1;
}

int rs_out_set_commit(const char *stage, const char *dir, const char *name,
		      const char *last_file, unsigned prune, struct rs_report_err *err)
{
	struct names set = { 0 };
	if (list_files(stage, &set, true) != 0) {
		rs_report_err_set(err, stage, strerror(errno));
		return -1;
	}
	int rc = 0;
	bool have_last = false;
	for (size_t i = 0; i < set.n && rc == 0; i++) {
		if (last_file && strcmp(set.v[i], last_file) == 0)
			have_last = true;
		else if (!rs_out_staging_only(set.v[i]))
			rc = move(stage, dir, set.v[i], err);
	}
	if (rc == 0 && have_last)
		rc = move(stage, dir, last_file, err);
	if (rc == 0 && prune) {
		struct names old = { 0 };
		if (list_files(dir, &old, false) == 0) {
			char path[8400];
			for (size_t i = 0; i < old.n; i++)
				if (rs_out_member(name, old.v[i], prune) &&
				    !names_has(&set, old.v[i])) {
					snprintf(path, sizeof(path), "%s/%s", dir, old.v[i]);
					unlink(path);
				}
		}
		names_free(&old);
	}
	names_free(&set);
	return rc;
}

void rs_out_set_discard(const char *stage, const char *name, unsigned kinds)
{
	struct names set = { 0 };
	if (list_files(stage, &set, true) == 0) {
		char path[8400];
		for (size_t i = 0; i < set.n; i++)
			if (rs_out_member(name, set.v[i], kinds)) {
				snprintf(path, sizeof(path), "%s/%s", stage, set.v[i]);
				unlink(path);
			}
	}
	names_free(&set);
}

static void empty_dir(const char *dir)
{
	struct names all = { 0 };
	if (list_files(dir, &all, true) == 0) {
		char path[8400];
		for (size_t i = 0; i < all.n; i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, all.v[i]);
			unlink(path);
		}
	}
	names_free(&all);
}

int rs_out_stage_begin(const char *stage)
{
	if (mkdir(stage, 0777) != 0) {
		if (errno != EEXIST)
			return -1;
		empty_dir(stage);
	}
	return 0;
}

void rs_out_stage_end(const char *stage)
{
	empty_dir(stage);
	rmdir(stage);
}
