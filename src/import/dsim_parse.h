/* A reader of DiskSim 4.0's parameter syntax, for `raidsim import disksim`.
 *
 * The files come from other people, so the reader is small and strict:
 *   statement := TYPE NAME '{' params '}'            (a named block)
 *              | 'source' FILE                          (read FILE here)
 *              | 'instantiate' list 'as' NAME
 *              | 'topology' TYPE NAME list
 *   params    := [param {',' param}] [',']
 *   param     := WORDS '=' value                     (a key may hold spaces)
 *   value     := NUMBER | WORD | 'source' FILE         (FILE's one block)
 *              | TYPE '{' params '}' | list | TYPE NAME list (topology)
 *   list      := '[' [value {','} ...] ']'
 * '#' starts a comment to the end of the line.  Every node keeps its file,
 * line and column for diagnostics and for the importer's comments.
 *
 * Files named by `source` (and any the importer opens later through
 * rs_dsim_open) are read relative to the set-up file's folder and must stay
 * inside it: absolute paths, `..` that climbs out and symbolic links that
 * lead out are refused.  Each file is capped at RS_DSIM_MAX_FILE bytes;
 * `source` nests at most rs_limits()->model_depth deep and brackets at most
 * RS_DSIM_MAX_NEST deep. */
#ifndef RS_IMPORT_DSIM_PARSE_H
#define RS_IMPORT_DSIM_PARSE_H

#include <stddef.h>

#include "config/diag.h"

#define RS_DSIM_MAX_FILE ((size_t)4 << 20)   /* the largest shipped file is 28 KB */
#define RS_DSIM_MAX_NEST 64                    /* the shipped files nest 4 deep */

enum rs_dsim_kind { RS_DSIM_NUM, RS_DSIM_WORD, RS_DSIM_LIST, RS_DSIM_BLOCK };

struct rs_dsim_file {
	char *name;                   /* relative to the set-up's folder */
	char *shown;                  /* as diagnostics show it (the folder prefixed) */
	char *text;
	size_t len;
};

struct rs_dsim_val;

struct rs_dsim_param {
	char *key;                    /* words joined by one space */
	const struct rs_dsim_file *file;
	int line, col;
	struct rs_dsim_val *val;
};

struct rs_dsim_val {
	enum rs_dsim_kind kind;
	const struct rs_dsim_file *file;
	int line, col;
	char *text;                   /* NUM and WORD: as written */
	double num;                   /* NUM */
	char *type, *name;            /* BLOCK, and a typed LIST (topology); may be NULL */
	struct rs_dsim_param *params; /* BLOCK */
	size_t nparams;
	struct rs_dsim_val **items;   /* LIST */
	size_t nitems;
	/* instantiate: items are the instance names, name the spec */
};

/* Everything read: the top-level statements of the set-up and of the files
 * it sources, in order, and the files themselves. */
struct rs_dsim {
	char *dir;                    /* the set-up file's folder */
	char *dir_real;               /* its resolved path, for confinement */
	struct rs_dsim_file **files;
	size_t nfiles;
	struct rs_dsim_val **tops;    /* BLOCK (type "instantiate"/"topology" for those) */
	size_t ntops;
};

/* Read `path` and everything it sources.  0, or -1 with d set; the result
 * is freed with rs_dsim_free either way. */
int rs_dsim_read(struct rs_dsim *ds, const char *path, struct rs_diag *d);
void rs_dsim_free(struct rs_dsim *ds);

/* Open another file of the set-up (a seek curve), under the same rules,
 * with the request's position for diagnostics.  The file belongs to ds. */
const struct rs_dsim_file *rs_dsim_open(struct rs_dsim *ds, const char *name,
					const struct rs_dsim_file *from, int line, int col,
					struct rs_diag *d);

/* The top-level block of that type and name, or NULL. */
const struct rs_dsim_val *rs_dsim_find(const struct rs_dsim *ds, const char *type,
				       const char *name);
/* A block's parameter by key (case as written), or NULL. */
const struct rs_dsim_param *rs_dsim_param(const struct rs_dsim_val *block, const char *key);

#endif
