/* `raidsim import disksim`: the set-up around the drive (which blocks are
 * read, which are ignored and why), the drive's firmware (command
 * overheads, bus connection, transfer rate, buffer, caching, water marks,
 * queue), and the entry point that writes the model once all is accepted.
 * The layout, the mechanics and the checking of values have files of their
 * own: dsim_hdd_geometry.c, dsim_hdd_mech.c, dsim_hdd_params.c. */
#include "import/dsim_hdd.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/dsim_hdd_priv.h"
#include "import/dsim_parse.h"
#include "kernel/assert.h"

/* ---- what each DiskSim parameter becomes ------------------------------- */

static const struct rule disk_rules[] = {
	{ "Model", TAKE, 0, NULL },
	{ "Per-request overhead time", EQ, 0, "raidsim has no per-request overhead besides "
	  "the command overheads" },
	{ "Time scale for overheads", EQ, 1, "overheads are taken as written" },
	{ "Bulk sector transfer time", TAKE, 0, NULL },
	{ "Hold bus entire read xfer", TAKE, 0, NULL },
	{ "Hold bus entire write xfer", TAKE, 0, NULL },
	{ "Allow almost read hits", EQ, 0, "raidsim serves only reads wholly in the buffer as hits" },
	{ "Allow sneaky full read hits", EQ, 0, "raidsim serves only reads wholly in the buffer "
	  "as hits" },
	{ "Allow sneaky partial read hits", EQ, 0, "raidsim serves only reads wholly in the "
	  "buffer as hits" },
	{ "Allow sneaky intermediate read hits", EQ, 0, "raidsim serves only reads wholly in the "
	  "buffer as hits" },
	{ "Allow read hits on write data", TAKE, 0, NULL },
	{ "Allow write prebuffering", EQ, 0, "raidsim takes a write's data when it runs" },
	{ "Preseeking level", EQ, 0, "raidsim seeks when a command reaches the head" },
	{ "Never disconnect", TAKE, 0, NULL },
	{ "Print stats", IGNORE, 0, "statistics output" },
	{ "Avg sectors per cylinder", IGNORE, 0, "used by host-side schedulers that estimate "
	  "cylinders, not by the drive" },
	{ "Max queue length", TAKE, 0, NULL },
	{ "Scheduler", TAKE, 0, NULL },
	{ "Number of buffer segments", TAKE, 0, NULL },
	{ "Maximum number of write segments", TAKE, 0, NULL },
	{ "Segment size (in blks)", TAKE, 0, NULL },
	{ "Use separate write segment", TAKE, 0, NULL },
	{ "Low (write) water mark", TAKE, 0, NULL },
	{ "High (read) water mark", TAKE, 0, NULL },
	{ "Set watermark by reqsize", TAKE, 0, NULL },
	{ "Calc sector by sector", EQ, 1, "raidsim moves interface data block by block "
	  "(interface_burst 512B)" },
	{ "Enable caching in buffer", TAKE, 0, NULL },
	{ "Buffer continuous read", TAKE, 0, NULL },
	{ "Minimum read-ahead (blks)", TAKE, 0, NULL },
	{ "Maximum read-ahead (blks)", TAKE, 0, NULL },
	{ "Read-ahead over requested", TAKE, 0, NULL },
	{ "Read-ahead on idle hit", TAKE, 0, NULL },
	{ "Read any free blocks", TAKE, 0, NULL },
	{ "Fast write level", TAKE, 0, NULL },
	{ "Immediate buffer read", IGNORE, 0, "whether a hit reconnects before its data is "
	  "ready; the set-up's reselect and arbitration times are 0 (checked), so no time "
	  "differs" },
	{ "Immediate buffer write", IGNORE, 0, "whether a write disconnects once its data is "
	  "in; the set-up's disconnect and arbitration times are 0 (checked), so no time "
	  "differs" },
	{ "Combine seq writes", EQ, 1, "raidsim merges cached writes that touch" },
	{ "Stop prefetch in sector", TAKE, 0, NULL },
	{ "Disconnect write if seek", EQ, 0, "raidsim takes a write's data before it seeks" },
	{ "Write hit stop prefetch", TAKE, 0, NULL },
	{ "Read directly to buffer", EQ, 1, "raidsim reads through the buffer" },
	{ "Immed transfer partial hit", EQ, 1, "partial hits are off (the sneaky and almost "
	  "hit flags are 0, checked)" },
	{ "Read hit over. after read", TAKE, 0, NULL },
	{ "Read hit over. after write", TAKE, 0, NULL },
	{ "Read miss over. after read", TAKE, 0, NULL },
	{ "Read miss over. after write", TAKE, 0, NULL },
	{ "Write hit over. after read", TAKE, 0, NULL },
	{ "Write hit over. after write", TAKE, 0, NULL },
	{ "Write miss over. after read", TAKE, 0, NULL },
	{ "Write miss over. after write", TAKE, 0, NULL },
	{ "Read completion overhead", TAKE, 0, NULL },
	{ "Write completion overhead", TAKE, 0, NULL },
	{ "Data preparation overhead", TAKE, 0, NULL },
	{ "First reselect overhead", TAKE, 0, NULL },
	{ "Other reselect overhead", TAKE, 0, NULL },
	{ "Read disconnect afterread", TAKE, 0, NULL },
	{ "Read disconnect afterwrite", TAKE, 0, NULL },
	{ "Write disconnect overhead", TAKE, 0, NULL },
	{ "Extra write disconnect", TAKE, 0, NULL },
	{ "Extradisc command overhead", TAKE, 0, NULL },
	{ "Extradisc disconnect overhead", TAKE, 0, NULL },
	{ "Extradisc inter-disconnect delay", TAKE, 0, NULL },
	{ "Extradisc 2nd disconnect overhead", TAKE, 0, NULL },
	{ "Extradisc seek delta", TAKE, 0, NULL },
	{ "Minimum seek delay", TAKE, 0, NULL },
	END
};

