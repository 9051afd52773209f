/* A study's findings judged across seeds and counted by class
 * (header-only, like validation.h).
 *
 * The study's ledger, scenarios/STUDY/ledger.tsv (run/study.h), lists each
 * finding once: its class (prediction, calibration, configuration, not
 * testable), what its criterion is expected to give, how many seeds its
 * experiment runs at, and what was set from the study for it.  A test is
 *
 *     static bool measure_C2(struct text *t) { ...at vd_seed()...; return holds; }
 *     START_TEST(test_C2) { vd_finding("TX4000-C2", measure_C2, "the study's claim"); }
 *
 * vd_finding() runs the measure function at seeds 1..N (N from the ledger),
 * and the criterion holds only when it holds at every one of them.  A
 * prediction that holds is "reproduced"; any other class is reported under
 * its class name whatever its criterion gives, so only predictions count.
 * The measured text is seed 1's, followed by the seeds the criterion
 * failed at and the spread (min..max over the seeds) of every quantity the
 * measure function handed to vd_value().  The line is printed
 *
 *     ID: STATUS: <measured> (study: <reported>)
 *
 * and appended to findings-STUDY.tsv (id, status, measured, study); then
 * the outcome is held against the ledger's `expected`, so a test fails when
 * a criterion that held starts to fail and when one that failed starts to
 * hold.  RS_VALIDATION_FLIP=ID[,ID...] inverts the expectation of those
 * ids; RS_VALIDATION_SEEDS=N runs every finding at N seeds instead (by
 * hand: the expectations are the ledger's seed counts').
 *
 * At the end vd_study_main() prints the counts per class,
 *     TX4000: 1 of 11 predictions reproduced; 4 configuration
 * and writes the same line to findings-STUDY.counts; it fails when a
 * finding of the ledger was not judged (unless CK_RUN_CASE picked some:
 * each finding is its own test case, named by its id).
 *
 * Orderings are strict everywhere: "A ahead of B" is A > B and "A is the
 * best" is A above every other value; a tie is no order, so a model that
 * gives everything the same result passes no ordering claim (vd_ahead,
 * vd_best, vd_worst, vd_top). */
#ifndef RS_TESTS_VALIDATION_LEDGER_H
#define RS_TESTS_VALIDATION_LEDGER_H

#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "points.h"
#include "run/study.h"
#include "validation.h"

/* ---- strict orderings --------------------------------------------------- */

static inline bool vd_ahead(double a, double b)
{
	return a > b;
}

/* v[i] strictly above (sign +1) or below (-1) every other of the n values. */
static inline bool vd_extreme(const double *v, int n, int i, int sign)
{
	for (int j = 0; j < n; j++)
		if (j != i && !(sign * (v[i] - v[j]) > 0))
			return false;
	return true;
}

static inline bool vd_best(const double *v, int n, int i)
{
	return vd_extreme(v, n, i, +1);
}

static inline bool vd_worst(const double *v, int n, int i)
{
	return vd_extreme(v, n, i, -1);
}

/* The k indices in `which` are each strictly above (sign +1) or below (-1)
 * every value not among them. */
static inline bool vd_top(const double *v, int n, const int *which, int k, int sign)
{
	for (int j = 0; j < n; j++) {
		bool in = false;
		for (int w = 0; w < k; w++)
			in = in || which[w] == j;
		if (in)
			continue;
		for (int w = 0; w < k; w++)
			if (!(sign * (v[which[w]] - v[j]) > 0))
				return false;
	}
	return true;
}

/* ---- the harness -------------------------------------------------------- */

#define VD_MAX_VALUES 32

static struct {
	struct rs_ledger ledger;
	char ledger_path[4200];
	char label[32];
	char tsv_path[4096], counts_path[4096];
	struct rs_class_counts counts;
	size_t judged;
	unsigned seed_index;          /* 0-based: the seed is seed_index + 1 */
	struct {
		const char *name;
		double v[RS_LEDGER_MAX_SEEDS];
		unsigned n;
	} values[VD_MAX_VALUES];
	size_t nvalues;
} vl;

/* The seed the measure function runs at. */
static inline uint64_t vd_seed(void)
{
	return vl.seed_index + 1;
}

/* A quantity whose spread over the seeds the verdict shows; `name` must
 * outlive the finding (a string literal). */
static inline void vd_value(const char *name, double v)
{
	size_t i = 0;
	while (i < vl.nvalues && strcmp(vl.values[i].name, name) != 0)
		i++;
	if (i == vl.nvalues) {
		if (i == VD_MAX_VALUES)
			return;
		vl.values[vl.nvalues++].name = name, vl.values[i].n = 0;
	}
	if (vl.values[i].n < RS_LEDGER_MAX_SEEDS)
		vl.values[i].v[vl.values[i].n++] = v;
}

typedef bool vd_measure_fn(struct text *t);

static inline unsigned vd_seeds_for(const struct rs_ledger_row *row)
{
	const char *env = getenv("RS_VALIDATION_SEEDS");
	if (env && *env) {
		long n = strtol(env, NULL, 10);
		if (n >= 1 && n <= RS_LEDGER_MAX_SEEDS)
			return (unsigned)n;
	}
	return row->seeds;
}

