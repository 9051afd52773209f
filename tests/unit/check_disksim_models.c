/* The two disk models converted from DiskSim 4.0's extracted parameter sets
 * (models/disks/quantum-atlas-10k.yaml, seagate-cheetah-9lp.yaml).
 *
 * Expectations are computed here from the numbers in the model files
 * themselves (zone table, skews, seek table, rpm, overheads), read with the
 * YAML loader and unit parsers only, never from the simulator's layout or
 * seek code:
 *   - both load, and the layout maps exactly DiskSim's figures: the drive's
 *     LBN count as capacity, and DiskSim's sum of zone sizes as mappable;
 *   - LBA -> physical -> LBA is the identity at every zone boundary, each
 *     zone starts on its first cylinder at head 0, and the cylinders DiskSim
 *     leaves in no zone hold no LBA;
 *   - sequential reads in the outer and inner zone run at the media rate
 *     spt * 512 * rpm / 60 less the track and cylinder skews;
 *   - QD1 random 512 B reads take the LBA-weighted all-pairs mean of the
 *     measured seek table + half a revolution + the read overhead (+ one
 *     sector and its interface transfer);
 *   - every run ends with the conservation check. */
#define TU_WANT_SCENARIO
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "config/units.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "disk/hdd.h"
#include "disk/layout.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "load/load.h"
#include "testutil.h"

/* ---- the models, as DiskSim states them --------------------------------- */

struct model_case {
	const char *name;
	uint64_t block_count;     /* DiskSim "Block count": the drive's LBNs */
	uint64_t disksim_sum;     /* DiskSim's sum of zone sizes (blksinband) */
	uint32_t cylinders, heads, nzones;
	uint32_t gaps[8];         /* cylinders DiskSim leaves in no zone */
	size_t ngaps;
};

static const struct model_case models[] = {
	{ "quantum-atlas-10k", 17938986, 17966953, 10042, 6, 24, { 0 }, 0 },
	{ "seagate-cheetah-9lp", 17783240, 17918387, 6962, 12, 11,
	  { 847, 1644, 2393, 3097, 3758, 4380, 4965 }, 7 },
};

/* ---- the model file, read directly ------------------------------------ */

#define MAXZ 64
#define MAXSEEK 512

struct zrow {
	uint64_t first_cyl, last_cyl, spt, track_skew, cyl_skew, spares;
};

struct mfile {
	double rpm;
	uint64_t heads, capacity_blk, cylinders;
	struct zrow z[MAXZ];
	size_t nz;
	double seek_d[MAXSEEK], seek_ms[MAXSEEK];
	size_t nseek;
	double head_switch_ms, overhead_read_ms, rate_bytes_s;
};

static const struct rs_node *need(const struct rs_node *map, const char *key)
{
	const struct rs_node *n = rs_node_get(map, key);
	ck_assert_msg(n != NULL, "model has no '%s'", key);
	return n;
}

static uint64_t uint_of(const struct rs_node *n)
{
	uint64_t v;
	const char *why;
	ck_assert_msg(rs_parse_uint(n->str, &v, &why) == 0, "bad integer '%s'", n->str);
	return v;
}

static double ms_of(const struct rs_node *n)
{
	int64_t ns;
	const char *why;
	ck_assert_msg(rs_parse_time(n->str, &ns, &why) == 0, "bad time '%s'", n->str);
	return (double)ns / 1e6;
}

static void read_model(struct mfile *m, const char *name)
{
	const char *top = getenv("top_srcdir");
	char path[1024];
	snprintf(path, sizeof(path), "%s/models/disks/%s.yaml", top ? top : ".", name);
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_node *root = rs_yaml_load_file(path, &d);
	if (!root)
		rs_diag_print(&d, stderr);
	ck_assert_ptr_nonnull(root);
	memset(m, 0, sizeof(*m));
	const char *why;
	ck_assert_int_eq(rs_parse_rpm(need(root, "rpm")->str, &m->rpm, &why), 0);
	m->heads = uint_of(need(root, "heads"));
	m->cylinders = uint_of(need(root, "cylinders"));
	uint64_t cap;
	ck_assert_int_eq(rs_parse_size(need(root, "capacity")->str, &cap, &why), 0);
	m->capacity_blk = cap / 512;
	m->head_switch_ms = ms_of(need(root, "head_switch"));
	/* A read miss after a read; the validated set-up's bus time per block. */
	m->overhead_read_ms = ms_of(need(need(root, "overheads"), "read_miss")->items[0]);
	m->rate_bytes_s = 512.0 / (ms_of(need(root, "interface_block_time")) / 1e3);
	const struct rs_node *zt = need(root, "zone_table");
	ck_assert(zt->kind == RS_NODE_SEQ && zt->len <= MAXZ);
	m->nz = zt->len;
	for (size_t i = 0; i < zt->len; i++) {
		const struct rs_node *r = zt->items[i];
		m->z[i] = (struct zrow){
			uint_of(need(r, "first_cyl")), uint_of(need(r, "last_cyl")),
			uint_of(need(r, "sectors_per_track")), uint_of(need(r, "track_skew")),
			uint_of(need(r, "cyl_skew")), uint_of(need(r, "spares")),
		};
	}
	const struct rs_node *st = need(root, "seek_table");
	ck_assert(st->kind == RS_NODE_SEQ && st->len <= MAXSEEK);
	m->nseek = st->len;
	for (size_t i = 0; i < st->len; i++) {
		m->seek_d[i] = (double)uint_of(st->items[i]->items[0]);
		m->seek_ms[i] = ms_of(st->items[i]->items[1]);
	}
	rs_node_free(root);
}