/* The overheads of a drive that disconnects from the bus and reselects,
 * as raidsim names them (hdd `data_prep`, `reselect`, ...).  When any is
 * set the drive is modelled as DiskSim's disconnecting one. */
static const char *const conn_keys[][2] = {
	{ "Data preparation overhead", "data_prep" },
	{ "First reselect overhead", "reselect" },
	{ "Other reselect overhead", "reselect_extra" },
	{ "Read disconnect afterread", "disconnect_read" },
	{ "Read disconnect afterwrite", "disconnect_read_after_write" },
	{ "Write disconnect overhead", "disconnect_write" },
};

static const char *const extradisc_keys[][2] = {
	{ "Extradisc command overhead", "extra_disconnect_command" },
	{ "Extradisc disconnect overhead", "extra_disconnect_first" },
	{ "Extradisc inter-disconnect delay", "extra_disconnect_gap" },
	{ "Extradisc 2nd disconnect overhead", "extra_disconnect_second" },
	{ "Extradisc seek delta", "extra_disconnect_seek_delta" },
};

static const struct rule ioqueue_rules[] = {
	{ "Scheduling policy", TAKE, 0, NULL },
	{ "Cylinder mapping strategy", IGNORE, 0, "the drive's own scheduler knows its layout" },
	{ "Write initiation delay", EQ, 0, "raidsim starts a queued command at once" },
	{ "Read initiation delay", EQ, 0, "raidsim starts a queued command at once" },
	{ "Sequential stream scheme", EQ, 0, "raidsim's drive queue does not merge requests" },
	{ "Maximum concat size", IGNORE, 0, "used only by a sequential stream scheme, which is 0" },
	{ "Overlapping request scheme", EQ, 0, "raidsim's drive queue does not merge requests" },
	{ "Sequential stream diff maximum", IGNORE, 0, "used only by a sequential stream scheme, "
	  "which is 0" },
	{ "Scheduling timeout scheme", EQ, 0, "set `aging` in the scenario instead" },
	{ "Timeout time/weight", IGNORE, 0, "used only by a timeout scheme, which is 0" },
	{ "Timeout scheduling", IGNORE, 0, "used only by a timeout scheme, which is 0" },
	{ "Scheduling priority scheme", EQ, 0, "raidsim's requests carry no priority" },
	{ "Priority scheduling", IGNORE, 0, "used only by a priority scheme, which is 0" },
	END
};

static const struct rule bus_rules[] = {
	{ "type", EQ, 1, "an exclusively owned bus (DiskSim's type 1)" },
	{ "Arbitration type", IGNORE, 0, "arbitration takes no time here (Arbitration time 0, "
	  "checked)" },
	{ "Arbitration time", EQ, 0, "raidsim's links have no arbitration" },
	{ "Read block transfer time", TAKE, 0, NULL },
	{ "Write block transfer time", TAKE, 0, NULL },
	{ "Print stats", IGNORE, 0, "statistics output" },
	END
};

