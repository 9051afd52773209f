/* Trace parsing: one pass over the text held in memory, fields split by
 * hand and numbers converted by hand.  The usual sscanf/strtod per line is
 * what makes trace loaders slow (and sscanf cannot say which field was
 * bad); this reads a few million lines in a fraction of a second and
 * converts decimal times to integer nanoseconds exactly, so replay does
 * not inherit binary rounding from the text. */
#define _POSIX_C_SOURCE 200809L   /* open, fstat, read */
#include "load/trace_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/limits.h"
#include "config/units.h"
#include "kernel/assert.h"

/* blkparse has the most: dev cpu seq time pid action rwbs sector + count. */
#define MAX_FIELDS 10

struct field {
	const char *s;
	size_t len;
	int col;                      /* from 1 */
};

struct ctx {
	const char *name;
	const struct rs_trace_opts *o;
	struct rs_diag *d;
	int line;
};

const char *rs_trace_format_name(enum rs_trace_format f)
{
	switch (f) {
	case RS_TRACE_VALIDATE:
		return "validate";
	case RS_TRACE_MSR:
		return "msr";
	case RS_TRACE_SPC:
		return "spc";
	case RS_TRACE_BLKPARSE:
		return "blkparse";
	default:
		return "disksim";
	}
}

static int bad(struct ctx *c, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct ctx *c, int col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rs_diag_at(c->d, c->name, c->line, col, "%s", msg);
}

static inline bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* Split a line into at most `max` fields plus one (to notice extras); a
 * field starting with '#' begins a comment.  *end_col is the column just
 * past the last field, where a missing field is reported. */
static int split(const char *s, size_t len, struct field *f, int max, int *end_col)
{
	int n = 0;
	size_t i = 0;
	*end_col = 1;
	while (n <= max) {
		while (i < len && is_blank(s[i]))
			i++;
		if (i == len || s[i] == '#')
			break;
		f[n].s = s + i;
		f[n].col = (int)i + 1;
		while (i < len && !is_blank(s[i]))
			i++;
		f[n].len = (size_t)(s + i - f[n].s);
		*end_col = (int)i + 1;
		n++;
	}
	return n;
}

/* Field text for messages, cut short if long. */
#define FIELD_FMT "%.*s%s"
#define FIELD_ARG(f) (int)((f)->len > 40 ? 40 : (f)->len), (f)->s, ((f)->len > 40 ? "..." : "")

static bool parse_u64(const struct field *f, uint64_t *out)
{
	uint64_t v = 0;
	if (f->len == 0)
		return false;
	for (size_t i = 0; i < f->len; i++) {
		unsigned dgt = (unsigned)(f->s[i] - '0');
		if (dgt > 9 || v > (UINT64_MAX - dgt) / 10)
			return false;
		v = v * 10 + dgt;
	}
	*out = v;
	return true;
}

/* Hexadecimal, with or without 0x, as DiskSim's %x reads the flags. */
static bool parse_hex(const struct field *f, uint64_t *out)
{
	size_t i = 0;
	uint64_t v = 0;
	if (f->len > 2 && f->s[0] == '0' && (f->s[1] == 'x' || f->s[1] == 'X'))
		i = 2;
	if (i == f->len)
		return false;
	for (; i < f->len; i++) {
		char ch = f->s[i];
		unsigned dgt;
		if (ch >= '0' && ch <= '9')
			dgt = (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			dgt = (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			dgt = (unsigned)(ch - 'A' + 10);
		else
			return false;
		if (v >> 60)
			return false;
		v = v << 4 | dgt;
	}
	*out = v;
	return true;
}

enum num_status { NUM_OK, NUM_BAD, NUM_NEGATIVE, NUM_RANGE };

static const uint64_t pow10_u64[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
				       100000000, 1000000000 };

/* A non-negative decimal in units of 10^exp ns (exp 6: milliseconds, 3:
 * microseconds, 9: seconds) as nanoseconds: exact up to `exp` fraction digits, rounded
 * half up beyond.  Exponent forms ("1.5e3") go through strtod. */
static enum num_status parse_ns(const struct field *f, int exp, int64_t *out)
{
	const char *s = f->s;
	size_t len = f->len, i = 0;
	const uint64_t limit = (uint64_t)INT64_MAX;
	if (i < len && s[i] == '+')
		i++;
	else if (i < len && s[i] == '-')
		return i + 1 < len && (s[i + 1] == '.' || (s[i + 1] >= '0' && s[i + 1] <= '9'))
			       ? NUM_NEGATIVE
			       : NUM_BAD;
	uint64_t ip = 0, frac = 0;
	int ndigits = 0, nfrac = 0;
	bool round_up = false, overflow = false;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, ndigits++) {
		if (ip > (UINT64_MAX - 9) / 10)
			overflow = true;
		else
			ip = ip * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, ndigits++) {
			if (nfrac < exp)
				frac = frac * 10 + (uint64_t)(s[i] - '0');
			else if (nfrac == exp)
				round_up = s[i] >= '5';
			if (nfrac <= exp)
				nfrac++;
		}
	}
	if (ndigits == 0)
		return NUM_BAD;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		char buf[64];
		if (len >= sizeof(buf))
			return NUM_BAD;
		memcpy(buf, s, len);
		buf[len] = '\0';
		char *end;
		errno = 0;
		double v = strtod(buf, &end);
		if (end != buf + len || !isfinite(v))
			return NUM_BAD;
		v *= (double)pow10_u64[exp];
		if (v >= 9.2e18)
			return NUM_RANGE;
		*out = (int64_t)llround(v);
		return NUM_OK;
	}
	if (i != len)
		return NUM_BAD;
	if (nfrac > exp)
		nfrac = exp;
	uint64_t scale = pow10_u64[exp];
	if (overflow || ip > limit / scale)
		return NUM_RANGE;
	uint64_t ns = ip * scale + frac * pow10_u64[exp - nfrac] + (round_up ? 1 : 0);
	if (ns > limit)
		return NUM_RANGE;
	*out = (int64_t)ns;
	return NUM_OK;
}

