/* Unit tests for fio job files (src/load/fio_*.c) and the flushes
 * workloads ask for: the ini syntax and what it refuses, fio's units,
 * options inherited from [global], the I/O pattern a job issues (the same
 * requests as the equivalent iometer workload), stonewall groups, the
 * O_DSYNC pattern, and flushes counted apart from reads. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TU_WANT_SCENARIO
#include "load/fio_job.h"
#include "load/fio_parse.h"
#include "load/load.h"
#include "testutil.h"

static struct rs_diag diag;

static int parse(const char *text, struct rs_fio_file *f)
{
	rs_diag_init(&diag);
	return rs_fio_parse("job.fio", text, strlen(text), f, &diag);
}

static int jobs(const char *text, struct rs_fio_jobs *j, struct rs_fio_file *f)
{
	if (parse(text, f) != 0)
		return -1;
	return rs_fio_jobs_read(f, j, &diag);
}

static void expect_error(const char *text, int line, int col, const char *needle)
{
	struct rs_fio_file f;
	struct rs_fio_jobs j;
	int rc = jobs(text, &j, &f);
	if (rc == 0 || diag.line != line || diag.col != col || !strstr(diag.msg, needle))
		rs_diag_print(&diag, stderr);
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(diag.line, line);
	ck_assert_int_eq(diag.col, col);
	ck_assert_ptr_nonnull(strstr(diag.msg, needle));
	rs_fio_free(&f);
}

START_TEST(ini_syntax)
{
	struct rs_fio_file f;
	ck_assert_int_eq(parse("; a comment\n"
			       "# another\n"
			       "[global]\n"
			       "  bs = 4k ; a comment may end a line\n"
			       "\n"
			       "[job1]\n"
			       "time_based\n"
			       "rw=randread\n", &f), 0);
	ck_assert_uint_eq(f.nsecs, 2);
	ck_assert_str_eq(f.secs[0].name, "global");
	ck_assert_uint_eq(f.secs[0].nopts, 1);
	ck_assert_str_eq(f.secs[0].opts[0].key, "bs");
	ck_assert_int_eq(f.secs[0].opts[0].line, 4);
	ck_assert_int_eq(f.secs[0].opts[0].col, 3);
	ck_assert_int_eq(f.secs[0].opts[0].val_col, 8);
	ck_assert_str_eq(f.secs[0].opts[0].val, "4k");
	ck_assert_str_eq(f.secs[1].name, "job1");
	ck_assert_ptr_null(f.secs[1].opts[0].val);
	ck_assert_str_eq(f.secs[1].opts[1].val, "randread");
	rs_fio_free(&f);
}
END_TEST

START_TEST(ini_refused)
{
	expect_error("[j]\nfilename=${DEV}\n", 2, 10, "environment variables");
	expect_error("[j]\ninclude other.fio\n", 2, 1, "'include'");
	expect_error("bs=4k\n[j]\n", 1, 1, "expected a section");
	expect_error("[j\n", 1, 3, "expected ']'");
	expect_error("[j]\nbs=\n", 2, 4, "expected a value");
	expect_error("[global]\nbs=4k\n", 1, 1, "no job");
	expect_error("[j]\nverify=md5\n", 2, 1, "unsupported fio option 'verify'");
	expect_error("[j]\nrw=trim\n", 2, 4, "expected read, write");
	expect_error("[j]\nbs=4k,8k\n", 2, 4, "separate read and write");
	expect_error("[j]\niodepth=0\n", 2, 9, "from 1 to");
	expect_error("[j]\nbssplit=4k/50:8k/60\n", 2, 9, "adding up to 100");
	expect_error("[j]\ntime_based\n", 1, 1, "no runtime");
	expect_error("[j]\nruntime=5x\n", 2, 9, "a time");
	expect_error("[global]\nkb_base=1010\n[j]\n", 2, 9, "1000 or 1024");
}
END_TEST

START_TEST(units)
{
	uint64_t b;
	ck_assert_int_eq(rs_fio_parse_size("4k", 1024, &b), 0);
	ck_assert_uint_eq(b, 4096);
	ck_assert_int_eq(rs_fio_parse_size("4KB", 1024, &b), 0);
	ck_assert_uint_eq(b, 4096);
	ck_assert_int_eq(rs_fio_parse_size("4KiB", 1024, &b), 0);
	ck_assert_uint_eq(b, 4000);
	ck_assert_int_eq(rs_fio_parse_size("4k", 1000, &b), 0);
	ck_assert_uint_eq(b, 4000);
	ck_assert_int_eq(rs_fio_parse_size("4KiB", 1000, &b), 0);
	ck_assert_uint_eq(b, 4096);
	ck_assert_int_eq(rs_fio_parse_size("1g", 1024, &b), 0);
	ck_assert_uint_eq(b, 1ull << 30);
	ck_assert_int_eq(rs_fio_parse_size("512", 1024, &b), 0);
	ck_assert_uint_eq(b, 512);
	ck_assert_int_ne(rs_fio_parse_size("4q", 1024, &b), 0);
	ck_assert_int_ne(rs_fio_parse_size("-4k", 1024, &b), 0);
	rs_time_t t;
	ck_assert_int_eq(rs_fio_parse_time("30", RS_SEC, &t), 0);
	ck_assert_int_eq(t, 30 * RS_SEC);
	ck_assert_int_eq(rs_fio_parse_time("500ms", RS_SEC, &t), 0);
	ck_assert_int_eq(t, 500 * RS_MS);
	ck_assert_int_eq(rs_fio_parse_time("2m", RS_SEC, &t), 0);
	ck_assert_int_eq(t, 120 * RS_SEC);
	ck_assert_int_eq(rs_fio_parse_time("100", 1000, &t), 0);
	ck_assert_int_eq(t, 100 * 1000);
}
END_TEST

START_TEST(options)
{
	struct rs_fio_file f;
	struct rs_fio_jobs j;
	ck_assert_int_eq(jobs("[global]\n"
			      "ioengine=libaio\n"
			      "direct=1\n"
			      "rwmixread=70\n"
			      "bs=8k\n"
			      "[a]\n"
			      "rw=randrw\n"
			      "numjobs=2\n"
			      "fsync=4\n"
			      "filename=/dev/sdb\n"
			      "[b]\n"
			      "stonewall\n"
			      "rw=write:64k\n"
			      "bssplit=4k/10:64k:128k\n"
			      "ioengine=psync\n"
			      "[c]\n"
			      "rw=read\n"
			      "bsrange=4k-16k\n"
			      "kb_base=1000\n"
			      "size=1m\n"
			      "sync=1\n", &j, &f), 0);
	ck_assert_uint_eq(j.njobs, 3);
	ck_assert_uint_eq(j.ngroups, 2);
	ck_assert_double_eq(j.job[0].read, 70);
	ck_assert(j.job[0].random);
	ck_assert_uint_eq(j.job[0].numjobs, 2);
	ck_assert_uint_eq(j.job[0].flush_every, 4);
	ck_assert_uint_eq(j.job[0].bs[0], 8192);
	ck_assert_uint_eq(j.job[0].group, 0);
	ck_assert_double_eq(j.job[1].read, 0);
	ck_assert(!j.job[1].random);
	ck_assert_uint_eq(j.job[1].seq_skip, 65536);
	ck_assert_uint_eq(j.job[1].nlines, 3);
	ck_assert_double_eq_tol(j.job[1].share[1], 45, 1e-9);
	ck_assert_uint_eq(j.job[1].group, 1);
	/* c follows b in b's group: only a job with stonewall starts one. */
	ck_assert_uint_eq(j.job[2].group, 1);
	ck_assert_uint_eq(j.job[2].nlines, 4);
	ck_assert_uint_eq(j.job[2].bs[3], 16384);
	/* kb_base=1000 is the job's own and comes after bsrange. */
	ck_assert_uint_eq(j.job[2].size, 1000000);
	ck_assert_uint_eq(j.job[2].flush_every, 1);
	ck_assert_uint_eq(j.nignored, 2);
	ck_assert_str_eq(j.ignored[0], "ioengine");
	ck_assert_str_eq(j.ignored[1], "filename");
	rs_fio_free(&f);
}
END_TEST

