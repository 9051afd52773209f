/* The mechanical hard disk: device type `hdd`.
 *
 * One mechanism, one head.  Requests beyond the drive's queue depth wait in
 * a host-side FIFO (the port); the drive holds at most queue_depth
 * commands.  A read found in the buffer is a hit (firmware overhead and the
 * interface only); everything else waits for the head, which serves it in
 * the order of the drive's scheduler: command overhead, seek and rotation
 * (rs_hdd_mech_position), media transfer (rs_disk_media_time), data over
 * the interface link.  Reads overlap the interface with the media and
 * complete one burst after the media at the earliest.  After a read the
 * head keeps reading ahead into the segment, lazily (see hdd_mech.h).
 * With the write cache on, a write completes once its data is in the
 * buffer; dirty data is destaged when the head has nothing else to do, and
 * competes with queued commands in the scheduler's order once it passes
 * the high mark, a flush waits, or writes are stalled on a full cache
 * (see hdd_wcache.h). */
#ifndef RS_DISK_HDD_H
#define RS_DISK_HDD_H

#include <stdbool.h>
#include <stdint.h>

#include "dev/dev.h"
#include "dev/link.h"
#include "disk/hdd_params.h"

extern const struct rs_dev_type rs_dev_hdd;

/* Whole-run counters (not reset by restart_stats), for tests and reports. */
struct rs_hdd_counters {
	uint64_t hits;                /* reads served from the buffer */
	uint64_t misses;              /* reads that needed the head */
	uint64_t stream_reads;        /* ...of which continued a running stream */
	uint64_t media_ops;           /* host commands dispatched to the head */
	uint64_t mismatches;          /* predicted != actual positioning: must stay 0 */
	uint64_t cached_writes;       /* writes completed from the buffer */
	uint64_t stalls;              /* writes that waited for room in the cache */
	uint64_t destages;            /* destage operations (each positions the head) */
	uint64_t destage_streamed;    /* tracks' worth a destage went on with, unpositioned */
	uint64_t destaged_blk;
	uint64_t wm_slips;            /* write data late for the media (write water mark) */
	rs_time_t positioning_ns;     /* sum of seek + rotation over media accesses */
};

const struct rs_hdd_counters *rs_hdd_counters(const struct rs_dev *dev);
const struct rs_hdd_geom *rs_hdd_geom(const struct rs_dev *dev);
/* The interface link the drive transfers over (its own by default). */
struct rs_link *rs_hdd_link(struct rs_dev *dev);
/* Behind a controller the drive takes its link, and its driver's reaction
 * to service requests (legacy TCQ), from the device interface's attach. */
/* How long after `now` the media access of a command for [lba, lba+nblk)
 * would start if the drive took it now: its firmware overhead, then seek
 * and rotation from where the head is (or the running read-ahead stream,
 * if that serves it).  A query only: nothing in the drive changes.  For a
 * host-side SPTF queue, which asks it of every waiting command. */
/* The same as DiskSim's driver estimates it with its own copy of the disk
 * model (disk_buffer_estimate_servtime): seek and rotation from the drive's
 * mechanical state as last updated -- at the head's last media event by
 * `now`, the end of the last sector read-ahead has read or where the head
 * stopped -- as if the move began then, without the firmware overhead.
 * The drive itself first finishes the sector under the head (or spends
 * its overhead), so a pick with little to spare misses by a turn. */
rs_time_t rs_hdd_positioning_estimate_host(const struct rs_dev *dev, uint64_t lba,
					   uint32_t nblk, bool is_write, rs_time_t now);
rs_time_t rs_hdd_positioning_estimate(const struct rs_dev *dev, uint64_t lba, uint32_t nblk,
				      bool is_write, rs_time_t now);

#endif
