#include "disk/seek.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "kernel/assert.h"

static int fail(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return -1;
}

static int check_params(const struct rs_seek_params *p, char *err, size_t errlen)
{
	if (p->cylinders == 0)
		return fail(err, errlen, "seek: cylinders must be > 0");
	/* write_extra_ns may be negative: DiskSim's writes that start before
	 * the read settle would end. */
	if (p->settle_read_ns < 0 || p->head_switch_ns < 0 || p->write_min_ns < 0)
		return fail(err, errlen, "seek: negative settle or head switch time");
	return 0;
}

static void set_common(struct rs_seek *s, const struct rs_seek_params *p,
		       enum rs_seek_form form)
{
	memset(s, 0, sizeof(*s));
	s->form = form;
	s->cylinders = p->cylinders;
	s->settle_read_ns = p->settle_read_ns;
	s->write_extra_ns = p->write_extra_ns;
	s->head_switch_ns = p->head_switch_ns;
	s->write_min_ns = p->write_min_ns;
}

static double curve_eval(const struct rs_seek_curve *c, double d)
{
	return d < c->x0 ? c->a_ns + c->b_ns * sqrt(d) : c->c_ns + c->e_ns * d;
}

static double table_eval(const struct rs_seek *s, uint32_t d)
{
	size_t n = s->ntab;
	if (n == 1)
		return s->tab_t[0];
	if (d <= s->tab_d[n - 1])
		return gsl_interp_eval(s->interp, s->tab_d, s->tab_t, d, NULL);
	double slope = (s->tab_t[n - 1] - s->tab_t[n - 2]) /
		(s->tab_d[n - 1] - s->tab_d[n - 2]);
	if (slope < 0)
		slope = 0;
	return s->tab_t[n - 1] + slope * (d - s->tab_d[n - 1]);
}

static double hpl_eval(const struct rs_seek_hpl *h, uint32_t d)
{
	if (d <= h->nfirst)
		return (double)h->first_ns[d - 1];
	if (d < h->boundary)
		return h->sqrt_const_ns + h->sqrt_mult_ns * sqrt(d);
	return h->lin_const_ns + h->lin_mult_ns * d;
}

/* Read seek time from the model, without the lookup table. */
static double model_read_ns(const struct rs_seek *s, uint32_t d)
{
	if (d == 0)
		return 0;
	double t = s->form == RS_SEEK_TABLE ? table_eval(s, d) :
		s->form == RS_SEEK_HPL ? hpl_eval(&s->hpl, d) : curve_eval(&s->curve, d);
	return t + (double)s->settle_read_ns;
}

static void build_lut(struct rs_seek *s)
{
	if (s->cylinders > RS_SEEK_LUT_MAX)
		return;
	s->lut_ns = malloc(s->cylinders * sizeof(*s->lut_ns));
	RS_ASSERT(s->lut_ns != NULL);
	for (uint32_t d = 0; d < s->cylinders; d++) {
		long long t = llround(model_read_ns(s, d));
		if (t < 0 || t > (long long)UINT32_MAX) {
			free(s->lut_ns);
			s->lut_ns = NULL;
			return;
		}
		s->lut_ns[d] = (uint32_t)t;
	}
}

int rs_seek_init_table(struct rs_seek *s, const struct rs_seek_params *p,
		       const struct rs_seek_point *pts, size_t npts,
		       char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	if (check_params(p, err, errlen) < 0)
		return -1;
	if (npts == 0 || pts == NULL)
		return fail(err, errlen, "seek: empty seek table");
	if (pts[0].distance != 1)
		return fail(err, errlen, "seek: the seek table must start at distance 1");
	for (size_t i = 0; i < npts; i++) {
		if (i > 0 && pts[i].distance <= pts[i - 1].distance)
			return fail(err, errlen,
				    "seek: table distances must be strictly increasing");
		if (pts[i].time_ns < 0)
			return fail(err, errlen, "seek: negative seek time in table");
	}
	set_common(s, p, RS_SEEK_TABLE);
	s->ntab = npts;
	s->tab_d = malloc(npts * sizeof(double));
	s->tab_t = malloc(npts * sizeof(double));
	RS_ASSERT(s->tab_d != NULL && s->tab_t != NULL);
	for (size_t i = 0; i < npts; i++) {
		s->tab_d[i] = pts[i].distance;
		s->tab_t[i] = (double)pts[i].time_ns;
	}
	if (npts >= 2) {
		s->interp = gsl_interp_alloc(gsl_interp_linear, npts);
		RS_ASSERT(s->interp != NULL);
		RS_ASSERT(gsl_interp_init(s->interp, s->tab_d, s->tab_t, npts) == GSL_SUCCESS);
	}
	build_lut(s);
	return 0;
}

