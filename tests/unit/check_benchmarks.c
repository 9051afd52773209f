/* Unit tests for the benchmark workloads, CrystalDiskMark (cdm) and ATTO
 * (atto), on ideal devices where every figure has a closed form:
 *
 *   - a fixed service time S and enough servers: QD/S IOPS at any queue
 *     depth (QD32 and QD1), counted over whole rounds of S inside a pass;
 *     MB/s = IOPS x block / 10^6 for CDM, bytes / 2^20 (or 10^6) / time
 *     for ATTO;
 *   - the score is the best of N passes; there are N passes per phase,
 *     each `pass_time` long plus its drain, `interval` apart;
 *   - the test file is written once first (or not, with prepare: false);
 *     random offsets stay inside it, aligned to the request size;
 *     sequential passes walk it from its start and wrap; each thread has
 *     its own queue and cursor;
 *   - ATTO writes the whole length once, then reads it, never more than
 *     queue_depth in flight, one request per transfer however large;
 *   - the same seed gives the same figures, another seed others;
 *   - bad sections are reported at file:line:col. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "load/atto.h"
#include "load/cdm.h"
#include "load/load.h"
#define TU_WANT_SCENARIO
#define TU_WANT_RECORDER
#include "testutil.h"

/* ---- building and running a scenario -------------------------------- */

/* Build the scenario text through rs_load_build, as the front end does
 * (diagnostics name it bench.yaml).  Returns 0, or -1 with r->d set. */
#define run_build(r, ...) tu_point_buildf((r), "bench.yaml", __VA_ARGS__)

/* A benchmark also closes its window at the last completion. */
static void run_go(struct tu_point *r)
{
	tu_point_go(r);
	ck_assert(r->load->stopped);
	ck_assert_int_eq(r->load->t_measure_end, rs_now(r->sim));
}

static double fig(const struct tu_point *r, size_t i) { return r->load->figures[i].value; }

/* ---- CrystalDiskMark: closed forms on a fixed-service device -------- */

/* S = 0.3 ms, one server per request in flight: a pass of T = 1 s holds
 * floor(T/S) = 3333 whole rounds (the 3334th ends after T and does not
 * count), so a pass counts 3333 x QD requests: QD/S within 0.01 %. */
#define FIXED_DEV "device: { type: ideal, mean: 0.3ms, servers: 64, capacity: 8GiB }\n"
#define ROUNDS 3333

struct cdm_row_case {
	const char *test;
	uint64_t block;
	uint32_t qd;
	bool random;
};
static const struct cdm_row_case cdm_rows[] = {
	{ "seq-q32t1", 128 << 10, 32, false },
	{ "4k-q32t1", 4 << 10, 32, true },
	{ "seq", 1 << 20, 1, false },
	{ "4k", 4 << 10, 1, true },
};