static const struct rule ctlr_rules[] = {
	{ "type", EQ, 1, "a pass-through controller (DiskSim's type 1) adds no work" },
	{ "Scale for delays", IGNORE, 0, "scales a pass-through controller's delays, which it "
	  "has none of" },
	{ "Bulk sector transfer time", TAKE, 0, NULL },
	{ "Maximum queue length", IGNORE, 0, "a pass-through controller queues nothing" },
	{ "Print stats", IGNORE, 0, "statistics output" },
	END
};

static const struct rule driver_rules[] = {
	{ "type", IGNORE, 0, "the host's device driver, not the drive" },
	{ "Constant access time", EQ, 0, "the drive is simulated, not given a constant time" },
	{ "Scheduler", IGNORE, 0, "the host's queue, not the drive's: a scenario sets it "
	  "(controller queue_policy)" },
	{ "Use queueing in subsystem", IGNORE, 0, "the host's queue, not the drive's" },
	END
};

/* Top-level blocks that describe no drive timing. */
static const struct {
	const char *type, *why;
} ignored_blocks[] = {
	{ "disksim_global", "seeds and output files" },
	{ "disksim_stats", "statistics output" },
	{ "disksim_logorg", "the logical organisation above the drives (a scenario's array)" },
	{ "disksim_pf", "DiskSim's process-flow simulation of the host" },
	{ "disksim_synthio", "the synthetic workload (a scenario's workload)" },
	{ "topology", "how the parts connect (a scenario's controller)" },
	{ "instantiate", "which blocks are used (read above)" },
};

/* ---- the firmware ------------------------------------------------------ */

static int overheads(struct ctx *c, const struct rs_dsim_val *disk)
{
	static const char *const kinds[4] = { "read_hit", "read_miss", "write_hit", "write_miss" };
	static const char *const names[4] = { "Read hit", "Read miss", "Write hit", "Write miss" };
	fprintf(c->out, "overheads:                          # [after a read, after a write]\n");
	for (int k = 0; k < 4; k++) {
		char ka[64], kw[64], a[32], w[32], wa[300], ww[300];
		snprintf(ka, sizeof(ka), "%s over. after read", names[k]);
		snprintf(kw, sizeof(kw), "%s over. after write", names[k]);
		const struct rs_dsim_param *pa = dsim_take(disk, ka), *pw = dsim_take(disk, kw);
		double x, y;
		if (dsim_msec(c, pa, &x) || dsim_msec(c, pw, &y))
			return -1;
		dsim_fmt_ms(a, sizeof(a), x);
		dsim_fmt_ms(w, sizeof(w), y);
		dsim_where(pa, wa, sizeof(wa));
		dsim_where(pw, ww, sizeof(ww));
		char kv[120];
		snprintf(kv, sizeof(kv), "  %s: [%s, %s]", kinds[k], a, w);
		fprintf(c->out, "%-34s # %s, %s \"%s over. after read/write\"\n", kv, wa, ww,
			names[k]);
	}
	return 0;
}

static int flag(struct ctx *c, const struct rs_dsim_val *disk, const char *key, bool *out);

/* Whether any overhead of disconnecting and reselecting is set. */
static bool has_connection(const struct rs_dsim_val *disk)
{
	for (size_t i = 0; i < sizeof(conn_keys) / sizeof(conn_keys[0]); i++) {
		const struct rs_dsim_param *p = rs_dsim_param(disk, conn_keys[i][0]);
		if (p && p->val->kind == RS_DSIM_NUM && p->val->num != 0)
			return true;
	}
	const struct rs_dsim_param *x = rs_dsim_param(disk, "Extra write disconnect");
	return x && x->val->kind == RS_DSIM_NUM && x->val->num != 0;
}

static int ms_line(struct ctx *c, const struct rs_dsim_val *disk, const char *dkey,
		   const char *key, const char *note)
{
	const struct rs_dsim_param *p = dsim_take(disk, dkey);
	double t;
	char v[64];
	if (dsim_msec(c, p, &t))
		return -1;
	dsim_fmt_ms(v, sizeof(v), t);
	dsim_line(c, key, v, p, note);
	return 0;
}

/* DiskSim's disconnecting drive: a read miss lets the bus go after its
 * command and reselects for its data; a write lets it go once its data is
 * in and reselects for its completion; each data phase that opens a
 * connection is prepared first.  A write that follows a write elsewhere may
 * take an extra disconnect before its data. */
