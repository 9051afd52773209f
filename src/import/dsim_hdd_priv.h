/* What the files of `raidsim import disksim` (dsim_hdd*.c) share: the
 * rules a block's parameters are checked against, the context of one
 * import, and the helpers (dsim_hdd_params.c) every part checks, reads and
 * writes values with.  Private to src/import. */
#ifndef RS_IMPORT_DSIM_HDD_PRIV_H
#define RS_IMPORT_DSIM_HDD_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/diag.h"
#include "import/dsim_parse.h"

/* ---- what each DiskSim parameter becomes ------------------------------- */

enum act {
	TAKE,          /* translated by the code that reads the block */
	OPTIONAL,      /* translated when the seek type or scheme uses it */
	EQ,            /* only raidsim's value is accepted */
	IGNORE,        /* cannot change the drive's timing */
};

struct rule {
	const char *key;
	enum act act;
	double value;                 /* EQ */
	const char *why;              /* EQ: raidsim's rule; IGNORE: why it does not matter */
};

#define END { NULL, IGNORE, 0, NULL }

/* ---- the context ------------------------------------------------------- */

struct ctx {
	struct rs_dsim *ds;
	struct rs_diag *d;
	FILE *out;                    /* the model being written (in memory) */
	FILE *ign;                    /* comments on what was ignored */
	const char *parv_name;
	bool conn;                    /* the drive disconnects and reselects at a cost */
};

/* ---- reading and writing values (dsim_hdd_params.c) -------------------- */

/* An error at the value v: "file:line:col: error: ...".  Returns -1. */
int dsim_err_val(struct ctx *c, const struct rs_dsim_val *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "file:line" of a parameter, for the comments beside the model's keys. */
void dsim_where(const struct rs_dsim_param *p, char *buf, size_t n);
/* Check every parameter of a block against its rules (a table ended by
 * END): 0, or -1 with the error set. */
int dsim_check_block(struct ctx *c, const struct rs_dsim_val *b, const struct rule *rules);
/* A parameter the block's rules say it has (TAKE), checked already. */
const struct rs_dsim_param *dsim_take(const struct rs_dsim_val *b, const char *key);

/* A parameter's value: any number; a whole number in [lo, hi]; a time in
 * milliseconds from 0 to 1000 s.  0, or -1 with the error set. */
int dsim_num(struct ctx *c, const struct rs_dsim_param *p, double *out);
int dsim_whole(struct ctx *c, const struct rs_dsim_param *p, double lo, double hi,
	       uint64_t *out);
int dsim_msec(struct ctx *c, const struct rs_dsim_param *p, double *out);

/* Write one model line, "key: value", with its source and DiskSim's name. */
void dsim_line(struct ctx *c, const char *key, const char *value,
	       const struct rs_dsim_param *src, const char *note);
/* A time in ms as the model writes it. */
void dsim_fmt_ms(char *buf, size_t n, double ms);

/* ---- the parts with files of their own --------------------------------- */

/* dsim_hdd_geometry.c: the dm_layout_g1 block at lp (zones, spares, slips)
 * of a drive with these heads and cylinders, as the model's layout keys. */
int dsim_do_layout(struct ctx *c, const struct rs_dsim_param *lp, uint64_t heads,
		   uint64_t cyls);

/* dsim_hdd_mech.c: the dm_disk block at mp -- capacity, heads, cylinders,
 * its mechanics (spindle, head switch, seeks) and, through
 * dsim_do_layout, its layout. */
int dsim_do_model(struct ctx *c, const struct rs_dsim_param *mp);

#endif
