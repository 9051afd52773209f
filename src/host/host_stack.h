/* The host's storage stack in front of a device: device type `host`.
 *
 * Every request costs CPU time of the block layer and the driver on its
 * way down (submit_cost) and on its way back (complete_cost), on one of
 * `cpus` CPUs that serve the device (a server: when they are all busy,
 * requests wait, so the stack caps IOPS).  Completions reach the CPU by
 * interrupt; an interrupt costs interrupt_cost on top and is coalesced:
 * it fires when coalesce_count completions are waiting, or coalesce_time
 * after the first of them, whichever comes first (NVMe's aggregation
 * threshold and time; 1 and 0 = an interrupt per completion). */
#ifndef RS_HOST_HOST_STACK_H
#define RS_HOST_HOST_STACK_H

#include "dev/dev.h"

extern const struct rs_dev_type rs_dev_host;

/* Interrupts taken so far (for tests). */
uint64_t rs_host_interrupts(const struct rs_dev *dev);

#endif
