/* Building devices from YAML sections.
 *
 * A section is either inline (`type: ideal` plus fields) or names a model
 * (`model: quantum-atlas-10k` plus overrides); the model file is merged
 * under the section field by field, then bound through the type's schema. */
#ifndef RS_DEV_BUILD_H
#define RS_DEV_BUILD_H

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
	const struct rs_model_path *models;
	struct rs_diag *diag;
	rs_member_hook *member_hook;  /* NULL: members are used as built */
	void *member_ctx;
	/* Only checking the input (every sweep point is checked before any
	 * runs): a device may skip building large state it would only free
	 * again, as long as it reports its capacity and columns. */
	bool check_only;
};

/* Build the device a section describes; `what` names the section in
 * messages ("device", "array.disks").  NULL on error (diag set). */
struct rs_dev *rs_dev_build(struct rs_build *b, const struct rs_node *section,
			    const char *what, const char *name);

/* For composite devices: build member `index` from its section, then pass
 * it through the member hook, if any.  The hook is cleared while the member
 * itself is built, so members of members are not wrapped twice. */
struct rs_dev *rs_dev_build_member(struct rs_build *b, const struct rs_node *section,
				   const char *what, size_t index);

#endif
