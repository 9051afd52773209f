/* random_sets: the shipped scenarios run with odd but plausible values.
 *
 * The fuzz targets load hostile files; this runs valid-looking ones to the
 * end.  Each run takes one shipped scenario, pins each swept axis to one of
 * its values, shortens the run (never lengthens it), and changes one to
 * four of the scenario's values or its models' values through --set: a
 * number scaled by zero, a tiny, a huge or a negative factor, a unit
 * swapped, an enumeration replaced by a value seen for the same key
 * elsewhere, a boolean flipped.  src/raidsim runs it under a time and
 * memory budget; it must end with status 0, with status 2 and a diagnostic,
 * or with status 1 and one of the documented runtime failures.  Anything
 * else (a signal, an assertion, another status 1, a time-out) fails the
 * test and prints the command line that reproduces it.  The same seed
 * gives the same runs in the same order. */
/* nftw and realpath. */
#define _XOPEN_SOURCE 700
#include "budget.h"
#include "mutate.h"
#include "yaml_tree.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static _Noreturn void oom(void)
{
	fprintf(stderr, "random_sets: out of memory\n");
	exit(99);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		oom();
	return p;
}

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	char *s = xrealloc(NULL, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* ---- strings ------------------------------------------------------------- */

struct strs { size_t len; char **v; };

static void strs_push(struct strs *s, char *owned)
{
	s->v = xrealloc(s->v, (s->len + 2) * sizeof(*s->v));
	s->v[s->len++] = owned;
	s->v[s->len] = NULL;
}

static void strs_free(struct strs *s)
{
	for (size_t i = 0; i < s->len; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct strs){ 0 };
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the shipped files --------------------------------------------------- */

struct model { char *name; struct yt_node *tree; };

struct corpus {
	struct strs scenario_paths;
	struct yt_node **scenarios;
	struct model *models;
	size_t nmodels;
	struct seen seen;
};

/* Every *.yaml under DIR, recursively, into OUT (unsorted). */
static void walk_yaml(const char *dir, struct strs *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *p = xprintf("%s/%s", dir, e->d_name);
		struct stat st;
		size_t n = strlen(e->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			walk_yaml(p, out);
			free(p);
		} else if (n > 5 && strcmp(e->d_name + n - 5, ".yaml") == 0) {
			strs_push(out, p);
		} else {
			free(p);
		}
	}
	closedir(d);
}

/* Every scalar of a map (not of a sequence) as PREFIX.KEY, with its node. */
typedef void (*leaf_fn)(const char *path, const struct yt_node *leaf, void *ctx);

static void leaves(const struct yt_node *n, const char *prefix, leaf_fn fn, void *ctx)
{
	if (!n || n->kind != YT_MAP)
		return;
	for (size_t i = 0; i < n->len; i++) {
		char *p = *prefix ? xprintf("%s.%s", prefix, n->keys[i]) : xprintf("%s", n->keys[i]);
		if (n->items[i]->kind == YT_SCALAR)
			fn(p, n->items[i], ctx);
		else
			leaves(n->items[i], p, fn, ctx);
		free(p);
	}
}

static void note_leaf(const char *path, const struct yt_node *leaf, void *ctx)
{
	seen_add(ctx, path, leaf->text);
}

static const struct yt_node *model_named(const struct corpus *c, const char *name)
{
	for (size_t i = 0; i < c->nmodels; i++)
		if (strcmp(c->models[i].name, name) == 0)
			return c->models[i].tree;
	return NULL;
}

static int load_corpus(struct corpus *c, const char *srcdir)
{
	struct strs model_paths = { 0 };
	char *dir = xprintf("%s/scenarios", srcdir);
	walk_yaml(dir, &c->scenario_paths);
	free(dir);
	dir = xprintf("%s/models", srcdir);
	walk_yaml(dir, &model_paths);
	free(dir);
	if (c->scenario_paths.len == 0) {
		fprintf(stderr, "random_sets: no scenarios under %s/scenarios\n", srcdir);
		strs_free(&model_paths);
		return -1;
	}
	/* Sorted: the same seed picks the same files whatever readdir says. */
	qsort(c->scenario_paths.v, c->scenario_paths.len, sizeof(char *), str_cmp);
	qsort(model_paths.v, model_paths.len, sizeof(char *), str_cmp);
	c->scenarios = xrealloc(NULL, c->scenario_paths.len * sizeof(*c->scenarios));
	size_t kept = 0;
	for (size_t i = 0; i < c->scenario_paths.len; i++) {
		struct yt_node *t = yt_load(c->scenario_paths.v[i]);
		/* yt_load said why; a file the test cannot read is not run. */
		if (!t || t->kind != YT_MAP) {
			yt_free(t);
			free(c->scenario_paths.v[i]);
			continue;
		}
		c->scenario_paths.v[kept] = c->scenario_paths.v[i];
		c->scenarios[kept++] = t;
		leaves(t, "", note_leaf, &c->seen);
		/* A swept axis's values are values of its key too. */
		const struct yt_node *sweep = yt_get(t, "sweep");
		for (size_t a = 0; sweep && sweep->kind == YT_MAP && a < sweep->len; a++)
			for (size_t k = 0; sweep->items[a]->kind == YT_SEQ && k < sweep->items[a]->len; k++)
				if (sweep->items[a]->items[k]->kind == YT_SCALAR)
					seen_add(&c->seen, sweep->keys[a], sweep->items[a]->items[k]->text);
	}
	c->scenario_paths.len = kept;
	c->scenario_paths.v[kept] = NULL;
	if (kept == 0) {
		fprintf(stderr, "random_sets: no scenario could be read\n");
		strs_free(&model_paths);
		return -1;
	}
	c->models = xrealloc(NULL, (model_paths.len + 1) * sizeof(*c->models));
	for (size_t i = 0; i < model_paths.len; i++) {
		struct yt_node *t = yt_load(model_paths.v[i]);
		if (!t)
			continue;
		const char *base = strrchr(model_paths.v[i], '/');
		base = base ? base + 1 : model_paths.v[i];
		c->models[c->nmodels++] = (struct model){
			xprintf("%.*s", (int)(strlen(base) - 5), base), t };
		leaves(t, "", note_leaf, &c->seen);
	}
	strs_free(&model_paths);
	return 0;
}

static void free_corpus(struct corpus *c)
{
	for (size_t i = 0; i < c->scenario_paths.len; i++)
		yt_free(c->scenarios[i]);
	free(c->scenarios);
	strs_free(&c->scenario_paths);
	for (size_t i = 0; i < c->nmodels; i++) {
		free(c->models[i].name);
		yt_free(c->models[i].tree);
	}
	free(c->models);
	seen_free(&c->seen);
}

/* ---- one run's plan ------------------------------------------------------ */

/* Keys that set how long a run is: shortened, never mutated (a mutation
 * could only lengthen the run or make it trivially empty). */
static const char *const LENGTH_KEYS[] = {
	"run", "ramp", "runtime", "count", "duration", "time", "files", "size_total",
	"stop", "passes", "pass_time", "total_length", "repeat", "interval",
};
/* Text, not settings. */
static const char *const SKIP_KEYS[] = { "description", "type", "seed", "name" };

static bool listed(const char *key, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(key, list[i]) == 0)
			return true;
	return false;
}

