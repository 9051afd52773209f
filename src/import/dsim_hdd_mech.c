/* The mechanics of a DiskSim drive (its dm_disk and dm_mech_g1 blocks) for
 * `raidsim import disksim`: capacity, heads and cylinders, the spindle,
 * head switch and write settling, and the seek curve -- measured
 * (extracted, from its .seek file) or HPL's equation.  Separate because
 * the seek curves have their own file format and formulas. */
#include "import/dsim_hdd_priv.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const struct rule dm_disk_rules[] = {
	{ "Number of data surfaces", TAKE, 0, NULL },
	{ "Number of cylinders", TAKE, 0, NULL },
	{ "Block count", TAKE, 0, NULL },
	{ "Mechanical Model", TAKE, 0, NULL },
	{ "Layout Model", TAKE, 0, NULL },
	END
};

static const struct rule mech_rules[] = {
	{ "Access time type", TAKE, 0, NULL },
	{ "Seek type", TAKE, 0, NULL },
	{ "Single cylinder seek time", TAKE, 0, NULL },
	{ "Full seek curve", OPTIONAL, 0, NULL },
	{ "Full strobe seek time", TAKE, 0, NULL },
	{ "Average seek time", OPTIONAL, 0, NULL },
	{ "Add. write settling delay", TAKE, 0, NULL },
	{ "HPL seek equation values", OPTIONAL, 0, NULL },
	{ "First ten seek times", OPTIONAL, 0, NULL },
	{ "Head switch time", TAKE, 0, NULL },
	{ "Rotation speed (in rpms)", TAKE, 0, NULL },
	{ "Percent error in rpms", EQ, 0, "raidsim's spindles turn at exactly their speed" },
	END
};

/* A measured seek curve: "Seek distances measured: N" then N lines
 * "distance, time". */
static int emit_seek_file(struct ctx *c, const struct rs_dsim_param *fp, double single_ms,
			  const struct rs_dsim_param *single, double full_ms,
			  const struct rs_dsim_param *full)
{
	if (fp->val->kind != RS_DSIM_WORD && fp->val->kind != RS_DSIM_NUM)
		return dsim_err_val(c, fp->val, "'Full seek curve' must be a file name");
	const struct rs_dsim_file *f = rs_dsim_open(c->ds, fp->val->text, fp->file, fp->val->line,
						    fp->val->col, c->d);
	if (!f)
		return -1;
	const char *s = f->text;
	int ln = 1;
	unsigned long n;
	int used = 0;
	if (sscanf(s, "Seek distances measured: %lu%n", &n, &used) != 1 || n == 0 || n > 1000000)
		return rs_diag_at(c->d, f->shown, 1, 1, "expected 'Seek distances measured: N' "
				  "(N from 1 to 1000000)");
	s += used;
	fprintf(c->out, "seek_table:   # %s:2-%lu, measured read seeks [cylinders, time], kept "
		"as measured\n  [", f->name, n + 1);
	double prev = 0, first_t = 0, last_t = 0;
	bool rounded = false;
	for (unsigned long i = 0; i < n; i++) {
		while (*s && *s != '\n')
			s++;
		if (*s != '\n')
			return rs_diag_at(c->d, f->shown, ln, 1, "the file ends after %lu of its %lu "
					  "seek distances", i, n);
		s++;
		ln++;
		char *end;
		double dist = strtod(s, &end);
		if (end == s || *end != ',')
			return rs_diag_at(c->d, f->shown, ln, 1, "expected 'distance, time'");
		const char *t0 = end + 1;
		double t = strtod(t0, &end);
		if (end == t0 || (*end && *end != '\n' && *end != '\r' && *end != ' ' &&
				  *end != '\t'))
			return rs_diag_at(c->d, f->shown, ln, (int)(t0 - s) + 1, "expected a time "
					  "in ms");
		if (dist != floor(dist) || dist < 1 || dist <= prev || t < 0 || t > 1e5)
			return rs_diag_at(c->d, f->shown, ln, 1, "seek distances must be whole, "
					  "increasing from 1, with times from 0 to 100 s");
		if (i == 0 && dist != 1)
			return rs_diag_at(c->d, f->shown, ln, 1, "the seek curve must start at "
					  "distance 1");
		/* raidsim's clock counts whole nanoseconds */
		double ns = round(t * 1e6);
		rounded |= fabs(ns - t * 1e6) > 1e-3;   /* not just binary noise */
		t = ns / 1e6;
		if (i == 0)
			first_t = t;
		last_t = t;
		fprintf(c->out, "%s[%.0f, %.10gms]%s", i % 6 == 0 && i ? "\n   " : (i ? " " : ""),
			dist, t, i + 1 < n ? "," : "");
		prev = dist;
	}
	fprintf(c->out, "]\n");
	if (rounded)
		fprintf(c->out, "# (seek times rounded to whole nanoseconds, raidsim's clock)\n");
	/* DiskSim's extracted seek reads only the curve: the one-cylinder and
	 * full-stroke figures serve the formula seek types. */
	char w[300];
	if (fabs(single_ms - first_t) > 1e-9) {
		dsim_where(single, w, sizeof(w));
		fprintf(c->ign, "#   %s \"%s\": used only by the formula seek types; the "
			"extracted curve gives distance 1\n", w, single->key);
	}
	if (fabs(full_ms - last_t) > 1e-9) {
		dsim_where(full, w, sizeof(w));
		fprintf(c->ign, "#   %s \"%s\": used only by the formula seek types; the "
			"extracted curve gives the long seeks\n", w, full->key);
	}
	return 0;
}