static int connection(struct ctx *c, const struct rs_dsim_val *disk)
{
	for (size_t i = 0; i < sizeof(conn_keys) / sizeof(conn_keys[0]); i++)
		if (ms_line(c, disk, conn_keys[i][0], conn_keys[i][1], NULL))
			return -1;
	bool extra;
	if (flag(c, disk, "Extra write disconnect", &extra))
		return -1;
	dsim_line(c, "extra_write_disconnect", extra ? "true" : "false",
		  dsim_take(disk, "Extra write disconnect"), NULL);
	for (size_t i = 0; i < sizeof(extradisc_keys) / sizeof(extradisc_keys[0]); i++) {
		if (extra) {
			if (ms_line(c, disk, extradisc_keys[i][0], extradisc_keys[i][1], NULL))
				return -1;
		} else {
			char w[300];
			const struct rs_dsim_param *p = dsim_take(disk, extradisc_keys[i][0]);
			dsim_where(p, w, sizeof(w));
			fprintf(c->ign, "#   %s \"%s\": used only by an extra write disconnect, "
				"which is off\n", w, p->key);
		}
	}
	return 0;
}

/* DiskSim's "Minimum seek delay": a write that does not continue a
 * streaming one (every write, one command at a time) waits at least this
 * from the start of its seek to the start of its rotational wait. */
static int seek_min(struct ctx *c, const struct rs_dsim_val *disk)
{
	const struct rs_dsim_param *p = dsim_take(disk, "Minimum seek delay");
	double t;
	char v[64];
	if (dsim_msec(c, p, &t))
		return -1;
	if (t == 0)
		return 0;
	dsim_fmt_ms(v, sizeof(v), t);
	dsim_line(c, "write_seek_min", v, p, "a write's positioning move takes at least this");
	return 0;
}

/* The time per block on the way to the host: DiskSim moves data at the
 * slowest of the drive's own rate and the buses' and controllers' on its
 * path. */
static int block_time(struct ctx *c, const struct rs_dsim_val *disk)
{
	const struct rs_dsim_param *dp = dsim_take(disk, "Bulk sector transfer time");
	double best;
	if (dsim_msec(c, dp, &best))
		return -1;
	const struct rs_dsim_param *src = dp, *wsrc = dp;
	double wbest = best;
	for (size_t i = 0; i < c->ds->ntops; i++) {
		const struct rs_dsim_val *b = c->ds->tops[i];
		const struct rs_dsim_param *r = NULL, *w = NULL;
		if (strcmp(b->type, "disksim_bus") == 0) {
			r = rs_dsim_param(b, "Read block transfer time");
			w = rs_dsim_param(b, "Write block transfer time");
		} else if (strcmp(b->type, "disksim_ctlr") == 0) {
			r = w = rs_dsim_param(b, "Bulk sector transfer time");
		} else {
			continue;
		}
		double x, y;
		if (!r || !w || dsim_msec(c, r, &x) || dsim_msec(c, w, &y))
			return r && w ? -1 : dsim_err_val(c, b, "the %s block has no block "
							  "transfer time", b->type);
		if (x > best) {
			best = x;
			src = r;
		}
		if (y > wbest) {
			wbest = y;
			wsrc = w;
		}
	}
	if (best <= 0)
		return dsim_err_val(c, dp->val, "no block transfer time: the drive and every bus say "
				    "0, and raidsim needs a rate");
	char v[64];
	dsim_fmt_ms(v, sizeof(v), best);
	dsim_line(c, "interface_block_time", v, src, "the slowest per-block time on the path "
		  "(drive, buses, controller)");
	if (wbest != best) {
		dsim_fmt_ms(v, sizeof(v), wbest);
		dsim_line(c, "interface_block_time_write", v, wsrc, "the same for write data, as "
			  "DiskSim times each direction by its own bus figure");
	}
	if (c->conn) {
		fprintf(c->out, "%-34s # the per-request overhead is 0 (checked); the bus "
			"costs of disconnecting follow\n", "interface_overhead: 0s");
		if (connection(c, disk))
			return -1;
	} else {
		fprintf(c->out, "%-34s # per-request, reselect and disconnect overheads are 0 "
			"(checked)\n", "interface_overhead: 0s");
	}
	dsim_line(c, "interface_burst", "512B", dsim_take(disk, "Calc sector by sector"),
		  "data moves block by block as the media delivers it");
	return 0;
}

/* DiskSim asks only whether caching is on (0 or not); raidsim always keeps
 * read data for hits. */
