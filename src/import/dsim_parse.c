/* realpath() */
#define _DEFAULT_SOURCE
#include "import/dsim_parse.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/limits.h"
#include "kernel/assert.h"

/* ---- memory ------------------------------------------------------------ */

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	RS_ASSERT(p != NULL);
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xcalloc(n + 1, 1);
	memcpy(p, s, n);
	return p;
}

static void push(void ***arr, size_t *n, void *item)
{
	/* Doubling at powers of two keeps appends cheap without a capacity. */
	if ((*n & (*n - 1)) == 0) {
		size_t cap = *n ? *n * 2 : 1;
		void **p = realloc(*arr, cap * sizeof(**arr));
		RS_ASSERT(p != NULL);
		*arr = p;
	}
	(*arr)[(*n)++] = item;
}

static void val_free(struct rs_dsim_val *v)
{
	if (!v)
		return;
	free(v->text);
	free(v->type);
	free(v->name);
	for (size_t i = 0; i < v->nparams; i++) {
		free(v->params[i].key);
		val_free(v->params[i].val);
	}
	free(v->params);
	for (size_t i = 0; i < v->nitems; i++)
		val_free(v->items[i]);
	free(v->items);
	free(v);
}

void rs_dsim_free(struct rs_dsim *ds)
{
	for (size_t i = 0; i < ds->ntops; i++)
		val_free(ds->tops[i]);
	free(ds->tops);
	for (size_t i = 0; i < ds->nfiles; i++) {
		free(ds->files[i]->name);
		free(ds->files[i]->shown);
		free(ds->files[i]->text);
		free(ds->files[i]);
	}
	free(ds->files);
	free(ds->dir);
	free(ds->dir_real);
	memset(ds, 0, sizeof(*ds));
}

/* ---- files ------------------------------------------------------------- */

/* A relative path that never climbs above its starting folder. */
static bool path_stays_inside(const char *name)
{
	if (name[0] == '/' || name[0] == '\0')
		return false;
	int depth = 0;
	const char *p = name;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.')
			depth--;
		else if (n > 0 && !(n == 1 && p[0] == '.'))
			depth++;
		if (depth < 0)
			return false;
		p += n;
		if (*p == '/')
			p++;
	}
	return true;
}

static const struct rs_dsim_file *load(struct rs_dsim *ds, const char *name, const char *shown,
				       const struct rs_dsim_file *from, int line, int col,
				       struct rs_diag *d)
{
	const char *where = from ? from->shown : shown;
	if (from && !path_stays_inside(name)) {
		rs_diag_at(d, where, line, col, "'%s' is outside the set-up's folder (only "
			   "files beside the set-up file, or below it, are read)", name);
		return NULL;
	}
	char *full = xcalloc(strlen(ds->dir) + strlen(name) + 2, 1);
	sprintf(full, "%s/%s", ds->dir, name);
	const char *open_path = from ? full : shown;
	char *real = realpath(open_path, NULL);
	size_t dl = strlen(ds->dir_real);
	if (!real) {
		int e = errno;
		if (from)
			rs_diag_at(d, where, line, col, "cannot read '%s': %s", name, strerror(e));
		else
			rs_diag_at(d, shown, 0, 0, "cannot read the set-up: %s", strerror(e));
		free(full);
		return NULL;
	}
	if (from && (strncmp(real, ds->dir_real, dl) != 0 || real[dl] != '/')) {
		rs_diag_at(d, where, line, col, "'%s' leads outside the set-up's folder (a "
			   "symbolic link?)", name);
		free(real);
		free(full);
		return NULL;
	}
	free(real);
	FILE *f = fopen(open_path, "rb");
	struct stat st;
	if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		int e = f ? EINVAL : errno;
		if (f)
			fclose(f);
		rs_diag_at(d, where, from ? line : 0, from ? col : 0, "cannot read '%s': %s",
			   name, f ? "not a regular file" : strerror(e));
		free(full);
		return NULL;
	}
	if ((uint64_t)st.st_size > RS_DSIM_MAX_FILE) {
		fclose(f);
		rs_diag_at(d, where, from ? line : 0, from ? col : 0, "'%s' is %lld bytes, more "
			   "than the %zu a DiskSim parameter file may have", name,
			   (long long)st.st_size, RS_DSIM_MAX_FILE);
		free(full);
		return NULL;
	}
	struct rs_dsim_file *df = xcalloc(1, sizeof(*df));
	df->text = xcalloc((size_t)st.st_size + 1, 1);
	df->len = fread(df->text, 1, (size_t)st.st_size, f);
	fclose(f);
	df->name = xstrndup(name, strlen(name));
	df->shown = from ? full : xstrndup(shown, strlen(shown));
	if (!from)
		free(full);
	if (memchr(df->text, '\0', df->len)) {
		rs_diag_at(d, df->shown, 1, 1, "not a text file (it holds a NUL byte)");
		push((void ***)&ds->files, &ds->nfiles, df);
		return NULL;
	}
	push((void ***)&ds->files, &ds->nfiles, df);
	return df;
}

