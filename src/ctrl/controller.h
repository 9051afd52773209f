/* The host adapter: device type `controller`.
 *
 * A controller stands between the host and the device behind it (`array:`,
 * usually a RAID volume, but any device type).  Every request pays the
 * command cost on the controller's processor (the host CPU for a driver
 * that does the work, the card's for a hardware RAID), passes the cache
 * (none, write-through or write-back, in the host driver's memory or on
 * the card) and goes to the array; every disk the array builds is wrapped
 * by a port (ctrl/port.h) with its channel queue, channel link and the
 * host bus the data crosses.  See ctrl/controller.c for the keys. */
#ifndef RS_CTRL_CONTROLLER_H
#define RS_CTRL_CONTROLLER_H

#include <stddef.h>
#include <stdint.h>

#include "dev/build.h"
#include "dev/dev.h"
#include "dev/link.h"

extern const struct rs_dev_type rs_dev_controller;

/* Whole-run counters (not reset by restart_stats), for tests and reports. */
struct rs_ctrl_counters {
	uint64_t hits;                /* reads served from the cache */
	uint64_t misses;              /* reads sent to the array */
	uint64_t absorbed;            /* write-back writes completed from the cache */
	uint64_t stalls;              /* writes that waited for room in the cache */
	uint64_t destages;            /* destage writes issued to the array */
	uint64_t destaged_blk;
	uint64_t read_aheads;         /* prefetch reads issued to the array */
	uint64_t bypassed;            /* writes too large for the cache, or FUA */
	uint64_t errors;              /* failed destages and prefetches */
	uint64_t held_back;           /* host requests that waited for max_commands */
};

const struct rs_ctrl_counters *rs_ctrl_counters(const struct rs_dev *dev);
/* The host bus (NULL if none is modelled). */
struct rs_link *rs_ctrl_host_bus(struct rs_dev *dev);
size_t rs_ctrl_channel_count(const struct rs_dev *dev);
/* The link channel i's transfers cross (NULL if not modelled); on SCSI,
 * channel i is drive slot i and its link the bus it shares. */
struct rs_link *rs_ctrl_channel_link(struct rs_dev *dev, size_t i);
/* Dirty and being-destaged cache lines, and all lines. */
void rs_ctrl_cache_fill_level(const struct rs_dev *dev, uint32_t *dirty, uint32_t *lines);

/* Build a controller from `section` (like rs_dev_build) whose `array:` is
 * built as `array_type` whatever its `type:` says, so a composite device
 * that is not in the registry (a test's) can stand behind a controller. */
struct rs_dev *rs_ctrl_build(struct rs_build *b, const struct rs_node *section,
			     const char *name, const struct rs_dev_type *array_type);

#endif