static int ns_error(struct ctx *c, const struct field *f, enum num_status st, const char *what,
		    const char *unit)
{
	switch (st) {
	case NUM_NEGATIVE:
		return bad(c, f->col, "%s '" FIELD_FMT "' must not be negative", what, FIELD_ARG(f));
	case NUM_RANGE:
		return bad(c, f->col, "%s '" FIELD_FMT "' is too large", what, FIELD_ARG(f));
	default:
		return bad(c, f->col, "bad %s '" FIELD_FMT "': expected a number of %s", what,
			   FIELD_ARG(f), unit);
	}
}

/* With fit: error a request ending beyond the device stops the trace at
 * its line; wrap and scale remap it after the whole file is read, so
 * only a request larger than the device itself is refused here. */
static int check_fits(struct ctx *c, int col, const struct rs_trace_req *r)
{
	uint64_t cap = c->o->capacity_blk;
	if (!cap)
		return 0;
	if (c->o->fit != RS_TRACE_FIT_ERROR) {
		if (r->nblk > cap)
			return bad(c, col, "request of %lu blocks is larger than the device "
					   "(%llu blocks)", (unsigned long)r->nblk,
				   (unsigned long long)cap);
		return 0;
	}
	if (r->lba >= cap || r->nblk > cap - r->lba)
		return bad(c, col, "request at block %llu of %lu blocks ends beyond the "
				   "device (%llu blocks); fit: wrap or fit: scale remaps such "
				   "addresses", (unsigned long long)r->lba, (unsigned long)r->nblk,
			   (unsigned long long)cap);
	return 0;
}

/* Block and size: common to both formats, with the capacity check. */
static int parse_extent(struct ctx *c, const struct field *fb, const struct field *fs,
			struct rs_trace_req *r)
{
	uint64_t size;
	if (!parse_u64(fb, &r->lba))
		return bad(c, fb->col, "bad block number '" FIELD_FMT "': expected a "
				       "non-negative integer", FIELD_ARG(fb));
	if (!parse_u64(fs, &size))
		return bad(c, fs->col, "bad size '" FIELD_FMT "': expected a number of "
				       "512-byte blocks", FIELD_ARG(fs));
	if (size == 0)
		return bad(c, fs->col, "size must be at least 1 block");
	if (size > UINT32_MAX)
		return bad(c, fs->col, "size " FIELD_FMT " is too large (at most %u blocks)",
			   FIELD_ARG(fs), UINT32_MAX);
	r->nblk = (uint32_t)size;
	return check_fits(c, fb->col, r);
}

static const char disksim_fields[] = "arrival_ms device block size flags";
static const char *const disksim_names[] = { "arrival_ms", "device", "block", "size",
					     "flags" };
static const char validate_fields[] = "R|W hit|miss block size service_us gap_us";
static const char *const validate_names[] = { "R|W", "hit|miss", "block", "size",
					      "service_us", "gap_us" };