START_TEST(cdm_rows_closed_form)
{
	const struct cdm_row_case *c = &cdm_rows[_i];
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, FIXED_DEV "workload:\n"
					  "  cdm: { test: %s, passes: 2, pass_time: 1s, "
					  "file_size: 64MiB }\n",
				   c->test),
			 0);
	run_go(&r);
	struct rs_cdm_info ci;
	rs_cdm_info(r.load, &ci);
	ck_assert_uint_eq(ci.read.nblk * 512ull, c->block);
	ck_assert_uint_eq(ci.read.depth, c->qd);
	ck_assert_uint_eq(ci.read.threads, 1);
	ck_assert_int_eq(ci.read.random, c->random);
	ck_assert_int_eq(ci.read.op, RS_READ);
	ck_assert_int_eq(ci.write.op, RS_WRITE);

	double iops = (double)ROUNDS * c->qd;   /* per second: the pass is 1 s */
	for (int w = 0; w < 2; w++) {
		ck_assert_uint_eq(rs_cdm_pass(r.load, w, 0)->ops, (uint64_t)ROUNDS * c->qd);
		tu_assert_rel(fig(&r, RS_CDM_READ_IOPS + w), iops, 1e-12);
		tu_assert_rel(fig(&r, RS_CDM_READ_IOPS + w), c->qd / 0.3e-3, 2e-4);
		tu_assert_rel(fig(&r, RS_CDM_READ_MBPS + w), iops * (double)c->block / 1e6, 1e-12);
		tu_assert_rel(fig(&r, RS_CDM_READ_LAT_MS + w), 0.3, 1e-9);
	}
	ck_assert(fig(&r, RS_CDM_ERRORS) == 0);
	/* The table has only the workload's own columns. */
	ck_assert(r.load->figures_only);
	ck_assert_uint_eq(r.load->nfigures, RS_CDM_FIGURES);
	ck_assert_str_eq(r.load->figures[RS_CDM_READ_MBPS].name, "read_MBps");
	ck_assert_str_eq(r.load->figures[RS_CDM_WRITE_MBPS].name, "write_MBps");
	ck_assert_str_eq(r.load->figures[RS_CDM_READ_IOPS].name, "read_iops");
	ck_assert_str_eq(r.load->figures[RS_CDM_WRITE_IOPS].name, "write_iops");
	tu_point_free(&r);
}
END_TEST

/* A device that takes one request at a time caps QD32 at 1/S: the queue
 * only adds waiting (Little: response time = QD x S). */
START_TEST(cdm_one_server)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "device: { type: ideal, mean: 0.3ms, capacity: 8GiB }\n"
					  "workload:\n"
					  "  cdm: { test: 4k-q32t1, passes: 1, pass_time: 1s, "
					  "file_size: 64MiB, prepare: false }\n"),
			 0);
	run_go(&r);
	tu_assert_rel(fig(&r, RS_CDM_READ_IOPS), 1 / 0.3e-3, 1e-3);
	tu_assert_rel(fig(&r, RS_CDM_WRITE_IOPS), 1 / 0.3e-3, 1e-3);
	tu_assert_rel(fig(&r, RS_CDM_READ_LAT_MS), 32 * 0.3, 0.01);
	tu_point_free(&r);
}
END_TEST

/* Explicit fields override the row: QD8 with 2 threads keeps 16 in
 * flight; 64 KiB requests. */
START_TEST(cdm_overrides)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, FIXED_DEV "workload:\n"
					  "  cdm: { test: 4k, block: 64KiB, queue_depth: 8, threads: 2, "
					  "pattern: sequential, passes: 1, pass_time: 1s, "
					  "file_size: 64MiB, prepare: false }\n"),
			 0);
	tu_rec_attach(r.dev, 200000);
	run_go(&r);
	struct rs_cdm_info ci;
	rs_cdm_info(r.load, &ci);
	ck_assert_uint_eq(ci.read.nblk, 128);
	ck_assert_uint_eq(ci.read.depth, 8);
	ck_assert_uint_eq(ci.read.threads, 2);
	ck_assert(!ci.read.random);
	ck_assert_uint_eq(tu_seen.max_in_flight, 16);
	tu_assert_rel(fig(&r, RS_CDM_READ_IOPS), (double)ROUNDS * 16, 1e-12);
	tu_assert_rel(fig(&r, RS_CDM_READ_MBPS), (double)ROUNDS * 16 * 65536 / 1e6, 1e-12);
	/* Each thread starts its own cursor at the file's start: the first
	 * 16 requests are 0..7 blocks of 64 KiB, twice. */
	for (size_t i = 0; i < 16; i++) {
		ck_assert_int_eq(tu_seen.r[i].op, RS_READ);
		ck_assert_uint_eq(tu_seen.r[i].lba, (i % 8) * 128);
	}
	tu_rec_detach(r.dev);
	tu_point_free(&r);
}
END_TEST

/* The reference model: one server, exponential service of mean 1 ms.
 * Every row gives 1000 IOPS on average (each pass holds thousands of
 * requests, so a pass is within a few % of it), the best pass at or above
 * the passes' mean; at QD32 the queue only adds waiting: 32 ms. */
