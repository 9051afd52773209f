#include "corpus.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Every *.yaml under DIR, recursively, into OUT (unsorted). */
static void walk_yaml(const char *dir, struct strs *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *p = xprintf("%s/%s", dir, e->d_name);
		struct stat st;
		size_t n = strlen(e->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			walk_yaml(p, out);
			free(p);
		} else if (n > 5 && strcmp(e->d_name + n - 5, ".yaml") == 0) {
			strs_push(out, p);
		} else {
			free(p);
		}
	}
	closedir(d);
}

void leaves(const struct yt_node *n, const char *prefix, leaf_fn fn, void *ctx)
{
	if (!n || n->kind != YT_MAP)
		return;
	for (size_t i = 0; i < n->len; i++) {
		char *p = *prefix ? xprintf("%s.%s", prefix, n->keys[i]) : xprintf("%s", n->keys[i]);
		if (n->items[i]->kind == YT_SCALAR)
			fn(p, n->items[i], ctx);
		else
			leaves(n->items[i], p, fn, ctx);
		free(p);
	}
}

static void note_leaf(const char *path, const struct yt_node *leaf, void *ctx)
{
	seen_add(ctx, path, leaf->text);
}

const struct yt_node *model_named(const struct corpus *c, const char *name)
{
	for (size_t i = 0; i < c->nmodels; i++)
		if (strcmp(c->models[i].name, name) == 0)
			return c->models[i].tree;
	return NULL;
}

int load_corpus(struct corpus *c, const char *srcdir)
{
	struct strs model_paths = { 0 };
	char *dir = xprintf("%s/scenarios", srcdir);
	walk_yaml(dir, &c->scenario_paths);
	free(dir);
	dir = xprintf("%s/models", srcdir);
	walk_yaml(dir, &model_paths);
	free(dir);
	if (c->scenario_paths.len == 0) {
		fprintf(stderr, "random_sets: no scenarios under %s/scenarios\n", srcdir);
		strs_free(&model_paths);
		return -1;
	}
	/* Sorted: the same seed picks the same files whatever readdir says. */
	qsort(c->scenario_paths.v, c->scenario_paths.len, sizeof(char *), str_cmp);
	qsort(model_paths.v, model_paths.len, sizeof(char *), str_cmp);
	c->scenarios = xrealloc(NULL, c->scenario_paths.len * sizeof(*c->scenarios));
	size_t kept = 0;
	for (size_t i = 0; i < c->scenario_paths.len; i++) {
		struct yt_node *t = yt_load(c->scenario_paths.v[i]);
		/* yt_load said why; a file the test cannot read is not run. */
		if (!t || t->kind != YT_MAP) {
			yt_free(t);
			free(c->scenario_paths.v[i]);
			continue;
		}
		c->scenario_paths.v[kept] = c->scenario_paths.v[i];
		c->scenarios[kept++] = t;
		leaves(t, "", note_leaf, &c->seen);
		/* A swept axis's values are values of its key too. */
		const struct yt_node *sweep = yt_get(t, "sweep");
		for (size_t a = 0; sweep && sweep->kind == YT_MAP && a < sweep->len; a++)
			for (size_t k = 0; sweep->items[a]->kind == YT_SEQ && k < sweep->items[a]->len; k++)
				if (sweep->items[a]->items[k]->kind == YT_SCALAR)
					seen_add(&c->seen, sweep->keys[a], sweep->items[a]->items[k]->text);
	}
	c->scenario_paths.len = kept;
	c->scenario_paths.v[kept] = NULL;
	if (kept == 0) {
		fprintf(stderr, "random_sets: no scenario could be read\n");
		strs_free(&model_paths);
		return -1;
	}
	c->models = xrealloc(NULL, (model_paths.len + 1) * sizeof(*c->models));
	for (size_t i = 0; i < model_paths.len; i++) {
		struct yt_node *t = yt_load(model_paths.v[i]);
		if (!t)
			continue;
		const char *base = strrchr(model_paths.v[i], '/');
		base = base ? base + 1 : model_paths.v[i];
		c->models[c->nmodels++] = (struct model){
			xprintf("%.*s", (int)(strlen(base) - 5), base), t };
		leaves(t, "", note_leaf, &c->seen);
	}
	strs_free(&model_paths);
	return 0;
}

void free_corpus(struct corpus *c)
{
	for (size_t i = 0; i < c->scenario_paths.len; i++)
		yt_free(c->scenarios[i]);
	free(c->scenarios);
	strs_free(&c->scenario_paths);
	for (size_t i = 0; i < c->nmodels; i++) {
		free(c->models[i].name);
		yt_free(c->models[i].tree);
	}
	free(c->models);
	seen_free(&c->seen);
}

