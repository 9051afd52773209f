/* The array device: parameters, building the members, reports.  The
 * request path is in volume_io.c, mirror choice in volume_mirror.c,
 * RAID5/6 writes in volume_parity.c. */
#include "raid/volume.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "dev/build.h"
#include "kernel/assert.h"
#include "raid/volume_priv.h"

static const char *const level_names[] = {
#define X(name, str) str,
	RS_RAID_LEVEL_LIST(X)
#undef X
	NULL
};
static const char *const layout_names[] = {
#define X(name, str) str,
	RS_RAID_LAYOUT_LIST(X)
#undef X
	NULL
};
static const char *const read_policy_names[] = { "primary", "alternate", "shortest-queue",
						 "nearest-head", "alternate-nearest",
						 "alternate-queue", "alternate-split", NULL };
static const char *const write_policy_names[] = { "auto", "read-modify-write",
						  "reconstruct-write", NULL };
static const char *const xor_location_names[] = { "host", "engine", "none", NULL };
static const char *const rebuild_priority_names[] = { "speed-limits", "low", "medium", "high",
						      NULL };

#define P(f) offsetof(struct array_params, f)
static const struct rs_opt array_opts[] = {
	{ "level", RS_OPT_ENUM, P(level), NULL, RS_OPT_REQUIRED, 0, 0, level_names,
	  "RAID level: jbod, single, raid0, raid1, raid01, raid10, raid5, raid6" },
	{ "strip", RS_OPT_SIZE, P(strip_bytes), "64KiB", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX,
	  RS_RAID_STRIP_MIN_BLK * 512.0, RS_RAID_STRIP_MAX_BLK * 512.0, NULL,
	  "strip (chunk) size per member, a multiple of 512 B (striped levels)" },
	{ "layout", RS_OPT_ENUM, P(layout), "left-symmetric", 0, 0, 0, layout_names,
	  "parity rotation of raid5/raid6 (Linux md names)" },
	{ "disks", RS_OPT_NODE, P(disks), NULL, 0, 0, 0, NULL,
	  "identical members: one device section plus `count: N`" },
	{ "members", RS_OPT_NODE, P(members), NULL, 0, 0, 0, NULL,
	  "members one by one: a list of device sections (unequal JBOD members)" },
	{ "read_policy", RS_OPT_ENUM, P(read_policy), "alternate", 0, 0, 0, read_policy_names,
	  "which mirror copy serves a read: primary, alternate, shortest-queue, nearest-head, "
	  "alternate-nearest, alternate-queue, alternate-split" },
	{ "sequential_balance", RS_OPT_BOOL, P(sequential_balance), "false", 0, 0, 0, NULL,
	  "split sequential read streams over mirror copies (false: a stream keeps its copy)" },
	{ "coalesce", RS_OPT_BOOL, P(coalesce), "false", 0, 0, 0, NULL,
	  "raid0/jbod: a request's strips that are back to back on a member go as one "
	  "command (false: one command per strip)" },
	{ "write_policy", RS_OPT_ENUM, P(write_policy), "auto", 0, 0, 0, write_policy_names,
	  "raid5/raid6 partial-row writes: auto (fewest member operations), "
	  "read-modify-write or reconstruct-write" },
	{ "xor", RS_OPT_NODE, P(xor_node), NULL, 0, 0, 0, NULL,
	  "parity computation: {location: host|engine|none, rate, cost}" },
	{ "member_size", RS_OPT_SIZE, P(member_size), "0", 0, 0, 0, NULL,
	  "space used at the start of each member, as mdadm's --size (0: all of it); "
	  "a smaller array rebuilds sooner" },
	{ "spares", RS_OPT_UINT, P(spares), "0", RS_OPT_HAS_MAX, 0, RS_RAID_MAX_MEMBERS, NULL,
	  "hot spares (built like 'disks', named after the members): a failed member is "
	  "rebuilt onto the first free one" },
	/* Linux md's defaults (/proc/sys/dev/raid/speed_limit_min and _max). */
	{ "speed_limit_min", RS_OPT_RATE, P(speed_min), "1000KiB/s", RS_OPT_POSITIVE, 0, 0, NULL,
	  "rebuild rate per device while foreground I/O is present (md's speed_limit_min)" },
	{ "speed_limit_max", RS_OPT_RATE, P(speed_max), "200000KiB/s", RS_OPT_POSITIVE, 0, 0,
	  NULL, "rebuild rate per device when the array is idle (md's speed_limit_max)" },
	{ "rebuild_priority", RS_OPT_ENUM, P(rebuild_priority), "speed-limits", 0, 0, 0,
	  rebuild_priority_names,
	  "rebuild against foreground I/O: speed-limits (md), or a controller's low, medium, "
	  "high (20, 50, 80 % of the members' time)" },
	RS_OPT_END
};
#undef P

