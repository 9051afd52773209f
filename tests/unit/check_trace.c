/* Unit tests for the trace workload: both DiskSim formats parse (good
 * files, and malformed lines reported at their exact line and column),
 * open-loop replay against an ideal device gives exactly the queueing a
 * hand calculation gives, closed-loop (validate) replay issues each request
 * exactly its gap after the previous completion and logs the measured
 * service time beside the simulated one, and every run conserves its
 * requests; a line too long, a file over the trace_bytes cap (by its
 * size, or counted from a pipe) and /dev/zero are refused.  The workload is built by hand (bind + init, as load.c does)
 * so the test does not depend on the registry listing it. */
#define _POSIX_C_SOURCE 200809L   /* open_memstream, mkstemp */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/diag.h"
#include "config/limits.h"
#include "config/models.h"
#include "config/node.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "load/load.h"
#include "load/trace.h"
#include "load/trace_parse.h"
#define TU_WANT_SCENARIO
#include "testutil.h"

/* Test data lives in the source tree; `make check` exports srcdir. */
static const char *data_dir(void)
{
	static char dir[1024];
	const char *s = getenv("srcdir");
	snprintf(dir, sizeof(dir), "%s/tests/unit/data", s && *s ? s : ".");
	return dir;
}

/* ---- parsing ---- */

static struct rs_trace_opts opts(enum rs_trace_format f, int64_t device, uint64_t cap)
{
	return (struct rs_trace_opts){ .format = f, .device = device, .capacity_blk = cap };
}

START_TEST(parse_disksim_good)
{
	char path[1200];
	snprintf(path, sizeof(path), "%s/disksim_good.trace", data_dir());
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_DISKSIM, -1, 0);
	ck_assert_int_eq(rs_trace_parse_file(path, &o, &t, NULL, &d), 0);
	ck_assert_uint_eq(t.n, 5);
	ck_assert_uint_eq(t.lines, 7);
	const struct rs_trace_req want[5] = {
		{ 1000, 0, 0, 8, RS_READ, 0 },
		{ 2000, 500000, 0, 16, RS_WRITE, 0 },
		{ 5000, 3000000, 0, 8, RS_READ, 0 },
		{ 64, 3000000, 0, 1, RS_READ, 0 },      /* flags 0x11: bit 0 set */
		{ 7000, 10250000, 0, 8, RS_WRITE, 0 },  /* flags a (hex): bit 0 clear */
	};
	for (size_t i = 0; i < 5; i++) {
		ck_assert_uint_eq(t.req[i].lba, want[i].lba);
		ck_assert_int_eq(t.req[i].t_ns, want[i].t_ns);
		ck_assert_uint_eq(t.req[i].nblk, want[i].nblk);
		ck_assert_int_eq(t.req[i].op, want[i].op);
	}
	rs_trace_free(&t);

	/* The device filter keeps only device 1's line. */
	o.device = 1;
	ck_assert_int_eq(rs_trace_parse_file(path, &o, &t, NULL, &d), 0);
	ck_assert_uint_eq(t.n, 1);
	ck_assert_uint_eq(t.req[0].lba, 5000);
	rs_trace_free(&t);
	ck_assert(!d.failed);
}
END_TEST

START_TEST(parse_validate_good)
{
	char path[1200];
	snprintf(path, sizeof(path), "%s/validate_good.trace", data_dir());
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_VALIDATE, -1, 0);
	ck_assert_int_eq(rs_trace_parse_file(path, &o, &t, NULL, &d), 0);
	ck_assert_uint_eq(t.n, 3);
	ck_assert_int_eq(t.req[0].op, RS_READ);
	ck_assert_int_eq(t.req[0].hit, 0);
	ck_assert_uint_eq(t.req[0].lba, 1000);
	ck_assert_uint_eq(t.req[0].nblk, 8);
	ck_assert_int_eq(t.req[0].measured_ns, 1500500);
	ck_assert_int_eq(t.req[0].t_ns, 0);
	ck_assert_int_eq(t.req[1].op, RS_WRITE);
	ck_assert_int_eq(t.req[1].hit, 1);
	ck_assert_int_eq(t.req[1].measured_ns, 800000);
	ck_assert_int_eq(t.req[1].t_ns, 2000000);
	ck_assert_int_eq(t.req[2].op, RS_READ);
	ck_assert_int_eq(t.req[2].measured_ns, 12345678);   /* exact, no binary rounding */
	ck_assert_int_eq(t.req[2].t_ns, 500250);
	rs_trace_free(&t);
}
END_TEST

/* One request's fields, for the tables below. */
static void check_reqs(const struct rs_trace *t, const struct rs_trace_req *want, size_t n)
{
	ck_assert_uint_eq(t->n, n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(t->req[i].lba == want[i].lba && t->req[i].t_ns == want[i].t_ns &&
				      t->req[i].nblk == want[i].nblk && t->req[i].op == want[i].op,
			      "request %zu: got lba %llu t %lld nblk %u op %d", i,
			      (unsigned long long)t->req[i].lba, (long long)t->req[i].t_ns,
			      (unsigned)t->req[i].nblk, t->req[i].op);
	}
}

