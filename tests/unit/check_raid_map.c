/* Unit tests for src/raid/map: every level and parity layout on small
 * geometries, exhaustively.  Every array block maps to exactly one data
 * location per copy, unmap inverts map, no data lands on parity, parity
 * rotates as md's tables say, mirrors name the right partners, random
 * requests split into extents that tile the request and stay contiguous per
 * member, stripe plans agree with the extents and flag full rows exactly,
 * and bad geometries are rejected. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raid/map.h"

/* ck_assert_* records a checkpoint on every pass (a write to Check's
 * channel in fork mode): far too slow for the tens of millions of checks
 * below, so the hot loops use these, which call into Check only on
 * failure. */
#define REQ(expr)                                                           \
	do {                                                                \
		if (!(expr))                                                \
			ck_abort_msg("failed: %s", #expr);                  \
	} while (0)
#define REQ_MSG(expr, ...)                                                  \
	do {                                                                \
		if (!(expr))                                                \
			ck_abort_msg(__VA_ARGS__);                          \
	} while (0)
#define REQ_U(a, op, b)                                                     \
	do {                                                                \
		uint64_t req_a_ = (a), req_b_ = (b);                        \
		if (!(req_a_ op req_b_))                                    \
			ck_abort_msg("failed: %s %s %s (%llu vs %llu)", #a, #op, #b, \
				     (unsigned long long)req_a_,            \
				     (unsigned long long)req_b_);           \
	} while (0)
#define REQ_I(a, op, b)                                                     \
	do {                                                                \
		long long req_a_ = (a), req_b_ = (b);                       \
		if (!(req_a_ op req_b_))                                    \
			ck_abort_msg("failed: %s %s %s (%lld vs %lld)", #a, #op, #b, \
				     req_a_, req_b_);                       \
	} while (0)

#define MAX_EXT 512
#define MAX_PLAN 64

/* 64 strips per member, plus a ragged tail the striped levels must drop,
 * and members of slightly different sizes (the smallest wins). */
#define ROWS 64u

static void init_ok(struct rs_raid_geom *g, enum rs_raid_level level,
		    enum rs_raid_layout layout, uint32_t n, uint32_t strip,
		    const uint64_t *sizes)
{
	char err[256] = "";
	int rc = rs_raid_geom_init(g, level, layout, n, strip, sizes, err, sizeof(err));
	ck_assert_msg(rc == 0, "%s n=%u strip=%u rejected: %s", rs_raid_level_name(level), n,
		      strip, err);
}

static void init_uniform(struct rs_raid_geom *g, enum rs_raid_level level,
			 enum rs_raid_layout layout, uint32_t n, uint32_t strip,
			 uint64_t member_blk)
{
	uint64_t sizes[RS_RAID_MAX_MEMBERS];
	for (uint32_t m = 0; m < n; m++)
		sizes[m] = member_blk;
	init_ok(g, level, layout, n, strip, sizes);
}

/* Member sizes for the exhaustive runs. */
static void test_sizes(uint64_t *sizes, uint32_t n, uint32_t strip)
{
	for (uint32_t m = 0; m < n; m++)
		sizes[m] = (uint64_t)ROWS * strip + 5 + 3 * ((m * 7) % 5);
}

static const char *gname(const struct rs_raid_geom *g, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s n=%u strip=%u", rs_raid_level_name(g->level),
		 rs_raid_layout_name(g->layout), g->nmembers, g->strip_blk);
	return buf;
}

static uint64_t member_usable(const struct rs_raid_geom *g, uint32_t m)
{
	return g->level == RS_RAID_JBOD ? g->jbod_blk[m] : g->member_blk;
}

/* Expected capacity from first principles. */
static uint64_t expect_capacity(const struct rs_raid_geom *g, const uint64_t *sizes)
{
	uint64_t min = UINT64_MAX, sum = 0;
	for (uint32_t m = 0; m < g->nmembers; m++) {
		sum += sizes[m];
		if (sizes[m] < min)
			min = sizes[m];
	}
	uint64_t rows = g->strip_blk ? min / g->strip_blk : 0, n = g->nmembers;
	switch (g->level) {
	case RS_RAID_JBOD:
		return sum;
	case RS_RAID_SINGLE:
	case RS_RAID_RAID1:
		return min;
	case RS_RAID_RAID0:
		return rows * g->strip_blk * n;
	case RS_RAID_RAID01:
	case RS_RAID_RAID10:
		return rows * g->strip_blk * (n / 2);
	case RS_RAID_RAID5:
		return rows * g->strip_blk * (n - 1);
	case RS_RAID_RAID6:
		return rows * g->strip_blk * (n - 2);
	default:
		ck_abort();
	}
	return 0;
}

static bool is_parity(const struct rs_raid_geom *g, uint64_t row, uint32_t m)
{
	if (!rs_raid_has_parity(g))
		return false;
	uint32_t p, q;
	rs_raid_parity(g, row, &p, &q);
	return m == p || m == q;
}

/* The bijection: every array block lands on exactly one (member, lba) per
 * copy, unmap inverts it, and every member block that holds no data is a
 * parity block. */