/* A controller may serve mirror reads its own way depending on whether
 * command queuing is on (it holds requests itself, or hands them to the
 * drives at once): the two keys of the array it may override. */
struct mirror_reads {
	int read_policy;
	bool sequential_balance;
};
#define M(f) offsetof(struct mirror_reads, f)
static const struct rs_opt mirror_read_opts[] = {
	{ "read_policy", RS_OPT_ENUM, M(read_policy), "alternate", 0, 0, 0, read_policy_names,
	  "which mirror copy serves a read: primary, alternate, shortest-queue, nearest-head, "
	  "alternate-nearest, alternate-queue, alternate-split" },
	{ "sequential_balance", RS_OPT_BOOL, M(sequential_balance), "false", 0, 0, 0, NULL,
	  "split sequential read streams over mirror copies" },
	RS_OPT_END
};
#undef M

int rs_array_check_mirror_reads(const struct rs_node *n, const char *what, struct rs_diag *d)
{
	struct mirror_reads m;
	return rs_schema_bind(mirror_read_opts, n, &m, n, what, NULL, d);
}

/* Behind a controller the driver's way with mirrored reads replaces the
 * array's own; the array moves no data over a link itself. */
static bool array_attach(struct rs_dev *dev, const struct rs_dev_attach *at)
{
	const struct rs_node *n = at->mirror_reads;
	RS_ASSERT(dev->type == &rs_dev_array);
	if (!n)
		return false;
	struct array *a = dev->priv;
	struct mirror_reads m;
	struct rs_diag d;
	rs_diag_init(&d);
	/* Checked already by rs_array_check_mirror_reads. */
	RS_ASSERT(rs_schema_bind(mirror_read_opts, n, &m, n, "mirror reads", NULL, &d) == 0);
	if (rs_node_get(n, "read_policy"))
		a->p.read_policy = m.read_policy;
	if (rs_node_get(n, "sequential_balance"))
		a->p.sequential_balance = m.sequential_balance;
	return false;
}

/* Defaults: a host CPU of the early 2000s XORs from memory at the order of
 * 1 GB/s; the per-request cost stands for the driver's stripe handling. */
#define X(f) offsetof(struct xor_params, f)
static const struct rs_opt xor_opts[] = {
	{ "location", RS_OPT_ENUM, X(location), "host", 0, 0, 0, xor_location_names,
	  "where parity is computed: host CPU, a controller's engine, or none (free)" },
	{ "rate", RS_OPT_RATE, X(rate_bytes_s), "1GB/s", RS_OPT_POSITIVE, 0, 0, NULL,
	  "XOR throughput over all bytes involved" },
	{ "cost", RS_OPT_TIME, X(cost_ns), "5us", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "fixed cost per row's parity computation" },
	RS_OPT_END
};
#undef X

static const struct rs_opt count_opt = { "count", RS_OPT_UINT, 0, NULL,
					 RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1,
					 RS_RAID_MAX_MEMBERS, NULL, "members" };

