/* Bus and link models: the parameters of an rs_link from YAML.
 *
 * A link section is either a model name (`host_bus: pci-32-66`), a model
 * with overrides (`{model: sata-1.5, overhead: 2us}`) or inline
 * (`{rate: 266MB/s, overhead: 0.5us, burst: 4KiB, duplex: half}`).  Bus
 * models live in models/buses/ with `type: link`; `link` is not a device
 * type, so they are read here and never through the device registry.
 *
 * Keys: rate (the theoretical rate), payload_rate or efficiency (what is
 * left of it for data inside a transaction: encoding, framing), burst (the
 * largest transaction), overhead (link time per transaction: arbitration,
 * address phase, handshakes) and duplex (half: both directions share one
 * channel; full: one channel each way). */
#ifndef RS_DEV_BUS_H
#define RS_DEV_BUS_H

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"
#include "dev/link.h"

/* Fill `out` from a link section; `what` names it in messages
 * ("host_bus").  Returns 0 or -1 with d set. */
int rs_bus_params(const struct rs_model_path *mp, const struct rs_node *section,
		  const char *what, struct rs_link_params *out, struct rs_diag *d);

/* The most a link moves per second and direction in long transfers:
 * burst / (overhead + burst / payload rate). */
double rs_bus_ceiling_bytes_s(const struct rs_link_params *p);

struct rs_opt;
/* The keys of a link model, for showing one with its defaults. */
const struct rs_opt *rs_bus_schema(void);

#endif
