/* Building devices from YAML sections.
 *
 * A section is either inline (`type: ideal` plus fields) or names a model
 * (`model: quantum-atlas-10k` plus overrides); the model file is merged
 * under the section field by field, then bound through the type's schema. */
#ifndef RS_DEV_BUILD_H
#define RS_DEV_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "dev/dev.h"
#include "kernel/sim.h"

struct rs_build;

/* Called for each member a composite device builds (a disk of an array):
 * may return a wrapper that stands in front of it (a controller's port,
 * with its queue and the buses the data crosses), or the disk itself.
 * NULL = error (diag set). */
typedef struct rs_dev *rs_member_hook(struct rs_build *b, struct rs_dev *member, size_t index,
				      void *ctx);

struct rs_build {
	struct rs_sim *sim;
	/* The device types this build may make (required): raidsim's set
	 * (rs_tree_types in tree/tree.h), or a test's own. */
	const struct rs_dev_types *types;
	const struct rs_model_path *models;
	struct rs_diag *diag;
	rs_member_hook *member_hook;  /* NULL: members are used as built */
	void *member_ctx;
	/* Only checking the input (every sweep point is checked before any
	 * runs): a device may skip building large state it would only free
	 * again, as long as it reports its capacity and columns. */
	bool check_only;
	/* Kept by rs_dev_build (zero them with the rest): the models the
	 * device being built is inside of, so that one containing itself is
	 * refused instead of recursing, and how deep builds are nested (the
	 * outermost one first checks the size of the whole device). */
	const struct rs_model_chain *chain;
	unsigned nesting;
};

/* Where a device type keeps the sections of the devices inside it, for
 * sizing a device before building it (listed beside the types, in struct
 * rs_dev_types).  A counted section (an array's `disks`) stands for
 * `count` devices; a list holds one section per device. */
enum rs_inner_shape { RS_INNER_ONE, RS_INNER_LIST, RS_INNER_COUNTED };
struct rs_inner_section {
	const struct rs_dev_type *type;
	const char *key;
	enum rs_inner_shape shape;
};

/* How many devices `section` builds (itself and everything inside it, each
 * counted section multiplied out), without building any: 0 with *count
 * set; -1 with d filled for a model that contains itself or models nested
 * deeper than the cap model_depth.  Sections the build would refuse count
 * as one device; the build says what is wrong with them.  The walk stops
 * early once it is far past the cap devices, with *count a floor and
 * *exact false. */
int rs_dev_count(struct rs_build *b, const struct rs_node *section, uint64_t *count,
		 bool *exact);

/* Build the device a section describes; `what` names the section in
 * messages ("device", "array.disks").  NULL on error (diag set).  The
 * outermost build first counts the devices the section makes (see
 * rs_dev_count) and refuses more than the cap devices, before anything
 * is allocated. */
struct rs_dev *rs_dev_build(struct rs_build *b, const struct rs_node *section,
			    const char *what, const char *name);

/* For composite devices: build member `index` from its section, then pass
 * it through the member hook, if any.  The hook is cleared while the member
 * itself is built, so members of members are not wrapped twice. */
struct rs_dev *rs_dev_build_member(struct rs_build *b, const struct rs_node *section,
				   const char *what, size_t index);

#endif