/* The measured curve, linearly interpolated; past the last point the last
 * segment is extended (DiskSim's extracted-seek rule). */
static double seek_ms(const struct mfile *m, double d)
{
	if (d <= 0)
		return 0;
	size_t i = 1;
	while (i < m->nseek - 1 && m->seek_d[i] < d)
		i++;
	if (d <= m->seek_d[0])
		return m->seek_ms[0];
	double d0 = m->seek_d[i - 1], d1 = m->seek_d[i];
	return m->seek_ms[i - 1] + (m->seek_ms[i] - m->seek_ms[i - 1]) * (d - d0) / (d1 - d0);
}

/* LBAs per cylinder: every zone holds all of its sectors less its spares,
 * which sit at its end; the drive's capacity cuts the last zone short. */
static double *lba_weights(const struct mfile *m)
{
	double *w = calloc(m->cylinders, sizeof(*w));
	uint64_t left_cap = m->capacity_blk;
	for (size_t i = 0; i < m->nz; i++) {
		const struct zrow *z = &m->z[i];
		uint64_t per = m->heads * z->spt;
		uint64_t left = (z->last_cyl - z->first_cyl + 1) * per - z->spares;
		for (uint64_t c = z->first_cyl; c <= z->last_cyl; c++) {
			uint64_t n = left < per ? left : per;
			n = n < left_cap ? n : left_cap;
			w[c] = (double)n;
			left -= n;
			left_cap -= n;
		}
	}
	return w;
}

/* ---- running the drive --------------------------------------------------- */

struct drun {
	struct rs_iostat_summary s;
	struct rs_hdd_counters c;
};

typedef void inspect_fn(const struct rs_layout *l, const struct model_case *mc);

/* Build the drive from `device: {model: NAME}`; with a workload, run it
 * (conservation checked), and/or hand the built layout to `inspect`. */
static void run(struct drun *out, const struct model_case *mc, const char *dev_extra,
		inspect_fn *inspect, const char *workload_fmt, ...)
{
	char wl[1024] = "";
	if (workload_fmt) {
		va_list ap;
		va_start(ap, workload_fmt);
		vsnprintf(wl, sizeof(wl), workload_fmt, ap);
		va_end(ap);
	}
	char text[2048];
	int n = snprintf(text, sizeof(text), "device: {model: %s%s}\n%s", mc->name, dev_extra, wl);
	ck_assert_int_lt(n, (int)sizeof(text));
	struct tu_point p;
	tu_point_open(&p, "test.yaml", text, (size_t)n, 1);
	tu_point_device(&p, "disk0");
	if (inspect)
		inspect(&rs_hdd_geom(p.dev)->layout, mc);
	if (workload_fmt) {
		tu_point_workload(&p);
		tu_point_need(&p, p.load);
		tu_point_go(&p);
		out->s = p.load->summary;
		out->c = *rs_hdd_counters(p.dev);
		ck_assert_uint_eq(out->c.mismatches, 0);
		rs_load_destroy(p.load);
		p.load = NULL;
	}
	/* Destroying the drive leaves nothing behind in the sim either. */
	rs_dev_destroy(p.dev);
	p.dev = NULL;
	tu_check_conservation(p.sim);
	tu_point_free(&p);
}

/* ---- layout ----------------------------------------------------------- */

static struct mfile g_m;   /* the model file of the case being inspected */

