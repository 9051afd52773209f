/* Per-point results on disk, so a long sweep survives an interruption.
 *
 * Each finished point is one file DIR/NAME.points/<index> holding its
 * row of formatted cells (whatever columns the table has), written to a
 * temporary name and renamed into place: a point file is either complete
 * or absent, never half a row.  A file `scenario` in the same folder holds
 * a fingerprint of the scenario (after --set) and the point count, so
 * --resume never mixes results of two different scenarios. */
#ifndef RS_RUN_POINTS_H
#define RS_RUN_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/scenario.h"

struct rs_points {
	char dir[4096];
	size_t npoints;
};

/* A hash of everything that decides a point's row: the scenario tree,
 * the point count and the table's columns. */
uint64_t rs_scenario_fingerprint(const struct rs_scenario *sc);

/* Open DIR/NAME.points (tag distinguishes shards: "" or ".shard-K-of-N").
 * Fresh (resume false): any earlier point files there are removed.
 * resume: rows[i] is set (malloc'd) for every point already saved and
 * *found counts them; stale temporary files are removed.  Returns 0, -1
 * on a system error, -2 when the saved points belong to another scenario
 * (message printed either way). */
int rs_points_open(struct rs_points *ps, const char *out_dir, const char *name,
		   uint64_t fingerprint, size_t npoints, bool resume, char **rows,
		   size_t *found);
/* Save point i's row (tmp file, then rename).  0 or -1 (message printed). */
int rs_points_save(const struct rs_points *ps, size_t i, const char *row);
/* Remove the folder once the table holding every point is written. */
void rs_points_remove(const struct rs_points *ps);

#endif
