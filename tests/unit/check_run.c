/* Unit tests for src/run's sweep plumbing: the per-point store (what
 * --resume keeps and drops), --shard K/N parsing, the study list of
 * `raidsim reproduce` and the durations of the progress line; and the
 * output files under them: the real errno of a failed write (a full disk
 * and an injected file-size limit), result sets moved into place
 * together, the output lock and the safe-name rule; the mean and 95 %
 * confidence interval of repeated points (--repeat).  Whole runs are
 * tested end to end by tests/cli/ (resume, shard, plot, repeat). */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "report/out.h"
#include "report/out_lock.h"
#include "report/out_set.h"
#include "run/points.h"
#include "run/progress.h"
#include "run/repeats.h"
#include "run/shard.h"
#include "run/study.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_run.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(points_save_and_resume)
{
	struct rs_points ps;
	char *rows[4] = { 0 };
	size_t found;
	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 42, 4, 3, false, rows, &found), 0);
	ck_assert_uint_eq(found, 0);
	ck_assert_int_eq(rs_points_save(&ps, 1, "1\t2\t3"), 0);
	ck_assert_int_eq(rs_points_save(&ps, 3, "\tempty\tfirst"), 0);
	/* What an interrupted writer leaves: a temporary file, a cut row. */
	char p[4400];
	snprintf(p, sizeof(p), "%s/.2.tmp.99", ps.dir);
	write_file(p, "half a ro");
	snprintf(p, sizeof(p), "%s/0", ps.dir);
	write_file(p, "no line end");

	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 42, 4, 3, true, rows, &found), 0);
	ck_assert_uint_eq(found, 2);
	ck_assert_ptr_null(rows[0]);
	ck_assert_str_eq(rows[1], "1\t2\t3");
	ck_assert_ptr_null(rows[2]);
	ck_assert_str_eq(rows[3], "\tempty\tfirst");
	snprintf(p, sizeof(p), "%s/.2.tmp.99", ps.dir);
	ck_assert_int_ne(access(p, F_OK), 0);   /* stale temporary removed */
	for (size_t i = 0; i < 4; i++) {
		free(rows[i]);
		rows[i] = NULL;
	}
	/* Another fingerprint or point count: refused. */
	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 43, 4, 3, true, rows, &found), -2);
	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 42, 5, 3, true, rows, &found), -2);
	/* A fresh start forgets the saved points. */
	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 43, 4, 3, false, rows, &found), 0);
	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 43, 4, 3, true, rows, &found), 0);
	ck_assert_uint_eq(found, 0);
	rs_points_remove(&ps);
	ck_assert_int_ne(access(ps.dir, F_OK), 0);
}
END_TEST

START_TEST(points_damaged)
{
	struct rs_points ps;
	char *rows[3] = { 0 };
	size_t found;
	ck_assert_int_eq(rs_points_open(&ps, dir, "d", 7, 3, 2, false, rows, &found), 0);
	ck_assert_int_eq(rs_points_save(&ps, 0, "1\t2"), 0);
	char p[4400];
	snprintf(p, sizeof(p), "%s/1", ps.dir);
	write_file(p, "1\t2\t3\n");            /* one cell too many */
	snprintf(p, sizeof(p), "%s/2", ps.dir);
	write_file(p, "1\t\0012\n");           /* not text */
	ck_assert_int_eq(rs_points_open(&ps, dir, "d", 7, 3, 2, true, rows, &found), 0);
	ck_assert_uint_eq(found, 1);
	ck_assert_str_eq(rows[0], "1\t2");
	ck_assert_ptr_null(rows[1]);
	ck_assert_ptr_null(rows[2]);
	ck_assert_int_ne(access(p, F_OK), 0);   /* removed: it runs again */
	free(rows[0]);
	rs_points_remove(&ps);
}
END_TEST

static char *read_all(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

START_TEST(write_keeps_errno)
{
	/* A full disk says so. */
	int fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		errno = 0;
		ck_assert_int_eq(rs_report_write_all(fd, "x", 1), -1);
		ck_assert_int_eq(errno, ENOSPC);
		close(fd);
	}
	/* An injected failure (a file-size limit) goes through the whole
	 * report writer: its own errno, the old file untouched, no
	 * temporary left.  Check runs each test in its own process. */
	char path[128];
	snprintf(path, sizeof(path), "%s/t.tsv", dir);
	write_file(path, "old\n");
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit rl = { 100, 100 };
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	struct rs_report_out o;
	struct rs_report_err err;
	ck_assert_int_eq(rs_report_out_open(&o, path, &err), 0);
	for (int i = 0; i < 100; i++)
		fprintf(o.f, "row %d\n", i);
	ck_assert_int_eq(rs_report_out_commit(&o, &err), -1);
	char want[256];
	snprintf(want, sizeof(want), "%s: %s", path, strerror(EFBIG));
	ck_assert_str_eq(err.msg, want);
	ck_assert_str_eq(read_all(path), "old\n");
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "ls -a '%s' | grep -q tmp", dir);
	ck_assert_int_ne(system(cmd), 0);
}
END_TEST

