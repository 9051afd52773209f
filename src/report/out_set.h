/* Result files replaced as a set.  A run or a merge writes every file of
 * its result (NAME.tsv, .json, .gp, .png, the per-point series and request
 * logs, a shard file) into a staging folder beside the output folder's
 * files, and only once every one is complete moves them into the output
 * folder, one rename each.  A failure on the way (a full disk) leaves the
 * earlier set as it was instead of a new TSV beside an old JSON.  Files
 * named like members of NAME's set that the new set does not hold (a PNG
 * of an earlier --plot run, series of points that no longer exist) are
 * removed after the move, so the folder never shows two runs at once. */
#ifndef RS_REPORT_OUT_SET_H
#define RS_REPORT_OUT_SET_H

#include <stdbool.h>

#include "report/report.h"

/* Kinds of member files, for rs_out_member(). */
enum {
	RS_OUT_TABLE = 1,             /* NAME.tsv .json .gp .png .components.tsv */
	RS_OUT_POINT_FILES = 2,       /* NAME.series.N.tsv .gp .png, NAME.requests.N.csv */
};

/* Whether file (a name in a folder) is one of NAME's members of the kinds. */
bool rs_out_member(const char *name, const char *file, unsigned kinds);

/* Whether file is a temporary ("...tmp.<digits>") a writer left behind. */
bool rs_out_temporary(const char *file);

/* Move every file of stage into dir (last_file, if given and present,
 * last of all, so whoever waits for it finds the rest in place), then
 * remove dir's members of the prune kinds that stage did not hold.
 * Temporaries in stage are removed, not moved; staging-only files stay.  0, or -1 with err set
 * ("PATH: reason"). */
int rs_out_set_commit(const char *stage, const char *dir, const char *name,
		      const char *last_file, unsigned prune, struct rs_report_err *err);

/* Make an empty staging folder: create it (its parent must exist) or
 * empty what a killed writer left in it.  0, or -1 with errno. */
int rs_out_stage_begin(const char *stage);
/* Empty the staging folder and remove it. */
void rs_out_stage_end(const char *stage);

/* Remove from stage NAME's members of the kinds and every temporary. */
void rs_out_set_discard(const char *stage, const char *name, unsigned kinds);

#endif
