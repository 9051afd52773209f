#include "dev/build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/limits.h"
#include "config/units.h"
#include "kernel/assert.h"

static const char *const reserved_keys[] = { "type", "model", "description", NULL };

const struct rs_dev_type *rs_dev_types_find(const struct rs_dev_types *t, const char *name)
{
	for (size_t i = 0; i < t->ntypes; i++)
		if (strcmp(t->types[i]->name, name) == 0)
			return t->types[i];
	return NULL;
}

static int unknown_type(struct rs_build *b, const struct rs_node *type_node)
{
	size_t n = b->types->ntypes;
	const char *names[64];
	RS_ASSERT(n <= 64);
	for (size_t i = 0; i < n; i++)
		names[i] = b->types->types[i]->name;
	const char *near = rs_closest_name(type_node->str, names, n);
	if (near)
		return rs_diag_node(b->diag, type_node,
				    "unknown device type '%s' (did you mean '%s'?)",
				    type_node->str, near);
	return rs_diag_node(b->diag, type_node, "unknown device type '%s'", type_node->str);
}

/* ---- sizing a device before building it --------------------------------- */

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

struct tally {
	struct rs_build *b;
	uint64_t total;               /* devices so far (saturating) */
	uint64_t visits;              /* sections looked at: bounds the work */
	/* Where the total first went over the cap.  A position, not the
	 * node: that may be in a merged copy of a model, freed by then. */
	bool over;
	const char *tip_file;         /* interned */
	int tip_line, tip_col;
	bool cut;                     /* stopped early: total is a floor */
};

/* The type a section ends up with, following its models without copying
 * them; NULL when that is unclear (the build will say why). */
static const struct rs_dev_type *peek_type(const struct rs_dev_types *types,
					   const struct rs_model_path *mp,
					   const struct rs_node *section)
{
	for (uint64_t i = 0; section && i <= rs_limits()->model_depth; i++) {
		const struct rs_node *type = rs_node_get(section, "type");
		const struct rs_node *model = rs_node_get(section, "model");
		struct rs_diag quiet;

		if (type)
			return type->kind == RS_NODE_SCALAR ? rs_dev_types_find(types, type->str) :
							      NULL;
		if (!mp || !model || model->kind != RS_NODE_SCALAR)
			return NULL;
		rs_diag_init(&quiet);
		section = rs_model_peek(mp, model->str, model, &quiet);
	}
	return NULL;
}

static bool has_inner(const struct rs_dev_types *types, const struct rs_dev_type *type)
{
	const struct rs_inner_section *in = types->inner;

	for (size_t i = 0; type && i < types->ninner; i++)
		if (in[i].type == type)
			return true;
	return false;
}

/* A counted section's count as written, or 1 when it is not a plain
 * count (the build reports that). */
static uint64_t count_of(const struct rs_node *section)
{
	const struct rs_node *cn = rs_node_get(section, "count");
	const char *why;
	uint64_t n;

	if (!cn || cn->kind != RS_NODE_SCALAR || rs_parse_uint(cn->str, &n, &why) || n == 0)
		return 1;
	return n;
}

static int tally(struct tally *t, const struct rs_node *section, uint64_t times,
		 const struct rs_node *why, const struct rs_model_chain *chain);

static int tally_inner(struct tally *t, const struct rs_inner_section *in,
		       const struct rs_node *merged, uint64_t times,
		       const struct rs_model_chain *chain)
{
	const struct rs_node *child = rs_node_get(merged, in->key);

	if (!child)
		return 0;
	switch (in->shape) {
	case RS_INNER_ONE:
		return tally(t, child, times, child, chain);
	case RS_INNER_LIST:
		for (size_t i = 0; child->kind == RS_NODE_SEQ && i < child->len; i++)
			if (tally(t, child->items[i], times, child->items[i], chain))
				return -1;
		return 0;
	case RS_INNER_COUNTED:
		return tally(t, child, mul_sat(times, count_of(child)),
			     rs_node_get_or(child, "count"), chain);
	}
	RS_UNREACHABLE();
}

/* Adds `times` devices of `section` (and what is inside them) to the
 * total; `why` is blamed if that takes it over the cap. */
static int tally(struct tally *t, const struct rs_node *section, uint64_t times,
		 const struct rs_node *why, const struct rs_model_chain *chain)
{
	const struct rs_node *ref;
	const struct rs_dev_type *type;
	struct rs_model_chain step;
	struct rs_node *merged;
	struct rs_diag quiet;
	size_t n;
	const struct rs_inner_section *in;
	int rc = 0;

	if (!section || section->kind != RS_NODE_MAP)
		return 0;
	/* Past the cap, each further section only makes the total in the
	 * message exact: worth as much work as the cap allows, no more. */
	if (t->over && t->visits >= rs_limits()->devices) {
		t->cut = true;
		return 0;
	}
	t->visits++;
	ref = rs_node_get(section, "model");
	if (ref && ref->kind == RS_NODE_SCALAR) {
		if (rs_model_chain_check(chain, ref, "contains", t->b->diag))
			return -1;
		step = (struct rs_model_chain){ .ref = ref, .outer = chain };
		chain = &step;
	}
	t->total = add_sat(t->total, times);
	if (!t->over && t->total > rs_limits()->devices) {
		t->over = true;
		t->tip_file = why->file;
		t->tip_line = why->line;
		t->tip_col = why->col;
	}
	type = peek_type(t->b->types, t->b->models, section);
	if (!has_inner(t->b->types, type))
		return 0;
	rs_diag_init(&quiet);
	merged = rs_model_resolve(t->b->models, section, &quiet);
	if (!merged)
		return 0;
	in = t->b->types->inner;
	n = t->b->types->ninner;
	for (size_t i = 0; i < n && rc == 0; i++)
		if (in[i].type == type)
			rc = tally_inner(t, &in[i], merged, times, chain);
	rs_node_free(merged);
	return rc;
}

