/* Reading block-level I/O traces into memory.
 *
 * A trace is parsed once, whole, before the run: every malformed line is
 * reported up front as FILE:LINE:COL (the column of the bad field), and
 * replay then walks a flat array with no allocation and no text on the
 * hot path.  Two DiskSim 4.0 formats are understood:
 *
 *   disksim   (DiskSim "ascii"): arrival_ms device block size flags
 *             arrival in milliseconds from the start of the trace (a
 *             decimal, non-decreasing), size in 512-byte blocks, flags in
 *             hexadecimal as DiskSim reads them (%x): bit 0 set = read.
 *   validate  (DiskSim "validate", the valid/ drive traces):
 *             R|W hit-or-miss block size service_us gap_us
 *             the service time measured on the real drive and the idle
 *             time between that request's completion and the next issue,
 *             both in microseconds.
 *
 * and three formats users already hold, all open loop, with times made
 * relative to the first request kept:
 *
 *   msr       (MSR Cambridge CSV): Timestamp,Hostname,DiskNumber,Type,
 *             Offset,Size,ResponseTime; times and response times in
 *             Windows filetime units (100 ns), Type Read or Write, Offset
 *             and Size in bytes (a request covers every 512-byte block it
 *             touches).  `device` selects one DiskNumber.
 *   spc       (SPC / UMass): ASU,LBA,Size,Opcode,Timestamp[,...]; LBA in
 *             512-byte blocks, Size in bytes, Opcode r/R/w/W, Timestamp
 *             in seconds.  `device` selects one ASU.
 *   blkparse  (blkparse's default text output): dev cpu seq seconds pid
 *             action RWBS sector + count [process]; only lines of the
 *             action `action` (D by default) that read or write are kept:
 *             flushes without data, discards, messages, plugs and the
 *             statistics blocks are skipped.
 *
 * Fields are separated by blanks (commas for msr and spc); blank lines
 * and '#' comments (to the end of the line) are skipped; CRLF line ends
 * are accepted. */
#ifndef RS_LOAD_TRACE_PARSE_H
#define RS_LOAD_TRACE_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "config/diag.h"
#include "config/node.h"
#include "io/io.h"

/* The trace formats and their `format:` names. */
#define RS_TRACE_FORMAT_LIST(X)                                             \
	X(DISKSIM, "disksim") X(VALIDATE, "validate") X(MSR, "msr")          \
	X(SPC, "spc") X(BLKPARSE, "blkparse")
enum rs_trace_format {
#define X(name, str) RS_TRACE_##name,
	RS_TRACE_FORMAT_LIST(X)
#undef X
};

/* What to do with a request that ends beyond the device: refuse the
 * trace at that line, wrap the address around the capacity, or scale
 * every address by capacity / the trace's highest address.  With their
 * `fit:` names. */
#define RS_TRACE_FIT_LIST(X) X(ERROR, "error") X(WRAP, "wrap") X(SCALE, "scale")
enum rs_trace_fit {
#define X(name, str) RS_TRACE_FIT_##name,
	RS_TRACE_FIT_LIST(X)
#undef X
};

/* One request: 32 bytes, so a trace of millions of requests stays small
 * and is walked sequentially. */
struct rs_trace_req {
	uint64_t lba;                 /* 512-byte blocks */
	int64_t t_ns;                 /* disksim: arrival from the trace's time zero;
				       * validate: gap after this request completes */
	int64_t measured_ns;          /* validate: service time on the real drive */
	uint32_t nblk;
	uint8_t op;                   /* enum rs_op: RS_READ, RS_WRITE, RS_FLUSH (blkparse) */
	uint8_t hit;                  /* validate: the drive reported a cache hit */
};

_Static_assert(sizeof(struct rs_trace_req) == 32, "keep trace requests compact");

struct rs_trace_opts {
	enum rs_trace_format format;
	int64_t device;               /* disksim device, msr disk, spc ASU to keep; -1 = all */
	uint64_t capacity_blk;        /* device size for `fit`; 0 = no check */
	enum rs_trace_fit fit;
	char action;                  /* blkparse: the action kept (Q, D or C); 0 = D */
};

struct rs_trace {
	struct rs_trace_req *req;     /* malloc'd, n entries */
	size_t n;
	uint64_t lines;               /* lines in the file, for messages */
};

/* The longest line a trace may have, comment included.  A DiskSim line is
 * under a hundred bytes; the cap stops a file that is not a trace (a
 * device such as /dev/zero, a binary file) at its first line instead of
 * reading all of it. */
#define RS_TRACE_LINE_MAX 4096

/* Parse text held in memory; `name` is the file name used in diagnostics.
 * A line longer than RS_TRACE_LINE_MAX is an error at that line.
 * Returns 0, or -1 with d set at the offending line and column (and t
 * left empty). */
int rs_trace_parse_mem(const char *name, const char *text, size_t len,
		       const struct rs_trace_opts *o, struct rs_trace *t, struct rs_diag *d);
/* Read and parse a file.  A file that cannot be read, or is larger than
 * rs_limits()->trace_bytes (a regular file by its size before reading;
 * a pipe or device by counting as it reads), is reported at `where` (the
 * YAML node naming it) when given, else at the path.  A line longer than
 * RS_TRACE_LINE_MAX stops the reading at that line. */
int rs_trace_parse_file(const char *path, const struct rs_trace_opts *o, struct rs_trace *t,
			const struct rs_node *where, struct rs_diag *d);
void rs_trace_free(struct rs_trace *t);

const char *rs_trace_format_name(enum rs_trace_format f);

#endif
