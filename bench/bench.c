/* rs-bench: how fast the core is, and that memory does not grow with the
 * length of a run.
 *
 *   1. the event kernel under the classic hold model: a fixed number of
 *      pending events; each firing pops the minimum and pushes it back at
 *      now + an exponential increment;
 *   2. simulated I/Os per wall second: the ideal device, IOMeter closed
 *      loop at queue depth 16, 4 KiB random reads, fixed 100 us service;
 *   3. memory of that run at 10^6 and 10^7 I/Os, each in a child process
 *      of its own so one run's heap cannot hide another's: the heap the
 *      simulation holds when the run ends (the target) and the peak
 *      resident set (shown beside it);
 *   4. simulated I/Os per wall second of one hdd: the Maxtor model with
 *      4 KiB random reads at queue depth 1, and the Raptor model at queue
 *      depth 32 with SPTF (the scheduler's full cost: 32 candidates
 *      positioned per dispatch);
 *   5. simulated I/Os per wall second of one ssd: the Intel DC S3700
 *      100 GB model in the random-write steady state, 4 KiB random reads
 *      at queue depth 32; and the heap of an 800 GB drive after steady-
 *      state random writes at queue depth 32 (its maps hold only what was
 *      written: 24 such drives in RAID0 must fit in 4 GiB, ~170 MiB each);
 *   6. the iSCSI adapter and the TX4000 RAID01 paths: speed, and heap
 *      after a tenth and a full run;
 *   7. the two request paths DiskSim is compared on (the DiskSim cross-
 *      check's set-ups, tests/validation/check_disksim_xcheck.c): 4 KiB
 *      random reads at queue depth 1 on the imported Atlas 10K, and RAID0
 *      of four of them on one SCSI bus at 16 outstanding.  bench/
 *      instructions.sh counts their instructions per request beside it
 *      (`rs-bench only NAME COUNT` runs one of them alone for that).
 *
 * `make bench` builds and runs it.  Targets: >= 15 M holds/s, >= 3 M
 * I/Os/s, memory ratio within 5 %, hdd >= 1 M I/Os/s at QD1 and >= 300 k
 * at QD32 SPTF, ssd >= 1 M I/Os/s at QD32 and <= 170 MiB of heap.  The exit status is 0 even when a
 * target is missed (the numbers depend on the machine); the line says so. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdbool.h>
#include <malloc.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "kernel/sim.h"
#include "load/load.h"
#include "tree/tree.h"

static const char *verdict(int ok) { return ok ? "ok" : "MISSED"; }

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- 1. hold model ---------------------------------------------------- */

/* Increments are drawn up front: the benchmark measures the event set,
 * not libm's log().  A table much larger than the pending set keeps the
 * sequence from repeating in step with the heap. */
#define HOLD_PENDING 1000
#define HOLD_TABLE (1u << 16)

struct hold {
	rs_time_t *incr;
	uint32_t next;
	uint64_t left;
};

static void hold_fire(struct rs_sim *sim, void *obj, void *arg)
{
	struct hold *h = arg;
	if (--h->left == 0) {
		rs_sim_stop(sim);
		return;
	}
	rs_sched(sim, h->incr[h->next++ & (HOLD_TABLE - 1)], hold_fire, obj, arg);
}

static double bench_hold(uint64_t holds)
{
	struct hold h = { malloc(HOLD_TABLE * sizeof(rs_time_t)), 0, holds };
	if (!h.incr)
		abort();
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
	gsl_rng_set(r, 1);
	for (uint32_t i = 0; i < HOLD_TABLE; i++)
		h.incr[i] = (rs_time_t)llround(gsl_ran_exponential(r, 1000.0));
	struct rs_sim *sim = rs_sim_new(1);
	for (uintptr_t i = 0; i < HOLD_PENDING; i++)
		rs_sched(sim, h.incr[h.next++ & (HOLD_TABLE - 1)], hold_fire, (void *)i, &h);
	double t0 = wall();
	uint64_t fired = rs_sim_run(sim, RS_TIME_MAX);
	double dt = wall() - t0;
	if (fired != holds || rs_sim_pending(sim) != HOLD_PENDING - 1) {
		fprintf(stderr, "rs-bench: hold model fired %llu events, expected %llu\n",
			(unsigned long long)fired, (unsigned long long)holds);
		exit(EXIT_FAILURE);
	}
	rs_sim_free(sim);
	gsl_rng_free(r);
	free(h.incr);
	return (double)holds / dt;
}

