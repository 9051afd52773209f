/* A tree written back as YAML, for `raidsim models show`: block style for
 * mappings, flow style inside sequences, and scalars quoted only where a
 * plain one would read differently.  What it writes loads back into the
 * same tree. */
#ifndef RS_CONFIG_EMIT_H
#define RS_CONFIG_EMIT_H

#include <stdio.h>

#include "config/node.h"

/* Scalars whose file is `mark_file` (may be NULL) get a trailing
 * "# <mark_note>" comment: the defaults a caller filled in. */
void rs_node_emit(const struct rs_node *root, FILE *out, const char *mark_file,
		  const char *mark_note);

#endif
