#include "disk/layout.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

/* The mapping works on "data sectors": the positions of a zone left after
 * removing per-cylinder spares and spare tracks, numbered in LBA order.
 * Data sector c of a zone is at cylinder offset c / data_per_cyl and track
 * offset (c % data_per_cyl) -- plain arithmetic because every cylinder's
 * spares sit at its end and the spare tracks at the zone's end.  Slips and
 * the zone-end spare sectors are then handled on data-sector indices. */

/* What run_fresh reads of a zone lies in its first cache line. */
_Static_assert(offsetof(struct rs_layout_zone, first_offset) + sizeof(uint32_t) <= 64,
	       "a zone's hot fields fit in one line");

static int fail(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return -1;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

static int check_zones(const struct rs_layout_params *p, char *err, size_t errlen)
{
	char msg[160];
	if (p->heads == 0)
		return fail(err, errlen, "layout: heads must be > 0");
	if (p->cylinders == 0)
		return fail(err, errlen, "layout: cylinders must be > 0");
	if (p->nzones == 0 || p->zones == NULL)
		return fail(err, errlen, "layout: at least one zone is needed");
	for (uint32_t i = 0; i < p->nzones; i++) {
		const struct rs_zone *z = &p->zones[i];
		uint32_t expect = i == 0 ? 0 : p->zones[i - 1].last_cyl + 1;
		if (z->first_cyl != expect) {
			snprintf(msg, sizeof(msg),
				 "layout: zone %" PRIu32 " starts at cylinder %" PRIu32
				 ", expected %" PRIu32 " (%s)", i, z->first_cyl, expect,
				 z->first_cyl > expect ? "gap" : "overlap");
			return fail(err, errlen, msg);
		}
		if (z->last_cyl < z->first_cyl || z->last_cyl >= p->cylinders) {
			snprintf(msg, sizeof(msg),
				 "layout: zone %" PRIu32 " has a bad cylinder range %" PRIu32
				 "..%" PRIu32, i, z->first_cyl, z->last_cyl);
			return fail(err, errlen, msg);
		}
		if (z->sectors_per_track == 0) {
			snprintf(msg, sizeof(msg),
				 "layout: zone %" PRIu32 " has 0 sectors per track", i);
			return fail(err, errlen, msg);
		}
		if ((uint64_t)p->spare_sect_per_cyl >=
		    (uint64_t)p->heads * z->sectors_per_track) {
			snprintf(msg, sizeof(msg),
				 "layout: zone %" PRIu32 ": spare sectors per cylinder "
				 "leave no data", i);
			return fail(err, errlen, msg);
		}
		if (z->first_offset >= z->sectors_per_track) {
			snprintf(msg, sizeof(msg), "layout: zone %" PRIu32 ": first_offset must "
				 "be below the sectors per track", i);
			return fail(err, errlen, msg);
		}
		if (p->spare_group_tracks && (uint64_t)z->spare_sectors >=
		    (uint64_t)p->spare_group_tracks * z->sectors_per_track) {
			snprintf(msg, sizeof(msg), "layout: zone %" PRIu32 ": spares per group "
				 "leave no data", i);
			return fail(err, errlen, msg);
		}
		uint64_t tracks = (uint64_t)(z->last_cyl - z->first_cyl + 1) * p->heads;
		if ((uint64_t)p->spare_tracks_per_zone + z->spare_tracks >= tracks) {
			snprintf(msg, sizeof(msg),
				 "layout: zone %" PRIu32 ": spare tracks leave no data", i);
			return fail(err, errlen, msg);
		}
	}
	if (p->zones[p->nzones - 1].last_cyl != p->cylinders - 1)
		return fail(err, errlen, "layout: zones do not reach the last cylinder");
	if (p->spare_group_tracks && p->spare_sect_per_cyl)
		return fail(err, errlen, "layout: spare groups exclude per-cylinder spares");
	return 0;
}

static void derive_zones(struct rs_layout *l, const struct rs_layout_params *p)
{
	uint64_t pbn = 0;
	for (uint32_t i = 0; i < p->nzones; i++) {
		const struct rs_zone *src = &p->zones[i];
		struct rs_layout_zone *z = &l->zones[i];
		uint64_t ncyl = src->last_cyl - src->first_cyl + 1;
		z->first_cyl = src->first_cyl;
		z->last_cyl = src->last_cyl;
		z->spt = src->sectors_per_track;
		z->track_skew = src->track_skew;
		z->cyl_skew = src->cyl_skew;
		z->cyl_turn = (uint32_t)(((uint64_t)(p->heads - 1) * z->track_skew + z->cyl_skew) %
					 z->spt);
		z->data_per_cyl = p->heads * z->spt - p->spare_sect_per_cyl;
		/* Data sectors lie before the first spare track t; its cylinder
		 * contributes whole tracks up to t, but never more than its data. */
		uint64_t t = ncyl * p->heads - p->spare_tracks_per_zone - src->spare_tracks;
		z->data_sectors = (t / p->heads) * z->data_per_cyl +
			min_u64((t % p->heads) * z->spt, z->data_per_cyl);
		z->first_pbn = pbn;
		pbn += ncyl * p->heads * z->spt;
		z->empty_front = src->empty_front;
		z->first_offset = src->first_offset;
		if (p->spare_group_tracks) {
			z->group_sectors = (uint64_t)p->spare_group_tracks * z->spt;
			z->group_data = z->group_sectors - src->spare_sectors;
		}
	}
}

/* Zone whose PBN range holds pbn (zones are in PBN order). */
static uint32_t zone_of_pbn(const struct rs_layout *l, uint64_t pbn)
{
	uint32_t lo = 0, hi = l->nzones;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (l->zones[mid].first_pbn <= pbn)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Data-sector index of a position in its zone, or UINT64_MAX for a spare. */
static uint64_t data_index(const struct rs_layout_zone *z,
			   uint32_t cyl, uint32_t head, uint32_t sector)
{
	uint64_t within = (uint64_t)head * z->spt + sector;
	if (within >= z->data_per_cyl)
		return UINT64_MAX;
	uint64_t c = (uint64_t)(cyl - z->first_cyl) * z->data_per_cyl + within;
	return c < z->data_sectors ? c : UINT64_MAX;
}

static uint64_t candidates_before(const struct rs_layout *l, const struct rs_layout_zone *z,
				  uint64_t c);
static uint32_t group_overfull(const struct rs_layout *l, const struct rs_layout_zone *z);

static int index_slips(struct rs_layout *l, const struct rs_layout_params *p,
		       uint64_t total_pbn, char *err, size_t errlen)
{
	char msg[160];
	l->nslips = p->nslips;
	if (p->nslips == 0)
		return 0;
	if (p->slips == NULL)
		return fail(err, errlen, "layout: nslips > 0 but no slip list");
	/* The index of cuts counts a zone's slips in 32 bits. */
	if (p->nslips > UINT32_MAX)
		return fail(err, errlen, "layout: more than 4294967295 slips");
	l->slip_idx = malloc(p->nslips * sizeof(*l->slip_idx));
	RS_ASSERT(l->slip_idx != NULL);
	for (size_t i = 0; i < p->nslips; i++) {
		uint64_t pbn = p->slips[i];
		if (i > 0 && pbn <= p->slips[i - 1])
			return fail(err, errlen, "layout: slips must be strictly increasing");
		if (pbn >= total_pbn) {
			snprintf(msg, sizeof(msg), "layout: slip %" PRIu64
				 " beyond the last sector", pbn);
			return fail(err, errlen, msg);
		}
		uint32_t zi = zone_of_pbn(l, pbn);
		struct rs_layout_zone *z = &l->zones[zi];
		uint64_t off = pbn - z->first_pbn;
		uint64_t per_cyl = (uint64_t)l->heads * z->spt;
		uint32_t cyl = z->first_cyl + (uint32_t)(off / per_cyl);
		uint32_t head = (uint32_t)(off % per_cyl / z->spt);
		uint32_t sector = (uint32_t)(off % z->spt);
		uint64_t c = data_index(z, cyl, head, sector);
		if (c == UINT64_MAX) {
			snprintf(msg, sizeof(msg), "layout: slip %" PRIu64
				 " lies in a spare area", pbn);
			return fail(err, errlen, msg);
		}
		/* PBN order is data-index order within a zone, and zones come in
		 * PBN order, so the array stays grouped and sorted. */
		l->slip_idx[i] = c;
		/* slip_end == 0 means "no slip seen yet" (a zone's range can only
		 * end at 0 if it is empty); empty zones are placed later. */
		if (z->slip_end == 0)
			z->slip_begin = (uint32_t)i;
		z->slip_end = (uint32_t)(i + 1);
	}
	return 0;
}

/* Unslipped data sectors of z before slip i (i in its range): never
 * decreasing in i, and a block's slips before it are those at or below
 * its LBA candidate (see slip_after_k). */
static uint64_t slip_candidate(const struct rs_layout *l, const struct rs_layout_zone *z,
			       size_t i)
{
	return l->slip_idx[i] - (i - z->slip_begin);
}

/* Appends brk's entry from lba on (count: room checked by the caller). */
static void brk_add(struct rs_layout *l, uint64_t lba, uint32_t zone, size_t slips)
{
	l->brk[l->nbrk++] = (struct rs_layout_brk){ lba, zone, (uint32_t)slips };
}

/* brk and its buckets (see layout.h), once the zones' first LBAs and the
 * capacity are known.  A zone's entries: its first LBA, then the LBA of
 * each candidate a slip (or a run of adjacent slips) moves on, while
 * that lies in the zone. */
static void zone_index_build(struct rs_layout *l)
{
	for (uint32_t i = 0; i < l->nzones; i++) {
		struct rs_layout_zone *z = &l->zones[i];
		z->last_lba = min_u64(z->first_lba + z->lba_count - 1, l->capacity_blk - 1);
		z->to_k = z->empty_front - z->first_lba;
	}
	l->brk = malloc((l->nzones + l->nslips + 1) * sizeof(*l->brk));
	RS_ASSERT(l->brk != NULL);
	l->nbrk = 0;
	for (uint32_t i = 0; i < l->nzones; i++) {
		const struct rs_layout_zone *z = &l->zones[i];
		if (z->group_sectors) {
			brk_add(l, z->first_lba, i, 0);
			continue;
		}
		size_t j = z->slip_begin;
		while (j < z->slip_end && slip_candidate(l, z, j) <= z->empty_front)
			j++;
		brk_add(l, z->first_lba, i, j - z->slip_begin);
		while (j < z->slip_end) {
			uint64_t k = slip_candidate(l, z, j);
			while (j < z->slip_end && slip_candidate(l, z, j) == k)
				j++;
			if (k - z->empty_front >= z->lba_count)
				break;
			brk_add(l, z->first_lba + (k - z->empty_front), i, j - z->slip_begin);
		}
	}
	l->brk[l->nbrk] = (struct rs_layout_brk){ UINT64_MAX, 0, 0 };
	/* About four buckets an entry, but no more than 4096 (16 KiB): a
	 * defect list of thousands of slips walks a few entries more instead
	 * of every drive holding a table its size. */
	uint64_t want = 4 * (uint64_t)l->nbrk;
	if (want > 4096)
		want = 4096;
	unsigned shift = 0;
	while ((l->capacity_blk >> shift) >= want)
		shift++;
	uint32_t n = (uint32_t)(l->capacity_blk >> shift) + 1;
	l->brk_at = malloc(n * sizeof(*l->brk_at));
	RS_ASSERT(l->brk_at != NULL);
	uint32_t e = 0;
	for (uint32_t b = 0; b < n; b++) {
		uint64_t first = (uint64_t)b << shift;
		while (l->brk[e + 1].lba <= first)
			e++;
		l->brk_at[b] = e;
	}
	l->brk_buckets = n;
	l->brk_shift = shift;
}

int rs_layout_init(struct rs_layout *l, const struct rs_layout_params *p,
		   char *err, size_t errlen)
{
	char msg[160];
	memset(l, 0, sizeof(*l));
	rs_layout_forget(l);
	if (check_zones(p, err, errlen) < 0)
		return -1;
	l->heads = p->heads;
	l->cylinders = p->cylinders;
	l->slip_skew = p->slip_skew;
	l->nzones = p->nzones;
	/* Line-aligned: a random block's run reads one line of its zone. */
	l->zones = aligned_alloc(_Alignof(struct rs_layout_zone),
				 p->nzones * sizeof(*l->zones));
	RS_ASSERT(l->zones != NULL);
	memset(l->zones, 0, p->nzones * sizeof(*l->zones));
	derive_zones(l, p);
	const struct rs_layout_zone *last = &l->zones[l->nzones - 1];
	uint64_t total_pbn = last->first_pbn +
		(uint64_t)(last->last_cyl - last->first_cyl + 1) * l->heads * last->spt;
	if (index_slips(l, p, total_pbn, err, errlen) < 0)
		goto bad;
	size_t next = 0;
	uint64_t lba = 0;
	for (uint32_t i = 0; i < l->nzones; i++) {
		struct rs_layout_zone *z = &l->zones[i];
		/* An empty slip range sits where the zone's slips would be, so
		 * the binary searches need no special case. */
		if (z->slip_end == 0)
			z->slip_begin = z->slip_end = (uint32_t)next;
		next = z->slip_end;
		uint64_t nslip = z->slip_end - z->slip_begin;
		uint64_t reserve = nslip > p->zones[i].spare_sectors ?
			nslip : p->zones[i].spare_sectors;
		if (z->group_sectors) {
			uint32_t g = group_overfull(l, z);
			if (g != UINT32_MAX) {
				snprintf(msg, sizeof(msg), "layout: zone %" PRIu32 ": spare group "
					 "%" PRIu32 " has more slips than spares", i, g);
				fail(err, errlen, msg);
				goto bad;
			}
			reserve = z->data_sectors - candidates_before(l, z, z->data_sectors);
		}
		if (reserve + z->empty_front >= z->data_sectors) {
			snprintf(msg, sizeof(msg), "layout: zone %" PRIu32
				 ": spares, slips and empty front leave no data", i);
			fail(err, errlen, msg);
			goto bad;
		}
		z->first_lba = lba;
		z->lba_count = z->data_sectors - reserve - z->empty_front;
		lba += z->lba_count;
	}
	l->mappable_blk = lba;
	if (p->capacity_blk > lba) {
		snprintf(msg, sizeof(msg), "layout: capacity %" PRIu64
			 " blocks exceeds the %" PRIu64 " the geometry holds",
			 p->capacity_blk, lba);
		fail(err, errlen, msg);
		goto bad;
	}
	l->capacity_blk = p->capacity_blk ? p->capacity_blk : lba;
	zone_index_build(l);
	return 0;
bad:
	rs_layout_destroy(l);
	return -1;
}

void rs_layout_forget(struct rs_layout *l)
{
	for (int i = 0; i < RS_LAYOUT_STRETCHES; i++)
		l->stretch[i] = (struct rs_layout_stretch){ .first = UINT64_MAX };
}

void rs_layout_destroy(struct rs_layout *l)
{
	free(l->zones);
	free(l->slip_idx);
	free(l->brk);
	free(l->brk_at);
	memset(l, 0, sizeof(*l));
}

/* The cached stretch holding lba, or NULL.  One comparison each: lba -
 * first wraps round to a huge value below first (an empty entry's first,
 * UINT64_MAX, is above every LBA). */
static inline struct rs_layout_stretch *stretch_scan(const struct rs_layout *l, uint64_t lba);
static inline struct rs_layout_stretch *stretch_find(const struct rs_layout *l, uint64_t lba)
{
	const struct rs_layout_stretch *st = &l->stretch[l->stretch_last];
	if (lba - st->first <= st->span)
		return (struct rs_layout_stretch *)st;  /* cache */
	return stretch_scan(l, lba);
}
/* The same without trying the last one first (its caller has). */
static inline struct rs_layout_stretch *stretch_scan(const struct rs_layout *l, uint64_t lba)
{
	struct rs_layout *ml = (struct rs_layout *)l;  /* cache */
	struct rs_layout_stretch *st = ml->stretch;
	/* Unrolled: a random block misses every one, and the loop's own
	 * count and step were half the scan. */
#pragma GCC unroll 8
	for (uint32_t i = 0; i < RS_LAYOUT_STRETCHES; i++)
		if (lba - st[i].first <= st[i].span) {
			ml->stretch_last = i;
			return &st[i];
		}
	return NULL;
}

/* The cache entry to fill next. */
static struct rs_layout_stretch *stretch_victim(const struct rs_layout *l)
{
	struct rs_layout *ml = (struct rs_layout *)l;  /* cache */
	struct rs_layout_stretch *st = &ml->stretch[ml->stretch_next];
	ml->stretch_last = ml->stretch_next;
	ml->stretch_next = (ml->stretch_next + 1) % RS_LAYOUT_STRETCHES;
	return st;
}

static inline uint32_t zone_search(const struct rs_layout *l, uint64_t lba);

uint32_t rs_layout_zone_of_lba(const struct rs_layout *l, uint64_t lba)
{
	const struct rs_layout_stretch *st = stretch_find(l, lba);
	if (st)
		return st->p.zone;
	return zone_search(l, lba);
}

/* The entry of brk that lba lies under.  Inline: a random block's mapping
 * calls it every time. */
static inline __attribute__((always_inline)) const struct rs_layout_brk *
brk_search(const struct rs_layout *l, uint64_t lba)
{
	uint64_t b = lba >> l->brk_shift;
	if (b < l->brk_buckets) {
		/* brk_at[b] is the entry of an LBA at or below lba. */
		const struct rs_layout_brk *e = &l->brk[l->brk_at[b]];
		while (e[1].lba <= lba)
			e++;
		return e;
	}
	size_t lo = 0, hi = l->nbrk;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->brk[mid].lba <= lba)
			lo = mid;
		else
			hi = mid;
	}
	return &l->brk[lo];
}

