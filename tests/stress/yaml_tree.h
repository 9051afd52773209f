/* A YAML file as a plain tree, for the stress test: the scalars keep their
 * text and whether they were quoted, so a value can be told apart as a
 * number, a boolean or a word the way a user wrote it. */
#ifndef STRESS_YAML_TREE_H
#define STRESS_YAML_TREE_H

#include <stdbool.h>
#include <stddef.h>

enum yt_kind { YT_SCALAR, YT_SEQ, YT_MAP };

struct yt_node {
	enum yt_kind kind;
	char *text;              /* YT_SCALAR */
	bool quoted;             /* YT_SCALAR written '...' or "..." */
	size_t len;              /* YT_SEQ, YT_MAP: items */
	char **keys;             /* YT_MAP: the key of each item */
	struct yt_node **items;
};

/* The first document of PATH, or NULL (with a line on stderr) if it cannot
 * be read or parsed: a shipped file that stops loading is worth a word,
 * not a crash of the test. */
struct yt_node *yt_load(const char *path);
void yt_free(struct yt_node *n);

/* The item of map N under KEY, or NULL. */
const struct yt_node *yt_get(const struct yt_node *n, const char *key);

#endif