static void parse_sample(const char *file, struct rs_trace_opts *o, struct rs_trace *t)
{
	char path[1200];
	snprintf(path, sizeof(path), "%s/%s", data_dir(), file);
	struct rs_diag d;
	rs_diag_init(&d);
	ck_assert_msg(rs_trace_parse_file(path, o, t, NULL, &d) == 0, "%s:%d:%d: %s", d.file,
		      d.line, d.col, d.msg);
}

/* MSR: filetime 100 ns units from the first record, bytes to the blocks
 * they touch, the disk filter. */
START_TEST(parse_msr_good)
{
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_MSR, -1, 0);
	parse_sample("msr_good.csv", &o, &t);
	const struct rs_trace_req want[4] = {
		{ 8, 0, 0, 16, RS_READ, 0 },
		{ 1, 10000, 0, 1, RS_WRITE, 0 },
		{ 1, 1000000000, 0, 2, RS_WRITE, 0 },   /* bytes 1000..1099: blocks 1 and 2 */
		{ 0, 2000000000, 0, 8, RS_READ, 0 },
	};
	check_reqs(&t, want, 4);
	ck_assert_int_eq(t.req[0].measured_ns, 123400);
	rs_trace_free(&t);
	o.device = 1;
	parse_sample("msr_good.csv", &o, &t);
	const struct rs_trace_req disk1 = { 1, 0, 0, 1, RS_WRITE, 0 };
	check_reqs(&t, &disk1, 1);
	rs_trace_free(&t);
}
END_TEST

/* SPC: seconds from the first record, sizes in bytes, any opcode case,
 * extra columns ignored, the ASU filter. */
START_TEST(parse_spc_good)
{
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_SPC, -1, 0);
	parse_sample("spc_good.csv", &o, &t);
	const struct rs_trace_req want[4] = {
		{ 20941264, 0, 0, 16, RS_WRITE, 0 },
		{ 20939840, 2335000, 0, 16, RS_READ, 0 },
		{ 1000, 948294000, 0, 1, RS_READ, 0 },
		{ 7, 948294000, 0, 1, RS_WRITE, 0 },
	};
	check_reqs(&t, want, 4);
	rs_trace_free(&t);
	o.device = 1;
	parse_sample("spc_good.csv", &o, &t);
	const struct rs_trace_req asu1 = { 20939840, 0, 0, 16, RS_READ, 0 };
	check_reqs(&t, &asu1, 1);
	rs_trace_free(&t);
}
END_TEST

/* blkparse: one action kept; flushes without data replayed as flushes;
 * plugs, messages, discards and the statistics block skipped. */
START_TEST(parse_blkparse_good)
{
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_BLKPARSE, -1, 0);
	parse_sample("blkparse_good.txt", &o, &t);
	const struct rs_trace_req want[5] = {
		{ 223490, 0, 0, 8, RS_WRITE, 0 },
		{ 4096, 95000, 0, 256, RS_READ, 0 },
		{ 0, 195000, 0, 0, RS_FLUSH, 0 },
		{ 0, 295000, 0, 0, RS_FLUSH, 0 },
		{ 12, 1995000, 0, 1, RS_WRITE, 0 },
	};
	check_reqs(&t, want, 5);
	rs_trace_free(&t);
	o.action = 'Q';
	parse_sample("blkparse_good.txt", &o, &t);
	check_reqs(&t, want, 1);
	rs_trace_free(&t);
	o.action = 'C';
	parse_sample("blkparse_good.txt", &o, &t);
	check_reqs(&t, want, 1);
	rs_trace_free(&t);
}
END_TEST

/* fit: wrap moves only what lies beyond; scale shrinks every address by
 * capacity / highest end, so the order of addresses is kept. */
START_TEST(parse_fit)
{
	static const char text[] = "0,1000,512,R,0\n0,10,1024,w,1\n0,999,1024,w,2\n";
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_SPC, -1, 1000);
	o.fit = RS_TRACE_FIT_WRAP;
	ck_assert_int_eq(rs_trace_parse_mem("f.csv", text, strlen(text), &o, &t, &d), 0);
	const struct rs_trace_req wrapped[3] = {
		{ 0, 0, 0, 1, RS_READ, 0 },
		{ 10, 1000000000, 0, 2, RS_WRITE, 0 },
		{ 998, 2000000000, 0, 2, RS_WRITE, 0 },  /* 999 wraps to itself, then ends in */
	};
	check_reqs(&t, wrapped, 3);
	rs_trace_free(&t);
	o.fit = RS_TRACE_FIT_SCALE;
	ck_assert_int_eq(rs_trace_parse_mem("f.csv", text, strlen(text), &o, &t, &d), 0);
	const struct rs_trace_req scaled[3] = {
		{ 999, 0, 0, 1, RS_READ, 0 },            /* 1000 * 1000 / 1001 */
		{ 9, 1000000000, 0, 2, RS_WRITE, 0 },
		{ 998, 2000000000, 0, 2, RS_WRITE, 0 },
	};
	check_reqs(&t, scaled, 3);
	rs_trace_free(&t);
	/* DiskSim's formats take `fit` too. */
	static const char ds[] = "0 0 5000 8 1\n1 0 10 8 0\n";
	struct rs_trace_opts od = opts(RS_TRACE_DISKSIM, -1, 1000);
	od.fit = RS_TRACE_FIT_WRAP;
	ck_assert_int_eq(rs_trace_parse_mem("d.trace", ds, strlen(ds), &od, &t, &d), 0);
	const struct rs_trace_req ds_wrapped[2] = {
		{ 0, 0, 0, 8, RS_READ, 0 },              /* 5000 mod 1000 */
		{ 10, 1000000, 0, 8, RS_WRITE, 0 },
	};
	check_reqs(&t, ds_wrapped, 2);
	rs_trace_free(&t);
	/* A request larger than the whole device cannot be remapped. */
	o.capacity_blk = 1;
	ck_assert_int_eq(rs_trace_parse_mem("f.csv", text, strlen(text), &o, &t, &d), -1);
	ck_assert(strstr(d.msg, "larger than the device"));
	ck_assert_int_eq(d.line, 2);
}
END_TEST