/* The --set assignments of a run, one per path, in the order first set. */
struct sets { struct strs path, value; };

static void sets_put(struct sets *s, const char *path, char *value_owned)
{
	for (size_t i = 0; i < s->path.len; i++)
		if (strcmp(s->path.v[i], path) == 0) {
			free(s->value.v[i]);
			s->value.v[i] = value_owned;
			return;
		}
	strs_push(&s->path, xprintf("%s", path));
	strs_push(&s->value, value_owned);
}

static const char *sets_get(const struct sets *s, const char *path)
{
	for (size_t i = 0; i < s->path.len; i++)
		if (strcmp(s->path.v[i], path) == 0)
			return s->value.v[i];
	return NULL;
}

/* A value to change: a scalar of a map at PATH, or when SEQ is set the
 * scalar under KEY of SEQ's entry ENTRY, the sequence at PATH then being
 * written again whole as a flow sequence. */
struct candidate {
	char *path;
	const struct yt_node *leaf;
	const struct yt_node *seq;
	size_t entry;
	const char *key;
};
struct candidates { size_t len; struct candidate *v; };

static void add_candidate(struct candidates *c, const struct candidate *add)
{
	for (size_t i = 0; !add->seq && i < c->len; i++)
		if (strcmp(c->v[i].path, add->path) == 0)
			return;  /* the scenario's own value wins over its model's */
	c->v = xrealloc(c->v, (c->len + 1) * sizeof(*c->v));
	c->v[c->len] = *add;
	c->v[c->len++].path = xprintf("%s", add->path);
}

