#ifndef RS_LOAD_CDM_H
#define RS_LOAD_CDM_H

#include <stddef.h>

#include "load/load.h"
#include "load/phase.h"

/* CrystalDiskMark 5.1: one row of its table (Seq Q32T1, 4K Q32T1, Seq,
 * 4K), read then write, each the best of N timed passes over a test file
 * that is written once beforehand.  The workload ends when the last pass
 * has drained; its figures are the table's columns. */
extern const struct rs_load_type rs_load_cdm;

/* The figures' order in load->figures, with their column names. */
#define RS_CDM_FIGURE_LIST(X)                                               \
	X(READ_MBPS, "read_MBps") X(WRITE_MBPS, "write_MBps")               \
	X(READ_IOPS, "read_iops") X(WRITE_IOPS, "write_iops")               \
	X(READ_LAT_MS, "read_lat_ms") X(WRITE_LAT_MS, "write_lat_ms")       \
	X(ERRORS, "errors")
enum rs_cdm_figure {
#define X(name, str) RS_CDM_##name,
	RS_CDM_FIGURE_LIST(X)
#undef X
	RS_CDM_FIGURES
};

/* What the run looked like, for tests and studies. */
struct rs_cdm_info {
	struct rs_phase_spec read, write;     /* the passes of each phase */
	size_t passes;                        /* per phase */
	size_t best[2];                       /* index of the best pass: [0] read, [1] write */
	bool prepared;                        /* the preparation ran */
	struct rs_phase_result prep;          /* its result, if it ran */
};
void rs_cdm_info(const struct rs_load *load, struct rs_cdm_info *out);
/* One pass's result: write = 0 for the read phase, 1 for the write phase. */
const struct rs_phase_result *rs_cdm_pass(const struct rs_load *load, int write, size_t pass);

#endif