static void check_roundtrip(const struct rs_layout *l, uint64_t lba)
{
	struct rs_phys p;
	rs_layout_lba_to_phys(l, lba, &p);
	ck_assert_msg(rs_layout_phys_to_lba(l, &p) == (int64_t)lba,
		      "LBA %llu -> (%u, %u, %u) -> %lld", (unsigned long long)lba, p.cyl,
		      p.head, p.sector, (long long)rs_layout_phys_to_lba(l, &p));
}

static void inspect_layout(const struct rs_layout *l, const struct model_case *mc)
{
	const struct mfile *m = &g_m;
	ck_assert_uint_eq(l->heads, mc->heads);
	ck_assert_uint_eq(l->cylinders, mc->cylinders);
	ck_assert_uint_eq(l->nzones, mc->nzones);
	/* The drive's LBN count, and DiskSim's own sum of zone sizes. */
	ck_assert_uint_eq(rs_layout_capacity_blk(l), mc->block_count);
	ck_assert_uint_eq(l->mappable_blk, mc->disksim_sum);
	/* The same sum from the file: sectors less spares (gap cylinders are
	 * all spares, so they cancel). */
	uint64_t sum = 0, first_lba[MAXZ];
	for (size_t i = 0; i < m->nz; i++) {
		const struct zrow *z = &m->z[i];
		first_lba[i] = sum;
		sum += (z->last_cyl - z->first_cyl + 1) * m->heads * z->spt - z->spares;
	}
	ck_assert_uint_eq(sum, mc->disksim_sum);
	for (size_t i = 0; i < m->nz; i++) {
		if (first_lba[i] >= rs_layout_capacity_blk(l))
			break;
		struct rs_phys p;
		rs_layout_lba_to_phys(l, first_lba[i], &p);
		/* Slips could push the first LBA along the track; there are none
		 * at a zone's first sector in either drive. */
		ck_assert_uint_eq(p.cyl, m->z[i].first_cyl);
		ck_assert_uint_eq(p.head, 0);
		ck_assert_uint_eq(p.sector, 0);
		ck_assert_uint_eq(p.zone, i);
		check_roundtrip(l, first_lba[i]);
		if (i > 0) {
			check_roundtrip(l, first_lba[i] - 1);
			rs_layout_lba_to_phys(l, first_lba[i] - 1, &p);
			ck_assert_uint_eq(p.zone, i - 1);
			ck_assert_uint_le(p.cyl, m->z[i - 1].last_cyl);
		}
	}
	check_roundtrip(l, rs_layout_capacity_blk(l) - 1);
	for (size_t g = 0; g < mc->ngaps; g++) {
		for (uint32_t h = 0; h < mc->heads; h += mc->heads - 1) {
			struct rs_phys p = { mc->gaps[g], h, 0, 0 };
			ck_assert_int_eq(rs_layout_phys_to_lba(l, &p), -1);
		}
		/* The cylinder before a gap still holds LBAs (DiskSim's zone end). */
		struct rs_phys q = { mc->gaps[g] - 1, 0, 0, 0 };
		ck_assert_int_ge(rs_layout_phys_to_lba(l, &q), 0);
	}
	printf("%s: %u zones, %u cylinders, capacity %llu blocks (DiskSim block count), "
	       "zone table maps %llu (DiskSim's zone sum)\n", mc->name, l->nzones,
	       l->cylinders, (unsigned long long)rs_layout_capacity_blk(l),
	       (unsigned long long)l->mappable_blk);
}

START_TEST(layout)
{
	const struct model_case *mc = &models[_i];
	read_model(&g_m, mc->name);
	ck_assert_uint_eq(g_m.cylinders, mc->cylinders);
	struct drun r;
	run(&r, mc, "", inspect_layout, NULL);
}
END_TEST

/* ---- sequential media rate ------------------------------------------------ */

/* Bytes per second reading whole cylinders of zone z: each track takes a
 * revolution, each head switch the track skew and each cylinder switch the
 * cylinder skew -- or a revolution more if the switch outlasts its skew. */
static double media_rate(const struct mfile *m, const struct zrow *z)
{
	double rev_ms = 60e3 / m->rpm, sect_ms = rev_ms / (double)z->spt;
	double ts_ms = (double)z->track_skew * sect_ms, cs_ms = (double)z->cyl_skew * sect_ms;
	if (ts_ms < m->head_switch_ms)
		ts_ms += rev_ms;
	double cyl_switch_ms = fmax(m->seek_ms[0], m->head_switch_ms);
	if (cs_ms < cyl_switch_ms)
		cs_ms += rev_ms;
	double cyl_ms = (double)m->heads * rev_ms + (double)(m->heads - 1) * ts_ms + cs_ms;
	return (double)(m->heads * z->spt * 512) / (cyl_ms / 1e3);
}

