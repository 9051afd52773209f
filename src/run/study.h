/* One study of the reproduce manifest and what running it gave. */
#ifndef RS_RUN_STUDY_H
#define RS_RUN_STUDY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct rs_figure {
	char *file;                   /* PNG name inside the study's folder */
	char *caption;
};

struct rs_finding_row {
	char *id, *status, *measured, *study;
};

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
	char note[512];               /* why something is missing */
};

/* Read the manifest.  0, or -1 with a message "file:line: ..." printed. */
int rs_studies_read(const char *path, struct rs_study **out, size_t *n);
void rs_studies_free(struct rs_study *s, size_t n);

/* Fill s->findings from a validation tsv (id, status, measured, study).
 * 0 or -1. */
int rs_study_read_findings(struct rs_study *s, const char *tsv);
/* Fill s->figures from FOLDER/figures.tsv, or every PNG in dir. */
void rs_study_find_figures(struct rs_study *s, const char *captions_tsv, const char *dir);

/* Write DIR/index.html (tmp file, then rename).  0 or -1. */
int rs_reproduce_page(const char *path, const struct rs_study *s, size_t n,
		      unsigned jobs, double total_s);

#endif