const struct rs_dsim_file *rs_dsim_open(struct rs_dsim *ds, const char *name,
					const struct rs_dsim_file *from, int line, int col,
					struct rs_diag *d)
{
	for (size_t i = 0; i < ds->nfiles; i++)
		if (strcmp(ds->files[i]->name, name) == 0)
			return ds->files[i];
	return load(ds, name, name, from, line, col, d);
}

/* ---- tokens ------------------------------------------------------------ */

enum tok { T_EOF, T_WORD, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_COMMA, T_EQ };

struct lexer {
	struct rs_dsim *ds;
	const struct rs_dsim_file *f;
	size_t pos;
	int line, col;
	/* the current token */
	enum tok t;
	const char *w;
	size_t wlen;
	int tline, tcol;
	int depth;                    /* brackets open */
	int source_depth;
	bool topology;                /* TYPE NAME [ ... ] elements allowed */
	struct rs_diag *d;
};

static bool word_char(char c)
{
	return c && !strchr(" \t\r\n\f\v{}[],=#", c);
}

static void advance(struct lexer *lx)
{
	const char *s = lx->f->text;
	for (;;) {
		char c = lx->pos < lx->f->len ? s[lx->pos] : '\0';
		if (c == '\n') {
			lx->line++;
			lx->col = 1;
			lx->pos++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->col++;
			lx->pos++;
		} else if (c == '#') {
			while (lx->pos < lx->f->len && s[lx->pos] != '\n')
				lx->pos++;
		} else {
			break;
		}
	}
	lx->tline = lx->line;
	lx->tcol = lx->col;
	if (lx->pos >= lx->f->len) {
		lx->t = T_EOF;
		return;
	}
	char c = s[lx->pos];
	static const char punct[] = "{}[],=";
	static const enum tok ptok[] = { T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_COMMA, T_EQ };
	const char *p = strchr(punct, c);
	if (p) {
		lx->t = ptok[p - punct];
		lx->w = s + lx->pos;
		lx->wlen = 1;
		lx->pos++;
		lx->col++;
		return;
	}
	size_t start = lx->pos;
	while (lx->pos < lx->f->len && word_char(s[lx->pos]))
		lx->pos++;
	lx->t = T_WORD;
	lx->w = s + start;
	lx->wlen = lx->pos - start;
	lx->col += (int)lx->wlen;
}

static bool is_word(const struct lexer *lx, const char *w)
{
	return lx->t == T_WORD && lx->wlen == strlen(w) && memcmp(lx->w, w, lx->wlen) == 0;
}

static const char *tok_name(const struct lexer *lx, char *buf, size_t n)
{
	if (lx->t == T_EOF)
		return "the end of the file";
	snprintf(buf, n, "'%.*s'", (int)(lx->wlen > 40 ? 40 : lx->wlen), lx->w);
	return buf;
}

static int expected(struct lexer *lx, const char *what)
{
	char buf[64];
	return rs_diag_at(lx->d, lx->f->shown, lx->tline, lx->tcol, "expected %s, got %s", what,
			  tok_name(lx, buf, sizeof(buf)));
}

