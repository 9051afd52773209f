/* A study's own numbers beside the simulated ones: FOLDER/measured.tsv.
 *
 * One line per number the study publishes, tab-separated, '#' starts a
 * comment line:
 *
 *   table  point  metric  value  unit  source
 *
 * `table` is a table the study's run.sh writes into its output folder, by
 * its path there (write.tsv, raw/raid1/database.tsv, or a time series
 * NAME.series.K.tsv); the scenario behind it is FOLDER/NAME.yaml.  It may
 * be `NUM.tsv / DEN.tsv`: the ratio of the same point in two tables.
 * `point` is blank-separated COLUMN=VALUE pairs naming sweep axes of that
 * scenario (t_s, the end of a second, for a time series) and values as the
 * table writes them; one pair may be COLUMN=A/B, the ratio of the point at
 * A to the point at B, everything else the same.  `metric` is a result
 * column: COLUMN (the point must then name every axis: one row), or
 * max(COLUMN) / min(COLUMN) over the rows the point selects.  `value` is
 * the study's number (not zero: the error is simulated / measured - 1).
 *
 * The file is checked against the scenarios before anything runs
 * (rs_measured_read, rs_measured_check); once run.sh has written its
 * tables, rs_measured_eval finds the simulated values. */
#ifndef RS_RUN_MEASURED_H
#define RS_RUN_MEASURED_H

#include <stdbool.h>
#include <stddef.h>

#include "config/diag.h"
#include "config/models.h"

enum rs_measured_pick { RS_PICK_ONE, RS_PICK_MAX, RS_PICK_MIN };

struct rs_measured_pair {
	char *col;
	char *val, *den;              /* den: the ratio's other value, or NULL */
	int offset;                   /* where it starts in the point's column */
};

struct rs_measured_row {
	int line;
	char *table_text, *point_text, *metric_text;   /* as written */
	char *table, *den_table;      /* den_table: NULL unless a ratio of tables */
	struct rs_measured_pair *pairs;
	size_t npairs;
	enum rs_measured_pick pick;
	char *metric;                 /* the column */
	double value;
	char *value_text;             /* as written: shown as the study prints it */
	char *unit, *source;
	/* From the scenario (rs_measured_check): its axis columns. */
	char **axes;
	size_t naxes;
	/* rs_measured_eval: */
	bool have_sim;
	double sim;
	char *why;                    /* no simulated value: why */
};

struct rs_measured {
	char *path;
	struct rs_measured_row *rows;
	size_t n;
};

/* Read and parse (columns, numbers, the forms above).  0, or -1 with d
 * set at the offending line and column. */
int rs_measured_read(const char *path, struct rs_measured *m, struct rs_diag *d);
/* Every key against its scenario in folder (models from mp): the table's
 * scenario exists and loads, the point's columns are its axes and their
 * values its values, the metric one of its table's columns.  Nothing runs.
 * 0, or -1 with d set. */
int rs_measured_check(struct rs_measured *m, const char *folder,
		      const struct rs_model_path *mp, struct rs_diag *d);
void rs_measured_free(struct rs_measured *m);

/* Fill each row's simulated value from the tables under study_dir (a row
 * whose table or point is missing gets `why`).  Returns how many rows have
 * no simulated value. */
size_t rs_measured_eval(struct rs_measured *m, const char *study_dir);

/* The error in % with one decimal ("-4.2"; never "-0.0"). */
void rs_measured_error_text(char *buf, size_t n, const struct rs_measured_row *r);

struct rs_measured_summary {
	size_t n;                     /* rows with a simulated value */
	double median_abs, max_abs;   /* of |error|, as fractions */
};
void rs_measured_summarize(const struct rs_measured *m, struct rs_measured_summary *s);

/* DIR/<study>/errors.tsv: a header row, then one row per measured number:
 * table, point, metric, measured, simulated, error_pct, unit, source
 * (simulated and error_pct empty where there is no simulated value).
 * 0, or -1 with errno set. */
int rs_measured_write_errors(const struct rs_measured *m, const char *path);

#endif
