/* Where the time of each point went: the parts of the device tree
 * (dev/dev.h rs_dev_components), the "limited by" verdict drawn from
 * them, and NAME.components.tsv.
 *
 * A worker saves each point's parts to NAME.components.<point>.part in
 * the staging folder as the point finishes (so --resume keeps them); when
 * the set is written they are gathered into one table, one row per point
 * and part, keyed by the sweep's axes.  Part files are staging-only
 * (report/out_set.h): they stay with the saved points, so a set that
 * could not be written still has them for --resume. */
#ifndef RS_RUN_COMPONENTS_H
#define RS_RUN_COMPONENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "dev/dev.h"
#include "report/table.h"
#include "run/scenario.h"

/* A part is the limit when it is busier than this fraction of the time. */
#define RS_LIMIT_UTILISATION 0.9
/* The verdict when no part is that busy. */
#define RS_LIMITED_BY_WORKLOAD "workload (latency-bound)"
/* The last column of the main table. */
#define RS_LIMITED_BY_COL "limited_by"

/* The busiest part above RS_LIMIT_UTILISATION (the first in tree order
 * among equals; arrays and other composites sum up their parts and are
 * never the limit themselves), or RS_LIMITED_BY_WORKLOAD. */
const char *rs_limited_by(const struct rs_components *c);

/* The part columns of NAME.components.tsv, after the axes; NULL ends. */
extern const char *const rs_component_cols[];

/* Save point i's parts into dir.  0 or -1 (message printed). */
int rs_components_save(const char *dir, const char *out_name, size_t i,
		       const struct rs_components *c);

/* Whether point i's parts are saved in dir (every finished first run of a
 * point saves them, even an empty list). */
bool rs_components_saved(const char *dir, const char *out_name, size_t i);

/* The parts table of the rows of t (their points point_of_row[]): t's
 * axis columns, then component, kind, utilisation, ops_s, time_ms,
 * service_ms, queue_ms.  row_of[k] receives the row of t that parts row k
 * belongs to (allocated; free it).  A point without a part file has no
 * rows.  0, or -1 with a message printed. */
int rs_components_gather(const char *dir, const char *out_name, const struct rs_table *t,
			 const size_t *point_of_row, struct rs_table *parts, size_t **row_of);


#endif