static struct rs_dsim_val *new_val(struct lexer *lx, enum rs_dsim_kind kind)
{
	struct rs_dsim_val *v = xcalloc(1, sizeof(*v));
	v->kind = kind;
	v->file = lx->f;
	v->line = lx->tline;
	v->col = lx->tcol;
	return v;
}

static int enter(struct lexer *lx)
{
	if (++lx->depth > RS_DSIM_MAX_NEST)
		return rs_diag_at(lx->d, lx->f->shown, lx->tline, lx->tcol, "brackets nest more "
				  "than %d deep", RS_DSIM_MAX_NEST);
	return 0;
}

/* ---- grammar ----------------------------------------------------------- */

static struct rs_dsim_val *parse_value(struct lexer *lx);
static int parse_file(struct rs_dsim *ds, const struct rs_dsim_file *f, int source_depth,
		      struct rs_dsim_val ***out, size_t *nout, struct rs_diag *d);

static int parse_params(struct lexer *lx, struct rs_dsim_val *b)
{
	while (lx->t != T_RBRACE) {
		if (lx->t != T_WORD)
			return expected(lx, "a parameter name or '}'");
		struct rs_dsim_param pr = { .file = lx->f, .line = lx->tline, .col = lx->tcol };
		char key[256];
		size_t kl = 0;
		while (lx->t == T_WORD) {
			if (kl + lx->wlen + 2 > sizeof(key))
				return rs_diag_at(lx->d, lx->f->shown, pr.line, pr.col,
						  "parameter name longer than %zu characters",
						  sizeof(key) - 2);
			if (kl)
				key[kl++] = ' ';
			memcpy(key + kl, lx->w, lx->wlen);
			kl += lx->wlen;
			advance(lx);
		}
		if (lx->t != T_EQ)
			return expected(lx, "'=' after the parameter name");
		advance(lx);
		struct rs_dsim_val *v = parse_value(lx);
		if (!v)
			return -1;
		pr.key = xstrndup(key, kl);
		pr.val = v;
		if ((b->nparams & (b->nparams - 1)) == 0) {
			size_t cap = b->nparams ? b->nparams * 2 : 1;
			struct rs_dsim_param *p = realloc(b->params, cap * sizeof(*p));
			RS_ASSERT(p != NULL);
			b->params = p;
		}
		b->params[b->nparams++] = pr;
		if (lx->t == T_COMMA)
			advance(lx);
		else if (lx->t != T_RBRACE)
			return expected(lx, "',' or '}'");
	}
	return 0;
}

/* After '{' has been seen: the block's parameters up to its '}'. */
static int parse_block_body(struct lexer *lx, struct rs_dsim_val *b)
{
	if (enter(lx))
		return -1;
	advance(lx);
	if (parse_params(lx, b))
		return -1;
	lx->depth--;
	advance(lx);
	return 0;
}

static int parse_list(struct lexer *lx, struct rs_dsim_val *l)
{
	if (enter(lx))
		return -1;
	advance(lx);
	while (lx->t != T_RBRACK) {
		if (lx->t == T_COMMA) {
			advance(lx);
			continue;
		}
		if (lx->t == T_EOF)
			return expected(lx, "']'");
		struct rs_dsim_val *v = parse_value(lx);
		if (!v)
			return -1;
		push((void ***)&l->items, &l->nitems, v);
	}
	lx->depth--;
	advance(lx);
	return 0;
}

static bool parse_number(const char *s, size_t n, double *out)
{
	char buf[64];
	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *end;
	errno = 0;
	double x = strtod(buf, &end);
	/* Only decimal notation: strtod also takes "nan", "inf" and hex. */
	if (*end || errno || !strchr("+-.0123456789", buf[0]) || strpbrk(buf, "xXnN"))
		return false;
	*out = x;
	return true;
}

/* `source FILE`, at the word 'source': the file, opened within the
 * set-up's folder and the nesting cap, and where its name stands; NULL
 * with the diagnostic set. */
