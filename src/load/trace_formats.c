/* The formats users already hold, beside DiskSim's: MSR Cambridge and
 * SPC/UMass CSV, and blkparse's default text output (see
 * load/trace_parse.h for their fields).  Each line is parsed into the same
 * compact request as DiskSim's formats; all three replay open loop, with
 * times counted from the first request kept. */
#include "load/trace_lex.h"

static const char msr_fields[] = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime";
static const char *const msr_names[] = { "Timestamp", "Hostname", "DiskNumber", "Type",
					 "Offset", "Size", "ResponseTime" };
static const char spc_fields[] = "ASU,LBA,Size,Opcode,Timestamp[,...]";
static const char *const spc_names[] = { "ASU", "LBA", "Size", "Opcode", "Timestamp" };
static const char blkparse_fields[] = "dev cpu seq seconds pid action RWBS sector + count";
static const char *const blkparse_names[] = { "dev", "cpu", "seq", "seconds", "pid",
					      "action", "RWBS", "sector", "+", "count" };

/* Comma-separated fields, blanks around each trimmed.  A line whose first
 * non-blank is '#' is a comment; an empty line has no fields. */
static int split_csv(const char *s, size_t len, struct field *f, int max, int *end_col)
{
	size_t i = 0;
	while (i < len && is_blank(s[i]))
		i++;
	*end_col = (int)i + 1;
	if (i == len || s[i] == '#')
		return 0;
	int n = 0;
	for (;;) {
		while (i < len && is_blank(s[i]))
			i++;
		size_t start = i;
		while (i < len && s[i] != ',')
			i++;
		size_t stop = i;
		while (stop > start && is_blank(s[stop - 1]))
			stop--;
		if (n <= max) {
			f[n].s = s + start;
			f[n].len = stop - start;
			f[n].col = (int)start + 1;
		}
		n++;
		*end_col = (int)i + 1;
		if (i == len)
			break;
		i++;                  /* the comma */
	}
	return n;
}

static bool starts_negative(const struct field *f)
{
	return f->len > 1 && f->s[0] == '-' && f->s[1] >= '0' && f->s[1] <= '9';
}

/* A non-negative integer field, with the message for a negative or a
 * non-number one. */
static int count_field(struct ctx *c, const struct field *f, const char *what,
		       const char *expected, uint64_t *out)
{
	if (parse_u64(f, out))
		return 0;
	if (starts_negative(f))
		return bad(c, f->col, "%s '" FIELD_FMT "' must not be negative", what,
			   FIELD_ARG(f));
	return bad(c, f->col, "bad %s '" FIELD_FMT "': expected %s", what, FIELD_ARG(f),
		   expected);
}

/* A size in bytes starting `offset_in_blk` bytes into block `blk`: the
 * request covers every 512-byte block it touches.  The capacity is
 * checked by the caller, once it knows the request is kept. */
static int bytes_extent(struct ctx *c, const struct field *fs, uint64_t blk,
			uint64_t offset_in_blk, struct rs_trace_req *r)
{
	uint64_t size;
	if (count_field(c, fs, "size", "a number of bytes", &size) != 0)
		return -1;
	if (size == 0)
		return bad(c, fs->col, "size must be at least 1 byte");
	if (size > (uint64_t)UINT32_MAX * RS_BLOCK_BYTES - RS_BLOCK_BYTES)
		return bad(c, fs->col, "size " FIELD_FMT " is too large (at most %u blocks)",
			   FIELD_ARG(fs), UINT32_MAX);
	r->lba = blk;
	r->nblk = (uint32_t)((offset_in_blk + size + RS_BLOCK_BYTES - 1) / RS_BLOCK_BYTES);
	return 0;
}

/* Arrival times of the new formats count from the first request kept and
 * must not go backwards: open-loop replay issues in file order. */
static int arrival(struct ctx *c, const struct field *f, int64_t t, bool *have_t0,
		   int64_t *t0, int64_t *last, struct rs_trace_req *r)
{
	if (!*have_t0) {
		*have_t0 = true;
		*t0 = t;
		*last = t;
	}
	if (t < *last)
		return bad(c, f->col, "time " FIELD_FMT " is earlier than the previous "
				      "request's; a trace must be in arrival order", FIELD_ARG(f));
	*last = t;
	r->t_ns = t - *t0;
	return 0;
}

