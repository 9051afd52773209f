#include "disk/spindle.h"

#include <math.h>
#include <stdio.h>

#include "kernel/assert.h"

/* (a * b) mod m for a < m < 2^46 and b < 2^25, without overflowing 64 bits:
 * b is split into a 13-bit high and a 12-bit low part. */
static int64_t mulmod(int64_t a, int64_t b, int64_t m)
{
	int64_t hi = (a * (b >> 12)) % m;
	return (hi * 4096 + a * (b & 4095)) % m;
}

int rs_spindle_init(struct rs_spindle *sp, double rpm, double phase,
		    char *err, size_t errlen)
{
	if (!(rpm > 0 && rpm <= 33000)) {
		if (err && errlen)
			snprintf(err, errlen, "spindle: rpm %g outside (0, 33000]", rpm);
		return -1;
	}
	if (!(phase >= 0 && phase < 1)) {
		if (err && errlen)
			snprintf(err, errlen, "spindle: phase %g outside [0, 1)", phase);
		return -1;
	}
	sp->rpm_milli = llround(rpm * 1000);
	RS_ASSERT(sp->rpm_milli > 0 && sp->rpm_milli < (INT64_C(1) << 25));
	sp->phase_units = llround(phase * (double)RS_SPINDLE_UNITS) % RS_SPINDLE_UNITS;
	sp->period_ns = (double)RS_SPINDLE_UNITS / (double)sp->rpm_milli;
	return 0;
}

/* The angle turned in t >= 0 nanoseconds, modulo a revolution. */
int64_t rs_spindle_turned_units(const struct rs_spindle *sp, rs_time_t t)
{
	RS_ASSERT(t >= 0);
	return mulmod(t % RS_SPINDLE_UNITS, sp->rpm_milli, RS_SPINDLE_UNITS);
}

int64_t rs_spindle_angle_units(const struct rs_spindle *sp, rs_time_t t)
{
	return (rs_spindle_turned_units(sp, t) + sp->phase_units) % RS_SPINDLE_UNITS;
}

double rs_spindle_angle(const struct rs_spindle *sp, rs_time_t t)
{
	return (double)rs_spindle_angle_units(sp, t) / (double)RS_SPINDLE_UNITS;
}

rs_time_t rs_spindle_wait(const struct rs_spindle *sp, rs_time_t t, double target)
{
	return rs_spindle_wait_units(sp, rs_spindle_angle_units(sp, t),
				     rs_spindle_target_units(target));
}