int rs_dev_count(struct rs_build *b, const struct rs_node *section, uint64_t *count,
		 bool *exact)
{
	struct tally t = { .b = b };

	RS_ASSERT(b->types != NULL);

	if (tally(&t, section, 1, section, b->chain))
		return -1;
	*count = t.total;
	*exact = !t.cut;
	return 0;
}

/* The whole device fits the cap devices, or d says where it goes over. */
static int check_size(struct rs_build *b, const struct rs_node *section, const char *what,
		      const struct rs_model_chain *chain)
{
	struct tally t = { .b = b };
	uint64_t cap = rs_limits()->devices;

	if (tally(&t, section, 1, section, chain))
		return -1;
	if (!t.over)
		return 0;
	return rs_diag_at(b->diag, t.tip_file, t.tip_line, t.tip_col, "%s builds %s%llu devices, more than the cap "
			    "devices=%llu (raise it with --limit devices=N)", what,
			    t.cut ? "at least " : t.total == UINT64_MAX ? "over " : "",
			    (unsigned long long)t.total, (unsigned long long)cap);
}

/* ---- building ----------------------------------------------------------- */

static struct rs_dev *build(struct rs_build *b, const struct rs_node *section,
			    const char *what, const char *name)
{
	struct rs_node *merged = rs_model_resolve(b->models, section, b->diag);
	if (!merged)
		return NULL;
	struct rs_dev *dev = NULL;
	const struct rs_node *type_node = rs_node_get(merged, "type");
	if (!type_node) {
		rs_diag_node(b->diag, section, "missing 'type' or 'model' in %s", what);
		goto out;
	}
	if (type_node->kind != RS_NODE_SCALAR) {
		rs_diag_node(b->diag, type_node, "expected a device type name for 'type'");
		goto out;
	}
	const struct rs_dev_type *type = rs_dev_types_find(b->types, type_node->str);
	if (!type) {
		unknown_type(b, type_node);
		goto out;
	}
	void *params = calloc(1, type->params_size ? type->params_size : 1);
	RS_ASSERT(params != NULL);
	if (rs_schema_bind(type->opts, merged, params, section, what, reserved_keys,
			   b->diag) != 0) {
		free(params);
		goto out;
	}
	dev = calloc(1, sizeof(*dev));
	RS_ASSERT(dev != NULL);
	dev->type = type;
	dev->name = strdup(name);
	dev->params = params;
	rs_tavg_init(&dev->inflight, b->sim ? rs_now(b->sim) : 0, 0);
	if (type->init(b->sim, dev, params, merged, b, b->diag) != 0) {
		rs_dev_destroy(dev);
		dev = NULL;
	}
out:
	/* Params may point into the merged tree (strings, nodes): it lives as
	 * long as the device, so hang it on the device. */
	if (dev) {
		dev->tree = merged;
	} else {
		rs_node_free(merged);
	}
	return dev;
}

struct rs_dev *rs_dev_build(struct rs_build *b, const struct rs_node *section,
			    const char *what, const char *name)
{
	if (section->kind != RS_NODE_MAP) {
		rs_diag_node(b->diag, section, "expected a mapping for %s", what);
		return NULL;
	}
	RS_ASSERT(b->types != NULL);
	const struct rs_model_chain *outer = b->chain;
	if (b->nesting == 0 && check_size(b, section, what, outer) != 0)
		return NULL;
	/* Sized, so free of loops as far as the registry's inner sections
	 * go; the chain catches one through any other way in. */
	struct rs_model_chain step;
	const struct rs_node *ref = rs_node_get(section, "model");
	if (ref && ref->kind == RS_NODE_SCALAR) {
		if (rs_model_chain_check(outer, ref, "contains", b->diag))
			return NULL;
		step = (struct rs_model_chain){ .ref = ref, .outer = outer };
		b->chain = &step;
	}
	b->nesting++;
	struct rs_dev *dev = build(b, section, what, name);
	b->nesting--;
	b->chain = outer;
	return dev;
}

struct rs_dev *rs_dev_build_member(struct rs_build *b, const struct rs_node *section,
				   const char *what, size_t index)
{
	char name[64];
	snprintf(name, sizeof(name), "%s%zu", what, index);
	rs_member_hook *hook = b->member_hook;
	b->member_hook = NULL;
	struct rs_dev *dev = rs_dev_build(b, section, what, name);
	b->member_hook = hook;
	if (!dev || !hook)
		return dev;
	struct rs_dev *wrapped = hook(b, dev, index, b->member_ctx);
	if (!wrapped)
		rs_dev_destroy(dev);
	return wrapped;
}
