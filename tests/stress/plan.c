#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
size_t plan_run(const struct corpus *c, unsigned long long seed, unsigned long run,
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


void sets_free(struct sets *s)
{
	strs_free(&s->path);
	strs_free(&s->value);
}