static int caching(struct ctx *c, const struct rs_dsim_val *disk)
{
	const struct rs_dsim_param *p = dsim_take(disk, "Enable caching in buffer");
	uint64_t on;
	if (dsim_whole(c, p, 0, 2, &on))
		return -1;
	if (!on)
		return dsim_err_val(c, p->val, "'Enable caching in buffer' = 0 is not modelled: raidsim "
				    "keeps read data in the buffer for hits");
	char w[300];
	dsim_where(p, w, sizeof(w));
	fprintf(c->ign, "#   %s \"%s\" = %" PRIu64 ": DiskSim asks only whether it is 0; "
		"read data stays in the buffer for hits\n", w, p->key, on);
	return 0;
}

static int flag(struct ctx *c, const struct rs_dsim_val *disk, const char *key, bool *out)
{
	uint64_t x;
	if (dsim_whole(c, dsim_take(disk, key), 0, 1, &x))
		return -1;
	*out = x != 0;
	return 0;
}

/* Holding the bus: whether the drive keeps the bus while it waits for the
 * media (during a read, a write, or always).  The set-up's bus is owned by
 * this one drive (type 1, one disk) and the reselect and disconnect
 * overheads are 0 (checked), so holding it delays nothing: the read's data
 * starts at the same time either way -- as the media delivers the first
 * block, or at the read water mark, which with a hold is the one
 * reconnection.  Without the hold a water mark above a block would
 * reconnect at every mark, which raidsim does not model. */
static int bus_holding(struct ctx *c, const struct rs_dsim_val *disk, double readwater)
{
	static const char *const keys[] = { "Hold bus entire read xfer",
					    "Hold bus entire write xfer", "Never disconnect" };
	bool on[3];
	/* Disconnecting at a cost, the drive must do as raidsim's does: keep
	 * the bus through a read's data, let it go after a write's. */
	static const bool conn_need[3] = { true, false, false };
	static const char *const conn_why[3] = {
		"a read keeps the bus from its reselection to its last data",
		"a write lets the bus go once its data is in and reselects for its completion",
		"the drive disconnects",
	};
	for (int i = 0; i < 3; i++) {
		if (flag(c, disk, keys[i], &on[i]))
			return -1;
		char w[300];
		const struct rs_dsim_param *p = dsim_take(disk, keys[i]);
		dsim_where(p, w, sizeof(w));
		if (!c->conn) {
			fprintf(c->ign, "#   %s \"%s\" = %d: the bus carries this drive alone and "
				"the reselect and disconnect overheads are 0 (checked), so holding "
				"it delays nothing\n", w, p->key, on[i]);
			continue;
		}
		if (on[i] != conn_need[i])
			return dsim_err_val(c, p->val, "'%s' = %d is not modelled with the disconnect "
					    "and reselect overheads: raidsim can only import %d (%s)",
					    p->key, on[i], conn_need[i], conn_why[i]);
		fprintf(c->ign, "#   %s \"%s\" = %d: %s\n", w, p->key, on[i], conn_why[i]);
	}
	if (readwater > 0 && !on[0] && !on[2])
		return dsim_err_val(c, dsim_take(disk, "Hold bus entire read xfer")->val,
				    "a read water mark without 'Hold bus entire read xfer' is not "
				    "modelled: raidsim starts a read's data once, at the mark, "
				    "and keeps it going");
	return 0;
}

/* How a write larger than a segment takes its data: DiskSim reconnects for
 * more once the segment has drained to the mark, a share of the segment
 * (of the request, at most a segment, "by reqsize"; a write larger than a
 * segment makes both the same).  A write that fits a segment comes in
 * whole either way.  0 keeps raidsim's default, so it is not written. */
static int write_watermark(struct ctx *c, const struct rs_dsim_val *disk, bool by_req)
{
	(void)by_req;
	const struct rs_dsim_param *wp = dsim_take(disk, "Low (write) water mark");
	double mark;
	if (dsim_num(c, wp, &mark))
		return -1;
	if (mark < 0 || mark > 1)
		return dsim_err_val(c, wp->val, "'%s' must be from 0 to 1, got %s", wp->key,
				    wp->val->text);
	if (mark == 0)
		return 0;
	char v[64];
	snprintf(v, sizeof(v), "%.10g", mark);
	dsim_line(c, "write_watermark", v, wp, "a write larger than a segment reconnects for more "
		  "once the segment has drained to this share of it");
	return 0;
}

