#ifndef RS_LOAD_IOMETER_H
#define RS_LOAD_IOMETER_H

#include "load/load.h"

extern const struct rs_load_type rs_load_iometer;

#endif
