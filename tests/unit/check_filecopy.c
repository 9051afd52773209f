/* Unit tests for the FC-Test workload (filecopy): the five file sets have
 * their documented counts and totals for any seed and the same sizes for
 * the same seed; on an ideal device that only has a bandwidth, create and
 * read move file data at the bandwidth less exactly the metadata and the
 * cluster padding; copy-far reads only volume 1 and writes only volume 2,
 * copy-near writes only after the last existing file, each write after its
 * read and never more than `outstanding` requests in flight; the window
 * closes at the last completion (or earlier with run/count); every run
 * conserves its requests; bad sections are reported at file:line:col. */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
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
#include "load/filecopy.h"
#include "load/filecopy_sets.h"
#include "load/load.h"
#define TU_WANT_SCENARIO
#define TU_WANT_RECORDER
#include "testutil.h"

/* ---- building and running a scenario -------------------------------- */

/* Build the scenario text through rs_load_build, as the front end does
 * (diagnostics name it fc.yaml).  Returns 0, or -1 with r->d set. */
#define run_build(r, ...) tu_point_buildf((r), "fc.yaml", __VA_ARGS__)

static bool in(uint64_t lba, uint32_t nblk, const uint64_t range[2])
{
	return lba >= range[0] && lba + nblk <= range[1];
}

/* ---- file sets ------------------------------------------------------- */

struct want_set {
	const char *name;
	uint64_t files, total;
	bool estimated;
};

/* The documented numbers (see filecopy_sets.c for the sources). */
static const struct want_set want_sets[] = {
	{ "install", 480, 1000000000ull, true },
	{ "iso", 3, 1600000000ull, false },
	{ "mp3", 270, 990000000ull, false },
	{ "programs", 8000, 800000000ull, true },
	{ "windows", 12000, 1500000000ull, true },
};

static void draw(const struct rs_fileset *fs, uint64_t seed, size_t n, uint64_t total,
		 uint64_t *out)
{
	struct rs_sim *sim = rs_sim_new(seed);
	rs_fileset_draw(fs, rs_sim_rng(sim, "filecopy.sizes", 0), n, total, out);
	rs_sim_free(sim);
}

START_TEST(sets_documented)
{
	const struct want_set *w = &want_sets[_i];
	ck_assert_uint_eq(rs_fileset_count(), 5);
	const struct rs_fileset *fs = rs_fileset_find(w->name);
	ck_assert_ptr_nonnull(fs);
	ck_assert_ptr_eq(fs, rs_fileset_at((size_t)_i));
	ck_assert_str_eq(rs_fileset_names[_i], w->name);
	ck_assert_uint_eq(fs->files, w->files);
	ck_assert_uint_eq(fs->total_bytes, w->total);
	ck_assert_int_eq(fs->estimated, w->estimated);
	ck_assert_ptr_nonnull(fs->source);

	size_t n = (size_t)fs->files;
	uint64_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	ck_assert(a && b);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		draw(fs, seed, n, fs->total_bytes, a);
		uint64_t sum = 0;
		for (size_t i = 0; i < n; i++) {
			ck_assert_uint_ge(a[i], 1);
			sum += a[i];
		}
		ck_assert_uint_eq(sum, fs->total_bytes);
		/* Same seed, same sizes. */
		draw(fs, seed, n, fs->total_bytes, b);
		ck_assert(memcmp(a, b, n * sizeof(*a)) == 0);
	}
	/* Another seed moves the sizes (the totals stay). */
	draw(fs, 1, n, fs->total_bytes, a);
	draw(fs, 2, n, fs->total_bytes, b);
	ck_assert(memcmp(a, b, n * sizeof(*a)) != 0);
	free(a);
	free(b);
}
END_TEST

/* The shapes the sources describe: ISO a few files of hundreds of MB, MP3
 * a few MB each, the small-file sets mostly small. */
