/* Which copy of a mirror serves a random read: the read_policy family.
 *
 *   primary            always the primary copy;
 *   alternate          the copies in turn, per mirror group;
 *   shortest-queue     the copy with the fewest operations outstanding,
 *                      ties taken in turn;
 *   nearest-head       the copy whose head will be nearest the extent (the
 *                      end of the last operation sent to it: where the head
 *                      goes once its queue drains), then the shorter queue,
 *                      then in turn;
 *   alternate-nearest  in turn while every copy is idle, nearest-head as
 *                      soon as one is busy;
 *   alternate-queue    in turn while every copy is idle, otherwise the
 *                      shorter queue, ties to the nearer head;
 *   alternate-split    in turn while every copy is idle, otherwise the copy
 *                      that owns the part of the address range the read
 *                      falls in (copy i of n owns the i-th n-th of it).
 *
 * The last two are what host-RAID drivers of the early 2000s are described
 * as doing: with nothing outstanding a driver cannot know where a head is
 * parked better than "where it last went", and alternating keeps both
 * halves' read-ahead and wear even; with work queued it has something to
 * compare.  The split variant is the partitioned mirror of the disk
 * shadowing literature (Bitton and Gray, 1988): each copy's head stays in
 * its own part of the stroke, which shortens random-read seeks more than
 * picking the nearer head does (1/6 of the stroke on average for two
 * copies against 5/24), as long as writes, which move every head, are few.
 * The choice is a pure function of the copies' state, so it is
 * unit-tested on its own. */
#ifndef RS_RAID_MIRROR_PICK_H
#define RS_RAID_MIRROR_PICK_H

#include <stddef.h>
#include <stdint.h>

enum read_policy {
	READ_PRIMARY,
	READ_ALTERNATE,
	READ_SHORTEST_QUEUE,
	READ_NEAREST_HEAD,
	READ_ALTERNATE_NEAREST,
	READ_ALTERNATE_QUEUE,
	READ_ALTERNATE_SPLIT,
};

/* What the picker may look at of one copy. */
struct rs_mirror_copy {
	uint64_t head_lba;            /* where the last operation sent leaves the head */
	uint32_t outstanding;         /* operations sent and not yet done */
	uint64_t span;                /* blocks the copy holds (alternate-split's range;
					 0: unknown, and it picks the nearer head) */
};

/* Index (0..n-1) of the copy that reads lba under policy; *turn is the
 * group's rotation counter, advanced on every pick so that ties and the
 * idle case go round the copies.  n >= 1. */
size_t rs_mirror_pick(int policy, const struct rs_mirror_copy *copy, size_t n, uint64_t lba,
		      uint32_t *turn);

#endif