/* Decimal times convert exactly, round beyond a nanosecond and accept
 * exponent forms. */
START_TEST(parse_times)
{
	const char *text = "0.000001 0 0 1 1\n"
			   "0.0000015 0 0 1 1\n"
			   "1e1 0 0 1 1\n"
			   "+12.5 0 0 1 1\n"
			   ".5e2 0 0 1 1\n"
			   "86400000 0 0 1 1\n";
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_DISKSIM, -1, 0);
	ck_assert_int_eq(rs_trace_parse_mem("t.trace", text, strlen(text), &o, &t, &d), 0);
	ck_assert_uint_eq(t.n, 6);
	ck_assert_int_eq(t.req[0].t_ns, 1);
	ck_assert_int_eq(t.req[1].t_ns, 2);
	ck_assert_int_eq(t.req[2].t_ns, 10000000);
	ck_assert_int_eq(t.req[3].t_ns, 12500000);
	ck_assert_int_eq(t.req[4].t_ns, 50000000);
	ck_assert_int_eq(t.req[5].t_ns, 86400000 * RS_MS);
	rs_trace_free(&t);
	/* No final newline, CRLF line ends, an empty file. */
	const char *crlf = "R x 1 1 2 3\r\nW y 2 2 4 5";
	o.format = RS_TRACE_VALIDATE;
	ck_assert_int_eq(rs_trace_parse_mem("t.trace", crlf, strlen(crlf), &o, &t, &d), 0);
	ck_assert_uint_eq(t.n, 2);
	ck_assert_int_eq(t.req[1].t_ns, 5000);
	rs_trace_free(&t);
	ck_assert_int_eq(rs_trace_parse_mem("t.trace", "", 0, &o, &t, &d), 0);
	ck_assert_uint_eq(t.n, 0);
	ck_assert_ptr_null(t.req);
	ck_assert(!d.failed);
}
END_TEST

struct bad_case {
	enum rs_trace_format format;
	uint64_t capacity;
	const char *text;
	int line, col;
	const char *msg;              /* a substring of the message */
};