START_TEST(cdm_ideal_model)
{
	static const char *const tests[] = { "4k", "4k-q32t1" };
	for (int k = 0; k < 2; k++) {
		struct tu_point r;
		ck_assert_int_eq(run_build(&r, "device: { model: ideal-1ms }\n"
						  "workload:\n"
						  "  cdm: { test: %s, passes: 3, pass_time: 4s, "
						  "file_size: 64MiB, prepare: false }\n",
					   tests[k]),
				 0);
		run_go(&r);
		for (int w = 0; w < 2; w++) {
			double sum = 0;
			for (size_t p = 0; p < 3; p++)
				sum += rs_phase_iops(rs_cdm_pass(r.load, w, p));
			tu_assert_rel(fig(&r, RS_CDM_READ_IOPS + w), 1000, 0.04);
			ck_assert(fig(&r, RS_CDM_READ_IOPS + w) >= sum / 3);
			tu_assert_rel(fig(&r, RS_CDM_READ_MBPS + w),
				      fig(&r, RS_CDM_READ_IOPS + w) * 4096 / 1e6, 1e-12);
			tu_assert_rel(fig(&r, RS_CDM_READ_LAT_MS + w), k ? 32 : 1, 0.04);
		}
		tu_point_free(&r);
	}
}
END_TEST

/* ---- CrystalDiskMark: passes, timing, best of N --------------------- */

/* N passes per phase, each lasting its pass time plus a drain shorter
 * than one service time, `interval` apart; the read phase starts when the
 * preparation ends, the write phase an interval after the last read. */
START_TEST(cdm_pass_timing)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, FIXED_DEV "workload:\n"
					  "  cdm: { test: seq-q32t1, passes: 4, pass_time: 0.5s, "
					  "interval: 0.25s, file_size: 16MiB }\n"),
			 0);
	run_go(&r);
	struct rs_cdm_info ci;
	rs_cdm_info(r.load, &ci);
	ck_assert_uint_eq(ci.passes, 4);
	ck_assert(ci.prepared);
	const rs_time_t T = 500000000, I = 250000000, S = 300000;
	ck_assert_int_eq(ci.prep.t_start, 0);
	/* 16 sequential 1 MiB writes, one at a time. */
	ck_assert_uint_eq(ci.prep.issued, 16);
	ck_assert_int_eq(ci.prep.t_end, 16 * S);
	rs_time_t prev_end = ci.prep.t_end;
	for (int w = 0; w < 2; w++) {
		for (size_t p = 0; p < 4; p++) {
			const struct rs_phase_result *pr = rs_cdm_pass(r.load, w, p);
			rs_time_t gap = (w == 0 && p == 0) ? 0 : I;
			ck_assert_int_eq(pr->t_start, prev_end + gap);
			ck_assert_int_eq(pr->t_measured, T);
			ck_assert_int_ge(pr->t_end, pr->t_start + T);
			ck_assert_int_le(pr->t_end, pr->t_start + T + S);
			ck_assert_uint_eq(pr->ops, (uint64_t)(T / S) * 32);
			prev_end = pr->t_end;
		}
	}
	ck_assert_int_eq(rs_now(r.sim), prev_end);
	tu_point_free(&r);
}
END_TEST

/* A pass is the half-open [start, start + T): with S dividing T, the
 * round completing exactly at T is not counted (nor reissued). */
START_TEST(cdm_pass_edge)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "device: { type: ideal, mean: 1ms, servers: 32, "
					  "capacity: 8GiB }\n"
					  "workload:\n"
					  "  cdm: { test: 4k-q32t1, passes: 1, pass_time: 0.1s, "
					  "file_size: 64MiB, prepare: false }\n"),
			 0);
	run_go(&r);
	const struct rs_phase_result *pr = rs_cdm_pass(r.load, 0, 0);
	ck_assert_uint_eq(pr->ops, 99 * 32);
	ck_assert_uint_eq(pr->issued, 100 * 32);
	ck_assert_int_eq(pr->t_end - pr->t_start, 100000000);
	tu_assert_rel(fig(&r, RS_CDM_READ_IOPS), 99 * 32 / 0.1, 1e-12);
	tu_point_free(&r);
}
END_TEST

