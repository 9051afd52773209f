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

struct rs_hdd_protocol_costs {
	const char *name;
	uint32_t accept_exchanges;    /* after the command: bus release, disconnect */
	uint32_t data_exchanges;      /* before a data phase: SERVICE, DMA Setup, reselect */
	bool host_service;            /* the data phase waits for the host to react */
};

extern const char *const rs_hdd_protocol_names[];

const struct rs_hdd_protocol_costs *rs_hdd_protocol_costs(int protocol);

#endif