struct collect { struct candidates *out; const struct corpus *corpus; const struct sets *pins; };

static const char *last_part(const char *path)
{
	const char *dot = strrchr(path, '.');
	return dot ? dot + 1 : path;
}

static bool mutable_key(const char *path)
{
	const char *k = last_part(path);
	size_t n = strlen(k);
	return !listed(k, LENGTH_KEYS, COUNT(LENGTH_KEYS)) &&
	       !listed(k, SKIP_KEYS, COUNT(SKIP_KEYS)) &&
	       !(n > 7 && strcmp(k + n - 7, "_source") == 0);
}

static void collect_model_leaf(const char *path, const struct yt_node *leaf, void *ctx)
{
	if (mutable_key(path))
		add_candidate(((struct collect *)ctx)->out, &(struct candidate){ .path = (char *)path, .leaf = leaf });
}

/* A sequence of maps of scalars (faults, an access spec's lines, the
 * paths of a multipath device): one that flow_text can write again. */
static bool flowable(const struct yt_node *seq)
{
	if (seq->kind != YT_SEQ || seq->len == 0)
		return false;
	for (size_t e = 0; e < seq->len; e++) {
		if (seq->items[e]->kind != YT_MAP)
			return false;
		for (size_t k = 0; k < seq->items[e]->len; k++)
			if (seq->items[e]->items[k]->kind != YT_SCALAR)
				return false;
	}
	return true;
}

static void append_text(char **out, size_t *len, size_t *cap, const char *add)
{
	size_t n = strlen(add);
	if (*len + n + 1 > *cap)
		*out = xrealloc(*out, *cap = 2 * (*len + n + 1));
	memcpy(*out + *len, add, n + 1);
	*len += n;
}

/* SEQ (flowable) as a flow sequence for --set: every `at` time times
 * AT_FACTOR, and the value under KEY of entry ENTRY replaced by VALUE when
 * KEY is not NULL.  A value that flow syntax would split is quoted. */
static char *flow_text(const struct yt_node *seq, double at_factor, size_t entry,
		       const char *key, const char *value)
{
	size_t len = 0, cap = 0;
	char *out = NULL;
	append_text(&out, &len, &cap, "[");
	for (size_t e = 0; e < seq->len; e++) {
		const struct yt_node *m = seq->items[e];
		append_text(&out, &len, &cap, e ? ", {" : "{");
		for (size_t k = 0; k < m->len; k++) {
			const char *text = m->items[k]->text;
			char *v;
			if (key && e == entry && strcmp(m->keys[k], key) == 0)
				v = xprintf("%s", value);
			else if (strcmp(m->keys[k], "at") == 0 && at_factor != 1 &&
				 parse_seconds(text) >= 0)
				v = xprintf("%.9gs", parse_seconds(text) * at_factor);
			else
				v = xprintf("%s", text);
			char *part = strpbrk(v, ",[]{}#:\"'") || m->items[k]->quoted ?
				     xprintf("%s%s: '%s'", k ? ", " : "", m->keys[k], v) :
				     xprintf("%s%s: %s", k ? ", " : "", m->keys[k], v);
			append_text(&out, &len, &cap, part);
			free(part);
			free(v);
		}
		append_text(&out, &len, &cap, "}");
	}
	append_text(&out, &len, &cap, "]");
	return out;
}

