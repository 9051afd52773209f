/* The host stack stage (`host`) and the HBA stage (`hba`) in front of a
 * device: each adds its latency at QD1 (exactly, in front of a fixed-time
 * ideal device) and caps IOPS at high QD (the CPUs' cost per request, the
 * adapter's IOPS ceiling); interrupt coalescing trades interrupts for
 * latency; the adapter's bandwidth caps large transfers; flushes and FUA
 * writes pass through; and the shipped models (linux-4-blk-mq,
 * lsi-sas3008) build in front of a drive. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/models.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "host/host_stack.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "ssd/ssd.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

#define IDEAL "{type: ideal, mean: 100us, servers: 4096}"

struct bench {
	struct rs_model_path mp;
	struct rs_sim *sim;
	struct rs_node *root;
	struct rs_dev *dev;
};

static void open_dev(struct bench *b, const char *text)
{
	tu_model_path(&b->mp, NULL);
	b->sim = rs_sim_new(1);
	struct rs_diag d;
	b->dev = tu_build_text(b->sim, &b->mp, text, "dev0", &b->root, &d);
	ck_assert_msg(b->dev != NULL, "%s", d.msg);
}

static void close_dev(struct bench *b)
{
	tu_check_conservation(b->sim);
	rs_dev_destroy(b->dev);
	rs_node_free(b->root);
	rs_sim_free(b->sim);
	rs_model_path_free(&b->mp);
}

static rs_time_t last_latency;
static int last_status;

static void timed_done(struct rs_sim *sim, struct rs_io *io)
{
	last_latency = io->t_done - io->t_submit;
	last_status = io->status;
	rs_io_free(sim, io);
}

static rs_time_t one(struct bench *b, enum rs_op op, uint64_t lba, uint32_t nblk, bool fua)
{
	struct rs_io *io = rs_io_new(b->sim, op, lba, nblk, timed_done, NULL);
	io->fua = fua;
	last_latency = -1;
	rs_dev_submit(b->sim, b->dev, io);
	rs_sim_run(b->sim, RS_TIME_MAX);
	ck_assert(last_latency >= 0);
	ck_assert_int_eq(last_status, 0);
	return last_latency;
}

static double iops_at(const char *device, int qd)
{
	struct tu_point p;
	tu_point_runf(&p, "host.yaml", "dev0", 1,
		      "device: %s\n"
		      "workload:\n"
		      "  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 100%%, "
		      "random: 100%%, outstanding: %d, ramp: 0.01s, run: 0.1s}\n", device, qd);
	double iops = p.load->summary.iops;
	tu_point_free(&p);
	return iops;
}

/* QD1: the request pays submit, interrupt and completion once each. */
START_TEST(host_adds_latency_at_qd1)
{
	struct bench b;
	open_dev(&b, "type: host\nsubmit_cost: 2us\ncomplete_cost: 1.5us\ninterrupt_cost: 1us\n"
		     "device: " IDEAL "\n");
	ck_assert_int_eq(one(&b, RS_READ, 0, 8, false), 104500);
	ck_assert_uint_eq(rs_host_interrupts(b.dev), 1);
	close_dev(&b);
}
END_TEST

/* High QD: one CPU at 4.5 us a request caps the stack at 222,222 IOPS,
 * whatever the device behind it could do; two CPUs double it. */
START_TEST(host_caps_iops_at_high_qd)
{
	const char *one_cpu = "{type: host, submit_cost: 2us, complete_cost: 1.5us, "
			      "interrupt_cost: 1us, device: " IDEAL "}";
	const char *two_cpus = "{type: host, cpus: 2, submit_cost: 2us, complete_cost: 1.5us, "
			       "interrupt_cost: 1us, device: " IDEAL "}";
	double bare = iops_at(IDEAL, 256);
	double one = iops_at(one_cpu, 256);
	double two = iops_at(two_cpus, 256);
	printf("host stage at QD256: device alone %.0f IOPS, 1 CPU %.0f, 2 CPUs %.0f "
	       "(ceilings 222,222 and 444,444)\n", bare, one, two);
	fflush(stdout);
	ck_assert_double_gt(bare, 2e6);
	ck_assert_double_le(one, 222222 * 1.001);
	ck_assert_double_ge(one, 222222 * 0.97);
	ck_assert_double_le(two, 444444 * 1.001);
	ck_assert_double_ge(two, 444444 * 0.97);
}
END_TEST

/* Coalescing: at QD1 every completion waits coalesce_time for company; at
 * high QD interrupts fall to one per coalesce_count and the CPU's cost per
 * request with them (2 + 1.5 + 1/8 us: 275,862 IOPS). */
START_TEST(host_coalesces_interrupts)
{
	struct bench b;
	open_dev(&b, "type: host\nsubmit_cost: 2us\ncomplete_cost: 1.5us\ninterrupt_cost: 1us\n"
		     "coalesce_count: 8\ncoalesce_time: 50us\ndevice: " IDEAL "\n");
	ck_assert_int_eq(one(&b, RS_READ, 0, 8, false), 154500);
	close_dev(&b);
	double iops = iops_at("{type: host, submit_cost: 2us, complete_cost: 1.5us, "
			      "interrupt_cost: 1us, coalesce_count: 8, coalesce_time: 50us, "
			      "device: " IDEAL "}", 256);
	printf("host stage, 8 completions an interrupt: %.0f IOPS (ceiling 275,862)\n", iops);
	fflush(stdout);
	ck_assert_double_le(iops, 275862 * 1.001);
	ck_assert_double_ge(iops, 275862 * 0.97);
}
END_TEST

