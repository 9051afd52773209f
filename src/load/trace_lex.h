/* The pieces the trace parsers share: a line split into fields, numbers
 * converted by hand, and messages at a field's line and column.  Private
 * to src/load/trace_*.c; everything is static inline so each parser file
 * takes only what it uses. */
#ifndef RS_LOAD_TRACE_LEX_H
#define RS_LOAD_TRACE_LEX_H

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/trace_parse.h"

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

static inline int bad(struct ctx *c, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline int bad(struct ctx *c, int col, const char *fmt, ...)
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
static inline int split(const char *s, size_t len, struct field *f, int max, int *end_col)
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

static inline bool parse_u64(const struct field *f, uint64_t *out)
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

enum num_status { NUM_OK, NUM_BAD, NUM_NEGATIVE, NUM_RANGE };

static const uint64_t pow10_u64[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
				       100000000, 1000000000 };

/* A non-negative decimal in units of 10^exp ns (exp 6: milliseconds, 3:
 * microseconds, 9: seconds) as nanoseconds: exact up to `exp` fraction digits, rounded
 * half up beyond.  Exponent forms ("1.5e3") go through strtod. */
static inline enum num_status parse_ns(const struct field *f, int exp, int64_t *out)
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

static inline int ns_error(struct ctx *c, const struct field *f, enum num_status st, const char *what,
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
static inline int check_fits(struct ctx *c, int col, const struct rs_trace_req *r)
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

static inline bool token_is(const struct field *f, const char *word)
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

/* The newer formats (msr, spc, blkparse), in load/trace_formats.c. */

/* Arrival times counted from the first request kept. */
struct trace_clock {
	bool have_t0;
	int64_t t0, last;
};

/* One line: 1 a request in *r, 0 nothing kept, -1 an error reported. */
int rs_trace_parse_other(struct ctx *c, const char *s, size_t len, struct rs_trace_req *r,
			 struct trace_clock *k);
/* fit: wrap and fit: scale, once every request is known. */
void rs_trace_remap(const struct rs_trace_opts *o, struct rs_trace_req *req, size_t n);
/* "a line is: ..." for the format's messages. */
const char *rs_trace_other_layout(enum rs_trace_format f);

#endif
