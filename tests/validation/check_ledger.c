/* The findings ledger and how findings are judged (quick: no study is
 * simulated here).
 *
 *   - The four studies' ledgers (scenarios/STUDY/ledger.tsv) parse and list
 *     exactly the 44 findings, each once, with a class.
 *   - A bad ledger line is refused with file:line and what was expected.
 *   - Across seeds: a finding met at one seed and missed at another is not
 *     reproduced; only a prediction met at every seed is.
 *   - Orderings are strict: a flat model passes no ordering claim.
 *   - The counts line the programs print, the README and the page show. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ledger.h"

static char dir[2048];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* ---- the studies' ledgers --------------------------------------------------- */

START_TEST(studies_list_every_finding)
{
	static const struct {
		const char *study, *prefix;
		int n;
		const char *extra_prefix;
		int extra_n;
	} st[] = {
		{ "tx4000", "TX4000-C", 15, NULL, 0 },
		{ "tx4200", "TX4200-D", 13, NULL, 0 },
		{ "iscsi", "ISCSI-N", 6, "ISCSI-F", 3 },
		{ "s3700", "S3700-S", 7, NULL, 0 },
	};
	size_t total = 0;
	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		char path[4300], err[512];
		snprintf(path, sizeof(path), "%s/%s/ledger.tsv", vd_scenarios_dir(), st[i].study);
		struct rs_ledger l;
		int rc = rs_ledger_read(path, &l, err, sizeof(err));
		ck_assert_msg(rc == 0, "%s", err);
		ck_assert_uint_eq(l.n, (size_t)(st[i].n + st[i].extra_n));
		for (int k = 1; k <= st[i].n + st[i].extra_n; k++) {
			char id[32];
			if (k <= st[i].n)
				snprintf(id, sizeof(id), "%s%d", st[i].prefix, k);
			else
				snprintf(id, sizeof(id), "%s%d", st[i].extra_prefix, k - st[i].n);
			const struct rs_ledger_row *r = rs_ledger_find(&l, id);
			ck_assert_msg(r != NULL, "%s: no %s", path, id);
			ck_assert_uint_ge(r->seeds, RS_LEDGER_MIN_SEEDS);
		}
		total += l.n;
		rs_ledger_free(&l);
	}
	ck_assert_uint_eq(total, 44);
}
END_TEST

/* ---- a ledger's diagnostics -------------------------------------------------- */

START_TEST(bad_ledgers)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "id\tclass\texpected\tseeds\tbasis\twhy\nX-1\tguess\tholds\t5\t-\tw\n",
		  "l.tsv:2: expected a class" },
		{ "X-1\tprediction\tmaybe\t5\t-\tw\n", "l.tsv:1: expected 'holds' or 'fails'" },
		{ "X-1\tprediction\tholds\t3\t-\tw\n", "l.tsv:1: expected a number of seeds" },
		{ "X-1\tprediction\tholds\t5x\t-\tw\n", "l.tsv:1: expected a number of seeds" },
		{ "X-1\tprediction\tholds\t5\t-\n", "l.tsv:1: expected a basis and a reason" },
		{ "X-1\tcalibration\tholds\t5\t-\tw\n", "l.tsv:1: a calibration must name its basis" },
		{ "# c\nX-1\tprediction\tholds\t5\t-\tw\nX-1\tprediction\tholds\t5\t-\tw\n",
		  "l.tsv:3: X-1 is listed twice" },
		{ "# only a comment\n", "l.tsv: no findings" },
	};
	char path[4200], err[512];
	snprintf(path, sizeof(path), "%s/l.tsv", dir);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(path, bad[i].text);
		struct rs_ledger l;
		ck_assert_int_eq(rs_ledger_read(path, &l, err, sizeof(err)), -1);
		ck_assert_msg(strstr(err, bad[i].want), "case %zu: '%s' lacks '%s'", i, err,
			      bad[i].want);
		ck_assert_uint_eq(l.n, 0);
	}
	write_file(path, "X-1\tnot testable\tfails\t7\tno traces\twhy\n");
	struct rs_ledger l;
	ck_assert_int_eq(rs_ledger_read(path, &l, err, sizeof(err)), 0);
	ck_assert_int_eq(l.rows[0].cls, RS_CLASS_NOT_TESTABLE);
	ck_assert(!l.rows[0].expect_holds);
	ck_assert_uint_eq(l.rows[0].seeds, 7);
	ck_assert_str_eq(l.rows[0].basis, "no traces");
	rs_ledger_free(&l);
}
END_TEST

