/* fio jobs read as raidsim workloads: a job file's options, inherited
 * from [global] sections, become the I/O pattern of each job; `stonewall`
 * starts a group that runs after the previous one has finished.
 *
 * Options that describe the pattern are read; those that only concern the
 * host (ioengine, filename, logging...) are accepted and named in
 * `ignored`; any other is an error at its position. */
#ifndef RS_LOAD_FIO_JOB_H
#define RS_LOAD_FIO_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "config/diag.h"
#include "kernel/sim.h"
#include "load/fio_parse.h"
#include "load/iometer_specs.h"

struct rs_fio_job {
	const char *name;
	int line, col;                /* the job's section, for diagnostics */
	unsigned group;               /* stonewall groups, from 0 */
	size_t nlines;                /* block sizes with their shares (bssplit) */
	uint64_t bs[RS_SPEC_MAX_LINES];
	double share[RS_SPEC_MAX_LINES];
	double read;                  /* % of reads, settled once the job is read */
	double mode_read;             /* rw: 100, 0, or -1 for a mix (rwmixread's) */
	double mix_read;              /* rwmixread, default 50 */
	bool random;
	uint64_t seq_skip;            /* rw=write:N: bytes skipped after each I/O */
	uint64_t random_run;          /* rw=randread:N: I/Os per random offset */
	uint64_t iodepth, numjobs;
	uint64_t offset, size, filesize;   /* bytes; 0 = not given */
	double size_pct, offset_pct;       /* size=50%: of the device; 0 = not given */
	bool time_based;
	rs_time_t runtime, ramp, thinktime;
	double rate_iops;             /* per job; 0 = unlimited */
	uint64_t flush_every;         /* fsync=N, fdatasync=N; sync=1 is 1 */
};

#define RS_FIO_MAX_JOBS 64
#define RS_FIO_MAX_IGNORED 32

struct rs_fio_jobs {
	struct rs_fio_job job[RS_FIO_MAX_JOBS];
	size_t njobs;
	unsigned ngroups;
	const char *ignored[RS_FIO_MAX_IGNORED];   /* each once, in file order */
	size_t nignored;
};

/* 0, or -1 with d set at the offending option. */
int rs_fio_jobs_read(const struct rs_fio_file *f, struct rs_fio_jobs *out, struct rs_diag *d);

/* fio's number forms, exposed for tests: sizes with k/m/g/t suffixes in
 * kb_base `base` (1024: k = 1024 and, as fio has it, KiB = 1000), times
 * with us/ms/s/m/h/d suffixes (`unit_ns` for a bare number).  0 or -1. */
int rs_fio_parse_size(const char *s, unsigned base, uint64_t *bytes);
int rs_fio_parse_time(const char *s, rs_time_t unit_ns, rs_time_t *ns);

#endif
