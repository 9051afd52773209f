/* The validation suite: one test per finding of the reference studies (and
 * per datasheet check of the disk models) that the simulator can address
 * today.  Single drives only, on the hdd device's own host port; findings
 * that need a controller, an array or a network come later.
 *
 * The honesty mechanism (validation.h).  `findings[]` below lists every id this program
 * covers with the status we EXPECT (REPRODUCED or NOT_REPRODUCED) and one
 * line saying why.  Each test simulates what the study measured, computes
 * the study's metric, decides whether the finding holds (its direction,
 * and its size within a tolerance stated in the test when the study gives
 * a number), prints
 *
 *     ID: reproduced|NOT reproduced: <measured> (study: <reported>)
 *
 * appends the same to findings.tsv (id, status, measured, study) in the
 * build directory, and only then asserts that the outcome equals the
 * expected status.  So a test fails when a reproduced finding regresses AND
 * when a finding that was not reproduced starts to be: either way the table
 * here and the status table in README.md must be updated by hand.  Model
 * parameters are never tuned to make a finding pass.
 *
 * RS_VALIDATION_FLIP=ID (or a comma-separated list) inverts the expected
 * status of those ids, to see the mechanism bite.
 *
 * Simulated times are a few tens of seconds per point: the drives do
 * 100..300 I/Os per second, so this is a few thousand requests per point
 * and the whole program runs in seconds. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/schema.h"
#include "disk/hdd.h"
#include "disk/hdd_params.h"
#include "validation.h"

/* ---- the table -------------------------------------------------------- */

static const struct finding findings[] = {
	{ "DATASHEET-maxtor-qd1", REPRODUCED,
	  "QD1 random 512 B read = average seek + half a turn + command overhead" },
	{ "DATASHEET-raptor-qd1", REPRODUCED,
	  "QD1 random 512 B read = average seek + half a turn + command overhead" },
	{ "DATASHEET-maxtor-seq", REPRODUCED,
	  "sequential read at the outer and inner zone = the model's zone rates" },
	{ "DATASHEET-raptor-seq", REPRODUCED,
	  "sequential read at the outer and inner zone = the model's zone rates" },
	{ "DATASHEET-seq-wrap", REPRODUCED,
	  "a sequential stream that wraps to the start of its window is read from the "
	  "media again, no faster than the zone rate (guards a fixed bug)" },
	{ "DATASHEET-sptf-gain", REPRODUCED,
	  "SPTF at depth 32 gives at least 1.5x FCFS on random reads" },
};
#define NFINDINGS (sizeof(findings) / sizeof(findings[0]))

/* ---- running a point ---------------------------------------------------- */

struct vres {
	struct rs_iostat_summary s;
	struct rs_hdd_counters c;
};

/* Build `device:` and `workload:` from the YAML text, run to the end, check
 * conservation and the scheduler's prediction invariant. */