/* Exponential service: passes differ, and each phase's score is its best
 * pass, which is strictly better than its worst. */
START_TEST(cdm_best_of_n)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "device: { type: ideal, service: exponential, mean: 1ms, "
					  "capacity: 8GiB }\n"
					  "workload:\n"
					  "  cdm: { test: 4k, passes: 6, pass_time: 0.2s, "
					  "file_size: 64MiB, prepare: false }\n"),
			 0);
	run_go(&r);
	struct rs_cdm_info ci;
	rs_cdm_info(r.load, &ci);
	for (int w = 0; w < 2; w++) {
		double best = 0, worst = 1e300;
		size_t best_i = 0;
		for (size_t p = 0; p < ci.passes; p++) {
			double mb = rs_phase_mb_s(rs_cdm_pass(r.load, w, p), 1e6);
			if (mb > best) {
				best = mb;
				best_i = p;
			}
			if (mb < worst)
				worst = mb;
		}
		ck_assert_uint_eq(ci.best[w], best_i);
		ck_assert(fig(&r, RS_CDM_READ_MBPS + w) == best);
		ck_assert(best > worst);
		const struct rs_phase_result *b = rs_cdm_pass(r.load, w, best_i);
		ck_assert(fig(&r, RS_CDM_READ_IOPS + w) == rs_phase_iops(b));
		ck_assert(fig(&r, RS_CDM_READ_LAT_MS + w) == rs_phase_lat_ms(b));
	}
	tu_point_free(&r);
}
END_TEST

/* ---- CrystalDiskMark: where the requests go ------------------------- */

/* The preparation writes the whole file, sequentially, before any read;
 * then random reads and writes stay inside the file, aligned to 4 KiB
 * from its start, and spread over it. */
START_TEST(cdm_random_inside_file)
{
	struct tu_point r;
	const uint64_t start = (3ull << 20) / 512 + 8, len = (8ull << 20) / 512;
	ck_assert_int_eq(run_build(&r, FIXED_DEV "workload:\n"
					  "  cdm: { test: 4k-q32t1, passes: 1, pass_time: 0.05s, "
					  "file_size: 8MiB, offset: %llu }\n",
				   (unsigned long long)start * 512),
			 0);
	tu_rec_attach(r.dev, 200000);
	run_go(&r);
	/* Preparation: 8 writes of 1 MiB covering the file in order. */
	for (size_t i = 0; i < 8; i++) {
		ck_assert_int_eq(tu_seen.r[i].op, RS_WRITE);
		ck_assert_uint_eq(tu_seen.r[i].lba, start + i * 2048);
		ck_assert_uint_eq(tu_seen.r[i].nblk, 2048);
	}
	ck_assert_int_eq(tu_seen.r[8].op, RS_READ);
	size_t hit_low = 0, hit_high = 0, reads = 0, writes = 0;
	bool reading = true;
	for (size_t i = 8; i < tu_seen.n; i++) {
		const struct tu_rec *q = &tu_seen.r[i];
		ck_assert_uint_eq(q->nblk, 8);
		ck_assert_uint_ge(q->lba, start);
		ck_assert_uint_le(q->lba + q->nblk, start + len);
		ck_assert_uint_eq((q->lba - start) % 8, 0);
		/* All reads, then all writes. */
		if (q->op == RS_WRITE)
			reading = false;
		ck_assert_int_eq(q->op, reading ? RS_READ : RS_WRITE);
		reads += q->op == RS_READ;
		writes += q->op == RS_WRITE;
		hit_low += q->lba < start + len / 8;
		hit_high += q->lba >= start + len - len / 8;
	}
	ck_assert_uint_gt(reads, 1000);
	ck_assert_uint_gt(writes, 1000);
	/* Uniform: each eighth of the file gets about an eighth. */
	ck_assert_uint_gt(hit_low, (reads + writes) / 16);
	ck_assert_uint_gt(hit_high, (reads + writes) / 16);
	tu_rec_detach(r.dev);

	/* Without the preparation the first request is a read. */
	tu_point_free(&r);
	ck_assert_int_eq(run_build(&r, FIXED_DEV "workload:\n"
					  "  cdm: { test: 4k, passes: 1, pass_time: 0.01s, "
					  "file_size: 8MiB, prepare: false }\n"),
			 0);
	tu_rec_attach(r.dev, 200000);
	run_go(&r);
	ck_assert_int_eq(tu_seen.r[0].op, RS_READ);
	struct rs_cdm_info ci;
	rs_cdm_info(r.load, &ci);
	ck_assert(!ci.prepared);
	tu_rec_detach(r.dev);
	tu_point_free(&r);
}
END_TEST

