/* Reading a DiskSim block for `raidsim import disksim`: checking each of
 * its parameters against the block's rules, reading a value within the
 * bounds raidsim models, and writing a model line that names the value's
 * source.  Every part of the importer uses these, so they live apart from
 * the parts. */
#include "import/dsim_hdd_priv.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "kernel/assert.h"

/* With the overheads of disconnecting and reselecting (conn_keys in
 * dsim_hdd.c), what these flags decide is no longer free: their 0 is what
 * raidsim's disconnecting drive does, and 1 is refused. */
static const struct rule conn_rules[] = {
	{ "Immediate buffer read", EQ, 0, "a read's data goes only once the reselection finds "
	  "it in the buffer" },
	{ "Immediate buffer write", EQ, 0, "a write reports its completion from the media, "
	  "after reselecting" },
	END
};

int dsim_err_val(struct ctx *c, const struct rs_dsim_val *v, const char *fmt, ...)
{
	char msg[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rs_diag_at(c->d, v->file->shown, v->line, v->col, "%s", msg);
}

void dsim_where(const struct rs_dsim_param *p, char *buf, size_t n)
{
	snprintf(buf, n, "%s:%d", p->file->name, p->line);
}

/* Check every parameter of a block against its rules. */
int dsim_check_block(struct ctx *c, const struct rs_dsim_val *b, const struct rule *rules)
{
	for (size_t i = 0; i < b->nparams; i++) {
		const struct rs_dsim_param *p = &b->params[i];
		const struct rule *r = rules;
		while (r->key && strcmp(r->key, p->key) != 0)
			r++;
		if (!r->key)
			return rs_diag_at(c->d, p->file->shown, p->line, p->col, "unknown DiskSim "
					  "parameter '%s' in a %s block", p->key,
					  b->type ? b->type : "DiskSim");
		for (size_t j = 0; j < i; j++)
			if (strcmp(b->params[j].key, p->key) == 0)
				return rs_diag_at(c->d, p->file->shown, p->line, p->col,
						  "'%s' given twice (first at line %d)", p->key,
						  b->params[j].line);
		if (r->act == EQ) {
			const struct rs_dsim_val *v = p->val;
			if (v->kind != RS_DSIM_NUM)
				return dsim_err_val(c, v, "'%s' must be a number", p->key);
			if (v->num != r->value)
				return dsim_err_val(c, v, "'%s' = %s is not modelled: raidsim can only "
						    "import %g (%s)", p->key, v->text, r->value, r->why);
		} else if (r->act == IGNORE) {
			const struct rule *cr = conn_rules;
			while (c->conn && cr->key && strcmp(cr->key, p->key) != 0)
				cr++;
			char w[300];
			dsim_where(p, w, sizeof(w));
			if (!c->conn || !cr->key) {
				fprintf(c->ign, "#   %s \"%s\": %s\n", w, p->key, r->why);
				continue;
			}
			if (p->val->kind != RS_DSIM_NUM || p->val->num != cr->value)
				return dsim_err_val(c, p->val, "'%s' = %s is not modelled with "
						    "the disconnect and reselect overheads: raidsim can "
						    "only import %g (%s)", p->key, p->val->text,
						    cr->value, cr->why);
			fprintf(c->ign, "#   %s \"%s\" = 0: %s\n", w, p->key, cr->why);
		}
	}
	for (const struct rule *r = rules; r->key; r++)
		if (r->act == TAKE && !rs_dsim_param(b, r->key))
			return dsim_err_val(c, b, "the %s block has no '%s'",
					    b->type ? b->type : "DiskSim", r->key);
	return 0;
}

const struct rs_dsim_param *dsim_take(const struct rs_dsim_val *b, const char *key)
{
	const struct rs_dsim_param *p = rs_dsim_param(b, key);
	RS_ASSERT(p != NULL);          /* check_block made sure */
	return p;
}

int dsim_num(struct ctx *c, const struct rs_dsim_param *p, double *out)
{
	*out = 0;
	if (p->val->kind != RS_DSIM_NUM)
		return dsim_err_val(c, p->val, "'%s' must be a number", p->key);
	*out = p->val->num;
	return 0;
}

/* A whole number in [lo, hi]. */
int dsim_whole(struct ctx *c, const struct rs_dsim_param *p, double lo, double hi,
	       uint64_t *out)
{
	double x;
	if (dsim_num(c, p, &x))
		return -1;
	if (x != floor(x) || x < lo || x > hi)
		return dsim_err_val(c, p->val, "'%s' must be a whole number from %.0f to %.0f, got %s",
				    p->key, lo, hi, p->val->text);
	*out = (uint64_t)x;
	return 0;
}

/* A time in milliseconds, >= 0. */
int dsim_msec(struct ctx *c, const struct rs_dsim_param *p, double *out)
{
	if (dsim_num(c, p, out))
		return -1;
	if (*out < 0 || *out > 1e6)
		return dsim_err_val(c, p->val, "'%s' = %s is not modelled: raidsim takes times from 0 "
				    "to 1000 s", p->key, p->val->text);
	return 0;
}

/* One model line: "key: value", its source and DiskSim's name. */
void dsim_line(struct ctx *c, const char *key, const char *value,
	       const struct rs_dsim_param *src, const char *note)
{
	char kv[200], w[300];
	snprintf(kv, sizeof(kv), "%s: %s", key, value);
	dsim_where(src, w, sizeof(w));
	fprintf(c->out, "%-34s # %s \"%s\"%s%s\n", kv, w, src->key, note ? "; " : "",
		note ? note : "");
}

void dsim_fmt_ms(char *buf, size_t n, double ms)
{
	snprintf(buf, n, "%.10gms", ms);
}