/* The scenario's leaves under PREFIX, and for every map that names a model
 * (the swept model when the axis is pinned) that model's leaves as if the
 * scenario had written them there. */
static void collect(const struct yt_node *n, const char *prefix, struct collect *cx)
{
	if (!n || n->kind != YT_MAP)
		return;
	for (size_t i = 0; i < n->len; i++) {
		char *p = *prefix ? xprintf("%s.%s", prefix, n->keys[i]) : xprintf("%s", n->keys[i]);
		const struct yt_node *v = n->items[i];
		if (!*prefix && (strcmp(p, "sweep") == 0 || strcmp(p, "output") == 0))
			;  /* not a setting of the run itself */
		else if (v->kind == YT_SCALAR && mutable_key(p))
			add_candidate(cx->out, &(struct candidate){ .path = p, .leaf = v });
		else if (v->kind == YT_MAP)
			collect(v, p, cx);
		else if (flowable(v))
			for (size_t e = 0; e < v->len; e++)
				for (size_t k = 0; k < v->items[e]->len; k++)
					if (mutable_key(v->items[e]->keys[k]))
						add_candidate(cx->out, &(struct candidate){
							p, v->items[e]->items[k], v, e,
							v->items[e]->keys[k] });
		free(p);
	}
	char *mp = *prefix ? xprintf("%s.model", prefix) : xprintf("model");
	const struct yt_node *m = yt_get(n, "model");
	const char *name = sets_get(cx->pins, mp);
	if (!name && m && m->kind == YT_SCALAR)
		name = m->text;
	const struct yt_node *model = name ? model_named(cx->corpus, name) : NULL;
	if (model) {
		/* A model's keys land beside "model:", PREFIX.KEY. */
		char *pre = xprintf("%s", prefix);
		leaves(model, pre, collect_model_leaf, cx);
		free(pre);
	}
	free(mp);
}

/* The value at PATH: as pinned, else KEY of BODY as written, else NULL. */
static const char *effective(const struct sets *s, const char *path,
			     const struct yt_node *body, const char *key)
{
	const char *pinned = sets_get(s, path);
	const struct yt_node *v = yt_get(body, key);
	return pinned ? pinned : v && v->kind == YT_SCALAR ? v->text : NULL;
}

static const char *const RUN_TIMES[] = { "0.05s", "0.2s", "0.5s" };

/* The run shortened: the measured time, the warm-up, a fio job's runtime,
 * CrystalDiskMark's passes and ATTO's length; the factor by which the
 * measured time shrank (1 if it did not), for the faults. */
static double shorten(struct rng *r, const struct yt_node *sc, struct sets *s)
{
	double factor = 1;
	const struct yt_node *wl = yt_get(sc, "workload");
	for (size_t i = 0; wl && wl->kind == YT_MAP && i < wl->len; i++) {
		const char *kind = wl->keys[i];
		const struct yt_node *body = wl->items[i];
		char *path;
		if (strcmp(kind, "iometer") == 0 || strcmp(kind, "trace") == 0 ||
		    strcmp(kind, "filecopy") == 0) {
			/* iometer runs 10 s unless told; the others until done. */
			/* What the run would be: a pinned axis, the file, the default
			 * (iometer 10 s, the others until done). */
			path = xprintf("workload.%s.run", kind);
			const char *run = effective(s, path, body, "run");
			free(path);
			double was = run ? parse_seconds(run)
				   : strcmp(kind, "iometer") == 0 ? 10 : INFINITY;
			const char *pick = RUN_TIMES[rng_below(r, COUNT(RUN_TIMES))];
			double to = parse_seconds(pick);
			if (was > to) {
				path = xprintf("workload.%s.run", kind);
				sets_put(s, path, xprintf("%s", pick));
				free(path);
				if (isfinite(was))
					factor = to / was;
			}
			path = xprintf("workload.%s.ramp", kind);
			const char *ramp = effective(s, path, body, "ramp");
			if (ramp && parse_seconds(ramp) > 0.05)
				sets_put(s, path, xprintf("%s", rng_below(r, 2) ? "0.05s" : "0s"));
			free(path);
		} else if (strcmp(kind, "fio") == 0) {
			sets_put(s, "workload.fio.runtime", xprintf("0.2s"));
		} else if (strcmp(kind, "cdm") == 0) {
			sets_put(s, "workload.cdm.passes", xprintf("1"));
			sets_put(s, "workload.cdm.pass_time", xprintf("0.2s"));
		} else if (strcmp(kind, "atto") == 0 && !yt_get(body, "total_length")) {
			sets_put(s, "workload.atto.total_length", xprintf("16MiB"));
		}
	}
	return factor;
}