static void add_member(struct rs_dev *dev, struct rs_dev *m)
{
	dev->members[dev->nmembers++] = m;
}

/* `disks: {model: X, count: N}`: N members from the section without
 * `count`.  The blame node for member-count errors goes to *where. */
static int build_disks(struct rs_dev *dev, const struct rs_node *disks, uint64_t spares,
		       struct rs_build *b, const struct rs_node **where, struct rs_diag *d)
{
	if (rs_node_expect_map(disks, "'disks'", d) != 0)
		return -1;
	const struct rs_node *cn = rs_node_get(disks, "count");
	if (!cn)
		return rs_diag_node(d, disks, "missing 'count' in 'disks' (how many members)");
	uint64_t count = 0;
	if (rs_schema_convert(&count_opt, cn, &count, d) != 0)
		return -1;
	*where = cn;
	struct rs_node *section = rs_node_clone(disks);
	rs_node_remove(section, "count");
	if (count + spares > RS_RAID_MAX_MEMBERS) {
		rs_node_free(section);
		return rs_diag_node(d, cn, "'count' plus 'spares' must be at most %u, got %llu",
				    RS_RAID_MAX_MEMBERS, (unsigned long long)(count + spares));
	}
	dev->members = calloc(count + spares, sizeof(*dev->members));
	RS_ASSERT(dev->members != NULL);
	int rc = 0;
	for (uint64_t i = 0; i < count + spares && rc == 0; i++) {
		struct rs_dev *m = rs_dev_build_member(b, section, "disk", (size_t)i);
		if (m)
			add_member(dev, m);
		else
			rc = -1;
	}
	rs_node_free(section);
	return rc;
}

/* `members: [section, ...]`. */
static int build_members(struct rs_dev *dev, const struct rs_node *list, struct rs_build *b,
			 struct rs_diag *d)
{
	if (list->kind != RS_NODE_SEQ)
		return rs_diag_node(d, list, "expected a list of device sections for 'members', "
				    "got %s", rs_node_kind_name(list));
	if (list->len == 0 || list->len > RS_RAID_MAX_MEMBERS)
		return rs_diag_node(d, list, "'members' must list 1 to %u devices, got %zu",
				    RS_RAID_MAX_MEMBERS, list->len);
	dev->members = calloc(list->len, sizeof(*dev->members));
	RS_ASSERT(dev->members != NULL);
	for (size_t i = 0; i < list->len; i++) {
		struct rs_dev *m = rs_dev_build_member(b, list->items[i], "disk", i);
		if (!m)
			return -1;
		add_member(dev, m);
	}
	return 0;
}

static int check_params(const struct array_params *p, const struct rs_node *node,
			struct rs_diag *d)
{
	if (p->strip_bytes % RS_BLOCK_BYTES != 0)
		return rs_diag_node(d, rs_node_get(node, "strip"),
				    "'strip' must be a multiple of 512 B, got %llu B",
				    (unsigned long long)p->strip_bytes);
	if (p->disks && p->members)
		return rs_diag_node(d, rs_node_get(node, "members"),
				    "give either 'disks' or 'members', not both");
	if (!p->disks && !p->members)
		return rs_diag_node(d, node, "array needs 'disks' ({model: ..., count: N}) or "
				    "'members' (a list of devices)");
	if (p->spares && p->members)
		return rs_diag_node(d, rs_node_get(node, "spares"),
				    "'spares' needs 'disks' (spares are built like the members)");
	return 0;
}

