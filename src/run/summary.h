/* What a run prints on stdout once its files are written (fio's normal
 * and terse outputs): --output-format=normal,terse,tsv,json.
 *
 * normal: one line per point, or the best and worst points by IOPS when
 *   there are more than RS_SUMMARY_ALL points: IOPS, MB/s, mean and p99
 *   latency, and what limited it (run/components.h).
 * terse: one line per point, fields separated by ';':
 *   raidsim;1;NAME;POINT;AXIS=V,...;iops;mb_s;lat_mean_ms;lat_p99_ms;limited_by
 * tsv, json: the table as written to NAME.tsv and NAME.json. */
#ifndef RS_RUN_SUMMARY_H
#define RS_RUN_SUMMARY_H

#include <stddef.h>

#include "report/table.h"

enum {
	RS_FMT_NORMAL = 1,
	RS_FMT_TERSE = 2,
	RS_FMT_TSV = 4,
	RS_FMT_JSON = 8,
};

/* Up to this many points, normal lists them all. */
#define RS_SUMMARY_ALL 12

/* "normal,terse" into RS_FMT_* bits.  0, or -1 with why set. */
int rs_output_formats_parse(const char *arg, unsigned *formats, char *why, size_t n);

/* Print t as the formats ask; out_dir/name.tsv and .json are copied for
 * tsv and json. */
void rs_summary_print(const struct rs_table *t, const char *name, const char *out_dir,
		      unsigned formats);

#endif