/* A fault at 10 s of a 150 s run never fires in a run cut to 0.5 s: most
 * of the time the faults move with the run.  The factor their times were
 * multiplied by (1 if they stay). */
static double move_faults(struct rng *r, const struct yt_node *sc, double factor, struct sets *s)
{
	const struct yt_node *f = yt_get(sc, "faults");
	if (!f || !flowable(f) || factor >= 1 || rng_unit(r) < 0.25)
		return 1;
	sets_put(s, "faults", flow_text(f, factor, 0, NULL, NULL));
	return factor;
}

/* The plan of run RUN of SEED: its scenario and its assignments. */
static size_t plan_run(const struct corpus *c, unsigned long long seed, unsigned long run,
		       struct sets *s)
{
	struct rng r = { seed * 0x9e3779b97f4a7c15ULL ^ ((unsigned long long)run + 1) *
			 0xd1b54a32d192ed03ULL };
	rng_next(&r);
	size_t which = rng_below(&r, c->scenario_paths.len);
	const struct yt_node *sc = c->scenarios[which];
	const struct yt_node *sweep = yt_get(sc, "sweep");
	for (size_t a = 0; sweep && sweep->kind == YT_MAP && a < sweep->len; a++) {
		const struct yt_node *vals = sweep->items[a];
		if (vals->kind != YT_SEQ || vals->len == 0)
			continue;
		const struct yt_node *v = vals->items[rng_below(&r, vals->len)];
		if (v->kind == YT_SCALAR)
			sets_put(s, sweep->keys[a], xprintf("%s", v->text));
	}
	double factor = shorten(&r, sc, s);
	double at_factor = move_faults(&r, sc, factor, s);
	struct candidates cand = { 0 };
	struct collect cx = { &cand, c, s };
	collect(sc, "", &cx);
	size_t n = 1 + rng_below(&r, 4);
	for (size_t i = 0; i < n && cand.len; i++) {
		const struct candidate *pick = &cand.v[rng_below(&r, cand.len)];
		char *v = mutate_value(&r, (struct seen *)&c->seen,
				       pick->seq ? pick->key : pick->path, pick->leaf->text,
				       pick->leaf->quoted);
		if (pick->seq) {
			/* One entry's value changed, the rest (and moved faults)
			 * as they are. */
			bool faults = strcmp(pick->path, "faults") == 0;
			sets_put(s, pick->path, flow_text(pick->seq, faults ? at_factor : 1,
							  pick->entry, pick->key, v));
			free(v);
		} else {
			sets_put(s, pick->path, v);
		}
	}
	for (size_t i = 0; i < cand.len; i++)
		free(cand.v[i].path);
	free(cand.v);
	return which;
}

/* ---- running and judging ------------------------------------------------- */

