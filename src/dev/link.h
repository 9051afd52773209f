/* A link: anything that moves bytes at a rate (PCI bus, ATA channel, SATA
 * link, an Ethernet direction, a flash channel, DMI).
 *
 * A transfer is cut into transactions of at most `burst` bytes; each holds
 * the link for `overhead + bytes / rate`, so small transfers pay more than
 * their bytes and a shared link caps the sum of its users.  Waiting
 * transfers take turns burst by burst (round-robin arbitration, as a PCI
 * or ATA bus grants one master at a time).  A full-duplex link has an
 * independent channel per direction; a half-duplex one shares one.  A link
 * can be taken down (its transfers fail with -RS_ERR_ELINKDOWN) and up. */
#ifndef RS_DEV_LINK_H
#define RS_DEV_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "dev/job.h"
#include "kernel/sim.h"
#include "stats/tavg.h"

enum rs_dir { RS_DIR_OUT = 0, RS_DIR_IN = 1 };  /* OUT: host to device (write data) */

struct rs_link_params {
	double rate_bytes_s;          /* payload rate of one direction */
	rs_time_t overhead_ns;        /* per transaction (arbitration, framing, handshake) */
	uint64_t burst_bytes;         /* largest transaction; 0 = whole transfer at once */
	bool full_duplex;
};

struct rs_link_channel {
	/* The channel's own job, for a transfer that finds it idle (the
	 * common case). */
	struct rs_job_own own;
	/* A second, for a transfer that finds the channel busy with the own
	 * job taken and waits in line (a SCSI bus shared by several drives):
	 * it needs none from the sim's pool either. */
	struct rs_job_own second;
	struct rs_jobq waiting;
	struct rs_job *cur;           /* transfer holding the channel */
	uint64_t cur_bytes;           /* bytes the running transaction(s) move */
	struct rs_event_handle ev;    /* end of the running transaction(s); stale while !cur */
	rs_time_t batch_start;        /* when a lone transfer started its batch */
	uint64_t batch_bursts;        /* >1: several bursts planned as one event */
	struct rs_tavg busy;          /* its level is not kept: busy while cur is set */
	uint64_t bytes_moved;
	uint64_t transactions;
};

/* Priority arbitration (a SCSI bus): who a transfer is for, and its rank. */
struct rs_link_arb {
	const void *obj;              /* the transfer's obj (rs_link_xfer) */
	int dir;                      /* enum rs_dir, or -1: either direction */
	int prio;                     /* higher wins */
};

struct rs_link {
	const char *name;
	struct rs_link_params p;
	double rate_out_bytes_s;      /* > 0: host-to-device rate, when not p.rate_bytes_s */
	bool up;
	struct rs_link_channel ch[2]; /* [0] OUT (or both if half duplex), [1] IN */
	/* Where in ch each direction's channel lies, in bytes: finding it
	 * is then one load and an add on every transfer (an offset, not a
	 * pointer, so the link stays a plain value). */
	uint32_t ch_offset[2];
	/* The time of one full burst in each direction, worked out again by
	 * init and the two rate setters, the only writers of the rates after
	 * the parameters are given: a transfer of several bursts reads it. */
	rs_time_t burst_ns[2];
	/* The rate of each direction: rate_out_bytes_s for OUT when it is
	 * set, else p.rate_bytes_s; kept by the same three, so a transfer
	 * divides by it without asking which applies. */
	double rate_dir[2];
	uint64_t failed;              /* transfers failed by the link being down */
	/* Priority arbitration when narb > 0: at each burst boundary the
	 * waiting transfer of the highest rank goes next (the oldest among
	 * equals; an obj not listed ranks lowest), instead of round-robin. */
	struct rs_link_arb *arb;      /* allocated by rs_link_add_priority */
	uint32_t narb;
	uint32_t targets;             /* SCSI IDs handed out on this bus (ctrl/port.c) */
};

void rs_link_init(struct rs_link *l, const char *name, const struct rs_link_params *p,
		  rs_time_t now);
/* Move `bytes` in direction `dir`; fn(sim, obj, arg, status) when done. */
void rs_link_xfer(struct rs_sim *sim, struct rs_link *l, enum rs_dir dir, uint64_t bytes,
		  rs_job_fn *fn, void *obj, void *arg);
/* Down: fail everything queued or moving, and every later transfer until up. */
void rs_link_set_up(struct rs_sim *sim, struct rs_link *l, bool up);
/* The payload rate after init (a drive slowing a shared bus to its own
 * interface): the rate and the time of a full burst, which the link keeps
 * per direction, follow it at once.  The only way to change a rate after
 * init: a write into p.rate_bytes_s would not be seen. */
void rs_link_set_rate(struct rs_link *l, double rate_bytes_s);
/* A host-to-device rate of its own (a SCSI bus whose write blocks take
 * longer than its read blocks); 0 goes back to the one rate. */
void rs_link_set_rate_out(struct rs_link *l, double rate_bytes_s);
/* Rank the transfers of obj in direction dir (-1: both) at prio; turns
 * the link to priority arbitration (set up before the run). */
void rs_link_add_priority(struct rs_link *l, const void *obj, int dir, int prio);
/* Free what rs_link_add_priority allocated. */
void rs_link_destroy(struct rs_link *l);
/* Time one transaction of `bytes` holds the link (device to host). */
rs_time_t rs_link_transaction_ns(const struct rs_link *l, uint64_t bytes);
/* Fraction of time busy since the last restart, per direction (0 or 1). */
double rs_link_utilisation(const struct rs_link *l, enum rs_dir dir, rs_time_t now);
void rs_link_restart_stats(struct rs_link *l, rs_time_t now);
/* True when nothing is queued or moving. */
bool rs_link_idle(const struct rs_link *l);

#endif