/* 1: keep the request, 0: filtered out, -1: error. */
static int parse_disksim(struct ctx *c, const struct field *f, struct rs_trace_req *r,
			 int64_t *last_arrival)
{
	enum num_status st = parse_ns(&f[0], 6, &r->t_ns);
	if (st != NUM_OK)
		return ns_error(c, &f[0], st, "arrival time", "milliseconds");
	uint64_t dev, flags;
	if (!parse_u64(&f[1], &dev))
		return bad(c, f[1].col, "bad device number '" FIELD_FMT "': expected a "
					"non-negative integer", FIELD_ARG(&f[1]));
	if (!parse_hex(&f[4], &flags))
		return bad(c, f[4].col, "bad flags '" FIELD_FMT "': expected hexadecimal flags "
					"(bit 0 set = read)", FIELD_ARG(&f[4]));
	if (c->o->device >= 0 && dev != (uint64_t)c->o->device)
		return 0;
	/* Open-loop replay issues in file order, so the order must be the
	 * arrival order (DiskSim requires it too). */
	if (r->t_ns < *last_arrival)
		return bad(c, f[0].col, "arrival time " FIELD_FMT " ms is earlier than the "
					"previous request's (%.6f ms); a trace must be in "
					"arrival order", FIELD_ARG(&f[0]),
			   (double)*last_arrival / 1e6);
	if (parse_extent(c, &f[2], &f[3], r) != 0)
		return -1;
	*last_arrival = r->t_ns;
	r->op = (flags & 1) ? RS_READ : RS_WRITE;
	r->measured_ns = 0;
	r->hit = 0;
	return 1;
}

static bool token_is(const struct field *f, const char *word)
{
	size_t n = strlen(word);
	if (f->len != n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = f->s[i];
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if (ch != word[i])
			return false;
	}
	return true;
}

static int parse_validate(struct ctx *c, const struct field *f, struct rs_trace_req *r)
{
	if (token_is(&f[0], "r"))
		r->op = RS_READ;
	else if (token_is(&f[0], "w"))
		r->op = RS_WRITE;
	else
		return bad(c, f[0].col, "expected R or W, got '" FIELD_FMT "'", FIELD_ARG(&f[0]));
	/* The drive's cache outcome is kept for analysis only; DiskSim itself
	 * reads the word without interpreting it. */
	r->hit = token_is(&f[1], "hit") || token_is(&f[1], "h");
	if (parse_extent(c, &f[2], &f[3], r) != 0)
		return -1;
	enum num_status st = parse_ns(&f[4], 3, &r->measured_ns);
	if (st != NUM_OK)
		return ns_error(c, &f[4], st, "service time", "microseconds");
	st = parse_ns(&f[5], 3, &r->t_ns);
	if (st != NUM_OK)
		return ns_error(c, &f[5], st, "gap", "microseconds");
	return 1;
}

/* ---- msr, spc, blkparse ---- */

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

struct clock {
	bool have_t0;
	int64_t t0, last;
};

static int parse_msr(struct ctx *c, const struct field *f, struct rs_trace_req *r,
		     struct clock *k)
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
		     struct clock *k)
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
		   c->o->format == RS_TRACE_BLKPARSE ? blkparse_fields
		   : c->o->format == RS_TRACE_MSR    ? msr_fields
						     : spc_fields);
}