static const struct rs_dsim_file *open_sourced(struct lexer *lx, int *nline, int *ncol)
{
	int line = lx->tline, col = lx->tcol;
	advance(lx);
	if (lx->t != T_WORD) {
		expected(lx, "a file name after 'source'");
		return NULL;
	}
	char *name = xstrndup(lx->w, lx->wlen);
	*nline = lx->tline;
	*ncol = lx->tcol;
	advance(lx);
	if (lx->source_depth + 1 > (int)rs_limits()->model_depth) {
		rs_diag_at(lx->d, lx->f->shown, line, col, "'source' nests more than %d files "
			   "deep (cap model_depth=%llu; raise it with --limit model_depth=N)",
			   (int)rs_limits()->model_depth,
			   (unsigned long long)rs_limits()->model_depth);
		free(name);
		return NULL;
	}
	const struct rs_dsim_file *f = rs_dsim_open(lx->ds, name, lx->f, *nline, *ncol, lx->d);
	free(name);
	return f;
}

/* The one block a sourced file holds, as a value. */
static struct rs_dsim_val *source_value(struct lexer *lx)
{
	int nline, ncol;
	const struct rs_dsim_file *f = open_sourced(lx, &nline, &ncol);
	if (!f)
		return NULL;
	struct rs_dsim_val **tops = NULL;
	size_t n = 0;
	struct rs_dsim_val *v = NULL;
	if (parse_file(lx->ds, f, lx->source_depth + 1, &tops, &n, lx->d) == 0) {
		if (n == 1 && tops[0]->kind == RS_DSIM_BLOCK && tops[0]->params) {
			v = tops[0];
			n = 0;
		} else {
			rs_diag_at(lx->d, lx->f->shown, nline, ncol, "'%s' must hold exactly one "
				   "block to be used as a value", f->name);
		}
	}
	for (size_t i = 0; i < n; i++)
		val_free(tops[i]);
	free(tops);
	return v;
}

static struct rs_dsim_val *parse_value(struct lexer *lx)
{
	if (lx->t == T_LBRACK) {
		struct rs_dsim_val *l = new_val(lx, RS_DSIM_LIST);
		if (parse_list(lx, l)) {
			val_free(l);
			return NULL;
		}
		return l;
	}
	if (lx->t != T_WORD) {
		expected(lx, "a value");
		return NULL;
	}
	if (is_word(lx, "source"))
		return source_value(lx);
	struct rs_dsim_val *v = new_val(lx, RS_DSIM_WORD);
	v->text = xstrndup(lx->w, lx->wlen);
	advance(lx);
	if (lx->t == T_LBRACE) {
		v->kind = RS_DSIM_BLOCK;
		v->type = v->text;
		v->text = NULL;
		if (parse_block_body(lx, v)) {
			val_free(v);
			return NULL;
		}
		return v;
	}
	if (lx->t == T_WORD && lx->topology) {
		/* TYPE NAME [ ... ]: an element of a topology. */
		v->kind = RS_DSIM_LIST;
		v->type = v->text;
		v->text = NULL;
		v->name = xstrndup(lx->w, lx->wlen);
		advance(lx);
		if (lx->t != T_LBRACK) {
			expected(lx, "'[' after a topology element's name");
			val_free(v);
			return NULL;
		}
		if (parse_list(lx, v)) {
			val_free(v);
			return NULL;
		}
		return v;
	}
	if (parse_number(v->text, strlen(v->text), &v->num))
		v->kind = RS_DSIM_NUM;
	return v;
}

