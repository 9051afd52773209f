/* The position-carrying YAML tree: construction, lookup, paths, merge. */
/* strdup, strndup and friends are POSIX.1-2008, not plain C11. */
#define _POSIX_C_SOURCE 200809L

#include "config/node.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

/* File names outlive every tree that mentions them (diagnostics are
 * printed after trees are freed), so they are kept for the process.
 * There are only ever a handful, so a list is enough.  Not thread-safe:
 * load configuration before starting worker threads. */
struct intern {
	struct intern *next;
	char s[];
};
static struct intern *interned;

const char *rs_intern(const char *s)
{
	struct intern *i;
	size_t n;

	if (!s)
		s = "";
	for (i = interned; i; i = i->next)
		if (i->s == s || strcmp(i->s, s) == 0)
			return i->s;
	n = strlen(s);
	i = malloc(sizeof(*i) + n + 1);
	RS_ASSERT(i);
	memcpy(i->s, s, n + 1);
	i->next = interned;
	interned = i;
	return i->s;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	RS_ASSERT(p);
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	RS_ASSERT(p);
	return p;
}

static struct rs_node *node_new(enum rs_node_kind kind, const char *file, int line, int col)
{
	struct rs_node *n = xcalloc(1, sizeof(*n));

	n->kind = kind;
	n->file = rs_intern(file);
	n->line = line;
	n->col = col;
	return n;
}

struct rs_node *rs_node_new_scalar(const char *file, int line, int col, const char *str)
{
	struct rs_node *n = node_new(RS_NODE_SCALAR, file, line, col);

	n->str = xstrdup(str);
	return n;
}

struct rs_node *rs_node_new_map(const char *file, int line, int col)
{
	return node_new(RS_NODE_MAP, file, line, col);
}

struct rs_node *rs_node_new_seq(const char *file, int line, int col)
{
	return node_new(RS_NODE_SEQ, file, line, col);
}

static void grow(struct rs_node *n)
{
	size_t cap;

	if (n->len < n->cap)
		return;
	cap = n->cap ? 2 * n->cap : 4;
	n->items = realloc(n->items, cap * sizeof(*n->items));
	RS_ASSERT(n->items);
	if (n->kind == RS_NODE_MAP) {
		n->keys = realloc(n->keys, cap * sizeof(*n->keys));
		RS_ASSERT(n->keys);
	}
	n->cap = cap;
}

void rs_node_append(struct rs_node *seq, struct rs_node *item)
{
	RS_ASSERT(seq->kind == RS_NODE_SEQ);
	grow(seq);
	seq->items[seq->len++] = item;
}

void rs_node_map_append(struct rs_node *map, struct rs_node *key, struct rs_node *value)
{
	RS_ASSERT(map->kind == RS_NODE_MAP);
	grow(map);
	map->keys[map->len] = key;
	map->items[map->len] = value;
	map->len++;
}

void rs_node_free(struct rs_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->len; i++) {
		if (n->keys)
			rs_node_free(n->keys[i]);
		rs_node_free(n->items[i]);
	}
	free(n->keys);
	free(n->items);
	free(n->str);
	free(n);
}

struct rs_node *rs_node_clone(const struct rs_node *n)
{
	struct rs_node *c;

	if (!n)
		return NULL;
	c = node_new(n->kind, n->file, n->line, n->col);
	c->str = n->str ? xstrdup(n->str) : NULL;
	c->quoted = n->quoted;
	if (n->len) {
		c->cap = n->len;
		c->items = xcalloc(n->len, sizeof(*c->items));
		if (n->kind == RS_NODE_MAP)
			c->keys = xcalloc(n->len, sizeof(*c->keys));
		for (size_t i = 0; i < n->len; i++) {
			if (n->kind == RS_NODE_MAP)
				c->keys[i] = rs_node_clone(n->keys[i]);
			c->items[i] = rs_node_clone(n->items[i]);
		}
		c->len = n->len;
	}
	return c;
}

