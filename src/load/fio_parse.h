/* fio job files: the ini syntax fio reads, as sections of key[=value]
 * options, each with its position for diagnostics.
 *
 * What fio would expand and raidsim cannot know (environment variables in
 * `${VAR}`, `include` of another file) is refused with the position of
 * the word, rather than read as a literal that means something else. */
#ifndef RS_LOAD_FIO_PARSE_H
#define RS_LOAD_FIO_PARSE_H

#include <stddef.h>

#include "config/diag.h"

struct rs_fio_opt {
	const char *key;              /* lower case as written; fio's keys are */
	const char *val;              /* NULL for a bare option (`time_based`) */
	int line, col, val_col;
};

struct rs_fio_section {
	const char *name;             /* "global" or the job's name */
	int line, col;
	struct rs_fio_opt *opts;
	size_t nopts;
};

struct rs_fio_file {
	const char *path;             /* as given: positions are reported in it */
	struct rs_fio_section *secs;
	size_t nsecs;
	char *store;                  /* the text, cut into the strings above */
};

/* Parse `len` bytes of `text` read from `path`.  0, or -1 with d set. */
int rs_fio_parse(const char *path, const char *text, size_t len, struct rs_fio_file *out,
		 struct rs_diag *d);
/* Read and parse a job file (at most the trace_bytes cap in size). */
int rs_fio_read(const char *path, struct rs_fio_file *out, struct rs_diag *d);
void rs_fio_free(struct rs_fio_file *f);

#endif