/* A parameter the seek type does not use, if the set-up gives it. */
static void unused(struct ctx *c, const struct rs_dsim_val *m, const char *key, const char *why)
{
	const struct rs_dsim_param *p = rs_dsim_param(m, key);
	if (p) {
		char w[300];
		dsim_where(p, w, sizeof(w));
		fprintf(c->ign, "#   %s \"%s\": %s\n", w, key, why);
	}
}

/* A list of n numbers, each from 0 to 1e5 (times in ms, or cylinders). */
static int numbers(struct ctx *c, const struct rs_dsim_param *p, size_t n, double *out)
{
	const struct rs_dsim_val *l = p->val;
	if (l->kind != RS_DSIM_LIST || l->nitems != n)
		return dsim_err_val(c, l, "'%s' must be a list of %zu numbers", p->key, n);
	for (size_t i = 0; i < n; i++) {
		const struct rs_dsim_val *v = l->items[i];
		if (v->kind != RS_DSIM_NUM)
			return dsim_err_val(c, v, "'%s' must be a list of %zu numbers", p->key, n);
		out[i] = v->num;
	}
	return 0;
}

/* DiskSim's "hpl" and "hplplus10" seek types: HPL's equation with values
 * V1..V6 (boundary; root constant and multiplier; linear constant and
 * multiplier; one-cylinder time or -1), and for hplplus10 the first ten
 * distances' times instead of the equation. */