/* The documented runtime failures (README, "Runs that cannot finish"). */
static const char *const RUNTIME_FAILURES[] = {
	"simulated time does not advance",
	"simulated time overflows",
	"overloaded: ",
};

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t len = 0, cap = 4096;
	char *s = xrealloc(NULL, cap);
	if (f) {
		size_t n;
		while ((n = fread(s + len, 1, cap - len - 1, f)) > 0) {
			len += n;
			if (cap - len < 2)
				s = xrealloc(s, cap *= 2);
		}
		fclose(f);
	}
	s[len] = '\0';
	return s;
}

/* "FILE:LINE:COLUMN: error: ..." or "raidsim: ...". */
static bool is_diagnostic(const char *line)
{
	if (strncmp(line, "raidsim: ", 9) == 0)
		return true;
	const char *p = line;
	while (*p && *p != '\n')
		p++;
	const char *colon = strstr(line, ": error: ");
	if (!colon || colon > p)
		return false;
	/* FILE:LINE:COLUMN just before ": error: ". */
	const char *q = colon;
	for (int part = 0; part < 2; part++) {
		const char *digits_end = q;
		while (q > line && q[-1] >= '0' && q[-1] <= '9')
			q--;
		if (q == digits_end || q == line || q[-1] != ':')
			return false;
		q--;
	}
	return q > line;
}

/* NULL if the outcome is allowed, else what is wrong with it. */
static char *judge(const struct outcome *o, const char *err, double timeout, int *kind)
{
	bool internal = strstr(err, "internal error") != NULL;
	*kind = -1;
	if (!o->started)
		return xprintf("could not be started");
	if (o->timed_out)
		return xprintf("still running after %.0f s", timeout);
	if (o->signal)
		return xprintf("killed by signal %d (%s)", o->signal, strsignal(o->signal));
	if (internal)
		return xprintf("exit status %d with an internal error", o->status);
	switch (o->status) {
	case 0:
		*kind = 0;
		return NULL;
	case 2:
		if (!is_diagnostic(err))
			return xprintf("exit status 2 without a file:line:column or raidsim: "
				       "diagnostic");
		*kind = 2;
		return NULL;
	case 1:
		for (size_t i = 0; i < COUNT(RUNTIME_FAILURES); i++)
			if (strstr(err, RUNTIME_FAILURES[i])) {
				*kind = 1;
				return NULL;
			}
		return xprintf("exit status 1, not one of the documented runtime failures");
	default:
		return xprintf("exit status %d", o->status);
	}
}