/* Sequential passes walk the file from its start and wrap at its end;
 * every pass starts again at the start. */
START_TEST(cdm_sequential_wraps)
{
	struct tu_point r;
	/* 1 MiB file, 128 KiB requests: 8 positions; a 0.01 s pass at QD32
	 * issues hundreds of requests, so it wraps many times. */
	ck_assert_int_eq(run_build(&r, FIXED_DEV "workload:\n"
					  "  cdm: { test: seq-q32t1, passes: 2, pass_time: 0.01s, "
					  "file_size: 1MiB, offset: 1MiB, prepare: false }\n"),
			 0);
	tu_rec_attach(r.dev, 200000);
	run_go(&r);
	const uint64_t start = 2048, end = 4096, n = 256;
	/* Requests issued at a pass's start time belong to that pass: the
	 * previous one issued nothing after its own time was up. */
	rs_time_t starts[4];
	for (int k = 0; k < 4; k++)
		starts[k] = rs_cdm_pass(r.load, k / 2, (size_t)(k % 2))->t_start;
	ck_assert_uint_eq(tu_seen.r[0].lba, start);
	ck_assert_int_eq(tu_seen.r[0].t, starts[0]);
	size_t pass_starts = 1, wraps = 0;
	for (size_t i = 1; i < tu_seen.n; i++) {
		const struct tu_rec *p = &tu_seen.r[i - 1], *q = &tu_seen.r[i];
		ck_assert_uint_eq(q->nblk, n);
		ck_assert_uint_ge(q->lba, start);
		ck_assert_uint_le(q->lba + n, end);
		if (q->t != p->t && (q->t == starts[1] || q->t == starts[2] || q->t == starts[3])) {
			/* A new pass: back to the start. */
			ck_assert_uint_eq(q->lba, start);
			pass_starts++;
			continue;
		}
		ck_assert_int_eq(q->op, p->op);
		if (p->lba + n == end) {
			ck_assert_uint_eq(q->lba, start);
			wraps++;
		} else {
			ck_assert_uint_eq(q->lba, p->lba + n);
		}
	}
	ck_assert_uint_eq(pass_starts, 4);
	ck_assert_uint_gt(wraps, 40);
	tu_rec_detach(r.dev);
	tu_point_free(&r);
}
END_TEST

/* ---- CrystalDiskMark: determinism ------------------------------------ */

