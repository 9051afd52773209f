/* Binding YAML maps to C structs through schema tables. */
#include "config/schema.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "config/units.h"
#include "kernel/assert.h"

/* Word used in "bad size '64XB' for 'strip'". */
static const char *type_word(enum rs_opt_type t)
{
	switch (t) {
	case RS_OPT_BOOL: return "boolean";
	case RS_OPT_INT: return "integer";
	case RS_OPT_UINT: return "integer";
	case RS_OPT_DOUBLE: return "number";
	case RS_OPT_STR: return "string";
	case RS_OPT_ENUM: return "choice";
	case RS_OPT_SIZE: return "size";
	case RS_OPT_TIME: return "time";
	case RS_OPT_RATE: return "rate";
	case RS_OPT_RPM: return "speed";
	case RS_OPT_PERCENT: return "percentage";
	case RS_OPT_NODE: return "section";
	}
	return "value";
}

/* Short column text for rs_schema_print. */
static const char *type_unit(enum rs_opt_type t)
{
	switch (t) {
	case RS_OPT_BOOL: return "bool";
	case RS_OPT_INT: return "int";
	case RS_OPT_UINT: return "uint";
	case RS_OPT_DOUBLE: return "number";
	case RS_OPT_STR: return "string";
	case RS_OPT_ENUM: return "enum";
	case RS_OPT_SIZE: return "size";
	case RS_OPT_TIME: return "time";
	case RS_OPT_RATE: return "rate";
	case RS_OPT_RPM: return "rpm";
	case RS_OPT_PERCENT: return "percent";
	case RS_OPT_NODE: return "section";
	}
	return "?";
}

/* Optimal-string-alignment distance (Levenshtein plus adjacent swaps),
 * ignoring ASCII case so "Strip" finds "strip".  Long names are not
 * worth suggesting for, so the work stays bounded. */
#define MAX_NAME 64
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int dp[MAX_NAME + 1][MAX_NAME + 1];

	if (la > MAX_NAME || lb > MAX_NAME)
		return 1 << 20;
	for (size_t i = 0; i <= la; i++)
		dp[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		dp[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			int best = dp[i - 1][j - 1] + (ca != cb);

			if (dp[i - 1][j] + 1 < best)
				best = dp[i - 1][j] + 1;
			if (dp[i][j - 1] + 1 < best)
				best = dp[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && dp[i - 2][j - 2] + 1 < best)
				best = dp[i - 2][j - 2] + 1;
			dp[i][j] = best;
		}
	}
	return dp[la][lb];
}

const char *rs_closest_name(const char *key, const char *const *names, size_t n)
{
	int klen = (int)strlen(key);
	int limit = klen / 3 > 2 ? klen / 3 : 2;
	const char *best = NULL;
	int bestd = limit + 1;

	for (size_t i = 0; i < n; i++) {
		int nlen, dist;

		if (!names[i])
			continue;
		nlen = (int)strlen(names[i]);
		dist = distance(key, names[i]);
		/* Replacing every character is no suggestion at all. */
		if (dist >= klen || dist >= nlen)
			continue;
		if (dist < bestd) {
			bestd = dist;
			best = names[i];
		}
	}
	return best;
}

static size_t count_opts(const struct rs_opt *opts)
{
	size_t n = 0;

	while (opts[n].name)
		n++;
	return n;
}