/* ---- statuses and counts ------------------------------------------------------- */

START_TEST(status_across_seeds)
{
	ck_assert_str_eq(rs_finding_status(RS_CLASS_PREDICTION, 5, 5), "reproduced");
	ck_assert_str_eq(rs_finding_status(RS_CLASS_PREDICTION, 4, 5), "not reproduced");
	ck_assert_str_eq(rs_finding_status(RS_CLASS_PREDICTION, 1, 5), "not reproduced");
	ck_assert_str_eq(rs_finding_status(RS_CLASS_PREDICTION, 0, 0), "not reproduced");
	ck_assert_str_eq(rs_finding_status(RS_CLASS_CALIBRATION, 5, 5), "calibration");
	ck_assert_str_eq(rs_finding_status(RS_CLASS_CONFIGURATION, 5, 5), "configuration");
	ck_assert_str_eq(rs_finding_status(RS_CLASS_NOT_TESTABLE, 0, 5), "not testable");

	struct rs_class_counts c = { .reproduced = 0 };
	const char *st[] = { "reproduced", "not reproduced", "not reproduced", "calibration",
			     "configuration", "reproduced" };
	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++)
		rs_class_counts_add(&c, st[i]);
	char line[256];
	rs_class_counts_line(line, sizeof(line), "TX4000", &c);
	ck_assert_str_eq(line,
			 "TX4000: 2 of 4 predictions reproduced; 1 calibration; 1 configuration");
	struct rs_class_counts none = { .reproduced = 0 };
	rs_class_counts_add(&none, "not testable");
	rs_class_counts_line(line, sizeof(line), "S", &none);
	ck_assert_str_eq(line, "S: 0 of 0 predictions reproduced; 1 not testable");
}
END_TEST

/* A finding met at seed 1 only: the harness reports it not reproduced,
 * says where it failed, and (the ledger expecting that) passes. */
static bool met_at_seed_1(struct text *t)
{
	vd_value("x", (double)vd_seed());
	add(t, "seed %llu", (unsigned long long)vd_seed());
	return vd_seed() == 1;
}