/* The HBA at QD1: its command slot (1/iops) and latency; a read's data
 * crosses its bandwidth on the way back. */
START_TEST(hba_adds_latency_at_qd1)
{
	struct bench b;
	open_dev(&b, "type: hba\niops: 500000\nbandwidth: 4096MB/s\ncommand_latency: 5us\n"
		     "device: " IDEAL "\n");
	/* 2 us slot + 5 us + 100 us + 4096 B at 4096 MB/s (1 us) */
	ck_assert_int_eq(one(&b, RS_READ, 0, 8, false), 108000);
	close_dev(&b);
}
END_TEST

START_TEST(hba_caps_iops_and_bandwidth)
{
	double iops = iops_at("{type: hba, iops: 300000, device: " IDEAL "}", 256);
	printf("hba at QD256: %.0f IOPS (ceiling 300,000)\n", iops);
	fflush(stdout);
	ck_assert_double_le(iops, 300000 * 1.001);
	ck_assert_double_ge(iops, 300000 * 0.97);
	struct tu_point p;
	tu_point_runf(&p, "host.yaml", "dev0", 1,
		      "device: {type: hba, bandwidth: 1000MB/s, device: " IDEAL "}\n"
		      "workload:\n"
		      "  iometer: {spec: default, size: 1MiB, read: 100%%, random: 0%%, "
		      "outstanding: 32, ramp: 0.01s, run: 0.2s}\n");
	double mb_s = p.load->summary.mb_s;
	tu_point_free(&p);
	printf("hba, 1 MiB reads at QD32: %.1f MB/s (ceiling 1000)\n", mb_s);
	fflush(stdout);
	ck_assert_double_le(mb_s, 1000 * 1.01);
	ck_assert_double_ge(mb_s, 1000 * 0.97);
}
END_TEST

/* A flush and a FUA write reach a drive without power-loss protection
 * through both stages: each waits for its program. */
START_TEST(flush_and_fua_pass_through)
{
	struct bench b;
	open_dev(&b, "type: host\nsubmit_cost: 2us\ndevice:\n  type: hba\n  iops: 1000000\n"
		     "  device: {type: ssd, capacity: 48MiB, channels: 2, dies_per_channel: 2, "
		     "planes: 2, blocks_per_plane: 64, pages_per_block: 16, t_prog: 1.2ms, "
		     "write_buffer: 256KiB, state: full, power_loss_protection: false}\n");
	struct rs_dev *ssd = b.dev->members[0]->members[0];
	ck_assert_int_lt(one(&b, RS_WRITE, 0, 8, false), 100000);
	ck_assert_int_ge(one(&b, RS_FLUSH, 0, 0, false), 1200000);
	ck_assert_int_ge(one(&b, RS_WRITE, 64, 8, true), 1200000);
	ck_assert_uint_eq(rs_ssd_counters(ssd)->flushes, 1);
	ck_assert_uint_eq(rs_ssd_counters(ssd)->fua_through, 1);
	close_dev(&b);
}
END_TEST

/* The shipped models: Linux in front of the SAS3008 in front of an S3700.
 * The stack adds its 4.5 us and the adapter its 1 us slot, 6 us latency
 * and the data's 0.6 us to the drive's own QD1 read. */
START_TEST(shipped_models)
{
	struct bench b;
	open_dev(&b, "model: intel-dc-s3700-400g\nstate: full\n");
	rs_time_t drive = one(&b, RS_READ, 0, 8, false);
	close_dev(&b);
	open_dev(&b, "model: linux-4-blk-mq\ndevice:\n  model: lsi-sas3008\n"
		     "  device: {model: intel-dc-s3700-400g, state: full}\n");
	rs_time_t stacked = one(&b, RS_READ, 0, 8, false);
	close_dev(&b);
	printf("S3700 4 KiB read at QD1: drive %.2f us, behind Linux and the SAS3008 %.2f us\n",
	       drive / 1e3, stacked / 1e3);
	fflush(stdout);
	double added = (stacked - drive) / 1e3;
	ck_assert_double_ge(added, 4.5 + 1 + 6 + 0.6 - 0.1);
	ck_assert_double_le(added, 4.5 + 1 + 6 + 0.6 + 0.1);
}
END_TEST

START_TEST(missing_device_refused)
{
	static const struct tu_bad_device bc = { "no device", "type: host\ncpus: 2\n", 1, 1,
						 "missing required key 'device' in host" };
	tu_expect_bad_device(&bc, "dev0");
}
END_TEST

static Suite *host_suite(void)
{
	Suite *s = suite_create("host_stack");
	TCase *tc = tcase_create("host");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, host_adds_latency_at_qd1);
	tcase_add_test(tc, host_caps_iops_at_high_qd);
	tcase_add_test(tc, host_coalesces_interrupts);
	tcase_add_test(tc, hba_adds_latency_at_qd1);
	tcase_add_test(tc, hba_caps_iops_and_bandwidth);
	tcase_add_test(tc, flush_and_fua_pass_through);
	tcase_add_test(tc, shipped_models);
	tcase_add_test(tc, missing_device_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(host_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