static const struct bad_case bad_cases[] = {
	{ RS_TRACE_DISKSIM, 0, "0 0 1 8 1\n\n0.5 0 100\n", 3, 10, "missing field 'size'" },
	{ RS_TRACE_DISKSIM, 0, "0 0 1 8 1 7\n", 1, 11, "unexpected extra field '7'" },
	{ RS_TRACE_DISKSIM, 0, "# c\n  abc 0 1 8 1\n", 2, 3, "bad arrival time 'abc'" },
	{ RS_TRACE_DISKSIM, 0, "-1.5 0 1 8 1\n", 1, 1, "arrival time '-1.5' must not be negative" },
	{ RS_TRACE_DISKSIM, 0, "1 x 1 8 1\n", 1, 3, "bad device number 'x'" },
	{ RS_TRACE_DISKSIM, 0, "1 0 1.5 8 1\n", 1, 5, "bad block number '1.5'" },
	{ RS_TRACE_DISKSIM, 0, "1 0 1 0 1\n", 1, 7, "size must be at least 1 block" },
	{ RS_TRACE_DISKSIM, 0, "1 0 1 8 g\n", 1, 9, "bad flags 'g'" },
	{ RS_TRACE_DISKSIM, 0, "1 0 1 8 1\n2 0 1 8 1\n\t1.5 0 1 8 1\n", 3, 2,
	  "earlier than the previous request's (2.000000 ms)" },
	{ RS_TRACE_DISKSIM, 0, "1 0 1 99999999999 1\n", 1, 7, "too large" },
	{ RS_TRACE_DISKSIM, 0, "1 0 18446744073709551616 8 1\n", 1, 5, "bad block number" },
	{ RS_TRACE_DISKSIM, 0, "99999999999999999 0 1 8 1\n", 1, 1, "too large" },
	{ RS_TRACE_DISKSIM, 1000, "1 0 992 8 1\n1 0 993 8 1\n", 2, 5,
	  "request at block 993 of 8 blocks ends beyond the device (1000 blocks)" },
	{ RS_TRACE_VALIDATE, 0, "R miss 1 8 100 0\nX miss 1 8 100 0\n", 2, 1,
	  "expected R or W, got 'X'" },
	{ RS_TRACE_VALIDATE, 0, "R miss 1 8 100\n", 1, 15, "missing field 'gap_us'" },
	{ RS_TRACE_VALIDATE, 0, "R miss 1 8 1o0 0\n", 1, 12, "bad service time '1o0'" },
	{ RS_TRACE_VALIDATE, 0, "R miss 1 8 100 -2\n", 1, 16, "gap '-2' must not be negative" },
	{ RS_TRACE_VALIDATE, 0, "R miss 1 8 100 0 # ok\nW  hit  7  8  1  2  3\n", 2, 21,
	  "unexpected extra field '3'" },
	{ RS_TRACE_VALIDATE, 50, "W hit 49 2 1 1\n", 1, 7, "ends beyond the device" },
	/* msr: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime */
	{ RS_TRACE_MSR, 0, "1,h,0,Read,0,512\n", 1, 17, "missing field 'ResponseTime'" },
	{ RS_TRACE_MSR, 0, "1,h,0,Read,0,512,1,9\n", 1, 20, "unexpected extra field '9'" },
	{ RS_TRACE_MSR, 0, "1,h,x,Read,0,512,1\n", 1, 5, "bad disk number 'x'" },
	{ RS_TRACE_MSR, 0, "1.5,h,0,Read,0,512,1\n", 1, 1, "bad timestamp '1.5'" },
	{ RS_TRACE_MSR, 0, "1,h,0,Erase,0,512,1\n", 1, 7, "expected Read or Write, got 'Erase'" },
	{ RS_TRACE_MSR, 0, "1,h,0,Read,0,-512,1\n", 1, 14, "size '-512' must not be negative" },
	{ RS_TRACE_MSR, 0, "1,h,0,Read,0,0,1\n", 1, 14, "size must be at least 1 byte" },
	{ RS_TRACE_MSR, 0, "5,h,0,Read,0,1,1\n 4 ,h,0,Read,0,1,1\n", 2, 2, "arrival order" },
	{ RS_TRACE_MSR, 1000, "1,h,0,Read,511488,1024,1\n", 1, 12,
	  "request at block 999 of 2 blocks ends beyond the device (1000 blocks); fit: wrap" },
	/* spc: ASU,LBA,Size,Opcode,Timestamp[,...] */
	{ RS_TRACE_SPC, 0, "0,1,512\n", 1, 8, "missing field 'Opcode'" },
	{ RS_TRACE_SPC, 0, "0,x1,512,r,0\n", 1, 3, "bad LBA 'x1'" },
	{ RS_TRACE_SPC, 0, "0,1,512,q,0\n", 1, 9, "expected opcode r or w, got 'q'" },
	{ RS_TRACE_SPC, 0, "0,1,-512,r,0\n", 1, 5, "size '-512' must not be negative" },
	{ RS_TRACE_SPC, 0, "0,1,512,r,-1\n", 1, 11, "timestamp '-1' must not be negative" },
	/* blkparse: dev cpu seq seconds pid action RWBS sector + count */
	{ RS_TRACE_BLKPARSE, 0, "8,0 0 1 0.0 1 D\n", 1, 16, "missing field 'RWBS'" },
	{ RS_TRACE_BLKPARSE, 0, "8,0 0 1 0.0 1 D W 5 +\n", 1, 22, "missing field 'count'" },
	{ RS_TRACE_BLKPARSE, 0, "8,0 0 1 0.0 1 D W x + 8\n", 1, 19, "bad sector 'x'" },
	{ RS_TRACE_BLKPARSE, 0, "8,0 0 1 abc 1 D W 5 + 8\n", 1, 9, "bad time 'abc'" },
	{ RS_TRACE_BLKPARSE, 0, "8,0 0 1 0.0 1 D WX 5 + 8\n", 1, 18, "unknown RWBS letter 'X'" },
	{ RS_TRACE_BLKPARSE, 0, "8,0 0 1 0.0 1 D W 5 + -8\n", 1, 23,
	  "sector count '-8' must not be negative" },
	{ RS_TRACE_BLKPARSE, 0, "8,0 0 1 0.0 1 D W 5 - 8\n", 1, 21, "expected '+'" },
};

START_TEST(parse_bad)
{
	const struct bad_case *c = &bad_cases[_i];
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_trace t;
	struct rs_trace_opts o = opts(c->format, -1, c->capacity);
	ck_assert_int_eq(rs_trace_parse_mem("bad.trace", c->text, strlen(c->text), &o, &t, &d), -1);
	ck_assert(d.failed);
	ck_assert_str_eq(d.file, "bad.trace");
	ck_assert_msg(d.line == c->line && d.col == c->col && strstr(d.msg, c->msg),
		      "case %d: got %d:%d '%s', want %d:%d '...%s...'", _i, d.line, d.col, d.msg,
		      c->line, c->col, c->msg);
	ck_assert_ptr_null(t.req);
}
END_TEST

/* ---- building and running ---- */