/* ---- running jobs ------------------------------------------------------ */

static char dir[64];

static const char *write_job(const char *name, const char *text)
{
	static char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_fio.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Run a scenario and keep its request log (the caller frees it). */
static char *run_log(struct tu_point *p, const char *fmt, const char *arg)
{
	char text[2048];
	snprintf(text, sizeof(text), fmt, arg);
	tu_point_build(p, "test.yaml", text, strlen(text), "device", 1);
	tu_point_need(p, p->load);
	tu_point_log(p);
	tu_point_go(p);
	char *log = strdup(p->log);
	return log;
}

#define DEVICE "device: {type: ideal, service: exponential, mean: 1ms, capacity: 1GiB}\n"

START_TEST(same_requests_as_iometer)
{
	const char *job = write_job("rand.fio", "[global]\n"
						"ioengine=libaio\n"
						"[r]\n"
						"rw=randrw\n"
						"rwmixread=70\n"
						"bssplit=4k/60:64k/40\n"
						"iodepth=4\n"
						"runtime=200ms\n"
						"ramp_time=20ms\n"
						"time_based\n");
	struct tu_point a, b;
	char *fio = run_log(&a, "seed: 1\n" DEVICE "workload: {fio: %s}\n", job);
	char *im = run_log(&b, "seed: 1\n" DEVICE "workload:\n  iometer:\n"
			       "    lines: [{size: 4KiB, share: 60%%, read: 70%%},\n"
			       "            {size: 64KiB, share: 40%%, read: 70%%}]\n"
			       "    outstanding: 4\n    ramp: 20ms\n    run: 200ms\n%s", "");
	ck_assert_uint_gt(strlen(fio), 1000);
	ck_assert_str_eq(fio, im);
	ck_assert_double_eq(a.load->summary.iops, b.load->summary.iops);
	ck_assert_uint_eq(a.load->nfigures, 0);
	free(fio);
	free(im);
	tu_point_free(&a);
	tu_point_free(&b);
}
END_TEST

/* Each write is followed by its flush before the job's next write. */
START_TEST(sync_writes)
{
	const char *job = write_job("sync.fio", "[w]\nrw=randwrite\nbs=4k\nfsync=1\nsize=64k\n");
	struct tu_point p;
	char *log = run_log(&p, "seed: 1\n" DEVICE "workload: {fio: %s}\n", job);
	/* 16 writes, each followed by a flush, then the job has moved its size. */
	ck_assert_uint_eq(p.load->stats.ops[RS_ST_WRITE], 16);
	ck_assert_uint_eq(p.load->stats.ops[RS_ST_READ], 0);
	ck_assert_uint_eq(p.load->flushes, 16);
	char *line = log;
	for (int i = 0; i < 32; i++) {
		ck_assert(strncmp(strchr(line, ',') + 1, i % 2 ? "flush," : "write,", 6) == 0);
		line = strchr(line, '\n') + 1;
	}
	ck_assert_uint_eq(p.load->nfigures, 2);
	ck_assert_str_eq(p.load->figures[0].name, "flush_iops");
	ck_assert_double_gt(rs_load_figure_value(p.load, "flush_lat_ms"), 0);
	free(log);
	tu_point_free(&p);
}
END_TEST

/* A stonewall group starts when the previous one has drained. */
START_TEST(stonewall_groups)
{
	const char *job = write_job("two.fio", "[global]\nbs=64k\nsize=1m\niodepth=2\n"
					       "[w]\nrw=write\n[r]\nstonewall\nrw=read\n");
	struct tu_point p;
	char *log = run_log(&p, "seed: 1\n" DEVICE "workload: {fio: %s}\n", job);
	ck_assert_uint_eq(p.load->stats.ops[RS_ST_WRITE], 16);
	ck_assert_uint_eq(p.load->stats.ops[RS_ST_READ], 16);
	/* The log is in completion order: every write before every read. */
	char *first_read = strstr(log, ",read,"), *last_write = NULL;
	for (char *s = log; (s = strstr(s, ",write,")); s++)
		last_write = s;
	ck_assert_ptr_nonnull(first_read);
	ck_assert(last_write < first_read);
	/* Each group has its figures: 16 x 64 KiB over its own time. */
	ck_assert_uint_eq(p.load->nfigures, 4);
	ck_assert_str_eq(p.load->figures[0].name, "w_iops");
	ck_assert_str_eq(p.load->figures[3].name, "r_mb_s");
	double w = rs_load_figure_value(p.load, "w_iops");
	double r = rs_load_figure_value(p.load, "r_iops");
	ck_assert_double_gt(w, 0);
	ck_assert_double_gt(r, 0);
	ck_assert_double_eq_tol(rs_load_figure_value(p.load, "w_mb_s"), w * 65536 / 1e6, 1e-9);
	free(log);
	tu_point_free(&p);
}
END_TEST

START_TEST(bad_job_in_scenario)
{
	const char *job = write_job("bad.fio", "[j]\nrw=write\nbs=1000\n");
	struct tu_point p;
	char text[512];
	snprintf(text, sizeof(text), DEVICE "workload: {fio: %s}\n", job);
	ck_assert_int_eq(tu_point_build(&p, "test.yaml", text, strlen(text), "device", 1), -1);
	ck_assert_ptr_nonnull(strstr(p.d.msg, "not a multiple of 512"));
	tu_point_free(&p);
	/* numjobs x iodepth beyond the cap on requests in flight. */
	job = write_job("many.fio", "[j]\nnumjobs=1024\niodepth=1000\n");
	snprintf(text, sizeof(text), DEVICE "workload: {fio: %s}\n", job);
	ck_assert_int_eq(tu_point_build(&p, "test.yaml", text, strlen(text), "device", 1), -1);
	ck_assert_ptr_nonnull(strstr(p.d.msg, "cap queued_requests=500000"));
	ck_assert_int_eq(p.d.line, 1);
	tu_point_free(&p);
	snprintf(text, sizeof(text), DEVICE "workload: {fio: %s/none.fio}\n", dir);
	ck_assert_int_eq(tu_point_build(&p, "test.yaml", text, strlen(text), "device", 1), -1);
	ck_assert_ptr_nonnull(strstr(p.d.msg, "cannot open"));
	tu_point_free(&p);
}
END_TEST

/* A group whose slots mostly have nothing to do (size = one block, four
 * in flight) hands over to the next group while it starts; job names
 * become plain column names. */
START_TEST(tiny_groups)
{
	const char *job = write_job("tiny.fio", "[global]\nbs=64k\niodepth=4\n"
						"[first job]\nrw=write\nsize=64k\n"
						"[b]\nstonewall\nrw=read\nsize=64k\n"
						"[c]\nstonewall\nrw=read\nsize=128k\n");
	struct tu_point p;
	char *log = run_log(&p, "seed: 1\n" DEVICE "workload: {fio: %s}\n", job);
	ck_assert_uint_eq(p.load->stats.ops[RS_ST_WRITE], 1);
	ck_assert_uint_eq(p.load->stats.ops[RS_ST_READ], 3);
	ck_assert_str_eq(p.load->figures[0].name, "first_job_iops");
	ck_assert_uint_eq(p.load->nfigures, 6);
	free(log);
	tu_point_free(&p);
}
END_TEST

/* Flushes were once counted as reads: a sync iometer workload of writes
 * only has no reads, and its flushes have their own figures. */
START_TEST(iometer_sync_counts_flushes)
{
	struct tu_point p;
	tu_point_runf(&p, "test.yaml", "device", 1,
		      "device: {type: ideal, service: fixed, mean: 1ms}\n"
		      "workload:\n"
		      "  iometer: {spec: seqwrite, size: 4KiB, outstanding: 2, sync: true, "
		      "run: 100ms}\n");
	ck_assert_uint_eq(p.load->stats.ops[RS_ST_READ], 0);
	/* The device serves one request at a time, 1 ms each, flushes too:
	 * the two slots' writes and flushes share its 100 ms (the flush
	 * completing at 100 ms is after the window). */
	ck_assert_uint_eq(p.load->stats.ops[RS_ST_WRITE], 50);
	ck_assert_uint_eq(p.load->flushes, 49);
	ck_assert_double_eq_tol(rs_load_figure_value(p.load, "flush_iops"), 490, 1e-9);
	ck_assert_double_eq_tol(p.load->summary.iops, 500, 1e-9);
	tu_point_free(&p);
	tu_point_runf(&p, "test.yaml", "device", 1,
		      "device: {type: ideal, service: fixed, mean: 1ms}\n"
		      "workload:\n"
		      "  iometer: {spec: seqwrite, size: 4KiB, flush_every: 4, run: 100ms}\n");
	ck_assert_uint_eq(p.load->stats.ops[RS_ST_WRITE], 80);
	ck_assert_uint_eq(p.load->flushes, 19);
	tu_point_free(&p);
	/* Without flushes the table keeps its columns. */
	tu_point_runf(&p, "test.yaml", "device", 1,
		      "device: {type: ideal, service: fixed, mean: 1ms}\n"
		      "workload:\n  iometer: {spec: seqwrite, size: 4KiB, run: 10ms}\n");
	ck_assert_uint_eq(p.load->nfigures, 0);
	tu_point_free(&p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fio");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, ini_syntax);
	tcase_add_test(tc, ini_refused);
	tcase_add_test(tc, units);
	tcase_add_test(tc, options);
	suite_add_tcase(s, tc);
	tc = tcase_create("run");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, same_requests_as_iometer);
	tcase_add_test(tc, sync_writes);
	tcase_add_test(tc, stonewall_groups);
	tcase_add_test(tc, bad_job_in_scenario);
	tcase_add_test(tc, tiny_groups);
	tcase_add_test(tc, iometer_sync_counts_flushes);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
