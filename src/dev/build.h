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

struct rs_build {
	struct rs_sim *sim;
	const struct rs_model_path *models;
	struct rs_diag *diag;
};

/* Build the device a section describes; `what` names the section in
 * messages ("device", "array.disks").  NULL on error (diag set). */
struct rs_dev *rs_dev_build(struct rs_build *b, const struct rs_node *section,
			    const char *what, const char *name);

#endif