/* When a read's data starts over the bus: DiskSim reconnects once the
 * segment holds the water mark's share of the request (at least a block),
 * or of the segment when not "by reqsize". */
static int read_watermark(struct ctx *c, const struct rs_dsim_val *disk)
{
	const struct rs_dsim_param *hp = dsim_take(disk, "High (read) water mark");
	const struct rs_dsim_param *rp = dsim_take(disk, "Set watermark by reqsize");
	double mark;
	bool by_req;
	if (dsim_num(c, hp, &mark) || flag(c, disk, rp->key, &by_req))
		return -1;
	if (mark < 0 || mark > 1)
		return dsim_err_val(c, hp->val, "'%s' must be from 0 to 1, got %s", hp->key,
				    hp->val->text);
	if (mark > 0 && !by_req)
		return dsim_err_val(c, rp->val, "'Set watermark by reqsize' = 0 with a read "
				    "water mark is not modelled: raidsim sets the mark as a share of "
				    "the request");
	if (mark == 0) {
		char w[300];
		dsim_where(rp, w, sizeof(w));
		fprintf(c->ign, "#   %s \"%s\": scales the water marks, which are 0\n", w, rp->key);
	}
	if (bus_holding(c, disk, mark))
		return -1;
	char v[64];
	snprintf(v, sizeof(v), "%.10g", mark);
	dsim_line(c, "read_watermark", v, hp, mark > 0 ? "a share of the request, at most a segment "
		  "(\"Set watermark by reqsize\" = 1)" : "data moves as the media delivers it");
	return write_watermark(c, disk, by_req);
}

/* The firmware rules of reads and completions. */
static int command_rules(struct ctx *c, const struct rs_dsim_val *disk)
{
	static const char *const flags[][2] = {
		{ "Read-ahead on idle hit", "read_ahead_on_idle_hit" },
		{ "Stop prefetch in sector", "read_ahead_stop_in_sector" },
		{ "Allow read hits on write data", "read_hits_on_write_data" },
	};
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		bool on;
		if (flag(c, disk, flags[i][0], &on))
			return -1;
		dsim_line(c, flags[i][1], on ? "true" : "false", dsim_take(disk, flags[i][0]), NULL);
	}
	static const char *const comp[2][2] = { { "Read completion overhead", "completion_read" },
						{ "Write completion overhead", "completion_write" } };
	for (int i = 0; i < 2; i++) {
		const struct rs_dsim_param *p = dsim_take(disk, comp[i][0]);
		double t;
		char v[64];
		if (dsim_msec(c, p, &t))
			return -1;
		dsim_fmt_ms(v, sizeof(v), t);
		dsim_line(c, comp[i][1], v, p, NULL);
	}
	return read_watermark(c, disk);
}

