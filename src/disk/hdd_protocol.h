/* Command-queuing protocols: what queuing costs on the wire and in the
 * host, per command, beyond a plain (unqueued) command.
 *
 *   ideal     no cost: queuing as an abstraction (the default);
 *   ata-tcq   legacy ATA tagged queuing (READ/WRITE DMA QUEUED), as a
 *             parallel-ATA drive core does it behind a SATA bridge: after
 *             taking a command the drive releases the bus (a register
 *             exchange and an interrupt); when it is ready to move data it
 *             raises SERV and waits until the host notices, issues SERVICE
 *             and reads the tag back (the host's reaction time plus a
 *             register exchange) before the data phase;
 *   ncq       SATA native queuing: the command is acknowledged at once, the
 *             drive opens each data phase itself with a DMA Setup FIS
 *             (first-party DMA, no host round trip) and reports completion
 *             with Set Device Bits, several at a time;
 *   scsi-tcq  SCSI/SAS tagged queuing: disconnect after the command,
 *             reselect with the tag before the data, no host round trip.
 *
 * An "exchange" is one handshake transaction on the drive's interface link
 * (the link's per-transaction overhead, no payload).  These costs apply only
 * while queuing is on (the drive accepts more than one command). */
#ifndef RS_DISK_HDD_PROTOCOL_H
#define RS_DISK_HDD_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>

enum rs_hdd_protocol { RS_PROTO_IDEAL = 0, RS_PROTO_ATA_TCQ, RS_PROTO_NCQ, RS_PROTO_SCSI_TCQ };

/* When a drive under a protocol that releases the bus after a command
 * (ata-tcq, scsi-tcq) does release it.
 *
 *   always       after every queued command;
 *   when-needed  only when it cannot move the command's data at once: a
 *                read that hits the buffer, or a write the write cache
 *                takes at once, keeps the bus and moves its data right
 *                after the command, with neither the release nor, under
 *                ata-tcq, the SERVICE round trip through the host.  This
 *                is the queued-command protocol of ATA/ATAPI-5/6 (READ/
 *                WRITE DMA QUEUED): the device sets REL in the interrupt
 *                reason only when it releases the bus, and a host driver
 *                that finds REL clear starts the DMA of that command
 *                straight away (FreeBSD 4.x ata-disk.c ad_transfer checks
 *                ATA_I_RELEASE after the command and goes to SERVICE only
 *                when it is set). */
enum rs_hdd_tcq_release { RS_TCQ_RELEASE_ALWAYS = 0, RS_TCQ_RELEASE_WHEN_NEEDED };

struct rs_hdd_protocol_costs {
	const char *name;
	uint32_t accept_exchanges;    /* after the command: bus release, disconnect */
	uint32_t data_exchanges;      /* before a data phase: SERVICE, DMA Setup, reselect */
	bool host_service;            /* the data phase waits for the host to react */
};

extern const char *const rs_hdd_protocol_names[];
extern const char *const rs_hdd_tcq_release_names[];

const struct rs_hdd_protocol_costs *rs_hdd_protocol_costs(int protocol);

#endif