/* What load.c's rs_load_build does, with the type given directly. */
static struct rs_load *build_trace(struct rs_sim *sim, const struct rs_node *workload,
				   struct rs_dev *dev, struct rs_diag *d)
{
	const struct rs_node *key = workload->keys[0];
	const struct rs_node *body = workload->items[0];
	ck_assert_str_eq(key->str, "trace");
	struct rs_load *load = calloc(1, sizeof(*load));
	ck_assert_ptr_nonnull(load);
	load->type = &rs_load_trace;
	load->target = dev;
	load->params = calloc(1, rs_load_trace.params_size);
	ck_assert_ptr_nonnull(load->params);
	if (rs_schema_bind(rs_load_trace.opts, body, load->params, key, "workload.trace", NULL,
			   d) != 0 ||
	    rs_load_trace.init(sim, load, load->params, body, d) != 0) {
		rs_load_destroy(load);
		return NULL;
	}
	return load;
}

/* Build the scenario text (named `name`, which sets the directory trace
 * files are relative to) with its request log captured.  Returns 0, or -1
 * with r->d set. */
static int run_build(struct tu_point *r, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int run_build(struct tu_point *r, const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tu_point_vopen(r, name, 1, fmt, ap);
	va_end(ap);
	tu_point_device(r, "device");
	r->load = build_trace(r->sim, tu_point_section(r, "workload"), r->dev, &r->d);
	if (!r->load)
		return -1;
	tu_point_log(r);
	return 0;
}

/* One parsed line of the request log, times in integer nanoseconds. */
struct logline {
	rs_time_t issue, resp, measured;
	char op[8];
	unsigned long long lba;
	unsigned nblk;
	int status;
	int ncols;
};

static size_t read_log(const struct tu_point *r, struct logline *out, size_t max)
{
	size_t n = 0;
	const char *p = r->log;
	while (p && *p && n < max) {
		double issue, resp, meas = 0;
		struct logline *l = &out[n];
		l->ncols = sscanf(p, "%lf,%7[a-z],%llu,%u,%lf,%d,%lf", &issue, l->op, &l->lba,
				  &l->nblk, &resp, &l->status, &meas);
		ck_assert_int_ge(l->ncols, 6);
		l->issue = llround(issue * 1e9);
		l->resp = llround(resp * 1e9);
		l->measured = llround(meas * 1e9);
		n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n;
}

static char scenario_name[1200];

static const char *scenario(void)
{
	snprintf(scenario_name, sizeof(scenario_name), "%s/scenario.yaml", data_dir());
	return scenario_name;
}

#define IDEAL "device: { type: ideal, service: fixed, mean: 1ms, capacity: 1GiB }\n"

/* The new formats replay open loop from their first request, with their
 * filters, and fit: scale brings a trace beyond a small device onto it. */
START_TEST(open_loop_new_formats)
{
	struct tu_point r;
	struct logline l[16];
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: msr_good.csv, format: msr, disk: 0 }\n"),
			 0);
	tu_point_go(&r);
	ck_assert_uint_eq(read_log(&r, l, 16), 3);
	ck_assert_int_eq(l[1].issue, 1000000000);
	ck_assert_int_eq(l[2].issue, 2000000000);
	tu_point_free(&r);

	/* 223490 + 8 is beyond 1 MiB (2048 blocks): refused, then scaled. */
	ck_assert_int_eq(run_build(&r, scenario(),
				   "device: { type: ideal, capacity: 1MiB }\n"
				   "workload:\n"
				   "  trace: { file: blkparse_good.txt, format: blkparse }\n"),
			 -1);
	ck_assert_int_eq(r.d.line, 7);   /* the first D line */
	ck_assert(strstr(r.d.msg, "block 223490 of 8 blocks ends beyond the device"));
	tu_point_free(&r);
	ck_assert_int_eq(run_build(&r, scenario(),
				   "device: { type: ideal, service: fixed, mean: 1ms, "
				   "capacity: 1MiB }\n"
				   "workload:\n"
				   "  trace: { file: blkparse_good.txt, format: blkparse, fit: scale, "
				   "scale: 100 }\n"),
			 0);
	tu_point_go(&r);
	/* The two flushes without data are replayed as flushes. */
	ck_assert_uint_eq(read_log(&r, l, 16), 5);
	ck_assert_int_eq(l[1].issue, 9500000);
	ck_assert_int_eq(l[2].issue, 19500000);
	ck_assert_int_eq(l[3].issue, 29500000);
	ck_assert_int_eq(l[4].issue, 199500000);
	tu_point_free(&r);

	/* Each filter belongs to its format. */
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: spc_good.csv, format: spc, disk: 1 }\n"),
			 -1);
	ck_assert(strstr(r.d.msg, "'disk' applies only to format msr"));
	tu_point_free(&r);
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: msr_good.csv, format: msr, action: Q }\n"),
			 -1);
	ck_assert(strstr(r.d.msg, "'action' applies only to format blkparse"));
	tu_point_free(&r);
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: spc_good.csv, format: spc, asu: 9 }\n"),
			 -1);
	ck_assert(strstr(r.d.msg, "holds no requests for ASU 9"));
	tu_point_free(&r);
}
END_TEST

/* FIFO, one server, 1 ms each: arrivals 0, 0.5, 3, 3, 10.25 ms give
 * responses 1, 1.5, 1, 2, 1 ms; the window closes at the last completion. */