static int parse_msr(struct ctx *c, const struct field *f, struct rs_trace_req *r,
		     struct trace_clock *k)
{
	uint64_t ts, disk, offset, resp;
	if (count_field(c, &f[0], "timestamp", "a count of 100 ns units", &ts) != 0)
		return -1;
	if (ts > (uint64_t)INT64_MAX)
		return bad(c, f[0].col, "timestamp " FIELD_FMT " is too large", FIELD_ARG(&f[0]));
	if (count_field(c, &f[2], "disk number", "a non-negative integer", &disk) != 0)
		return -1;
	if (token_is(&f[3], "read"))
		r->op = RS_READ;
	else if (token_is(&f[3], "write"))
		r->op = RS_WRITE;
	else
		return bad(c, f[3].col, "expected Read or Write, got '" FIELD_FMT "'",
			   FIELD_ARG(&f[3]));
	if (count_field(c, &f[4], "offset", "a number of bytes", &offset) != 0)
		return -1;
	if (count_field(c, &f[6], "response time", "a count of 100 ns units", &resp) != 0)
		return -1;
	if (resp > (uint64_t)INT64_MAX / 100)
		return bad(c, f[6].col, "response time " FIELD_FMT " is too large",
			   FIELD_ARG(&f[6]));
	if (bytes_extent(c, &f[5], offset / RS_BLOCK_BYTES, offset % RS_BLOCK_BYTES, r) != 0)
		return -1;
	if (c->o->device >= 0 && disk != (uint64_t)c->o->device)
		return 0;
	if (check_fits(c, f[4].col, r) != 0)
		return -1;
	/* Filetimes count from 1601: only the time since the first request
	 * fits in nanoseconds. */
	if (arrival(c, &f[0], (int64_t)ts, &k->have_t0, &k->t0, &k->last, r) != 0)
		return -1;
	if (r->t_ns > INT64_MAX / 100)
		return bad(c, f[0].col, "timestamp " FIELD_FMT " is too far from the first "
					"request's", FIELD_ARG(&f[0]));
	r->t_ns *= 100;
	r->measured_ns = (int64_t)resp * 100;
	r->hit = 0;
	return 1;
}

static int parse_spc(struct ctx *c, const struct field *f, struct rs_trace_req *r,
		     struct trace_clock *k)
{
	uint64_t asu, lba;
	if (count_field(c, &f[0], "ASU", "a non-negative integer", &asu) != 0)
		return -1;
	if (count_field(c, &f[1], "LBA", "a number of 512-byte blocks", &lba) != 0)
		return -1;
	if (token_is(&f[3], "r"))
		r->op = RS_READ;
	else if (token_is(&f[3], "w"))
		r->op = RS_WRITE;
	else
		return bad(c, f[3].col, "expected opcode r or w, got '" FIELD_FMT "'",
			   FIELD_ARG(&f[3]));
	int64_t t;
	enum num_status st = parse_ns(&f[4], 9, &t);
	if (st != NUM_OK)
		return ns_error(c, &f[4], st, "timestamp", "seconds");
	if (bytes_extent(c, &f[2], lba, 0, r) != 0)
		return -1;
	if (c->o->device >= 0 && asu != (uint64_t)c->o->device)
		return 0;
	if (check_fits(c, f[1].col, r) != 0)
		return -1;
	if (arrival(c, &f[4], t, &k->have_t0, &k->t0, &k->last, r) != 0)
		return -1;
	r->measured_ns = 0;
	r->hit = 0;
	return 1;
}

/* "8,0": a device's major,minor.  Lines that do not start with one are
 * blkparse's summaries and statistics, not events. */
static bool is_dev_field(const struct field *f)
{
	size_t i = 0, comma = 0;
	for (; i < f->len; i++) {
		if (f->s[i] == ',') {
			if (comma || i == 0)
				return false;
			comma = i;
		} else if (f->s[i] < '0' || f->s[i] > '9') {
			return false;
		}
	}
	return comma && comma + 1 < f->len;
}

static int missing(struct ctx *c, int col, const char *what)
{
	return bad(c, col, "missing field '%s' (%s %s line is: %s)", what,
		   c->o->format == RS_TRACE_MSR ? "an" : "a", rs_trace_format_name(c->o->format),
		   rs_trace_other_layout(c->o->format));
}

