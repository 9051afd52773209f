/* Disk geometry and mechanics: layout mapping, seek curves, spindle angle,
 * positioning and media times. */
#include <check.h>
#include <time.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "disk/hdd_firmware.h"
#include "disk/layout.h"
#include "disk/layout_gen.h"
#include "disk/seek.h"
#include "disk/spindle.h"
#include "disk/spindle_position.h"

/* Check records every passing ck_assert through a pipe; in loops of a
 * million look-ups that dominates the run time, so hot loops use this. */
#define REQUIRE(cond)                                                       \
	do {                                                                \
		if (!(cond))                                                \
			ck_abort_msg("%s:%d: failed: %s", __FILE__, __LINE__, #cond); \
	} while (0)

/* --- fixtures -------------------------------------------------------------- */

#define HEADS 4u
#define SPARE_PER_CYL 3u
#define SPARE_TRACKS 2u

/* Three zones; the last has fewer spare sectors than slips, so its slips
 * shift the LBAs after them; the first has more. */
static const struct rs_zone synth_zones[] = {
	{ .first_cyl = 0, .last_cyl = 99, .sectors_per_track = 100,
	  .track_skew = 10, .cyl_skew = 17, .spare_sectors = 30 },
	{ .first_cyl = 100, .last_cyl = 189, .sectors_per_track = 90,
	  .track_skew = 9, .cyl_skew = 15, .spare_sectors = 0 },
	{ .first_cyl = 190, .last_cyl = 299, .sectors_per_track = 73,
	  .track_skew = 7, .cyl_skew = 12, .spare_sectors = 5 },
};
#define NZ (sizeof(synth_zones) / sizeof(synth_zones[0]))
#define NCYL 300u

static uint64_t zone_first_pbn(uint32_t zi)
{
	uint64_t pbn = 0;
	for (uint32_t i = 0; i < zi; i++)
		pbn += (uint64_t)(synth_zones[i].last_cyl - synth_zones[i].first_cyl + 1) *
			HEADS * synth_zones[i].sectors_per_track;
	return pbn;
}

static uint64_t pbn_of(uint32_t zi, uint32_t cyl, uint32_t head, uint32_t sector)
{
	const struct rs_zone *z = &synth_zones[zi];
	return zone_first_pbn(zi) +
		((uint64_t)(cyl - z->first_cyl) * HEADS + head) * z->sectors_per_track +
		sector;
}

/* Slips on data positions: zone edges, a track's first sector, neighbours. */
static uint64_t synth_slips[64];
static size_t synth_nslips;

static void make_slips(void)
{
	synth_nslips = 0;
	uint64_t *s = synth_slips;
	s[synth_nslips++] = pbn_of(0, 0, 0, 0);            /* very first sector */
	s[synth_nslips++] = pbn_of(0, 0, 0, 1);            /* its neighbour */
	s[synth_nslips++] = pbn_of(0, 5, 2, 0);            /* track start */
	s[synth_nslips++] = pbn_of(0, 50, 3, 96);          /* just before cyl spares */
	s[synth_nslips++] = pbn_of(1, 100, 0, 0);          /* zone start */
	s[synth_nslips++] = pbn_of(1, 150, 1, 45);
	s[synth_nslips++] = pbn_of(1, 189, 1, 89);         /* before spare tracks */
	for (uint32_t i = 0; i < 9; i++)                   /* 9 > 5 spares */
		s[synth_nslips++] = pbn_of(2, 200 + 10 * i, i % HEADS, 3 * i);
	s[synth_nslips++] = pbn_of(2, 299, 1, 72);         /* last data sector */
}

static struct rs_layout_params synth_params(void)
{
	make_slips();
	struct rs_layout_params p = {
		.heads = HEADS, .cylinders = NCYL, .zones = synth_zones, .nzones = NZ,
		.spare_sect_per_cyl = SPARE_PER_CYL,
		.spare_tracks_per_zone = SPARE_TRACKS,
		.slips = synth_slips, .nslips = synth_nslips,
	};
	return p;
}

static void synth_init(struct rs_layout *l)
{
	char err[200];
	struct rs_layout_params p = synth_params();
	ck_assert_msg(rs_layout_init(l, &p, err, sizeof(err)) == 0, "%s", err);
}

static uint64_t rand_below(gsl_rng *r, uint64_t n)
{
	uint64_t x = ((uint64_t)gsl_rng_get(r) << 32) | gsl_rng_get(r);
	return x % n;
}

/* The zone of lba from the zones alone: the last starting at or below it. */
static uint32_t zone_by_scan(const struct rs_layout *l, uint64_t lba)
{
	uint32_t z = 0;
	for (uint32_t i = 1; i < l->nzones; i++)
		if (l->zones[i].first_lba <= lba)
			z = i;
	return z;
}

static void check_roundtrip(const struct rs_layout *l, uint64_t lba)
{
	struct rs_phys p;
	rs_layout_lba_to_phys(l, lba, &p);
	REQUIRE(p.zone == rs_layout_zone_of_lba(l, lba));
	REQUIRE(p.zone == zone_by_scan(l, lba));
	REQUIRE(p.zone == rs_layout_zone_of_cyl(l, p.cyl));
	REQUIRE(p.sector < rs_layout_spt_of_cyl(l, p.cyl));
	REQUIRE(p.head < l->heads);
	REQUIRE(rs_layout_phys_to_lba(l, &p) == (int64_t)lba);
}

static void check_zone_edges(const struct rs_layout *l)
{
	uint64_t cap = rs_layout_capacity_blk(l);
	for (uint32_t z = 0; z < l->nzones; z++) {
		uint64_t first = l->zones[z].first_lba;
		uint64_t last = first + l->zones[z].lba_count - 1;
		int64_t probes[] = { (int64_t)first - 1, (int64_t)first, (int64_t)first + 1,
				     (int64_t)last - 1, (int64_t)last, (int64_t)last + 1 };
		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
			if (probes[i] >= 0 && (uint64_t)probes[i] < cap)
				check_roundtrip(l, (uint64_t)probes[i]);
	}
}

static void check_random(const struct rs_layout *l, unsigned n)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 12345);
	uint64_t cap = rs_layout_capacity_blk(l);
	for (unsigned i = 0; i < n; i++)
		check_roundtrip(l, rand_below(r, cap));
	gsl_rng_free(r);
}

/* --- layout ---------------------------------------------------------------- */

/* Re-derive the documented mapping by walking every physical sector, and
 * compare both directions for every position and every LBA. */
START_TEST(layout_exhaustive_reference)
{
	struct rs_layout l;
	synth_init(&l);
	uint64_t lba = 0;
	size_t si = 0;
	for (uint32_t zi = 0; zi < NZ; zi++) {
		const struct rs_zone *z = &synth_zones[zi];
		uint32_t spt = z->sectors_per_track;
		uint32_t tracks = (z->last_cyl - z->first_cyl + 1) * HEADS;
		size_t zslips = 0;
		for (size_t i = 0; i < synth_nslips; i++)
			if (synth_slips[i] >= zone_first_pbn(zi) &&
			    (zi + 1 == NZ || synth_slips[i] < zone_first_pbn(zi + 1)))
				zslips++;
		uint64_t data = 0;
		for (uint32_t t = 0; t < tracks - SPARE_TRACKS; t++)
			for (uint32_t s = 0; s < spt; s++)
				if ((t % HEADS) * spt + s < HEADS * spt - SPARE_PER_CYL)
					data++;
		uint64_t reserve = zslips > z->spare_sectors ? zslips : z->spare_sectors;
		uint64_t zone_lbas = data - reserve, used = 0;
		ck_assert_uint_eq(l.zones[zi].lba_count, zone_lbas);
		for (uint32_t t = 0; t < tracks; t++) {
			for (uint32_t s = 0; s < spt; s++) {
				struct rs_phys p = { .cyl = z->first_cyl + t / HEADS,
						     .head = t % HEADS, .sector = s };
				uint64_t pbn = pbn_of(zi, p.cyl, p.head, s);
				REQUIRE(rs_layout_pbn(&l, &p) == pbn);
				int spare = t >= tracks - SPARE_TRACKS ||
					p.head * spt + s >= HEADS * spt - SPARE_PER_CYL;
				int slip = si < synth_nslips && synth_slips[si] == pbn;
				if (slip)
					si++;
				int64_t want = -1;
				if (!spare && !slip && used < zone_lbas)
					want = (int64_t)lba + (int64_t)used++;
				REQUIRE(rs_layout_phys_to_lba(&l, &p) == want);
				if (want >= 0) {
					struct rs_phys q;
					rs_layout_lba_to_phys(&l, (uint64_t)want, &q);
					REQUIRE(q.cyl == p.cyl);
					REQUIRE(q.head == p.head);
					REQUIRE(q.sector == s);
					REQUIRE(q.zone == zi);
				}
			}
		}
		lba += used;
	}
	ck_assert_uint_eq(si, synth_nslips);
	ck_assert_uint_eq(lba, rs_layout_capacity_blk(&l));
	/* The first zone's slips are absorbed by its spare sectors. */
	ck_assert_uint_eq(l.zones[1].first_lba,
			  (uint64_t)100 * (HEADS * 100 - SPARE_PER_CYL) - 100 * 2 +
			  SPARE_PER_CYL - 30);
	rs_layout_destroy(&l);
}
END_TEST

