/* `raidsim import disksim`: a DiskSim 4.0 set-up (a .parv and the
 * .diskspecs, .model and .seek files it loads) as a raidsim `hdd` model.
 *
 * Every DiskSim parameter the set-up states is accounted for, in one of
 * three ways (the rule tables of dsim_hdd*.c, each beside the code that
 * translates its blocks):
 *   - translated into a model key, whose line carries a comment naming
 *     its source "file:line" and DiskSim's name for it;
 *   - accepted only with the value raidsim's own rule has (a flag whose
 *     other value would need a mechanism raidsim does not have): any other
 *     value is refused;
 *   - ignored because it cannot change a drive's timing (statistics, the
 *     synthetic workload, host-side set-up): listed in a comment that says
 *     why.
 * Anything else -- an unknown parameter, a value raidsim cannot express --
 * is refused with "file:line:col: error: ..." at that value.  The model is
 * written only when the whole set-up is accepted. */
#ifndef RS_IMPORT_DSIM_HDD_H
#define RS_IMPORT_DSIM_HDD_H

#include <stdio.h>

#include "config/diag.h"

/* Read the set-up at `parv` and write the model to `out`.  0, or -1 with d
 * set and nothing written. */
int rs_import_disksim(const char *parv, FILE *out, struct rs_diag *d);

#endif
