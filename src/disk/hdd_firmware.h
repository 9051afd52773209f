/* The firmware rules DiskSim's validated drives describe, beyond the
 * plain drive model: each is opted into by its own model key, and a model
 * that sets none of them behaves exactly as before.
 *
 *   overheads      command overheads that depend on hit or miss and on the
 *                  previous command (DiskSim's "Read hit over. after
 *                  read" ... "Write miss over. after write");
 *   prefetch       how far read-ahead runs past a read (DiskSim's "Buffer
 *                  continuous read"): `fixed` is raidsim's read_ahead
 *                  bytes; the others follow the track layout;
 *   read_any_free  a read miss also keeps the sectors of its first track
 *                  that pass under the head before its own first sector
 *                  (DiskSim's "Read any free blocks").
 *
 * Everything is decided from the parameters at init; the per-command
 * functions are small and allocate nothing. */
#ifndef RS_DISK_HDD_FIRMWARE_H
#define RS_DISK_HDD_FIRMWARE_H

#include <stdbool.h>
#include <stdint.h>

#include "config/diag.h"
#include "config/node.h"
#include "disk/hdd_params.h"
#include "disk/layout.h"
#include "kernel/sim.h"

enum rs_hdd_prefetch {
	RS_PREFETCH_FIXED = 0,        /* read_ahead bytes past the request */
	RS_PREFETCH_NONE,             /* DiskSim 0 */
	RS_PREFETCH_TRACK,            /* DiskSim 1: to the end of the request's last track */
	RS_PREFETCH_CYLINDER,         /* DiskSim 2: to the end of its cylinder */
	RS_PREFETCH_SEGMENT,          /* DiskSim 3: until the segment is full */
	RS_PREFETCH_NEXT_TRACK,       /* DiskSim 4: to the end of the track after the
				       * request; one track more once the segment's
				       * data reaches back before that track */
};

extern const char *const rs_hdd_prefetch_names[];

/* Which overhead a command pays. */
enum rs_hdd_cmd_kind { RS_CMD_READ_HIT = 0, RS_CMD_READ_MISS, RS_CMD_WRITE_HIT, RS_CMD_WRITE_MISS };

struct rs_hdd_fw {
	bool by_previous;             /* `overheads:` given */
	rs_time_t ovh[4][2];          /* [kind][previous command was a write] */
	int prefetch;                 /* enum rs_hdd_prefetch */
	uint64_t ra_min_blk, ra_max_blk;  /* track/cylinder/segment modes; max 0 = none */
	uint64_t ra_fixed_blk;        /* fixed mode */
	bool read_any_free;
	bool keep_request;            /* read-ahead may not push the request out */
};

/* From bound params (`node`: the device's section, for diagnostics); the
 * fixed read-ahead is given already capped by the segment size.  0, or -1
 * with d set. */
int rs_hdd_fw_init(struct rs_hdd_fw *fw, const struct rs_hdd_params *p, uint64_t ra_fixed_blk,
		   const struct rs_node *node, struct rs_diag *d);

/* The overhead of a command of `kind` after a read (prev_write false) or a
 * write.  Without `overheads:` the plain keys answer, as before. */
static inline rs_time_t rs_hdd_fw_overhead(const struct rs_hdd_fw *fw, enum rs_hdd_cmd_kind kind,
					   bool prev_write, rs_time_t plain)
{
	return fw->by_previous ? fw->ovh[kind][prev_write] : plain;
}

/* Where read-ahead stops (exclusive) after a read of [lba, lba+nblk) whose
 * segment holds data from seg_from; never past cap nor more than a
 * segment (seg_blk) past the request, since a segment fills like a ring
 * behind the host -- or, with keep_request, more than a segment past
 * the request's first block, since the requested blocks must stay.  Fixed mode keeps raidsim's rule: end + read_ahead
 * (given capped by the segment), capped at the capacity. */
uint64_t rs_hdd_fw_ra_limit(const struct rs_hdd_fw *fw, const struct rs_layout *l,
			    uint64_t seg_from, uint64_t lba, uint32_t nblk, uint64_t cap,
			    uint64_t seg_blk);

