#include "disk/hdd_protocol.h"

#include <stddef.h>

#include "kernel/assert.h"

const char *const rs_hdd_protocol_names[] = { "ideal", "ata-tcq", "ncq", "scsi-tcq", NULL };
const char *const rs_hdd_tcq_release_names[] = { "always", "when-needed", NULL };

/* One row per protocol; the counts come from the command sequences of the
 * standards (ATA/ATAPI-6 section on the overlapped and queued feature set,
 * Serial ATA II NCQ, SCSI Architecture Model tagged queuing). */
static const struct rs_hdd_protocol_costs table[] = {
	[RS_PROTO_IDEAL] = { "ideal", 0, 0, false },
	/* Release: D2H register FIS with REL, then INTRQ.  Service: SERV set,
	 * host issues SERVICE (H2D) and reads the tag (D2H) - one handshake
	 * once the host has reacted. */
	[RS_PROTO_ATA_TCQ] = { "ata-tcq", 1, 1, true },
	/* The D2H that clears BSY after the command is the same as for an
	 * unqueued command; a DMA Setup FIS opens each data phase; Set Device
	 * Bits completions are aggregated and not counted. */
	[RS_PROTO_NCQ] = { "ncq", 0, 1, false },
	/* DISCONNECT after the command; RESELECTION + SIMPLE QUEUE TAG
	 * before the data. */
	[RS_PROTO_SCSI_TCQ] = { "scsi-tcq", 1, 1, false },
};

const struct rs_hdd_protocol_costs *rs_hdd_protocol_costs(int protocol)
{
	RS_ASSERT(protocol >= 0 && protocol < (int)(sizeof(table) / sizeof(table[0])));
	return &table[protocol];
}
