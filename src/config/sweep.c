/* Expanding a sweep into scenario points. */
#define _POSIX_C_SOURCE 200809L   /* strdup */

#include "config/sweep.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/limits.h"
#include "kernel/assert.h"

/* "a.b" overlaps "a.b.c" (and itself): setting one would clobber or be
 * clobbered by the other depending on order. */
static bool overlaps(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;

	return strncmp(a, b, n) == 0 && (la == lb || (la < lb ? b[n] : a[n]) == '.');
}

/* a * b, or UINT64_MAX when that overflows: a sweep's size is only ever
 * compared with a cap, so "too many" is all an overflow needs to say. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static int too_many_values(const struct rs_node *key, const struct rs_node *vals,
			   struct rs_diag *d)
{
	return rs_diag_node(d, key, "sweep axis '%s' has %zu values, more than the cap "
			    "sweep_values=%llu (raise it with --limit sweep_values=N)",
			    key->str, vals->len,
			    (unsigned long long)rs_limits()->sweep_values);
}

/* Blames the axis that takes the sweep over the cap, and gives the whole
 * sweep's size (the axes after it included) so the user sees how far. */
static int too_many_points(const struct rs_node *sweep_node, size_t tip, uint64_t points,
			   struct rs_diag *d)
{
	for (size_t i = tip + 1; i < sweep_node->len; i++) {
		const struct rs_node *vals = sweep_node->items[i];

		if (vals->kind == RS_NODE_SEQ && vals->len)
			points = mul_sat(points, vals->len);
	}
	return rs_diag_node(d, sweep_node->keys[tip], "sweep has %s%llu points, more than the "
			    "cap sweep_points=%llu (raise it with --limit sweep_points=N)",
			    points == UINT64_MAX ? "over " : "", (unsigned long long)points,
			    (unsigned long long)rs_limits()->sweep_points);
}

static int check_path(const struct rs_node *key, struct rs_diag *d)
{
	size_t parts = rs_path_components(key->str);

	if (parts > RS_NODE_MAX_DEPTH)
		return rs_diag_node(d, key, "sweep axis path has %zu components, more than "
				    "%d (deeper than a scenario can nest)", parts,
				    RS_NODE_MAX_DEPTH);
	if (!rs_path_valid(key->str))
		return rs_diag_node(d, key, "bad sweep axis path '%.200s'", key->str);
	if (overlaps(key->str, "sweep"))
		return rs_diag_node(d, key, "sweep axis '%.200s' cannot change the sweep itself",
				    key->str);
	return 0;
}

int rs_sweep_parse(const struct rs_node *sweep_node, struct rs_sweep *out, struct rs_diag *d)
{
	uint64_t points = 1;

	memset(out, 0, sizeof(*out));
	if (!sweep_node)
		return 0;
	if (sweep_node->kind != RS_NODE_MAP)
		return rs_diag_node(d, sweep_node, "expected a mapping for sweep, got %s",
				    rs_node_kind_name(sweep_node));
	out->axes = calloc(sweep_node->len ? sweep_node->len : 1, sizeof(*out->axes));
	RS_ASSERT(out->axes);
	for (size_t i = 0; i < sweep_node->len; i++) {
		const struct rs_node *key = sweep_node->keys[i], *vals = sweep_node->items[i];
		struct rs_sweep_axis *ax;

		if (out->naxes == RS_SWEEP_MAX_AXES) {
			rs_diag_node(d, key, "sweep has too many axes (at most %d)",
				     RS_SWEEP_MAX_AXES);
			goto fail;
		}
		if (check_path(key, d))
			goto fail;
		for (size_t k = 0; k < out->naxes; k++) {
			if (overlaps(key->str, out->axes[k].path)) {
				rs_diag_node(d, key, "sweep axis '%s' overlaps axis '%s' (line %d)",
					     key->str, out->axes[k].path, out->axes[k].key->line);
				goto fail;
			}
		}
		if (vals->kind != RS_NODE_SEQ) {
			rs_diag_node(d, vals, "sweep axis '%s' must be a sequence of values, got %s",
				     key->str, rs_node_kind_name(vals));
			goto fail;
		}
		if (vals->len == 0) {
			rs_diag_node(d, vals, "sweep axis '%s' has no values", key->str);
			goto fail;
		}
		if (vals->len > rs_limits()->sweep_values) {
			too_many_values(key, vals, d);
			goto fail;
		}
		points = mul_sat(points, vals->len);
		if (points > rs_limits()->sweep_points) {
			too_many_points(sweep_node, i, points, d);
			goto fail;
		}
		ax = &out->axes[out->naxes++];
		ax->path = strdup(key->str);
		RS_ASSERT(ax->path);
		ax->key = key;
		ax->count = vals->len;
		ax->values = (const struct rs_node **)vals->items;
	}
	return 0;
fail:
	rs_sweep_free(out);
	return -1;
}

size_t rs_sweep_points(const struct rs_sweep *sw)
{
	size_t n = 1;

	for (size_t i = 0; i < sw->naxes; i++)
		n *= sw->axes[i].count;
	return n;
}

void rs_sweep_point_indices(const struct rs_sweep *sw, size_t point, size_t *idx_per_axis)
{
	/* Row-major: peel the fastest (last) axis first. */
	for (size_t i = sw->naxes; i-- > 0;) {
		idx_per_axis[i] = point % sw->axes[i].count;
		point /= sw->axes[i].count;
	}
}

/* Every point is built (and checked) from the root, so cloning the sweep
 * with it would make checking an axis of N values take N^2 steps. */
static struct rs_node *clone_without_sweep(const struct rs_node *root)
{
	struct rs_node *n = rs_node_new_map(root->file, root->line, root->col);

	for (size_t i = 0; i < root->len; i++)
		if (strcmp(root->keys[i]->str, "sweep") != 0)
			rs_node_map_append(n, rs_node_clone(root->keys[i]),
					   rs_node_clone(root->items[i]));
	return n;
}

struct rs_node *rs_sweep_apply(const struct rs_sweep *sw, const struct rs_node *root,
			       size_t point, struct rs_diag *d)
{
	struct rs_node *n;

	if (point >= rs_sweep_points(sw)) {
		rs_diag_at(d, root ? root->file : NULL, 0, 0,
			   "sweep point %zu out of range (%zu points)", point,
			   rs_sweep_points(sw));
		return NULL;
	}
	if (!root || root->kind != RS_NODE_MAP) {
		rs_diag_node(d, root, "expected a mapping for scenario, got %s",
			     rs_node_kind_name(root));
		return NULL;
	}
	n = clone_without_sweep(root);
	for (size_t i = sw->naxes; i-- > 0;) {
		const struct rs_sweep_axis *ax = &sw->axes[i];
		size_t k = point % ax->count;

		point /= ax->count;
		/* New keys along the path blame the axis key; the value keeps
		 * its own place in the list. */
		if (rs_node_set_path(n, ax->path, rs_node_clone(ax->values[k]), ax->key, d)) {
			rs_node_free(n);
			return NULL;
		}
	}
	return n;
}

void rs_sweep_free(struct rs_sweep *sw)
{
	for (size_t i = 0; i < sw->naxes; i++)
		free(sw->axes[i].path);
	free(sw->axes);
	memset(sw, 0, sizeof(*sw));
}