/* The measured column: seed 1's text, then the seeds and the spreads. */
static inline void vd_measured(struct text *out, const char *first, unsigned held, unsigned n,
			       const char *failed_at)
{
	add(out, "%s | seeds 1-%u: criterion holds at %u of %u", first, n, held, n);
	if (held == 0)
		add(out, " (fails at every seed)");
	else if (held < n)
		add(out, " (fails at seed%s %s)", n - held > 1 ? "s" : "", failed_at);
	for (size_t i = 0; i < vl.nvalues; i++) {
		double lo = INFINITY, hi = -INFINITY;
		for (unsigned s = 0; s < vl.values[i].n; s++)
			lo = fmin(lo, vl.values[i].v[s]), hi = fmax(hi, vl.values[i].v[s]);
		add(out, "; %s %.4g..%.4g", vl.values[i].name, lo, hi);
	}
}

/* Judge one finding at every seed its ledger row names, report, count,
 * and hold the outcome against the ledger. */
static inline void vd_finding(const char *id, vd_measure_fn *measure, const char *study)
{
	const struct rs_ledger_row *row = rs_ledger_find(&vl.ledger, id);
	ck_assert_msg(row != NULL, "%s is not in %s", id, vl.ledger_path);
	unsigned n = vd_seeds_for(row), held = 0;
	char failed_at[256] = "";
	size_t fl = 0;
	static struct text first;
	first.n = 0;
	first.s[0] = '\0';
	vl.nvalues = 0;
	for (unsigned i = 0; i < n; i++) {
		vl.seed_index = i;
		static struct text t;
		t.n = 0;
		t.s[0] = '\0';
		bool h = measure(&t);
		if (i == 0)
			first = t;
		if (h)
			held++;
		else if (fl < sizeof(failed_at))
			fl += (size_t)snprintf(failed_at + fl, sizeof(failed_at) - fl, "%s%u",
					       fl ? ", " : "", i + 1);
	}
	vl.seed_index = 0;
	const char *status = rs_finding_status(row->cls, held, n);
	static struct text m;
	m.n = 0;
	m.s[0] = '\0';
	vd_measured(&m, first.s, held, n, failed_at);
	printf("%s: %s: %s (study: %s)\n", id, status, m.s, study);
	fflush(stdout);
	FILE *f = fopen(vl.tsv_path, "a");
	if (f) {
		fprintf(f, "%s\t%s\t", id, status);
		vd_tsv_field(f, m.s);
		fputc('\t', f);
		vd_tsv_field(f, study);
		fputc('\n', f);
		fclose(f);
	}
	rs_class_counts_add(&vl.counts, status);
	vl.judged++;
	bool holds = held == n;
	bool expect = row->expect_holds;
	if (vd_flipped(id))
		expect = !expect;
	ck_assert_msg(holds == expect,
		      "%s: its criterion now %s at %u of %u seeds but the ledger expects it to "
		      "%s (%s): update %s, and the tables in README.md and the study's README "
		      "(tests/validation/ledger-table.sh --update)",
		      id, holds ? "holds" : "fails", held, n, expect ? "hold" : "fail", row->why,
		      vl.ledger_path);
}

/* One test case per finding, named by its id, so CK_RUN_CASE=ID runs one. */
static inline void vd_add(Suite *s, const char *id, const TTest *test)
{
	TCase *tc = tcase_create(id);
	tcase_set_tags(tc, "slow");
	tcase_add_test(tc, test);
	suite_add_tcase(s, tc);
}

/* Read scenarios/STUDY/ledger.tsv, run the suite in this one process (so
 * points shared by findings run once per seed), print and write the counts.
 * Returns the exit status. */
static inline int vd_study_main(Suite *(*make_suite)(void), const char *study)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(vl.ledger_path, sizeof(vl.ledger_path), "%s/%s/ledger.tsv", vd_scenarios_dir(),
		 study);
	char err[512];
	if (rs_ledger_read(vl.ledger_path, &vl.ledger, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return EXIT_FAILURE;
	}
	snprintf(vl.label, sizeof(vl.label), "%.*s", (int)strcspn(vl.ledger.rows[0].id, "-"),
		 vl.ledger.rows[0].id);
	const char *top = getenv("top_builddir");
	snprintf(vl.tsv_path, sizeof(vl.tsv_path), "%s/tests/validation/findings-%s.tsv",
		 top ? top : ".", study);
	FILE *f = fopen(vl.tsv_path, "w");
	if (!f) {
		/* Run by hand from elsewhere: write beside the working directory. */
		snprintf(vl.tsv_path, sizeof(vl.tsv_path), "findings-%s.tsv", study);
		f = fopen(vl.tsv_path, "w");
	}
	if (f) {
		fputs("id\tstatus\tmeasured\tstudy\n", f);
		fclose(f);
	}
	snprintf(vl.counts_path, sizeof(vl.counts_path), "%.*s.counts",
		 (int)(strlen(vl.tsv_path) - 4), vl.tsv_path);

	SRunner *sr = srunner_create(make_suite());
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);

	char line[256];
	rs_class_counts_line(line, sizeof(line), vl.label, &vl.counts);
	printf("%s\n", line);
	f = fopen(vl.counts_path, "w");
	if (f) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
	const char *only = getenv("CK_RUN_CASE");
	if (!(only && *only) && vl.judged != vl.ledger.n) {
		fprintf(stderr, "%s lists %zu findings but %zu were judged\n", vl.ledger_path,
			vl.ledger.n, vl.judged);
		failed++;
	}
	rs_ledger_free(&vl.ledger);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