static int emit_seek_hpl(struct ctx *c, const struct rs_dsim_val *m, bool plus10)
{
	const struct rs_dsim_param *hp = rs_dsim_param(m, "HPL seek equation values");
	const struct rs_dsim_param *tp = rs_dsim_param(m, "First ten seek times");
	const struct rs_dsim_param *st = dsim_take(m, "Seek type");
	if (!hp || (plus10 && !tp))
		return dsim_err_val(c, st->val, "seek type %s needs '%s'", st->val->text,
				    !hp ? "HPL seek equation values" : "First ten seek times");
	double v[6], first[10];
	if (numbers(c, hp, 6, v) || (plus10 && numbers(c, tp, 10, first)))
		return -1;
	if (v[0] != floor(v[0]) || v[0] < 0 || v[0] > 4e9)
		return dsim_err_val(c, hp->val->items[0], "the HPL boundary must be a whole number of "
				    "cylinders");
	for (int i = 1; i < 5; i++)
		if (v[i] < 0 || v[i] > 1e5)
			return dsim_err_val(c, hp->val->items[i], "HPL seek equation values from 0 to "
					    "1e5 ms are modelled, got %s", hp->val->items[i]->text);
	if (v[5] != -1 && (v[5] < 0 || v[5] > 1e5))
		return dsim_err_val(c, hp->val->items[5], "the one-cylinder HPL seek time must be -1 "
				    "or from 0 to 1e5 ms");
	size_t nfirst = plus10 ? 10 : v[5] != -1;
	if (!plus10)
		first[0] = v[5];
	for (size_t i = 0; plus10 && i < 10; i++)
		if (first[i] < 0 || first[i] > 1e5)
			return dsim_err_val(c, tp->val->items[i], "seek times from 0 to 1e5 ms are "
					    "modelled, got %s", tp->val->items[i]->text);
	char w[300];
	dsim_where(hp, w, sizeof(w));
	fprintf(c->out, "seek_hpl:   # %s \"%s\" = %s: HPL's seek equation\n", w, st->key,
		st->val->text);
	char kv[200];
	snprintf(kv, sizeof(kv), "boundary: %.0f", v[0]);
	fprintf(c->out, "  %-32s # V1, cylinders: the root part below it\n", kv);
	snprintf(kv, sizeof(kv), "sqrt: [%.10gms, %.10gms]", v[1], v[2]);
	fprintf(c->out, "  %-32s # V2 + V3 x sqrt(distance)\n", kv);
	snprintf(kv, sizeof(kv), "linear: [%.10gms, %.10gms]", v[3], v[4]);
	fprintf(c->out, "  %-32s # V4 + V5 x distance\n", kv);
	if (nfirst) {
		fprintf(c->out, "  first: [");
		for (size_t i = 0; i < nfirst; i++)
			fprintf(c->out, "%s%.10gms", i ? ", " : "", first[i]);
		if (plus10) {
			dsim_where(tp, w, sizeof(w));
			fprintf(c->out, "]   # %s \"%s\"\n", w, tp->key);
		} else {
			fprintf(c->out, "]   # V6, the one-cylinder seek\n");
		}
	}
	unused(c, m, "Single cylinder seek time", plus10 ? "hplplus10 takes distance 1 from "
	       "the first ten seek times" : "hpl takes the one-cylinder seek from V6");
	unused(c, m, "Full strobe seek time", "used only by the three-point seek types");
	unused(c, m, "Average seek time", "used only by the three-point seek types");
	unused(c, m, "Full seek curve", "used only by the extracted seek type");
	if (!plus10)
		unused(c, m, "First ten seek times", "used only by the hplplus10 seek type");
	return 0;
}