static bool met_everywhere(struct text *t)
{
	add(t, "always");
	return true;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	static char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

START_TEST(seed_fragile_is_not_reproduced)
{
	char path[4200], err[512];
	snprintf(path, sizeof(path), "%s/fragile.tsv", dir);
	write_file(path, "X-1\tprediction\tfails\t5\t-\tmet at seed 1 only\n"
			 "X-2\tprediction\tholds\t5\t-\tmet everywhere\n"
			 "X-3\tcalibration\tholds\t5\tcost solved from X-3\tby construction\n");
	ck_assert_int_eq(rs_ledger_read(path, &vl.ledger, err, sizeof(err)), 0);
	snprintf(vl.ledger_path, sizeof(vl.ledger_path), "%s", path);
	snprintf(vl.tsv_path, sizeof(vl.tsv_path), "%s/findings-x.tsv", dir);
	write_file(vl.tsv_path, "id\tstatus\tmeasured\tstudy\n");
	memset(&vl.counts, 0, sizeof(vl.counts));
	unsetenv("RS_VALIDATION_SEEDS");
	vd_finding("X-1", met_at_seed_1, "claim");
	vd_finding("X-2", met_everywhere, "claim");
	vd_finding("X-3", met_everywhere, "claim");
	const char *tsv = read_all(vl.tsv_path);
	ck_assert_msg(strstr(tsv, "X-1\tnot reproduced\tseed 1 | seeds 1-5: criterion holds at "
				  "1 of 5 (fails at seeds 2, 3, 4, 5); x 1..5\tclaim\n"),
		      "%s", tsv);
	ck_assert_msg(strstr(tsv, "X-2\treproduced\talways | seeds 1-5: criterion holds at 5 of "
				  "5\tclaim\n"), "%s", tsv);
	ck_assert_msg(strstr(tsv, "X-3\tcalibration\t"), "%s", tsv);
	char line[256];
	rs_class_counts_line(line, sizeof(line), "X", &vl.counts);
	ck_assert_str_eq(line, "X: 1 of 2 predictions reproduced; 1 calibration");
	rs_ledger_free(&vl.ledger);
}
END_TEST

/* ---- the reproduce page ----------------------------------------------------------- */

/* The page shows each finding's status as written, its class with the
 * ledger's basis, and the counts per class in the summary. */
START_TEST(page_shows_classes)
{
	char tsv[4200], ledger[4200], page[4200];
	snprintf(tsv, sizeof(tsv), "%s/findings-x.tsv", dir);
	snprintf(ledger, sizeof(ledger), "%s/ledger.tsv", dir);
	snprintf(page, sizeof(page), "%s/index.html", dir);
	write_file(tsv, "id\tstatus\tmeasured\tstudy\nX-1\treproduced\tm1\ts1\n"
			"X-2\tnot reproduced\tm2\ts2\nX-3\tcalibration\tm3\ts3\n");
	write_file(ledger, "X-1\tprediction\tholds\t5\t-\tw\n"
			   "X-2\tprediction\tfails\t5\t-\tw\n"
			   "X-3\tcalibration\tholds\t5\tcost <solved> from X-3\tw\n");
	struct rs_study st = { .name = "x", .folder = "scen/x", .validation = "check_x",
			       .title = "Study X", .present = true, .ran_ok = true,
			       .validation_ran = true, .validation_ok = true };
	ck_assert_int_eq(rs_study_read_findings(&st, tsv), 0);
	ck_assert_int_eq(rs_study_read_ledger(&st, ledger), 0);
	ck_assert_uint_eq(st.nreproduced, 1);
	ck_assert_uint_eq(st.counts.n[RS_CLASS_PREDICTION], 2);
	ck_assert_uint_eq(st.counts.n[RS_CLASS_CALIBRATION], 1);
	ck_assert_str_eq(st.label, "X");
	ck_assert_int_eq(rs_reproduce_page(page, &st, 1, 2, 1.0), 0);
	const char *html = read_all(page);
	ck_assert_msg(strstr(html, "<td>1 of 2</td>"), "%s", html);
	ck_assert_msg(strstr(html, "<td>X: 1 of 2 predictions reproduced; 1 calibration</td>"),
		      "%s", html);
	ck_assert_msg(strstr(html, "<td class=\"other\">calibration</td><td>calibration: cost "
				   "&lt;solved&gt; from X-3</td>"), "%s", html);
	ck_assert_msg(strstr(html, "<td class=\"no\">not reproduced</td><td>prediction</td>"),
		      "%s", html);
	for (size_t i = 0; i < st.nfindings; i++) {
		struct rs_finding_row *r = &st.findings[i];
		free(r->id), free(r->status), free(r->measured), free(r->study), free(r->basis);
	}
	free(st.findings);
	/* A broken ledger is a note on the page, not a crash. */
	write_file(ledger, "X-1\tguess\tholds\t5\t-\tw\n");
	struct rs_study st2 = { .note = "" };
	ck_assert_int_eq(rs_study_read_ledger(&st2, ledger), -1);
	ck_assert_msg(strstr(st2.note, "ledger.tsv:1: expected a class"), "%s", st2.note);
}
END_TEST

/* ---- orderings ------------------------------------------------------------------- */

START_TEST(flat_model_passes_no_ordering)
{
	double flat[6] = { 5, 5, 5, 5, 5, 5 };
	static const int two[] = { 1, 3 };
	ck_assert(!vd_ahead(5, 5));
	for (int i = 0; i < 6; i++) {
		ck_assert(!vd_best(flat, 6, i));
		ck_assert(!vd_worst(flat, 6, i));
	}
	ck_assert(!vd_top(flat, 6, two, 2, +1));
	ck_assert(!vd_top(flat, 6, two, 2, -1));
	/* A tie at the top is no order either; a strict order is. */
	double tie[6] = { 1, 9, 2, 9, 3, 4 };
	ck_assert(!vd_best(tie, 6, 1));
	ck_assert(vd_top(tie, 6, two, 2, +1));
	ck_assert(vd_worst(tie, 6, 0));
	ck_assert(vd_ahead(5.0001, 5));
}
END_TEST

static Suite *ledger_suite(void)
{
	Suite *s = suite_create("ledger");
	TCase *tc = tcase_create("ledger");
	tcase_add_test(tc, studies_list_every_finding);
	tcase_add_test(tc, bad_ledgers);
	tcase_add_test(tc, status_across_seeds);
	tcase_add_test(tc, seed_fragile_is_not_reproduced);
	tcase_add_test(tc, flat_model_passes_no_ordering);
	tcase_add_test(tc, page_shows_classes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/check_ledger.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("check_ledger: mkdtemp");
		return EXIT_FAILURE;
	}
	SRunner *sr = srunner_create(ledger_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		failed++;
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
