/* Which copy of a mirrored extent serves a read.
 *
 * Sequential streams first: unless sequential_balance is set, a read that
 * starts where a recent read on one of the copies ended goes to that copy.
 * The Promise FastTrak drivers behave this way (random reads alternate
 * over the halves even one at a time, sequential ones are never
 * interleaved), and it is what keeps each copy's read-ahead useful.
 * Everything else follows read_policy (raid/mirror_pick.h lists the
 * variants); the rotation counter sits on the group's primary member, so
 * with all queues empty (QD1) reads can still alternate. */
#include "raid/volume_priv.h"

#include "kernel/assert.h"
#include "raid/mirror_pick.h"

/* The copy holding a stream that reaches lba, or -1; *slot gets the
 * matching stream entry. */
static int find_stream(const struct array *a, const uint32_t *copies, size_t n, uint64_t lba,
		       uint32_t *slot)
{
	for (size_t i = 0; i < n; i++) {
		const struct member_state *ms = &a->ms[copies[i]];
		for (uint32_t s = 0; s < STREAMS_PER_MEMBER; s++) {
			if (ms->stream_end[s] == lba) {
				*slot = s;
				return (int)i;
			}
		}
	}
	return -1;
}

/* The copies' state as the policy sees it. */
static size_t by_policy(struct array *a, const uint32_t *copies, size_t n, uint64_t lba)
{
	struct rs_mirror_copy view[RS_RAID_MAX_MEMBERS];
	for (size_t i = 0; i < n; i++)
		view[i] = (struct rs_mirror_copy){ a->ms[copies[i]].head_lba,
						   a->ms[copies[i]].outstanding, a->g.member_blk };
	return rs_mirror_pick(a->p.read_policy, view, n, lba, &a->ms[copies[0]].rr);
}

uint32_t array_pick_copy(struct array *a, const struct rs_raid_extent *e)
{
	uint32_t copies[RS_RAID_MAX_MEMBERS];
	copies[0] = e->member;
	size_t n = 1 + rs_raid_mirrors(&a->g, e->member, copies + 1, RS_RAID_MAX_MEMBERS - 1);
	uint32_t slot = 0;
	int i = -1;
	if (n > 1 && !a->p.sequential_balance)
		i = find_stream(a, copies, n, e->member_lba, &slot);
	uint32_t m;
	struct member_state *ms;
	if (i >= 0) {
		m = copies[i];
		ms = &a->ms[m];
		a->c.stream_reads++;
	} else {
		m = n > 1 ? copies[by_policy(a, copies, n, e->member_lba)] : copies[0];
		ms = &a->ms[m];
		/* A new stream replaces the oldest one remembered. */
		slot = ms->stream_next;
		ms->stream_next = (ms->stream_next + 1) % STREAMS_PER_MEMBER;
	}
	ms->stream_end[slot] = e->member_lba + e->nblk;
	return m;
}
