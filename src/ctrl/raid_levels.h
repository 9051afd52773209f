/* The RAID levels a controller model offers (`raid_levels:`), and the
 * check that the array behind it asks for one of them: a TX4200 has no
 * RAID5, whatever the simulator could build. */
#ifndef RS_CTRL_RAID_LEVELS_H
#define RS_CTRL_RAID_LEVELS_H

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"

/* `levels` is the controller's raid_levels value (NULL: the model lists
 * none and every level is accepted), `source` its raid_levels_source
 * (may be NULL), `array` the controller's array section.  Refuses, at
 * the array's `level:`, a level the list lacks, and a list that is not a
 * sequence of known levels.  A level the array itself refuses (unknown,
 * missing) is left to the array.  0 or -1 with d filled. */
int rs_ctrl_check_raid_level(const struct rs_model_path *mp, const struct rs_node *levels,
			     const char *source, const struct rs_node *array,
			     struct rs_diag *d);

#endif