static void check_bijection(const struct rs_raid_geom *g)
{
	char nm[96];
	gname(g, nm, sizeof(nm));
	uint32_t n = g->nmembers;
	uint64_t cap = rs_raid_capacity_blk(g);
	uint64_t *owner[RS_RAID_MAX_MEMBERS];
	for (uint32_t m = 0; m < n; m++) {
		owner[m] = malloc(member_usable(g, m) * sizeof(uint64_t));
		ck_assert_ptr_nonnull(owner[m]);
		for (uint64_t b = 0; b < member_usable(g, m); b++)
			owner[m][b] = UINT64_MAX;
	}
	uint32_t mir[RS_RAID_MAX_MEMBERS];
	uint64_t placed = 0;
	for (uint64_t lba = 0; lba < cap; lba++) {
		struct rs_raid_extent e;
		REQ_U(rs_raid_map(g, lba, 1, &e, 1), ==, 1);
		REQ_U(e.nblk, ==, 1);
		REQ_U(e.array_lba, ==, lba);
		REQ_U(e.member, <, n);
		REQ_U(e.member_lba, <, member_usable(g, e.member));
		if (rs_raid_is_striped(g)) {
			REQ_U(e.stripe, ==, lba / rs_raid_stripe_data_blk(g));
			REQ_U(e.strip_in_row, ==, lba % rs_raid_stripe_data_blk(g) / g->strip_blk);
			REQ_U(e.member_lba / g->strip_blk, ==, e.stripe);
			REQ_U(rs_raid_data_member(g, e.stripe, e.strip_in_row), ==, e.member);
			REQ_I(rs_raid_data_index(g, e.stripe, e.member), ==, (int)e.strip_in_row);
			REQ_MSG(!is_parity(g, e.stripe, e.member),
				      "%s: lba %llu on a parity strip", nm,
				      (unsigned long long)lba);
		}
		size_t nm_ = rs_raid_mirrors(g, e.member, mir, RS_RAID_MAX_MEMBERS);
		REQ_U(nm_ + 1, ==, rs_raid_ncopies(g));
		for (size_t c = 0; c <= nm_; c++) {
			uint32_t m = c == 0 ? e.member : mir[c - 1];
			REQ_U(m, <, n);
			uint64_t back;
			REQ_I(rs_raid_unmap(g, m, e.member_lba, &back), ==, 0);
			REQ_U(back, ==, lba);
			REQ_MSG(owner[m][e.member_lba] == UINT64_MAX,
				      "%s: member %u lba %llu holds %llu and %llu", nm, m,
				      (unsigned long long)e.member_lba,
				      (unsigned long long)owner[m][e.member_lba],
				      (unsigned long long)lba);
			owner[m][e.member_lba] = lba;
			placed++;
		}
	}
	REQ_U(placed, ==, cap * rs_raid_ncopies(g));

	/* The other direction: data blocks unmap to their owner, the rest
	 * are exactly the parity blocks. */
	uint64_t parity = 0;
	for (uint32_t m = 0; m < n; m++) {
		for (uint64_t b = 0; b < member_usable(g, m); b++) {
			uint64_t back;
			int rc = rs_raid_unmap(g, m, b, &back);
			if (owner[m][b] == UINT64_MAX) {
				REQ_I(rc, ==, -1);
				REQ(rs_raid_has_parity(g));
				REQ(is_parity(g, b / g->strip_blk, m));
				REQ_I(rs_raid_data_index(g, b / g->strip_blk, m), ==, -1);
				parity++;
			} else {
				REQ_I(rc, ==, 0);
				REQ_U(back, ==, owner[m][b]);
			}
		}
		/* Beyond the usable area there is no data. */
		uint64_t back;
		REQ_I(rs_raid_unmap(g, m, member_usable(g, m), &back), ==, -1);
		REQ_I(rs_raid_unmap(g, m, member_usable(g, m) + 1000, &back), ==, -1);
		free(owner[m]);
	}
	uint64_t np = g->level == RS_RAID_RAID5 ? 1 : g->level == RS_RAID_RAID6 ? 2 : 0;
	REQ_U(parity, ==, np * g->rows * g->strip_blk);
}

/* The rotation rules of map.h, row by row: P moves one member left (left
 * layouts) or right per row with period n, Q is just after P, symmetric
 * layouts continue the data after the parity, asymmetric ones keep member
 * order. */
static void check_rotation(const struct rs_raid_geom *g)
{
	if (!rs_raid_has_parity(g))
		return;
	uint32_t n = g->nmembers, np = g->level == RS_RAID_RAID6 ? 2 : 1;
	bool left = g->layout == RS_RAID_LEFT_SYMMETRIC || g->layout == RS_RAID_LEFT_ASYMMETRIC;
	bool sym = g->layout == RS_RAID_LEFT_SYMMETRIC || g->layout == RS_RAID_RIGHT_SYMMETRIC;
	for (uint64_t r = 0; r < 3 * n; r++) {
		uint32_t p, q;
		rs_raid_parity(g, r, &p, &q);
		uint32_t want_p = left ? n - 1 - (uint32_t)(r % n) : (uint32_t)(r % n);
		REQ_U(p, ==, want_p);
		if (np == 2)
			REQ_U(q, ==, (p + 1) % n);
		else
			REQ_U(q, ==, RS_RAID_NO_MEMBER);
		for (uint32_t d = 0; d < g->ndata; d++) {
			uint32_t m = rs_raid_data_member(g, r, d);
			if (sym)
				REQ_U(m, ==, (p + np + d) % n);
			else if (d > 0)
				REQ_U(m, >, rs_raid_data_member(g, r, d - 1));
		}
	}
}

/* One random request: the extents tile it, each sits in one strip (or one
 * JBOD member) and splits happen only there, the pieces on each member are
 * in order and contiguous but for the member's parity strips, and the stripe
 * plan agrees block for block. */
static void check_request(const struct rs_raid_geom *g, uint64_t lba, uint32_t nblk,
			  struct rs_raid_extent *ext, struct rs_raid_stripe_plan *plan)
{
	size_t n = rs_raid_map(g, lba, nblk, ext, MAX_EXT);
	REQ_U(n, >=, 1);
	REQ_U(n, <=, MAX_EXT);
	REQ_U(n, <=, rs_raid_map_max_extents(g, nblk));
	bool striped = rs_raid_is_striped(g);
	uint32_t s = g->strip_blk;