static int array_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		      const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	struct array *a = calloc(1, sizeof(*a));
	RS_ASSERT(a != NULL);
	dev->priv = a;
	a->dev = dev;
	a->quiet = true;
	a->p = *(const struct array_params *)params;
	if (check_params(&a->p, node, d) != 0)
		return -1;
	if (rs_schema_bind(xor_opts, a->p.xor_node, &a->p.xor, rs_node_get(node, "xor"),
			   "array.xor", NULL, d) != 0)
		return -1;

	const struct rs_node *where = a->p.members;
	int rc = a->p.disks ? build_disks(dev, a->p.disks, a->p.spares, b, &where, d)
			    : build_members(dev, a->p.members, b, d);
	if (rc != 0)
		return -1;

	uint64_t member_blk[RS_RAID_MAX_MEMBERS];
	uint32_t nmem = (uint32_t)(dev->nmembers - a->p.spares);
	uint64_t use_blk = a->p.member_size / RS_BLOCK_BYTES;
	for (size_t i = 0; i < dev->nmembers; i++) {
		member_blk[i] = dev->members[i]->capacity_blk;
		if (use_blk && use_blk < member_blk[i])
			member_blk[i] = use_blk;
	}
	char err[256];
	if (rs_raid_geom_init(&a->g, (enum rs_raid_level)a->p.level,
			      (enum rs_raid_layout)a->p.layout, nmem,
			      (uint32_t)(a->p.strip_bytes / RS_BLOCK_BYTES), member_blk, err,
			      sizeof(err)) != 0)
		return rs_diag_node(d, where, "%s", err);
	dev->capacity_blk = rs_raid_capacity_blk(&a->g);
	/* A spare smaller than what the array uses of a member cannot
	 * take a member's place. */
	for (size_t i = nmem; i < dev->nmembers; i++)
		if (member_blk[i] < a->g.member_blk)
			return rs_diag_node(d, rs_node_get(node, "spares"),
					    "spare %zu holds %llu blocks, less than the %llu each "
					    "member gives the array", i - nmem,
					    (unsigned long long)member_blk[i],
					    (unsigned long long)a->g.member_blk);
	array_faults_init(a);

	rs_time_t now = sim ? rs_now(sim) : 0;
	for (uint32_t m = 0; m < a->g.nmembers; m++)
		for (uint32_t s = 0; s < STREAMS_PER_MEMBER; s++)
			a->ms[m].stream_end[s] = UINT64_MAX;
	a->has_xor = rs_raid_has_parity(&a->g) && a->p.xor.location != XOR_NONE;
	a->xor_ns_per_byte = 1e9 / a->p.xor.rate_bytes_s;
	rs_server_init(&a->xor, a->p.xor.location == XOR_ENGINE ? "xor-engine" : "host-xor", 1,
		       now);
	/* Chunks sized for a typical queue: a few dozen requests in flight,
	 * each a few member operations. */
	rs_pool_init(&a->mops, sizeof(struct mop), 256);
	rs_pool_init(&a->stripes, array_stripe_size(), 32);
	return 0;
}

static void array_restart(struct rs_dev *dev, rs_time_t now)
{
	struct array *a = dev->priv;
	rs_server_restart_stats(&a->xor, now);
}

