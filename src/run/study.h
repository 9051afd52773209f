/* One study of the reproduce manifest and what running it gave. */
#ifndef RS_RUN_STUDY_H
#define RS_RUN_STUDY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "run/measured.h"

struct rs_figure {
	char *file;                   /* PNG name inside the study's folder */
	char *caption;
};

struct rs_finding_row {
	char *id, *status, *measured, *study;
	char *basis;                  /* from the study's ledger; "" when it has none */
};

/* ---- the findings ledger: FOLDER/ledger.tsv ------------------------------
 * Every finding of a study has a class.  Only a prediction -- nothing in
 * the models or the scenarios was set from this study's numbers or words
 * for it -- can be reproduced; the others are reported under their class
 * whatever their criterion gives:
 *   calibration     a parameter was solved or chosen from the finding's data
 *   configuration   a setting was chosen from the finding's own words
 *   not testable    the finding's experiment cannot be run
 * One line per finding, tab-separated, '#' starts a comment line:
 *   id  class  expected  seeds  basis  why
 * `expected` is what the criterion gives: "holds" (at every seed) or
 * "fails"; `seeds` how many seeds the experiment runs at (>= 5); `basis`
 * names the parameter, data or setting behind a class other than
 * prediction ("-" for a prediction with nothing to say); `why` explains
 * the expected outcome. */
enum rs_finding_class {
	RS_CLASS_PREDICTION,
	RS_CLASS_CALIBRATION,
	RS_CLASS_CONFIGURATION,
	RS_CLASS_NOT_TESTABLE,
	RS_NCLASSES
};

struct rs_ledger_row {
	char *id;
	enum rs_finding_class cls;
	bool expect_holds;
	unsigned seeds;
	char *basis, *why;
};

struct rs_ledger {
	struct rs_ledger_row *rows;
	size_t n;
};

#define RS_LEDGER_MIN_SEEDS 5
#define RS_LEDGER_MAX_SEEDS 64

/* Read a ledger.  0, or -1 with "path:line: what was expected" in err. */
int rs_ledger_read(const char *path, struct rs_ledger *l, char *err, size_t errn);
void rs_ledger_free(struct rs_ledger *l);
const struct rs_ledger_row *rs_ledger_find(const struct rs_ledger *l, const char *id);

const char *rs_class_name(enum rs_finding_class c);
/* The class a findings-tsv status stands for ("reproduced" and "not
 * reproduced" are a prediction's); 0, or -1 for an unknown status. */
int rs_status_class(const char *status, enum rs_finding_class *c);
/* A finding's status after its experiment ran at `seeds` seeds and its
 * criterion held at `held` of them: a prediction is "reproduced" only when
 * it held at every seed; any other class is reported as its class name. */
const char *rs_finding_status(enum rs_finding_class c, unsigned held, unsigned seeds);

/* Findings per class, and the predictions reproduced. */
struct rs_class_counts {
	size_t n[RS_NCLASSES];
	size_t reproduced;
};
/* Count one status (unknown statuses count as predictions not reproduced). */
void rs_class_counts_add(struct rs_class_counts *c, const char *status);
/* "LABEL: 3 of 13 predictions reproduced; 1 calibration; 1 configuration"
 * (classes with no finding left out). */
void rs_class_counts_line(char *buf, size_t n, const char *label,
			  const struct rs_class_counts *c);

/* A study whose VALIDATION field is "-" has no published measurements to
 * decide (a simulation-only study such as the rebuild one): it runs and
 * draws its figures, and the page says why there are no findings. */
#define RS_STUDY_NO_VALIDATION "-"

struct rs_study {
	char *name, *folder, *validation, *title;
	bool present;                 /* FOLDER/run.sh exists */
	/* results: */
	bool ran_ok, validation_ran, validation_ok;
	bool validation_reused;       /* verdicts taken from the last make check */
	double run_s, validation_s;
	struct rs_figure *figures;
	size_t nfigures;
	struct rs_finding_row *findings;
	size_t nfindings, nreproduced;
	struct rs_class_counts counts;
	/* FOLDER/measured.tsv (has_measured): the study's own numbers, with
	 * their simulated values once run.sh has run. */
	bool has_measured;
	struct rs_measured measured;
	size_t measured_missing;      /* rows with no simulated value */
	char label[32];               /* the ids' prefix, e.g. "TX4000" */
	char note[512];               /* why something is missing */
};

/* Read the manifest.  0, or -1 with a message "file:line: ..." printed. */
int rs_studies_read(const char *path, struct rs_study **out, size_t *n);
void rs_studies_free(struct rs_study *s, size_t n);

/* Fill s->findings from a validation tsv (id, status, measured, study).
 * 0 or -1. */
int rs_study_read_findings(struct rs_study *s, const char *tsv);
/* Give s->findings the basis of each id from the study's ledger
 * (FOLDER/ledger.tsv; no file: nothing to add).  0, or -1 with the
 * ledger's diagnostic in s->note. */
int rs_study_read_ledger(struct rs_study *s, const char *ledger_tsv);
/* Fill s->figures from FOLDER/figures.tsv, or every PNG in dir. */
void rs_study_find_figures(struct rs_study *s, const char *captions_tsv, const char *dir);

/* Write DIR/index.html (tmp file, then rename).  0 or -1. */
int rs_reproduce_page(const char *path, const struct rs_study *s, size_t n,
		      unsigned jobs, double total_s);

#endif