static struct rs_dsim_val *parse_statement(struct lexer *lx, struct rs_dsim_val ***tops,
					   size_t *ntops, bool *done)
{
	*done = false;
	if (lx->t != T_WORD) {
		expected(lx, "a statement (a block, 'source', 'instantiate' or 'topology')");
		return NULL;
	}
	if (is_word(lx, "source")) {
		int nline, ncol;
		const struct rs_dsim_file *f = open_sourced(lx, &nline, &ncol);
		if (!f || parse_file(lx->ds, f, lx->source_depth + 1, tops, ntops, lx->d))
			return NULL;
		*done = true;
		return NULL;
	}
	struct rs_dsim_val *v = new_val(lx, RS_DSIM_BLOCK);
	if (is_word(lx, "instantiate")) {
		v->type = xstrndup("instantiate", 11);
		advance(lx);
		if (lx->t != T_LBRACK) {
			expected(lx, "'[' after 'instantiate'");
			goto bad;
		}
		if (parse_list(lx, v))
			goto bad;
		if (!is_word(lx, "as")) {
			expected(lx, "'as'");
			goto bad;
		}
		advance(lx);
		if (lx->t != T_WORD) {
			expected(lx, "the name of a block after 'as'");
			goto bad;
		}
		v->name = xstrndup(lx->w, lx->wlen);
		advance(lx);
		return v;
	}
	if (is_word(lx, "topology")) {
		advance(lx);
		val_free(v);
		lx->topology = true;
		v = parse_value(lx);
		lx->topology = false;
		if (!v)
			return NULL;
		if (v->kind != RS_DSIM_LIST || !v->type) {
			rs_diag_at(lx->d, lx->f->shown, v->line, v->col, "expected TYPE NAME [ ... ] "
				   "after 'topology'");
			goto bad;
		}
		free(v->text);
		v->text = v->type;
		v->type = xstrndup("topology", 8);
		v->kind = RS_DSIM_BLOCK;
		return v;
	}
	v->type = xstrndup(lx->w, lx->wlen);
	advance(lx);
	if (lx->t != T_WORD) {
		expected(lx, "the block's name");
		goto bad;
	}
	v->name = xstrndup(lx->w, lx->wlen);
	advance(lx);
	if (lx->t != T_LBRACE) {
		expected(lx, "'{'");
		goto bad;
	}
	if (parse_block_body(lx, v))
		goto bad;
	return v;
bad:
	val_free(v);
	return NULL;
}

static int parse_file(struct rs_dsim *ds, const struct rs_dsim_file *f, int source_depth,
		      struct rs_dsim_val ***out, size_t *nout, struct rs_diag *d)
{
	struct lexer lx = { .ds = ds, .f = f, .line = 1, .col = 1, .d = d,
			    .source_depth = source_depth };
	advance(&lx);
	while (lx.t != T_EOF) {
		bool done;
		struct rs_dsim_val *v = parse_statement(&lx, out, nout, &done);
		if (done)
			continue;
		if (!v)
			return -1;
		push((void ***)out, nout, v);
	}
	return 0;
}

int rs_dsim_read(struct rs_dsim *ds, const char *path, struct rs_diag *d)
{
	memset(ds, 0, sizeof(*ds));
	const char *slash = strrchr(path, '/');
	ds->dir = slash ? xstrndup(path, (size_t)(slash - path) + (slash == path)) : xstrndup(".", 1);
	ds->dir_real = realpath(ds->dir, NULL);
	if (!ds->dir_real)
		return rs_diag_at(d, path, 0, 0, "cannot read the set-up's folder: %s",
				  strerror(errno));
	const struct rs_dsim_file *f = load(ds, slash ? slash + 1 : path, path, NULL, 0, 0, d);
	if (!f)
		return -1;
	return parse_file(ds, f, 0, &ds->tops, &ds->ntops, d);
}

const struct rs_dsim_val *rs_dsim_find(const struct rs_dsim *ds, const char *type,
				       const char *name)
{
	for (size_t i = 0; i < ds->ntops; i++) {
		const struct rs_dsim_val *v = ds->tops[i];
		if ((!type || strcmp(v->type, type) == 0) && v->name && strcmp(v->name, name) == 0)
			return v;
	}
	return NULL;
}

const struct rs_dsim_param *rs_dsim_param(const struct rs_dsim_val *block, const char *key)
{
	for (size_t i = 0; i < block->nparams; i++)
		if (strcmp(block->params[i].key, key) == 0)
			return &block->params[i];
	return NULL;
}