/* Spare groups (DiskSim's spares per track, cylinder or range), an empty
 * zone front, spare tracks at a zone's end and a first-sector offset:
 * re-derive the mapping by walking every sector in PBN order. */
#define G_HEADS 3u
#define G_TRACKS 6u                       /* two cylinders per group */
static const struct rs_zone group_zones[] = {
	{ .first_cyl = 0, .last_cyl = 9, .sectors_per_track = 20, .track_skew = 2,
	  .cyl_skew = 5, .spare_sectors = 5, .empty_front = 7, .first_offset = 3,
	  .spare_tracks = 3 },
	{ .first_cyl = 10, .last_cyl = 14, .sectors_per_track = 17, .track_skew = 1,
	  .cyl_skew = 4, .spare_sectors = 4 },
};

START_TEST(layout_spare_groups)
{
	/* Zone-relative slips: four in zone 1's first group (all its spares),
	 * two in its last, shorter group; one in zone 0's group 1. */
	uint64_t z1 = 10u * G_HEADS * 20;
	uint64_t slips[] = { 150, z1 + 0, z1 + 5, z1 + 50, z1 + 101,
			     z1 + 4 * G_HEADS * 17 + 3, z1 + 4 * G_HEADS * 17 + 40 };
	struct rs_layout_params p = {
		.heads = G_HEADS, .cylinders = 15, .zones = group_zones, .nzones = 2,
		.spare_group_tracks = G_TRACKS, .slips = slips,
		.nslips = sizeof(slips) / sizeof(slips[0]),
	};
	struct rs_layout l;
	char err[200];
	ck_assert_msg(rs_layout_init(&l, &p, err, sizeof(err)) == 0, "%s", err);
	uint64_t lba = 0, pbn = 0;
	size_t si = 0;
	for (uint32_t zi = 0; zi < 2; zi++) {
		const struct rs_zone *z = &group_zones[zi];
		uint32_t spt = z->sectors_per_track;
		uint64_t size = (uint64_t)(z->last_cyl - z->first_cyl + 1) * G_HEADS * spt;
		uint64_t data = size - (uint64_t)z->spare_tracks * spt;
		uint64_t gsize = (uint64_t)G_TRACKS * spt, cand = 0, in_group = 0;
		for (uint64_t c = 0; c < size; c++, pbn++) {
			if (c % gsize == 0)
				in_group = 0;
			struct rs_phys ph = { .cyl = z->first_cyl + (uint32_t)(c / (G_HEADS * spt)),
					      .head = (uint32_t)(c / spt % G_HEADS),
					      .sector = (uint32_t)(c % spt) };
			int slip = si < p.nslips && slips[si] == pbn;
			si += slip;
			int whole = c / gsize < data / gsize;
			int64_t want = -1;
			if (c < data && !slip && !(whole && in_group >= gsize - z->spare_sectors)) {
				if (cand >= z->empty_front)
					want = (int64_t)(lba + cand - z->empty_front);
				cand++;
			}
			in_group += c < data && !slip;
			REQUIRE(rs_layout_phys_to_lba(&l, &ph) == want);
			if (want >= 0) {
				struct rs_phys q;
				rs_layout_lba_to_phys(&l, (uint64_t)want, &q);
				REQUIRE(q.cyl == ph.cyl && q.head == ph.head && q.sector == ph.sector);
			}
		}
		ck_assert_uint_eq(l.zones[zi].lba_count, cand - z->empty_front);
		lba += cand - z->empty_front;
	}
	ck_assert_uint_eq(rs_layout_capacity_blk(&l), lba);
	/* Zone 0: 10 cylinders = 5 groups of 120 - 5 LBAs, less the spare
	 * tracks' 60 sectors (the last group shrinks) and the empty front. */
	ck_assert_uint_eq(l.zones[0].lba_count, 5 * 115 - 60 + 5 - 7);
	check_zone_edges(&l);
	check_random(&l, 20000);
	/* The first offset turns the zone's first track. */
	struct rs_phys a = { .cyl = 0, .head = 0, .sector = 0, .zone = 0 };
	ck_assert_double_eq_tol(rs_layout_angle_of(&l, &a), 3.0 / 20, 1e-12);
	rs_layout_destroy(&l);

	/* DiskSim's per-cylinder schemes: each slip of a zone turns the later
	 * cylinders of that zone on by a sector. */
	p.slip_skew = RS_SLIP_SKEW_CYLINDER;
	struct rs_layout k;
	ck_assert_msg(rs_layout_init(&k, &p, err, sizeof(err)) == 0, "%s", err);
	p.slip_skew = RS_SLIP_SKEW_NONE;
	ck_assert_msg(rs_layout_init(&l, &p, err, sizeof(err)) == 0, "%s", err);
	for (uint32_t cyl = 0; cyl < 15; cyl++) {
		struct rs_phys t = { .cyl = cyl, .head = 1, .sector = 0,
				     .zone = cyl < 10 ? 0 : 1 };
		double shift = rs_layout_angle_of(&k, &t) - rs_layout_angle_of(&l, &t);
		shift -= floor(shift);
		/* Zone 0's slip is in cylinder 2; zone 1's: three in cylinder
		 * 10, one in 11, two in 14. */
		double want = cyl < 3 ? 0 : cyl < 10 ? 1.0 / 20 : cyl == 10 ? 0 :
			cyl == 11 ? 3.0 / 17 : 4.0 / 17;
		ck_assert_msg(fabs(shift - want) < 1e-12, "cylinder %u: %g", cyl, shift);
	}
	rs_layout_destroy(&k);
	rs_layout_destroy(&l);

	/* More slips than a group has spares is refused. */
	uint64_t five[] = { z1 + 1, z1 + 2, z1 + 3, z1 + 4, z1 + 6 };
	p.slips = five;
	p.nslips = 5;
	ck_assert_int_eq(rs_layout_init(&l, &p, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "more slips than spares") != NULL, "%s", err);
}
END_TEST

START_TEST(layout_roundtrip_synthetic)
{
	struct rs_layout l;
	synth_init(&l);
	check_zone_edges(&l);
	check_random(&l, 1000000);
	rs_layout_destroy(&l);

	/* A capacity below what the geometry holds truncates the LBA space. */
	char err[200];
	struct rs_layout_params p = synth_params();
	p.capacity_blk = 90000;
	ck_assert_msg(rs_layout_init(&l, &p, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs_layout_capacity_blk(&l), 90000);
	check_zone_edges(&l);
	check_random(&l, 100000);
	struct rs_phys ph;
	rs_layout_lba_to_phys(&l, 89999, &ph);
	ph.sector++;
	if (ph.sector < rs_layout_spt_of_cyl(&l, ph.cyl))
		ck_assert_int_eq(rs_layout_phys_to_lba(&l, &ph), -1);
	rs_layout_destroy(&l);
}
END_TEST

START_TEST(layout_track_runs)
{
	struct rs_layout l;
	synth_init(&l);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 7);
	uint64_t cap = rs_layout_capacity_blk(&l);
	for (int i = 0; i < 100000; i++) {
		uint64_t lba = rand_below(r, cap);
		uint64_t last = rs_layout_track_last_lba(&l, lba);
		struct rs_phys a, b, c;
		rs_layout_lba_to_phys(&l, lba, &a);
		rs_layout_lba_to_phys(&l, last, &b);
		REQUIRE(last >= lba);
		REQUIRE(a.cyl == b.cyl && a.head == b.head);
		if (last + 1 < cap) {
			rs_layout_lba_to_phys(&l, last + 1, &c);
			REQUIRE(c.cyl != b.cyl || c.head != b.head);
		}
	}
	gsl_rng_free(r);
	rs_layout_destroy(&l);
}
END_TEST

