/* RAID layout maps: names, geometry validation, mapping, inverse, mirrors
 * and failure tolerance.  Which member holds which strip of a row (parity
 * rotation included) and the write plans live in map_stripe.c. */
#include "raid/map.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel/assert.h"

static const char *const level_names[] = {
#define X(name, str) str,
	RS_RAID_LEVEL_LIST(X)
#undef X
};

static const char *const layout_names[] = {
#define X(name, str) str,
	RS_RAID_LAYOUT_LIST(X)
#undef X
};

const char *rs_raid_level_name(enum rs_raid_level level)
{
	RS_ASSERT((unsigned)level < RS_RAID_LEVEL_COUNT);
	return level_names[level];
}

const char *rs_raid_layout_name(enum rs_raid_layout layout)
{
	RS_ASSERT((unsigned)layout < RS_RAID_LAYOUT_COUNT);
	return layout_names[layout];
}

int rs_raid_level_parse(const char *name, enum rs_raid_level *out)
{
	for (unsigned i = 0; i < RS_RAID_LEVEL_COUNT; i++) {
		if (strcmp(name, level_names[i]) == 0) {
			*out = (enum rs_raid_level)i;
			return 0;
		}
	}
	return -1;
}

int rs_raid_layout_parse(const char *name, enum rs_raid_layout *out)
{
	for (unsigned i = 0; i < RS_RAID_LAYOUT_COUNT; i++) {
		if (strcmp(name, layout_names[i]) == 0) {
			*out = (enum rs_raid_layout)i;
			return 0;
		}
	}
	return -1;
}

bool rs_raid_is_striped(const struct rs_raid_geom *g)
{
	switch (g->level) {
	case RS_RAID_RAID0:
	case RS_RAID_RAID01:
	case RS_RAID_RAID10:
	case RS_RAID_RAID5:
	case RS_RAID_RAID6:
		return true;
	default:
		return false;
	}
}

bool rs_raid_is_mirrored(const struct rs_raid_geom *g)
{
	return g->level == RS_RAID_RAID1 || g->level == RS_RAID_RAID01 ||
	       g->level == RS_RAID_RAID10;
}

bool rs_raid_has_parity(const struct rs_raid_geom *g)
{
	return g->level == RS_RAID_RAID5 || g->level == RS_RAID_RAID6;
}

