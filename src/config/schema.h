/* Schema tables: one declarative row per model or scenario field.
 *
 * The same row gives the YAML key, the C type and offset it binds to, the
 * unit it is written in, the default, the allowed range and the help text,
 * so parsing, range checks, --help and `raidsim models` never drift apart
 * (the shape of fio's options.c).  Binding a map rejects unknown keys with
 * a "did you mean" suggestion, wrong types, bad units and out-of-range
 * values, each at the offending node. */
#ifndef RS_CONFIG_SCHEMA_H
#define RS_CONFIG_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/diag.h"
#include "config/node.h"

enum rs_opt_type {
	RS_OPT_BOOL,      /* bool: true/false, yes/no, on/off */
	RS_OPT_INT,       /* int64_t, plain integer */
	RS_OPT_UINT,      /* uint64_t, plain non-negative integer (also "1e6"-free) */
	RS_OPT_DOUBLE,    /* double, plain number */
	RS_OPT_STR,       /* const char *, points into the node tree */
	RS_OPT_ENUM,      /* int: index into `choices` */
	RS_OPT_SIZE,      /* uint64_t bytes: 512, 512B, 4KiB, 4KB, 1.5MiB, 32GB */
	RS_OPT_TIME,      /* int64_t nanoseconds: 8.5ms, 20s, 65us, 100ns, 2min */
	RS_OPT_RATE,      /* double bytes/s: 266MB/s, 133MiB/s, 1.5Gb/s, 100Mb/s */
	RS_OPT_RPM,       /* double revolutions per minute: 7200rpm, 10krpm */
	RS_OPT_PERCENT,   /* double 0..100: 70% (a bare number is taken as percent) */
	RS_OPT_NODE,      /* const struct rs_node *: left for the owner to read */
};

/* Flags */
#define RS_OPT_REQUIRED  0x1u   /* no default: the key must be present */
#define RS_OPT_POSITIVE  0x2u   /* must be > 0 */
#define RS_OPT_HAS_MIN   0x4u   /* check value >= min (in the canonical unit) */
#define RS_OPT_HAS_MAX   0x8u   /* check value <= max */

struct rs_opt {
	const char *name;
	enum rs_opt_type type;
	size_t offset;                /* offsetof(params struct, field) */
	const char *def;              /* default written as in YAML; NULL = none */
	unsigned flags;
	double min, max;              /* canonical units: bytes, ns, bytes/s, rpm, % */
	const char *const *choices;   /* RS_OPT_ENUM: NULL-terminated names */
	const char *help;
};
#define RS_OPT_END { NULL, 0, 0, NULL, 0, 0, 0, NULL, NULL }

/* Fill `out` from `map` (which may be NULL: all defaults).  `where` is the
 * node to blame for a missing required key (usually the map's parent
 * value), and `ctx` names the section in messages ("device", "workload").
 * Keys in `ignore` (NULL-terminated, may be NULL) are skipped: they belong
 * to the caller (e.g. "model", "type").  Returns 0 or -1 with d filled. */
int rs_schema_bind(const struct rs_opt *opts, const struct rs_node *map, void *out,
		   const struct rs_node *where, const char *ctx,
		   const char *const *ignore, struct rs_diag *d);

/* Convert one scalar as the row says and store it; used by bind and by
 * callers that read a sequence of values.  Returns 0 or -1 with d filled. */
int rs_schema_convert(const struct rs_opt *opt, const struct rs_node *value, void *out,
		      struct rs_diag *d);

/* Names of the rows, for suggestions: the closest name to `key` among
 * `names` by edit distance, or NULL if nothing is close enough. */
const char *rs_closest_name(const char *key, const char *const *names, size_t n);
const char *rs_schema_closest(const struct rs_opt *opts, const char *key);

/* Add to `map` every row's default the map does not set, as a scalar
 * whose file is `file` (so a printer can tell defaults apart), in the
 * schema's order after the map's own keys. */
void rs_schema_fill_defaults(const struct rs_opt *opts, struct rs_node *map, const char *file);

/* One line per row: name, type/unit, default, help. */
void rs_schema_print(const struct rs_opt *opts, FILE *out, const char *indent);

#endif