START_TEST(sets_shape)
{
	uint64_t *s = malloc(12000 * sizeof(*s));
	ck_assert_ptr_nonnull(s);
	const struct rs_fileset *fs = rs_fileset_find("iso");
	draw(fs, 1, 3, fs->total_bytes, s);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_gt(s[i], 300000000ull);
		ck_assert_uint_lt(s[i], 900000000ull);
	}
	fs = rs_fileset_find("mp3");
	draw(fs, 1, 270, fs->total_bytes, s);
	for (int i = 0; i < 270; i++) {
		ck_assert_uint_gt(s[i], 500000ull);
		ck_assert_uint_lt(s[i], 20000000ull);
	}
	const char *small[] = { "programs", "windows", "install" };
	for (int k = 0; k < 3; k++) {
		fs = rs_fileset_find(small[k]);
		draw(fs, 1, (size_t)fs->files, fs->total_bytes, s);
		uint64_t under_64k = 0, over_1m = 0;
		for (size_t i = 0; i < fs->files; i++) {
			under_64k += s[i] < 65536;
			over_1m += s[i] > 1000000;
		}
		ck_assert_msg(under_64k * 2 > fs->files, "%s: %llu of %llu files under 64 KiB",
			      small[k], (unsigned long long)under_64k,
			      (unsigned long long)fs->files);
		ck_assert_uint_gt(over_1m, 0);
	}
	ck_assert_ptr_null(rs_fileset_find("movies"));
	free(s);
}
END_TEST

/* ---- throughput on a bandwidth-only device -------------------------- */

#define BW_DEV "device: { type: ideal, mean: 0s, bandwidth: 100MB/s, capacity: 8GiB }\n"

/* Every byte of I/O takes 10 ns and the device never idles (two requests
 * in flight, one server), so the action lasts exactly I/O bytes / 100 MB/s
 * and file MB/s = 100 x file bytes / I/O bytes. */
static void bw_case(const char *set, const char *action, const char *extra, double tol_vs_bw)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, BW_DEV "workload:\n"
					"  filecopy: { set: %s, action: %s, volume_size: 4GiB%s }\n",
				   set, action, extra),
			 0);
	tu_point_go(&r);
	struct rs_filecopy_info fi;
	rs_filecopy_info(r.load, &fi);
	uint64_t meta_bytes = fi.meta_reqs * 4096;
	uint64_t data_io = (fi.src_blk[1] - fi.src_blk[0]) * RS_BLOCK_BYTES;
	uint64_t io_bytes = data_io + meta_bytes;
	if (strncmp(action, "copy", 4) == 0)
		io_bytes += data_io;
	ck_assert_int_eq(r.load->t_measure_end, rs_now(r.sim));
	ck_assert_int_eq(r.load->t_measure_end, (rs_time_t)io_bytes * 10);
	double mb_s = rs_filecopy_file_mb_s(r.load);
	tu_assert_rel(mb_s, 100.0 * (double)fi.file_bytes / (double)io_bytes, 1e-9);
	if (strncmp(action, "copy", 4) != 0)
		tu_assert_rel(mb_s, 100.0, tol_vs_bw);
	tu_assert_rel(r.load->summary.mb_s, 100.0, 1e-9);
	if (strcmp(action, "read") == 0)
		ck_assert_uint_eq(fi.meta_reqs, 0);
	else
		ck_assert_uint_gt(fi.meta_reqs, fi.files);
	tu_point_free(&r);
}

START_TEST(bandwidth_create_read)
{
	/* Big files: metadata and padding cost well under 1 %. */
	bw_case("iso", "create", "", 0.002);
	bw_case("iso", "read", "", 1e-5);
	bw_case("mp3", "create", "", 0.01);
	bw_case("mp3", "read", "", 0.002);
	/* Small files pay a metadata write per file: a few % lower. */
	bw_case("windows", "create", ", files: 3000", 0.06);
	bw_case("windows", "read", ", files: 3000", 0.03);
	/* Copies move every byte twice: half the bandwidth. */
	bw_case("mp3", "copy-far", ", files: 40", 1);
	bw_case("install", "copy-near", ", files: 100", 1);
}
END_TEST

/* ---- where the requests go ------------------------------------------ */