START_TEST(open_loop_exact)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: disksim_good.trace }\n"),
			 0);
	tu_point_go(&r);
	struct logline l[16];
	ck_assert_uint_eq(read_log(&r, l, 16), 5);
	const rs_time_t issue[5] = { 0, 500000, 3000000, 3000000, 10250000 };
	const rs_time_t resp[5] = { 1000000, 1500000, 1000000, 2000000, 1000000 };
	const unsigned long long lba[5] = { 1000, 2000, 5000, 64, 7000 };
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(l[i].issue, issue[i]);
		ck_assert_int_eq(l[i].resp, resp[i]);
		ck_assert_uint_eq(l[i].lba, lba[i]);
		ck_assert_int_eq(l[i].status, 0);
		ck_assert_int_eq(l[i].ncols, 6);     /* open loop: no measured column */
	}
	ck_assert_str_eq(l[1].op, "write");
	ck_assert_str_eq(l[3].op, "read");
	ck_assert(r.load->stopped);
	ck_assert_int_eq(r.load->t_measure_end, 11250000);
	ck_assert_int_eq(rs_now(r.sim), 11250000);
	ck_assert_uint_eq(r.load->summary.ops, 5);
	tu_point_free(&r);
}
END_TEST

/* Device filter and time scaling: device 0's arrivals 0, 0.5, 3, 10.25 ms
 * doubled never queue. */
START_TEST(open_loop_filter_scale)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: disksim_good.trace, device: 0, scale: 2 }\n"),
			 0);
	tu_point_go(&r);
	struct logline l[16];
	ck_assert_uint_eq(read_log(&r, l, 16), 4);
	const rs_time_t issue[4] = { 0, 1000000, 6000000, 20500000 };
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(l[i].issue, issue[i]);
		ck_assert_int_eq(l[i].resp, 1000000);
	}
	ck_assert_int_eq(rs_now(r.sim), 21500000);
	tu_point_free(&r);
}
END_TEST

/* repeat: the second pass starts one trace length plus the mean gap later
 * (10.25 + 10.25/4 ms) and queues exactly like the first. */
START_TEST(open_loop_repeat)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: disksim_good.trace, repeat: 2 }\n"),
			 0);
	tu_point_go(&r);
	struct logline l[16];
	ck_assert_uint_eq(read_log(&r, l, 16), 10);
	const rs_time_t issue[5] = { 0, 500000, 3000000, 3000000, 10250000 };
	const rs_time_t resp[5] = { 1000000, 1500000, 1000000, 2000000, 1000000 };
	const rs_time_t span = 12812500;
	for (int i = 0; i < 10; i++) {
		ck_assert_int_eq(l[i].issue, issue[i % 5] + (i / 5) * span);
		ck_assert_int_eq(l[i].resp, resp[i % 5]);
	}
	ck_assert_int_eq(rs_now(r.sim), span + 11250000);
	tu_point_free(&r);
}
END_TEST

/* A `run` shorter than the trace closes the window on time; later
 * arrivals are never issued nor left scheduled. */
START_TEST(open_loop_run_window)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: disksim_good.trace, run: 3500us }\n"),
			 0);
	tu_point_go(&r);
	struct logline l[16];
	ck_assert_uint_eq(read_log(&r, l, 16), 2);   /* completed inside [0, 3.5 ms) */
	ck_assert_uint_eq(r.sim->io_counters.created, 4);
	ck_assert_int_eq(r.load->t_measure_end, 3500000);
	ck_assert_int_eq(rs_now(r.sim), 5000000);     /* the in-flight pair drained */
	tu_point_free(&r);

	/* count: 2 ends after the second completion. */
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: disksim_good.trace, count: 2 }\n"),
			 0);
	tu_point_go(&r);
	ck_assert_uint_eq(r.load->summary.ops, 2);
	ck_assert_int_eq(r.load->t_measure_end, 2000000);
	ck_assert_uint_eq(r.sim->io_counters.created, 2);
	ck_assert_int_eq(rs_now(r.sim), 2000000);
	tu_point_free(&r);

	/* A ramp longer than the trace: nothing measured, still clean. */
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: disksim_good.trace, ramp: 1s }\n"),
			 0);
	tu_point_go(&r);
	ck_assert_uint_eq(r.load->summary.ops, 0);
	ck_assert(!r.load->measuring);
	ck_assert_uint_eq(r.sim->io_counters.created, 5);
	tu_point_free(&r);
}
END_TEST

/* Closed loop: each request is issued exactly its predecessor's gap after
 * the predecessor completed, and the log carries the measured time. */
START_TEST(closed_loop_validate)
{
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: validate_good.trace, format: validate, "
					"repeat: 2 }\n"),
			 0);
	tu_point_go(&r);
	struct logline l[16];
	ck_assert_uint_eq(read_log(&r, l, 16), 6);
	const rs_time_t gap[3] = { 0, 2000000, 500250 };
	const rs_time_t measured[3] = { 1500500, 800000, 12345678 };
	ck_assert_int_eq(l[0].issue, 0);
	for (int i = 0; i < 6; i++) {
		ck_assert_int_eq(l[i].ncols, 7);
		ck_assert_int_eq(l[i].resp, 1000000);
		ck_assert_int_eq(l[i].measured, measured[i % 3]);
		if (i > 0)
			ck_assert_int_eq(l[i].issue, l[i - 1].issue + l[i - 1].resp + gap[(i - 1) % 3]);
	}
	ck_assert_str_eq(l[1].op, "write");
	ck_assert_int_eq(rs_now(r.sim), 10500250);
	ck_assert_int_eq(r.load->t_measure_end, 10500250);
	tu_point_free(&r);

	/* scale stretches the gaps (not the measured times). */
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: validate_good.trace, format: validate, "
					"scale: 2 }\n"),
			 0);
	tu_point_go(&r);
	ck_assert_uint_eq(read_log(&r, l, 16), 3);
	ck_assert_int_eq(l[1].issue, 1000000);
	ck_assert_int_eq(l[2].issue, 6000000);
	ck_assert_int_eq(l[2].measured, 12345678);
	ck_assert_int_eq(rs_now(r.sim), 7000000);
	tu_point_free(&r);
}
END_TEST

