/* Cross-checks against DiskSim 4.0's own simulation of the same drives
 * (DiskSim's outputs with the same parameters, not measurements), run on
 * the models 'raidsim import disksim' writes (models/disks/disksim/).
 * Each figure within 3 % is asserted.  Nothing here is fitted: the models come from
 * DiskSim's parameter files alone. */
#define TU_WANT_SCENARIO
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../unit/testutil.h"

#define TOL 0.03

/* QD1 random 4 KiB reads over the whole disk, 60 simulated seconds. */
#define QD1 "device: {model: %s}\n" \
	"workload:\n  iometer: {spec: default, size: 4KiB, align: 512B, read: 100%%, " \
	"random: 100%%, outstanding: 1, run: 60s}\n"

/* One drive behind a host queue (the driver's), drive queue 1. */
#define HOSTQ "device:\n  type: controller\n  ports: 1\n  queue_depth: 1\n" \
	"  queue_policy: %s\n  array:\n    type: array\n    level: single\n" \
	"    disks: {model: atlas10k, count: 1}\n" \
	"workload:\n  iometer: {spec: default, size: 4KiB, align: 512B, read: 100%%, " \
	"random: 100%%, outstanding: 16, run: 60s}\n"

static int check(const char *what, double ours, double theirs)
{
	double err = ours / theirs - 1;
	printf("%-40s ours %8.3f  DiskSim %8.3f  (%+.1f%%)\n", what, ours, theirs, 100 * err);
	return fabs(err) <= TOL;
}

START_TEST(atlas10k_qd1_random_reads)
{
	struct tu_run r;
	tu_run(&r, QD1, "atlas10k");
	ck_assert(check("Atlas 10K QD1 mean response (ms)", r.s.lat_mean_ms, 9.380));
	ck_assert(check("Atlas 10K QD1 IOPS", r.s.iops, 106.6));
	ck_assert(check("Atlas 10K QD1 p50 (ms)", r.s.lat_p50_ms, 9.35));
	ck_assert(check("Atlas 10K QD1 p90 (ms)", r.s.lat_p90_ms, 12.79));
	ck_assert(check("Atlas 10K QD1 p99 (ms)", r.s.lat_p99_ms, 15.26));
}
END_TEST

START_TEST(cheetah9lp_qd1_random_reads)
{
	struct tu_run r;
	tu_run(&r, QD1, "cheetah9LP");
	ck_assert(check("Cheetah 9LP QD1 mean response (ms)", r.s.lat_mean_ms, 9.640));
	ck_assert(check("Cheetah 9LP QD1 IOPS", r.s.iops, 103.7));
}
END_TEST

START_TEST(host_side_fcfs_and_clook)
{
	struct tu_run r;
	tu_run(&r, HOSTQ, "fifo");
	ck_assert(check("Atlas 10K host FCFS, 16 outstanding IOPS", r.s.iops, 106.6));
	tu_run(&r, HOSTQ, "elevator");
	ck_assert(check("Atlas 10K host C-LOOK, 16 outstanding IOPS", r.s.iops, 148.6));
}
END_TEST

/* DiskSim's driver SSTF_LBN: the nearest block number to where the last
 * dispatched request ended. */
START_TEST(host_side_sstf)
{
	struct tu_run r;
	tu_run(&r, HOSTQ, "sstf");
	ck_assert(check("Atlas 10K host SSTF, 16 outstanding IOPS", r.s.iops, 150.7));
}
END_TEST

/* RAID0 of four drives on ONE SCSI bus (atlas10k.parv's BUS1: arbitration
 * time 0, block transfer times 0, so no limit of its own and the drives'
 * 0.099 ms per block governs; the bus is half duplex and held only for the
 * command, data and status phases), driver FCFS, drive queue 1. */
START_TEST(raid0_on_one_scsi_bus)
{
	struct tu_run r;
	tu_run(&r, "device:\n  type: controller\n  ports: 1\n  channel: scsi\n"
		   "  devices_per_port: 4\n  port_link: {rate: 10GB/s, overhead: 0s}\n"
		   "  queue_depth: 1\n"
		   "  array: {type: array, level: raid0, strip: 64KiB, disks: {model: atlas10k, "
		   "count: 4}}\n"
		   "workload:\n  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 100%%, "
		   "random: 100%%, outstanding: 16, run: 60s}\n");
	ck_assert(check("RAID0 4 x Atlas 10K, one SCSI bus, IOPS", r.s.iops, 371.6));
	ck_assert(check("RAID0 4 x Atlas 10K, one SCSI bus, mean (ms)", r.s.lat_mean_ms, 43.05));
}
END_TEST

/* Host SPTF as DiskSim's driver does it (SPTF_OPT): it asks its copy of
 * the disk model (disk_buffer_estimate_servtime) for each queued request's
 * seek and rotation from the drive's mechanical state as last updated --
 * at the end of the last sector the read-ahead has read, before the sector
 * under the head, which the drive then finishes before it moves.  That is
 * queue_policy sptf-host.  raidsim's own sptf, the drive's exact estimate,
 * is printed beside it: it misses fewer sectors by a turn. */
START_TEST(host_side_sptf)
{
	struct tu_run r;
	tu_run(&r, HOSTQ, "sptf-host");
	ck_assert(check("Atlas 10K host SPTF, 16 outstanding IOPS", r.s.iops, 174.0));
	tu_run(&r, HOSTQ, "sptf");
	check("  (the drive's exact estimate instead)", r.s.iops, 174.0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("disksim_xcheck");
	TCase *tc = tcase_create("xcheck");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, atlas10k_qd1_random_reads);
	tcase_add_test(tc, cheetah9lp_qd1_random_reads);
	tcase_add_test(tc, host_side_fcfs_and_clook);
	tcase_add_test(tc, host_side_sstf);
	tcase_add_test(tc, raid0_on_one_scsi_bus);
	tcase_add_test(tc, host_side_sptf);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
