/* Keys:
 *   paths       list of adapter sections (each `model: ...` or inline)
 *   target      the target all paths reach (e.g. type: iscsi-target)
 *   policy      failover | round-robin | load-balance
 *   health      whether the manager notices dead links at all
 *   detect      how long it takes to notice one
 *   retry       re-send a failed request on another usable path
 *   faults      scripted cable pulls (net/faults.h) */
#include "net/multipath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/models.h"
#include "dev/build.h"
#include "kernel/assert.h"
#include "net/adapter.h"
#include "net/faults.h"

enum { POL_FAILOVER, POL_ROUND_ROBIN, POL_LOAD_BALANCE };
static const char *const policy_names[] = { "failover", "round-robin", "load-balance", NULL };

struct mp_params {
	const struct rs_node *paths, *target, *faults;
	int policy;
	bool health, retry;
	rs_time_t detect_ns;
};

#define P(f) offsetof(struct mp_params, f)
static const struct rs_opt mp_opts[] = {
	{ "paths", RS_OPT_NODE, P(paths), NULL, RS_OPT_REQUIRED, 0, 0, NULL,
	  "the adapters: a list of adapter sections ({model: NAME} or inline)" },
	{ "target", RS_OPT_NODE, P(target), NULL, RS_OPT_REQUIRED, 0, 0, NULL,
	  "the target every path reaches (type: iscsi-target ...)" },
	{ "policy", RS_OPT_ENUM, P(policy), "failover", 0, 0, 0, policy_names,
	  "failover (active/standby team), round-robin or load-balance (fewest in flight)" },
	{ "health", RS_OPT_BOOL, P(health), "true", 0, 0, 0, NULL,
	  "the manager notices dead links (after `detect`) and avoids them" },
	{ "detect", RS_OPT_TIME, P(detect_ns), "1s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "time to notice a dead link" },
	{ "retry", RS_OPT_BOOL, P(retry), "true", 0, 0, 0, NULL,
	  "re-send a request that failed on one path on another usable path" },
	{ "faults", RS_OPT_NODE, P(faults), NULL, 0, 0, 0, NULL,
	  "scripted faults: [{at: 120s, link: port1, state: down}, ...]" },
	RS_OPT_END
};
#undef P

struct mp {
	struct mp_params p;
	struct rs_dev *dev;
	struct rs_dev **path;
	uint32_t *inflight;
	size_t npaths;
	size_t next;                  /* round-robin position */
	struct rs_multipath_counters n;
};

static bool usable(const struct mp *m, size_t i, rs_time_t now)
{
	if (!m->p.health)
		return true;
	return rs_iscsi_adapter_usable(m->path[i], now, m->p.detect_ns);
}

/* The path for a request; `avoid` (or npaths for none) just failed it.
 * Returns npaths when no usable path is left. */
static size_t choose(struct mp *m, rs_time_t now, size_t avoid)
{
	size_t best = m->npaths;
	switch (m->p.policy) {
	case POL_FAILOVER:
		for (size_t i = 0; i < m->npaths; i++)
			if (i != avoid && usable(m, i, now))
				return i;
		return best;
	case POL_ROUND_ROBIN:
		for (size_t k = 0; k < m->npaths; k++) {
			size_t i = (m->next + k) % m->npaths;
			if (i != avoid && usable(m, i, now)) {
				m->next = i + 1;
				return i;
			}
		}
		return best;
	default:
		for (size_t i = 0; i < m->npaths; i++)
			if (i != avoid && usable(m, i, now) &&
			    (best == m->npaths || m->inflight[i] < m->inflight[best]))
				best = i;
		return best;
	}
}

static void send(struct rs_sim *sim, struct mp *m, struct rs_io *io, size_t i);

static void done(struct rs_sim *sim, struct mp *m, struct rs_io *io, int status)
{
	if (status)
		m->n.errors++;
	rs_dev_complete(sim, m->dev, io, status);
}

/* The child-done hook: a path answered.  A failed path's error is not
 * kept when another path is tried. */
static void path_done(struct rs_sim *sim, struct rs_io *child)
{
	struct rs_io *io = child->parent;
	struct mp *m = io->dev->priv;
	size_t i = child->up.mp_path;
	m->inflight[i]--;
	int status = rs_io_child_detach(sim, child);
	if (status && m->p.retry && io->at.mp_tries + 1 < m->npaths) {
		size_t j = choose(m, sim->now, i);
		if (j < m->npaths) {
			io->at.mp_tries++;
			m->n.retries++;
			send(sim, m, io, j);
			return;
		}
	}
	done(sim, m, io, status);
}

static void send(struct rs_sim *sim, struct mp *m, struct rs_io *io, size_t i)
{
	struct rs_io *c = rs_io_child(sim, io, io->op, io->lba, io->nblk, NULL, NULL);
	c->up.mp_path = (uint32_t)i;
	m->inflight[i]++;
	rs_dev_submit(sim, m->path[i], c);
}

static void mp_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	struct mp *m = dev->priv;
	io->at.mp_tries = 0;
	size_t i = choose(m, sim->now, m->npaths);
	/* Nothing looks usable: the request still goes somewhere and fails
	 * or waits there as that adapter does. */
	send(sim, m, io, i < m->npaths ? i : 0);
}