	uint64_t next_end[RS_RAID_MAX_MEMBERS];   /* member_lba after last piece */
	uint64_t last_row[RS_RAID_MAX_MEMBERS];
	bool seen[RS_RAID_MAX_MEMBERS] = { false };
	uint64_t pos = lba;
	for (size_t i = 0; i < n; i++) {
		const struct rs_raid_extent *e = &ext[i];
		REQ_U(e->array_lba, ==, pos);
		REQ_U(e->nblk, >=, 1);
		REQ_U(e->member, <, g->nmembers);
		uint64_t back;
		REQ_I(rs_raid_unmap(g, e->member, e->member_lba, &back), ==, 0);
		REQ_U(back, ==, e->array_lba);
		REQ_I(rs_raid_unmap(g, e->member, e->member_lba + e->nblk - 1, &back), ==, 0);
		REQ_U(back, ==, e->array_lba + e->nblk - 1);
		if (striped) {
			REQ_U(e->member_lba % s + e->nblk, <=, s);
			REQ_U(e->member_lba / s, ==, e->stripe);
			if (i > 0)
				REQ_U(e->array_lba % s, ==, 0);
			if (i + 1 < n)
				REQ_U((e->array_lba + e->nblk) % s, ==, 0);
		} else if (g->level == RS_RAID_JBOD) {
			REQ_U(e->member_lba + e->nblk, <=, g->jbod_blk[e->member]);
			if (i > 0)
				REQ_U(e->member_lba, ==, 0);
			if (i + 1 < n)
				REQ_U(e->member_lba + e->nblk, ==, g->jbod_blk[e->member]);
		} else {
			REQ_U(n, ==, 1);
		}
		uint32_t m = e->member;
		if (seen[m]) {
			if (striped) {
				/* Rows skipped on this member must be its parity
				 * rows; nothing else may separate its pieces. */
				REQ_U(e->stripe, >, last_row[m]);
				for (uint64_t r = last_row[m] + 1; r < e->stripe; r++)
					REQ(is_parity(g, r, m));
				REQ_U(e->member_lba, ==, next_end[m] + (e->stripe - last_row[m] - 1) * s);
			} else {
				ck_abort_msg("two pieces on one unstriped member");
			}
		}
		seen[m] = true;
		next_end[m] = e->member_lba + e->nblk;
		last_row[m] = e->stripe;
		pos += e->nblk;
	}
	REQ_U(pos, ==, lba + nblk);
	if (!striped)
		return;

	uint32_t rdb = rs_raid_stripe_data_blk(g);
	size_t np = rs_raid_stripe_plan(g, lba, nblk, plan, MAX_PLAN);
	REQ_U(np, ==, (lba + nblk - 1) / rdb - lba / rdb + 1);
	REQ_U(np, <=, MAX_PLAN);
	/* Every extent is one (row, strip) cell of exactly one plan. */
	uint64_t row0 = plan[0].stripe;
	uint64_t cells = 0;
	for (size_t i = 0; i < n; i++) {
		const struct rs_raid_extent *e = &ext[i];
		REQ_U(e->stripe, >=, row0);
		const struct rs_raid_stripe_plan *pl = &plan[e->stripe - row0];
		REQ_U(pl->stripe, ==, e->stripe);
		REQ_U(pl->strip_nblk[e->strip_in_row], ==, e->nblk);
		REQ_U(pl->strip_off[e->strip_in_row], ==, e->member_lba % s);
	}
	uint64_t total = 0;
	for (size_t k = 0; k < np; k++) {
		const struct rs_raid_stripe_plan *pl = &plan[k];
		REQ_U(pl->stripe, ==, row0 + k);
		uint32_t sum = 0, touched = 0;
		for (uint32_t d = 0; d < g->ndata; d++) {
			sum += pl->strip_nblk[d];
			if (pl->strip_nblk[d]) {
				touched++;
				cells++;
				REQ_U(d, >=, pl->first_strip);
				REQ_U(d, <, pl->first_strip + pl->nstrips);
			}
		}
		REQ_U(touched, ==, pl->nstrips);
		REQ_U(pl->last_blk - pl->first_blk + 1, ==, sum);
		REQ_U(pl->first_strip, ==, pl->first_blk / s);
		REQ_U(pl->full, ==, sum == rdb);
		if (pl->full)
			REQ_U(pl->nstrips, ==, g->ndata);
		/* Only the ends of a request can be partial rows. */
		if (k > 0 && k + 1 < np)
			REQ(pl->full);
		total += sum;
	}
	REQ_U(total, ==, nblk);
	REQ_U(cells, ==, n);
}

/* splitmix64: a tiny deterministic generator, so the test needs nothing
 * beyond Check and the module itself. */
struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (the modulo bias is irrelevant here). */
static uint64_t rng_below(struct rng *r, uint64_t n)
{
	return rng_next(r) % n;
}

static void check_random(const struct rs_raid_geom *g, uint64_t seed, unsigned count)
{
	static struct rs_raid_extent ext[MAX_EXT];
	static struct rs_raid_stripe_plan plan[MAX_PLAN];
	struct rng rr = { seed }, *r = &rr;
	uint64_t cap = rs_raid_capacity_blk(g);
	uint32_t unit = rs_raid_is_striped(g) ? rs_raid_stripe_data_blk(g) : 64;
	for (unsigned i = 0; i < count; i++) {
		uint64_t lba, nblk;
		unsigned u = (unsigned)rng_below(r, 10);
		if (u < 5) {          /* small, anywhere */
			lba = rng_below(r, cap);
			nblk = 1 + rng_below(r, 2 * (g->strip_blk ? g->strip_blk : 8));
		} else if (u < 8) {   /* up to three rows */
			lba = rng_below(r, cap);
			nblk = 1 + rng_below(r, 3 * unit);
		} else if (u < 9 && cap >= unit) {   /* whole rows, aligned */
			uint64_t rows = cap / unit;
			lba = rng_below(r, rows) * unit;
			nblk = (1 + rng_below(r, 3)) * unit;
		} else {                /* touching the end */
			nblk = 1 + rng_below(r, 2 * unit);
			if (nblk > cap)
				nblk = cap;
			lba = cap - nblk;
		}
		if (nblk > cap - lba)
			nblk = cap - lba;
		check_request(g, lba, (uint32_t)nblk, ext, plan);
	}
}

/* Every valid (level, layout, member count) up to 8 members. */
struct combo {
	enum rs_raid_level level;
	enum rs_raid_layout layout;
	uint32_t n;
};

static size_t all_combos(struct combo *c, size_t max)
{
	size_t k = 0;
	for (unsigned lv = 0; lv < RS_RAID_LEVEL_COUNT; lv++) {
		unsigned nlayouts = (lv == RS_RAID_RAID5 || lv == RS_RAID_RAID6)
					    ? RS_RAID_LAYOUT_COUNT : 1;
		for (unsigned lay = 0; lay < nlayouts; lay++) {
			for (uint32_t n = 1; n <= 8; n++) {
				uint64_t sizes[8];
				test_sizes(sizes, n, 16);
				struct rs_raid_geom g;
				if (rs_raid_geom_init(&g, (enum rs_raid_level)lv,
						      (enum rs_raid_layout)lay, n, 16, sizes, NULL,
						      0) != 0)
					continue;
				ck_assert_uint_lt(k, max);
				c[k++] = (struct combo){ (enum rs_raid_level)lv,
							 (enum rs_raid_layout)lay, n };
			}
		}
	}
	return k;
}