/* Diagnostics at init point at the YAML node or the trace line. */
START_TEST(init_errors)
{
	struct tu_point r;
	char want[1400];

	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: no-such.trace }\n"),
			 -1);
	ck_assert_int_eq(r.d.line, 3);
	ck_assert_int_eq(r.d.col, 18);
	snprintf(want, sizeof(want), "cannot read trace file '%s/no-such.trace'", data_dir());
	ck_assert_msg(strstr(r.d.msg, want), "%s", r.d.msg);
	tu_point_free(&r);

	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: validate_good.trace, format: validate, "
					"device: 1 }\n"),
			 -1);
	ck_assert_int_eq(r.d.line, 3);
	ck_assert_int_eq(r.d.col, 65);
	ck_assert(strstr(r.d.msg, "'device' applies only to format disksim"));
	tu_point_free(&r);

	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: disksim_good.trace, device: 7 }\n"),
			 -1);
	ck_assert(strstr(r.d.msg, "holds no requests for device 7"));
	tu_point_free(&r);

	/* The wrong format: a disksim file read as validate. */
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: disksim_good.trace, format: validate }\n"),
			 -1);
	snprintf(want, sizeof(want), "%s/disksim_good.trace", data_dir());
	ck_assert_str_eq(r.d.file, want);
	ck_assert_int_eq(r.d.line, 2);
	ck_assert_int_eq(r.d.col, 26);
	ck_assert(strstr(r.d.msg, "missing field 'gap_us' (a validate line is: R|W hit|miss"));
	tu_point_free(&r);

	/* Beyond the target's capacity (4 KiB = 8 blocks). */
	ck_assert_int_eq(run_build(&r, scenario(),
				   "device: { type: ideal, capacity: 1MiB }\n"
				   "workload:\n"
				   "  trace: { file: disksim_good.trace }\n"),
			 -1);
	ck_assert_int_eq(r.d.line, 5);
	ck_assert_int_eq(r.d.col, 15);
	ck_assert(strstr(r.d.msg, "block 5000 of 8 blocks ends beyond the device (2048 blocks)"));
	tu_point_free(&r);

	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { format: disksim }\n"),
			 -1);
	ck_assert(r.d.failed);
	tu_point_free(&r);

	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n"
					"  trace: { file: x, format: blktrace }\n"),
			 -1);
	ck_assert_int_eq(r.d.col, 29);
	tu_point_free(&r);
}
END_TEST

/* An absolute path is used as is; a scenario named without a directory
 * (e.g. a --set value) resolves against the working directory. */
START_TEST(path_resolution)
{
	char path[1400], tmpl[] = "/tmp/check_trace_XXXXXX";
	int fd = mkstemp(tmpl);
	ck_assert_int_ge(fd, 0);
	const char *text = "0 0 0 8 1\n";
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct tu_point r;
	ck_assert_int_eq(run_build(&r, scenario(), IDEAL "workload:\n  trace: { file: '%s' }\n",
				   tmpl),
			 0);
	tu_point_go(&r);
	ck_assert_uint_eq(r.sim->io_counters.completed, 1);
	tu_point_free(&r);
	snprintf(path, sizeof(path), "%s/disksim_good.trace", data_dir());
	ck_assert_int_eq(run_build(&r, "--set", IDEAL "workload:\n  trace: { file: '%s' }\n", path),
			 0);
	tu_point_go(&r);
	ck_assert_uint_eq(r.sim->io_counters.completed, 5);
	tu_point_free(&r);
	unlink(tmpl);
}
END_TEST

/* A trace of two million lines loads quickly and replays with no leaks. */
START_TEST(big_trace)
{
	char tmpl[] = "/tmp/check_trace_big_XXXXXX";
	int fd = mkstemp(tmpl);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	const size_t n = 2000000;
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%zu.%03zu 0 %zu 8 %zu\n", i * 2, i % 1000, (i * 7919) % 1000000, i & 1);
	fclose(f);

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_DISKSIM, -1, 0);
	ck_assert_int_eq(rs_trace_parse_file(tmpl, &o, &t, NULL, &d), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	fprintf(stderr, "check_trace: parsed %zu lines in %.3f s\n", n, secs);
	ck_assert_uint_eq(t.n, n);
	ck_assert_int_eq(t.req[n - 1].t_ns, (rs_time_t)(n - 1) * 2 * RS_MS + 999000);
	rs_trace_free(&t);

	struct tu_point r;
	ck_assert_int_eq(run_build(&r, scenario(),
				   "device: { type: ideal, mean: 100us }\n"
				   "workload:\n  trace: { file: '%s' }\n", tmpl),
			 0);
	tu_point_go(&r);
	ck_assert_uint_eq(r.load->summary.ops, n);
	tu_point_free(&r);
	unlink(tmpl);
}
END_TEST