START_TEST(copy_far_volumes)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, BW_DEV "workload:\n"
					"  filecopy: { set: mp3, action: copy-far, files: 40, "
					"volume_size: 2GiB, metadata_interval: 1MiB }\n"),
			 0);
	tu_rec_attach(r.dev, 20000);
	tu_point_go(&r);
	struct rs_filecopy_info fi;
	rs_filecopy_info(r.load, &fi);
	ck_assert_uint_eq(fi.files, 40);
	ck_assert_uint_eq(fi.volume_blk[0], 0);
	ck_assert_uint_eq(fi.volume_blk[1], (2ull << 30) / 512);
	ck_assert_uint_eq(fi.dst_blk[0] - fi.src_blk[0], fi.volume_blk[1]);
	uint64_t vol1[2] = { 0, fi.volume_blk[1] }, vol2[2] = { fi.volume_blk[1],
							      2 * fi.volume_blk[1] };
	uint64_t reads = 0, writes = 0, data_writes = 0, read_sum = 0, write_sum = 0;
	for (size_t i = 0; i < tu_seen.n; i++) {
		const struct tu_rec *q = &tu_seen.r[i];
		if (q->op == RS_READ) {
			ck_assert(in(q->lba, q->nblk, vol1));
			ck_assert(in(q->lba, q->nblk, fi.src_blk));
			reads++;
			read_sum += q->lba + q->nblk;
		} else {
			ck_assert_int_eq(q->op, RS_WRITE);
			ck_assert(in(q->lba, q->nblk, vol2));
			writes++;
			if (in(q->lba, q->nblk, fi.dst_blk)) {
				data_writes++;
				write_sum += q->lba - fi.volume_blk[1] + q->nblk;
			} else {
				ck_assert(in(q->lba, q->nblk, fi.meta_blk));
			}
		}
	}
	/* Each block read is written once, to the same place of volume 2. */
	ck_assert_uint_eq(reads, fi.data_reqs);
	ck_assert_uint_eq(data_writes, reads);
	ck_assert_uint_eq(write_sum, read_sum);
	ck_assert_uint_eq(writes - data_writes, fi.meta_reqs);
	/* One per file plus one per MiB of data. */
	ck_assert_uint_eq(fi.meta_reqs, fi.files + fi.file_bytes / (1 << 20));
	ck_assert_uint_le(tu_seen.max_in_flight, 2);
	ck_assert_uint_eq(tu_seen.max_in_flight, 2);
	tu_rec_detach(r.dev);
	tu_point_free(&r);
}
END_TEST

/* One line of the request log. */
struct logline {
	double issue, resp;
	char op[8];
	unsigned long long lba;
	unsigned nblk;
};

START_TEST(copy_near_after_files)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "device: { type: ideal, mean: 1ms, capacity: 8GiB }\n"
				       "workload:\n"
				       "  filecopy: { set: install, action: copy-near, files: 60, "
				       "volume_size: 1GiB, outstanding: 3 }\n"),
			 0);
	tu_point_log(&r);
	tu_rec_attach(r.dev, 20000);
	tu_point_go(&r);
	struct rs_filecopy_info fi;
	rs_filecopy_info(r.load, &fi);
	/* The copy starts at the next free cluster after the last file. */
	ck_assert_uint_eq(fi.dst_blk[0], fi.src_blk[1]);
	ck_assert_uint_eq(fi.meta_blk[0], 0);
	ck_assert_uint_le(fi.meta_blk[1], fi.src_blk[0]);
	ck_assert_uint_le(fi.dst_blk[1], fi.volume_blk[1]);
	uint64_t data_writes = 0;
	for (size_t i = 0; i < tu_seen.n; i++) {
		const struct tu_rec *q = &tu_seen.r[i];
		if (q->op == RS_READ) {
			ck_assert(in(q->lba, q->nblk, fi.src_blk));
		} else if (in(q->lba, q->nblk, fi.dst_blk)) {
			ck_assert_uint_ge(q->lba, fi.src_blk[1]);
			data_writes++;
		} else {
			ck_assert(in(q->lba, q->nblk, fi.meta_blk));
		}
	}
	ck_assert_uint_eq(data_writes, fi.data_reqs);
	ck_assert_uint_eq(tu_seen.max_in_flight, 3);

	/* Each write is issued after its read completed (the log has every
	 * request: the window covers the whole action). */
	size_t n = 0, cap = tu_seen.n;
	struct logline *l = calloc(cap, sizeof(*l));
	ck_assert_ptr_nonnull(l);
	const char *p = r.log;
	while (p && *p) {
		ck_assert_uint_lt(n, cap);
		int k = sscanf(p, "%lf,%7[a-z],%llu,%u,%lf", &l[n].issue, l[n].op, &l[n].lba,
			       &l[n].nblk, &l[n].resp);
		ck_assert_int_eq(k, 5);
		n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	ck_assert_uint_eq(n, tu_seen.n);
	uint64_t delta = fi.dst_blk[0] - fi.src_blk[0];
	for (size_t i = 0; i < n; i++) {
		if (strcmp(l[i].op, "write") != 0 || l[i].lba < fi.dst_blk[0])
			continue;
		bool found = false;
		for (size_t j = 0; j < n && !found; j++) {
			if (strcmp(l[j].op, "read") == 0 && l[j].lba + delta == l[i].lba) {
				ck_assert_uint_eq(l[j].nblk, l[i].nblk);
				ck_assert(l[j].issue + l[j].resp <= l[i].issue + 1e-9);
				found = true;
			}
		}
		ck_assert(found);
	}
	free(l);
	tu_rec_detach(r.dev);
	tu_point_free(&r);
}
END_TEST