long rs_node_find(const struct rs_node *map, const char *key)
{
	if (!map || map->kind != RS_NODE_MAP || !key)
		return -1;
	for (size_t i = 0; i < map->len; i++)
		if (strcmp(map->keys[i]->str, key) == 0)
			return (long)i;
	return -1;
}

struct rs_node *rs_node_get(const struct rs_node *map, const char *key)
{
	long i = rs_node_find(map, key);

	return i < 0 ? NULL : map->items[i];
}

/* A replaced pair takes the new key too, so a diagnostic about the entry
 * points at whoever set it last (the scenario, not the model). */
void rs_node_put(struct rs_node *map, struct rs_node *key, struct rs_node *value)
{
	long i;

	RS_ASSERT(map->kind == RS_NODE_MAP && key && key->kind == RS_NODE_SCALAR);
	i = rs_node_find(map, key->str);
	if (i >= 0) {
		rs_node_free(map->keys[i]);
		rs_node_free(map->items[i]);
		map->keys[i] = key;
		map->items[i] = value;
		return;
	}
	grow(map);
	map->keys[map->len] = key;
	map->items[map->len] = value;
	map->len++;
}

void rs_node_remove(struct rs_node *map, const char *key)
{
	long i = rs_node_find(map, key);

	if (i < 0)
		return;
	rs_node_free(map->keys[i]);
	rs_node_free(map->items[i]);
	memmove(map->keys + i, map->keys + i + 1, (map->len - i - 1) * sizeof(*map->keys));
	memmove(map->items + i, map->items + i + 1, (map->len - i - 1) * sizeof(*map->items));
	map->len--;
}

/* "12" -> 12; anything else (sign, blank, too big) is not an index. */
static bool parse_index(const char *s, size_t len, size_t *out)
{
	size_t v = 0;

	if (len == 0 || len > 9)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (size_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

size_t rs_path_components(const char *path)
{
	size_t n = 1;

	for (const char *p = path; *p; p++)
		n += *p == '.';
	return n;
}

bool rs_path_valid(const char *path)
{
	const char *p = path;

	if (!path || !*path || rs_path_components(path) > RS_NODE_MAX_DEPTH)
		return false;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);

		if (n == 0)
			return false;
		if (!dot)
			return true;
		p = dot + 1;
	}
}

/* One step down: a map by key, a sequence by index. */
static struct rs_node *child(const struct rs_node *n, const char *comp, size_t len)
{
	size_t idx;

	if (n->kind == RS_NODE_MAP) {
		for (size_t i = 0; i < n->len; i++)
			if (strlen(n->keys[i]->str) == len &&
			    memcmp(n->keys[i]->str, comp, len) == 0)
				return n->items[i];
		return NULL;
	}
	if (n->kind == RS_NODE_SEQ && parse_index(comp, len, &idx) && idx < n->len)
		return n->items[idx];
	return NULL;
}

struct rs_node *rs_node_lookup(const struct rs_node *root, const char *path)
{
	const struct rs_node *n = root;
	const char *p = path;

	if (!root || !rs_path_valid(path))
		return NULL;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);

		n = child(n, p, len);
		if (!n || !dot)
			return (struct rs_node *)n;
		p = dot + 1;
	}
}

static const char *kind_name(const struct rs_node *n)
{
	switch (n->kind) {
	case RS_NODE_MAP:
		return "a mapping";
	case RS_NODE_SEQ:
		return "a sequence";
	default:
		return "a scalar";
	}
}

const char *rs_node_kind_name(const struct rs_node *n)
{
	return n ? kind_name(n) : "nothing";
}

/* Length of the path up to (not including) the dot before component p. */
static int prefix_len(const char *path, const char *p)
{
	return p == path ? 0 : (int)(p - path) - 1;
}

