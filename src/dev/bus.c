#include "dev/bus.h"

#include <stdbool.h>
#include <string.h>

#include "config/schema.h"

enum duplex { DUPLEX_HALF, DUPLEX_FULL };
static const char *const duplex_names[] = { "half", "full", NULL };

struct bus_yaml {
	double rate_bytes_s;
	double payload_rate_bytes_s;  /* 0: rate x efficiency */
	double efficiency_pct;
	uint64_t burst_bytes;
	rs_time_t overhead_ns;
	int duplex;
};

#define B(f) offsetof(struct bus_yaml, f)
static const struct rs_opt bus_opts[] = {
	{ "rate", RS_OPT_RATE, B(rate_bytes_s), NULL, RS_OPT_REQUIRED | RS_OPT_POSITIVE, 0, 0,
	  NULL, "signalling rate of one direction (theoretical)" },
	{ "payload_rate", RS_OPT_RATE, B(payload_rate_bytes_s), "0B/s", RS_OPT_HAS_MIN, 0, 0,
	  NULL, "data rate inside a transaction; 0 = rate x efficiency" },
	{ "efficiency", RS_OPT_PERCENT, B(efficiency_pct), "100%", RS_OPT_POSITIVE, 0, 0, NULL,
	  "share of the rate left for data (encoding, framing), when payload_rate is 0" },
	{ "burst", RS_OPT_SIZE, B(burst_bytes), "0B", 0, 0, 0, NULL,
	  "largest transaction; 0 = a whole transfer is one transaction" },
	{ "overhead", RS_OPT_TIME, B(overhead_ns), "0s", RS_OPT_HAS_MIN, 0, 0, NULL,
	  "link time per transaction (arbitration, address phase, handshakes)" },
	{ "duplex", RS_OPT_ENUM, B(duplex), "half", 0, 0, 0, duplex_names,
	  "half: one channel for both directions; full: one per direction" },
	RS_OPT_END
};
#undef B

const struct rs_opt *rs_bus_schema(void)
{
	return bus_opts;
}

static const char *const reserved[] = { "type", "model", "description", NULL };

/* A bare name stands for {model: name}. */
static struct rs_node *resolve(const struct rs_model_path *mp, const struct rs_node *section,
			       struct rs_diag *d)
{
	if (section->kind == RS_NODE_SCALAR) {
		struct rs_node *base = rs_model_load(mp, section->str, section, d);
		if (!base)
			return NULL;
		struct rs_node *full = rs_model_resolve(mp, base, d);
		rs_node_free(base);
		return full;
	}
	if (rs_node_expect_map(section, "a link", d))
		return NULL;
	return rs_model_resolve(mp, section, d);
}

int rs_bus_params(const struct rs_model_path *mp, const struct rs_node *section,
		  const char *what, struct rs_link_params *out, struct rs_diag *d)
{
	struct rs_node *m = resolve(mp, section, d);
	if (!m)
		return -1;
	const struct rs_node *type = rs_node_get(m, "type");
	if (type && (type->kind != RS_NODE_SCALAR || strcmp(type->str, "link") != 0)) {
		rs_diag_node(d, type, "%s must be a link (type: link), got type '%s'", what,
			     type->kind == RS_NODE_SCALAR ? type->str : "?");
		rs_node_free(m);
		return -1;
	}
	struct bus_yaml y;
	int rc = rs_schema_bind(bus_opts, m, &y, section, what, reserved, d);
	rs_node_free(m);
	if (rc)
		return -1;
	*out = (struct rs_link_params){
		.rate_bytes_s = y.payload_rate_bytes_s > 0 ? y.payload_rate_bytes_s :
			y.rate_bytes_s * y.efficiency_pct / 100.0,
		.overhead_ns = y.overhead_ns,
		.burst_bytes = y.burst_bytes,
		.full_duplex = y.duplex == DUPLEX_FULL,
	};
	return 0;
}

double rs_bus_ceiling_bytes_s(const struct rs_link_params *p)
{
	if (p->burst_bytes == 0 || p->overhead_ns == 0)
		return p->rate_bytes_s;
	double t = (double)p->overhead_ns * 1e-9 + (double)p->burst_bytes / p->rate_bytes_s;
	return (double)p->burst_bytes / t;
}