START_TEST(out_set_commit)
{
	ck_assert(rs_out_member("a", "a.tsv", RS_OUT_TABLE));
	ck_assert(rs_out_member("a", "a.png", RS_OUT_TABLE));
	ck_assert(!rs_out_member("a", "a.series.1.tsv", RS_OUT_TABLE));
	ck_assert(rs_out_member("a", "a.series.12.gp", RS_OUT_POINT_FILES));
	ck_assert(rs_out_member("a", "a.requests.0.csv", RS_OUT_POINT_FILES));
	ck_assert(!rs_out_member("a", "a.series.x.tsv", RS_OUT_POINT_FILES));
	ck_assert(!rs_out_member("a", "ab.tsv", RS_OUT_TABLE));
	ck_assert(!rs_out_member("a", "a.shard-0-of-2.tsv", RS_OUT_TABLE | RS_OUT_POINT_FILES));
	ck_assert(rs_out_temporary("a.tsv.tmp.123"));
	ck_assert(rs_out_temporary(".4.tmp.99"));
	ck_assert(!rs_out_temporary("a.tsv"));
	ck_assert(!rs_out_temporary("x.tmp.1.tsv"));

	char stage[128], p[256];
	snprintf(stage, sizeof(stage), "%s/stage", dir);
	ck_assert_int_eq(rs_out_stage_begin(stage), 0);
	const char *staged[] = { "a.tsv", "a.json", "a.series.1.tsv", "a.gp.tmp.12" };
	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%s", stage, staged[i]);
		write_file(p, "new\n");
	}
	const char *old[] = { "a.tsv", "a.png", "a.series.5.tsv", "b.tsv" };
	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, old[i]);
		write_file(p, "old\n");
	}
	struct rs_report_err err;
	ck_assert_int_eq(rs_out_set_commit(stage, dir, "a", "a.tsv",
					   RS_OUT_TABLE | RS_OUT_POINT_FILES, &err), 0);
	const char *now_new[] = { "a.tsv", "a.json", "a.series.1.tsv" };
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, now_new[i]);
		ck_assert_str_eq(read_all(p), "new\n");
	}
	const char *gone[] = { "a.png", "a.series.5.tsv", "a.gp.tmp.12", "a.gp" };
	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, gone[i]);
		ck_assert_msg(access(p, F_OK) != 0, "%s still there", gone[i]);
	}
	snprintf(p, sizeof(p), "%s/b.tsv", dir);
	ck_assert_str_eq(read_all(p), "old\n");      /* another name's */
	rs_out_stage_end(stage);
	ck_assert_int_ne(access(stage, F_OK), 0);
}
END_TEST

START_TEST(out_lock)
{
	struct rs_out_lock a, b;
	ck_assert_int_eq(rs_out_lock_take(&a, dir, "x"), 0);
	/* Another open of the file is another holder, as another process. */
	ck_assert_int_eq(rs_out_lock_take(&b, dir, "x"), 1);
	ck_assert_int_eq(rs_out_lock_take(&b, dir, "y"), 0);
	rs_out_lock_release(&b);
	rs_out_lock_release(&a);
	ck_assert_int_ne(access(a.path, F_OK), 0);
	ck_assert_int_eq(rs_out_lock_take(&b, dir, "x"), 0);
	rs_out_lock_release(&b);
}
END_TEST