int rs_node_set_path(struct rs_node *root, const char *path, struct rs_node *value,
		     const struct rs_node *where, struct rs_diag *d)
{
	struct rs_node *n = root;
	const char *p = path;
	const struct rs_node *pos = where ? where : value;

	if (!root || !rs_path_valid(path)) {
		rs_diag_node(d, pos, "bad path '%s'", path ? path : "");
		rs_node_free(value);
		return -1;
	}
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		char *comp = strndup(p, len);
		struct rs_node *next;
		size_t idx;

		RS_ASSERT(comp);
		if (n->kind == RS_NODE_SEQ) {
			if (!parse_index(comp, len, &idx) || idx >= n->len) {
				rs_diag_node(d, pos, "cannot set '%s': '%s' is not an index of "
					     "the %zu-item sequence '%.*s'", path, comp,
					     n->len, prefix_len(path, p), path);
				free(comp);
				rs_node_free(value);
				return -1;
			}
			if (!dot) {
				rs_node_free(n->items[idx]);
				n->items[idx] = value;
				free(comp);
				return 0;
			}
			n = n->items[idx];
			free(comp);
		} else if (n->kind == RS_NODE_MAP) {
			struct rs_node *key;

			if (!dot) {
				key = rs_node_new_scalar(pos->file, pos->line, pos->col, comp);
				rs_node_put(n, key, value);
				free(comp);
				return 0;
			}
			next = rs_node_get(n, comp);
			if (!next) {
				key = rs_node_new_scalar(pos->file, pos->line, pos->col, comp);
				next = rs_node_new_map(pos->file, pos->line, pos->col);
				rs_node_put(n, key, next);
			}
			n = next;
			free(comp);
		} else {
			/* pos may be value itself: report before freeing. */
			if (p == path)
				rs_diag_node(d, pos, "cannot set '%s': the document "
					     "is not a mapping", path);
			else
				rs_diag_node(d, pos, "cannot set '%s': '%.*s' is a scalar, "
					     "not a mapping", path, prefix_len(path, p), path);
			free(comp);
			rs_node_free(value);
			return -1;
		}
		p = dot + 1;
	}
}

/* The keys of a map being merged into, hashed: a section of n keys laid
 * over a model looked each one up in a map that grew with every key,
 * n^2/2 comparisons (100,000 keys took minutes before the first unknown
 * one was reported). */
struct key_index {
	size_t *slot;                 /* index into the map's keys + 1; 0 empty */
	size_t mask;
};

static size_t key_hash(const char *s)
{
	uint64_t h = 1469598103934665603u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return (size_t)(h ^ h >> 32);
}

/* Room for every key the merge can end with. */
static void key_index_init(struct key_index *ix, const struct rs_node *map, size_t most)
{
	size_t cap = 16;

	while (cap < 2 * most)
		cap *= 2;
	ix->slot = xcalloc(cap, sizeof(*ix->slot));
	ix->mask = cap - 1;
	for (size_t i = 0; i < map->len; i++) {
		size_t h = key_hash(map->keys[i]->str) & ix->mask;

		while (ix->slot[h])
			h = (h + 1) & ix->mask;
		ix->slot[h] = i + 1;
	}
}

/* The index of key in map, or -1 and *free_slot where it would go. */
static long key_index_find(const struct key_index *ix, const struct rs_node *map,
			   const char *key, size_t *free_slot)
{
	size_t h = key_hash(key) & ix->mask;

	for (; ix->slot[h]; h = (h + 1) & ix->mask)
		if (strcmp(map->keys[ix->slot[h] - 1]->str, key) == 0)
			return (long)(ix->slot[h] - 1);
	*free_slot = h;
	return -1;
}

struct rs_node *rs_node_merge(const struct rs_node *base, const struct rs_node *over)
{
	struct rs_node *m;
	struct key_index ix;