/* ---- 2. the ideal device ---------------------------------------------- */

static const char scenario_fmt[] =
	"device: {type: ideal, service: fixed, mean: 100us}\n"
	"workload:\n"
	"  iometer: {spec: default, size: 4KiB, read: 100%%, random: 100%%,\n"
	"            outstanding: 16, run: 1000000s, count: %llu}\n";

/* Build and run a scenario (printf format with one %llu: the count) for
 * `ios` measured requests; returns the wall seconds of the run alone
 * (building is not timed).  Models come from $RAIDSIM_MODELS or ./models. */
/* Heap bytes in use when the last run finished, before teardown: what the
 * simulation itself holds (pools, histograms, models), free of the
 * page-level noise of the resident set. */
static size_t heap_after_run;

static double run_text(const char *fmt, uint64_t ios, uint64_t *events)
{
	char text[1024];
	int n = snprintf(text, sizeof(text), fmt, (unsigned long long)ios);
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_node *root = rs_yaml_load_string("bench.yaml", text, (size_t)n, &d);
	struct rs_model_path mp;
	rs_model_path_init(&mp);
	if (!getenv("RAIDSIM_MODELS") && access("models", F_OK) == 0)
		rs_model_path_add(&mp, "models", &d);
	rs_model_path_add_defaults(&mp);
	struct rs_sim *sim = rs_sim_new(1);
	struct rs_build b = { .sim = sim, .types = rs_tree_types(), .models = &mp, .diag = &d };
	struct rs_dev *dev = root ? rs_dev_build(&b, rs_node_get(root, "device"), "device",
						 "device")
				  : NULL;
	struct rs_load *load = dev ? rs_load_build(sim, rs_node_get(root, "workload"), dev, &d)
				   : NULL;
	if (!load) {
		rs_diag_print(&d, stderr);
		exit(EXIT_FAILURE);
	}
	double t0 = wall();
	rs_load_run(sim, load);
	double dt = wall() - t0;
	if (load->summary.ops != ios) {
		fprintf(stderr, "rs-bench: measured %llu I/Os, expected %llu\n",
			(unsigned long long)load->summary.ops, (unsigned long long)ios);
		exit(EXIT_FAILURE);
	}
	if (events)
		*events = sim->events_fired;
	struct mallinfo2 mi = mallinfo2();
	heap_after_run = mi.uordblks + mi.hblkhd;
	rs_load_destroy(load);
	rs_dev_destroy(dev);
	rs_sim_free(sim);
	rs_model_path_free(&mp);
	rs_node_free(root);
	return dt;
}

static double run_ideal(uint64_t ios, uint64_t *events)
{
	return run_text(scenario_fmt, ios, events);
}

/* ---- 4. one hdd ------------------------------------------------------- */

static const char hdd_qd1_fmt[] =
	"device: {model: maxtor-6l020l0}\n"
	"workload:\n"
	"  iometer: {spec: default, size: 4KiB, read: 100%%, random: 100%%,\n"
	"            outstanding: 1, run: 1000000000s, count: %llu}\n";

/* reorder_window: 0 weighs all 32 queued commands, as this benchmark did
 * before the Raptor model's bridge reach (8) was calibrated: the figure
 * stays the cost of a full SPTF pick. */
static const char hdd_qd32_fmt[] =
	"device: {model: wd-raptor-wd740gd, queue_depth: 32, scheduler: sptf,\n"
	"         reorder_window: 0}\n"
	"workload:\n"
	"  iometer: {spec: default, size: 4KiB, read: 100%%, random: 100%%,\n"
	"            outstanding: 32, run: 1000000000s, count: %llu}\n";

/* ---- 5. one ssd -------------------------------------------------------- */

static const char ssd_qd32_fmt[] =
	"device: {model: intel-dc-s3700-100g, state: steady}\n"
	"workload:\n"
	"  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 100%%, random: 100%%,\n"
	"            outstanding: 32, run: 1000000000s, count: %llu}\n";

