/* Caps on the work one run may ask for.
 *
 * Scenario, model and trace files come from other people.  A file that
 * asks for 16 million devices, a trace of endless bytes or an open-loop
 * rate no device can drain must stop with a message, not take the machine
 * with it.  Each cap below is checked where the work is set up and named
 * in the message, so a user who really means it can raise it on the
 * command line (`--limit NAME=VALUE`).  The file itself cannot raise them:
 * that would defeat their purpose. */
#ifndef RS_CONFIG_LIMITS_H
#define RS_CONFIG_LIMITS_H

#include <stdint.h>

struct rs_limits {
	uint64_t devices;          /* devices one scenario point may build */
	uint64_t sweep_points;     /* points of one sweep (product of its axes) */
	uint64_t sweep_values;     /* values of one sweep axis */
	uint64_t trace_bytes;      /* bytes of one trace file */
	uint64_t queued_requests;  /* requests alive at once, devices' own included */
	uint64_t requests;         /* requests a workload completes in one point, per phase */
	uint64_t series_intervals; /* time-series intervals of one run */
	uint64_t model_depth;      /* models nested inside one another */
};

/* The caps in force: the defaults unless --limit changed them.  The run
 * reads them; only the command line writes them (rs_limits_set, before
 * anything loads).  The object is named here only so that rs_limits() can
 * be inline: a workload asks for queued_requests on every request it
 * issues, and a call there cost more than the load.  Read it through
 * rs_limits(), never write it. */
extern struct rs_limits rs_limits_in_force;

static inline const struct rs_limits *rs_limits(void)
{
	return &rs_limits_in_force;
}

/* Apply "NAME=VALUE" (VALUE a plain count, or a size such as 4GiB for
 * trace_bytes).  0 on success; -1 with a one-line reason in why. */
int rs_limits_set(const char *assignment, char *why, unsigned why_len);

/* Restore the defaults (for tests). */
void rs_limits_reset(void);

/* One line per cap, "NAME  DEFAULT  what it bounds", for --help. */
void rs_limits_describe(char *buf, unsigned len);

#endif
