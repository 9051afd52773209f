/* The RAID array (volume): device type `array`.
 *
 * One type for every level; `level:` picks the layout (raid/map.h does the
 * arithmetic, this device does the I/O).  Members are built from `disks:`
 * (one section plus `count:`) or `members:` (a list, for unequal JBOD
 * members), each through rs_dev_build_member so a controller can put its
 * port in front of every disk.
 *
 *   reads     mapped to data extents; on mirrored levels each extent goes
 *             to one copy, chosen by read_policy.  Unless
 *             sequential_balance is set, a read that continues a stream
 *             stays on the copy that served the stream: the Promise
 *             FastTrak drivers balance random reads over mirror halves
 *             (even one at a time) but never interleave a sequential
 *             stream, which is why their RAID1 reads sequentially no
 *             faster than one disk.
 *   writes    every copy on mirrored levels; on RAID5/6, per row, a
 *             full-stripe write (no reads), a read-modify-write (old data
 *             and old parity) or a reconstruct-write (the untouched data),
 *             then the XOR on the xor server, then data and parity
 *             writes.  A write completes when all of them have.
 *   flush     sent to every member.
 *
 * The device accepts any number of outstanding requests; per-request
 * state (member operations, stripes in flight) comes from pools the
 * device owns, so memory follows the peak number in flight. */
#ifndef RS_RAID_VOLUME_H
#define RS_RAID_VOLUME_H

#include <stdint.h>

#include "dev/dev.h"
#include "raid/map.h"

extern const struct rs_dev_type rs_dev_array;

/* Check a {read_policy, sequential_balance} section a controller applies
 * to the array behind it (diagnostics at its nodes).  The controller
 * hands it over with the device interface's attach (mirror_reads): keys
 * present replace the array's own. */
int rs_array_check_mirror_reads(const struct rs_node *n, const char *what, struct rs_diag *d);

/* What a member operation is for. */
enum rs_array_op {
	RS_ARRAY_READ,                /* data read (a host read, or RMW/RCW pre-read) */
	RS_ARRAY_WRITE,               /* data write (every copy of a mirror) */
	RS_ARRAY_PARITY_READ,         /* old P or Q for a read-modify-write */
	RS_ARRAY_PARITY_WRITE,        /* new P or Q */
	RS_ARRAY_FLUSH,
	RS_ARRAY_OP_COUNT
};

/* Whole-run counters (not reset by restart_stats), for tests and reports. */
struct rs_array_counters {
	uint64_t ops[RS_ARRAY_OP_COUNT];      /* member operations by kind */
	uint64_t member_reads[RS_RAID_MAX_MEMBERS];   /* data + parity reads */
	uint64_t member_writes[RS_RAID_MAX_MEMBERS];  /* data + parity writes */
	uint64_t stream_reads;        /* mirror reads kept on their stream's copy */
	/* RAID5/6 rows written, by method. */
	uint64_t full_stripes;
	uint64_t rmw_stripes;
	uint64_t rcw_stripes;
	uint64_t xor_jobs;
	uint64_t xor_bytes;
	/* Faults, degraded operation and rebuild (zero without faults). */
	uint64_t member_failures;
	uint64_t recon_reads;         /* extents read without their member */
	uint64_t recon_bytes;         /* bytes those reconstructed */
	uint64_t media_errors;        /* member reads that met a media error */
	uint64_t dataloss_requests;   /* requests failed with RS_ERR_DATALOSS */
	uint64_t stripes_lost;        /* rows whose data a rebuild could not recover */
	bool data_lost;               /* the array lost data (beyond its level) */
	uint64_t rebuilds;            /* rebuilds finished */
	uint64_t rebuild_rows;        /* rows rebuilt (every one once per rebuild) */
	uint64_t rebuild_bytes;       /* bytes written to the rebuilt drive */
	rs_time_t rebuild_start, rebuild_end;   /* of the last rebuild; end 0: running */
};

/* One finished member operation, for instrumentation (tests, traces). */
struct rs_array_event {
	enum rs_array_op op;
	uint32_t member;
	uint64_t member_lba;
	uint32_t nblk;
	uint64_t parent_id;           /* id of the array request it serves */
	rs_time_t t_submit, t_done;
	int status;
};
typedef void rs_array_trace_fn(void *ctx, const struct rs_array_event *ev);

const struct rs_array_counters *rs_array_counters(const struct rs_dev *dev);
const struct rs_raid_geom *rs_array_geom(const struct rs_dev *dev);
/* Mean requests inside the drive in slot m now since the last restart
 * (the drive's own in-flight average: every one of them is a member
 * operation the array sent it, queued in the member or in service, so the
 * array keeps no second average of the same count). */
double rs_array_member_queue_depth(const struct rs_dev *dev, uint32_t m, rs_time_t now);
/* Busy fraction of the XOR server since the last restart (0 without one). */
double rs_array_xor_utilisation(const struct rs_dev *dev, rs_time_t now);
/* Member faults, as a scenario's `faults:` schedules them (raid/faults.h)
 * and as tests call them: slot m (member position 0..n-1) fails now; a
 * new drive is put into failed slot m; member blocks [lo, hi] of slot m's
 * drive return media errors on reads; slot m's drive runs `factor` times
 * slower.  Failing a failed member does nothing. */
void rs_array_fail_member(struct rs_sim *sim, struct rs_dev *dev, uint32_t m);
void rs_array_replace_member(struct rs_sim *sim, struct rs_dev *dev, uint32_t m);
void rs_array_fail_member_after(struct rs_dev *dev, uint32_t m, uint64_t ios);
/* Media errors from time `from` on; -1 when the array's table of them
 * (16 ranges) is full. */
int rs_array_add_media_error(struct rs_dev *dev, uint32_t m, uint64_t lo, uint64_t hi,
			     rs_time_t from);
/* The member position of the drive named `name` (disk0, disk1, ...): 0,
 * or -1 if the array has no such member. */
int rs_array_find_member(struct rs_dev *dev, const char *name, uint32_t *m);
/* Faults are configured: the reports carry the rebuild column. */
void rs_array_mark_faulty(struct rs_dev *dev);
void rs_array_set_slow(struct rs_dev *dev, uint32_t m, double factor);
/* Rebuild progress: rows rebuilt of the rebuild running (its checkpoint),
 * and whether one is running. */
bool rs_array_rebuilding(const struct rs_dev *dev, uint64_t *checkpoint);
/* Call fn for every member operation as it completes (NULL: stop). */
void rs_array_set_trace(struct rs_dev *dev, rs_array_trace_fn *fn, void *ctx);

#endif
