/* The shipped files the stress test draws from: the scenarios (sorted by
 * path), the models by name, and every value seen for each key. */
#ifndef STRESS_CORPUS_H
#define STRESS_CORPUS_H

#include "mutate.h"
#include "util.h"
#include "yaml_tree.h"

struct model { char *name; struct yt_node *tree; };

struct corpus {
	struct strs scenario_paths;
	struct yt_node **scenarios;
	struct model *models;
	size_t nmodels;
	struct seen seen;
};

/* The *.yaml files under SRCDIR/scenarios and SRCDIR/models; -1 (said on
 * stderr) if no scenario could be read. */
int load_corpus(struct corpus *c, const char *srcdir);
void free_corpus(struct corpus *c);
const struct yt_node *model_named(const struct corpus *c, const char *name);

/* Every scalar of a map (not of a sequence) under N as PREFIX.KEY. */
typedef void (*leaf_fn)(const char *path, const struct yt_node *leaf, void *ctx);
void leaves(const struct yt_node *n, const char *prefix, leaf_fn fn, void *ctx);

#endif
