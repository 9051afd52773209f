/* The spindle: which angle is under the heads at a given simulated time.
 *
 * The angle is kept as an exact rational.  The speed is rounded to 0.001
 * rpm, so one revolution is RS_SPINDLE_UNITS / rpm_milli nanoseconds with
 * RS_SPINDLE_UNITS = 60e9 ns * 1000, and the angle at time t is
 * ((t * rpm_milli + phase) mod RS_SPINDLE_UNITS) / RS_SPINDLE_UNITS,
 * evaluated in integers: no drift however long the run, even though the
 * period is not a whole number of nanoseconds.
 *
 * phase (a fraction of a revolution) is the angle at t = 0; giving each
 * drive its own keeps drives of an array from rotating in lock-step. */
#ifndef RS_DISK_SPINDLE_H
#define RS_DISK_SPINDLE_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/assert.h"
#include "kernel/sim.h"

#define RS_SPINDLE_UNITS INT64_C(60000000000000)

struct rs_spindle {
	int64_t rpm_milli;                /* revolutions per 60e12 ns */
	int64_t phase_units;              /* angle at t = 0, in 1/UNITS rev */
	double period_ns;
};

/* rpm in (0, 33000]; phase in [0, 1).  Returns 0, or -1 with a message. */
int rs_spindle_init(struct rs_spindle *sp, double rpm, double phase,
		    char *err, size_t errlen);

static inline double rs_spindle_period_ns(const struct rs_spindle *sp)
{
	return sp->period_ns;
}

/* Angle under the heads at time t >= 0, in [0, 1). */
double rs_spindle_angle(const struct rs_spindle *sp, rs_time_t t);

/* Nanoseconds from t until target (in [0, 1)) is under the heads, rounded
 * to the nearest nanosecond; 0 <= wait < period.  A target that passed
 * less than half a nanosecond ago counts as under the heads now. */
rs_time_t rs_spindle_wait(const struct rs_spindle *sp, rs_time_t t, double target);

/* rs_spindle_wait in steps, for callers that ask about many targets from
 * related instants (an SPTF pass): angles as integers in 1/UNITS of a
 * revolution, exactly as rs_spindle_wait computes them, so
 *   rs_spindle_wait(sp, t + dt, target) ==
 *   rs_spindle_wait_units(sp, rs_spindle_advance(sp, rs_spindle_angle_units(sp, t), dt),
 *                         rs_spindle_target_units(target)). */
int64_t rs_spindle_angle_units(const struct rs_spindle *sp, rs_time_t t);
/* Inline: every positioning converts its target's angle. */
static inline int64_t rs_spindle_target_units(double target)
{
	RS_ASSERT(target >= 0 && target < 1);
	return rs_round_nonneg(target * (double)RS_SPINDLE_UNITS) % RS_SPINDLE_UNITS;
}

/* rs_spindle_target_units((double)k / spt), the angle of sector k of a
 * track of spt (0 <= k < spt), in integers: k * UNITS / spt rounded, whose
 * quotient and remainder one division gives.  The doubles' two roundings
 * move the product by less than 0.014 units (UNITS < 2^46), so the
 * integer rounding is theirs unless the remainder lies within a 32nd of
 * spt of a half: those, and tracks too long for k * UNITS in 64 bits, take
 * the doubles.  Inline: every positioning converts its target's angle. */
static inline int64_t rs_spindle_sector_units(uint32_t k, uint32_t spt)
{
	if (spt <= UINT64_MAX / (uint64_t)RS_SPINDLE_UNITS) {
		uint64_t x = k * (uint64_t)RS_SPINDLE_UNITS;
		uint64_t q = x / spt, twice = 2 * (x % spt);
		uint64_t off = twice > spt ? twice - spt : spt - twice;
		if (off * 32 > spt)
			return (int64_t)(q + (twice > spt));
	}
	return rs_spindle_target_units((double)k / spt);
}

/* The angle dt >= 0 nanoseconds after angle a (both in units): the angle is
 * linear in t modulo UNITS, so this is exact. */
int64_t rs_spindle_turned_units(const struct rs_spindle *sp, rs_time_t dt);
static inline int64_t rs_spindle_advance(const struct rs_spindle *sp, int64_t a, rs_time_t dt)
{
	/* dt * rpm_milli stays below 2^63 for dt < 2^38 ns (rpm_milli < 2^25);
	 * anything longer (minutes) goes the long way. */
	int64_t turned = dt < (INT64_C(1) << 38) ? dt * sp->rpm_milli % RS_SPINDLE_UNITS
		: rs_spindle_turned_units(sp, dt);
	a += turned;
	return a >= RS_SPINDLE_UNITS ? a - RS_SPINDLE_UNITS : a;
}

/* Nanoseconds from angle `at` until angle `want` (units) is under the
 * heads, rounded as rs_spindle_wait rounds. */
static inline rs_time_t rs_spindle_wait_units(const struct rs_spindle *sp, int64_t at,
					      int64_t want)
{
	int64_t delta = want - at;
	if (delta < 0)
		delta += RS_SPINDLE_UNITS;
	int64_t wait = (delta + sp->rpm_milli / 2) / sp->rpm_milli;
	/* Rounded up to a full turn: the target is just behind us. */
	if (wait * sp->rpm_milli >= RS_SPINDLE_UNITS)
		wait = 0;
	return wait;
}

#endif