static const char ssd800_write_fmt[] =
	"device: {model: intel-dc-s3700-800g, state: steady}\n"
	"workload:\n"
	"  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 0%%, random: 100%%,\n"
	"            outstanding: 32, run: 1000000000s, count: %llu}\n";

/* ---- 6. an iSCSI adapter and its target ------------------------------- */

/* Every request is processor jobs, two network crossings on two links each
 * (port and switch uplink) with their ACKs, and the target's gateway and
 * cache: the longest request path in raidsim. */
static const char iscsi_fmt[] =
	"device: {model: alacritech-ses1001t, target: {model: mcdata-ips3300-lsi-df4000r}}\n"
	"workload:\n"
	"  iometer: {spec: default, size: 8KiB, read: 50%%, random: 100%%, range: 64MiB,\n"
	"            outstanding: 32, run: 1000000000s, count: %llu}\n";

/* The driver's cache, the array's mirror and stripe fan-out, the channels
 * and four mechanical drives with their caches. */
static const char tx4000_fmt[] =
	"device:\n"
	"  model: promise-tx4000\n"
	"  cache: {mode: write-back}\n"
	"  array: {type: array, level: raid01, strip: 64KiB,\n"
	"          disks: {model: maxtor-6l020l0, count: 4}}\n"
	"workload:\n"
	"  iometer: {spec: database, outstanding: 16, run: 1000000000s, count: %llu}\n";

/* ---- 7. the DiskSim cross-check's paths --------------------------------- */

static const char atlas_qd1_fmt[] =
	"device: {model: atlas10k}\n"
	"workload:\n"
	"  iometer: {spec: default, size: 4KiB, align: 512B, read: 100%%, random: 100%%,\n"
	"            outstanding: 1, run: 1000000000s, count: %llu}\n";

static const char atlas_raid0_fmt[] =
	"device:\n"
	"  type: controller\n"
	"  ports: 1\n"
	"  channel: scsi\n"
	"  devices_per_port: 4\n"
	"  port_link: {rate: 10GB/s, overhead: 0s}\n"
	"  queue_depth: 1\n"
	"  array: {type: array, level: raid0, strip: 64KiB, disks: {model: atlas10k, count: 4}}\n"
	"workload:\n"
	"  iometer: {spec: default, size: 4KiB, align: 4KiB, read: 100%%, random: 100%%,\n"
	"            outstanding: 16, run: 1000000000s, count: %llu}\n";

/* The workloads `rs-bench only` runs by name, for the instruction counts:
 * the same text as in the table, so the two figures describe one path. */
static const struct named_path {
	const char *name, *what, *fmt;
} named_paths[] = {
	{ "atlas10k-qd1", "hdd atlas10k (DiskSim import), QD1 4KiB random read", atlas_qd1_fmt },
	{ "atlas10k-raid0-qd16", "RAID0 4 x atlas10k on one SCSI bus, QD16 4KiB random read",
	  atlas_raid0_fmt },
};

/* One request path: its speed over `ios` requests, and the heap it holds
 * at the end against a run of a tenth as many (equal, or something on the
 * path grows with run length).  target_k: thousand I/Os per wall second. */
static void bench_path(const char *what, const char *fmt, uint64_t ios, double target_k)
{
	run_text(fmt, ios / 10, NULL);
	size_t heap_small = heap_after_run;
	uint64_t events = 0;
	double dt = run_text(fmt, ios, &events);
	double iops = (double)ios / dt;
	printf("%s: %.0f thousand simulated I/Os per wall second (%llu I/Os, %llu events in "
	       "%.2f s)  [target >= %.0f: %s]\n",
	       what, iops / 1e3, (unsigned long long)ios, (unsigned long long)events, dt,
	       target_k, verdict(iops >= target_k * 1e3));
	double ratio = (double)heap_after_run / (double)(heap_small ? heap_small : 1);
	printf("  heap: %zu KiB after %llu I/Os, %zu KiB after %llu, ratio %.3f  "
	       "[target within 5%%: %s]\n",
	       heap_small / 1024, (unsigned long long)(ios / 10), heap_after_run / 1024,
	       (unsigned long long)ios, ratio, verdict(fabs(ratio - 1.0) <= 0.05));
}

