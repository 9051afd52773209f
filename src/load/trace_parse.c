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
#include "load/trace_lex.h"

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

/* Block and size: common to the two DiskSim formats, with the capacity check. */
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

static int line_too_long(struct ctx *c)
{
	return bad(c, RS_TRACE_LINE_MAX + 1, "line longer than %d bytes: not a trace of "
					     "lines (a %s line is: %s)", RS_TRACE_LINE_MAX,
		   rs_trace_format_name(c->o->format),
		   c->o->format == RS_TRACE_VALIDATE   ? validate_fields
		   : c->o->format == RS_TRACE_DISKSIM  ? disksim_fields
						       : rs_trace_other_layout(c->o->format));
}

int rs_trace_parse_mem(const char *name, const char *text, size_t len,
		       const struct rs_trace_opts *o, struct rs_trace *t, struct rs_diag *d)
{
	memset(t, 0, sizeof(*t));
	bool validate = o->format == RS_TRACE_VALIDATE;
	bool other = !validate && o->format != RS_TRACE_DISKSIM;
	struct trace_clock clock = { false, 0, 0 };
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
			int rc = rs_trace_parse_other(&c, p, (size_t)(eol - p), &req[n], &clock);
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
	rs_trace_remap(o, req, n);
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