static int buffer(struct ctx *c, const struct rs_dsim_val *disk)
{
	uint64_t nseg, seg, wseg, mode, ramin, ramax, fast, qlen;
	const struct rs_dsim_param *np = dsim_take(disk, "Number of buffer segments");
	const struct rs_dsim_param *sp = dsim_take(disk, "Segment size (in blks)");
	const struct rs_dsim_param *wp = dsim_take(disk, "Maximum number of write segments");
	const struct rs_dsim_param *mp = dsim_take(disk, "Buffer continuous read");
	const struct rs_dsim_param *minp = dsim_take(disk, "Minimum read-ahead (blks)");
	const struct rs_dsim_param *maxp = dsim_take(disk, "Maximum read-ahead (blks)");
	const struct rs_dsim_param *fp = dsim_take(disk, "Fast write level");
	const struct rs_dsim_param *qp = dsim_take(disk, "Max queue length");
	if (dsim_whole(c, np, 1, 1024, &nseg) || dsim_whole(c, sp, 1, 1 << 23, &seg) ||
	    dsim_whole(c, wp, 0, 1024, &wseg) || dsim_whole(c, mp, 0, 4, &mode) ||
	    dsim_whole(c, minp, 0, 1 << 23, &ramin) || dsim_whole(c, maxp, 0, 1 << 23, &ramax) ||
	    dsim_whole(c, fp, 0, 2, &fast) || dsim_whole(c, qp, 1, 32, &qlen))
		return -1;
	/* DiskSim keeps one of the segments for writes alone when asked to and
	 * there is more than one; the reads share the others. */
	const struct rs_dsim_param *dp = dsim_take(disk, "Use separate write segment");
	uint64_t dedicated;
	if (dsim_whole(c, dp, 0, 1, &dedicated) || caching(c, disk))
		return -1;
	dedicated = dedicated && nseg > 1;
	uint64_t rseg = dedicated ? nseg - 1 : nseg;
	char v[64];
	snprintf(v, sizeof(v), "%" PRIu64 "B", rseg * seg * 512);
	dsim_line(c, "cache_size", v, sp, dedicated ? "x the read segments x 512 B" :
		  "x \"Number of buffer segments\" x 512 B");
	snprintf(v, sizeof(v), "%" PRIu64, rseg);
	dsim_line(c, "segments", v, np, dedicated ? "less the write segment (\"Use separate write "
		  "segment\" = 1)" : NULL);
	static const char *const modes[] = { "none", "track", "cylinder", "segment",
					     "next-track" };
	dsim_line(c, "prefetch", modes[mode], mp, NULL);
	snprintf(v, sizeof(v), "%" PRIu64 "B", ramax * 512);
	dsim_line(c, "read_ahead", v, maxp, NULL);
	snprintf(v, sizeof(v), "%" PRIu64 "B", ramin * 512);
	dsim_line(c, "read_ahead_min", v, minp, NULL);
	const struct rs_dsim_param *op = dsim_take(disk, "Read-ahead over requested");
	double over;
	if (dsim_num(c, op, &over))
		return -1;
	if (over != 0 && over != 1 && over != -1)
		return dsim_err_val(c, op->val, "'Read-ahead over requested' = %s is not modelled "
				    "(raidsim imports 0, the requested blocks stay in the segment, 1, "
				    "read-ahead may replace them, and -1, they stay until delivered)",
				    op->val->text);
	dsim_line(c, "read_ahead_over_request", over == 1 ? "true" : "false", op, NULL);
	dsim_line(c, "read_drop_request", over == -1 ? "true" : "false", op, over == -1 ? "-1: the "
		  "requested blocks leave the segment once delivered" : NULL);
	const struct rs_dsim_param *fr = dsim_take(disk, "Read any free blocks");
	uint64_t any, stop;
	if (dsim_whole(c, fr, 0, 1, &any))
		return -1;
	dsim_line(c, "read_any_free", any ? "true" : "false", fr, NULL);
	const struct rs_dsim_param *hs = dsim_take(disk, "Write hit stop prefetch");
	if (dsim_whole(c, hs, 0, 1, &stop))
		return -1;
	dsim_line(c, "read_ahead_stop_on_command", stop ? "true" : "false", hs, NULL);
	dsim_line(c, "write_cache", fast ? "true" : "false", fp, fast == 2 ? "writes complete once "
		  "in the buffer" : fast ? "level 1: see write_cache_appends_only" : "writes complete "
		  "on the media");
	if (fast == 1)
		dsim_line(c, "write_cache_appends_only", "true", fp, "only a write that continues write "
			  "data still in the buffer completes early");
	if (fast && dedicated) {
		snprintf(v, sizeof(v), "%" PRIu64 "B", seg * 512);
		dsim_line(c, "write_cache_size", v, dp, "the write segment: segment size x 512 B");
	} else if (fast) {
		if (wseg == 0 || wseg > nseg)
			return dsim_err_val(c, wp->val, "the write segments must be from 1 to the "
					    "number of segments (%" PRIu64 ")", nseg);
		snprintf(v, sizeof(v), "%" PRIu64 "B", wseg * seg * 512);
		dsim_line(c, "write_cache_size", v, wp, "segments x segment size x 512 B");
	}
	if (fast) {
		dsim_line(c, "destage_high", "0%", fp, "cached data goes to the media at once, before "
			  "the next miss");
	}
	snprintf(v, sizeof(v), "%" PRIu64, qlen);
	dsim_line(c, "queue_depth", v, qp, NULL);
	const struct rs_dsim_param *sch = dsim_take(disk, "Scheduler");
	if (sch->val->kind != RS_DSIM_BLOCK || strcmp(sch->val->type, "disksim_ioqueue") != 0)
		return dsim_err_val(c, sch->val, "'Scheduler' must be a disksim_ioqueue block");
	if (dsim_check_block(c, sch->val, ioqueue_rules))
		return -1;
	const struct rs_dsim_param *pol = dsim_take(sch->val, "Scheduling policy");
	uint64_t policy;
	if (dsim_whole(c, pol, 0, 100, &policy))
		return -1;
	if (policy != 1)
		return dsim_err_val(c, pol->val, "scheduling policy %" PRIu64 " is not imported "
				    "(only 1, FCFS; set `scheduler` in a scenario for others)", policy);
	dsim_line(c, "scheduler", "fcfs", pol, NULL);
	return 0;
}