/* ---- what a hostile "trace" gets ---- */

/* A line longer than RS_TRACE_LINE_MAX, in either format, is an error at
 * that line, not a parse of whatever the bytes happen to be. */
START_TEST(line_too_long)
{
	for (int fmt = 0; fmt < 2; fmt++) {
		size_t n = RS_TRACE_LINE_MAX + 100;
		char *text = malloc(n + 64);
		ck_assert_ptr_nonnull(text);
		int head = snprintf(text, 64, fmt ? "R miss 0 8 100 10\n" : "0 0 0 8 1\n");
		memset(text + head, 'x', n);
		struct rs_diag d;
		rs_diag_init(&d);
		struct rs_trace t;
		struct rs_trace_opts o = opts(fmt ? RS_TRACE_VALIDATE : RS_TRACE_DISKSIM, -1, 0);
		ck_assert_int_eq(rs_trace_parse_mem("long.trace", text, (size_t)head + n, &o, &t,
						    &d), -1);
		ck_assert_int_eq(d.line, 2);
		ck_assert_msg(strstr(d.msg, "line longer than 4096 bytes"), "%s", d.msg);
		free(text);
	}
}
END_TEST

/* /dev/zero has neither an end nor a line end: the reader stops at the
 * first line's cap instead of filling memory. */
START_TEST(device_file_stops_at_first_line)
{
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_DISKSIM, -1, 0);
	ck_assert_int_eq(rs_trace_parse_file("/dev/zero", &o, &t, NULL, &d), -1);
	ck_assert_str_eq(d.file, "/dev/zero");
	ck_assert_int_eq(d.line, 1);
	ck_assert_msg(strstr(d.msg, "line longer than"), "%s", d.msg);
}
END_TEST

/* A regular file over the cap is refused by its size, before reading. */
START_TEST(regular_file_over_cap)
{
	char path[] = "/tmp/rs-trace-cap-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	const char line[] = "0 0 0 8 1\n";
	for (int i = 0; i < 20; i++)
		ck_assert_int_eq(write(fd, line, sizeof(line) - 1), (ssize_t)sizeof(line) - 1);
	close(fd);
	char why[128];
	ck_assert_int_eq(rs_limits_set("trace_bytes=199", why, sizeof(why)), 0);
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_DISKSIM, -1, 0);
	ck_assert_int_eq(rs_trace_parse_file(path, &o, &t, NULL, &d), -1);
	ck_assert_msg(strstr(d.msg, "is 200B, more than the cap trace_bytes=199B"), "%s", d.msg);
	ck_assert_int_eq(rs_limits_set("trace_bytes=200", why, sizeof(why)), 0);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_trace_parse_file(path, &o, &t, NULL, &d), 0);
	ck_assert_uint_eq(t.n, 20);
	rs_trace_free(&t);
	rs_limits_reset();
	unlink(path);
}
END_TEST

/* A pipe has no size to look at: the reader counts, and stops one byte
 * past the cap however much the writer has left. */
START_TEST(pipe_over_cap)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		const char line[] = "0 0 0 8 1\n";
		for (;;)
			if (write(fds[1], line, sizeof(line) - 1) < 0)
				_exit(0);
	}
	close(fds[1]);
	char why[128], path[64];
	ck_assert_int_eq(rs_limits_set("trace_bytes=1MiB", why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_trace t;
	struct rs_trace_opts o = opts(RS_TRACE_DISKSIM, -1, 0);
	ck_assert_int_eq(rs_trace_parse_file(path, &o, &t, NULL, &d), -1);
	ck_assert_msg(strstr(d.msg, "holds more than the cap trace_bytes=1MiB"), "%s", d.msg);
	close(fds[0]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	rs_limits_reset();
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, parse_disksim_good);
	tcase_add_test(tc, parse_validate_good);
	tcase_add_test(tc, parse_times);
	tcase_add_test(tc, parse_msr_good);
	tcase_add_test(tc, parse_spc_good);
	tcase_add_test(tc, parse_blkparse_good);
	tcase_add_test(tc, parse_fit);
	tcase_add_loop_test(tc, parse_bad, 0, (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, line_too_long);
	tcase_add_test(tc, device_file_stops_at_first_line);
	tcase_add_test(tc, regular_file_over_cap);
	tcase_add_test(tc, pipe_over_cap);
	suite_add_tcase(s, tc);
	tc = tcase_create("replay");
	tcase_add_test(tc, open_loop_exact);
	tcase_add_test(tc, open_loop_filter_scale);
	tcase_add_test(tc, open_loop_new_formats);
	tcase_add_test(tc, open_loop_repeat);
	tcase_add_test(tc, open_loop_run_window);
	tcase_add_test(tc, closed_loop_validate);
	tcase_add_test(tc, init_errors);
	tcase_add_test(tc, path_resolution);
	suite_add_tcase(s, tc);
	tc = tcase_create("big");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, big_trace);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(trace_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