static size_t count_names(const char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

const char *rs_schema_closest(const struct rs_opt *opts, const char *key)
{
	size_t n = count_opts(opts);
	const char **names = calloc(n + 1, sizeof(*names));
	const char *best;

	RS_ASSERT(names);
	for (size_t i = 0; i < n; i++)
		names[i] = opts[i].name;
	best = rs_closest_name(key, names, n);
	free(names);
	return best;
}

static void format_value(const struct rs_opt *opt, double v, char *buf, unsigned len)
{
	switch (opt->type) {
	case RS_OPT_SIZE:
		rs_format_size(v <= 0 ? 0 : v >= 1.8e19 ? UINT64_MAX : (uint64_t)v, buf, len);
		break;
	case RS_OPT_TIME:
		rs_format_time(v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : (int64_t)v,
			       buf, len);
		break;
	case RS_OPT_RATE:
		rs_format_rate(v, buf, len);
		break;
	case RS_OPT_RPM:
		snprintf(buf, len, "%grpm", v);
		break;
	case RS_OPT_PERCENT:
		snprintf(buf, len, "%g%%", v);
		break;
	default:
		snprintf(buf, len, "%.17g", v);
		break;
	}
}

/* The bounds a value must lie within (a percentage always within 0..100). */
static void bounds(const struct rs_opt *opt, bool *has_min, double *min, bool *has_max,
		   double *max)
{
	*has_min = opt->flags & RS_OPT_HAS_MIN;
	*has_max = opt->flags & RS_OPT_HAS_MAX;
	*min = opt->min;
	*max = opt->max;
	if (opt->type == RS_OPT_PERCENT) {
		if (!*has_min || *min < 0)
			*min = 0;
		if (!*has_max || *max > 100)
			*max = 100;
		*has_min = *has_max = true;
	}
}

/* Every value of every sweep point passes here, so the common case (in
 * range) formats nothing: printing doubles costs more than all the rest
 * of binding a field. */
static bool in_range(const struct rs_opt *opt, double v)
{
	bool has_min, has_max;
	double min, max;

	bounds(opt, &has_min, &min, &has_max, &max);
	if ((opt->flags & RS_OPT_POSITIVE) && !(v > 0))
		return false;
	return !(has_min && v < min) && !(has_max && v > max);
}

/* `got` is the converted value as text, for the message. */
static int range_error(const struct rs_opt *opt, double v, const char *got,
		       const struct rs_node *at, struct rs_diag *d)
{
	char lo[48], hi[48];
	bool has_min, has_max;
	double min, max;

	bounds(opt, &has_min, &min, &has_max, &max);
	if ((opt->flags & RS_OPT_POSITIVE) && !(v > 0))
		return rs_diag_node(d, at, "'%s' must be positive, got %s", opt->name, got);
	format_value(opt, min, lo, sizeof(lo));
	format_value(opt, max, hi, sizeof(hi));
	if (has_min && has_max)
		return rs_diag_node(d, at, "'%s' must be between %s and %s, got %s",
				    opt->name, lo, hi, got);
	if (has_min)
		return rs_diag_node(d, at, "'%s' must be at least %s, got %s", opt->name, lo, got);
	return rs_diag_node(d, at, "'%s' must be at most %s, got %s", opt->name, hi, got);
}

static int bad_value(const struct rs_opt *opt, const struct rs_node *v, const char *why,
		     struct rs_diag *d)
{
	return rs_diag_node(d, v, "bad %s '%.80s' for '%s': %s", type_word(opt->type),
			    v->str, opt->name, why);
}

static int convert_enum(const struct rs_opt *opt, const struct rs_node *v, int *out,
			struct rs_diag *d)
{
	char list[512] = "";
	size_t n = count_names(opt->choices), used = 0;
	const char *close;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(v->str, opt->choices[i]) == 0) {
			*out = (int)i;
			return 0;
		}
	}
	for (size_t i = 0; i < n && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
					 i ? ", " : "", opt->choices[i]);
	close = rs_closest_name(v->str, opt->choices, n);
	if (close)
		return rs_diag_node(d, v, "unknown value '%.80s' for '%s' (expected one of: "
				    "%s; did you mean '%s'?)", v->str, opt->name, list, close);
	return rs_diag_node(d, v, "unknown value '%.80s' for '%s' (expected one of: %s)",
			    v->str, opt->name, list);
}

int rs_schema_convert(const struct rs_opt *opt, const struct rs_node *value, void *out,
		      struct rs_diag *d)
{
	char *field = (char *)out + opt->offset;
	const char *why = NULL;
	char got[64];