/* ---- 3. peak memory ----------------------------------------------------- */

/* ru_maxrss (KiB) of a child that runs `ios` I/Os and exits; *heap gets
 * the heap bytes it held at the end of its run. */
static long peak_rss_kib(uint64_t ios, size_t *heap)
{
	int fd[2];
	fflush(stdout);
	if (pipe(fd) != 0) {
		perror("rs-bench: pipe");
		exit(EXIT_FAILURE);
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("rs-bench: fork");
		exit(EXIT_FAILURE);
	}
	if (pid == 0) {
		close(fd[0]);
		run_ideal(ios, NULL);
		if (write(fd[1], &heap_after_run, sizeof(heap_after_run)) !=
		    (ssize_t)sizeof(heap_after_run))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], heap, sizeof(*heap)) != (ssize_t)sizeof(*heap))
		*heap = 0;
	close(fd[0]);
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "rs-bench: the memory run of %llu I/Os failed\n",
			(unsigned long long)ios);
		exit(EXIT_FAILURE);
	}
	return ru.ru_maxrss;
}


static const struct named_path *named_path(const char *name)
{
	for (size_t i = 0; i < sizeof(named_paths) / sizeof(named_paths[0]); i++)
		if (strcmp(named_paths[i].name, name) == 0)
			return &named_paths[i];
	return NULL;
}

/* `rs-bench only NAME COUNT`: one named path for COUNT requests, nothing
 * else, printing its requests per wall second (the instruction counter
 * subtracts two such runs of different lengths, so building the device
 * and loading models drop out). */
