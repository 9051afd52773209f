/* `raidsim run JOB.fio --device MODEL`: a fio job file run without a
 * scenario of the user's.  The scenario that stands in for it, holding
 * only `workload: {fio: JOB}` (the device comes from the command line, so
 * its errors point there), is written to a private temporary folder under
 * the job's name, so the results are named after the job. */
#ifndef RS_LOAD_FIO_SCENARIO_H
#define RS_LOAD_FIO_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a command-line argument names a fio job file (ends in .fio). */
bool rs_fio_is_job_file(const char *arg);
/* Write the stand-in scenario; its path goes to yaml.  0, or -1 with a
 * message in why. */
int rs_fio_scenario_write(const char *job, char *yaml, size_t n, char *why, size_t nwhy);
/* Remove it and its folder. */
void rs_fio_scenario_remove(const char *yaml);

#endif
