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

#endif
