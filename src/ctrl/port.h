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
 * A port is one drive on a channel.  Its request waits in the channel
 * queue, crosses the host bus (writes before the command, reads after the
 * drive returns the data) unless the data stays on the card, and reaches
 * the drive; a drive with a use_link operation (hdd, ssd) moves its
 * interface data over the channel link itself, any other device has the
 * port move it. */
#ifndef RS_CTRL_PORT_H
#define RS_CTRL_PORT_H

#include <stdbool.h>

#include "dev/dev.h"
#include "dev/ioq.h"
#include "dev/link.h"

struct rs_channel {
	char name[32];
	bool has_link;                /* false: the interface is not modelled */
	struct rs_link link;
	struct rs_ioq q;              /* commands waiting for, and holding, a tag */
	uint64_t elevator_lba;        /* the elevator policy's position */
	bool bus_overlap;             /* host-bus data moves while the drive works */
	uint64_t commands;            /* dispatched to a drive, whole run */
};

void rs_channel_init(struct rs_channel *ch, const char *name, const struct rs_link_params *lp,
		     uint32_t tags, bool elevator, rs_time_t now);

/* Wrap `member` in a port on `ch`.  host_bus is the link the port's data
 * crosses, or NULL when it does not (data kept on the card).  The port
 * owns the member from now on. */
struct rs_dev *rs_port_wrap(struct rs_dev *member, struct rs_channel *ch,
			    struct rs_link *host_bus, size_t index, rs_time_t now);

/* The drive behind a port, or dev itself if it is not a port. */
struct rs_dev *rs_port_member(struct rs_dev *dev);

#endif
