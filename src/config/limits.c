/* Caps on the work one run may ask for: the defaults and --limit. */
#include "config/limits.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "config/units.h"

/* The defaults are far above anything the studies or a real array need
 * (the largest shipped scenario builds under 100 devices and sweeps under
 * 1,000 points) and far below what exhausts a 2-core, 24 GiB machine. */
#define RS_LIMITS_DEFAULTS                                                                 \
	{                                                                                  \
		.devices = 65536, .sweep_points = 1000000, .sweep_values = 100000,          \
		.trace_bytes = (uint64_t)1 << 30, .queued_requests = 500000,                \
		.requests = 100000000, .series_intervals = 1000000, .model_depth = 16,     \
	}
static const struct rs_limits defaults = RS_LIMITS_DEFAULTS;
struct rs_limits rs_limits_in_force = RS_LIMITS_DEFAULTS;

struct limit_field {
	const char *name;
	size_t offset;
	int is_size;
	const char *what;
};

static const struct limit_field fields[] = {
	{ "devices", offsetof(struct rs_limits, devices), 0,
	  "devices one scenario point may build" },
	{ "sweep_points", offsetof(struct rs_limits, sweep_points), 0,
	  "points of one sweep (the product of its axes)" },
	{ "sweep_values", offsetof(struct rs_limits, sweep_values), 0,
	  "values of one sweep axis" },
	{ "trace_bytes", offsetof(struct rs_limits, trace_bytes), 1,
	  "bytes of one trace file" },
	{ "queued_requests", offsetof(struct rs_limits, queued_requests), 0,
	  "requests alive at once (devices' own included) before 'overloaded'" },
	{ "requests", offsetof(struct rs_limits, requests), 0,
	  "requests one workload completes in one point (ramp, then window)" },
	{ "series_intervals", offsetof(struct rs_limits, series_intervals), 0,
	  "time-series intervals of one run" },
	{ "model_depth", offsetof(struct rs_limits, model_depth), 0,
	  "models nested inside one another" },
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

void rs_limits_reset(void)
{
	rs_limits_in_force = defaults;
}

static uint64_t *field_of(struct rs_limits *l, const struct limit_field *f)
{
	return (uint64_t *)((char *)l + f->offset);
}

int rs_limits_set(const char *assignment, char *why, unsigned why_len)
{
	const char *eq = strchr(assignment, '=');
	if (!eq) {
		snprintf(why, why_len, "--limit expects NAME=VALUE, got '%s'", assignment);
		return -1;
	}
	size_t nlen = (size_t)(eq - assignment);
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct limit_field *f = &fields[i];
		if (strlen(f->name) != nlen || strncmp(f->name, assignment, nlen) != 0)
			continue;
		uint64_t v;
		const char *err = NULL;
		int rc = f->is_size ? rs_parse_size(eq + 1, &v, &err)
				    : rs_parse_uint(eq + 1, &v, &err);
		if (rc != 0 || v == 0) {
			snprintf(why, why_len, "--limit %s expects a positive %s, got '%s'",
				 f->name, f->is_size ? "size" : "count", eq + 1);
			return -1;
		}
		*field_of(&rs_limits_in_force, f) = v;
		return 0;
	}
	snprintf(why, why_len, "--limit: unknown cap '%.*s' (see 'raidsim help limits')",
		 (int)nlen, assignment);
	return -1;
}

void rs_limits_describe(char *buf, unsigned len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < NFIELDS && used < len; i++) {
		const struct limit_field *f = &fields[i];
		uint64_t v = *(const uint64_t *)((const char *)&defaults + f->offset);
		char val[32];
		if (f->is_size)
			rs_format_size(v, val, sizeof(val));
		else
			snprintf(val, sizeof(val), "%llu", (unsigned long long)v);
		int n = snprintf(buf + used, len - used, "  %-17s %-9s %s\n", f->name, val,
				 f->what);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}