static int do_mech(struct ctx *c, const struct rs_dsim_param *mp)
{
	const struct rs_dsim_val *m = mp->val;
	if (m->kind != RS_DSIM_BLOCK || strcmp(m->type, "dm_mech_g1") != 0)
		return dsim_err_val(c, m, "'Mechanical Model' must be a dm_mech_g1 block");
	if (dsim_check_block(c, m, mech_rules))
		return -1;
	const struct rs_dsim_param *att = dsim_take(m, "Access time type");
	if (att->val->kind != RS_DSIM_WORD || strcmp(att->val->text, "trackSwitchPlusRotation"))
		return dsim_err_val(c, att->val, "'Access time type' %s is not modelled: raidsim "
				    "positions as trackSwitchPlusRotation (seek or head switch, then "
				    "the rotational wait)", att->val->text);
	const struct rs_dsim_param *st = dsim_take(m, "Seek type");
	bool extracted = st->val->kind == RS_DSIM_WORD && !strcmp(st->val->text, "extracted");
	bool hpl = st->val->kind == RS_DSIM_WORD && !strcmp(st->val->text, "hpl");
	bool plus10 = st->val->kind == RS_DSIM_WORD && !strcmp(st->val->text, "hplplus10");
	if (!extracted && !hpl && !plus10)
		return dsim_err_val(c, st->val, "'Seek type' %s is not modelled: raidsim imports "
				    "measured (extracted) seek curves and HPL's equation (hpl, "
				    "hplplus10)", st->val->text);
	double rpm, hs, ws, single, full;
	char v[64];
	const struct rs_dsim_param *rp = dsim_take(m, "Rotation speed (in rpms)");
	if (dsim_num(c, rp, &rpm))
		return -1;
	if (rpm <= 0 || rpm > 33000)
		return dsim_err_val(c, rp->val, "the rotation speed must be above 0 and at most 33000 "
				    "rpm");
	snprintf(v, sizeof(v), "%.10grpm", rpm);
	dsim_line(c, "rpm", v, rp, NULL);
	const struct rs_dsim_param *hp = dsim_take(m, "Head switch time");
	if (dsim_msec(c, hp, &hs))
		return -1;
	dsim_fmt_ms(v, sizeof(v), hs);
	dsim_line(c, "head_switch", v, hp, NULL);
	const struct rs_dsim_param *wp = dsim_take(m, "Add. write settling delay");
	if (dsim_num(c, wp, &ws))
		return -1;
	dsim_fmt_ms(v, sizeof(v), fabs(ws));
	if (ws < 0)
		dsim_line(c, "write_settle_early", v, wp, "negative: a write may start this much before "
			  "a read's seek or head switch would end");
	else
		dsim_line(c, "write_settle", v, wp, "added to every nonzero write seek and head switch");
	if (!extracted)
		return emit_seek_hpl(c, m, plus10);
	const struct rs_dsim_param *sp = dsim_take(m, "Single cylinder seek time");
	const struct rs_dsim_param *fp = dsim_take(m, "Full strobe seek time");
	const struct rs_dsim_param *cp = rs_dsim_param(m, "Full seek curve");
	if (!cp)
		return dsim_err_val(c, st->val, "seek type extracted needs a 'Full seek curve'");
	if (dsim_msec(c, sp, &single) || dsim_msec(c, fp, &full))
		return -1;
	unused(c, m, "Average seek time", "used only by the three-point seek types; this "
	       "curve is measured");
	unused(c, m, "HPL seek equation values", "used only by the HPL seek types; this curve "
	       "is measured");
	unused(c, m, "First ten seek times", "used only by the HPL seek types; this curve is "
	       "measured");
	return emit_seek_file(c, cp, single, sp, full, fp);
}

int dsim_do_model(struct ctx *c, const struct rs_dsim_param *mp)
{
	const struct rs_dsim_val *m = mp->val;
	if (m->kind != RS_DSIM_BLOCK || strcmp(m->type, "dm_disk") != 0)
		return dsim_err_val(c, m, "'Model' must be a dm_disk block (Model = source FILE)");
	if (dsim_check_block(c, m, dm_disk_rules))
		return -1;
	uint64_t heads, cyls, blocks;
	const struct rs_dsim_param *hp = dsim_take(m, "Number of data surfaces");
	const struct rs_dsim_param *cp = dsim_take(m, "Number of cylinders");
	const struct rs_dsim_param *bp = dsim_take(m, "Block count");
	if (dsim_whole(c, hp, 1, 255, &heads) || dsim_whole(c, cp, 1, 4e9, &cyls) ||
	    dsim_whole(c, bp, 1, 1e15, &blocks))
		return -1;
	char v[64];
	snprintf(v, sizeof(v), "%" PRIu64 "B", blocks * 512);
	dsim_line(c, "capacity", v, bp, "blocks x 512 B");
	snprintf(v, sizeof(v), "%" PRIu64, heads);
	dsim_line(c, "heads", v, hp, NULL);
	snprintf(v, sizeof(v), "%" PRIu64, cyls);
	dsim_line(c, "cylinders", v, cp, NULL);
	if (do_mech(c, dsim_take(m, "Mechanical Model")))
		return -1;
	return dsim_do_layout(c, dsim_take(m, "Layout Model"), heads, cyls);
}
