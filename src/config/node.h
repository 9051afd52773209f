/* A YAML document as a tree that remembers where each node came from.
 *
 * libyaml's own document API drops nothing we need, but it also accepts
 * duplicate keys and gives no easy way to graft nodes from other files
 * (models) or from the command line (--set, sweep values).  This tree does
 * both, and every node keeps its file, line and column so a diagnostic can
 * point at the exact spot, even after merging. */
#ifndef RS_CONFIG_NODE_H
#define RS_CONFIG_NODE_H

#include <stdbool.h>
#include <stddef.h>

#include "config/diag.h"

enum rs_node_kind { RS_NODE_SCALAR, RS_NODE_MAP, RS_NODE_SEQ };

/* Trees are walked recursively (clone, merge, free), so their depth is
 * bounded where they are made: by the loader for files, by paths for
 * --set and sweep axes.  Far deeper than any scenario needs. */
#define RS_NODE_MAX_DEPTH 100

struct rs_node {
	enum rs_node_kind kind;
	const char *file;             /* interned; lives as long as the process */
	int line, col;                /* from 1 */
	char *str;                    /* scalar text (NUL-terminated) */
	bool quoted;                  /* scalar was quoted in the source */
	size_t len;                   /* children (map: pairs) */
	size_t cap;
	struct rs_node **keys;        /* map only: scalar key nodes, in file order */
	struct rs_node **items;       /* map values or sequence items */
};

/* Parse a file.  Rejects: a path that is a directory or unreadable, empty
 * documents, invalid UTF-8, YAML syntax errors, more than one document,
 * duplicate keys, non-scalar keys, anchors/aliases and tags.  Returns NULL
 * and fills d on error. */
struct rs_node *rs_yaml_load_file(const char *path, struct rs_diag *d);
/* Parse text held in memory; `name` is used in diagnostics. */
struct rs_node *rs_yaml_load_string(const char *name, const char *text, size_t len,
				    struct rs_diag *d);

struct rs_node *rs_node_new_scalar(const char *file, int line, int col, const char *str);
struct rs_node *rs_node_new_map(const char *file, int line, int col);
struct rs_node *rs_node_clone(const struct rs_node *n);
void rs_node_free(struct rs_node *n);

/* Map lookup; NULL if absent or n is not a map. */
struct rs_node *rs_node_get(const struct rs_node *map, const char *key);
/* Index of key in map, or -1. */
long rs_node_find(const struct rs_node *map, const char *key);
/* Set map[key] = value (takes ownership; replaces and frees an old value). */
void rs_node_put(struct rs_node *map, struct rs_node *key, struct rs_node *value);
void rs_node_remove(struct rs_node *map, const char *key);

/* Dotted paths: "array.disks.count".  A numeric component indexes a
 * sequence ("workload.lines.0.size").  lookup returns NULL if absent. */
struct rs_node *rs_node_lookup(const struct rs_node *root, const char *path);
/* Replace or create the node at path (intermediate maps are created).
 * Takes ownership of value.  Fails (diag at `where`) if a component is
 * not a map, e.g. setting "seed.x". */
int rs_node_set_path(struct rs_node *root, const char *path, struct rs_node *value,
		     const struct rs_node *where, struct rs_diag *d);

/* Deep-merge `over` onto a clone of `base`: maps merge key by key
 * recursively, everything else is replaced.  Neither input is changed. */
struct rs_node *rs_node_merge(const struct rs_node *base, const struct rs_node *over);

/* Parse "key=value" from the command line into a scalar node whose file
 * is "--set" and column points into the argument. */
int rs_node_parse_assignment(const char *arg, char **path_out, struct rs_node **value_out,
			     struct rs_diag *d);

/* Additions beyond the original contract. */
struct rs_node *rs_node_new_seq(const char *file, int line, int col);
/* Append to a sequence (takes ownership). */
void rs_node_append(struct rs_node *seq, struct rs_node *item);
/* Append a pair without looking for an existing key (the loader has
 * already refused duplicates). */
void rs_node_map_append(struct rs_node *map, struct rs_node *key, struct rs_node *value);
/* A dotted path with no empty component ("a.b", not "a..b", ".a", "") and
 * at most RS_NODE_MAX_DEPTH components. */
bool rs_path_valid(const char *path);
/* Components of a dotted path ("a.b.c": 3). */
size_t rs_path_components(const char *path);
/* "a scalar", "a mapping", "a sequence" for messages. */
const char *rs_node_kind_name(const struct rs_node *n);
/* 0 if n is a map, else -1 and "expected a mapping for WHAT, got a scalar"
 * at n. */
int rs_node_expect_map(const struct rs_node *n, const char *what, struct rs_diag *d);
/* The node to blame for a key's value: the key's own value node, else the
 * map itself (a default was used). */
const struct rs_node *rs_node_get_or(const struct rs_node *map, const char *key);

/* Keep a copy of a file name for the life of the process. */
const char *rs_intern(const char *s);

#endif
