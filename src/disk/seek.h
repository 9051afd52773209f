/* Seek time as a function of the cylinder distance.
 *
 * Three forms:
 *   - a measured table of (distance, time) points, linearly interpolated
 *     (DiskSim's "extracted" seek curves); kept as measured, so it need not
 *     be monotone;
 *   - a curve fitted to three datasheet figures (track-to-track, average,
 *     full stroke): t(d) = a + b*sqrt(d) for d < x0, c + e*d for d >= x0,
 *     continuous with a continuous slope at x0 (Ruemmler-Wilkes / Lee-Katz
 *     shape: acceleration-limited short seeks, coast-limited long ones).
 *
 *   - HPL's seek equation (Ruemmler and Wilkes, IEEE Computer, March 1994;
 *     DiskSim's "hpl" and "hplplus10" seek types): t(d) = first[d-1] for
 *     the first distances given, sqrt_const + sqrt_mult * sqrt(d) for d
 *     below boundary, lin_const + lin_mult * d from there on.
 *
 * Average seek convention: the mean over all C*C ordered (start, end)
 * cylinder pairs, zero-distance pairs included with time 0, i.e. distance d
 * has probability 2(C-d)/C^2 for d > 0 and 1/C for d = 0.
 *
 * All times are read seeks.  A write adds write_extra_ns to every nonzero
 * seek and head switch (the head must settle more precisely before it may
 * write).  A negative write_extra_ns (DiskSim's negative write settling
 * delay) lets a write start that much earlier, but never before the move
 * began: the result is at least 0.  settle_read_ns is added to every nonzero seek on top of the curve
 * or table; leave it 0 when the figures already include settling, as
 * datasheet figures and DiskSim's measured curves do.
 *
 * Initialisation precomputes a per-distance table when the disk has at most
 * RS_SEEK_LUT_MAX cylinders, so rs_seek_time is one load. */
#ifndef RS_DISK_SEEK_H
#define RS_DISK_SEEK_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_interp.h>

#include "kernel/assert.h"
#include "kernel/sim.h"

#define RS_SEEK_LUT_MAX 262144u

struct rs_seek_params {
	uint32_t cylinders;
	rs_time_t settle_read_ns;
	rs_time_t write_extra_ns;
	rs_time_t head_switch_ns;
	rs_time_t write_min_ns;           /* a write's move takes at least this, even none */
};

struct rs_seek_point {
	uint32_t distance;                /* cylinders, >= 1 */
	rs_time_t time_ns;
};

/* Datasheet figures for the fitted form (read seeks).  The curve is fitted
 * to them as given; a nonzero settle_read_ns comes on top. */
struct rs_seek_fit {
	rs_time_t track_ns;               /* distance 1 */
	rs_time_t avg_ns;                 /* all-pairs mean, see above */
	rs_time_t full_ns;                /* distance cylinders-1 */
};

/* The fitted curve, in nanoseconds, without settle_read_ns. */
struct rs_seek_curve {
	double a_ns, b_ns;                /* a + b sqrt(d), d < x0 */
	double c_ns, e_ns;                /* c + e d, d >= x0 */
	double x0;
};

/* HPL's seek equation, read seeks. */
#define RS_SEEK_HPL_FIRST_MAX 10
struct rs_seek_hpl {
	uint32_t boundary;                /* cylinders: the root part below it */
	double sqrt_const_ns, sqrt_mult_ns;
	double lin_const_ns, lin_mult_ns;
	rs_time_t first_ns[RS_SEEK_HPL_FIRST_MAX];  /* distances 1..nfirst */
	uint32_t nfirst;
};

enum rs_seek_form { RS_SEEK_TABLE = 1, RS_SEEK_FITTED, RS_SEEK_HPL };