/* ---- the set-up -------------------------------------------------------- */

static int check_setup(struct ctx *c, const struct rs_dsim_val **disk)
{
	*disk = NULL;
	const struct rs_dsim_val *inst = NULL;
	for (size_t i = 0; i < c->ds->ntops; i++) {
		const struct rs_dsim_val *b = c->ds->tops[i];
		const struct rule *rules = NULL;
		if (strcmp(b->type, "disksim_bus") == 0)
			rules = bus_rules;
		else if (strcmp(b->type, "disksim_ctlr") == 0)
			rules = ctlr_rules;
		else if (strcmp(b->type, "disksim_iodriver") == 0)
			rules = driver_rules;
		if (rules) {
			if (dsim_check_block(c, b, rules))
				return -1;
			continue;
		}
		if (strcmp(b->type, "disksim_disk") == 0)
			continue;
		size_t k = 0, nk = sizeof(ignored_blocks) / sizeof(ignored_blocks[0]);
		while (k < nk && strcmp(ignored_blocks[k].type, b->type) != 0)
			k++;
		if (k == nk)
			return dsim_err_val(c, b, "a %s block is not imported (raidsim imports "
					    "one disksim_disk with its buses, controller and driver)",
					    b->type);
		if (strcmp(b->type, "instantiate") == 0) {
			const struct rs_dsim_val *spec = rs_dsim_find(c->ds, "disksim_disk", b->name);
			if (!spec)
				continue;
			if (*disk || b->nitems != 1)
				return dsim_err_val(c, b, "the set-up has more than one disk; raidsim "
						    "imports one drive at a time");
			*disk = spec;
			inst = b;
		} else if (b->name || strcmp(b->type, "topology") == 0) {
			fprintf(c->ign, "#   %s:%d %s%s%s: %s\n", b->file->name, b->line, b->type,
				b->name ? " " : "", b->name ? b->name : "", ignored_blocks[k].why);
		}
	}
	if (!*disk)
		return rs_diag_at(c->d, c->ds->files[0]->shown, 0, 0, "the set-up instantiates no "
				  "disksim_disk");
	(void)inst;
	return 0;
}

int rs_import_disksim(const char *parv, FILE *out, struct rs_diag *d)
{
	struct rs_dsim ds;
	struct ctx c = { .ds = &ds, .d = d };
	char *body = NULL, *ign = NULL;
	size_t body_len = 0, ign_len = 0;
	int rc = rs_dsim_read(&ds, parv, d);
	if (rc == 0) {
		c.out = open_memstream(&body, &body_len);
		c.ign = open_memstream(&ign, &ign_len);
		RS_ASSERT(c.out && c.ign);
		const struct rs_dsim_val *disk;
		rc = check_setup(&c, &disk);
		if (rc == 0) {
			c.conn = has_connection(disk);
			rc = dsim_check_block(&c, disk, disk_rules);
		}
		if (rc == 0)
			rc = dsim_do_model(&c, dsim_take(disk, "Model"));
		if (rc == 0)
			rc = overheads(&c, disk);
		if (rc == 0)
			rc = seek_min(&c, disk);
		if (rc == 0)
			rc = block_time(&c, disk);
		if (rc == 0)
			rc = buffer(&c, disk);
		if (rc == 0)
			rc = command_rules(&c, disk);
		fclose(c.out);
		fclose(c.ign);
		if (rc == 0) {
			const char *name = ds.files[0]->name;
			fprintf(out, "# Generated by 'raidsim import disksim %s' from DiskSim 4.0's "
				"parameter files\n# (Copyright Carnegie Mellon University; see COPYING "
				"beside them).  Each value names\n# the file:line it comes from; do not "
				"edit, regenerate.\n", name);
			fprintf(out, "description: \"");
			for (const char *p = disk->name; *p; p++)
				fprintf(out, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
			fprintf(out, ", DiskSim 4.0 set-up %s\"\ntype: hdd\n", name);
			fwrite(body, 1, body_len, out);
			fprintf(out, "# Ignored, as they cannot change the drive's timing:\n");
			fwrite(ign, 1, ign_len, out);
		}
		free(body);
		free(ign);
	}
	rs_dsim_free(&ds);
	return rc;
}