uint32_t rs_raid_ncopies(const struct rs_raid_geom *g)
{
	switch (g->level) {
	case RS_RAID_RAID1:
		return g->nmembers;
	case RS_RAID_RAID01:
	case RS_RAID_RAID10:
		return 2;
	default:
		return 1;
	}
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Smallest and largest member count for a level. */
static void member_range(enum rs_raid_level level, uint32_t *lo, uint32_t *hi)
{
	*hi = RS_RAID_MAX_MEMBERS;
	switch (level) {
	case RS_RAID_SINGLE:
		*lo = *hi = 1;
		break;
	case RS_RAID_RAID1:
		*lo = 2;
		break;
	case RS_RAID_RAID01:
	case RS_RAID_RAID10:
		*lo = 4;
		break;
	case RS_RAID_RAID5:
		*lo = 3;
		break;
	case RS_RAID_RAID6:
		*lo = 4;
		break;
	default:
		*lo = 1;
		break;
	}
}

int rs_raid_geom_init(struct rs_raid_geom *g, enum rs_raid_level level,
		      enum rs_raid_layout layout, uint32_t nmembers, uint32_t strip_blk,
		      const uint64_t *member_blk, char *err, size_t errlen)
{
	memset(g, 0, sizeof(*g));
	if ((unsigned)level >= RS_RAID_LEVEL_COUNT)
		return fail(err, errlen, "unknown RAID level %d", (int)level);
	const char *name = level_names[level];
	if ((unsigned)layout >= RS_RAID_LAYOUT_COUNT)
		return fail(err, errlen, "%s: unknown parity layout %d", name, (int)layout);
	uint32_t lo, hi;
	member_range(level, &lo, &hi);
	if (nmembers < lo || nmembers > hi) {
		if (lo == hi)
			return fail(err, errlen, "%s needs exactly %u member%s, got %u", name,
				    lo, lo == 1 ? "" : "s", nmembers);
		return fail(err, errlen, "%s needs %u to %u members, got %u", name, lo, hi,
			    nmembers);
	}
	if ((level == RS_RAID_RAID01 || level == RS_RAID_RAID10) && nmembers % 2)
		return fail(err, errlen, "%s needs an even number of members, got %u", name,
			    nmembers);
	if (!member_blk)
		return fail(err, errlen, "%s: no member sizes", name);
	uint64_t min_blk = UINT64_MAX, max_blk = 0;
	for (uint32_t m = 0; m < nmembers; m++) {
		if (member_blk[m] == 0)
			return fail(err, errlen, "%s: member %u has no blocks", name, m);
		if (member_blk[m] < min_blk)
			min_blk = member_blk[m];
		if (member_blk[m] > max_blk)
			max_blk = member_blk[m];
	}

	g->level = level;
	g->layout = layout;
	g->nmembers = nmembers;
	if (!rs_raid_is_striped(g)) {
		if (level == RS_RAID_JBOD) {
			uint64_t start = 0;
			for (uint32_t m = 0; m < nmembers; m++) {
				if (member_blk[m] > UINT64_MAX - start)
					return fail(err, errlen, "jbod: capacity overflows");
				g->jbod_blk[m] = member_blk[m];
				g->jbod_start[m] = start;
				start += member_blk[m];
			}
			g->member_blk = max_blk;
			g->capacity_blk = start;
		} else {
			g->member_blk = min_blk;
			g->capacity_blk = min_blk;
		}
		return 0;
	}

	if (strip_blk < RS_RAID_STRIP_MIN_BLK || strip_blk > RS_RAID_STRIP_MAX_BLK)
		return fail(err, errlen,
			    "%s: strip of %u blocks outside %u..%u (4 KiB to 1 MiB)", name,
			    strip_blk, RS_RAID_STRIP_MIN_BLK, RS_RAID_STRIP_MAX_BLK);
	if (min_blk < strip_blk)
		return fail(err, errlen,
			    "%s: smallest member (%llu blocks) holds less than one strip "
			    "(%u blocks)", name, (unsigned long long)min_blk, strip_blk);
	switch (level) {
	case RS_RAID_RAID0:
		g->ndata = nmembers;
		break;
	case RS_RAID_RAID01:
	case RS_RAID_RAID10:
		g->ndata = nmembers / 2;
		break;
	case RS_RAID_RAID5:
		g->ndata = nmembers - 1;
		break;
	case RS_RAID_RAID6:
		g->ndata = nmembers - 2;
		break;
	default:
		RS_UNREACHABLE();
	}
	g->strip_blk = strip_blk;
	g->rows = min_blk / strip_blk;
	g->member_blk = g->rows * strip_blk;
	/* At most 64 * 2048 blocks: fits easily. */
	g->row_data_blk = g->ndata * strip_blk;
	if (g->rows > UINT64_MAX / g->row_data_blk)
		return fail(err, errlen, "%s: capacity overflows", name);
	g->capacity_blk = g->rows * g->row_data_blk;
	return 0;
}

size_t rs_raid_map_max_extents(const struct rs_raid_geom *g, uint32_t nblk)
{
	if (nblk == 0)
		return 0;
	if (rs_raid_is_striped(g))
		/* A run of nblk blocks crosses at most ceil((nblk-1)/strip)
		 * strip boundaries. */
		return 1 + ((size_t)nblk - 1 + g->strip_blk - 1) / g->strip_blk;
	if (g->level == RS_RAID_JBOD)
		return g->nmembers;
	return 1;
}

/* JBOD member holding array block lba: the last one starting at or before
 * it.  Binary search, since members may be many and sizes arbitrary. */
static uint32_t jbod_member(const struct rs_raid_geom *g, uint64_t lba)
{
	uint32_t lo = 0, hi = g->nmembers - 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo + 1) / 2;
		if (g->jbod_start[mid] <= lba)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

size_t rs_raid_map(const struct rs_raid_geom *g, uint64_t lba, uint32_t nblk,
		   struct rs_raid_extent *out, size_t max_out)
{
	RS_ASSERT(lba <= g->capacity_blk && nblk <= g->capacity_blk - lba);
	size_t n = 0;
	uint64_t pos = lba, end = lba + nblk;
	while (pos < end) {
		struct rs_raid_extent e;
		uint64_t room;            /* blocks left in this strip/member */
		if (rs_raid_is_striped(g)) {
			uint64_t row = pos / g->row_data_blk;
			uint32_t in_row = (uint32_t)(pos % g->row_data_blk);
			uint32_t d = in_row / g->strip_blk;
			uint32_t off = in_row % g->strip_blk;
			e.member = rs_raid_data_member(g, row, d);
			e.member_lba = row * g->strip_blk + off;
			e.stripe = row;
			e.strip_in_row = d;
			room = g->strip_blk - off;
		} else if (g->level == RS_RAID_JBOD) {
			uint32_t m = jbod_member(g, pos);
			e.member = m;
			e.member_lba = pos - g->jbod_start[m];
			e.stripe = 0;
			e.strip_in_row = 0;
			room = g->jbod_blk[m] - e.member_lba;
		} else {
			e.member = 0;
			e.member_lba = pos;
			e.stripe = 0;
			e.strip_in_row = 0;
			room = end - pos;
		}
		e.array_lba = pos;
		e.nblk = (uint32_t)(end - pos < room ? end - pos : room);
		if (n < max_out)
			out[n] = e;
		n++;
		pos += e.nblk;
	}
	return n;
}

size_t rs_raid_mirrors(const struct rs_raid_geom *g, uint32_t member, uint32_t *out,
		       size_t max_out)
{
	RS_ASSERT(member < g->nmembers);
	size_t n = 0;
#define PUT(m)                                                              \
	do {                                                                \
		if (n < max_out)                                            \
			out[n] = (m);                                       \
		n++;                                                        \
	} while (0)
	switch (g->level) {
	case RS_RAID_RAID1:
		for (uint32_t m = 0; m < g->nmembers; m++)
			if (m != member)
				PUT(m);
		break;
	case RS_RAID_RAID10:
		PUT(member ^ 1u);
		break;
	case RS_RAID_RAID01: {
		uint32_t h = g->nmembers / 2;
		PUT(member < h ? member + h : member - h);
		break;
	}
	default:
		break;
	}
#undef PUT
	return n;
}

int rs_raid_unmap(const struct rs_raid_geom *g, uint32_t member, uint64_t member_lba,
		  uint64_t *array_lba)
{
	RS_ASSERT(member < g->nmembers);
	switch (g->level) {
	case RS_RAID_JBOD:
		if (member_lba >= g->jbod_blk[member])
			return -1;
		*array_lba = g->jbod_start[member] + member_lba;
		return 0;
	case RS_RAID_SINGLE:
	case RS_RAID_RAID1:
		if (member_lba >= g->member_blk)
			return -1;
		*array_lba = member_lba;
		return 0;
	default:
		break;
	}
	if (member_lba >= g->member_blk)
		return -1;
	uint64_t row = member_lba / g->strip_blk;
	uint32_t off = (uint32_t)(member_lba % g->strip_blk);
	int d = rs_raid_data_index(g, row, member);
	if (d < 0)
		return -1;
	*array_lba = row * g->row_data_blk + (uint64_t)d * g->strip_blk + off;
	return 0;
}

bool rs_raid_survives(const struct rs_raid_geom *g, uint64_t failed_mask)
{
	uint64_t all = g->nmembers == 64 ? UINT64_MAX : (UINT64_C(1) << g->nmembers) - 1;
	failed_mask &= all;
	int nfailed = __builtin_popcountll(failed_mask);
	switch (g->level) {
	case RS_RAID_JBOD:
	case RS_RAID_SINGLE:
	case RS_RAID_RAID0:
		return nfailed == 0;
	case RS_RAID_RAID1:
		return failed_mask != all;
	case RS_RAID_RAID10:
		for (uint32_t m = 0; m < g->nmembers; m += 2)
			if (((failed_mask >> m) & 3u) == 3u)
				return false;
		return true;
	case RS_RAID_RAID01: {
		uint32_t h = g->nmembers / 2;
		uint64_t half0 = (UINT64_C(1) << h) - 1;
		uint64_t half1 = half0 << h;
		return (failed_mask & half0) == 0 || (failed_mask & half1) == 0;
	}
	case RS_RAID_RAID5:
		return nfailed <= 1;
	case RS_RAID_RAID6:
		return nfailed <= 2;
	default:
		RS_UNREACHABLE();
	}
}