/* A path is an adapter section without a target of its own: it is built
 * with `target: multipath` (attached here afterwards), so that an adapter
 * on its own must name its target. */
static struct rs_dev *build_path(struct rs_build *b, const struct rs_node *section,
				 const char *name, struct rs_diag *d)
{
	if (section->kind != RS_NODE_MAP)
		return rs_dev_build(b, section, "paths", name);  /* says what is wrong */
	const struct rs_node *own = rs_node_get(section, "target");
	if (own) {
		rs_diag_node(d, own, "a path has no target of its own: the multipath "
			     "device's 'target' is shared by all paths");
		return NULL;
	}
	/* The type may come from a model: look at the merged section. */
	struct rs_node *merged = rs_model_resolve(b->models, section, d);
	if (!merged)
		return NULL;
	const struct rs_node *type = rs_node_get(merged, "type");
	bool adapter = type && type->kind == RS_NODE_SCALAR &&
		       strcmp(type->str, rs_dev_iscsi_adapter.name) == 0;
	rs_node_free(merged);
	if (!adapter) {
		rs_diag_node(d, section, "a path must be an iSCSI adapter (type: iscsi-adapter "
			     "or an adapter model)");
		return NULL;
	}
	struct rs_node *s = rs_node_clone(section);
	rs_node_put(s, rs_node_new_scalar(section->file, section->line, section->col, "target"),
		    rs_node_new_scalar(section->file, section->line, section->col, "multipath"));
	struct rs_dev *a = rs_dev_build(b, s, "paths", name);
	rs_node_free(s);
	return a;
}

static int mp_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		   const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	const struct mp_params *p = params;
	struct mp *m = calloc(1, sizeof(*m));
	RS_ASSERT(m);
	dev->priv = m;
	m->dev = dev;
	m->p = *p;
	if (p->paths->kind != RS_NODE_SEQ || p->paths->len < 1)
		return rs_diag_node(d, p->paths, "expected a list of one or more adapter "
				    "sections for 'paths', e.g. [{model: alacritech-ses1001t}, "
				    "{model: alacritech-ses1001t}]");
	m->npaths = p->paths->len;
	dev->members = calloc(m->npaths + 1, sizeof(*dev->members));
	m->path = calloc(m->npaths, sizeof(*m->path));
	m->inflight = calloc(m->npaths, sizeof(*m->inflight));
	RS_ASSERT(dev->members && m->path && m->inflight);
	struct rs_dev *target = rs_dev_build(b, p->target, "target", "target");
	if (!target)
		return -1;
	dev->members[dev->nmembers++] = target;
	for (size_t i = 0; i < m->npaths; i++) {
		char name[32];
		snprintf(name, sizeof(name), "path%zu", i + 1);
		struct rs_dev *a = build_path(b, p->paths->items[i], name, d);
		if (!a)
			return -1;
		dev->members[dev->nmembers++] = a;
		snprintf(name, sizeof(name), "port%zu", i + 1);
		rs_iscsi_adapter_set_port_name(a, name);
		rs_iscsi_adapter_attach(a, target, (uint32_t)i);
		m->path[i] = a;
	}
	dev->capacity_blk = target->capacity_blk;
	(void)node;
	return rs_net_faults_apply(sim, dev, p->faults, d);
}

static void mp_destroy(struct rs_dev *dev)
{
	struct mp *m = dev->priv;
	if (!m)
		return;
	free(m->path);
	free(m->inflight);
	free(m);
}

const struct rs_dev_type rs_dev_multipath = {
	.name = "multipath",
	.help = "several iSCSI adapters to one target: failover, round-robin, load balancing",
	.opts = mp_opts,
	.params_size = sizeof(struct mp_params),
	.init = mp_init,
	.submit = mp_submit,
	.child_done = path_done,
	.destroy = mp_destroy,
};