/* The array is as busy as its members are on average. */
static void array_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r)
{
	const struct array *a = dev->priv;
	double sum = 0, qd = 0, peak = 0;
	uint32_t drives = 0;
	/* The drives serving the member positions now (spares waiting are
	 * not part of the array, and their idle queues would only dilute
	 * the drives' mean depth). */
	for (uint32_t m = 0; m < a->g.nmembers; m++) {
		struct rs_dev_report mr;
		rs_dev_report(dev->members[a->slot[m].dev], now, &mr);
		sum += mr.utilisation;
		qd += mr.drive_qd * mr.drives;
		drives += mr.drives;
		if (mr.drive_qd_max > peak)
			peak = mr.drive_qd_max;
	}
	r->utilisation = a->g.nmembers ? sum / (double)a->g.nmembers : 0;
	if (a->p.spares && drives) {
		r->drive_qd = qd / drives;
		r->drive_qd_max = peak;
		r->drives = drives;
	}
	/* With member faults configured, the last rebuild and what the faults
	 * cost: its duration, start and end (seconds of simulated time; nan:
	 * none started, or finished, by the end of the window), the MiB it
	 * wrote, the MiB degraded reads reconstructed, rows it could not
	 * recover and requests failed with data loss (these counts cover the
	 * whole run, not the window).  rebuild_s stays first, the column it
	 * always was. */
	if (a->faulty) {
		const struct rs_array_counters *c = &a->c;
		bool done = c->rebuilds > 0;
		double nan = (double)NAN;
		rs_dev_report_extra(r, "rebuild_s",
				    done ? (double)(c->rebuild_end - c->rebuild_start) / 1e9 : nan);
		/* A rebuild still running has a start but no end. */
		rs_dev_report_extra(r, "rebuild_start_s", done || a->rb.active
				    ? (double)c->rebuild_start / 1e9 : nan);
		rs_dev_report_extra(r, "rebuild_end_s", done ? (double)c->rebuild_end / 1e9 : nan);
		/* In MiB: the table keeps six digits, which a byte count of a
		 * whole member would outgrow. */
		rs_dev_report_extra(r, "rebuild_mib", (double)c->rebuild_bytes / 1048576.0);
		rs_dev_report_extra(r, "recon_mib", (double)c->recon_bytes / 1048576.0);
		rs_dev_report_extra(r, "stripes_lost", (double)c->stripes_lost);
		rs_dev_report_extra(r, "dataloss_requests", (double)c->dataloss_requests);
	}
}

static void array_destroy(struct rs_dev *dev)
{
	struct array *a = dev->priv;
	if (!a)
		return;
	if (a->mops.obj_size) {
		/* A finished run leaves nothing behind; one that failed
		 * half-way may, and its pools go whole. */
		RS_ASSERT(dev->abandoned || (a->mops.live == 0 && a->stripes.live == 0));
		rs_pool_destroy(&a->mops);
		rs_pool_destroy(&a->stripes);
	}
	free(a);
	dev->priv = NULL;
}

const struct rs_array_counters *rs_array_counters(const struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_array);
	return &((const struct array *)dev->priv)->c;
}

const struct rs_raid_geom *rs_array_geom(const struct rs_dev *dev)
{
	RS_ASSERT(dev->type == &rs_dev_array);
	return &((const struct array *)dev->priv)->g;
}

double rs_array_member_queue_depth(const struct rs_dev *dev, uint32_t m, rs_time_t now)
{
	RS_ASSERT(dev->type == &rs_dev_array);
	const struct array *a = dev->priv;
	RS_ASSERT(m < a->g.nmembers);
	return rs_tavg_mean(rs_dev_inflight(dev->members[a->slot[m].dev]), now);
}

double rs_array_xor_utilisation(const struct rs_dev *dev, rs_time_t now)
{
	RS_ASSERT(dev->type == &rs_dev_array);
	const struct array *a = dev->priv;
	return a->has_xor ? rs_server_utilisation(&a->xor, now) : 0;
}

void rs_array_set_trace(struct rs_dev *dev, rs_array_trace_fn *fn, void *ctx)
{
	RS_ASSERT(dev->type == &rs_dev_array);
	struct array *a = dev->priv;
	a->trace = fn;
	a->trace_ctx = ctx;
	a->quiet = !a->faulty && !fn;
}

static void array_components(const struct rs_dev *dev, rs_time_t now, const char *name,
			     struct rs_components *out)
{
	const struct array *a = dev->priv;
	rs_components_add_server(out, name, "xor", &a->xor, now);
}

const struct rs_dev_type rs_dev_array = {
	.name = "array",
	.help = "RAID array (jbod, single, raid0/1/01/10/5/6) over members built from "
		"'disks' or 'members'",
	.opts = array_opts,
	.params_size = sizeof(struct array_params),
	.init = array_init,
	.submit = array_submit,
	.restart_stats = array_restart,
	.report = array_report,
	.components = array_components,
	.destroy = array_destroy,
	.attach = array_attach,
};
