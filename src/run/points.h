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

/* Longest row a point file may hold; a longer file is damaged. */
#define RS_POINT_ROW_MAX 16384

struct rs_points {
	char dir[4096];
	/* DIR/NAME.points/out: the staging folder of the result set
	 * (report/out_set.h).  Per-point files (series, request logs) are
	 * written here as their points finish, kept by --resume with the
	 * points, and moved into DIR with the table at the end. */
	char out[4200];
	size_t npoints;
	size_t ncells;                /* cells of a row */
};

/* A hash of everything that decides a point's row: the scenario tree,
 * the point count, the table's columns and the runs per point.  With
 * --repeat N the saved "points" are the runs: index i * N + r is run r of
 * point i. */
uint64_t rs_scenario_fingerprint(const struct rs_scenario *sc);

/* Open DIR/NAME.points (name is the result name, or "NAME.shard-K-of-N").
 * Fresh (resume false): any earlier point files and staged files there are
 * removed.  resume: rows[i] is set (malloc'd) for every point already
 * saved and *found counts them; stale temporary files are removed.  A
 * point file that is not one line of ncells TAB-separated printable cells
 * is damaged: a warning names it, and it is removed so the point runs
 * again.  Returns 0, -1 on a system error, -2 when the saved points
 * belong to another scenario (message printed either way). */
int rs_points_open(struct rs_points *ps, const char *out_dir, const char *name,
		   uint64_t fingerprint, size_t npoints, size_t ncells, bool resume,
		   char **rows, size_t *found);
/* Remove the temporary files of points that were stopped half-way. */
void rs_points_discard_partial(const struct rs_points *ps);
/* Save point i's row (tmp file, then rename).  0 or -1 (message printed). */
int rs_points_save(const struct rs_points *ps, size_t i, const char *row);
/* Remove the folder (and its staging folder, by then empty or holding
 * only what a failed write left) once the result set is in place. */
void rs_points_remove(const struct rs_points *ps);

#endif