START_TEST(sequential_rates)
{
	const struct model_case *mc = &models[_i];
	struct mfile m;
	read_model(&m, mc->name);
	uint64_t inner_first = 0;
	for (size_t i = 0; i + 1 < m.nz; i++)
		inner_first += (m.z[i].last_cyl - m.z[i].first_cyl + 1) * m.heads * m.z[i].spt -
			m.z[i].spares;
	const char *wl = "workload: {iometer: {spec: seqread, size: 256KiB, outstanding: 2,\n"
			 "  range: 150MiB, offset: %lluB, ramp: 0.2s, run: 1.5s}}\n";
	struct drun outer, inner;
	/* The media, not the validation host's slow bus (about 5 MB/s). */
	const char *fast_bus = ", interface_block_time: 0s, interface_rate: 80MB/s";
	run(&outer, mc, fast_bus, NULL, wl, 0ull);
	run(&inner, mc, fast_bus, NULL, wl, (unsigned long long)(inner_first * 512));
	double want_o = media_rate(&m, &m.z[0]) / 1e6;
	double want_i = media_rate(&m, &m.z[m.nz - 1]) / 1e6;
	printf("%s sequential 256 KiB reads: outer %.3f MB/s (expected %.3f; raw %.3f), "
	       "inner %.3f MB/s (expected %.3f; raw %.3f)\n", mc->name, outer.s.mb_s, want_o,
	       (double)m.z[0].spt * 512 * m.rpm / 60 / 1e6, inner.s.mb_s, want_i,
	       (double)m.z[m.nz - 1].spt * 512 * m.rpm / 60 / 1e6);
	tu_assert_rel(outer.s.mb_s, want_o, 0.05);
	tu_assert_rel(inner.s.mb_s, want_i, 0.05);
}
END_TEST

/* ---- QD1 random reads -------------------------------------------------- */

START_TEST(qd1_random_read)
{
	const struct model_case *mc = &models[_i];
	struct mfile m;
	read_model(&m, mc->name);
	/* All-pairs mean of the measured curve over uniformly random LBAs:
	 * cylinder c is picked with probability w[c] / W. */
	double *w = lba_weights(&m);
	double *t = malloc(m.cylinders * sizeof(*t));
	for (uint64_t d = 0; d < m.cylinders; d++)
		t[d] = seek_ms(&m, (double)d);
	double W = 0, sum = 0, sect_ms = 0;
	uint32_t zi = 0;
	for (uint64_t i = 0; i < m.cylinders; i++) {
		W += w[i];
		double row = 0;
		for (uint64_t j = i + 1; j < m.cylinders; j++)
			row += w[j] * t[j - i];
		sum += 2 * w[i] * row;
		while (i > m.z[zi].last_cyl)
			zi++;
		sect_ms += w[i] * 60e3 / m.rpm / (double)m.z[zi].spt;
	}
	double seek_mean = sum / (W * W);
	sect_ms /= W;
	free(w);
	free(t);
	double half_rev = 0.5 * 60e3 / m.rpm;
	double xfer_ms = 512.0 / m.rate_bytes_s * 1e3;
	double want = seek_mean + half_rev + m.overhead_read_ms + sect_ms + xfer_ms;

	struct drun r;
	run(&r, mc, "", NULL,
	    "workload: {iometer: {spec: default, size: 512B, read: 100%%, random: 100%%,\n"
	    "  outstanding: 1, ramp: 1s, run: 40s}}\n");
	printf("%s QD1 random 512 B read: %.3f ms (expected %.3f = seek %.3f + half turn "
	       "%.3f + overhead %.3f + sector %.3f + bus %.4f), %.1f IOPS, hits %llu\n",
	       mc->name, r.s.lat_mean_ms, want, seek_mean, half_rev, m.overhead_read_ms,
	       sect_ms, xfer_ms, r.s.iops, (unsigned long long)r.c.hits);
	tu_assert_rel(r.s.lat_mean_ms, want, 0.05);
}
END_TEST

static Suite *disksim_suite(void)
{
	Suite *s = suite_create("disksim_models");
	TCase *tc = tcase_create("models");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, layout, 0, 2);
	tcase_add_loop_test(tc, sequential_rates, 0, 2);
	tcase_add_loop_test(tc, qd1_random_read, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(disksim_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