START_TEST(layout_angles)
{
	struct rs_layout l;
	synth_init(&l);
	/* Zone 1: spt 90, track skew 9, cylinder skew 15. */
	struct rs_phys p = { .cyl = 100, .head = 0, .sector = 0, .zone = 1 };
	ck_assert_double_eq(rs_layout_angle_of(&l, &p), 0.0);
	p.sector = 45;
	ck_assert_double_eq_tol(rs_layout_angle_of(&l, &p), 0.5, 1e-12);
	p.sector = 0;
	p.head = 2;
	ck_assert_double_eq_tol(rs_layout_angle_of(&l, &p), 18.0 / 90, 1e-12);
	p.head = 0;
	p.cyl = 101;
	ck_assert_double_eq_tol(rs_layout_angle_of(&l, &p), (3 * 9 + 15) / 90.0, 1e-12);
	p.cyl = 110;
	p.head = 3;
	p.sector = 80;
	double want = fmod(10 * 42 + 3 * 9 + 80, 90) / 90;
	ck_assert_double_eq_tol(rs_layout_angle_of(&l, &p), want, 1e-12);
	rs_layout_destroy(&l);
}
END_TEST

static int init_fails(const struct rs_layout_params *p, const char *needle)
{
	struct rs_layout l;
	char err[200] = "";
	int rc = rs_layout_init(&l, p, err, sizeof(err));
	ck_assert_msg(rc == -1, "accepted, wanted '%s'", needle);
	ck_assert_msg(strstr(err, needle) != NULL, "'%s' lacks '%s'", err, needle);
	return 1;
}

START_TEST(layout_validation)
{
	struct rs_zone z[NZ];
	memcpy(z, synth_zones, sizeof(z));
	struct rs_layout_params p = synth_params();
	p.zones = z;

	z[1].first_cyl = 101;
	init_fails(&p, "gap");
	z[1].first_cyl = 99;
	init_fails(&p, "overlap");
	z[1].first_cyl = 100;
	z[2].last_cyl = 298;
	init_fails(&p, "last cylinder");
	z[2].last_cyl = 300;
	init_fails(&p, "cylinder range");
	z[2].last_cyl = 299;
	z[1].sectors_per_track = 0;
	init_fails(&p, "0 sectors");
	z[1].sectors_per_track = 90;

	struct rs_layout_params q = p;
	q.heads = 0;
	init_fails(&q, "heads");
	q = p;
	q.nzones = 0;
	init_fails(&q, "zone");
	q = p;
	q.capacity_blk = 10000000;
	init_fails(&q, "capacity");
	q = p;
	q.spare_tracks_per_zone = 400;
	init_fails(&q, "spare tracks");

	uint64_t bad[] = { 5, 3 };
	q = p;
	q.slips = bad;
	q.nslips = 2;
	init_fails(&q, "increasing");
	bad[0] = pbn_of(0, 0, 3, 99);                      /* a per-cylinder spare */
	bad[1] = pbn_of(0, 1, 0, 0);
	init_fails(&q, "spare");
	bad[0] = pbn_of(0, 99, 3, 0);                      /* a spare track */
	bad[1] = pbn_of(1, 100, 0, 0);
	init_fails(&q, "spare");
	bad[0] = 1;
	bad[1] = 10000000;
	init_fails(&q, "beyond");

	struct rs_layout l;
	char err[200];
	ck_assert_msg(rs_layout_init(&l, &p, err, sizeof(err)) == 0, "%s", err);
	rs_layout_destroy(&l);
}
END_TEST

static const struct rs_layout_gen desktop_gen = {
	.capacity_bytes = 20000000000ull, .heads = 2, .nzones = 16,
	.outer_rate_bytes_per_s = 45e6, .inner_rate_bytes_per_s = 24e6,
	.rpm = 7200, .track_switch_ns = 1000000, .cyl_switch_ns = 800000,
};