static void cdm_random_figures(uint64_t seed, double out[RS_CDM_FIGURES])
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "seed: %llu\n"
					  "device: { type: ideal, service: exponential, mean: 0.5ms, "
					  "servers: 4, capacity: 8GiB }\n"
					  "workload:\n"
					  "  cdm: { test: 4k-q32t1, passes: 3, pass_time: 0.1s, "
					  "file_size: 64MiB, interval: 10ms }\n",
				   (unsigned long long)seed),
			 0);
	tu_rec_attach(r.dev, 100000);
	run_go(&r);
	for (size_t i = 0; i < RS_CDM_FIGURES; i++)
		out[i] = fig(&r, i);
	/* The offsets are part of what must repeat. */
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < tu_seen.n; i++)
		h = (h ^ tu_seen.r[i].lba) * 1099511628211ull;
	out[RS_CDM_ERRORS] += (double)(h % 1000) * 1000;
	tu_rec_detach(r.dev);
	tu_point_free(&r);
}

START_TEST(cdm_deterministic)
{
	double a[RS_CDM_FIGURES], b[RS_CDM_FIGURES], c[RS_CDM_FIGURES];
	cdm_random_figures(5, a);
	cdm_random_figures(5, b);
	cdm_random_figures(6, c);
	ck_assert(memcmp(a, b, sizeof(a)) == 0);
	ck_assert(memcmp(a, c, sizeof(a)) != 0);
}
END_TEST

/* ---- ATTO ------------------------------------------------------------- */

/* QD4 on a fixed-service device with 4 servers: rounds of 4 requests each
 * taking S, so a phase of N requests lasts ceil(N/4) x S. */
struct atto_case {
	const char *size;
	uint64_t bytes;
};
static const struct atto_case atto_sizes[] = {
	{ "512B", 512 }, { "4KiB", 4096 }, { "64KiB", 65536 }, { "1MiB", 1 << 20 },
	{ "12MiB", 12 << 20 }, { "64MiB", 64 << 20 },
};

START_TEST(atto_closed_form)
{
	const struct atto_case *c = &atto_sizes[_i];
	struct tu_point r;
	const uint64_t total = 256ull << 20;
	ck_assert_int_eq(run_build(&r, "device: { type: ideal, mean: 0.2ms, servers: 4, "
					  "capacity: 1GiB }\n"
					  "workload:\n"
					  "  atto: { size: %s }\n",
				   c->size),
			 0);
	run_go(&r);
	struct rs_atto_info ai;
	rs_atto_info(r.load, &ai);
	ck_assert(ai.mb == 1048576.0);
	uint64_t n = (total + c->bytes - 1) / c->bytes;
	rs_time_t t = (rs_time_t)((n + 3) / 4) * 200000;
	for (int i = 0; i < 2; i++) {
		ck_assert_uint_eq(ai.result[i].ops, n);
		ck_assert_uint_eq(ai.result[i].bytes, total);
		ck_assert_int_eq(ai.result[i].t_end - ai.result[i].t_start, t);
	}
	/* Write first, read right after. */
	ck_assert_int_eq(ai.spec[0].op, RS_WRITE);
	ck_assert_int_eq(ai.spec[1].op, RS_READ);
	ck_assert_int_eq(ai.result[0].t_start, 0);
	ck_assert_int_eq(ai.result[1].t_start, ai.result[0].t_end);
	double mb_s = (double)total / 1048576.0 / ((double)t / 1e9);
	tu_assert_rel(fig(&r, RS_ATTO_WRITE_MBPS), mb_s, 1e-12);
	tu_assert_rel(fig(&r, RS_ATTO_READ_MBPS), mb_s, 1e-12);
	tu_assert_rel(fig(&r, RS_ATTO_READ_IOPS), (double)n / ((double)t / 1e9), 1e-12);
	tu_assert_rel(fig(&r, RS_ATTO_READ_LAT_MS), 0.2, 1e-9);
	ck_assert(fig(&r, RS_ATTO_ERRORS) == 0);
	ck_assert_str_eq(r.load->figures[RS_ATTO_WRITE_MBPS].name, "write_MBps");
	ck_assert_str_eq(r.load->figures[RS_ATTO_READ_MBPS].name, "read_MBps");
	tu_point_free(&r);
}
END_TEST

/* ATTO on the reference model: 1000 requests per second whatever the
 * size, so MB/s = 1000 x size / 2^20 (16384 requests of 16 KiB per phase:
 * within 3 %). */