static inline __attribute__((always_inline)) uint32_t zone_search(const struct rs_layout *l,
								   uint64_t lba)
{
	return brk_search(l, lba)->zone;
}

uint32_t rs_layout_zone_of_cyl(const struct rs_layout *l, uint32_t cyl)
{
	RS_ASSERT(cyl < l->cylinders);
	uint32_t lo = 0, hi = l->nzones;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (l->zones[mid].first_cyl <= cyl)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

uint32_t rs_layout_spt_of_cyl(const struct rs_layout *l, uint32_t cyl)
{
	return l->zones[rs_layout_zone_of_cyl(l, cyl)].spt;
}

/* Number of slips in z with data index < c. */
static size_t slips_below(const struct rs_layout *l, const struct rs_layout_zone *z,
			  uint64_t c)
{
	size_t lo = z->slip_begin, hi = z->slip_end;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->slip_idx[mid] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - z->slip_begin;
}

/* Index (in slip_idx) of the first slip after the k-th unslipped data
 * sector: slip_idx[i] - (i - begin) counts the unslipped sectors before
 * slip i and never decreases, so the slips before that sector are exactly
 * those with that count <= k.  Its data index is k plus their number. */
static size_t slip_after_k(const struct rs_layout *l, const struct rs_layout_zone *z,
			   uint64_t k)
{
	size_t lo = z->slip_begin, hi = z->slip_end;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->slip_idx[mid] - (mid - z->slip_begin) <= k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Spare groups: the zone's whole groups come first, then at most one
 * shorter group without spares. */
static uint64_t whole_groups(const struct rs_layout_zone *z)
{
	return z->data_sectors / z->group_sectors;
}

/* LBA candidates (sectors that hold an LBA once the empty front is counted
 * in) at data indices below c. */
static uint64_t candidates_before(const struct rs_layout *l, const struct rs_layout_zone *z,
				  uint64_t c)
{
	if (!z->group_sectors)
		return c - slips_below(l, z, c);
	uint64_t g = c / z->group_sectors, start = g * z->group_sectors;
	uint64_t in = c - start - (slips_below(l, z, c) - slips_below(l, z, start));
	if (g < whole_groups(z) && in > z->group_data)
		in = z->group_data;
	return g * z->group_data + in;
}

/* The first whole group whose slips outnumber its spares, or UINT32_MAX. */
static uint32_t group_overfull(const struct rs_layout *l, const struct rs_layout_zone *z)
{
	uint64_t spares = z->group_sectors - z->group_data;
	for (size_t i = z->slip_begin; i < z->slip_end; ) {
		uint64_t g = l->slip_idx[i] / z->group_sectors;
		size_t j = i;
		while (j < z->slip_end && l->slip_idx[j] / z->group_sectors == g)
			j++;
		if (g < whole_groups(z) && j - i > spares)
			return (uint32_t)g;
		i = j;
	}
	return UINT32_MAX;
}

/* Data index of LBA candidate k of a zone. */
static uint64_t candidate_index(const struct rs_layout *l, const struct rs_layout_zone *z,
				uint64_t k)
{
	if (!z->group_sectors)
		return k + (slip_after_k(l, z, k) - z->slip_begin);
	uint64_t g = k / z->group_data;
	if (g > whole_groups(z))
		g = whole_groups(z);
	uint64_t start = g * z->group_sectors, j = k - g * z->group_data;
	size_t lo = z->slip_begin + slips_below(l, z, start), first = lo;
	size_t hi = z->slip_begin + slips_below(l, z, start + z->group_sectors);
	/* As in slip_after_k, within the group's slips. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->slip_idx[mid] - start - (mid - first) <= j)
			lo = mid + 1;
		else
			hi = mid;
	}
	return start + j + (lo - first);
}

/* Where data index c (of zone z, under brk entry e) lies and how far the
 * sectors run on from it: its cylinder and head within the zone, its
 * track's first data index, and t1, the end of the run (the track's end,
 * the cylinder's or the zone's, or the next slip, which to_track_end says
 * is not it).  The common step of a stretch and of a fresh run. */
struct track_bounds {
	uint64_t cyl, head, track_start, t1;
	bool to_track_end;
};

static inline __attribute__((always_inline)) struct track_bounds
track_bounds_of(const struct rs_layout *l, const struct rs_layout_zone *z,
		const struct rs_layout_brk *e, uint64_t c)
{
	struct track_bounds b;
	uint64_t cyl_start = c / z->data_per_cyl * z->data_per_cyl;
	b.cyl = c / z->data_per_cyl;
	b.head = (c - cyl_start) / z->spt;
	b.track_start = cyl_start + b.head * z->spt;
	b.t1 = min_u64(min_u64(b.track_start + z->spt, cyl_start + z->data_per_cyl),
		       z->data_sectors);
	b.to_track_end = true;
	size_t next = z->slip_begin + e->slips;
	if (next < z->slip_end && l->slip_idx[next] < b.t1) {
		b.t1 = l->slip_idx[next];
		b.to_track_end = false;
	}
	return b;
}

/* The stretch around data index c (an LBA's, at lba) of zone zi in a zone
 * without spare groups, under brk entry e: bounded by its track, the slips
 * on either side and the zone's and the disk's first and last LBAs.  The
 * LBAs from e->lba on lie on consecutive data sectors up to the next slip,
 * so e->lba is the first bound below lba the track's start does not set
 * (the first after the slips before lba, or the zone's first). */
/* Inline, as zone_search. */
static inline __attribute__((always_inline)) void
stretch_of(const struct rs_layout *l, uint32_t zi, uint64_t lba, uint64_t c,
	   const struct rs_layout_brk *e, struct rs_layout_stretch *st)
{
	const struct rs_layout_zone *z = &l->zones[zi];
	struct track_bounds b = track_bounds_of(l, z, e, c);
	uint64_t cyl = b.cyl, head = b.head, track_start = b.track_start, t1 = b.t1;
	bool to_track_end = b.to_track_end;
	/* Distances, not LBAs, compared: on a disk's first tracks c's track
	 * can start more sectors before c than there are LBAs before lba. */
	uint64_t first = lba - e->lba < c - track_start ? e->lba : lba - (c - track_start);
	uint64_t last = lba + (t1 - 1 - c);
	last = min_u64(last, z->last_lba);
	st->first = first;
	st->span = last - first;
	/* first lies on c's track (at or after its start): its head is c's,
	 * its sector its distance from the track's start, with no division. */
	st->p.cyl = z->first_cyl + (uint32_t)cyl;
	st->p.head = (uint32_t)head;
	st->p.sector = (uint32_t)(c - (lba - first) - track_start);
	st->p.zone = zi;
	/* A stretch that no slip cuts short runs to its track's last data
	 * sector: its last LBA, capped as rs_layout_track_last_lba_of caps
	 * it, is the track's (no slip lies between c and that sector, so the
	 * candidates before it are c's plus the sectors in between). */
	st->track_last = to_track_end ? last : UINT64_MAX;
}

static void stretch_phys(const struct rs_layout_stretch *st, uint64_t lba, struct rs_phys *out)
{
	*out = st->p;
	out->sector += (uint32_t)(lba - st->first);
}

/* rs_layout_lba_to_phys, returning the stretch it answered from or built
 * (the last one now), or NULL in a zone with spare groups: what
 * stretch_find would then find.  tried_last: the stretches are scanned
 * without trying the last one first (the caller has, or expects a miss). */
static inline __attribute__((always_inline)) struct rs_layout_stretch *
map_lba_after(const struct rs_layout *l, uint64_t lba, struct rs_phys *out, bool tried_last)
{
	RS_ASSERT(lba < l->capacity_blk);
	struct rs_layout_stretch *st = tried_last ? stretch_scan(l, lba) : stretch_find(l, lba);
	if (st) {
		stretch_phys(st, lba, out);
		return st;
	}
	const struct rs_layout_brk *e = brk_search(l, lba);  /* no stretch holds lba */
	uint32_t zi = e->zone;
	const struct rs_layout_zone *z = &l->zones[zi];
	uint64_t c;
	if (z->group_sectors) {
		c = candidate_index(l, z, lba + z->to_k);
	} else {
		/* The zone's slips before lba are e->slips (what slip_after_k
		 * finds for its candidate). */
		c = lba + z->to_k + e->slips;
		struct rs_layout_stretch *fresh = stretch_victim(l);
		stretch_of(l, zi, lba, c, e, fresh);
		stretch_phys(fresh, lba, out);
		return fresh;
	}
	uint64_t within = c % z->data_per_cyl;
	out->cyl = z->first_cyl + (uint32_t)(c / z->data_per_cyl);
	out->head = (uint32_t)(within / z->spt);
	out->sector = (uint32_t)(within % z->spt);
	out->zone = zi;
	return NULL;
}
void rs_layout_lba_to_phys_cached(const struct rs_layout *l, uint64_t lba,
				  struct rs_phys *out)
{
	/* rs_layout_lba_to_phys has tried the last stretch. */
	map_lba_after(l, lba, out, true);
}

int64_t rs_layout_phys_to_lba(const struct rs_layout *l, const struct rs_phys *phys)
{
	if (phys->cyl >= l->cylinders || phys->head >= l->heads)
		return -1;
	const struct rs_layout_zone *z = &l->zones[rs_layout_zone_of_cyl(l, phys->cyl)];
	if (phys->sector >= z->spt)
		return -1;
	uint64_t c = data_index(z, phys->cyl, phys->head, phys->sector);
	if (c == UINT64_MAX)
		return -1;
	size_t below = slips_below(l, z, c);
	size_t at = z->slip_begin + below;
	if (at < z->slip_end && l->slip_idx[at] == c)
		return -1;
	uint64_t k = candidates_before(l, z, c);
	if (z->group_sectors && candidates_before(l, z, c + 1) == k)
		return -1;                /* a spare of its group */
	if (k < z->empty_front)
		return -1;
	k -= z->empty_front;
	if (k >= z->lba_count || z->first_lba + k >= l->capacity_blk)
		return -1;
	return (int64_t)(z->first_lba + k);
}

uint64_t rs_layout_pbn(const struct rs_layout *l, const struct rs_phys *phys)
{
	const struct rs_layout_zone *z = &l->zones[rs_layout_zone_of_cyl(l, phys->cyl)];
	RS_ASSERT(phys->head < l->heads && phys->sector < z->spt);
	return z->first_pbn +
		((uint64_t)(phys->cyl - z->first_cyl) * l->heads + phys->head) * z->spt +
		phys->sector;
}

/* Slot of the track's sector 0 (its skew and the zone's first offset),
 * before the reduction modulo spt. */
static uint64_t track_base(const struct rs_layout *l, const struct rs_layout_zone *z,
			   const struct rs_phys *phys)
{
	uint64_t skew = (uint64_t)(phys->cyl - z->first_cyl) % z->spt * z->cyl_turn +
		(uint64_t)phys->head * z->track_skew;
	if (l->slip_skew != RS_SLIP_SKEW_NONE) {
		/* Slips are held as data indices, which are positions in the zone
		 * where no per-cylinder spares or spare tracks come first. */
		uint64_t tracks = (uint64_t)(phys->cyl - z->first_cyl) * l->heads +
			(l->slip_skew == RS_SLIP_SKEW_TRACK ? phys->head : 0);
		skew += slips_below(l, z, tracks * z->spt);
	}
	return skew + z->first_offset;
}

/* The angle of a sector in whole sectors of its zone, in [0, spt). */
static uint32_t slot_of(const struct rs_layout *l, const struct rs_phys *phys)
{
	RS_ASSERT(phys->zone < l->nzones);
	const struct rs_layout_zone *z = &l->zones[phys->zone];
	RS_ASSERT(phys->cyl >= z->first_cyl && phys->cyl <= z->last_cyl);
	RS_ASSERT(phys->head < l->heads && phys->sector < z->spt);
	return (uint32_t)((track_base(l, z, phys) + phys->sector) % z->spt);
}

double rs_layout_angle_of(const struct rs_layout *l, const struct rs_phys *phys)
{
	return (double)slot_of(l, phys) / l->zones[phys->zone].spt;
}

uint64_t rs_layout_track_last_lba(const struct rs_layout *l, uint64_t lba)
{
	struct rs_layout_stretch *st = stretch_find(l, lba);
	if (st && st->track_last != UINT64_MAX)
		return st->track_last;
	struct rs_phys p;
	rs_layout_lba_to_phys(l, lba, &p);
	return rs_layout_track_last_lba_at(l, lba, &p);
}

uint64_t rs_layout_track_last_lba_at(const struct rs_layout *l, uint64_t lba,
				     const struct rs_phys *p)
{
	/* A stretch lies on one track: its track's end is that of any of its
	 * LBAs. */
	struct rs_layout_stretch *st = stretch_find(l, lba);
	if (st && st->track_last != UINT64_MAX)
		return st->track_last;
	uint64_t last = rs_layout_track_last_lba_of(l, p);
	if (st)
		st->track_last = last;
	return last;
}

uint64_t rs_layout_track_last_lba_of(const struct rs_layout *l, const struct rs_phys *pp)
{
	struct rs_phys p = *pp;
	const struct rs_layout_zone *z = &l->zones[p.zone];
	uint64_t cyl_start = (uint64_t)(p.cyl - z->first_cyl) * z->data_per_cyl;
	uint64_t end = cyl_start + (uint64_t)p.head * z->spt + z->spt;
	end = min_u64(end, cyl_start + z->data_per_cyl);
	end = min_u64(end, z->data_sectors);
	/* Unslipped data sectors before end, capped by the zone's LBAs. */
	uint64_t n = min_u64(candidates_before(l, z, end) - z->empty_front, z->lba_count);
	return min_u64(z->first_lba + n - 1, l->capacity_blk - 1);
}

/* A zone whose LBAs lie on consecutive data sectors: no slips, no spare
 * groups.  Runs there follow each other from track to track. */
static bool plain_zone(const struct rs_layout_zone *z)
{
	return z->slip_begin == z->slip_end && !z->group_sectors;
}

/* r's track: its spt and angle of sector 0; r->last set by the caller. */
static void run_fill(const struct rs_layout *l, struct rs_track_run *r)
{
	const struct rs_layout_zone *z = &l->zones[r->p.zone];
	r->spt = z->spt;
	struct rs_phys start = r->p;
	start.sector = 0;
	r->base = (uint32_t)(track_base(l, z, &start) % z->spt);
}

/* rs_layout_run_at for a block of zone z (without spare groups) under brk
 * entry e: what stretch_of and run_fill work out, with the run written
 * where it goes, and its track's first LBA, end and straight part read off
 * the bounds just worked out.  The same run, as
 * check_disk_geom's layout_slip_index checks LBA by LBA.  No stretch is
 * kept: the run's users (the memo of positions, a command's media time,
 * the firmware's rules, the stream's limit) read the run itself, and a
 * random block's stretch was never asked for again. */
static inline __attribute__((always_inline)) void
run_fresh(const struct rs_layout *l, uint64_t lba, const struct rs_layout_brk *e,
	  const struct rs_layout_zone *z, struct rs_track_run *r)
{
	uint64_t c = lba + z->to_k + e->slips;
	struct track_bounds b = track_bounds_of(l, z, e, c);
	uint64_t cyl = b.cyl, head = b.head, track_start = b.track_start, t1 = b.t1;
	bool to_track_end = b.to_track_end;
	uint64_t sector = c - track_start;
	/* lba - e->lba: the LBAs before lba on consecutive sectors (see
	 * stretch_of); when the track's start is no further back, the track
	 * holds its first LBA at sector 0. */
	bool whole_front = sector <= lba - e->lba;
	/* The sectors run on from lba to the track's end or to the slip that
	 * cuts it, the zone's or the disk's last LBA. */
	uint64_t straight = min_u64(lba + (t1 - 1 - c), z->last_lba);
	r->first = lba;
	r->p = (struct rs_phys){ z->first_cyl + (uint32_t)cyl, (uint32_t)head, (uint32_t)sector,
				 e->zone };
	/* Cut by no slip, they end where the track's LBAs do (see stretch_of). */
	r->last = to_track_end ? straight : rs_layout_track_last_lba_of(l, &r->p);
	r->spt = z->spt;
	if (l->slip_skew == RS_SLIP_SKEW_NONE)
		r->base = (uint32_t)((cyl % z->spt * z->cyl_turn + head * z->track_skew +
				      z->first_offset) % z->spt);
	else
		run_fill(l, r);
	r->straight = straight;
	r->track_first = whole_front ? lba - sector : UINT64_MAX;
}

void rs_layout_run_at(const struct rs_layout *l, uint64_t lba, struct rs_track_run *r)
{
	RS_ASSERT(lba < l->capacity_blk);
	/* Outside spare groups the run is worked out afresh without asking
	 * the stretches first: it comes mostly for a random block, which
	 * misses every one, or for a track the walk has not reached, and
	 * from a stretch it would cost about as much. */
	const struct rs_layout_brk *e = brk_search(l, lba);
	const struct rs_layout_zone *z = &l->zones[e->zone];
	if (!z->group_sectors) {
		run_fresh(l, lba, e, z, r);
		return;
	}
	/* A zone with spare groups: the mapping keeps no stretch there, the
	 * track's end is looked up and the sectors past lba are mapped one
	 * by one. */
	map_lba_after(l, lba, &r->p, true);
	r->first = lba;
	r->last = rs_layout_track_last_lba_of(l, &r->p);
	run_fill(l, r);
	r->straight = z->slip_begin == z->slip_end ? r->last : lba;
	r->track_first = UINT64_MAX;
}

void rs_layout_run_next(const struct rs_layout *l, struct rs_track_run *r)
{
	uint64_t lba = r->last + 1;
	const struct rs_layout_zone *z = &l->zones[r->p.zone];
	if (!plain_zone(z) || lba >= z->first_lba + z->lba_count) {
		rs_layout_run_at(l, lba, r);
		return;
	}
	/* The run ended at its track's last data sector (a run that ends
	 * earlier ends the zone's LBAs, handled above), so lba is the first
	 * sector of the next track that holds data: the next head, or head 0
	 * of the next cylinder once this one's data (per-cylinder spares
	 * excluded) is used up. */
	uint32_t head = r->p.head + 1;
	if ((uint64_t)head * z->spt < z->data_per_cyl) {
		r->p.head = head;
	} else {
		r->p.cyl++;
		r->p.head = 0;
	}
	r->p.sector = 0;
	r->first = lba;
	r->last = rs_layout_track_last_lba_of(l, &r->p);
	run_fill(l, r);
	r->straight = r->last;
	r->track_first = lba;  /* sector 0 holds it */
}

uint32_t rs_layout_run_sector_mapped(const struct rs_layout *l, const struct rs_track_run *r,
				     uint64_t lba)
{
	RS_ASSERT(lba >= r->first && lba <= r->last);
	/* Past a slip the sectors are moved on. */
	if (lba <= r->straight)
		return r->p.sector + (uint32_t)(lba - r->first);
	struct rs_phys q;
	rs_layout_lba_to_phys(l, lba, &q);
	return q.sector;
}