int rs_seek_init_hpl(struct rs_seek *s, const struct rs_seek_params *p,
		     const struct rs_seek_hpl *hpl, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	if (check_params(p, err, errlen) < 0)
		return -1;
	if (hpl->nfirst > RS_SEEK_HPL_FIRST_MAX)
		return fail(err, errlen, "seek: at most 10 first seek times");
	if (hpl->sqrt_const_ns < 0 || hpl->sqrt_mult_ns < 0 || hpl->lin_const_ns < 0 ||
	    hpl->lin_mult_ns < 0)
		return fail(err, errlen, "seek: negative HPL seek equation term");
	for (uint32_t i = 0; i < hpl->nfirst; i++)
		if (hpl->first_ns[i] < 0)
			return fail(err, errlen, "seek: negative first seek time");
	set_common(s, p, RS_SEEK_HPL);
	s->hpl = *hpl;
	build_lut(s);
	return 0;
}

/* --- fitted form ---------------------------------------------------------- */

struct fit_problem {
	double cyl;                       /* C */
	double t1, tavg, tfull;
};

/* The curve through t(1) = t1 and t(C-1) = tfull with a smooth joint at x0.
 * Matching value and slope at x0 gives e = b / (2 sqrt x0) and
 * c = a + b sqrt(x0) / 2; the two end points then fix b, and b > 0 for every
 * x0 in [1, C-1] (the denominator is >= sqrt(C-1) - 1 > 0), so the curve is
 * strictly increasing: x0 = 1 is a straight line, x0 = C-1 a pure root. */
static struct rs_seek_curve curve_for(const struct fit_problem *fp, double x0)
{
	struct rs_seek_curve c;
	double r = sqrt(x0);
	double den = r / 2 + (fp->cyl - 1) / (2 * r) - 1;
	c.x0 = x0;
	c.b_ns = (fp->tfull - fp->t1) / den;
	c.a_ns = fp->t1 - c.b_ns;
	c.e_ns = c.b_ns / (2 * r);
	c.c_ns = c.a_ns + c.b_ns * r / 2;
	return c;
}

/* sum_{d=1}^{m} d^p for p = 1/2 or 3/2: the first terms added up, the
 * rest by the Euler-Maclaurin formula to the d^(p-5) term, whose
 * remainder past d = 64 is below 1e-12 of the sum. */
static double power_sum(double p, uint64_t m)
{
	const uint64_t head = 64;
	double sum = 0;
	for (uint64_t d = 1; d <= m && d < head; d++)
		sum += pow((double)d, p);
	if (m < head)
		return sum;
	double a = head, b = (double)m;
	double f1 = p, f3 = p * (p - 1) * (p - 2), f5 = f3 * (p - 3) * (p - 4);
	sum += (pow(b, p + 1) - pow(a, p + 1)) / (p + 1) + (pow(a, p) + pow(b, p)) / 2;
	sum += f1 * (pow(b, p - 1) - pow(a, p - 1)) / 12;
	sum -= f3 * (pow(b, p - 3) - pow(a, p - 3)) / 720;
	sum += f5 * (pow(b, p - 5) - pow(a, p - 5)) / 30240;
	return sum;
}

/* The all-pairs mean of the curve: sum over d of 2 (C - d) t(d) / C^2.
 * Up to RS_SEEK_LUT_MAX cylinders it is added up term by term, as the
 * lookup table is filled (and as every shipped model has always been
 * fitted); beyond, in closed form, so a fit costs the same for any disk
 * instead of the cylinder count times the solver's iterations.  The two
 * agree to about 1e-12. */
static double curve_mean(const struct rs_seek_curve *c, uint32_t cyl)
{
	double cc = cyl;
	if (cyl <= RS_SEEK_LUT_MAX) {
		double sum = 0;
		for (uint32_t d = 1; d < cyl; d++)
			sum += (cc - d) * curve_eval(c, d);
		return 2 * sum / (cc * cc);
	}
	/* Distances 1..m lie on the root part (d < x0), m+1..C-1 on the line. */
	double top = ceil(c->x0) - 1;
	uint64_t m = top < 0 ? 0 : top > cc - 1 ? cyl - 1 : (uint64_t)top;
	double md = (double)m;
	double root = c->a_ns * (cc * md - md * (md + 1) / 2) +
		      c->b_ns * (cc * power_sum(0.5, m) - power_sum(1.5, m));
	/* With k = C - d running over 1..K: sum k (c + e (C - k)). */
	double k = cc - 1 - md;
	double s1 = k * (k + 1) / 2, s2 = k * (k + 1) * (2 * k + 1) / 6;
	double line = c->c_ns * s1 + c->e_ns * (cc * s1 - s2);
	return 2 * (root + line) / (cc * cc);
}

static double mean_gap(double x0, void *arg)
{
	const struct fit_problem *fp = arg;
	struct rs_seek_curve c = curve_for(fp, x0);
	return curve_mean(&c, (uint32_t)fp->cyl) - fp->tavg;
}

/* A sweep checks and builds every point, and each point builds every
 * drive: the same fit, solved again and again (each solver step adds up
 * the curve over every cylinder).  The last few solutions are kept, keyed
 * by everything the fit depends on, so a point reuses them; the solution
 * is the same number either way, so outputs do not change. */
