#include "net/faults.h"

#include <stdint.h>
#include <string.h>

#include "config/schema.h"
#include "net/adapter.h"
#include "raid/fault_script.h"

struct fault {
	rs_time_t at_ns;
	const char *link;
	int state;
};
static const char *const state_names[] = { "down", "up", NULL };

static const struct rs_opt fault_opts[] = {
	{ "at", RS_OPT_TIME, offsetof(struct fault, at_ns), NULL,
	  RS_OPT_REQUIRED | RS_OPT_HAS_MIN, 0, 0, NULL, "when, in simulated time from the start" },
	{ "link", RS_OPT_STR, offsetof(struct fault, link), NULL, RS_OPT_REQUIRED, 0, 0, NULL,
	  "the port: port1, port2, ..." },
	{ "state", RS_OPT_ENUM, offsetof(struct fault, state), NULL, RS_OPT_REQUIRED, 0, 0,
	  state_names, "down (cable pulled) or up (restored)" },
	RS_OPT_END
};

static struct rs_dev *find_port(struct rs_dev *dev, const char *name)
{
	if (dev->type == &rs_dev_iscsi_adapter &&
	    strcmp(rs_iscsi_adapter_port_name(dev), name) == 0)
		return dev;
	for (size_t i = 0; i < dev->nmembers; i++) {
		struct rs_dev *f = find_port(dev->members[i], name);
		if (f)
			return f;
	}
	return NULL;
}

static void fire_down(struct rs_sim *sim, void *obj, void *arg)
{
	rs_iscsi_adapter_set_link(sim, obj, false);
}

static void fire_up(struct rs_sim *sim, void *obj, void *arg)
{
	rs_iscsi_adapter_set_link(sim, obj, true);
}

int rs_net_faults_apply(struct rs_sim *sim, struct rs_dev *dev, const struct rs_node *list,
			struct rs_diag *d)
{
	if (!list)
		return 0;
	if (list->kind != RS_NODE_SEQ)
		return rs_diag_node(d, list, "expected a list of faults for 'faults', e.g. "
				    "[{at: 120s, link: port1, state: down}]");
	for (size_t i = 0; i < list->len; i++) {
		const struct rs_node *e = list->items[i];
		if (rs_node_expect_map(e, "fault", d))
			return -1;
		if (rs_node_get(e, "member")) {
			if (rs_raid_member_fault_apply(sim, dev, e, d) != 0)
				return -1;
			continue;
		}
		struct fault f;
		if (rs_schema_bind(fault_opts, e, &f, e, "fault", NULL, d))
			return -1;
		struct rs_dev *a = find_port(dev, f.link);
		if (!a)
			return rs_diag_node(d, rs_node_get(e, "link"),
					    "no adapter port named '%s' (ports are port1, port2, "
					    "... in the order of the paths)", f.link);
		if (sim)
			rs_sched_at(sim, f.at_ns, f.state ? fire_up : fire_down, a, NULL);
	}
	return 0;
}
