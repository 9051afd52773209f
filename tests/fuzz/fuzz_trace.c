/* Fuzz target: the input is a trace, parsed from memory through the public
 * entry in the format FUZZ_TRACE_FORMAT (one program per format).  Each
 * input is parsed twice: keeping every request with no capacity, then
 * keeping device 0 only on a 2^32-block device, so the filter and the
 * capacity check are both reached; then twice more on a 2^20-block device
 * with fit: wrap and fit: scale (and blkparse's Q action), where every
 * request kept must have been moved onto the device.  A parse that succeeds must hand back
 * requests the replay can trust. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "load/trace_parse.h"

#ifndef FUZZ_TRACE_FORMAT
#error "define FUZZ_TRACE_FORMAT (RS_TRACE_DISKSIM, _VALIDATE, _MSR, _SPC or _BLKPARSE)"
#endif

static void broken(const char *what, size_t i)
{
	fprintf(stderr, "raidsim fuzz: parsed trace breaks its promise: %s (request %zu)\n", what,
		i);
	abort();
}

static void check_trace(const struct rs_trace *t, const struct rs_trace_opts *o)
{
	if ((t->n == 0) != (t->req == NULL))
		broken("an empty trace has no array, a non-empty one has one", 0);
	if (t->n > t->lines)
		broken("at most one request per line", t->n);
	for (size_t i = 0; i < t->n; i++) {
		const struct rs_trace_req *r = &t->req[i];
		/* blkparse replays flushes without data: no block, at 0. */
		if (r->op == RS_FLUSH) {
			if (o->format != RS_TRACE_BLKPARSE)
				broken("only blkparse traces flush", i);
			if (r->nblk != 0 || r->lba != 0)
				broken("a flush has no blocks", i);
		} else if (r->nblk == 0) {
			broken("a request has at least one block", i);
		}
		if (r->op != RS_READ && r->op != RS_WRITE && r->op != RS_FLUSH)
			broken("a request reads, writes or flushes", i);
		if (o->capacity_blk && (r->lba >= o->capacity_blk ||
					r->nblk > o->capacity_blk - r->lba))
			broken("a request ends within the device", i);
		if (r->t_ns < 0 || r->measured_ns < 0)
			broken("times are not negative", i);
		if (o->format != RS_TRACE_VALIDATE && i > 0 && r->t_ns < r[-1].t_ns)
			broken("arrivals are in order", i);
	}
}

static void parse(const uint8_t *data, size_t size, const struct rs_trace_opts *o)
{
	struct rs_trace t;
	struct rs_diag d;
	rs_diag_init(&d);
	int rc = rs_trace_parse_mem("fuzz.trace", (const char *)data, size, o, &t, &d);
	fuzz_check_verdict(rc, &d);
	if (rc == 0)
		check_trace(&t, o);
	else if (t.n != 0 || t.req != NULL)
		broken("a failed parse leaves the trace empty", 0);
	rs_trace_free(&t);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rs_trace_opts all = { FUZZ_TRACE_FORMAT, -1, 0, RS_TRACE_FIT_ERROR, 0 };
	const struct rs_trace_opts dev0 = { FUZZ_TRACE_FORMAT, 0, (uint64_t)1 << 32,
					    RS_TRACE_FIT_ERROR, 0 };
	const struct rs_trace_opts wrap = { FUZZ_TRACE_FORMAT, -1, (uint64_t)1 << 20,
					    RS_TRACE_FIT_WRAP, 'Q' };
	const struct rs_trace_opts scale = { FUZZ_TRACE_FORMAT, -1, (uint64_t)1 << 20,
					     RS_TRACE_FIT_SCALE, 0 };
	parse(data, size, &all);
	parse(data, size, &dev0);
	parse(data, size, &wrap);
	parse(data, size, &scale);
	return 0;
}
