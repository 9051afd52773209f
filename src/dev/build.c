#include "dev/build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

static const char *const reserved_keys[] = { "type", "model", "description", NULL };

static int unknown_type(struct rs_build *b, const struct rs_node *type_node)
{
	size_t n = rs_dev_type_count();
	const char *names[64];
	RS_ASSERT(n <= 64);
	for (size_t i = 0; i < n; i++)
		names[i] = rs_dev_type_at(i)->name;
	const char *near = rs_closest_name(type_node->str, names, n);
	if (near)
		return rs_diag_node(b->diag, type_node,
				    "unknown device type '%s' (did you mean '%s'?)",
				    type_node->str, near);
	return rs_diag_node(b->diag, type_node, "unknown device type '%s'", type_node->str);
}

struct rs_dev *rs_dev_build(struct rs_build *b, const struct rs_node *section,
			    const char *what, const char *name)
{
	if (section->kind != RS_NODE_MAP) {
		rs_diag_node(b->diag, section, "expected a mapping for %s", what);
		return NULL;
	}
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
	const struct rs_dev_type *type = rs_dev_type_find(type_node->str);
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
