/* Disk schedulers: which queued media access goes next when the head is
 * free.
 *
 *   fcfs   oldest first;
 *   sstf   shortest cylinder distance from the head;
 *   clook  next cylinder at or beyond the head, wrapping to the lowest;
 *   sptf   earliest media start: seek + rotation from the head's actual
 *          state, through rs_hdd_mech_position(), the function the
 *          mechanics charge with.
 * With aging on, anything that has waited longer than `aging_ns` goes
 * first, oldest first.  Ties go to the older candidate.
 *
 * The same ordering serves host commands (through rs_ioq policies, see
 * rs_hdd_sched_policy) and dirty extents waiting to be destaged. */
#ifndef RS_DISK_HDD_SCHED_H
#define RS_DISK_HDD_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "dev/ioq.h"
#include "disk/hdd_mech.h"
#include "disk/hdd_params.h"
#include "kernel/assert.h"

/* What the drive keeps about one command it holds, each field with one
 * meaning.  The scheduler maps a queued command's first block once, on the
 * first pick that weighs it among others (rs_hdd_mech_target), so a
 * command waiting through many dispatches is mapped once; the rest is the
 * drive's (hdd.c) progress through the command's data phases. */
struct rs_hdd_cmd {
	struct rs_hdd_target tgt;
	bool mapped;                  /* tgt holds this command's target */
	uint8_t step;                 /* the transfer its opened data phase makes */
	uint8_t read;                 /* a read's progress: hdd.c's READ_* bits */
	bool kept_bus;                /* it kept the bus after its command */
};

struct rs_hdd_sched {
	int policy;                   /* enum rs_hdd_sched_policy */
	rs_time_t aging_ns;
	uint32_t window;              /* candidates weighed, oldest first; 0 = all */
	const struct rs_hdd_mech *mech;
	rs_time_t overhead_ns[2];     /* firmware cost before a read / write seeks */
	/* The last pick's prediction, for the mechanics to check against. */
	struct rs_hdd_pos predicted;
	/* Set when the pick weighed a single command through the reference
	 * rs_hdd_mech_position: `predicted` is then exactly what positioning
	 * predicted_io at predicted_at gives, and rs_hdd_sched_position hands
	 * it back instead of positioning the command a second time. */
	bool predicted_exact;
	const struct rs_io *predicted_io;
	rs_time_t predicted_at;
	/* The commands the drive holds, one slot per tag (see struct
	 * rs_hdd_cmd): io->at.hdd.slot is the slot + 1 from rs_hdd_sched_hold to
	 * rs_hdd_sched_drop, and means nothing else in the drive. */
	struct rs_hdd_cmd *cmd;
	uint32_t *free_cmd;           /* stack of free slots */
	uint32_t ncmd, nfree;
};

struct rs_hdd_cand {
	uint64_t lba;
	uint32_t nblk;
	bool is_write;
	rs_time_t arrived_ns;
	rs_time_t overhead_ns;
};

struct rs_hdd_key {
	int aged;                     /* 0 = aged (goes first) */
	double primary;
	rs_time_t arrived_ns;
	uint64_t lba;
};

/* The key of a candidate as seen at `now`; pos is filled (for SPTF and
 * for the record). */
void rs_hdd_sched_key(const struct rs_hdd_sched *s, rs_time_t now,
		      const struct rs_hdd_cand *c, struct rs_hdd_key *key,
		      struct rs_hdd_pos *pos);
bool rs_hdd_key_less(const struct rs_hdd_key *a, const struct rs_hdd_key *b);

/* Room for up to n held commands; rs_hdd_sched_destroy frees it. */
void rs_hdd_sched_init_cmds(struct rs_hdd_sched *s, uint32_t n);
void rs_hdd_sched_destroy(struct rs_hdd_sched *s);
/* The drive takes io in: io gets a slot (io->at.hdd.slot), its context
 * starts blank.  A slot must be free (the drive's tags bound what it holds). */
static inline struct rs_hdd_cmd *rs_hdd_sched_hold(struct rs_hdd_sched *s, struct rs_io *io)
{
	RS_ASSERT(s->nfree > 0);
	uint32_t i = s->free_cmd[--s->nfree];
	io->at.hdd.slot = i + 1;
	struct rs_hdd_cmd *c = &s->cmd[i];
	c->mapped = false;
	c->step = 0;
	c->read = 0;
	c->kept_bus = false;
	return c;
}
/* io leaves the drive: its slot is free again and io->at.hdd.slot is 0. */
static inline void rs_hdd_sched_drop(struct rs_hdd_sched *s, struct rs_io *io)
{
	RS_ASSERT(io->at.hdd.slot > 0 && io->at.hdd.slot <= s->ncmd && s->nfree < s->ncmd);
	s->free_cmd[s->nfree++] = io->at.hdd.slot - 1;
	io->at.hdd.slot = 0;
}
/* The context of a held command. */
static inline struct rs_hdd_cmd *rs_hdd_sched_cmd(const struct rs_hdd_sched *s,
						  const struct rs_io *io)
{
	return &s->cmd[io->at.hdd.slot - 1];
}

/* io positioned at now, as rs_hdd_mech_position with the scheduler's
 * overhead for it: the pick's own result when the pick positioned io alone
 * at now (used once), else worked out afresh into *scratch.  Returns where
 * it is: s->predicted (the pick's, the prediction itself: comparing them
 * would find them equal; valid until the next pick) or scratch.  Inline:
 * start of service asks for every command, and takes the pick's result
 * where it lies instead of a copy. */
static inline const struct rs_hdd_pos *rs_hdd_sched_position_at(struct rs_hdd_sched *s,
								  rs_time_t now,
								  const struct rs_io *io,
								  struct rs_hdd_pos *scratch)
{
	bool w = io->op == RS_WRITE;
	if (s->predicted_exact && s->predicted_io == io && s->predicted_at == now) {
		s->predicted_exact = false;
		return &s->predicted;
	}
	s->predicted_exact = false;
	rs_hdd_mech_position(s->mech, now, s->overhead_ns[w], io->lba, io->nblk, w, scratch);
	return scratch;
}
/* The same into *pos; true when it is the pick's own. */
static inline bool rs_hdd_sched_position(struct rs_hdd_sched *s, rs_time_t now,
					 const struct rs_io *io, struct rs_hdd_pos *pos)
{
	const struct rs_hdd_pos *p = rs_hdd_sched_position_at(s, now, io, pos);
	if (p == pos)
		return false;
	*pos = *p;
	return true;
}

/* The rs_ioq policy for the scheduler (ctx: struct rs_hdd_sched).  The
 * request's drive arrival time is read from io->at.hdd.arrived. */
const struct rs_ioq_policy *rs_hdd_sched_policy(int policy);

#endif