START_TEST(shard_parse)
{
	unsigned k, n;
	ck_assert_int_eq(rs_shard_parse("0/1", &k, &n), 0);
	ck_assert_uint_eq(k, 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(rs_shard_parse("7/8", &k, &n), 0);
	ck_assert_uint_eq(k, 7);
	ck_assert_uint_eq(n, 8);
	const char *bad[] = { "8/8", "1", "/2", "1/", "-1/2", "1/-2", "1/0", "a/b", "1/2x",
			      "0/100001", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(rs_shard_parse(bad[i], &k, &n) != 0, "'%s' accepted", bad[i]);
	char tag[64];
	rs_shard_tag(tag, sizeof(tag), "db", 2, 16);
	ck_assert_str_eq(tag, "db.shard-2-of-16");
}
END_TEST

START_TEST(study_list)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/studies.list", dir);
	write_file(p, "# comment\n\n  a  scen/a  check_a  Study A, 2003\nb\tscen/b\tcheck_b\tB\n");
	struct rs_study *s;
	size_t n;
	ck_assert_int_eq(rs_studies_read(p, &s, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(s[0].name, "a");
	ck_assert_str_eq(s[0].folder, "scen/a");
	ck_assert_str_eq(s[0].validation, "check_a");
	ck_assert_str_eq(s[0].title, "Study A, 2003");
	ck_assert_str_eq(s[1].title, "B");
	snprintf(p, sizeof(p), "%s/f.tsv", dir);
	write_file(p, "id\tstatus\tmeasured\tstudy\nX-1\treproduced\t3\t4\n"
		      "X-2\tnot reproduced\tm\ts\n");
	ck_assert_int_eq(rs_study_read_findings(&s[0], p), 0);
	ck_assert_uint_eq(s[0].nfindings, 2);
	ck_assert_uint_eq(s[0].nreproduced, 1);
	ck_assert_str_eq(s[0].findings[1].status, "not reproduced");
	ck_assert_str_eq(s[0].findings[1].study, "s");
	rs_studies_free(s, n);

	snprintf(p, sizeof(p), "%s/bad.list", dir);
	write_file(p, "a scen/a check_a\n");
	ck_assert_int_eq(rs_studies_read(p, &s, &n), -1);
	rs_studies_free(s, n);
}
END_TEST

START_TEST(durations)
{
	char b[32];
	rs_progress_duration(b, sizeof(b), 0.2);
	ck_assert_str_eq(b, "0s");
	rs_progress_duration(b, sizeof(b), 59.4);
	ck_assert_str_eq(b, "59s");
	rs_progress_duration(b, sizeof(b), 185);
	ck_assert_str_eq(b, "3m05s");
	rs_progress_duration(b, sizeof(b), 7620);
	ck_assert_str_eq(b, "2h07m");
}
END_TEST

START_TEST(mean_ci95)
{
	double m, h;
	/* 1..5: mean 3, s = sqrt(2.5), t(0.975, 4) = 2.7764451...; the
	 * half-width is t * s / sqrt(5). */
	const double x[] = { 1, 2, 3, 4, 5 };
	rs_mean_ci95(x, 5, &m, &h);
	ck_assert_double_eq_tol(m, 3, 1e-12);
	ck_assert_double_eq_tol(h, 2.7764451051977987 * sqrt(2.5) / sqrt(5), 1e-9);
	/* Two runs: t(0.975, 1) = 12.7062; s = |a - b| / sqrt 2. */
	const double two[] = { 10, 12 };
	rs_mean_ci95(two, 2, &m, &h);
	ck_assert_double_eq_tol(m, 11, 1e-12);
	ck_assert_double_eq_tol(h, 12.706204736174705 * sqrt(2) / sqrt(2), 1e-9);
	/* Equal values: that value and exactly 0, no rounding residue. */
	const double same[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
	rs_mean_ci95(same, 7, &m, &h);
	ck_assert(m == 0.1 && h == 0);
	rs_mean_ci95(x + 2, 1, &m, &h);
	ck_assert(m == 3 && h == 0);
	/* More runs, the same spread: a narrower interval. */
	double wide, narrow;
	const double a[] = { 1, 3, 1, 3 }, b[] = { 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3 };
	rs_mean_ci95(a, 4, &m, &wide);
	rs_mean_ci95(b, 16, &m, &narrow);
	ck_assert(narrow < wide / 2);
	const double bad[] = { 1, NAN, 3 };
	rs_mean_ci95(bad, 3, &m, &h);
	ck_assert(isnan(m) && isnan(h));
}
END_TEST

START_TEST(repeat_row)
{
	struct rs_table t;
	rs_table_init(&t);
	const char *names[] = { "axis", "iops", "iops_ci95", "fig", "fig_ci95", "ops",
				"ops_ci95", "repeats" };
	for (size_t c = 0; c < 8; c++)
		rs_table_add_col(&t, names[c], c == 0);
	size_t row = rs_table_add_row(&t);
	char *runs[] = { "100\tnan\t7", "110\tnan\t7", "120\t1\t7" };
	ck_assert_int_eq(rs_repeat_row(runs, 3, 3, &t, row, 1), 0);
	/* t(0.975, 2) = 4.30265; s = 10; 4.30265 * 10 / sqrt 3 = 24.8414. */
	ck_assert_str_eq(rs_table_get(&t, row, 1), "110");
	ck_assert_str_eq(rs_table_get(&t, row, 2), "24.8414");
	ck_assert_str_eq(rs_table_get(&t, row, 3), "nan");
	ck_assert_str_eq(rs_table_get(&t, row, 4), "nan");
	ck_assert_str_eq(rs_table_get(&t, row, 5), "7");
	ck_assert_str_eq(rs_table_get(&t, row, 6), "0");
	ck_assert_str_eq(rs_table_get(&t, row, 7), "3");
	ck_assert_ptr_null(rs_table_get(&t, row, 0));
	/* The rows are read, not split. */
	ck_assert_str_eq(runs[0], "100\tnan\t7");
	/* A run with a cell too many or too few is a malformed row. */
	char *longer[] = { "1\t2\t3", "1\t2\t3\t4" }, *shorter[] = { "1\t2\t3", "1\t2" };
	ck_assert_int_eq(rs_repeat_row(longer, 2, 3, &t, row, 1), -1);
	ck_assert_int_eq(rs_repeat_row(shorter, 2, 3, &t, row, 1), -1);
	rs_table_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("run");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, points_save_and_resume);
	tcase_add_test(tc, points_damaged);
	tcase_add_test(tc, write_keeps_errno);
	tcase_add_test(tc, out_set_commit);
	tcase_add_test(tc, out_lock);
	tcase_add_test(tc, shard_parse);
	tcase_add_test(tc, study_list);
	tcase_add_test(tc, durations);
	tcase_add_test(tc, mean_ci95);
	tcase_add_test(tc, repeat_row);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