static int parse_blkparse(struct ctx *c, const struct field *f, int nf, int end_col,
			  struct rs_trace_req *r, struct clock *k)
{
	if (!is_dev_field(&f[0]))
		return 0;
	if (nf < 7)
		return missing(c, end_col, blkparse_names[nf]);
	char want = c->o->action ? c->o->action : 'D';
	if (f[5].len != 1 || f[5].s[0] != want)
		return 0;
	bool rd = false, wr = false, skip = false;
	for (size_t i = 0; i < f[6].len; i++) {
		switch (f[6].s[i]) {
		case 'R':
			rd = true;
			break;
		case 'W':
			wr = true;
			break;
		case 'D':             /* discard: raidsim has no trim */
		case 'N':             /* no data */
		case 'F':             /* flush or FUA: only the data part is replayed */
			skip = skip || f[6].s[i] != 'F';
			break;
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
	/* A flush with no data (RWBS "F", "FN", or "FWS 0 + 0") carries no
	 * blocks to replay. */
	if (skip || (!rd && !wr))
		return 0;
	int64_t t;
	enum num_status st = parse_ns(&f[3], 9, &t);
	if (st != NUM_OK)
		return ns_error(c, &f[3], st, "time", "seconds");
	if (nf < 10)
		return missing(c, end_col, blkparse_names[nf]);
	if (f[8].len != 1 || f[8].s[0] != '+')
		return bad(c, f[8].col, "expected '+' between sector and count, got '" FIELD_FMT
			   "'", FIELD_ARG(&f[8]));
	uint64_t count;
	if (count_field(c, &f[7], "sector", "a number of 512-byte sectors", &r->lba) != 0 ||
	    count_field(c, &f[9], "sector count", "a number of 512-byte sectors", &count) != 0)
		return -1;
	if (count == 0 && memchr(f[6].s, 'F', f[6].len))
		return 0;
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
static int parse_other(struct ctx *c, const char *s, size_t len, struct rs_trace_req *r,
		       struct clock *k)
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
static void remap(const struct rs_trace_opts *o, struct rs_trace_req *req, size_t n)
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

static int line_too_long(struct ctx *c)
{
	return bad(c, RS_TRACE_LINE_MAX + 1, "line longer than %d bytes: not a trace of "
					     "lines (a %s line is: %s)", RS_TRACE_LINE_MAX,
		   rs_trace_format_name(c->o->format),
		   c->o->format == RS_TRACE_VALIDATE   ? validate_fields
		   : c->o->format == RS_TRACE_MSR      ? msr_fields
		   : c->o->format == RS_TRACE_SPC      ? spc_fields
		   : c->o->format == RS_TRACE_BLKPARSE ? blkparse_fields
						       : disksim_fields);
}

int rs_trace_parse_mem(const char *name, const char *text, size_t len,
		       const struct rs_trace_opts *o, struct rs_trace *t, struct rs_diag *d)
{
	memset(t, 0, sizeof(*t));
	bool validate = o->format == RS_TRACE_VALIDATE;
	bool other = !validate && o->format != RS_TRACE_DISKSIM;
	struct clock clock = { false, 0, 0 };
	/* The shortest request line of each format, in fields. */
	int nwant = validate ? 6 : o->format == RS_TRACE_MSR ? 7 : 5;
	const char *layout = validate ? validate_fields : disksim_fields;
	const char *const *names = validate ? validate_names : disksim_names;

	/* One request per line at most, and a request line holds nwant
	 * fields of a byte or more with a blank or line end after each: size
	 * the array once from the smaller bound and trim it at the end,
	 * instead of growing it. */
	size_t nlines = 1;
	for (const char *p = text, *e = text + len; (p = memchr(p, '\n', (size_t)(e - p)));
	     p++)
		nlines++;
	size_t most = len / (2 * (size_t)nwant) + 1;
	if (most < nlines)
		nlines = most;
	struct ctx c = { name, o, d, 0 };
	struct rs_trace_req *req = malloc(nlines * sizeof(*req));
	if (!req)
		return rs_diag_at(d, name, 0, 0, "not enough memory for the %zu requests this "
						 "trace may hold", nlines);

	size_t n = 0;
	int64_t last_arrival = 0;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		c.line++;
		if (eol - p > RS_TRACE_LINE_MAX) {
			line_too_long(&c);
			goto fail;
		}
		if (other) {
			int rc = parse_other(&c, p, (size_t)(eol - p), &req[n], &clock);
			p = nl ? nl + 1 : end;
			if (rc < 0)
				goto fail;
			n += (size_t)rc;
			continue;
		}
		struct field f[MAX_FIELDS + 1];
		int end_col;
		int nf = split(p, (size_t)(eol - p), f, nwant, &end_col);
		p = nl ? nl + 1 : end;
		if (nf == 0)
			continue;
		if (nf < nwant) {
			bad(&c, end_col, "missing field '%s' (a %s line is: %s)", names[nf],
			    rs_trace_format_name(o->format), layout);
			goto fail;
		}
		if (nf > nwant) {
			bad(&c, f[nwant].col, "unexpected extra field '" FIELD_FMT "' (a %s line "
					      "is: %s)", FIELD_ARG(&f[nwant]),
			    rs_trace_format_name(o->format), layout);
			goto fail;
		}
		int rc = validate ? parse_validate(&c, f, &req[n])
				  : parse_disksim(&c, f, &req[n], &last_arrival);
		if (rc < 0)
			goto fail;
		n += (size_t)rc;
	}
	remap(o, req, n);
	t->n = n;
	t->lines = (uint64_t)c.line;
	if (n) {
		/* Trimming cannot fail in practice; if it does, keep it whole. */
		struct rs_trace_req *trimmed = realloc(req, n * sizeof(*req));
		t->req = trimmed ? trimmed : req;
	} else {
		free(req);
	}
	return 0;
fail:
	free(req);
	return -1;
}

static int file_error(struct rs_diag *d, const struct rs_node *where, const char *path,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "trace file 'PATH' WHAT", at the YAML node naming it when there is one. */
static int file_error(struct rs_diag *d, const struct rs_node *where, const char *path,
		      const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (where)
		return rs_diag_node(d, where, "trace file '%s' %s", path, what);
	return rs_diag_at(d, path, 0, 0, "trace file %s", what);
}

/* size: the file's size when known before reading, else NULL. */
static int too_big(struct rs_diag *d, const struct rs_node *where, const char *path,
		   const char *size)
{
	char cap[32];
	rs_format_size(rs_limits()->trace_bytes, cap, sizeof(cap));
	return file_error(d, where, path, "%s%s%s more than the cap trace_bytes=%s (raise it "
					  "with --limit trace_bytes=SIZE)", size ? "is " : "holds",
			  size ? size : "", size ? "," : "", cap);
}

/* What reading has seen so far: lines, and where the current one began,
 * so an endless line (a device, a binary file) stops the read early. */
struct line_watch {
	uint64_t line;                /* lines begun, from 1 */
	size_t line_start;            /* offset of the current line */
};

static bool watch_lines(struct line_watch *w, const char *buf, size_t from, size_t to)
{
	const char *p = buf + from, *end = buf + to;
	while ((p = memchr(p, '\n', (size_t)(end - p)))) {
		p++;
		w->line++;
		w->line_start = (size_t)(p - buf);
	}
	return to - w->line_start <= RS_TRACE_LINE_MAX;
}

int rs_trace_parse_file(const char *path, const struct rs_trace_opts *o, struct rs_trace *t,
			const struct rs_node *where, struct rs_diag *d)
{
	memset(t, 0, sizeof(*t));
	int fd = open(path, O_RDONLY);
	struct stat st;
	const char *why = NULL;
	if (fd < 0)
		why = strerror(errno);
	else if (fstat(fd, &st) != 0)
		why = strerror(errno);
	else if (S_ISDIR(st.st_mode))
		why = "is a directory";
	if (why) {
		if (fd >= 0)
			close(fd);
		if (where)
			return rs_diag_node(d, where, "cannot read trace file '%s': %s", path, why);
		return rs_diag_at(d, path, 0, 0, "cannot read trace file: %s", why);
	}
	uint64_t limit = rs_limits()->trace_bytes;
	bool regular = S_ISREG(st.st_mode);
	if (regular && (uint64_t)st.st_size > limit) {
		close(fd);
		char size[32];
		rs_format_size((uint64_t)st.st_size, size, sizeof(size));
		return too_big(d, where, path, size);
	}
	/* Read it whole: parsing from memory is what makes loading fast, and a
	 * trace of a few million lines is only tens of megabytes.  A pipe or a
	 * device has no size to check first: count while reading, and never
	 * hold more than the cap plus one byte (to tell "at the cap" from
	 * "beyond"). */
	size_t cap = regular && st.st_size > 0 ? (size_t)st.st_size + 1 : 1 << 16;
	size_t len = 0;
	char *buf = malloc(cap);
	struct line_watch w = { 1, 0 };
	int rc = -1;
	if (!buf) {
		file_error(d, where, path, "cannot be read: not enough memory");
		goto out;
	}
	for (;;) {
		if (len == cap) {
			size_t more = cap * 2;
			if ((uint64_t)more > limit + 1)
				more = (size_t)(limit + 1);
			char *nb = more > cap ? realloc(buf, more) : NULL;
			if (!nb) {
				file_error(d, where, path, "cannot be read: not enough memory "
							   "(%zu bytes so far)", len);
				goto out;
			}
			buf = nb;
			cap = more;
		}
		ssize_t got = read(fd, buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int err = errno;
			if (where)
				rs_diag_node(d, where, "cannot read trace file '%s': %s", path,
					     strerror(err));
			else
				rs_diag_at(d, path, 0, 0, "cannot read trace file: %s", strerror(err));
			goto out;
		}
		if (got == 0)
			break;
		bool lines_ok = watch_lines(&w, buf, len, len + (size_t)got);
		len += (size_t)got;
		if (!lines_ok) {
			struct ctx c = { path, o, d, (int)(w.line > INT32_MAX ? INT32_MAX : w.line) };
			line_too_long(&c);
			goto out;
		}
		if ((uint64_t)len > limit) {
			too_big(d, where, path, NULL);
			goto out;
		}
	}
	rc = rs_trace_parse_mem(path, buf, len, o, t, d);
out:
	free(buf);
	close(fd);
	return rc;
}

void rs_trace_free(struct rs_trace *t)
{
	free(t->req);
	memset(t, 0, sizeof(*t));
}
