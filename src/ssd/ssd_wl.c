/* Static wear levelling.  Garbage collection wears the blocks that hot
 * data cycles through; a block holding data nobody rewrites is never a
 * victim and keeps its erase count while the others climb.  When a die's
 * spread (its most-worn block's erase count minus that of its least-worn
 * block holding data) passes wear_level_spread, the die moves that cold
 * block's valid units out through the collector's own copy path, into
 * the GC frontier, which then opens the most-worn free block
 * (ftl_track_wear), and erases it, so the little-worn block joins the
 * free pool for hot data.
 *
 * It is background work, like collection done ahead of need: a die starts
 * it only when idle and with free blocks at gc_high or more (so a move
 * never competes with the host for space), each copy waits for an idle
 * controller, and a host read takes the die back between pages.  Once
 * started the block is the die's victim until erased, so collection the
 * host makes urgent finishes it first (it frees a block like any victim).
 * The spread is looked at again only after the die erases a block, the
 * one event that can change it. */
#include "ssd/ssd_priv.h"

bool ssd_wl_step(struct rs_sim *sim, struct ssd *s, struct flash_die *die)
{
	if (!s->p.wl_spread || !die->wl_due || die->victim != FTL_NONE ||
	    s->ftl.die[die->index].nfree < s->p.gc_high)
		return false;
	die->wl_due = false;
	uint32_t spread;
	uint32_t cold = ftl_coldest_full(&s->ftl, die->index, &spread);
	if (cold == FTL_NONE || spread <= s->p.wl_spread)
		return false;
	s->ftl.state[cold] = FTL_BLK_VICTIM;
	die->victim = cold;
	die->victim_scan = 0;
	die->victim_wl = true;
	die->gc_ratio = 0;
	if (!s->c.wl_victims++ || spread < s->c.wl_least_spread)
		s->c.wl_least_spread = spread;
	return ssd_gc_step(sim, s, die, true);
}