/* The helpers the rules share, inline for the rules from a run below. */
static inline uint64_t rs_hdd_fw_min(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t rs_hdd_fw_max(uint64_t a, uint64_t b) { return a > b ? a : b; }
/* The first LBA on lba's track (at p). */
static inline uint64_t rs_hdd_fw_track_first(const struct rs_layout *l, uint64_t lba,
					     const struct rs_phys *p)
{
	uint64_t cand = lba - rs_hdd_fw_min(p->sector, lba);
	uint64_t last = rs_layout_track_last_lba(l, cand);
	/* Slips on the track put cand on the track before: start after it. */
	return last < lba ? last + 1 : cand;
}
/* How far a segment can take data: it fills like a ring behind the host, a
 * segment ahead of the request's end; when the requested blocks must stay,
 * a segment from the request's first block (never short of the request). */
static inline uint64_t rs_hdd_fw_ring_end(const struct rs_hdd_fw *fw, uint64_t lba,
					  uint64_t end, uint64_t seg_blk)
{
	if (!fw->keep_request)
		return end + seg_blk;
	return rs_hdd_fw_max(lba + seg_blk, end);
}
/* Blocks that pass in a wait of rot_ns, at most `behind` and `room`. */
static inline uint64_t rs_hdd_fw_free_in(double period_ns, uint32_t spt, rs_time_t rot_ns,
					 uint64_t behind, uint64_t room)
{
	double sector_ns = period_ns / spt;
	uint64_t passed = (uint64_t)((double)rot_ns / sector_ns);
	return rs_hdd_fw_min(rs_hdd_fw_min(passed, behind), room);
}

/* A read's first block as the mechanism has already mapped it: its run
 * (rs_layout_run_at(lba), so run->first is lba) and, once asked for, the
 * first LBA of its track (UINT64_MAX until then).  Both rules below then
 * take what they need of its track from it instead of mapping again. */
struct rs_hdd_fw_at {
	const struct rs_track_run *run;
	uint64_t track_first;
};
static inline void rs_hdd_fw_at_init(struct rs_hdd_fw_at *at, const struct rs_track_run *run)
{
	at->run = run;
	at->track_first = run->track_first;  /* UINT64_MAX: worked out on first use */
}
/* The first LBA of at's track, worked out on first use. */
static inline uint64_t rs_hdd_fw_at_track_first(const struct rs_layout *l,
						struct rs_hdd_fw_at *at)
{
	if (at->track_first == UINT64_MAX)
		at->track_first = rs_hdd_fw_track_first(l, at->run->first, &at->run->p);
	return at->track_first;
}
/* rs_hdd_fw_ra_limit(fw, l, seg_from, at->run->first, nblk, cap, seg_blk),
 * the same answer.  Inline, as the next rule: every read miss asks both. */
static inline uint64_t rs_hdd_fw_ra_limit_at(const struct rs_hdd_fw *fw,
					     const struct rs_layout *l, struct rs_hdd_fw_at *at,
					     uint64_t seg_from, uint32_t nblk, uint64_t cap,
					     uint64_t seg_blk)
{
	const struct rs_track_run *r = at->run;
	uint64_t lba = r->first, end = lba + nblk;
	/* The rule of the next track, for a request whose next block lies on
	 * the run's straight part (on its track, no slip between): that
	 * track's end is the run's, and its first LBA is lba's -- track_first
	 * starts from the same candidate, end - its sector being lba - its
	 * own, and compares it with lba or end, both on the track. */
	if (fw->prefetch != RS_PREFETCH_NEXT_TRACK || end >= cap || end > r->straight)
		return rs_hdd_fw_ra_limit(fw, l, seg_from, lba, nblk, cap, seg_blk);
	uint64_t limit = r->last + 1;
	if (seg_from < rs_hdd_fw_at_track_first(l, at))
		limit += r->spt;
	return rs_hdd_fw_min(rs_hdd_fw_min(limit, cap), rs_hdd_fw_ring_end(fw, lba, end, seg_blk));
}

/* Read any free blocks: how many blocks just below lba, on lba's own track,
 * pass under the head during a rotational wait of rot_ns (the whole
 * sectors that pass fully), at most `room`. */
uint64_t rs_hdd_fw_free_behind(const struct rs_layout *l, double period_ns, uint64_t lba,
			       rs_time_t rot_ns, uint64_t room);
/* The same for at->run->first, the same answer. */
static inline uint64_t rs_hdd_fw_free_behind_at(const struct rs_layout *l, double period_ns,
						struct rs_hdd_fw_at *at, rs_time_t rot_ns,
						uint64_t room)
{
	return rs_hdd_fw_free_in(period_ns, at->run->spt, rot_ns,
				 at->run->first - rs_hdd_fw_at_track_first(l, at), room);
}

#endif