struct fit_memo {
	uint32_t cylinders;
	rs_time_t track_ns, avg_ns, full_ns;
	double x0;
};
#define FIT_MEMO_SIZE 8
static struct fit_memo fit_memo[FIT_MEMO_SIZE];
static unsigned fit_memo_next;

static bool fit_memo_find(const struct rs_seek_params *p, const struct rs_seek_fit *fit,
			  double *x0)
{
	for (unsigned i = 0; i < FIT_MEMO_SIZE; i++) {
		const struct fit_memo *m = &fit_memo[i];
		if (m->cylinders == p->cylinders && m->track_ns == fit->track_ns &&
		    m->avg_ns == fit->avg_ns && m->full_ns == fit->full_ns) {
			*x0 = m->x0;
			return true;
		}
	}
	return false;
}

static void fit_memo_add(const struct rs_seek_params *p, const struct rs_seek_fit *fit,
			 double x0)
{
	fit_memo[fit_memo_next] = (struct fit_memo){ p->cylinders, fit->track_ns, fit->avg_ns,
						     fit->full_ns, x0 };
	fit_memo_next = (fit_memo_next + 1) % FIT_MEMO_SIZE;
}

int rs_seek_init_fit(struct rs_seek *s, const struct rs_seek_params *p,
		     const struct rs_seek_fit *fit, char *err, size_t errlen)
{
	char msg[200];
	memset(s, 0, sizeof(*s));
	if (check_params(p, err, errlen) < 0)
		return -1;
	if (p->cylinders < 3)
		return fail(err, errlen, "seek: a fitted curve needs >= 3 cylinders");
	if (!(fit->track_ns > 0 && fit->track_ns < fit->avg_ns &&
	      fit->avg_ns < fit->full_ns))
		return fail(err, errlen, "seek: need 0 < track-to-track < average "
			    "< full stroke");
	struct fit_problem fp = {
		.cyl = p->cylinders, .t1 = (double)fit->track_ns,
		.tavg = (double)fit->avg_ns, .tfull = (double)fit->full_ns,
	};
	double x0;
	if (fit_memo_find(p, fit, &x0))
		goto fitted;
	double lo = 1, hi = p->cylinders - 1.0;
	double flo = mean_gap(lo, &fp), fhi = mean_gap(hi, &fp);
	if (flo > 0 || fhi < 0) {
		snprintf(msg, sizeof(msg),
			 "seek: average %.3f ms is outside the %.3f..%.3f ms that a "
			 "monotone sqrt+linear curve through %.3f and %.3f ms reaches",
			 fp.tavg / 1e6, (flo + fp.tavg) / 1e6, (fhi + fp.tavg) / 1e6,
			 fp.t1 / 1e6, fp.tfull / 1e6);
		return fail(err, errlen, msg);
	}
	x0 = flo == 0 ? lo : hi;
	if (flo != 0 && fhi != 0) {
		gsl_function fn = { .function = mean_gap, .params = &fp };
		gsl_root_fsolver *solver = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
		RS_ASSERT(solver != NULL);
		RS_ASSERT(gsl_root_fsolver_set(solver, &fn, lo, hi) == GSL_SUCCESS);
		int status = GSL_CONTINUE;
		for (int iter = 0; iter < 200 && status == GSL_CONTINUE; iter++) {
			RS_ASSERT(gsl_root_fsolver_iterate(solver) == GSL_SUCCESS);
			x0 = gsl_root_fsolver_root(solver);
			lo = gsl_root_fsolver_x_lower(solver);
			hi = gsl_root_fsolver_x_upper(solver);
			/* 1e-9 relative in x0 is far below a nanosecond of mean. */
			status = gsl_root_test_interval(lo, hi, 0, 1e-9);
		}
		gsl_root_fsolver_free(solver);
		if (status != GSL_SUCCESS)
			return fail(err, errlen, "seek: curve fit did not converge");
	}
	fit_memo_add(p, fit, x0);
fitted:
	set_common(s, p, RS_SEEK_FITTED);
	s->curve = curve_for(&fp, x0);
	build_lut(s);
	return 0;
}

void rs_seek_destroy(struct rs_seek *s)
{
	free(s->lut_ns);
	free(s->tab_d);
	free(s->tab_t);
	if (s->interp)
		gsl_interp_free(s->interp);
	memset(s, 0, sizeof(*s));
}

/* --- queries --------------------------------------------------------------- */

rs_time_t rs_seek_model_ns(const struct rs_seek *s, uint32_t distance)
{
	return llround(model_read_ns(s, distance));
}

double rs_seek_mean_random(const struct rs_seek *s, uint32_t cylinders)
{
	RS_ASSERT(cylinders > 0 && cylinders <= s->cylinders);
	double sum = 0, c = cylinders;
	for (uint32_t d = 1; d < cylinders; d++)
		sum += (c - d) * (double)rs_seek_time(s, d, 0);
	return 2 * sum / (c * c);
}