	if (opt->type == RS_OPT_NODE) {
		*(const struct rs_node **)field = value;
		return 0;
	}
	if (!value || value->kind != RS_NODE_SCALAR)
		return rs_diag_node(d, value, "expected a scalar for '%s', got %s", opt->name,
				    rs_node_kind_name(value));
	switch (opt->type) {
	case RS_OPT_BOOL: {
		int b;

		if (rs_parse_bool(value->str, &b, &why))
			return bad_value(opt, value, why, d);
		*(bool *)field = b;
		return 0;
	}
	case RS_OPT_INT: {
		int64_t v;

		if (rs_parse_int(value->str, &v, &why))
			return bad_value(opt, value, why, d);
		if (!in_range(opt, (double)v)) {
			snprintf(got, sizeof(got), "%" PRId64, v);
			return range_error(opt, (double)v, got, value, d);
		}
		*(int64_t *)field = v;
		return 0;
	}
	case RS_OPT_UINT: {
		uint64_t v;

		if (rs_parse_uint(value->str, &v, &why))
			return bad_value(opt, value, why, d);
		if (!in_range(opt, (double)v)) {
			snprintf(got, sizeof(got), "%" PRIu64, v);
			return range_error(opt, (double)v, got, value, d);
		}
		*(uint64_t *)field = v;
		return 0;
	}
	case RS_OPT_SIZE: {
		uint64_t v;

		if (rs_parse_size(value->str, &v, &why))
			return bad_value(opt, value, why, d);
		if (!in_range(opt, (double)v)) {
			rs_format_size(v, got, sizeof(got));
			return range_error(opt, (double)v, got, value, d);
		}
		*(uint64_t *)field = v;
		return 0;
	}
	case RS_OPT_TIME: {
		int64_t v;

		if (rs_parse_time(value->str, &v, &why))
			return bad_value(opt, value, why, d);
		if (!in_range(opt, (double)v)) {
			rs_format_time(v, got, sizeof(got));
			return range_error(opt, (double)v, got, value, d);
		}
		*(int64_t *)field = v;
		return 0;
	}
	case RS_OPT_DOUBLE:
	case RS_OPT_RATE:
	case RS_OPT_RPM:
	case RS_OPT_PERCENT: {
		double v;
		int rc = opt->type == RS_OPT_DOUBLE ? rs_parse_double(value->str, &v, &why) :
			opt->type == RS_OPT_RATE ? rs_parse_rate(value->str, &v, &why) :
			opt->type == RS_OPT_RPM ? rs_parse_rpm(value->str, &v, &why) :
			rs_parse_percent_unchecked(value->str, &v, &why);

		if (rc)
			return bad_value(opt, value, why, d);
		if (!in_range(opt, v)) {
			format_value(opt, v, got, sizeof(got));
			return range_error(opt, v, got, value, d);
		}
		*(double *)field = v;
		return 0;
	}
	case RS_OPT_STR:
		*(const char **)field = value->str;
		return 0;
	case RS_OPT_ENUM:
		return convert_enum(opt, value, (int *)field, d);
	case RS_OPT_NODE:
		break;
	}
	RS_UNREACHABLE();
}

/* A field with neither value nor default still gets a defined value. */
static void zero_field(const struct rs_opt *opt, void *out)
{
	char *field = (char *)out + opt->offset;

	switch (opt->type) {
	case RS_OPT_BOOL: *(bool *)field = false; break;
	case RS_OPT_INT: case RS_OPT_TIME: *(int64_t *)field = 0; break;
	case RS_OPT_UINT: case RS_OPT_SIZE: *(uint64_t *)field = 0; break;
	case RS_OPT_DOUBLE: case RS_OPT_RATE: case RS_OPT_RPM: case RS_OPT_PERCENT:
		*(double *)field = 0;
		break;
	case RS_OPT_STR: *(const char **)field = NULL; break;
	case RS_OPT_ENUM: *(int *)field = 0; break;
	case RS_OPT_NODE: *(const struct rs_node **)field = NULL; break;
	}
}

static const struct rs_opt *find_opt(const struct rs_opt *opts, const char *name)
{
	for (; opts->name; opts++)
		if (strcmp(opts->name, name) == 0)
			return opts;
	return NULL;
}

static bool ignored(const char *const *ignore, const char *name)
{
	for (size_t i = 0; ignore && ignore[i]; i++)
		if (strcmp(ignore[i], name) == 0)
			return true;
	return false;
}