/* The exhaustive pass adds a strip that is not a power of two (12 KiB); the
 * random pass, 10^5 requests per geometry, sticks to the brief's three to
 * keep the program within its time budget under sanitizers. */
static const uint32_t strips[] = { 8, 16, 128, 24 };
#define NSTRIPS (sizeof(strips) / sizeof(strips[0]))
#define NSTRIPS_RANDOM 3

/* One loop iteration per strip size: exhaustive on every combination. */
START_TEST(exhaustive)
{
	struct combo c[256];
	size_t nc = all_combos(c, 256);
	/* jbod 8 + single 1 + raid0 8 + raid1 7 + raid01 3 + raid10 3 +
	 * raid5 4*6 + raid6 4*5 */
	ck_assert_uint_eq(nc, 8 + 1 + 8 + 7 + 3 + 3 + 24 + 20);
	uint32_t strip = strips[_i];
	for (size_t k = 0; k < nc; k++) {
		uint64_t sizes[8];
		test_sizes(sizes, c[k].n, strip);
		struct rs_raid_geom g;
		init_ok(&g, c[k].level, c[k].layout, c[k].n, strip, sizes);
		ck_assert_uint_eq(rs_raid_capacity_blk(&g), expect_capacity(&g, sizes));
		check_bijection(&g);
		check_rotation(&g);
	}
}
END_TEST

START_TEST(random_requests)
{
	struct combo c[256];
	size_t nc = all_combos(c, 256);
	uint32_t strip = strips[_i];
	for (size_t k = 0; k < nc; k++) {
		uint64_t sizes[8];
		test_sizes(sizes, c[k].n, strip);
		struct rs_raid_geom g;
		init_ok(&g, c[k].level, c[k].layout, c[k].n, strip, sizes);
		check_random(&g, 1000 * (uint64_t)_i + k + 1, 100000);
	}
}
END_TEST

/* Linux md's left-symmetric table for 4 disks (and the other three RAID5
 * layouts), as member-of-parity and members of D0..D2 per row. */
static void check_table5(enum rs_raid_layout layout, const uint32_t want[4][4])
{
	struct rs_raid_geom g;
	init_uniform(&g, RS_RAID_RAID5, layout, 4, 8, 8 * 64);
	for (uint64_t r = 0; r < 8; r++) {
		const uint32_t *w = want[r % 4];
		uint32_t p, q;
		rs_raid_parity(&g, r, &p, &q);
		ck_assert_uint_eq(p, w[0]);
		ck_assert_uint_eq(q, RS_RAID_NO_MEMBER);
		for (uint32_t d = 0; d < 3; d++)
			ck_assert_uint_eq(rs_raid_data_member(&g, r, d), w[1 + d]);
	}
}

START_TEST(md_tables_raid5)
{
	/* row: P, D0, D1, D2 (the left-symmetric one is md's documented
	 * table: row 0 "D0 D1 D2 P", row 1 "D4 D5 P D3"...) */
	static const uint32_t ls[4][4] = {
		{ 3, 0, 1, 2 }, { 2, 3, 0, 1 }, { 1, 2, 3, 0 }, { 0, 1, 2, 3 } };
	static const uint32_t la[4][4] = {
		{ 3, 0, 1, 2 }, { 2, 0, 1, 3 }, { 1, 0, 2, 3 }, { 0, 1, 2, 3 } };
	static const uint32_t rsym[4][4] = {
		{ 0, 1, 2, 3 }, { 1, 2, 3, 0 }, { 2, 3, 0, 1 }, { 3, 0, 1, 2 } };
	static const uint32_t ra[4][4] = {
		{ 0, 1, 2, 3 }, { 1, 0, 2, 3 }, { 2, 0, 1, 3 }, { 3, 0, 1, 2 } };
	check_table5(RS_RAID_LEFT_SYMMETRIC, ls);
	check_table5(RS_RAID_LEFT_ASYMMETRIC, la);
	check_table5(RS_RAID_RIGHT_SYMMETRIC, rsym);
	check_table5(RS_RAID_RIGHT_ASYMMETRIC, ra);

	/* The same through the block map, strip 8: D3 (lba 24..31) is on
	 * member 3 in row 1, D4 on member 0. */
	struct rs_raid_geom g;
	init_uniform(&g, RS_RAID_RAID5, RS_RAID_LEFT_SYMMETRIC, 4, 8, 8 * 64);
	struct rs_raid_extent e[4];
	ck_assert_uint_eq(rs_raid_map(&g, 26, 10, e, 4), 2);
	ck_assert_uint_eq(e[0].member, 3);
	ck_assert_uint_eq(e[0].member_lba, 10);
	ck_assert_uint_eq(e[0].nblk, 6);
	ck_assert_uint_eq(e[0].stripe, 1);
	ck_assert_uint_eq(e[0].strip_in_row, 0);
	ck_assert_uint_eq(e[1].member, 0);
	ck_assert_uint_eq(e[1].member_lba, 8);
	ck_assert_uint_eq(e[1].nblk, 4);
	ck_assert_uint_eq(e[1].array_lba, 32);
	ck_assert_uint_eq(e[1].strip_in_row, 1);
	/* A zeroed layout is the md default. */
	ck_assert_int_eq(RS_RAID_LEFT_SYMMETRIC, 0);
}
END_TEST

/* RAID6, 5 members: the tables of map.h (row: P, Q, D0, D1, D2). */
static void check_table6(enum rs_raid_layout layout, const uint32_t want[5][5])
{
	struct rs_raid_geom g;
	init_uniform(&g, RS_RAID_RAID6, layout, 5, 8, 8 * 64);
	for (uint64_t r = 0; r < 10; r++) {
		const uint32_t *w = want[r % 5];
		uint32_t p, q;
		rs_raid_parity(&g, r, &p, &q);
		ck_assert_uint_eq(p, w[0]);
		ck_assert_uint_eq(q, w[1]);
		for (uint32_t d = 0; d < 3; d++)
			ck_assert_uint_eq(rs_raid_data_member(&g, r, d), w[2 + d]);
	}
}

