/* The reference device `ideal`: k servers with a fixed or exponential
 * service time and an optional bandwidth term, requests served first come,
 * first served.  It has the textbook queueing behaviour (M/M/1, M/D/1,
 * M/M/k) the kernel is validated against, and later stands in for a
 * perfect disk. */
#ifndef RS_DEV_IDEAL_H
#define RS_DEV_IDEAL_H

#include "dev/dev.h"

extern const struct rs_dev_type rs_dev_ideal;

#endif