/* ---- the window ------------------------------------------------------ */

/* One server, 1 ms per request whatever its size: N requests take exactly
 * N ms with any number in flight, and the window closes at the last. */
START_TEST(window_ends_with_action)
{
	const char *actions[] = { "create", "read", "copy-near", "copy-far" };
	for (int a = 0; a < 4; a++) {
		struct tu_point r;
		ck_assert_int_eq(run_build(&r, "device: { type: ideal, mean: 1ms, "
					       "capacity: 4GiB }\n"
					       "workload:\n"
					       "  filecopy: { set: programs, action: %s, files: 200, "
					       "volume_size: 2GiB }\n",
					   actions[a]),
				 0);
		tu_point_go(&r);
		struct rs_filecopy_info fi;
		rs_filecopy_info(r.load, &fi);
		uint64_t n = fi.data_reqs * (a >= 2 ? 2 : 1) + fi.meta_reqs;
		ck_assert_uint_eq(r.sim->io_counters.created, n);
		ck_assert_uint_eq(r.load->summary.ops, n);
		ck_assert(r.load->stopped);
		ck_assert_int_eq(r.load->t_measure_end, (rs_time_t)n * RS_MS);
		ck_assert_int_eq(rs_now(r.sim), r.load->t_measure_end);
		tu_assert_rel(r.load->summary.seconds, (double)n / 1000.0, 1e-12);
		tu_assert_rel(rs_filecopy_file_mb_s(r.load),
			      (double)fi.file_bytes / 1e6 / ((double)n / 1000.0), 1e-12);
		tu_point_free(&r);
	}

	/* run: cut short; requests in flight drain and the file MB/s counts
	 * only the data completed in the window. */
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "device: { type: ideal, mean: 1ms, capacity: 4GiB }\n"
				       "workload:\n"
				       "  filecopy: { set: mp3, action: read, files: 10, "
				       "volume_size: 1GiB, run: 100ms }\n"),
			 0);
	tu_point_go(&r);
	struct rs_filecopy_info fi;
	rs_filecopy_info(r.load, &fi);
	ck_assert_int_eq(r.load->t_measure_end, 100 * RS_MS);
	ck_assert_uint_eq(r.load->summary.ops, 99);       /* the 100th completes at 100 ms */
	ck_assert_uint_eq(r.sim->io_counters.created, 101);
	double mb_s = rs_filecopy_file_mb_s(r.load);
	ck_assert(mb_s > 0 && mb_s < (double)fi.file_bytes / 1e6 / 0.1);
	tu_point_free(&r);

	ck_assert_int_eq(run_build(&r, "device: { type: ideal, mean: 1ms, capacity: 4GiB }\n"
				       "workload:\n"
				       "  filecopy: { set: mp3, action: create, files: 10, "
				       "volume_size: 1GiB, count: 50 }\n"),
			 0);
	tu_point_go(&r);
	ck_assert_uint_eq(r.load->summary.ops, 50);
	ck_assert_int_eq(r.load->t_measure_end, 50 * RS_MS);
	tu_point_free(&r);
}
END_TEST

