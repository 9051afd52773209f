#ifndef RS_LOAD_FIO_LOAD_H
#define RS_LOAD_FIO_LOAD_H

#include "load/load.h"

/* `workload: {fio: job.fio}` (or {fio: {file: job.fio}}): the jobs of a
 * fio job file.  Each of a job's numjobs clones keeps iodepth requests in
 * flight over its region with its own sequential cursor and random
 * streams; a clone draws as IOMeter does (block size by share, then read
 * or write, then the offset), from streams of the same names, so one job
 * and the equivalent iometer workload issue the same requests.  Groups
 * (stonewall) run one after the other; the measuring window starts after
 * the first group's ramp_time and ends with the last group. */
extern const struct rs_load_type rs_load_fio;

/* `raidsim run -q` prints nothing on success: not the list of ignored
 * options either. */
void rs_fio_quiet(bool quiet);

#endif
