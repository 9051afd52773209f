/* Assembling the device tree: the module above every device type, and the
 * only one that names them all (src/layers.txt).  Whoever builds devices
 * from a scenario or a model hands this set to the build (struct rs_build
 * in dev/build.h); the device modules below see only the types they are
 * given. */
#ifndef RS_TREE_TREE_H
#define RS_TREE_TREE_H

#include "dev/dev.h"

/* Every device type raidsim has, and where each builds devices inside it. */
const struct rs_dev_types *rs_tree_types(void);

#endif
