#include "load/fio_parse.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "config/limits.h"
#include "kernel/assert.h"

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Trim spaces at both ends of [*s, *e). */
static void trim(char **s, char **e)
{
	while (*s < *e && is_space(**s))
		(*s)++;
	while (*e > *s && is_space((*e)[-1]))
		(*e)--;
}

static struct rs_fio_section *add_section(struct rs_fio_file *f, const char *name, int line,
					  int col)
{
	f->secs = realloc(f->secs, (f->nsecs + 1) * sizeof(*f->secs));
	RS_ASSERT(f->secs != NULL);
	struct rs_fio_section *s = &f->secs[f->nsecs++];
	*s = (struct rs_fio_section){ name, line, col, NULL, 0 };
	return s;
}

static void add_opt(struct rs_fio_section *s, const struct rs_fio_opt *o)
{
	s->opts = realloc(s->opts, (s->nopts + 1) * sizeof(*s->opts));
	RS_ASSERT(s->opts != NULL);
	s->opts[s->nopts++] = *o;
}

/* One line, NUL-terminated in place: a section header, an option, a
 * comment or nothing.  0, or -1 with d set. */
static int parse_line(struct rs_fio_file *f, char *line, int lineno, struct rs_diag *d)
{
	char *s = line, *e = line + strlen(line);
	trim(&s, &e);
	*e = '\0';
	int col = (int)(s - line) + 1;
	if (s == e || *s == ';' || *s == '#')
		return 0;
	/* As fio reads it, a comment may also end a line. */
	char *cut = s + strcspn(s, ";#");
	if (cut < e) {
		e = cut;
		trim(&s, &e);
		*e = '\0';
	}
	char *var = strstr(s, "${");
	if (var)
		return rs_diag_at(d, f->path, lineno, (int)(var - line) + 1,
				  "environment variables ('${...}') are not expanded: write the "
				  "value itself");
	if (*s == '[') {
		char *close = strchr(s, ']');
		if (!close)
			return rs_diag_at(d, f->path, lineno, (int)(e - line) + 1,
					  "expected ']' closing the section name");
		char *rest = close + 1;
		while (is_space(*rest))
			rest++;
		if (*rest && *rest != ';' && *rest != '#')
			return rs_diag_at(d, f->path, lineno, (int)(rest - line) + 1,
					  "expected the end of the line after the section name");
		char *ns = s + 1, *ne = close;
		trim(&ns, &ne);
		if (ns == ne)
			return rs_diag_at(d, f->path, lineno, col, "empty section name");
		*ne = '\0';
		add_section(f, ns, lineno, col);
		return 0;
	}
	if (strncmp(s, "include", 7) == 0 && (is_space(s[7]) || s[7] == '\0'))
		return rs_diag_at(d, f->path, lineno, col,
				  "'include' of another job file is not supported: put its "
				  "options in this file");
	if (f->nsecs == 0)
		return rs_diag_at(d, f->path, lineno, col,
				  "expected a section ('[global]' or '[job-name]') before "
				  "the first option");
	struct rs_fio_opt o = { s, NULL, lineno, col, 0 };
	char *eq = strchr(s, '=');
	if (eq) {
		char *ke = eq, *vs = eq + 1, *ve = e;
		trim(&s, &ke);
		*ke = '\0';
		trim(&vs, &ve);
		*ve = '\0';
		if (s == ke)
			return rs_diag_at(d, f->path, lineno, col,
					  "expected an option name before '='");
		if (vs == ve)
			return rs_diag_at(d, f->path, lineno, (int)(eq - line) + 2,
					  "expected a value after '%s='", s);
		o.val = vs;
		o.val_col = (int)(vs - line) + 1;
	}
	for (char *c = s; *c; c++)
		if (is_space(*c))
			return rs_diag_at(d, f->path, lineno, (int)(c - line) + 1,
					  "expected 'option' or 'option=value', got a space "
					  "in '%s'", s);
	add_opt(&f->secs[f->nsecs - 1], &o);
	return 0;
}

int rs_fio_parse(const char *path, const char *text, size_t len, struct rs_fio_file *out,
		 struct rs_diag *d)
{
	memset(out, 0, sizeof(*out));
	out->path = path;
	out->store = malloc(len + 1);
	RS_ASSERT(out->store != NULL);
	memcpy(out->store, text, len);
	out->store[len] = '\0';
	if (memchr(text, '\0', len))
		return rs_diag_at(d, path, 0, 0, "not a text file (it holds a NUL byte)");
	char *line = out->store;
	for (int lineno = 1; line; lineno++) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (parse_line(out, line, lineno, d) != 0)
			return -1;
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

int rs_fio_read(const char *path, struct rs_fio_file *out, struct rs_diag *d)
{
	memset(out, 0, sizeof(*out));
	out->path = path;
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return rs_diag_at(d, path, 0, 0, "cannot open fio job file: %s", strerror(errno));
	uint64_t cap = rs_limits()->trace_bytes;
	size_t n = 0, size = 4096;
	char *buf = malloc(size);
	RS_ASSERT(buf != NULL);
	size_t got;
	while ((got = fread(buf + n, 1, size - n, fp)) > 0) {
		n += got;
		if (n > cap) {
			fclose(fp);
			free(buf);
			return rs_diag_at(d, path, 0, 0, "fio job file larger than %llu bytes (cap "
					  "trace_bytes=%llu; raise it with --limit trace_bytes=N)",
					  (unsigned long long)cap, (unsigned long long)cap);
		}
		if (n == size) {
			size *= 2;
			buf = realloc(buf, size);
			RS_ASSERT(buf != NULL);
		}
	}
	bool err = ferror(fp);
	fclose(fp);
	if (err) {
		free(buf);
		return rs_diag_at(d, path, 0, 0, "cannot read fio job file");
	}
	int rc = rs_fio_parse(path, buf, n, out, d);
	free(buf);
	return rc;
}

void rs_fio_free(struct rs_fio_file *f)
{
	for (size_t i = 0; i < f->nsecs; i++)
		free(f->secs[i].opts);
	free(f->secs);
	free(f->store);
	memset(f, 0, sizeof(*f));
}