/* A word as a shell reads it back. */
static void print_word(FILE *f, const char *w)
{
	bool plain = *w != '\0';
	for (const char *p = w; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./=:%+-,@", *p))
			plain = false;
	if (plain) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (const char *p = w; *p; p++)
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	fputc('\'', f);
}

static void print_command(FILE *f, const char *raidsim, const char *scenario,
			  const struct sets *s)
{
	print_word(f, raidsim);
	fputs(" run ", f);
	print_word(f, scenario);
	fputs(" -j 1", f);
	for (size_t i = 0; i < s->path.len; i++) {
		char *a = xprintf("%s=%s", s->path.v[i], s->value.v[i]);
		fputs(" --set ", f);
		print_word(f, a);
		free(a);
	}
	fputc('\n', f);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- the command line ---------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("Usage: random_sets [OPTIONS]\n"
	      "\n"
	      "Run the shipped scenarios (SRCDIR/scenarios/**/*.yaml) with their sweeps\n"
	      "pinned, their runs shortened and 1-4 scenario or model values changed\n"
	      "through --set, and fail on any run that does not end with status 0, with\n"
	      "status 2 and a diagnostic, or with status 1 and a documented runtime\n"
	      "failure; each failure prints the command line that reproduces it.\n"
	      "\n"
	      "Options:\n"
	      "      --seed N       the campaign's seed (default 1); the same seed gives\n"
	      "                     the same runs in the same order\n"
	      "      --runs N       stop after N runs (default 100, or no limit with\n"
	      "                     --seconds)\n"
	      "      --seconds S    stop starting runs after S seconds\n"
	      "      --list         print the runs' command lines, run nothing\n"
	      "      --srcdir DIR   the tree with scenarios/ and models/ (default\n"
	      "                     $top_srcdir, else .)\n"
	      "      --raidsim PATH the binary under test (default\n"
	      "                     $top_builddir/src/raidsim, else src/raidsim)\n"
	      "      --workdir DIR  where the runs write (default: a new folder in\n"
	      "                     $TMPDIR, removed at the end)\n"
	      "      --timeout S    a run still going after S seconds fails (default 30)\n"
	      "      --memory MIB   address space of a run (default 2048; 0 = no limit)\n"
	      "  -v, --verbose      one line per run\n"
	      "  -h, --help         show this help\n"
	      "\n"
	      "Exit status: 0 no failure, 1 a run failed, 99 the test could not run.\n", f);
}

struct options {
	unsigned long long seed;
	unsigned long runs;
	double seconds;
	bool list, verbose;
	const char *srcdir, *raidsim, *workdir;
	double timeout;
	unsigned long mib;
};

static bool parse_number(const char *s, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(s, &end);
	return *s && !*end && errno == 0 && *out >= 0 && isfinite(*out);
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "runs", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 'S' },
		{ "list", no_argument, NULL, 'l' },
		{ "srcdir", required_argument, NULL, 'd' },
		{ "raidsim", required_argument, NULL, 'r' },
		{ "workdir", required_argument, NULL, 'w' },
		{ "timeout", required_argument, NULL, 't' },
		{ "memory", required_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	bool runs_given = false;
	int ch;
	while ((ch = getopt_long(argc, argv, "vh", longs, NULL)) != -1) {
		double v;
		switch (ch) {
		case 's': case 'n': case 'S': case 't': case 'm':
			if (!parse_number(optarg, &v) ||
			    (ch != 'S' && ch != 't' && v != floor(v))) {
				fprintf(stderr, "random_sets: bad number '%s'\n", optarg);
				return -1;
			}
			if (ch == 's')
				o->seed = (unsigned long long)v;
			else if (ch == 'n')
				o->runs = (unsigned long)v, runs_given = true;
			else if (ch == 'S')
				o->seconds = v;
			else if (ch == 't')
				o->timeout = v;
			else
				o->mib = (unsigned long)v;
			break;
		case 'l': o->list = true; break;
		case 'd': o->srcdir = optarg; break;
		case 'r': o->raidsim = optarg; break;
		case 'w': o->workdir = optarg; break;
		case 'v': o->verbose = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "random_sets: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (!runs_given)
		o->runs = o->seconds > 0 ? (unsigned long)-1 : 100;
	return 0;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct options o = { .seed = 1, .timeout = 30, .mib = 2048 };
	if (parse_options(argc, argv, &o) != 0)
		return 99;
	char *raidsim_default = NULL;
	if (!o.srcdir)
		o.srcdir = getenv("top_srcdir") ? getenv("top_srcdir") : ".";
	if (!o.raidsim) {
		const char *b = getenv("top_builddir");
		raidsim_default = xprintf("%s/src/raidsim", b ? b : ".");
		o.raidsim = raidsim_default;
	}
	/* The child runs in the work folder: the binary by its absolute path. */
	char *raidsim = realpath(o.raidsim, NULL);
	char *srcdir = realpath(o.srcdir, NULL);
	if (!srcdir || (!o.list && (!raidsim || access(raidsim, X_OK) != 0))) {
		fprintf(stderr, "random_sets: %s: not found\n", !srcdir ? o.srcdir : o.raidsim);
		return 99;
	}
	struct corpus c = { 0 };
	if (load_corpus(&c, srcdir) != 0)
		return 99;

	char *work = NULL;
	bool own_work = false;
	if (!o.list) {
		if (o.workdir) {
			mkdir(o.workdir, 0755);
			work = realpath(o.workdir, NULL);
		} else {
			const char *t = getenv("TMPDIR");
			char *tmpl = xprintf("%s/random-sets.XXXXXX", t && *t ? t : "/tmp");
			work = mkdtemp(tmpl) ? tmpl : (free(tmpl), NULL);
			own_work = true;
		}
		if (!work) {
			fprintf(stderr, "random_sets: no work folder\n");
			return 99;
		}
		/* The models beside the scenarios, whatever the environment says. */
		char *models = xprintf("%s/models", srcdir);
		setenv("RAIDSIM_MODELS", models, 1);
		free(models);
	}
	char *out = work ? xprintf("%s/out", work) : NULL;
	char *err_path = work ? xprintf("%s/stderr", work) : NULL;
	struct budget b = { o.timeout, o.mib };
	unsigned long counts[3] = { 0 }, failures = 0, run;
	double start = now();
	for (run = 0; run < o.runs; run++) {
		if (o.seconds > 0 && now() - start >= o.seconds)
			break;
		struct sets s = { 0 };
		size_t which = plan_run(&c, o.seed, run, &s);
		const char *scenario = c.scenario_paths.v[which];
		if (o.list) {
			printf("%lu: ", run);
			print_command(stdout, "raidsim", scenario, &s);
			strs_free(&s.path);
			strs_free(&s.value);
			continue;
		}
		struct strs args = { 0 };
		strs_push(&args, xprintf("%s", raidsim));
		strs_push(&args, xprintf("run"));
		strs_push(&args, xprintf("%s", scenario));
		strs_push(&args, xprintf("-o"));
		strs_push(&args, xprintf("%s", out));
		strs_push(&args, xprintf("-j"));
		strs_push(&args, xprintf("1"));
		strs_push(&args, xprintf("-q"));
		for (size_t i = 0; i < s.path.len; i++) {
			strs_push(&args, xprintf("--set"));
			strs_push(&args, xprintf("%s=%s", s.path.v[i], s.value.v[i]));
		}
		remove_tree(out);
		struct outcome oc = budget_run(args.v, work, err_path, &b);
		char *err = read_file(err_path);
		int kind;
		char *why = judge(&oc, err, o.timeout, &kind);
		if (why) {
			failures++;
			printf("FAIL run %lu of seed %llu: %s after %.1f s\n", run, o.seed, why,
			       oc.seconds);
			if (*err) {
				/* Its last 2000 bytes, each line indented under the
				 * FAIL line it belongs to. */
				size_t n = strlen(err);
				const char *line = n > 2000 ? err + n - 2000 : err;
				fputs("  stderr:\n", stdout);
				while (*line) {
					size_t len = strcspn(line, "\n");
					printf("    %.*s\n", (int)len, line);
					line += len + (line[len] == '\n');
				}
			}
			printf("  reproduce: RAIDSIM_MODELS=%s/models ", srcdir);
			print_command(stdout, raidsim, scenario, &s);
			free(why);
		} else {
			counts[kind]++;
		}
		if (o.verbose)
			printf("run %lu: %s, %.2f s: %s", run,
			       why ? "FAIL" : kind == 0 ? "ran" : kind == 2 ? "refused" : "stopped",
			       oc.seconds, *err ? err : "\n");
		/* A long campaign says it is alive now and then. */
		if (o.seconds > 0 && !o.verbose && (run + 1) % 1000 == 0)
			printf("random_sets: %lu runs, %lu failed, %.0f s\n", run + 1, failures,
			       now() - start);
		fflush(stdout);
		free(err);
		strs_free(&args);
		strs_free(&s.path);
		strs_free(&s.value);
	}
	if (!o.list)
		printf("random_sets: seed %llu: %lu runs in %.0f s: %lu ran, %lu refused "
		       "(status 2), %lu stopped (status 1), %lu failed\n",
		       o.seed, run, now() - start, counts[0], counts[2], counts[1], failures);
	if (work) {
		remove_tree(out);
		remove(err_path);
		if (own_work)
			remove(work);
	}
	free(out);
	free(err_path);
	free(work);
	free(raidsim);
	free(srcdir);
	free(raidsim_default);
	free_corpus(&c);
	return failures ? 1 : 0;
}
