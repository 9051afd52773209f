/* Unit tests for src/run's sweep plumbing: the per-point store (what
 * --resume keeps and drops), --shard K/N parsing, the study list of
 * `raidsim reproduce` and the durations of the progress line.  Whole runs
 * are tested end to end by tests/cli/ (resume, shard, plot). */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/points.h"
#include "run/progress.h"
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
	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 42, 4, false, rows, &found), 0);
	ck_assert_uint_eq(found, 0);
	ck_assert_int_eq(rs_points_save(&ps, 1, "1\t2\t3"), 0);
	ck_assert_int_eq(rs_points_save(&ps, 3, "\tempty first"), 0);
	/* What an interrupted writer leaves: a temporary file, a cut row. */
	char p[4400];
	snprintf(p, sizeof(p), "%s/.2.tmp.99", ps.dir);
	write_file(p, "half a ro");
	snprintf(p, sizeof(p), "%s/0", ps.dir);
	write_file(p, "no line end");

	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 42, 4, true, rows, &found), 0);
	ck_assert_uint_eq(found, 2);
	ck_assert_ptr_null(rows[0]);
	ck_assert_str_eq(rows[1], "1\t2\t3");
	ck_assert_ptr_null(rows[2]);
	ck_assert_str_eq(rows[3], "\tempty first");
	snprintf(p, sizeof(p), "%s/.2.tmp.99", ps.dir);
	ck_assert_int_ne(access(p, F_OK), 0);   /* stale temporary removed */
	for (size_t i = 0; i < 4; i++) {
		free(rows[i]);
		rows[i] = NULL;
	}
	/* Another fingerprint or point count: refused. */
	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 43, 4, true, rows, &found), -2);
	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 42, 5, true, rows, &found), -2);
	/* A fresh start forgets the saved points. */
	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 43, 4, false, rows, &found), 0);
	ck_assert_int_eq(rs_points_open(&ps, dir, "t", 43, 4, true, rows, &found), 0);
	ck_assert_uint_eq(found, 0);
	rs_points_remove(&ps);
	ck_assert_int_ne(access(ps.dir, F_OK), 0);
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

static Suite *suite(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("run");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, points_save_and_resume);
	tcase_add_test(tc, shard_parse);
	tcase_add_test(tc, study_list);
	tcase_add_test(tc, durations);
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