	if (!base)
		return rs_node_clone(over);
	if (!over)
		return rs_node_clone(base);
	if (base->kind != RS_NODE_MAP || over->kind != RS_NODE_MAP)
		return rs_node_clone(over);
	m = rs_node_clone(base);
	/* The result stands for what the user wrote, so blame that. */
	m->file = over->file;
	m->line = over->line;
	m->col = over->col;
	key_index_init(&ix, m, m->len + over->len);
	for (size_t i = 0; i < over->len; i++) {
		size_t slot = 0;
		long at = key_index_find(&ix, m, over->keys[i]->str, &slot);
		const struct rs_node *old = at >= 0 ? m->items[at] : NULL;
		struct rs_node *v = rs_node_merge(old && old->kind == RS_NODE_MAP &&
						  over->items[i]->kind == RS_NODE_MAP ?
						  old : NULL, over->items[i]);
		struct rs_node *key = rs_node_clone(over->keys[i]);

		/* As rs_node_put: a replaced pair takes the new key too. */
		if (at >= 0) {
			rs_node_free(m->keys[at]);
			rs_node_free(m->items[at]);
			m->keys[at] = key;
			m->items[at] = v;
		} else {
			ix.slot[slot] = m->len + 1;
			rs_node_map_append(m, key, v);
		}
	}
	free(ix.slot);
	return m;
}

/* Flow values parsed from an argument count columns from the value, so
 * shift them to count from the start of the whole argument. */
static void shift_cols(struct rs_node *n, int by)
{
	if (n->line == 1)
		n->col += by;
	for (size_t i = 0; i < n->len; i++) {
		if (n->keys)
			shift_cols(n->keys[i], by);
		shift_cols(n->items[i], by);
	}
}

int rs_node_parse_assignment(const char *arg, char **path_out, struct rs_node **value_out,
			     struct rs_diag *d)
{
	const char *eq = strchr(arg, '=');
	const char *val;
	char *path;
	struct rs_node *v;

	*path_out = NULL;
	*value_out = NULL;
	if (!eq)
		return rs_diag_at(d, "--set", 0, 0, "expected KEY=VALUE, got '%s'", arg);
	if (eq == arg)
		return rs_diag_at(d, "--set", 1, 1, "empty key in '%s'", arg);
	val = eq + 1;
	if (!*val)
		return rs_diag_at(d, "--set", 1, (int)(val - arg) + 1,
				  "empty value in '%s'", arg);
	path = strndup(arg, (size_t)(eq - arg));
	RS_ASSERT(path);
	if (!rs_path_valid(path)) {
		rs_diag_at(d, "--set", 1, 1, "bad path '%s' in '%s'", path, arg);
		free(path);
		return -1;
	}
	if (*val == '[' || *val == '{') {
		v = rs_yaml_load_string("--set", val, strlen(val), d);
		if (!v) {
			/* Re-anchor the parser's column on the whole argument;
			 * "unexpected end" lands past the last line, so point at
			 * the end of the argument instead. */
			if (d->line == 1) {
				d->col += (int)(val - arg);
			} else if (d->line > 1 && !strchr(val, '\n')) {
				d->line = 1;
				d->col = (int)strlen(arg) + 1;
			}
			free(path);
			return -1;
		}
		shift_cols(v, (int)(val - arg));
	} else {
		v = rs_node_new_scalar("--set", 1, (int)(val - arg) + 1, val);
	}
	*path_out = path;
	*value_out = v;
	return 0;
}

int rs_node_expect_map(const struct rs_node *n, const char *what, struct rs_diag *d)
{
	if (!n)
		return rs_diag_at(d, NULL, 0, 0, "expected a mapping for %s", what);
	if (n->kind != RS_NODE_MAP)
		return rs_diag_node(d, n, "expected a mapping for %s, got %s", what,
				    kind_name(n));
	return 0;
}

const struct rs_node *rs_node_get_or(const struct rs_node *map, const char *key)
{
	const struct rs_node *n = rs_node_get(map, key);
	return n ? n : map;
}