START_TEST(md_tables_raid6)
{
	/* left-symmetric: Q D0 D1 D2 P / D3 D4 D5 P Q / D7 D8 P Q D6 /
	 * D11 P Q D9 D10 / P Q D12 D13 D14 */
	static const uint32_t ls[5][5] = { { 4, 0, 1, 2, 3 }, { 3, 4, 0, 1, 2 },
					   { 2, 3, 4, 0, 1 }, { 1, 2, 3, 4, 0 },
					   { 0, 1, 2, 3, 4 } };
	/* left-asymmetric: md's "Q D D D P" row first, then "D D P Q D". */
	static const uint32_t la[5][5] = { { 4, 0, 1, 2, 3 }, { 3, 4, 0, 1, 2 },
					   { 2, 3, 0, 1, 4 }, { 1, 2, 0, 3, 4 },
					   { 0, 1, 2, 3, 4 } };
	static const uint32_t rsym[5][5] = { { 0, 1, 2, 3, 4 }, { 1, 2, 3, 4, 0 },
					     { 2, 3, 4, 0, 1 }, { 3, 4, 0, 1, 2 },
					     { 4, 0, 1, 2, 3 } };
	static const uint32_t ra[5][5] = { { 0, 1, 2, 3, 4 }, { 1, 2, 0, 3, 4 },
					   { 2, 3, 0, 1, 4 }, { 3, 4, 0, 1, 2 },
					   { 4, 0, 1, 2, 3 } };
	check_table6(RS_RAID_LEFT_SYMMETRIC, ls);
	check_table6(RS_RAID_LEFT_ASYMMETRIC, la);
	check_table6(RS_RAID_RIGHT_SYMMETRIC, rsym);
	check_table6(RS_RAID_RIGHT_ASYMMETRIC, ra);

	/* 4 members, left-symmetric: row 0 is "Q D0 D1 P". */
	struct rs_raid_geom g;
	init_uniform(&g, RS_RAID_RAID6, RS_RAID_LEFT_SYMMETRIC, 4, 8, 8 * 64);
	uint32_t p, q;
	rs_raid_parity(&g, 0, &p, &q);
	ck_assert_uint_eq(p, 3);
	ck_assert_uint_eq(q, 0);
	ck_assert_uint_eq(rs_raid_data_member(&g, 0, 0), 1);
	ck_assert_uint_eq(rs_raid_data_member(&g, 0, 1), 2);
	ck_assert_uint_eq(rs_raid_stripe_data_blk(&g), 16);
}
END_TEST

static void check_mirrors(const struct rs_raid_geom *g, uint32_t member,
			  const uint32_t *want, size_t nwant)
{
	uint32_t got[RS_RAID_MAX_MEMBERS];
	ck_assert_uint_eq(rs_raid_mirrors(g, member, got, RS_RAID_MAX_MEMBERS), nwant);
	for (size_t i = 0; i < nwant; i++)
		ck_assert_uint_eq(got[i], want[i]);
}

START_TEST(mirrors)
{
	struct rs_raid_geom g;
	init_uniform(&g, RS_RAID_RAID1, 0, 3, 0, 1000);
	check_mirrors(&g, 0, (const uint32_t[]){ 1, 2 }, 2);
	check_mirrors(&g, 1, (const uint32_t[]){ 0, 2 }, 2);
	check_mirrors(&g, 2, (const uint32_t[]){ 0, 1 }, 2);
	struct rs_raid_extent e;
	ck_assert_uint_eq(rs_raid_map(&g, 10, 900, &e, 1), 1);
	ck_assert_uint_eq(e.member, 0);
	ck_assert_uint_eq(e.member_lba, 10);
	ck_assert_uint_eq(e.nblk, 900);
	ck_assert_uint_eq(rs_raid_capacity_blk(&g), 1000);

	init_uniform(&g, RS_RAID_RAID10, 0, 6, 8, 8 * 64);
	check_mirrors(&g, 0, (const uint32_t[]){ 1 }, 1);
	check_mirrors(&g, 1, (const uint32_t[]){ 0 }, 1);
	check_mirrors(&g, 3, (const uint32_t[]){ 2 }, 1);
	check_mirrors(&g, 4, (const uint32_t[]){ 5 }, 1);

	init_uniform(&g, RS_RAID_RAID01, 0, 6, 8, 8 * 64);
	check_mirrors(&g, 0, (const uint32_t[]){ 3 }, 1);
	check_mirrors(&g, 2, (const uint32_t[]){ 5 }, 1);
	check_mirrors(&g, 4, (const uint32_t[]){ 1 }, 1);

	init_uniform(&g, RS_RAID_RAID5, 0, 4, 8, 8 * 64);
	check_mirrors(&g, 1, NULL, 0);
	init_uniform(&g, RS_RAID_RAID0, 0, 4, 8, 8 * 64);
	check_mirrors(&g, 1, NULL, 0);

	/* max_out caps the writes, not the count. */
	init_uniform(&g, RS_RAID_RAID1, 0, 5, 0, 100);
	uint32_t few[3] = { 99, 99, 99 };
	ck_assert_uint_eq(rs_raid_mirrors(&g, 0, few, 2), 4);
	ck_assert_uint_eq(few[2], 99);
}
END_TEST

/* RAID0+1 and RAID10 over the same 4 disks: same capacity, different
 * homes, different failure tolerance. */