/* Same seed, same requests; another seed, other file sizes. */
START_TEST(deterministic)
{
	uint64_t bytes[3];
	rs_time_t end[3];
	const int seeds[3] = { 5, 5, 6 };
	for (int k = 0; k < 3; k++) {
		struct tu_point r;
		ck_assert_int_eq(run_build(&r, "seed: %d\n" BW_DEV "workload:\n"
					       "  filecopy: { set: windows, action: create, "
					       "files: 500, volume_size: 1GiB }\n",
					   seeds[k]),
				 0);
		tu_point_go(&r);
		struct rs_filecopy_info fi;
		rs_filecopy_info(r.load, &fi);
		bytes[k] = fi.src_blk[1];
		end[k] = rs_now(r.sim);
		/* 500 files keep the set's mean file size. */
		ck_assert_uint_eq(fi.file_bytes, 500 * (1500000000ull / 12000));
		tu_point_free(&r);
	}
	ck_assert_uint_eq(bytes[0], bytes[1]);
	ck_assert_int_eq(end[0], end[1]);
	ck_assert(bytes[0] != bytes[2] || end[0] != end[2]);
}
END_TEST

/* ---- diagnostics ----------------------------------------------------- */

struct bad_case {
	const char *yaml;             /* after "workload:\n" */
	const char *device;           /* NULL: 8 GiB ideal */
	int line, col;
	const char *msg;
};

static const struct bad_case bad_cases[] = {
	{ "  filecopy: { set: windos, action: read }\n", NULL, 3, 20,
	  "unknown value 'windos' for 'set' (expected one of: install, iso, mp3, programs, "
	  "windows; did you mean 'windows'?)" },
	{ "  filecopy: { set: iso, action: copy-nera }\n", NULL, 3, 33,
	  "did you mean 'copy-near'?" },
	{ "  filecopy: { set: iso, action: read, volume_size: 5GiB }\n", NULL, 3, 52,
	  "two volumes of 5368709120 bytes need 10737418240 bytes, beyond the device "
	  "(8589934592 bytes)" },
	/* The default volumes (2 x 32 GiB) do not fit: blame the section. */
	{ "  filecopy: { set: iso, action: read }\n", NULL, 3, 13, "two volumes of 34359738368" },
	{ "  filecopy: { set: iso, action: copy-near, volume_size: 3GiB }\n", NULL, 3, 57,
	  "for copy-near, beyond the volume (3221225472 bytes)" },
	{ "  filecopy: { set: iso, action: read, volume_size: 1GiB, block: 6KiB }\n", NULL, 3,
	  65, "'block' must be a multiple of the cluster (4096 bytes), got 6144" },
	{ "  filecopy: { set: iso, action: read, volume_size: 2GiB, metadata_zone: 2KiB, "
	  "metadata_size: 4KiB }\n",
	  NULL, 3, 73, "'metadata_zone' must be a multiple of the cluster" },
	{ "  filecopy: { set: iso, action: read, volume_sise: 1GiB }\n", NULL, 3, 39,
	  "did you mean 'volume_size'?" },
	{ "  filecopy: { action: read }\n", NULL, 0, 0, "set" },
	{ "  filecopy: { set: iso, action: read, outstanding: 0 }\n", NULL, 3, 52, "outstanding" },
};

START_TEST(bad_yaml)
{
	const struct bad_case *c = &bad_cases[_i];
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, "%s\nworkload:\n%s",
				   c->device ? c->device
					     : "device: { type: ideal, capacity: 8GiB }",
				   c->yaml),
			 -1);
	ck_assert_ptr_null(r.load);
	tu_expect_diag(&r.d, _i, c->msg, "fc.yaml", c->line, c->col);
	tu_point_free(&r);
}
END_TEST

static Suite *filecopy_suite(void)
{
	Suite *s = suite_create("filecopy");
	TCase *tc = tcase_create("sets");
	tcase_add_loop_test(tc, sets_documented, 0,
			    (int)(sizeof(want_sets) / sizeof(want_sets[0])));
	tcase_add_test(tc, sets_shape);
	suite_add_tcase(s, tc);
	tc = tcase_create("run");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, bandwidth_create_read);
	tcase_add_test(tc, copy_far_volumes);
	tcase_add_test(tc, copy_near_after_files);
	tcase_add_test(tc, window_ends_with_action);
	tcase_add_test(tc, deterministic);
	suite_add_tcase(s, tc);
	tc = tcase_create("diag");
	tcase_add_loop_test(tc, bad_yaml, 0, (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(filecopy_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
