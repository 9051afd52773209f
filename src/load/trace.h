#ifndef RS_LOAD_TRACE_H
#define RS_LOAD_TRACE_H

#include "load/load.h"

/* Replay of a DiskSim trace (see load/trace_parse.h for the formats). */
extern const struct rs_load_type rs_load_trace;

#endif
