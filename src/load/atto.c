/* ATTO Disk Benchmark v3, one transfer size per run.
 *
 * ATTO sweeps transfer sizes from 512 B to 64 MiB (0.5, 1, 2, 4, 8, 16, 32,
 * 64, 128, 256, 512 KB, 1, 2, 4, 8, 12, 16, 24, 32, 48, 64 MB); a scenario
 * sweeps `size` over them, and any multiple of 512 bytes is accepted.  For
 * the size, the test file (`total_length`) is written from its start to its
 * end with `queue_depth` requests in flight ("overlapped I/O", direct I/O:
 * no cache of the host), then read back the same way.  Each phase's MB/s is
 * its bytes over the time from its first request to its last completion.
 * A transfer larger than the target takes in one command is still one
 * request: splitting it is the controller's or the array's business.
 *
 * Units: ATTO labels its sizes in binary units (0.5 KB is 512 bytes, its
 * "256 MB" total length is 256 MiB), and its MB/s is taken to be in the
 * same MB of 2^20 bytes.  `units: decimal` gives MB of 10^6 bytes instead,
 * to compare with CrystalDiskMark. */
#include "load/atto.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

enum units { UNITS_BINARY, UNITS_DECIMAL };
static const char *const units_names[] = { "binary", "decimal", NULL };

struct atto_params {
	uint64_t size, total_length, queue_depth, offset;
	int units;
};

#define P(f) offsetof(struct atto_params, f)
static const struct rs_opt atto_opts[] = {
	{ "size", RS_OPT_SIZE, P(size), NULL, RS_OPT_REQUIRED | RS_OPT_HAS_MIN | RS_OPT_HAS_MAX,
	  512, 1 << 30, NULL,
	  "transfer size (ATTO's: 512B, 1KiB .. 512KiB doubling, 1, 2, 4, 8, 12, 16, 24, 32, "
	  "48, 64MiB; any multiple of 512 bytes)" },
	{ "total_length", RS_OPT_SIZE, P(total_length), "256MiB", RS_OPT_HAS_MIN, 512, 0, NULL,
	  "bytes written, then read (ATTO's \"256 MB\" default is binary)" },
	{ "queue_depth", RS_OPT_UINT, P(queue_depth), "4", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1,
	  1024, NULL, "overlapped I/O: requests in flight" },
	{ "offset", RS_OPT_SIZE, P(offset), "0B", 0, 0, 0, NULL,
	  "where the test file starts on the target" },
	{ "units", RS_OPT_ENUM, P(units), "binary", 0, 0, 0, units_names,
	  "MB of the MB/s figures: binary (2^20 bytes, as ATTO) or decimal (10^6 bytes)" },
	RS_OPT_END
};
#undef P

static const char *const figure_names[RS_ATTO_FIGURES] = {
#define X(name, str) str,
	RS_ATTO_FIGURE_LIST(X)
#undef X
};

struct atto {
	struct rs_phase ph;
	struct rs_phase_spec spec[2];         /* write, read */
	struct rs_phase_result result[2];
	int stage;                            /* the phase running: 0 write, 1 read */
	double mb;
};

static void finish(struct rs_sim *sim, struct rs_load *load)
{
	struct atto *a = load->priv;
	for (int i = 0; i < 2; i++) {
		const struct rs_phase_result *r = &a->result[i];
		load->figures[RS_ATTO_WRITE_MBPS + i].value = rs_phase_mb_s(r, a->mb);
		load->figures[RS_ATTO_WRITE_IOPS + i].value = rs_phase_iops(r);
		load->figures[RS_ATTO_WRITE_LAT_MS + i].value = rs_phase_lat_ms(r);
	}
	load->figures[RS_ATTO_ERRORS].value = (double)(a->result[0].errors + a->result[1].errors);
	rs_load_finish(sim, load);
}

static void phase_done(struct rs_sim *sim, struct rs_phase *ph)
{
	struct rs_load *load = ph->ctx;
	struct atto *a = load->priv;
	a->result[a->stage] = ph->res;
	if (a->stage == 1) {
		finish(sim, load);
		return;
	}
	/* The window was cut short (by `run` at most): stop here. */
	if (load->stopped)
		return;
	a->stage = 1;
	rs_phase_start(sim, &a->ph, &a->spec[1]);
}