START_TEST(layout_generated)
{
	struct rs_zone zones[16];
	struct rs_layout_params p;
	struct rs_layout l;
	char err[200];
	ck_assert_msg(rs_layout_generate(&p, zones, &desktop_gen, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(zones[0].sectors_per_track, 732);    /* 45e6 / 120 / 512 */
	ck_assert_uint_eq(zones[15].sectors_per_track, 390);   /* 24e6 / 120 / 512 */
	ck_assert_uint_eq(zones[0].track_skew, 88);            /* 1 ms / 11.38 us */
	ck_assert_uint_eq(zones[0].cyl_skew, 88);            /* max(1, 0.8 ms) */
	struct rs_layout_gen one_head = desktop_gen;
	one_head.heads = 1;
	struct rs_zone z1[16];
	ck_assert_int_eq(rs_layout_generate(&p, z1, &one_head, err, sizeof(err)), 0);
	ck_assert_uint_eq(z1[0].cyl_skew, 71);               /* 0.8 ms / 11.38 us */
	ck_assert_int_eq(rs_layout_generate(&p, zones, &desktop_gen, err, sizeof(err)), 0);
	ck_assert_msg(rs_layout_init(&l, &p, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs_layout_capacity_blk(&l), 20000000000ull / 512);
	/* The smallest cylinder count that holds the capacity. */
	uint64_t per_cyl = 0;
	for (int i = 0; i < 16; i++)
		per_cyl += 2 * zones[i].sectors_per_track;
	ck_assert_uint_ge(l.mappable_blk, l.capacity_blk);
	ck_assert_uint_lt(l.mappable_blk - l.capacity_blk, per_cyl);
	check_zone_edges(&l);
	check_random(&l, 1000000);
	rs_layout_destroy(&l);

	struct rs_layout_gen bad = desktop_gen;
	bad.outer_rate_bytes_per_s = 1000;
	ck_assert_int_eq(rs_layout_generate(&p, zones, &bad, err, sizeof(err)), -1);
}
END_TEST

/* --- seek ------------------------------------------------------------------ */

struct fit_case {
	const char *name;
	uint32_t cylinders;
	double t1_ms, avg_ms, full_ms;
};

static void check_fit(const struct fit_case *fc)
{
	struct rs_seek_params sp = { .cylinders = fc->cylinders,
				     .write_extra_ns = 500000, .head_switch_ns = 1000000 };
	struct rs_seek_fit fit = { .track_ns = llround(fc->t1_ms * 1e6),
				   .avg_ns = llround(fc->avg_ms * 1e6),
				   .full_ns = llround(fc->full_ms * 1e6) };
	struct rs_seek s;
	char err[200];
	ck_assert_msg(rs_seek_init_fit(&s, &sp, &fit, err, sizeof(err)) == 0,
		      "%s: %s", fc->name, err);
	double t1 = (double)rs_seek_time(&s, 1, 0);
	double tf = (double)rs_seek_time(&s, fc->cylinders - 1, 0);
	double mean = rs_seek_mean_random(&s, fc->cylinders);
	ck_assert_msg(fabs(t1 - fit.track_ns) <= 0.01 * fit.track_ns, "%s t1 %g", fc->name, t1);
	ck_assert_msg(fabs(tf - fit.full_ns) <= 0.01 * fit.full_ns, "%s full %g", fc->name, tf);
	ck_assert_msg(fabs(mean - fit.avg_ns) <= 0.02 * fit.avg_ns, "%s mean %g", fc->name, mean);
	/* In fact the fit is exact to rounding. */
	ck_assert_double_eq_tol(mean, (double)fit.avg_ns, 2.0);
	ck_assert(s.curve.x0 >= 1 && s.curve.x0 <= fc->cylinders - 1);
	ck_assert(s.curve.b_ns > 0 && s.curve.e_ns > 0);
	ck_assert_int_eq(rs_seek_time(&s, 0, 0), 0);
	rs_time_t prev = 0;
	for (uint32_t d = 1; d < fc->cylinders; d++) {
		rs_time_t t = rs_seek_time(&s, d, 0);
		if (t < prev)
			ck_abort_msg("%s: t(%u) < t(%u)", fc->name, d, d - 1);
		prev = t;
	}
	ck_assert_int_eq(rs_seek_time(&s, 7, 1), rs_seek_time(&s, 7, 0) + 500000);
	rs_seek_destroy(&s);
}

START_TEST(seek_fit_drives)
{
	static const struct fit_case cases[] = {
		{ "7200rpm desktop", 30000, 0.8, 8.5, 17.0 },
		{ "10k Raptor", 38000, 0.6, 4.5, 10.2 },
		{ "beyond the lookup table", 400000, 0.5, 4.5, 10.0 },
		{ "20 million cylinders (closed-form mean)", 20000000, 0.5, 8.5, 18.0 },
		{ "small", 50, 1.0, 3.0, 6.0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_fit(&cases[i]);
}
END_TEST

/* The fit's cost does not grow with the cylinder count: a drive of 2^32 - 1
 * cylinders (a petabyte on one surface) fits in far under a second. */
START_TEST(seek_fit_huge_is_fast)
{
	struct rs_seek_params sp = { .cylinders = UINT32_MAX };
	struct rs_seek_fit fit = { 800000, 8500000, 17500000 };
	struct rs_seek s;
	char err[200];
	clock_t t0 = clock();
	ck_assert_msg(rs_seek_init_fit(&s, &sp, &fit, err, sizeof(err)) == 0, "%s", err);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	ck_assert_msg(secs < 0.5, "fit took %.3f s", secs);
	ck_assert_ptr_null(s.lut_ns);
	ck_assert_int_eq(rs_seek_time(&s, 1, 0), 800000);
	ck_assert_int_eq(rs_seek_time(&s, UINT32_MAX - 1, 0), 17500000);
	rs_seek_destroy(&s);
}
END_TEST

START_TEST(seek_fit_impossible)
{
	struct rs_seek_params sp = { .cylinders = 30000 };
	struct rs_seek s;
	char err[200];
	/* Average too close to track-to-track: would need a curve that bends
	 * the wrong way. */
	struct rs_seek_fit low = { 800000, 2000000, 17000000 };
	ck_assert_int_eq(rs_seek_init_fit(&s, &sp, &low, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "outside"));
	struct rs_seek_fit high = { 800000, 16000000, 17000000 };
	ck_assert_int_eq(rs_seek_init_fit(&s, &sp, &high, err, sizeof(err)), -1);
	struct rs_seek_fit unordered = { 800000, 18000000, 17000000 };
	ck_assert_int_eq(rs_seek_init_fit(&s, &sp, &unordered, err, sizeof(err)), -1);
	sp.cylinders = 2;
	struct rs_seek_fit ok = { 800000, 8500000, 17000000 };
	ck_assert_int_eq(rs_seek_init_fit(&s, &sp, &ok, err, sizeof(err)), -1);
}
END_TEST

static const struct rs_seek_point table_pts[] = {
	{ 1, 1200000 }, { 2, 1100000 }, { 4, 1400000 }, { 10, 1500000 },
	{ 100, 3000000 }, { 1000, 7000000 }, { 5000, 10000000 },
};
#define NTAB (sizeof(table_pts) / sizeof(table_pts[0]))

/* DiskSim's hplplus10 seek type on hp_c2247a's values, and a negative write
 * settling delay: a write may start before the read seek would end, never
 * before the move began. */
START_TEST(seek_hpl)
{
	struct rs_seek_hpl h = { .boundary = 300, .sqrt_const_ns = 3810000,
				 .sqrt_mult_ns = 330000, .lin_const_ns = 7750000,
				 .lin_mult_ns = 5900, .nfirst = 10,
				 .first_ns = { 2890000, 3680000, 3810000, 3980000, 4270000,
					       4650000, 4520000, 4650000, 4820000, 4990000 } };
	struct rs_seek_params sp = { .cylinders = 1981, .write_extra_ns = -650000,
				     .head_switch_ns = 890000 };
	struct rs_seek s;
	char err[200];
	ck_assert_msg(rs_seek_init_hpl(&s, &sp, &h, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(rs_seek_time(&s, 1, 0), 2890000);
	ck_assert_int_eq(rs_seek_time(&s, 7, 0), 4520000);
	ck_assert_int_eq(rs_seek_time(&s, 11, 0), llround(3810000 + 330000 * sqrt(11)));
	ck_assert_int_eq(rs_seek_time(&s, 299, 0), llround(3810000 + 330000 * sqrt(299)));
	ck_assert_int_eq(rs_seek_time(&s, 300, 0), 7750000 + 5900 * 300);
	ck_assert_int_eq(rs_seek_time(&s, 1980, 0), 7750000 + 5900 * 1980);
	ck_assert_int_eq(rs_seek_time(&s, 1, 1), 2890000 - 650000);
	ck_assert_int_eq(rs_seek_reposition_time(&s, 0, 1, 1), 890000 - 650000);
	ck_assert_int_eq(rs_seek_time(&s, 0, 1), 0);
	rs_seek_destroy(&s);

	/* Without first times the root part starts at distance 1; a settle
	 * longer than the move floors at 0. */
	h.nfirst = 0;
	sp.write_extra_ns = -5000000;
	ck_assert_int_eq(rs_seek_init_hpl(&s, &sp, &h, err, sizeof(err)), 0);
	ck_assert_int_eq(rs_seek_time(&s, 1, 0), 3810000 + 330000);
	ck_assert_int_eq(rs_seek_time(&s, 1, 1), 0);
	ck_assert_int_eq(rs_seek_reposition_time(&s, 0, 1, 1), 0);
	rs_seek_destroy(&s);

	h.lin_mult_ns = -1;
	ck_assert_int_eq(rs_seek_init_hpl(&s, &sp, &h, err, sizeof(err)), -1);
	h.lin_mult_ns = 5900;
	h.nfirst = 11;
	ck_assert_int_eq(rs_seek_init_hpl(&s, &sp, &h, err, sizeof(err)), -1);
}
END_TEST

START_TEST(seek_table)
{
	struct rs_seek_params sp = { .cylinders = 6000, .write_extra_ns = 300000,
				     .head_switch_ns = 1300000 };
	struct rs_seek s;
	char err[200];
	ck_assert_msg(rs_seek_init_table(&s, &sp, table_pts, NTAB, err, sizeof(err)) == 0,
		      "%s", err);
	for (size_t i = 0; i < NTAB; i++)
		ck_assert_int_eq(rs_seek_time(&s, table_pts[i].distance, 0),
				 table_pts[i].time_ns);
	ck_assert_int_eq(rs_seek_time(&s, 0, 0), 0);
	ck_assert_int_eq(rs_seek_time(&s, 0, 1), 0);
	ck_assert_int_eq(rs_seek_time(&s, 3, 0), 1250000);       /* between 2 and 4 */
	ck_assert_int_eq(rs_seek_time(&s, 55, 0), 2250000);
	ck_assert_int_eq(rs_seek_time(&s, 5999, 0), 10749250);   /* extended slope */
	ck_assert_int_eq(rs_seek_time(&s, 4, 1), 1700000);
	/* Repositioning: head switch alone, seek alone, the longer of both. */
	ck_assert_int_eq(rs_seek_reposition_time(&s, 0, 0, 0), 0);
	ck_assert_int_eq(rs_seek_reposition_time(&s, 0, 1, 0), 1300000);
	ck_assert_int_eq(rs_seek_reposition_time(&s, 0, 1, 1), 1600000);
	ck_assert_int_eq(rs_seek_reposition_time(&s, 2, 1, 0), 1300000);
	ck_assert_int_eq(rs_seek_reposition_time(&s, 100, 1, 0), 3000000);
	ck_assert_int_eq(rs_seek_reposition_time(&s, 100, 0, 1), 3300000);
	/* The all-pairs mean agrees with a direct double loop on a small disk. */
	double sum = 0;
	for (uint32_t a = 0; a < 200; a++)
		for (uint32_t b = 0; b < 200; b++)
			sum += (double)rs_seek_time(&s, a > b ? a - b : b - a, 0);
	ck_assert_double_eq_tol(rs_seek_mean_random(&s, 200), sum / (200.0 * 200.0), 1e-3);
	rs_seek_destroy(&s);

	/* Without the lookup table the same numbers come out. */
	sp.cylinders = RS_SEEK_LUT_MAX + 10;
	ck_assert_int_eq(rs_seek_init_table(&s, &sp, table_pts, NTAB, err, sizeof(err)), 0);
	ck_assert_ptr_null(s.lut_ns);
	ck_assert_int_eq(rs_seek_time(&s, 3, 0), 1250000);
	ck_assert_int_eq(rs_seek_time(&s, 1000, 0), 7000000);
	rs_seek_destroy(&s);

	/* settle_read_ns comes on top of every nonzero seek. */
	sp.cylinders = 6000;
	sp.settle_read_ns = 100000;
	ck_assert_int_eq(rs_seek_init_table(&s, &sp, table_pts, 1, err, sizeof(err)), 0);
	ck_assert_int_eq(rs_seek_time(&s, 4000, 0), 1300000);
	ck_assert_int_eq(rs_seek_time(&s, 0, 0), 0);
	rs_seek_destroy(&s);

	struct rs_seek_point bad[] = { { 2, 1000 }, { 3, 2000 } };
	ck_assert_int_eq(rs_seek_init_table(&s, &sp, bad, 2, err, sizeof(err)), -1);
	bad[0].distance = 1;
	bad[1].distance = 1;
	ck_assert_int_eq(rs_seek_init_table(&s, &sp, bad, 2, err, sizeof(err)), -1);
	ck_assert_int_eq(rs_seek_init_table(&s, &sp, bad, 0, err, sizeof(err)), -1);
}
END_TEST

/* --- spindle --------------------------------------------------------------- */

static double circ_diff(double a, double b)
{
	double d = a - b;
	d -= floor(d + 0.5);
	return d;
}

START_TEST(spindle_wait_agrees)
{
	static const double rpms[] = { 5400, 7200, 10000, 10025, 10045.5, 15000 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 99);
	char err[200];
	for (size_t k = 0; k < sizeof(rpms) / sizeof(rpms[0]); k++) {
		struct rs_spindle sp;
		double phase = gsl_rng_uniform(r);
		ck_assert_msg(rs_spindle_init(&sp, rpms[k], phase, err, sizeof(err)) == 0,
			      "%s", err);
		ck_assert_double_eq_tol(rs_spindle_period_ns(&sp), 60e9 / rpms[k], 1e-6);
		ck_assert_double_eq_tol(rs_spindle_angle(&sp, 0), phase, 1e-12);
		double period = rs_spindle_period_ns(&sp);
		for (int i = 0; i < 100000; i++) {
			rs_time_t t = (rs_time_t)rand_below(r, (uint64_t)20000 * RS_SEC);
			double target = gsl_rng_uniform(r);
			rs_time_t w = rs_spindle_wait(&sp, t, target);
			REQUIRE(w >= 0 && (double)w < period);
			/* Landing within half a nanosecond of the target. */
			double miss_ns = circ_diff(rs_spindle_angle(&sp, t + w), target) * period;
			if (fabs(miss_ns) > 0.5 + 1e-3)
				ck_abort_msg("miss %g ns", miss_ns);
			double a = rs_spindle_angle(&sp, t);
			REQUIRE(a >= 0 && a < 1);
			REQUIRE(rs_spindle_wait(&sp, t, a) == 0);
		}
	}
	gsl_rng_free(r);
	struct rs_spindle sp;
	ck_assert_int_eq(rs_spindle_init(&sp, 0, 0, err, sizeof(err)), -1);
	ck_assert_int_eq(rs_spindle_init(&sp, 7200, 1.0, err, sizeof(err)), -1);
}
END_TEST

/* A sector's angle in integers against the doubles it stands for, for
 * every sector of every track length up to 3,000 (the integers decide
 * all but the remainders near a half), and for tracks at and past the
 * longest the integers take; a count of the sectors the integers decided
 * shows they were tried. */
START_TEST(spindle_sector_units_agree)
{
	uint64_t decided = 0, total = 0;
	for (uint32_t spt = 1; spt <= 3000; spt++)
		for (uint32_t k = 0; k < spt; k++) {
			int64_t want = rs_spindle_target_units((double)k / spt);
			ck_assert_int_eq(rs_spindle_sector_units(k, spt), want);
			uint64_t x = k * (uint64_t)RS_SPINDLE_UNITS, twice = 2 * (x % spt);
			uint64_t off = twice > spt ? twice - spt : spt - twice;
			decided += off * 32 > spt;
			total++;
		}
	ck_assert_uint_gt(decided, total * 9 / 10);
	static const uint32_t longs[] = { 65536, 100003, 307444, 307445, 307446, 1000000,
					  UINT32_MAX };
	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++)
		for (uint32_t j = 0; j < 2000; j++) {
			uint32_t spt = longs[i];
			uint32_t k = (uint32_t)((uint64_t)j * 2654435761u % spt);
			ck_assert_int_eq(rs_spindle_sector_units(k, spt),
					 rs_spindle_target_units((double)k / spt));
			ck_assert_int_eq(rs_spindle_sector_units(spt - 1 - j % spt, spt),
					 rs_spindle_target_units((double)(spt - 1 - j % spt) / spt));
		}
}
END_TEST

START_TEST(spindle_no_drift)
{
	struct rs_spindle sp;
	char err[200];
	/* 7200 rpm: 3 turns are exactly 25 ms, so the angle repeats exactly. */
	ck_assert_int_eq(rs_spindle_init(&sp, 7200, 0.25, err, sizeof(err)), 0);
	rs_time_t t0 = 1234567;
	for (rs_time_t k = 1; k <= 400000; k *= 20)
		ck_assert_double_eq(rs_spindle_angle(&sp, t0 + k * 25 * RS_MS),
				    rs_spindle_angle(&sp, t0));
	ck_assert_double_eq(rs_spindle_angle(&sp, 10000 * RS_SEC), 0.25);
	/* 10025 rpm: 1e4 s is 1670833 1/3 turns. */
	ck_assert_int_eq(rs_spindle_init(&sp, 10025, 0, err, sizeof(err)), 0);
	ck_assert_double_eq_tol(rs_spindle_angle(&sp, 10000 * RS_SEC), 1.0 / 3, 1e-13);
	/* After 1e4 s the wait still lands within half a nanosecond. */
	rs_time_t t = 10000 * RS_SEC + 777;
	rs_time_t w = rs_spindle_wait(&sp, t, 0.5);
	double miss = circ_diff(rs_spindle_angle(&sp, t + w), 0.5) * rs_spindle_period_ns(&sp);
	ck_assert(fabs(miss) <= 0.5 + 1e-3);
}
END_TEST

/* --- positioning and media time -------------------------------------------- */

struct drive {
	struct rs_zone zones[16];
	struct rs_layout layout;
	struct rs_seek seek;
	struct rs_spindle spindle;
};

static void drive_init(struct drive *d)
{
	struct rs_layout_params p;
	char err[200];
	ck_assert_int_eq(rs_layout_generate(&p, d->zones, &desktop_gen, err, sizeof(err)), 0);
	ck_assert_msg(rs_layout_init(&d->layout, &p, err, sizeof(err)) == 0, "%s", err);
	struct rs_seek_params sp = { .cylinders = p.cylinders, .write_extra_ns = 400000,
				     .head_switch_ns = 1000000 };
	struct rs_seek_fit fit = { 800000, 8500000, 17000000 };
	ck_assert_msg(rs_seek_init_fit(&d->seek, &sp, &fit, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(rs_spindle_init(&d->spindle, 7200, 0.3, err, sizeof(err)), 0);
}

static void drive_destroy(struct drive *d)
{
	rs_layout_destroy(&d->layout);
	rs_seek_destroy(&d->seek);
}

START_TEST(position_is_seek_plus_rotation)
{
	struct drive d;
	drive_init(&d);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 3);
	uint64_t cap = rs_layout_capacity_blk(&d.layout);
	double period = rs_spindle_period_ns(&d.spindle);
	for (int i = 0; i < 200000; i++) {
		struct rs_head_state from = {
			.cyl = (uint32_t)rand_below(r, d.layout.cylinders),
			.head = (uint32_t)rand_below(r, d.layout.heads),
			.free_at_ns = (rs_time_t)rand_below(r, (uint64_t)1000 * RS_SEC),
		};
		uint64_t lba = rand_below(r, cap);
		int w = i & 1;
		struct rs_position pos;
		rs_time_t total = rs_disk_position_time(&d.layout, &d.seek, &d.spindle,
							&from, lba, w, &pos);
		struct rs_phys ph;
		rs_layout_lba_to_phys(&d.layout, lba, &ph);
		REQUIRE(ph.cyl == pos.target.cyl && ph.head == pos.target.head &&
			  ph.sector == pos.target.sector);
		uint32_t dist = ph.cyl > from.cyl ? ph.cyl - from.cyl : from.cyl - ph.cyl;
		rs_time_t seek = rs_seek_time(&d.seek, dist, w);
		if (ph.head != from.head) {
			rs_time_t hs = rs_seek_head_switch_ns(&d.seek) + (w ? 400000 : 0);
			if (hs > seek)
				seek = hs;
		}
		REQUIRE(pos.seek_ns == seek);
		double angle = rs_layout_angle_of(&d.layout, &ph);
		REQUIRE(pos.rot_ns ==
			rs_spindle_wait(&d.spindle, from.free_at_ns + seek, angle));
		REQUIRE(total == pos.seek_ns + pos.rot_ns);
		REQUIRE(pos.total_ns == total);
		double a = rs_spindle_angle(&d.spindle, from.free_at_ns + total);
		REQUIRE(fabs(circ_diff(a, angle)) * period <= 0.501);
	}
	gsl_rng_free(r);
	drive_destroy(&d);
}
END_TEST

START_TEST(media_time_tracks)
{
	struct drive d;
	drive_init(&d);
	double period = rs_spindle_period_ns(&d.spindle);
	const struct rs_layout *l = &d.layout;
	uint32_t spt = l->zones[0].spt, ts = l->zones[0].track_skew;
	uint32_t cs = l->zones[0].cyl_skew;
	/* One sector, one track, two tracks (head switch covered by the skew),
	 * a whole cylinder and one more track (cylinder switch). */
	ck_assert_int_eq(rs_disk_media_time(l, &d.seek, &d.spindle, 0, 1, 0),
			 llround(period / spt));
	rs_time_t one = rs_disk_media_time(l, &d.seek, &d.spindle, 0, spt, 0);
	ck_assert_int_eq(one, llround(period));
	rs_time_t two = rs_disk_media_time(l, &d.seek, &d.spindle, 0, 2 * spt, 0);
	ck_assert_int_eq(two, llround(2 * period + ts * period / spt));
	rs_time_t three = rs_disk_media_time(l, &d.seek, &d.spindle, 0, 3 * spt, 0);
	ck_assert_int_eq(three, llround(3 * period + (ts + cs) * period / spt));
	/* A transfer inside one track from its middle. */
	ck_assert_int_eq(rs_disk_media_time(l, &d.seek, &d.spindle, 100, 50, 0),
			 llround(50 * period / spt));
	/* Inside a transfer a write switches tracks as a read does: the write
	 * settle belongs to the seek that starts the access, so a sequential
	 * write runs at the same media rate as a read. */
	rs_time_t two_w = rs_disk_media_time(l, &d.seek, &d.spindle, 0, 2 * spt, 1);
	ck_assert_int_eq(two_w, two);
	drive_destroy(&d);

	/* On the synthetic layout: slipped sectors inside the run are passed
	 * over, and a run spanning a zone boundary stays positive and bounded. */
	struct rs_layout sl;
	synth_init(&sl);
	struct rs_seek_params sp = { .cylinders = NCYL, .head_switch_ns = 100000 };
	struct rs_seek_fit fit = { 500000, 3000000, 7000000 };
	struct rs_seek s;
	struct rs_spindle spin;
	char err[200];
	ck_assert_msg(rs_seek_init_fit(&s, &sp, &fit, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(rs_spindle_init(&spin, 10000, 0, err, sizeof(err)), 0);
	double p10k = rs_spindle_period_ns(&spin);
	/* Track (0, 0) has slips at sectors 0 and 1: LBA 0 is sector 2. */
	struct rs_phys ph;
	rs_layout_lba_to_phys(&sl, 0, &ph);
	ck_assert_uint_eq(ph.sector, 2);
	/* Track (5, 2) has a slip at sector 0; a run from (5, 1) sector 90 into
	 * it aims straight at sector 1. */
	struct rs_phys from = { .cyl = 5, .head = 1, .sector = 90 };
	int64_t lba = rs_layout_phys_to_lba(&sl, &from);
	ck_assert_int_ge(lba, 0);
	rs_time_t t = rs_disk_media_time(&sl, &s, &spin, (uint64_t)lba, 20, 0);
	/* 10 sectors, switch, wait for (5,2) sector 1, then 10 sectors. */
	struct rs_phys q = { .cyl = 5, .head = 1, .sector = 99, .zone = 0 };
	struct rs_phys n = { .cyl = 5, .head = 2, .sector = 1, .zone = 0 };
	double gap = rs_layout_angle_of(&sl, &n) - rs_layout_angle_of(&sl, &q) - 0.01 -
		100000 / p10k;
	gap -= floor(gap);
	ck_assert_int_eq(t, llround(20 * p10k / 100 + 100000 + gap * p10k));
	/* Track (150, 1) of zone 1 (spt 90) has a slip at sector 45: ten blocks
	 * from sector 40 span eleven sectors. */
	struct rs_phys mid = { .cyl = 150, .head = 1, .sector = 40 };
	lba = rs_layout_phys_to_lba(&sl, &mid);
	ck_assert_int_ge(lba, 0);
	t = rs_disk_media_time(&sl, &s, &spin, (uint64_t)lba, 10, 0);
	ck_assert_int_eq(t, llround(11 * p10k / 90));
	uint64_t zb = sl.zones[1].first_lba;
	t = rs_disk_media_time(&sl, &s, &spin, zb - 5, 10, 0);
	ck_assert(t > 0 && t < 2 * p10k);
	rs_seek_destroy(&s);
	rs_layout_destroy(&sl);
}
END_TEST

/* The media time as it was computed before transfers were walked: every
 * track boundary mapped afresh (with the layout's cache emptied first, so
 * nothing of the walk's is reused), llround and floor from libm.  The walk
 * must give the same nanosecond for every transfer. */
static void cold_phys(struct rs_layout *l, uint64_t lba, struct rs_phys *p)
{
	rs_layout_forget(l);
	rs_layout_lba_to_phys(l, lba, p);
}

static rs_time_t mapped_media_time(struct rs_layout *l, const struct rs_seek *s,
				   const struct rs_spindle *sp, uint64_t lba, uint32_t nblk)
{
	double period_ns = rs_spindle_period_ns(sp), t_ns = 0;
	uint64_t end = lba + nblk;
	struct rs_phys p;
	cold_phys(l, lba, &p);
	for (;;) {
		uint64_t last = rs_layout_track_last_lba_of(l, &p);
		if (last >= end)
			last = end - 1;
		struct rs_phys q;
		cold_phys(l, last, &q);
		uint32_t spt = l->zones[q.zone].spt;
		t_ns += (double)(q.sector - p.sector + 1) * period_ns / spt;
		if (last + 1 == end)
			break;
		struct rs_phys n;
		cold_phys(l, last + 1, &n);
		double from = rs_layout_angle_of(l, &q) + 1.0 / spt;
		uint32_t dist = q.cyl > n.cyl ? q.cyl - n.cyl : n.cyl - q.cyl;
		rs_time_t sw = rs_seek_reposition_time(s, dist, q.head != n.head, 0);
		double gap = rs_layout_angle_of(l, &n) - from - (double)sw / period_ns;
		gap -= floor(gap);
		if (gap > 1 - 1e-12)
			gap = 0;
		t_ns += (double)sw + gap * period_ns;
		p = n;
	}
	return llround(t_ns);
}

/* Transfers of every length class (a block, inside a track, across a few
 * tracks, across a zone edge) from random and edge origins, through the
 * plain walk and through a memo asked from one origin at many lengths. */
static void check_walk(struct rs_layout *l, const struct rs_seek *s,
		       const struct rs_spindle *sp, unsigned rounds)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 11);
	uint64_t cap = rs_layout_capacity_blk(l);
	struct rs_media_memo memo;
	memset(&memo, 0, sizeof(memo));
	for (unsigned i = 0; i < rounds; i++) {
		uint64_t lba;
		if (i % 4 == 0) {           /* just before a zone's first LBA */
			uint32_t zi = (uint32_t)rand_below(r, l->nzones);
			lba = l->zones[zi].first_lba;
			lba -= rand_below(r, lba < 50 ? lba + 1 : 50);
		} else {
			lba = rand_below(r, cap);
		}
		uint64_t room = cap - lba;
		uint64_t longest = room < 4000 ? room : 4000;
		for (int k = 0; k < 6; k++) {
			uint32_t n = (uint32_t)(1 + rand_below(r, k < 2 ? (longest < 8 ? longest : 8)
								  : longest));
			rs_time_t want = mapped_media_time(l, s, sp, lba, n);
			REQUIRE(rs_disk_media_time(l, s, sp, lba, n, 0) == want);
			REQUIRE(rs_disk_media_time_memo(l, s, sp, &memo, lba, n) == want);
		}
	}
	gsl_rng_free(r);
}

START_TEST(media_time_walk_matches_mapping)
{
	struct rs_seek_params skp = { .cylinders = NCYL, .head_switch_ns = 100000 };
	struct rs_seek_fit fit = { 500000, 3000000, 7000000 };
	struct rs_seek s;
	struct rs_spindle spin;
	char err[200];
	ck_assert_msg(rs_seek_init_fit(&s, &skp, &fit, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(rs_spindle_init(&spin, 10025, 0.3, err, sizeof(err)), 0);

	/* Slips, per-cylinder spares and spare tracks. */
	struct rs_layout l;
	synth_init(&l);
	check_walk(&l, &s, &spin, 3000);
	rs_layout_destroy(&l);

	/* The same with slips that turn the tracks after them, an empty zone
	 * front and a first sector past angle 0. */
	struct rs_zone zones[NZ];
	memcpy(zones, synth_zones, sizeof(zones));
	zones[0].empty_front = 7;
	zones[1].first_offset = 33;
	zones[2].empty_front = 2;
	zones[2].first_offset = 5;
	struct rs_layout_params p = synth_params();
	p.zones = zones;
	p.slip_skew = RS_SLIP_SKEW_TRACK;
	ck_assert_msg(rs_layout_init(&l, &p, err, sizeof(err)) == 0, "%s", err);
	check_walk(&l, &s, &spin, 3000);
	rs_layout_destroy(&l);

	/* No slips at all: every run follows from the one before. */
	p = synth_params();
	p.nslips = 0;
	p.capacity_blk = 80000;
	ck_assert_msg(rs_layout_init(&l, &p, err, sizeof(err)) == 0, "%s", err);
	check_walk(&l, &s, &spin, 3000);
	rs_layout_destroy(&l);

	/* Spare groups, with and without slips in them. */
	uint64_t z1 = 10u * G_HEADS * 20;
	uint64_t slips[] = { 150, z1 + 0, z1 + 5, z1 + 50, z1 + 101 };
	struct rs_layout_params gp = {
		.heads = G_HEADS, .cylinders = 15, .zones = group_zones, .nzones = 2,
		.spare_group_tracks = G_TRACKS, .slips = slips,
		.nslips = sizeof(slips) / sizeof(slips[0]),
	};
	ck_assert_msg(rs_layout_init(&l, &gp, err, sizeof(err)) == 0, "%s", err);
	check_walk(&l, &s, &spin, 1000);
	rs_layout_destroy(&l);
	rs_seek_destroy(&s);
}
END_TEST

/* Look-ups through the layout's cache of stretches agree with look-ups
 * from an empty cache, in an order that keeps hitting and replacing it. */
/* The first LBA on lba's track (at p) as the firmware's rules look it up:
 * the candidate sector 0 would hold, unless slips move it off the track. */
static uint64_t track_first_looked_up(const struct rs_layout *l, uint64_t lba,
				      const struct rs_phys *p)
{
	uint64_t cand = lba - (p->sector < lba ? p->sector : lba);
	uint64_t last = rs_layout_track_last_lba(l, cand);
	return last < lba ? last + 1 : cand;
}

START_TEST(layout_cache_agrees)
{
	struct rs_layout l;
	synth_init(&l);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 5);
	uint64_t cap = rs_layout_capacity_blk(&l), lba = 0;
	int known = 0;
	for (int i = 0; i < 200000; i++) {
		/* Mostly a step or two on from the last, sometimes anywhere. */
		lba = i % 7 == 0 ? rand_below(r, cap) : (lba + rand_below(r, 40)) % cap;
		struct rs_phys warm, cold;
		rs_layout_lba_to_phys(&l, lba, &warm);
		uint64_t last = rs_layout_track_last_lba(&l, lba);
		REQUIRE(rs_layout_zone_of_lba(&l, lba) == warm.zone);
		struct rs_layout_stretch keep[RS_LAYOUT_STRETCHES];
		memcpy(keep, l.stretch, sizeof(keep));
		cold_phys(&l, lba, &cold);
		REQUIRE(warm.cyl == cold.cyl && warm.head == cold.head &&
			warm.sector == cold.sector && warm.zone == cold.zone);
		REQUIRE(last == rs_layout_track_last_lba_of(&l, &cold));
		memcpy(l.stretch, keep, sizeof(keep));
		/* The run from the block, which takes the stretch its mapping
		 * answered from or built, as from an empty cache. */
		struct rs_track_run warm_run, cold_run;
		rs_layout_run_at(&l, lba, &warm_run);
		memcpy(keep, l.stretch, sizeof(keep));
		uint32_t keep_last = l.stretch_last, keep_next = l.stretch_next;
		rs_layout_forget(&l);
		rs_layout_run_at(&l, lba, &cold_run);
		REQUIRE(warm_run.first == cold_run.first && warm_run.last == cold_run.last &&
			warm_run.straight == cold_run.straight && warm_run.spt == cold_run.spt &&
			warm_run.base == cold_run.base && warm_run.p.cyl == cold_run.p.cyl &&
			warm_run.p.head == cold_run.p.head &&
			warm_run.p.sector == cold_run.p.sector);
		memcpy(l.stretch, keep, sizeof(keep));
		l.stretch_last = keep_last;
		l.stretch_next = keep_next;
		/* A run's track's first LBA, when it knows it, and the next
		 * run's, are what the firmware's look-up finds. */
		REQUIRE(warm_run.track_first == UINT64_MAX ||
			warm_run.track_first == track_first_looked_up(&l, lba, &warm_run.p));
		REQUIRE(cold_run.track_first == UINT64_MAX ||
			cold_run.track_first == track_first_looked_up(&l, lba, &cold_run.p));
		known += warm_run.track_first != UINT64_MAX;
		if (warm_run.last + 1 < cap) {
			rs_layout_run_next(&l, &warm_run);
			REQUIRE(warm_run.track_first == UINT64_MAX ||
				warm_run.track_first ==
				track_first_looked_up(&l, warm_run.first, &warm_run.p));
		}
	}
	/* Most blocks' stretches reach back to their track's first. */
	REQUIRE(known > 100000);
	gsl_rng_free(r);
	rs_layout_destroy(&l);
}
END_TEST

/* The index of where zones and slips cut the LBAs (struct rs_layout's brk):
 * slips inside a zone's empty front, adjacent slips (one cut), slips in
 * the spares at a zone's end (no cut: their LBA would lie in the next
 * zone), a zone without slips, a slip on a zone's first sector and a
 * capacity that cuts the last zone.  Every LBA, mapped from an empty
 * cache, against the zones' data sectors walked in order (no spares but
 * the zones' own, so a data index is a zone-relative PBN), and its run's
 * end and straight part against the walk's. */
START_TEST(layout_slip_index)
{
	static const struct rs_zone zones[] = {
		{ .first_cyl = 0, .last_cyl = 3, .sectors_per_track = 10, .spare_sectors = 8,
		  .empty_front = 4, .track_skew = 1, .cyl_skew = 2 },
		{ .first_cyl = 4, .last_cyl = 5, .sectors_per_track = 8, .spare_sectors = 2 },
		{ .first_cyl = 6, .last_cyl = 9, .sectors_per_track = 9, .spare_sectors = 3 },
	};
	/* 7: a slip between LBAs of the disk's first track, where lba's
	 * track starts more sectors before it than there are LBAs before. */
	static const uint64_t slips[] = { 1, 2, 7, 9, 10, 40, 78, 79, 112, 117, 118, 162 };
	enum { NSLIPS = sizeof(slips) / sizeof(slips[0]), CAP = 160 };
	/* Twice: the skew of a track's sector 0 with and without slips. */
	for (int skew = 0; skew < 2; skew++) {
	struct rs_layout_params p = { .heads = 2, .cylinders = 10, .zones = zones, .nzones = 3,
				      .slips = slips, .nslips = NSLIPS, .capacity_blk = CAP,
				      .slip_skew = skew ? RS_SLIP_SKEW_TRACK : RS_SLIP_SKEW_NONE };
	struct rs_layout l;
	char err[200];
	ck_assert_msg(rs_layout_init(&l, &p, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(l.zones[0].lba_count, 68);
	ck_assert_uint_eq(l.zones[2].first_lba, 98);
	struct rs_phys want[CAP];
	uint64_t mapped = 0;
	for (uint32_t zi = 0; zi < 3; zi++) {
		const struct rs_layout_zone *z = &l.zones[zi];
		uint64_t cand = 0;
		for (uint64_t d = 0; d < z->data_sectors; d++) {
			int slipped = 0;
			for (size_t i = 0; i < NSLIPS; i++)
				slipped |= slips[i] == z->first_pbn + d;
			if (slipped)
				continue;
			uint64_t c = cand++;
			if (c < z->empty_front || c - z->empty_front >= z->lba_count)
				continue;
			uint64_t lba = z->first_lba + c - z->empty_front;
			if (lba >= CAP)
				continue;
			want[lba] = (struct rs_phys){ z->first_cyl + (uint32_t)(d / z->data_per_cyl),
						      (uint32_t)(d % z->data_per_cyl / z->spt),
						      (uint32_t)(d % z->spt), zi };
			mapped++;
		}
	}
	ck_assert_uint_eq(mapped, CAP);
	for (uint64_t lba = 0; lba < CAP; lba++) {
		const struct rs_phys *w = &want[lba];
		struct rs_phys got;
		rs_layout_forget(&l);
		rs_layout_lba_to_phys(&l, lba, &got);
		ck_assert_msg(got.zone == w->zone && got.cyl == w->cyl && got.head == w->head &&
			      got.sector == w->sector, "lba %llu: zone %u cyl %u head %u sector %u",
			      (unsigned long long)lba, got.zone, got.cyl, got.head, got.sector);
		/* The stretch lba's mapping cached holds no LBA it does not
		 * map right: every block, mapped after it with the cache kept. */
		for (uint64_t o = 0; o < CAP; o++) {
			rs_layout_forget(&l);
			rs_layout_lba_to_phys(&l, lba, &got);
			rs_layout_lba_to_phys(&l, o, &got);
			ck_assert_msg(got.zone == want[o].zone && got.cyl == want[o].cyl &&
				      got.head == want[o].head && got.sector == want[o].sector,
				      "lba %llu after %llu: cyl %u head %u sector %u",
				      (unsigned long long)o, (unsigned long long)lba, got.cyl,
				      got.head, got.sector);
		}
		rs_layout_forget(&l);
		ck_assert_uint_eq(rs_layout_zone_of_lba(&l, lba), w->zone);
		/* The walk's track end and the end of the sectors that follow on. */
		uint64_t last = lba, straight = lba;
		while (last + 1 < CAP && want[last + 1].zone == w->zone &&
		       want[last + 1].cyl == w->cyl && want[last + 1].head == w->head) {
			last++;
			if (straight + 1 == last &&
			    want[last].sector == w->sector + (uint32_t)(last - lba))
				straight = last;
		}
		struct rs_track_run r;
		rs_layout_forget(&l);
		rs_layout_run_at(&l, lba, &r);
		ck_assert_msg(r.last == last && r.straight == straight,
			      "lba %llu: run to %llu straight to %llu, walked %llu and %llu",
			      (unsigned long long)lba, (unsigned long long)r.last,
			      (unsigned long long)r.straight, (unsigned long long)last,
			      (unsigned long long)straight);
		/* The run is worked out afresh from the index of cuts (outside
		 * spare groups): it must agree with the mapping and the track's
		 * end from scratch.  The track's first LBA may be left unknown
		 * (UINT64_MAX), else it is the walk's. */
		uint64_t track_first = lba;
		while (track_first > 0 && want[track_first - 1].zone == w->zone &&
		       want[track_first - 1].cyl == w->cyl &&
		       want[track_first - 1].head == w->head)
			track_first--;
		rs_layout_forget(&l);
		rs_layout_lba_to_phys(&l, lba, &got);
		ck_assert_msg(r.first == lba && r.p.cyl == got.cyl && r.p.head == got.head &&
			      r.p.sector == got.sector && r.p.zone == got.zone,
			      "lba %llu: the run's position differs", (unsigned long long)lba);
		ck_assert_uint_eq(r.last, rs_layout_track_last_lba_of(&l, &got));
		ck_assert_uint_eq(r.spt, l.zones[w->zone].spt);
		ck_assert_uint_eq(r.base, (uint32_t)(rs_layout_angle_of(&l, &(struct rs_phys){
			w->cyl, w->head, 0, w->zone }) * r.spt + 0.5));
		ck_assert(r.track_first == UINT64_MAX || r.track_first == track_first);
	}
	rs_layout_destroy(&l);
	}
}
END_TEST

/* DiskSim's "Read-ahead over requested" = 0 (keep_request): the requested
 * blocks stay in their segment, so read-ahead stops a segment past the
 * request's first block instead of a segment past its end. */
START_TEST(read_ahead_keeps_request)
{
	static const struct rs_zone z = { .last_cyl = 999, .sectors_per_track = 100 };
	struct rs_layout_params lp = { .heads = 2, .cylinders = 1000, .zones = &z, .nzones = 1 };
	struct rs_layout l;
	char err[200];
	ck_assert_int_eq(rs_layout_init(&l, &lp, err, sizeof(err)), 0);
	uint64_t cap = rs_layout_capacity_blk(&l);
	struct rs_hdd_fw fw = { .prefetch = RS_PREFETCH_NEXT_TRACK };
	/* Next-track from block 95 runs to 300; a 60-block segment stops it. */
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 95, 95, 5, cap, 60), 160);
	fw.keep_request = true;
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 95, 95, 5, cap, 60), 155);
	/* Never short of the request itself. */
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 95, 95, 80, cap, 60), 175);
	fw.prefetch = RS_PREFETCH_SEGMENT;
	ck_assert_uint_eq(rs_hdd_fw_ra_limit(&fw, &l, 10, 10, 4, cap, 100), 110);
	rs_layout_destroy(&l);
}
END_TEST

static Suite *disk_geom_suite(void)
{
	Suite *s = suite_create("disk_geom");
	/* Millions of look-ups: generous under sanitizers and valgrind. */
	const double timeout_s = 600;
	TCase *tc = tcase_create("layout");
	tcase_set_timeout(tc, timeout_s);
	tcase_add_test(tc, layout_exhaustive_reference);
	tcase_add_test(tc, layout_roundtrip_synthetic);
	tcase_add_test(tc, layout_spare_groups);
	tcase_add_test(tc, layout_track_runs);
	tcase_add_test(tc, layout_angles);
	tcase_add_test(tc, layout_validation);
	tcase_add_test(tc, layout_generated);
	tcase_add_test(tc, read_ahead_keeps_request);
	suite_add_tcase(s, tc);
	tc = tcase_create("seek");
	tcase_set_timeout(tc, timeout_s);
	tcase_add_test(tc, seek_fit_drives);
	tcase_add_test(tc, seek_fit_huge_is_fast);
	tcase_add_test(tc, seek_fit_impossible);
	tcase_add_test(tc, seek_table);
	tcase_add_test(tc, seek_hpl);
	suite_add_tcase(s, tc);
	tc = tcase_create("spindle");
	tcase_set_timeout(tc, timeout_s);
	tcase_add_test(tc, spindle_wait_agrees);
	tcase_add_test(tc, spindle_sector_units_agree);
	tcase_add_test(tc, spindle_no_drift);
	suite_add_tcase(s, tc);
	tc = tcase_create("position");
	tcase_set_timeout(tc, timeout_s);
	tcase_add_test(tc, position_is_seek_plus_rotation);
	tcase_add_test(tc, media_time_tracks);
	tcase_add_test(tc, media_time_walk_matches_mapping);
	tcase_add_test(tc, layout_cache_agrees);
	tcase_add_test(tc, layout_slip_index);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(disk_geom_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
