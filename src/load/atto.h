#ifndef RS_LOAD_ATTO_H
#define RS_LOAD_ATTO_H

#include "load/load.h"
#include "load/phase.h"

/* ATTO Disk Benchmark v3 at one transfer size: write the total length
 * sequentially with overlapped I/O, then read it back.  The workload ends
 * when the read has drained; its figures are ATTO's two bars. */
extern const struct rs_load_type rs_load_atto;

/* The figures' order in load->figures, with their column names. */
#define RS_ATTO_FIGURE_LIST(X)                                              \
	X(WRITE_MBPS, "write_MBps") X(READ_MBPS, "read_MBps")               \
	X(WRITE_IOPS, "write_iops") X(READ_IOPS, "read_iops")               \
	X(WRITE_LAT_MS, "write_lat_ms") X(READ_LAT_MS, "read_lat_ms")       \
	X(ERRORS, "errors")
enum rs_atto_figure {
#define X(name, str) RS_ATTO_##name,
	RS_ATTO_FIGURE_LIST(X)
#undef X
	RS_ATTO_FIGURES
};

/* The two phases as specified and as they ran: [0] write, [1] read. */
struct rs_atto_info {
	struct rs_phase_spec spec[2];
	struct rs_phase_result result[2];
	double mb;                    /* bytes in the MB of the MB/s figures */
};
void rs_atto_info(const struct rs_load *load, struct rs_atto_info *out);

#endif