static int only(int argc, char **argv)
{
	/* `hold`: the kernel's hold model (section 1) for COUNT holds, so a
	 * change to the event set is counted per hold like the paths. */
	bool hold = argc == 4 && strcmp(argv[2], "hold") == 0;
	const struct named_path *p = argc == 4 && !hold ? named_path(argv[2]) : NULL;
	char *end;
	unsigned long long n = p || hold ? strtoull(argv[3], &end, 10) : 0;
	if ((!p && !hold) || *end != '\0' || n == 0) {
		fprintf(stderr, "usage: rs-bench only NAME COUNT (NAME: hold");
		for (size_t i = 0; i < sizeof(named_paths) / sizeof(named_paths[0]); i++)
			fprintf(stderr, " %s", named_paths[i].name);
		fprintf(stderr, ")\n");
		return 2;
	}
	if (hold) {
		printf("%.0f\n", bench_hold(n));
		return EXIT_SUCCESS;
	}
	double dt = run_text(p->fmt, n, NULL);
	printf("%.0f\n", (double)n / dt);
	return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "only") == 0)
		return only(argc, argv);
	/* `rs-bench quick` for a smoke run (CI): a tenth of the work. */
	int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
	uint64_t holds = quick ? 2000000 : 20000000;
	uint64_t ios = quick ? 1000000 : 10000000;

	/* Memory first, while this process is still small: a forked child
	 * starts with the parent's resident pages. */
	long rss_small = LONG_MAX, rss_large = LONG_MAX;
	size_t heap_small = 0, heap_large = 0;
	/* The smallest of three: the resident set of a 2 MiB process varies by
	 * a page table or a few library pages from one run to the next, which
	 * is a sizeable fraction of 5 %. */
	for (int i = 0; i < 3; i++) {
		long s = peak_rss_kib(ios / 10, &heap_small), l = peak_rss_kib(ios, &heap_large);
		rss_small = s < rss_small ? s : rss_small;
		rss_large = l < rss_large ? l : rss_large;
	}

	double hps = bench_hold(holds);
	printf("kernel hold model: %.2f million holds/s (%d pending, %llu holds)  "
	       "[target >= 15: %s]\n",
	       hps / 1e6, HOLD_PENDING, (unsigned long long)holds, verdict(hps >= 15e6));

	uint64_t events = 0;
	double dt = run_ideal(ios, &events);
	double iops = (double)ios / dt;
	printf("ideal device, QD16 4KiB random read, 100us fixed: %.2f million simulated "
	       "I/Os per wall second (%llu I/Os, %llu events in %.2f s)  [target >= 3: %s]\n",
	       iops / 1e6, (unsigned long long)ios, (unsigned long long)events, dt,
	       verdict(iops >= 3e6));

	/* The target is on the heap the simulation holds; the resident set is
	 * shown beside it, but a 2 MiB process's RSS moves by a few pages
	 * (library and page-table noise) from run to run. */
	double ratio = (double)heap_large / (double)(heap_small ? heap_small : 1);
	printf("peak memory: heap %zu KiB for %llu I/Os, %zu KiB for %llu I/Os, ratio %.3f "
	       "(resident %ld and %ld KiB)  [target within 5%%: %s]\n",
	       heap_small / 1024, (unsigned long long)(ios / 10), heap_large / 1024,
	       (unsigned long long)ios, ratio, rss_small, rss_large,
	       verdict(heap_small > 0 && fabs(ratio - 1.0) <= 0.05));

	uint64_t hdd_ios = quick ? 200000 : 2000000;
	dt = run_text(hdd_qd1_fmt, hdd_ios, &events);
	iops = (double)hdd_ios / dt;
	printf("hdd maxtor-6l020l0, QD1 4KiB random read: %.2f million simulated I/Os per wall "
	       "second (%llu I/Os, %llu events in %.2f s)  [target >= 1: %s]\n",
	       iops / 1e6, (unsigned long long)hdd_ios, (unsigned long long)events, dt,
	       verdict(iops >= 1e6));

	hdd_ios = quick ? 100000 : 1000000;
	dt = run_text(hdd_qd32_fmt, hdd_ios, &events);
	iops = (double)hdd_ios / dt;
	printf("hdd wd-raptor-wd740gd, QD32 SPTF 4KiB random read: %.0f thousand simulated I/Os "
	       "per wall second (%llu I/Os, %llu events in %.2f s)  [target >= 300: %s]\n",
	       iops / 1e3, (unsigned long long)hdd_ios, (unsigned long long)events, dt,
	       verdict(iops >= 3e5));

	uint64_t ssd_ios = quick ? 300000 : 3000000;
	dt = run_text(ssd_qd32_fmt, ssd_ios, &events);
	iops = (double)ssd_ios / dt;
	printf("ssd intel-dc-s3700-100g, QD32 4KiB random read: %.2f million simulated I/Os "
	       "per wall second (%llu I/Os, %llu events in %.2f s)  [target >= 1: %s]\n",
	       iops / 1e6, (unsigned long long)ssd_ios, (unsigned long long)events, dt,
	       verdict(iops >= 1e6));

	uint64_t ssd_w = quick ? 200000 : 1000000;
	dt = run_text(ssd800_write_fmt, ssd_w, &events);
	printf("ssd intel-dc-s3700-800g, steady state, QD32 4KiB random write: heap %.1f MiB "
	       "after %llu I/Os (%.0f thousand simulated I/Os per wall second)  "
	       "[target <= 170: %s]\n", (double)heap_after_run / 1048576.0,
	       (unsigned long long)ssd_w, (double)ssd_w / dt / 1e3,
	       verdict(heap_after_run <= (size_t)170 << 20));

	bench_path("iscsi alacritech-ses1001t to a cached target, QD32 8KiB 50/50", iscsi_fmt,
		   quick ? 100000 : 1000000, 500);
	bench_path("promise-tx4000 RAID01 x4 write-back, Database QD16", tx4000_fmt,
		   quick ? 50000 : 500000, 100);

	for (size_t i = 0; i < sizeof(named_paths) / sizeof(named_paths[0]); i++) {
		uint64_t n = quick ? 100000 : 1000000;
		dt = run_text(named_paths[i].fmt, n, &events);
		printf("%s: %.0f thousand simulated requests per wall second (%llu requests, "
		       "%llu events in %.2f s)\n", named_paths[i].what, (double)n / dt / 1e3,
		       (unsigned long long)n, (unsigned long long)events, dt);
	}
	return EXIT_SUCCESS;
}
