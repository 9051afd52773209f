/* `raidsim reproduce`: every study of the manifest (scenarios/studies.list)
 * run end to end -- its run.sh for the tables and figures, its validation
 * program for the findings -- and one page, DIR/index.html, showing them.
 *
 * The findings on the page are the lines the validation program wrote
 * into its findings*.tsv, the same program and file `make check` uses, so
 * the page cannot disagree with the tests; beside each, its class and what
 * was set from the study for it, from the study's FOLDER/ledger.tsv, and in
 * the summary the counts per class (only predictions count as reproduced). */
#ifndef RS_RUN_REPRODUCE_H
#define RS_RUN_REPRODUCE_H

#include <stdbool.h>
#include <stddef.h>

struct rs_reproduce_opts {
	const char *out_dir;
	unsigned jobs;
	const char *srcdir;           /* source tree: FOLDERs, models */
	const char *manifest;         /* NULL: SRCDIR/scenarios/studies.list */
	const char *validation_dir;   /* NULL: BUILDDIR/tests/validation */
	const char *builddir;
	const char *raidsim;          /* the binary the studies' scripts run */
	const char *const *only;      /* run only these studies (NULL: all) */
	size_t nonly;
	bool quiet;
	bool rerun_validation;        /* even when make check's results are fresh */
};

/* 0: every study ran and every validation program passed; 1 otherwise
 * (the page is still written); 2: bad manifest or options. */
int rs_reproduce(const struct rs_reproduce_opts *o);

#endif
