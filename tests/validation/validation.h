/* The honesty mechanism shared by the validation programs (header-only:
 * each check_* program is one translation unit plus librs).  The datasheet
 * checks (check_validation.c, check_s3700_drive.c) use it as described
 * here; the studies' programs judge their findings with ledger.h, which
 * builds on the text and tsv helpers below.
 *
 * A program lists every id it covers in a `struct finding` table with the
 * status we EXPECT (REPRODUCED or NOT_REPRODUCED) and one line saying why,
 * and hands it to vd_main() with the name of its findings tsv.  Each test
 * simulates what the study measured, decides whether the finding holds and
 * calls verdict(), which prints
 *
 *     ID: reproduced|NOT reproduced: <measured> (study: <reported>)
 *
 * appends the same to the tsv (id, status, measured, study) in the build
 * directory, and only then asserts that the outcome equals the expected
 * status.  So a test fails when a reproduced finding regresses AND when a
 * finding that was not reproduced starts to be: either way the program's
 * table and the study's status table must be updated by hand.
 *
 * RS_VALIDATION_FLIP=ID[,ID...] inverts the expected status of those ids,
 * to see the mechanism bite.
 *
 * vd_run() builds `device:` and `workload:` from YAML text and runs them to
 * the end the way the programs' points are run: tests/unit/testutil.h's
 * tu_point_run() (the models of $top_srcdir/models before the default
 * model path) with seed 1. */
#ifndef RS_TESTS_VALIDATION_H
#define RS_TESTS_VALIDATION_H

#include <check.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "load/load.h"
#define TU_WANT_SCENARIO
#include "../unit/testutil.h"

/* ---- the table -------------------------------------------------------- */

enum status { NOT_REPRODUCED = 0, REPRODUCED = 1 };

struct finding {
	const char *id;
	enum status expected;
	const char *note;
};

/* The program's table, its source file (named in the failure message) and
 * where the tsv goes; set by vd_main(). */
static struct {
	const struct finding *findings;
	size_t nfindings;
	const char *source;
	char tsv_path[4096];
} vd;

static inline const struct finding *vd_finding_get(const char *id)
{
	for (size_t i = 0; i < vd.nfindings; i++)
		if (strcmp(vd.findings[i].id, id) == 0)
			return &vd.findings[i];
	return NULL;
}

static inline bool vd_flipped(const char *id)
{
	const char *env = getenv("RS_VALIDATION_FLIP");
	size_t n = strlen(id);
	for (const char *p = env; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, id, n) == 0)
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

static inline void vd_tsv_field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

/* Report the outcome, then hold it against the table. */
static inline void verdict(const char *id, bool holds, const char *measured, const char *study)
{
	const struct finding *fd = vd_finding_get(id);
	ck_assert_msg(fd != NULL, "%s is not in the findings table", id);
	printf("%s: %s: %s (study: %s)\n", id, holds ? "reproduced" : "NOT reproduced",
	       measured, study);
	fflush(stdout);
	FILE *f = fopen(vd.tsv_path, "a");
	if (f) {
		fprintf(f, "%s\t%s\t", id, holds ? "reproduced" : "not reproduced");
		vd_tsv_field(f, measured);
		fputc('\t', f);
		vd_tsv_field(f, study);
		fputc('\n', f);
		fclose(f);
	}
	bool expect = fd->expected == REPRODUCED;
	if (vd_flipped(id))
		expect = !expect;
	ck_assert_msg(holds == expect,
		      "%s is now %s but the table expects %s (%s): update findings[] in "
		      "tests/validation/%s and the status table in README.md",
		      id, holds ? "REPRODUCED" : "NOT REPRODUCED",
		      expect ? "REPRODUCED" : "NOT_REPRODUCED", fd->note, vd.source);
}

/* Start the tsv (header line) in $top_builddir/tests/validation, or beside
 * the working directory when that cannot be written, run the suite and
 * return the exit status. */
static inline int vd_main(Suite *(*make_suite)(void), const struct finding *findings,
			  size_t nfindings, const char *source, const char *tsv_name)
{
	vd.findings = findings;
	vd.nfindings = nfindings;
	vd.source = source;
	const char *top = getenv("top_builddir");
	snprintf(vd.tsv_path, sizeof(vd.tsv_path), "%s/tests/validation/%s", top ? top : ".",
		 tsv_name);
	FILE *f = fopen(vd.tsv_path, "w");
	if (!f) {
		/* Run by hand from elsewhere: write beside the working directory. */
		snprintf(vd.tsv_path, sizeof(vd.tsv_path), "%s", tsv_name);
		f = fopen(vd.tsv_path, "w");
	}
	if (f) {
		fputs("id\tstatus\tmeasured\tstudy\n", f);
		fclose(f);
	}
	SRunner *sr = srunner_create(make_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* ---- the measured text, appended piece by piece ------------------------ */

struct text {
	char s[2048];
	size_t n;
};

static inline void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void add(struct text *t, const char *fmt, ...)
{
	if (t->n >= sizeof(t->s) - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(t->s + t->n, sizeof(t->s) - t->n, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->n += (size_t)n < sizeof(t->s) - t->n ? (size_t)n : sizeof(t->s) - 1 - t->n;
}

static inline const char *ok(bool b)
{
	return b ? "ok" : "FAILS";
}

/* ---- running a point ---------------------------------------------------- */

/* One point of a study: tests/unit/testutil.h's tu_point_run() with seed 1,
 * which also checks that the workload measured something.  Read p, then
 * tu_point_free(p). */
static inline void vd_run(struct tu_point *p, const char *file, const char *text, size_t n,
			  const char *dev_name)
{
	tu_point_run(p, file, text, n, dev_name, 1);
	ck_assert_uint_gt(p->load->summary.ops, 0);
}

#endif