START_TEST(atto_ideal_model)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "device: { model: ideal-1ms }\n"
					  "workload:\n"
					  "  atto: { size: 16KiB }\n"),
			 0);
	run_go(&r);
	tu_assert_rel(fig(&r, RS_ATTO_WRITE_MBPS), 1000.0 * 16384 / 1048576, 0.03);
	tu_assert_rel(fig(&r, RS_ATTO_READ_MBPS), 1000.0 * 16384 / 1048576, 0.03);
	tu_assert_rel(fig(&r, RS_ATTO_READ_LAT_MS), 4, 0.03);
	tu_point_free(&r);
}
END_TEST

/* The whole length is written once in order, then read once in order,
 * never more than queue_depth in flight; a total that is not a multiple of
 * the size ends on a shorter request. */
START_TEST(atto_order)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "device: { type: ideal, mean: 0.2ms, servers: 16, "
					  "capacity: 1GiB }\n"
					  "workload:\n"
					  "  atto: { size: 12KiB, total_length: 1000KiB, queue_depth: 6, "
					  "offset: 1MiB, units: decimal }\n"),
			 0);
	tu_rec_attach(r.dev, 10000);
	run_go(&r);
	const uint64_t start = 2048, len = 2000, n = (len + 23) / 24;
	ck_assert_uint_eq(tu_seen.n, 2 * n);
	ck_assert_uint_eq(tu_seen.max_in_flight, 6);
	for (size_t i = 0; i < tu_seen.n; i++) {
		size_t k = i % n;
		ck_assert_int_eq(tu_seen.r[i].op, i < n ? RS_WRITE : RS_READ);
		ck_assert_uint_eq(tu_seen.r[i].lba, start + k * 24);
		ck_assert_uint_eq(tu_seen.r[i].nblk, k + 1 < n ? 24 : len - (n - 1) * 24);
	}
	/* Every read is issued after the last write completed. */
	struct rs_atto_info ai;
	rs_atto_info(r.load, &ai);
	ck_assert_int_ge(tu_seen.r[n].t, ai.result[0].t_end);
	ck_assert(ai.mb == 1e6);
	tu_assert_rel(fig(&r, RS_ATTO_READ_MBPS),
		      1000 * 1024 / 1e6 / ((double)(ai.result[1].t_end - ai.result[1].t_start) / 1e9),
		      1e-12);
	tu_rec_detach(r.dev);
	tu_point_free(&r);
}
END_TEST

/* A 64 MiB transfer is one request of 131072 blocks: cutting it is the
 * target's business. */
START_TEST(atto_large_is_one_request)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "device: { type: ideal, mean: 1ms, capacity: 1GiB }\n"
					  "workload:\n"
					  "  atto: { size: 64MiB }\n"),
			 0);
	tu_rec_attach(r.dev, 100);
	run_go(&r);
	ck_assert_uint_eq(tu_seen.n, 8);
	for (size_t i = 0; i < tu_seen.n; i++)
		ck_assert_uint_eq(tu_seen.r[i].nblk, 131072);
	tu_rec_detach(r.dev);
	tu_point_free(&r);
}
END_TEST

static void atto_figures(uint64_t seed, double out[RS_ATTO_FIGURES])
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "seed: %llu\n"
					  "device: { type: ideal, service: exponential, mean: 0.2ms, "
					  "servers: 2, capacity: 1GiB }\n"
					  "workload:\n"
					  "  atto: { size: 64KiB, total_length: 32MiB }\n",
				   (unsigned long long)seed),
			 0);
	run_go(&r);
	for (size_t i = 0; i < RS_ATTO_FIGURES; i++)
		out[i] = fig(&r, i);
	tu_point_free(&r);
}

