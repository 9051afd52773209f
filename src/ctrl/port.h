/* Controller ports: the internal device that stands in front of each disk
 * an array builds under a controller.
 *
 * A channel is one cable or link of the controller (a PATA channel with
 * its master and slave, a SATA port): it has the link the drives'
 * interface transfers cross, and one queue with a tag limit for all its
 * drives.  A SATA port lets `queue_depth` commands out to its drive (1 =
 * TCQ/NCQ off); a PATA channel with two drives lets one command out at a
 * time, since without the ATA overlap feature the host serialises
 * commands to master and slave.
 *
 * On a SCSI bus several drives share one link but each has its own queue
 * (a channel of its own whose `bus` is the shared link): see `scsi`.  The
 * bus arbitrates by SCSI ID (rs_link_add_priority): drives take IDs in the
 * order they join, the host adapter is 7, and the highest waiting ID wins.
 *
 * A port is one drive on a channel.  Its request waits in the channel
 * queue, crosses the host bus (writes before the command, reads after the
 * drive returns the data) unless the data stays on the card, and reaches
 * the drive; a drive that takes the channel's link when it is attached
 * (struct rs_dev_attach: hdd, ssd) moves its interface data over it
 * itself, any other device has the port move it. */
#ifndef RS_CTRL_PORT_H
#define RS_CTRL_PORT_H

#include <stdbool.h>

#include "dev/dev.h"
#include "dev/ioq.h"
#include "dev/link.h"

struct rs_channel {
	char name[32];
	bool has_link;                /* false: the interface is not modelled */
	struct rs_link link;          /* the channel's own link (ATA, SATA) */
	/* The link its transfers cross: &link, a SCSI bus it shares with the
	 * other drives on that bus, or NULL. */
	struct rs_link *bus;
	/* SCSI: each command arbitrates for the bus to be sent and again to
	 * return its status, and the drive disconnects in between (seek,
	 * rotation) and reselects to move data, so the bus is held only for
	 * those phases. */
	bool scsi;
	struct rs_ioq q;              /* commands waiting for, and holding, a tag */
	uint64_t last_lba;            /* the queue policy's position (ctrl/hostq.h) */
	bool bus_overlap;             /* host-bus data moves while the drive works */
	/* Scatter-gather: a command's data must fit sg_entries entries of one
	 * host page (sg_page bytes) each -- the host's buffers are contiguous
	 * in physical memory only page by page -- so a longer command goes to
	 * the drive as several.  0 entries: no limit. */
	uint32_t sg_entries;
	uint32_t sg_page;
	uint64_t commands;            /* dispatched to a drive, whole run */
};

/* A channel with its own link (lp, or none when NULL); policy is an enum
 * rs_hostq_policy. */
void rs_channel_init(struct rs_channel *ch, const char *name, const struct rs_link_params *lp,
		     uint32_t tags, int policy, rs_time_t now);
/* A drive's queue on a SCSI bus shared with others. */
void rs_channel_init_scsi(struct rs_channel *ch, const char *name, struct rs_link *bus,
			  uint32_t tags, int policy, rs_time_t now);

/* A drive joins ch: returns its arbitration rank on the channel's SCSI
 * bus (drives take IDs in the order they join), 0 on a channel that is
 * not SCSI.  Once per drive, before it is attached and wrapped. */
int rs_channel_join(struct rs_channel *ch);
/* Wrap `member` in a port on `ch`.  host_bus is the link the port's data
 * crosses, or NULL when it does not (data kept on the card); rank is the
 * drive's from rs_channel_join.  The port owns the member from now on. */
struct rs_dev *rs_port_wrap(struct rs_dev *member, struct rs_channel *ch,
			    struct rs_link *host_bus, size_t index, int rank, rs_time_t now);
/* What the member's attach answered: it moves its data over the channel's
 * link itself (the port then does not).  False until said. */
void rs_port_drive_moves_data(struct rs_dev *port, bool moves);

/* The drive a request waiting in a channel queue is bound for. */
struct rs_dev *rs_port_member_of(const struct rs_io *waiting);

#endif