static void vrun(struct vres *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vrun(struct vres *out, const char *fmt, ...)
{
	char text[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ck_assert_int_lt(n, (int)sizeof(text));

	struct tu_point p;
	vd_run(&p, "validation.yaml", text, (size_t)n, "disk0");
	out->s = p.load->summary;
	out->c = *rs_hdd_counters(p.dev);
	ck_assert_uint_eq(out->c.mismatches, 0);
	tu_point_free(&p);
}

/* ---- a model's own datasheet figures ----------------------------------- */

struct sheet {
	struct rs_hdd_params p;       /* the whole model bound as the device binds it */
	double avg_seek_ns, outer_rate, inner_rate;
};

static void read_sheet(const char *model, struct sheet *sh)
{
	static const struct rs_opt time_row = { "seek.average", RS_OPT_TIME, 0, NULL, 0,
						0, 0, NULL, NULL };
	static const struct rs_opt rate_row = { "zones rate", RS_OPT_RATE, 0, NULL, 0,
						0, 0, NULL, NULL };
	static const char *const reserved[] = { "type", "model", "description", NULL };
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_model_path mp;
	tu_model_path(&mp, &d);
	struct rs_node *root = rs_model_load(&mp, model, NULL, &d);
	if (!root)
		rs_diag_print(&d, stderr);
	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(rs_schema_bind(rs_hdd_opts, root, &sh->p, root, "device", reserved, &d),
			 0);
	const struct rs_node *avg = rs_node_lookup(root, "seek.average");
	const struct rs_node *outer = rs_node_lookup(root, "zones.outer_rate");
	const struct rs_node *inner = rs_node_lookup(root, "zones.inner_rate");
	ck_assert_msg(avg && outer && inner, "%s: needs seek.average and zones rates", model);
	rs_time_t avg_ns;
	ck_assert_int_eq(rs_schema_convert(&time_row, avg, &avg_ns, &d), 0);
	ck_assert_int_eq(rs_schema_convert(&rate_row, outer, &sh->outer_rate, &d), 0);
	ck_assert_int_eq(rs_schema_convert(&rate_row, inner, &sh->inner_rate, &d), 0);
	sh->avg_seek_ns = (double)avg_ns;
	/* Nodes the params point into belong to root: keep only scalars. */
	sh->p.zones = sh->p.zone_table = sh->p.seek = sh->p.seek_table = sh->p.slips = NULL;
	rs_node_free(root);
	rs_model_path_free(&mp);
}

static const char *const model_name[] = { "maxtor-6l020l0", "wd-raptor-wd740gd" };
static const char *const model_short[] = { "maxtor", "raptor" };

/* ---- DATASHEET-*-qd1 ---------------------------------------------------- */

static void datasheet_qd1(int m)
{
	struct sheet sh;
	read_sheet(model_name[m], &sh);
	double want_ms = (sh.avg_seek_ns + 0.5 * 60e9 / sh.p.rpm +
			  (double)sh.p.overhead_read_ns) / 1e6;
	struct vres r;
	/* queue_depth 1: one command at a time, no queuing protocol cost. */
	vrun(&r,
	     "device: {model: %s, queue_depth: 1}\n"
	     "workload: {iometer: {spec: default, size: 512B, read: 100%%, random: 100%%,\n"
	     "  outstanding: 1, ramp: 1s, run: 30s}}\n", model_name[m]);
	double got = r.s.lat_mean_ms, err = got / want_ms - 1.0;
	bool holds = fabs(err) <= 0.05;
	char id[64], meas[256], study[256];
	snprintf(id, sizeof(id), "DATASHEET-%s-qd1", model_short[m]);
	snprintf(meas, sizeof(meas), "mean %.3f ms over %llu reads (%+.1f %%)", got,
		 (unsigned long long)r.s.ops, 100.0 * err);
	snprintf(study, sizeof(study), "%.2f seek + %.2f half turn + %.2f overhead = %.3f ms, "
		 "within 5 %%", sh.avg_seek_ns / 1e6, 30e3 / sh.p.rpm,
		 (double)sh.p.overhead_read_ns / 1e6, want_ms);
	verdict(id, holds, meas, study);
}

START_TEST(test_DATASHEET_maxtor_qd1) { datasheet_qd1(0); }
END_TEST
START_TEST(test_DATASHEET_raptor_qd1) { datasheet_qd1(1); }
END_TEST

/* ---- DATASHEET-*-seq ---------------------------------------------------- */

/* Sequential 64 KiB reads, 4 outstanding (the X-bit / iXBT setting), over
 * the first and the last 300 MB of the drive: 3.5 s at 72 MB/s reads 252
 * MB, so the stream never wraps to the start of the window (see
 * DATASHEET-seq-wrap for what happens when it does). */
static void datasheet_seq(int m)
{
	struct sheet sh;
	read_sheet(model_name[m], &sh);
	const uint64_t window = 300000256; /* 585938 sectors, about 300 MB */
	uint64_t inner_off = (sh.p.capacity_bytes - window) / 512 * 512;
	const char *fmt = "device: {model: %s}\n"
			  "workload: {iometer: {spec: seqread, size: 64KiB, outstanding: 4,\n"
			  "  range: %lluB, offset: %lluB, ramp: 0.5s, run: 3s}}\n";
	struct vres o, i;
	vrun(&o, fmt, model_name[m], (unsigned long long)window, 0ull);
	vrun(&i, fmt, model_name[m], (unsigned long long)window, (unsigned long long)inner_off);
	double want_o = sh.outer_rate / 1e6, want_i = sh.inner_rate / 1e6;
	double eo = o.s.mb_s / want_o - 1.0, ei = i.s.mb_s / want_i - 1.0;
	bool holds = fabs(eo) <= 0.05 && fabs(ei) <= 0.05;
	char id[64], meas[256], study[256];
	snprintf(id, sizeof(id), "DATASHEET-%s-seq", model_short[m]);
	snprintf(meas, sizeof(meas), "outer %.2f MB/s (%+.1f %%), inner %.2f MB/s (%+.1f %%)",
		 o.s.mb_s, 100.0 * eo, i.s.mb_s, 100.0 * ei);
	snprintf(study, sizeof(study), "model outer_rate %.0f MB/s, inner_rate %.0f MB/s, "
		 "within 5 %%", want_o, want_i);
	verdict(id, holds, meas, study);
}

START_TEST(test_DATASHEET_maxtor_seq) { datasheet_seq(0); }
END_TEST
START_TEST(test_DATASHEET_raptor_seq) { datasheet_seq(1); }
END_TEST

/* ---- DATASHEET-seq-wrap ------------------------------------------------- */

/* IOMeter's sequential streams wrap at the end of their range.  A drive
 * cannot read faster than its media whatever the addresses: sequential
 * reads over a 200 MB window at the outer edge of the Raptor, 10 s (the
 * stream wraps about three times), must stay within 5 % of outer_rate. */
START_TEST(test_DATASHEET_seq_wrap)
{
	struct sheet sh;
	read_sheet(model_name[1], &sh);
	struct vres r;
	vrun(&r, "device: {model: %s}\n"
		 "workload: {iometer: {spec: seqread, size: 64KiB, outstanding: 4,\n"
		 "  range: 200MB, ramp: 0.5s, run: 10s}}\n", model_name[1]);
	double want = sh.outer_rate / 1e6, err = r.s.mb_s / want - 1.0;
	char meas[256], study[128];
	snprintf(meas, sizeof(meas), "Raptor sequential reads wrapping a 200 MB window: %.2f MB/s "
		 "(%+.1f %%); %llu of %llu media reads taken as stream continuations", r.s.mb_s,
		 100.0 * err, (unsigned long long)r.c.stream_reads,
		 (unsigned long long)r.c.media_ops);
	snprintf(study, sizeof(study), "at most the media rate: outer_rate %.0f MB/s, within 5 %%",
		 want);
	verdict("DATASHEET-seq-wrap", fabs(err) <= 0.05, meas, study);
}
END_TEST

/* ---- DATASHEET-sptf-gain ------------------------------------------------ */

START_TEST(test_DATASHEET_sptf_gain)
{
	const char *fmt = "device: {model: maxtor-6l020l0, queue_depth: 32, scheduler: %s}\n"
			  "workload: {iometer: {spec: default, size: 4KiB, read: 100%%,\n"
			  "  random: 100%%, outstanding: 32, ramp: 1s, run: 15s}}\n";
	struct vres f, s;
	vrun(&f, fmt, "fcfs");
	vrun(&s, fmt, "sptf");
	double ratio = s.s.iops / f.s.iops;
	char meas[256];
	snprintf(meas, sizeof(meas), "Maxtor QD32 4 KiB random reads: SPTF %.1f IOPS, FCFS %.1f "
		 "IOPS, ratio %.2f", s.s.iops, f.s.iops, ratio);
	verdict("DATASHEET-sptf-gain", ratio >= 1.5, meas,
		"rotational-position ordering at depth 32 gives >= 1.5x FCFS");
}
END_TEST

/* ---- main ------------------------------------------------------------------- */

static Suite *validation_suite(void)
{
	Suite *s = suite_create("validation");
	TCase *tc = tcase_create("single-drive");
	tcase_set_tags(tc, "slow");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_DATASHEET_maxtor_qd1);
	tcase_add_test(tc, test_DATASHEET_raptor_qd1);
	tcase_add_test(tc, test_DATASHEET_maxtor_seq);
	tcase_add_test(tc, test_DATASHEET_raptor_seq);
	tcase_add_test(tc, test_DATASHEET_seq_wrap);
	tcase_add_test(tc, test_DATASHEET_sptf_gain);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vd_main(validation_suite, findings, NFINDINGS, "check_validation.c",
		       "findings.tsv");
}