static int unknown_key(const struct rs_opt *opts, const char *const *ignore,
		       const struct rs_node *key, const char *ctx, struct rs_diag *d)
{
	size_t no = count_opts(opts), ni = count_names(ignore);
	const char **names = calloc(no + ni + 1, sizeof(*names));
	const char *close;

	RS_ASSERT(names);
	for (size_t i = 0; i < no; i++)
		names[i] = opts[i].name;
	for (size_t i = 0; i < ni; i++)
		names[no + i] = ignore[i];
	close = rs_closest_name(key->str, names, no + ni);
	if (close)
		rs_diag_node(d, key, "unknown key '%.80s' in %s (did you mean '%s'?)",
			     key->str, ctx, close);
	else
		rs_diag_node(d, key, "unknown key '%.80s' in %s", key->str, ctx);
	free(names);
	return -1;
}

int rs_schema_bind(const struct rs_opt *opts, const struct rs_node *map, void *out,
		   const struct rs_node *where, const char *ctx,
		   const char *const *ignore, struct rs_diag *d)
{
	if (map && map->kind != RS_NODE_MAP)
		return rs_diag_node(d, map, "expected a mapping for %s, got %s", ctx,
				    rs_node_kind_name(map));
	/* Typos first: a misspelt required key is better reported as the
	 * typo than as the key missing. */
	for (size_t i = 0; map && i < map->len; i++) {
		const char *k = map->keys[i]->str;

		if (!ignored(ignore, k) && !find_opt(opts, k))
			return unknown_key(opts, ignore, map->keys[i], ctx, d);
	}
	/* Values in file order, so the first error is the first in the file. */
	for (size_t i = 0; map && i < map->len; i++) {
		const struct rs_opt *opt = find_opt(opts, map->keys[i]->str);

		if (opt && !ignored(ignore, opt->name) &&
		    rs_schema_convert(opt, map->items[i], out, d))
			return -1;
	}
	for (const struct rs_opt *opt = opts; opt->name; opt++) {
		struct rs_node tmp;

		if (ignored(ignore, opt->name) || rs_node_find(map, opt->name) >= 0)
			continue;
		if (opt->flags & RS_OPT_REQUIRED)
			return rs_diag_node(d, where ? where : map,
					    "missing required key '%s' in %s", opt->name, ctx);
		if (!opt->def || opt->type == RS_OPT_NODE) {
			zero_field(opt, out);
			continue;
		}
		/* Defaults go through the same converter as the file; a bad
		 * one is a bug in the table, reported like any other error. */
		memset(&tmp, 0, sizeof(tmp));
		tmp.kind = RS_NODE_SCALAR;
		tmp.str = (char *)opt->def;
		if (where) {
			tmp.file = where->file;
			tmp.line = where->line;
			tmp.col = where->col;
		}
		if (rs_schema_convert(opt, &tmp, out, d))
			return -1;
	}
	return 0;
}

void rs_schema_fill_defaults(const struct rs_opt *opts, struct rs_node *map, const char *file)
{
	for (const struct rs_opt *o = opts; o->name; o++)
		if (o->def && !rs_node_get(map, o->name))
			rs_node_map_append(map, rs_node_new_scalar(file, 0, 0, o->name),
					   rs_node_new_scalar(file, 0, 0, o->def));
}

void rs_schema_print(const struct rs_opt *opts, FILE *out, const char *indent)
{
	int w = 4;

	for (const struct rs_opt *o = opts; o->name; o++)
		if ((int)strlen(o->name) > w)
			w = (int)strlen(o->name);
	for (const struct rs_opt *o = opts; o->name; o++) {
		char type[128];
		const char *def = o->flags & RS_OPT_REQUIRED ? "(required)" :
			o->def ? o->def : "-";

		if (o->type == RS_OPT_ENUM && o->choices) {
			size_t used = 0;

			type[0] = 0;
			for (size_t i = 0; o->choices[i] && used < sizeof(type); i++)
				used += (size_t)snprintf(type + used, sizeof(type) - used, "%s%s",
							 i ? "|" : "", o->choices[i]);
		} else {
			snprintf(type, sizeof(type), "%s", type_unit(o->type));
		}
		fprintf(out, "%s%-*s  %-10s  %-10s  %s\n", indent ? indent : "", w, o->name,
			type, def, o->help ? o->help : "");
	}
}