START_TEST(raid01_vs_raid10)
{
	struct rs_raid_geom g01, g10;
	init_uniform(&g01, RS_RAID_RAID01, 0, 4, 8, 8 * 64);
	init_uniform(&g10, RS_RAID_RAID10, 0, 4, 8, 8 * 64);
	ck_assert_uint_eq(rs_raid_capacity_blk(&g01), rs_raid_capacity_blk(&g10));
	ck_assert_uint_eq(rs_raid_capacity_blk(&g01), 2 * 8 * 64);
	struct rs_raid_extent e;
	/* Strip 1 (lba 8): raid01 members 1 and 3, raid10 members 2 and 3. */
	rs_raid_map(&g01, 8, 1, &e, 1);
	ck_assert_uint_eq(e.member, 1);
	ck_assert_uint_eq(e.member_lba, 0);
	rs_raid_map(&g10, 8, 1, &e, 1);
	ck_assert_uint_eq(e.member, 2);
	ck_assert_uint_eq(e.member_lba, 0);
	uint64_t a;
	ck_assert_int_eq(rs_raid_unmap(&g01, 3, 0, &a), 0);
	ck_assert_uint_eq(a, 8);
	ck_assert_int_eq(rs_raid_unmap(&g10, 1, 0, &a), 0);
	ck_assert_uint_eq(a, 0);
	ck_assert_int_eq(rs_raid_unmap(&g01, 2, 0, &a), 0);
	ck_assert_uint_eq(a, 0);

	/* One failure in each half: RAID10 (pairs 0-1, 2-3) lives, RAID0+1
	 * loses both stripe sets. */
	uint64_t m03 = (1u << 0) | (1u << 3);
	ck_assert(rs_raid_survives(&g10, m03));
	ck_assert(!rs_raid_survives(&g01, m03));
	/* Both members of a pair: RAID10 dies; for RAID0+1 it is one half. */
	uint64_t m01 = (1u << 0) | (1u << 1);
	ck_assert(!rs_raid_survives(&g10, m01));
	ck_assert(rs_raid_survives(&g01, m01));
	ck_assert(rs_raid_survives(&g01, 1u << 2));
	ck_assert(rs_raid_survives(&g10, 1u << 2));
	ck_assert(rs_raid_survives(&g10, 0));
}
END_TEST

START_TEST(survives)
{
	struct rs_raid_geom g;
	init_uniform(&g, RS_RAID_RAID5, 0, 5, 8, 800);
	ck_assert(rs_raid_survives(&g, 0));
	for (uint32_t m = 0; m < 5; m++)
		ck_assert(rs_raid_survives(&g, UINT64_C(1) << m));
	ck_assert(!rs_raid_survives(&g, 3));
	init_uniform(&g, RS_RAID_RAID6, 0, 5, 8, 800);
	ck_assert(rs_raid_survives(&g, 0x11));
	ck_assert(!rs_raid_survives(&g, 0x13));
	init_uniform(&g, RS_RAID_RAID1, 0, 3, 0, 800);
	ck_assert(rs_raid_survives(&g, 0x3));
	ck_assert(!rs_raid_survives(&g, 0x7));
	/* Bits above nmembers are not members. */
	ck_assert(rs_raid_survives(&g, 0x3 | (UINT64_C(1) << 40)));
	init_uniform(&g, RS_RAID_RAID0, 0, 3, 8, 800);
	ck_assert(rs_raid_survives(&g, 0));
	ck_assert(!rs_raid_survives(&g, 0x4));
	uint64_t sizes[RS_RAID_MAX_MEMBERS];
	for (uint32_t m = 0; m < RS_RAID_MAX_MEMBERS; m++)
		sizes[m] = 80;
	init_ok(&g, RS_RAID_RAID10, 0, RS_RAID_MAX_MEMBERS, 8, sizes);
	ck_assert(rs_raid_survives(&g, UINT64_C(0x5555555555555555)));
	ck_assert(!rs_raid_survives(&g, UINT64_C(3) << 62));
}
END_TEST

/* JBOD of unequal members, including a one-block member. */
START_TEST(jbod_unequal)
{
	static const uint64_t sizes[] = { 100, 7, 1, 250, 33 };
	struct rs_raid_geom g;
	init_ok(&g, RS_RAID_JBOD, 0, 5, 0, sizes);
	ck_assert_uint_eq(rs_raid_capacity_blk(&g), 391);
	check_bijection(&g);
	struct rs_raid_extent e[8];
	ck_assert_uint_eq(rs_raid_map(&g, 98, 280, e, 8), 5);
	static const uint32_t want_m[] = { 0, 1, 2, 3, 4 };
	static const uint64_t want_lba[] = { 0 + 98, 0, 0, 0, 0 };
	static const uint32_t want_n[] = { 2, 7, 1, 250, 20 };
	for (int i = 0; i < 5; i++) {
		ck_assert_uint_eq(e[i].member, want_m[i]);
		ck_assert_uint_eq(e[i].member_lba, want_lba[i]);
		ck_assert_uint_eq(e[i].nblk, want_n[i]);
	}
	uint64_t a;
	ck_assert_int_eq(rs_raid_unmap(&g, 3, 5, &a), 0);
	ck_assert_uint_eq(a, 113);
	ck_assert_int_eq(rs_raid_unmap(&g, 2, 1, &a), -1);
	check_random(&g, 5, 100000);
	/* A one-member JBOD is the member. */
	init_ok(&g, RS_RAID_JBOD, 0, 1, 0, sizes + 3);
	ck_assert_uint_eq(rs_raid_capacity_blk(&g), 250);
	check_bijection(&g);
}
END_TEST

/* Striped levels use the smallest member, rounded down to whole strips, and
 * accept strips that are not powers of two. */
START_TEST(sizes_and_strips)
{
	struct rs_raid_geom g;
	static const uint64_t sizes[] = { 1000, 999, 1200, 5000 };
	init_ok(&g, RS_RAID_RAID5, RS_RAID_LEFT_SYMMETRIC, 4, 24, sizes);
	ck_assert_uint_eq(g.rows, 999 / 24);
	ck_assert_uint_eq(g.member_blk, (999 / 24) * 24);
	ck_assert_uint_eq(rs_raid_capacity_blk(&g), 3 * (999 / 24) * 24);
	init_ok(&g, RS_RAID_RAID1, 0, 4, 0, sizes);
	ck_assert_uint_eq(rs_raid_capacity_blk(&g), 999);
	init_ok(&g, RS_RAID_RAID0, 0, 1, 2048, (const uint64_t[]){ 4096 });
	ck_assert_uint_eq(rs_raid_capacity_blk(&g), 4096);
	init_ok(&g, RS_RAID_RAID0, 0, 3, 9, sizes);
	check_bijection(&g);
	check_random(&g, 9, 20000);
	init_ok(&g, RS_RAID_SINGLE, 0, 1, 0, sizes);
	ck_assert_uint_eq(rs_raid_capacity_blk(&g), 1000);

	/* Output truncation: the count is the full one, nothing written
	 * past max_out. */
	init_uniform(&g, RS_RAID_RAID0, 0, 4, 8, 8 * 64);
	struct rs_raid_extent e[3];
	memset(e, 0xab, sizeof(e));
	ck_assert_uint_eq(rs_raid_map(&g, 4, 40, e, 2), 6);
	ck_assert_uint_eq(rs_raid_map(&g, 4, 40, NULL, 0), 6);
	ck_assert_uint_eq(e[2].member, 0xabababab);
	ck_assert_uint_eq(rs_raid_map_max_extents(&g, 40), 6);
	ck_assert_uint_eq(rs_raid_map(&g, 0, 0, NULL, 0), 0);
	struct rs_raid_stripe_plan pl[2];
	ck_assert_uint_eq(rs_raid_stripe_plan(&g, 4, 100, pl, 1), 4);
	ck_assert(!pl[0].full);
	ck_assert_uint_eq(pl[0].first_blk, 4);
	ck_assert_uint_eq(pl[0].last_blk, 31);
	ck_assert_uint_eq(pl[0].nstrips, 4);
	ck_assert_uint_eq(pl[0].strip_off[0], 4);
	ck_assert_uint_eq(pl[0].strip_nblk[0], 4);
	ck_assert_uint_eq(pl[0].strip_nblk[3], 8);
}
END_TEST