START_TEST(atto_deterministic)
{
	double a[RS_ATTO_FIGURES], b[RS_ATTO_FIGURES], c[RS_ATTO_FIGURES];
	atto_figures(3, a);
	atto_figures(3, b);
	atto_figures(4, c);
	ck_assert(memcmp(a, b, sizeof(a)) == 0);
	ck_assert(memcmp(a, c, sizeof(a)) != 0);
}
END_TEST

/* ---- bad sections ------------------------------------------------------ */

struct bad_case {
	const char *yaml;             /* the workload section */
	int line, col;                /* 0: position not checked */
	const char *msg;              /* part of the message */
};

static const struct bad_case bad_cases[] = {
	{ "  cdm: { test: seq-q8t1 }\n", 3, 16, "unknown value 'seq-q8t1' for 'test'" },
	{ "  cdm: { passes: 0 }\n", 3, 18, "passes" },
	{ "  cdm: { pass_time: 0s }\n", 3, 21, "pass_time" },
	{ "  cdm: { block: 1000 }\n", 3, 17, "'block' must be a multiple of 512 bytes" },
	{ "  cdm: { file_size: 9GiB }\n", 3, 21, "ends beyond the device" },
	{ "  cdm: { offset: 8GiB }\n", 3, 18, "ends beyond the device" },
	{ "  cdm: { file_size: 64KiB }\n", 3, 21, "smaller than one request" },
	{ "  cdm: { threads: 65 }\n", 3, 19, "threads" },
	{ "  cdm: { pattern: zigzag }\n", 3, 19, "pattern" },
	{ "  cdm: { tset: seq }\n", 3, 10, "did you mean 'test'?" },
	{ "  atto: {}\n", 0, 0, "missing required key 'size'" },
	{ "  atto: { size: 1000 }\n", 3, 17, "'size' must be a multiple of 512 bytes" },
	{ "  atto: { size: 8MiB, total_length: 4MiB }\n", 3, 17, "larger than 'total_length'" },
	{ "  atto: { size: 4KiB, total_length: 10GiB }\n", 3, 37, "ends beyond the device" },
	{ "  atto: { size: 4KiB, queue_depth: 0 }\n", 3, 36, "queue_depth" },
	{ "  atto: { size: 4KiB, units: MiB }\n", 3, 30, "unknown value 'MiB' for 'units'" },
};

START_TEST(bad_yaml)
{
	const struct bad_case *c = &bad_cases[_i];
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "device: { type: ideal, capacity: 8GiB }\nworkload:\n%s",
				   c->yaml),
			 -1);
	ck_assert_ptr_null(r.load);
	tu_expect_diag(&r.d, _i, c->msg, "bench.yaml", c->line, c->col);
	tu_point_free(&r);
}
END_TEST

static Suite *benchmarks_suite(void)
{
	Suite *s = suite_create("benchmarks");
	TCase *tc = tcase_create("cdm");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, cdm_rows_closed_form, 0,
			    (int)(sizeof(cdm_rows) / sizeof(cdm_rows[0])));
	tcase_add_test(tc, cdm_one_server);
	tcase_add_test(tc, cdm_ideal_model);
	tcase_add_test(tc, cdm_overrides);
	tcase_add_test(tc, cdm_pass_timing);
	tcase_add_test(tc, cdm_pass_edge);
	tcase_add_test(tc, cdm_best_of_n);
	tcase_add_test(tc, cdm_random_inside_file);
	tcase_add_test(tc, cdm_sequential_wraps);
	tcase_add_test(tc, cdm_deterministic);
	suite_add_tcase(s, tc);
	tc = tcase_create("atto");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, atto_closed_form, 0,
			    (int)(sizeof(atto_sizes) / sizeof(atto_sizes[0])));
	tcase_add_test(tc, atto_ideal_model);
	tcase_add_test(tc, atto_order);
	tcase_add_test(tc, atto_large_is_one_request);
	tcase_add_test(tc, atto_deterministic);
	suite_add_tcase(s, tc);
	tc = tcase_create("diag");
	tcase_add_loop_test(tc, bad_yaml, 0, (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(benchmarks_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