struct rs_seek {
	enum rs_seek_form form;
	uint32_t cylinders;
	rs_time_t settle_read_ns;
	rs_time_t write_extra_ns;
	rs_time_t head_switch_ns;
	rs_time_t write_min_ns;
	/* Read time per distance, or NULL.  32 bits (seeks are far below 4 s;
	 * init leaves the table out otherwise) keep it small enough to stay in
	 * cache while SPTF probes it at random distances. */
	uint32_t *lut_ns;
	/* table form */
	double *tab_d, *tab_t;
	size_t ntab;
	gsl_interp *interp;
	/* fitted form */
	struct rs_seek_curve curve;
	/* HPL form */
	struct rs_seek_hpl hpl;
};

/* Returns 0, or -1 with a message in err.  Points need strictly increasing
 * distances starting at 1; beyond the last point the last segment's slope
 * is extended (or the last time held if that slope is negative). */
int rs_seek_init_table(struct rs_seek *s, const struct rs_seek_params *p,
		       const struct rs_seek_point *pts, size_t npts,
		       char *err, size_t errlen);
/* Fits the curve: t(1) = track, t(C-1) = full, all-pairs mean = avg.
 * Fails when no curve of this form reaches avg (avg must lie roughly
 * between a third and a half of the way from track to full). */
int rs_seek_init_fit(struct rs_seek *s, const struct rs_seek_params *p,
		     const struct rs_seek_fit *fit, char *err, size_t errlen);
/* HPL's equation as given.  Fails on negative terms or more than
 * RS_SEEK_HPL_FIRST_MAX first distances. */
int rs_seek_init_hpl(struct rs_seek *s, const struct rs_seek_params *p,
		     const struct rs_seek_hpl *hpl, char *err, size_t errlen);
void rs_seek_destroy(struct rs_seek *s);

/* The read seek from the model itself, distance > 0: what the lookup table
 * holds when there is one. */
rs_time_t rs_seek_model_ns(const struct rs_seek *s, uint32_t distance);

/* A nonzero read move t as a write: the write settle added, floored at 0. */
static inline rs_time_t rs_seek_add_write(const struct rs_seek *s, rs_time_t t)
{
	t += s->write_extra_ns;
	return t > 0 ? t : 0;
}

/* Read seek for distance < cylinders (0 for distance 0), plus
 * write_extra_ns for a nonzero write seek.  Inline: SPTF asks it for every
 * queued command at every dispatch. */
static inline rs_time_t rs_seek_time(const struct rs_seek *s, uint32_t distance, int is_write)
{
	RS_ASSERT(distance < s->cylinders);
	if (distance == 0)
		return 0;
	rs_time_t t = s->lut_ns ? (rs_time_t)s->lut_ns[distance] : rs_seek_model_ns(s, distance);
	return is_write ? rs_seek_add_write(s, t) : t;
}

static inline rs_time_t rs_seek_head_switch_ns(const struct rs_seek *s)
{
	return s->head_switch_ns;
}

/* Time to move the arm distance cylinders and/or switch heads: the seek,
 * the head switch, or the longer of the two when both happen (the new head
 * is selected while the arm moves); write settle is added once.  A write's
 * move, even none, takes at least write_min_ns: DiskSim's drives wait that
 * long before a write that does not continue a streaming one. */
static inline rs_time_t rs_seek_reposition_time(const struct rs_seek *s, uint32_t distance,
						 int head_changed, int is_write)
{
	if (distance == 0 && !head_changed)
		return is_write ? s->write_min_ns : 0;
	rs_time_t t = rs_seek_time(s, distance, 0);
	if (head_changed && s->head_switch_ns > t)
		t = s->head_switch_ns;
	if (!is_write)
		return t;
	t = rs_seek_add_write(s, t);
	return t > s->write_min_ns ? t : s->write_min_ns;
}

/* Exact all-pairs mean read seek over the first `cylinders` cylinders
 * (<= s->cylinders), in nanoseconds.  O(cylinders). */
double rs_seek_mean_random(const struct rs_seek *s, uint32_t cylinders);

#endif