static void atto_start(struct rs_sim *sim, struct rs_load *load)
{
	struct atto *a = load->priv;
	a->stage = 0;
	rs_phase_start(sim, &a->ph, &a->spec[0]);
}

static int atto_init(struct rs_sim *sim, struct rs_load *load, const void *params,
		     const struct rs_node *node, struct rs_diag *d)
{
	const struct atto_params *p = params;
	if (rs_load_check_sectors(node, "size", p->size, d) ||
	    rs_load_check_sectors(node, "total_length", p->total_length, d) ||
	    rs_load_check_sectors(node, "offset", p->offset, d))
		return -1;
	if (p->size > p->total_length)
		return rs_diag_node(d, rs_node_get_or(node, "size"),
				    "transfer size %llu bytes is larger than 'total_length' "
				    "(%llu bytes)",
				    (unsigned long long)p->size, (unsigned long long)p->total_length);
	uint64_t cap = load->target->capacity_blk * RS_BLOCK_BYTES;
	if (p->offset >= cap || p->total_length > cap - p->offset)
		return rs_diag_node(d, rs_node_get_or(node, rs_node_get(node, "total_length") ? "total_length"
										  : "offset"),
				    "test file of %llu bytes at offset %llu ends beyond the device "
				    "(%llu bytes)",
				    (unsigned long long)p->total_length,
				    (unsigned long long)p->offset, (unsigned long long)cap);

	struct atto *a = calloc(1, sizeof(*a));
	RS_ASSERT(a != NULL);
	load->priv = a;
	a->mb = p->units == UNITS_DECIMAL ? 1e6 : 1048576.0;
	/* The last request is cut to fit when the total is not a multiple
	 * of the size, as a read at the end of a file returns what is left. */
	struct rs_phase_spec spec = {
		.op = RS_WRITE,
		.nblk = (uint32_t)(p->size / RS_BLOCK_BYTES),
		.start_blk = p->offset / RS_BLOCK_BYTES,
		.len_blk = p->total_length / RS_BLOCK_BYTES,
		.threads = 1,
		.depth = (uint32_t)p->queue_depth,
	};
	a->spec[0] = spec;
	a->spec[1] = spec;
	a->spec[1].op = RS_READ;
	/* No random offsets: the phase is given no stream. */
	rs_phase_init(&a->ph, load, NULL, phase_done, load);

	/* The run ends when the read has drained: no ramp, and a `run` far
	 * beyond any sensible benchmark (about 115 simulated days). */
	load->ramp_ns = 0;
	load->run_ns = (rs_time_t)1e16;
	load->max_ops = 0;
	for (size_t i = 0; i < RS_ATTO_FIGURES; i++)
		rs_load_add_figure(load, figure_names[i]);
	load->figures_only = true;
	return 0;
}

static void atto_destroy(struct rs_load *load)
{
	free(load->priv);
	load->priv = NULL;
}

void rs_atto_info(const struct rs_load *load, struct rs_atto_info *out)
{
	RS_ASSERT(load->type == &rs_load_atto);
	const struct atto *a = load->priv;
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 2; i++) {
		out->spec[i] = a->spec[i];
		out->result[i] = a->result[i];
	}
	out->mb = a->mb;
}

const struct rs_load_type rs_load_atto = {
	.name = "atto",
	.help = "ATTO Disk Benchmark v3 at one transfer size (size: 512B .. 64MiB): write "
		"total_length sequentially with queue_depth requests in flight, then read it "
		"back; columns write_MBps/read_MBps (MB = 2^20 B as ATTO, or 10^6 B with "
		"units: decimal), write_iops/read_iops, write_lat_ms/read_lat_ms (mean response "
		"time) and errors (failed requests); the generic iops/mb_s/latency columns are "
		"left out",
	.opts = atto_opts,
	.params_size = sizeof(struct atto_params),
	.init = atto_init,
	.start = atto_start,
	.destroy = atto_destroy,
};