static int parse_blkparse(struct ctx *c, const struct field *f, int nf, int end_col,
			  struct rs_trace_req *r, struct trace_clock *k)
{
	if (!is_dev_field(&f[0]))
		return 0;
	if (nf < 7)
		return missing(c, end_col, blkparse_names[nf]);
	char want = c->o->action ? c->o->action : 'D';
	if (f[5].len != 1 || f[5].s[0] != want)
		return 0;
	bool rd = false, wr = false, discard = false, flush = false;
	for (size_t i = 0; i < f[6].len; i++) {
		switch (f[6].s[i]) {
		case 'R':
			rd = true;
			break;
		case 'W':
			wr = true;
			break;
		case 'D':             /* discard: raidsim has no trim */
			discard = true;
			break;
		case 'F':             /* flush, or FUA on a write */
			flush = true;
			break;
		case 'N':             /* no data */
		case 'S': case 'M': case 'A': case 'E': case 'B':
			break;        /* sync, meta, read-ahead, secure, barrier */
		default:
			return bad(c, f[6].col + (int)i, "unknown RWBS letter '%c' in '" FIELD_FMT
				   "': expected R, W, D, N, F, S, M, A, E or B",
				   f[6].s[i], FIELD_ARG(&f[6]));
		}
	}
	if (rd && wr)
		return bad(c, f[6].col, "RWBS '" FIELD_FMT "' both reads and writes",
			   FIELD_ARG(&f[6]));
	/* Discards, and lines with no data that are no flush, have nothing
	 * to replay. */
	if (discard || (!rd && !wr && !flush))
		return 0;
	int64_t t;
	enum num_status st = parse_ns(&f[3], 9, &t);
	if (st != NUM_OK)
		return ns_error(c, &f[3], st, "time", "seconds");
	uint64_t count = 0;
	r->lba = 0;
	/* A flush with no data ("F", "FN": no sector field; "FWS 0 + 0")
	 * is replayed as a flush of the device's cache; a flush that carries
	 * a write (a preflush or FUA) replays its data part. */
	if (rd || wr || nf >= 10) {
		if (nf < 10)
			return missing(c, end_col, blkparse_names[nf]);
		if (f[8].len != 1 || f[8].s[0] != '+')
			return bad(c, f[8].col, "expected '+' between sector and count, got '"
				   FIELD_FMT "'", FIELD_ARG(&f[8]));
		if (count_field(c, &f[7], "sector", "a number of 512-byte sectors", &r->lba) != 0 ||
		    count_field(c, &f[9], "sector count", "a number of 512-byte sectors",
				&count) != 0)
			return -1;
	}
	if (count == 0 && flush) {
		r->lba = 0;
		r->nblk = 0;
		r->op = RS_FLUSH;
		if (arrival(c, &f[3], t, &k->have_t0, &k->t0, &k->last, r) != 0)
			return -1;
		r->measured_ns = 0;
		r->hit = 0;
		return 1;
	}
	if (count == 0)
		return bad(c, f[9].col, "sector count must be at least 1");
	if (count > UINT32_MAX)
		return bad(c, f[9].col, "sector count " FIELD_FMT " is too large (at most %u)",
			   FIELD_ARG(&f[9]), UINT32_MAX);
	r->nblk = (uint32_t)count;
	r->op = rd ? RS_READ : RS_WRITE;
	if (check_fits(c, f[7].col, r) != 0)
		return -1;
	if (arrival(c, &f[3], t, &k->have_t0, &k->t0, &k->last, r) != 0)
		return -1;
	r->measured_ns = 0;
	r->hit = 0;
	return 1;
}

/* One line of the newer formats: fields split, counted, then parsed.
 * 1: a request, 0: nothing kept, -1: error. */
int rs_trace_parse_other(struct ctx *c, const char *s, size_t len, struct rs_trace_req *r,
			 struct trace_clock *k)
{
	struct field f[MAX_FIELDS + 1];
	int end_col, nf;
	switch (c->o->format) {
	case RS_TRACE_MSR:
		nf = split_csv(s, len, f, 7, &end_col);
		if (nf == 0)
			return 0;
		if (nf < 7)
			return missing(c, end_col, msr_names[nf]);
		if (nf > 7)
			return bad(c, f[7].col, "unexpected extra field '" FIELD_FMT "' (an msr "
					        "line is: %s)", FIELD_ARG(&f[7]), msr_fields);
		return parse_msr(c, f, r, k);
	case RS_TRACE_SPC:
		nf = split_csv(s, len, f, 5, &end_col);
		if (nf == 0)
			return 0;
		if (nf < 5)
			return missing(c, end_col, spc_names[nf]);
		return parse_spc(c, f, r, k);
	default:
		nf = split(s, len, f, MAX_FIELDS, &end_col);
		if (nf == 0)
			return 0;
		return parse_blkparse(c, f, nf, end_col, r, k);
	}
}

/* fit: wrap and fit: scale, once every request is known. */
void rs_trace_remap(const struct rs_trace_opts *o, struct rs_trace_req *req, size_t n)
{
	uint64_t cap = o->capacity_blk;
	if (!cap || o->fit == RS_TRACE_FIT_ERROR)
		return;
	uint64_t top = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t e = req[i].lba + req[i].nblk;
		if (e < req[i].lba)
			e = UINT64_MAX;
		if (e > top)
			top = e;
	}
	if (top <= cap)
		return;
	for (size_t i = 0; i < n; i++) {
		struct rs_trace_req *r = &req[i];
		if (o->fit == RS_TRACE_FIT_SCALE) {
			/* Every address shrinks by the same ratio, so the trace keeps
			 * its locality pattern, only compressed. */
			__extension__ unsigned __int128 x = r->lba;
			r->lba = (uint64_t)(x * cap / top);
		} else if (r->lba >= cap || r->nblk > cap - r->lba) {
			r->lba %= cap;
		}
		if (r->nblk > cap - r->lba)
			r->lba = cap - r->nblk;
	}
}

const char *rs_trace_other_layout(enum rs_trace_format f)
{
	return f == RS_TRACE_MSR ? msr_fields : f == RS_TRACE_SPC ? spc_fields : blkparse_fields;
}