/* Row plans on a 5-disk RAID5, strip 16 (64 data blocks per row). */
START_TEST(stripe_plan_cases)
{
	struct rs_raid_geom g;
	init_uniform(&g, RS_RAID_RAID5, RS_RAID_LEFT_SYMMETRIC, 5, 16, 16 * 64);
	struct rs_raid_stripe_plan pl[4];
	/* Exactly one row. */
	ck_assert_uint_eq(rs_raid_stripe_plan(&g, 128, 64, pl, 4), 1);
	ck_assert(pl[0].full);
	ck_assert_uint_eq(pl[0].stripe, 2);
	ck_assert_uint_eq(pl[0].nstrips, 4);
	/* All but its last block: not full, though every strip is touched. */
	ck_assert_uint_eq(rs_raid_stripe_plan(&g, 128, 63, pl, 4), 1);
	ck_assert(!pl[0].full);
	ck_assert_uint_eq(pl[0].nstrips, 4);
	ck_assert_uint_eq(pl[0].strip_nblk[3], 15);
	/* Partial, full, partial. */
	ck_assert_uint_eq(rs_raid_stripe_plan(&g, 60, 64 + 10, pl, 4), 3);
	ck_assert(!pl[0].full);
	ck_assert_uint_eq(pl[0].first_blk, 60);
	ck_assert_uint_eq(pl[0].first_strip, 3);
	ck_assert_uint_eq(pl[0].nstrips, 1);
	ck_assert_uint_eq(pl[0].strip_off[3], 12);
	ck_assert_uint_eq(pl[0].strip_nblk[3], 4);
	ck_assert_uint_eq(pl[0].strip_nblk[0], 0);
	ck_assert(pl[1].full);
	ck_assert(!pl[2].full);
	ck_assert_uint_eq(pl[2].first_blk, 0);
	ck_assert_uint_eq(pl[2].last_blk, 5);
	ck_assert_uint_eq(pl[2].strip_nblk[0], 6);
	/* Single block inside strip 2 of row 0. */
	ck_assert_uint_eq(rs_raid_stripe_plan(&g, 37, 1, pl, 4), 1);
	ck_assert_uint_eq(pl[0].first_strip, 2);
	ck_assert_uint_eq(pl[0].strip_off[2], 5);
	ck_assert_uint_eq(pl[0].strip_nblk[2], 1);
}
END_TEST

static void expect_reject(enum rs_raid_level level, enum rs_raid_layout layout, uint32_t n,
			  uint32_t strip, uint64_t member_blk, const char *needle)
{
	uint64_t sizes[RS_RAID_MAX_MEMBERS + 1];
	for (uint32_t m = 0; m < RS_RAID_MAX_MEMBERS + 1; m++)
		sizes[m] = member_blk;
	struct rs_raid_geom g;
	char err[256] = "";
	ck_assert_int_eq(rs_raid_geom_init(&g, level, layout, n, strip, sizes, err, sizeof(err)),
			 -1);
	ck_assert_msg(strstr(err, needle), "error \"%s\" lacks \"%s\"", err, needle);
}

START_TEST(invalid)
{
	expect_reject(RS_RAID_JBOD, 0, 0, 0, 100, "members");
	expect_reject(RS_RAID_SINGLE, 0, 2, 0, 100, "exactly 1 member");
	expect_reject(RS_RAID_RAID0, 0, 0, 8, 100, "members");
	expect_reject(RS_RAID_RAID1, 0, 1, 0, 100, "members");
	expect_reject(RS_RAID_RAID01, 0, 2, 8, 100, "members");
	expect_reject(RS_RAID_RAID01, 0, 5, 8, 100, "even");
	expect_reject(RS_RAID_RAID10, 0, 3, 8, 100, "members");
	expect_reject(RS_RAID_RAID10, 0, 7, 8, 100, "even");
	expect_reject(RS_RAID_RAID5, 0, 2, 8, 100, "members");
	expect_reject(RS_RAID_RAID6, 0, 3, 8, 100, "members");
	expect_reject(RS_RAID_RAID5, 0, RS_RAID_MAX_MEMBERS + 1, 8, 100, "members");
	expect_reject(RS_RAID_RAID0, 0, 2, 7, 100, "strip");
	expect_reject(RS_RAID_RAID0, 0, 2, 0, 100, "strip");
	expect_reject(RS_RAID_RAID5, 0, 3, 2049, 100000, "strip");
	expect_reject(RS_RAID_RAID5, 0, 3, 64, 63, "less than one strip");
	expect_reject(RS_RAID_RAID1, 0, 2, 0, 0, "no blocks");
	expect_reject((enum rs_raid_level)RS_RAID_LEVEL_COUNT, 0, 2, 8, 100, "level");
	expect_reject(RS_RAID_RAID5, (enum rs_raid_layout)RS_RAID_LAYOUT_COUNT, 3, 8, 100,
		      "layout");
	struct rs_raid_geom g;
	char err[64] = "";
	ck_assert_int_eq(rs_raid_geom_init(&g, RS_RAID_RAID0, 0, 2, 8, NULL, err, sizeof(err)),
			 -1);
	ck_assert_str_ne(err, "");
	/* JBOD capacity overflow. */
	uint64_t huge[2] = { UINT64_MAX - 5, 10 };
	ck_assert_int_eq(rs_raid_geom_init(&g, RS_RAID_JBOD, 0, 2, 0, huge, err, sizeof(err)),
			 -1);
	/* The bounds themselves are fine. */
	uint64_t ok[8] = { 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096 };
	ck_assert_int_eq(rs_raid_geom_init(&g, RS_RAID_RAID6, 0, 4, 8, ok, NULL, 0), 0);
	ck_assert_int_eq(rs_raid_geom_init(&g, RS_RAID_RAID6, 0, 4, 2048, ok, NULL, 0), 0);
	ck_assert_int_eq(rs_raid_geom_init(&g, RS_RAID_RAID0, 0, 1, 8, ok, NULL, 0), 0);
	/* Unstriped levels ignore the strip. */
	ck_assert_int_eq(rs_raid_geom_init(&g, RS_RAID_RAID1, 0, 2, 3, ok, NULL, 0), 0);
	ck_assert_uint_eq(g.strip_blk, 0);
}
END_TEST

