/* The scenario's member faults: checked against the arrays of the device
 * tree and scheduled (raid/fault_script.h). */
#include "raid/fault_script.h"

#include <stddef.h>
#include <stdint.h>

#include "config/schema.h"
#include "raid/volume.h"

struct member_fault {
	rs_time_t at_ns;
	uint64_t after_ios;
	const char *member;
	int state;
	const struct rs_node *lba;
	int error;
	double slow;
};

enum { STATE_FAILED, STATE_REPLACED };
static const char *const state_names[] = { "failed", "replaced", NULL };
static const char *const error_names[] = { "media", NULL };

#define F(f) offsetof(struct member_fault, f)
static const struct rs_opt member_fault_opts[] = {
	{ "at", RS_OPT_TIME, F(at_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "when, in simulated time from the start" },
	{ "after_ios", RS_OPT_UINT, F(after_ios), "0", 0, 0, 0, NULL,
	  "state: failed once the array has sent the member this many commands" },
	{ "member", RS_OPT_STR, F(member), NULL, RS_OPT_REQUIRED, 0, 0, NULL,
	  "the drive: disk0, disk1, ... of an array" },
	{ "state", RS_OPT_ENUM, F(state), "failed", 0, 0, 0, state_names,
	  "failed (the drive dies) or replaced (a new drive in its place)" },
	{ "lba", RS_OPT_NODE, F(lba), NULL, 0, 0, 0, NULL,
	  "[first, last] member blocks with latent sector errors" },
	{ "error", RS_OPT_ENUM, F(error), "media", 0, 0, 0, error_names,
	  "what reads of 'lba' return: media (an unrecoverable read error)" },
	{ "slow", RS_OPT_DOUBLE, F(slow), "1", RS_OPT_HAS_MIN, 1, 0, NULL,
	  "fail-slow: factor on the drive's service times (1 = healthy)" },
	RS_OPT_END
};
#undef F

static const struct rs_opt block_opt = { "lba", RS_OPT_UINT, 0, NULL, 0, 0, 0, NULL,
					 "member block" };

/* The array with a member called name, and the member's position. */
static struct rs_dev *find_member(struct rs_dev *dev, const char *name, uint32_t *m)
{
	if (dev->type == &rs_dev_array && rs_array_find_member(dev, name, m) == 0)
		return dev;
	for (size_t i = 0; i < dev->nmembers; i++) {
		struct rs_dev *f = find_member(dev->members[i], name, m);
		if (f)
			return f;
	}
	return NULL;
}

static void fire_failed(struct rs_sim *sim, void *obj, void *arg)
{
	rs_array_fail_member(sim, obj, (uint32_t)(uintptr_t)arg);
}

static void fire_replaced(struct rs_sim *sim, void *obj, void *arg)
{
	rs_array_replace_member(sim, obj, (uint32_t)(uintptr_t)arg);
}

/* Fail-slow factors are few and fixed: the factor travels in the event
 * argument as a member index plus the factor in thousandths. */
static void fire_slow(struct rs_sim *sim, void *obj, void *arg)
{
	(void)sim;
	uintptr_t v = (uintptr_t)arg;
	rs_array_set_slow(obj, (uint32_t)(v & 0xffu), (double)(v >> 8) / 1000.0);
}

static int read_range(const struct rs_node *n, uint64_t cap, uint64_t *lo, uint64_t *hi,
		      struct rs_diag *d)
{
	if (n->kind != RS_NODE_SEQ || n->len != 2)
		return rs_diag_node(d, n, "expected 'lba: [first, last]' (two member blocks)");
	if (rs_schema_convert(&block_opt, n->items[0], lo, d) != 0 ||
	    rs_schema_convert(&block_opt, n->items[1], hi, d) != 0)
		return -1;
	if (*lo > *hi)
		return rs_diag_node(d, n->items[1], "'lba' must end at or after its first block "
				    "%llu, got %llu", (unsigned long long)*lo,
				    (unsigned long long)*hi);
	if (*hi >= cap)
		return rs_diag_node(d, n->items[1], "'lba' must lie within the member's %llu "
				    "blocks used by the array, got %llu",
				    (unsigned long long)cap, (unsigned long long)*hi);
	return 0;
}

int rs_raid_member_fault_apply(struct rs_sim *sim, struct rs_dev *root, const struct rs_node *e,
			       struct rs_diag *d)
{
	struct member_fault f;
	if (rs_schema_bind(member_fault_opts, e, &f, e, "fault", NULL, d))
		return -1;
	uint32_t m = 0;
	struct rs_dev *a = find_member(root, f.member, &m);
	if (!a)
		return rs_diag_node(d, rs_node_get(e, "member"),
				    "no array member named '%s' (an array's drives are disk0, "
				    "disk1, ...)", f.member);
	const struct rs_node *state = rs_node_get(e, "state"), *slow = rs_node_get(e, "slow");
	const struct rs_node *after = rs_node_get(e, "after_ios"), *at = rs_node_get(e, "at");
	int kinds = (state != NULL) + (f.lba != NULL) + (slow != NULL);
	if (kinds != 1)
		return rs_diag_node(d, e, "a member fault takes one of 'state' (failed or "
				    "replaced), 'lba' (media errors) or 'slow', got %d", kinds);
	if (rs_node_get(e, "error") && !f.lba)
		return rs_diag_node(d, rs_node_get(e, "error"), "'error' goes with 'lba'");
	if (after && (!state || f.state != STATE_FAILED))
		return rs_diag_node(d, after, "'after_ios' goes with 'state: failed'");
	if (after && at)
		return rs_diag_node(d, after, "give 'at' or 'after_ios', not both");
	if (after && f.after_ios == 0)
		return rs_diag_node(d, after, "'after_ios' must be at least 1");
	rs_array_mark_faulty(a);
	if (f.lba) {
		uint64_t lo, hi;
		if (read_range(f.lba, rs_array_geom(a)->member_blk, &lo, &hi, d) != 0)
			return -1;
		/* Added now even when only checking, so the cap on their
		 * number is checked too. */
		if (rs_array_add_media_error(a, m, lo, hi, f.at_ns) != 0)
			return rs_diag_node(d, f.lba, "at most 16 media-error ranges per array");
		return 0;
	}
	if (slow && f.slow > 1000)
		return rs_diag_node(d, slow, "'slow' must be at most 1000, got %g", f.slow);
	if (!sim)
		return 0;
	if (after) {
		rs_array_fail_member_after(a, m, f.after_ios);
	} else if (slow) {
		uintptr_t v = (uintptr_t)m | (uintptr_t)(f.slow * 1000.0 + 0.5) << 8;
		rs_sched_at(sim, f.at_ns, fire_slow, a, (void *)v);
	} else {
		rs_sched_at(sim, f.at_ns, f.state == STATE_FAILED ? fire_failed : fire_replaced, a,
			    (void *)(uintptr_t)m);
	}
	return 0;
}