START_TEST(names)
{
	static const char *const lv[] = { "jbod",   "single", "raid0", "raid1",
					  "raid01", "raid10", "raid5", "raid6" };
	ck_assert_uint_eq(RS_RAID_LEVEL_COUNT, 8);
	for (unsigned i = 0; i < RS_RAID_LEVEL_COUNT; i++) {
		ck_assert_str_eq(rs_raid_level_name((enum rs_raid_level)i), lv[i]);
		enum rs_raid_level l;
		ck_assert_int_eq(rs_raid_level_parse(lv[i], &l), 0);
		ck_assert_int_eq(l, (int)i);
	}
	for (unsigned i = 0; i < RS_RAID_LAYOUT_COUNT; i++) {
		enum rs_raid_layout l;
		ck_assert_int_eq(rs_raid_layout_parse(rs_raid_layout_name((enum rs_raid_layout)i),
						      &l), 0);
		ck_assert_int_eq(l, (int)i);
	}
	ck_assert_str_eq(rs_raid_layout_name(RS_RAID_LEFT_SYMMETRIC), "left-symmetric");
	enum rs_raid_level l;
	ck_assert_int_eq(rs_raid_level_parse("raid4", &l), -1);
	enum rs_raid_layout y;
	ck_assert_int_eq(rs_raid_layout_parse("left", &y), -1);
}
END_TEST

/* Every striped or mirrored layout with equal members spreads the array's
 * data (and, for RAID5/6, the parity) evenly: over whole rotations of the
 * parity, each member holds exactly the same number of data blocks. */
START_TEST(members_balanced)
{
	struct combo c[256];
	size_t n = all_combos(c, 256);
	for (size_t i = 0; i < n; i++) {
		if (c[i].level == RS_RAID_JBOD || c[i].level == RS_RAID_SINGLE)
			continue;
		struct rs_raid_geom g;
		/* rows = a multiple of every member count up to 8 */
		init_uniform(&g, c[i].level, c[i].layout, c[i].n, 16, 840 * 16);
		uint64_t held[8] = { 0 };
		for (uint64_t lba = 0; lba < rs_raid_capacity_blk(&g); lba += 16) {
			struct rs_raid_extent e;
			size_t k = rs_raid_map(&g, lba, 16, &e, 1);
			REQ(k == 1);
			held[e.member] += e.nblk;
			uint32_t others[8];
			size_t nm = rs_raid_mirrors(&g, e.member, others, 8);
			for (size_t j = 0; j < nm; j++)
				held[others[j]] += e.nblk;
		}
		for (uint32_t m = 1; m < c[i].n; m++)
			ck_assert_msg(held[m] == held[0], "%s n=%u: member %u holds %llu blocks, "
				      "member 0 %llu", rs_raid_level_name(c[i].level), c[i].n, m,
				      (unsigned long long)held[m], (unsigned long long)held[0]);
	}
}
END_TEST

/* The first stripes as Linux md lays them out: raid0 chunks round-robin
 * over the disks; raid10 "near 2" puts each chunk on two adjacent disks. */
START_TEST(md_first_stripes)
{
	struct rs_raid_geom g;
	struct rs_raid_extent e;
	init_uniform(&g, RS_RAID_RAID0, RS_RAID_LEFT_SYMMETRIC, 4, 128, 128 * 64);
	for (uint64_t chunk = 0; chunk < 8; chunk++) {
		ck_assert_uint_eq(rs_raid_map(&g, chunk * 128, 128, &e, 1), 1);
		ck_assert_uint_eq(e.member, chunk % 4);
		ck_assert_uint_eq(e.member_lba, (chunk / 4) * 128);
	}
	init_uniform(&g, RS_RAID_RAID10, RS_RAID_LEFT_SYMMETRIC, 4, 128, 128 * 64);
	for (uint64_t chunk = 0; chunk < 8; chunk++) {
		ck_assert_uint_eq(rs_raid_map(&g, chunk * 128, 128, &e, 1), 1);
		uint32_t copy;
		ck_assert_uint_eq(rs_raid_mirrors(&g, e.member, &copy, 1), 1);
		uint32_t lo = e.member < copy ? e.member : copy;
		ck_assert_uint_eq(lo, (chunk % 2) * 2);
		ck_assert_uint_eq(e.member < copy ? copy : e.member, (chunk % 2) * 2 + 1);
		ck_assert_uint_eq(e.member_lba, (chunk / 2) * 128);
	}
}
END_TEST

static Suite *raid_map_suite(void)
{
	Suite *s = suite_create("raid_map");
	TCase *tc = tcase_create("exhaustive");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, exhaustive, 0, NSTRIPS);
	tcase_add_loop_test(tc, random_requests, 0, NSTRIPS_RANDOM);
	tcase_add_test(tc, jbod_unequal);
	tcase_add_test(tc, sizes_and_strips);
	suite_add_tcase(s, tc);
	tc = tcase_create("layouts");
	tcase_add_test(tc, md_tables_raid5);
	tcase_add_test(tc, members_balanced);
	tcase_add_test(tc, md_first_stripes);
	tcase_add_test(tc, md_tables_raid6);
	tcase_add_test(tc, mirrors);
	tcase_add_test(tc, raid01_vs_raid10);
	tcase_add_test(tc, survives);
	tcase_add_test(tc, stripe_plan_cases);
	tcase_add_test(tc, invalid);
	tcase_add_test(tc, names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(raid_map_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
