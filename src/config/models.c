/* Finding, loading and overlaying models. */
#define _POSIX_C_SOURCE 200809L   /* opendir, strdup */

#include "config/models.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "config/limits.h"
#include "config/schema.h"
#include "kernel/assert.h"

#ifndef RS_MODELS_DIR
#define RS_MODELS_DIR "models"
#endif

#define MAX_DIR_DEPTH 8      /* folders below a model directory */

struct entry {
	char *name;
	char *path;
	struct rs_node *root;         /* loaded on first use, then kept */
	bool not_model;               /* in the scenario's folder, but no model */
};

struct rs_model_index {
	bool built;
	struct entry *v;
	size_t n, cap;
	/* Models named by a file path, or found in the scenario's own folder,
	 * by the path they were read from. */
	struct entry *files;
	size_t nfiles, capfiles;
};

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	RS_ASSERT(p);
	return p;
}

void rs_model_path_init(struct rs_model_path *mp)
{
	memset(mp, 0, sizeof(*mp));
	mp->index = calloc(1, sizeof(*mp->index));
	RS_ASSERT(mp->index);
}

static void add_dir(struct rs_model_path *mp, const char *dir)
{
	mp->dirs = realloc(mp->dirs, (mp->ndirs + 1) * sizeof(*mp->dirs));
	RS_ASSERT(mp->dirs);
	mp->dirs[mp->ndirs++] = xstrdup(dir);
}

static void entries_free(struct entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].path);
		rs_node_free(v[i].root);
	}
	free(v);
}

static void index_clear(struct rs_model_index *ix)
{
	entries_free(ix->v, ix->n);
	entries_free(ix->files, ix->nfiles);
	memset(ix, 0, sizeof(*ix));
}

int rs_model_path_add(struct rs_model_path *mp, const char *dir, struct rs_diag *d)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		return rs_diag_at(d, dir, 0, 0, "cannot use as a model directory: %s",
				  strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rs_diag_at(d, dir, 0, 0, "cannot use as a model directory: "
				  "not a directory");
	add_dir(mp, dir);
	index_clear(mp->index);
	return 0;
}

void rs_model_path_add_defaults(struct rs_model_path *mp)
{
	(void)mp;
}

/* The folder part of a file name, "." for a bare name. */
static char *dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	char *dir;

	if (!slash)
		return xstrdup(".");
	if (slash == file)
		return xstrdup("/");
	dir = strndup(file, (size_t)(slash - file));
	RS_ASSERT(dir);
	return dir;
}

void rs_model_path_set_scenario(struct rs_model_path *mp, const char *scenario)
{
	free(mp->scenario_dir);
	mp->scenario_dir = dir_of(scenario);
	index_clear(mp->index);
}

void rs_model_path_free(struct rs_model_path *mp)
{
	for (size_t i = 0; i < mp->ndirs; i++)
		free(mp->dirs[i]);
	free(mp->dirs);
	free(mp->scenario_dir);
	if (mp->index) {
		index_clear(mp->index);
		free(mp->index);
	}
	memset(mp, 0, sizeof(*mp));
}

static void push(struct rs_model_index *ix, const char *name, const char *path)
{
	if (ix->n == ix->cap) {
		ix->cap = ix->cap ? 2 * ix->cap : 32;
		ix->v = realloc(ix->v, ix->cap * sizeof(*ix->v));
		RS_ASSERT(ix->v);
	}
	ix->v[ix->n].name = xstrdup(name);
	ix->v[ix->n].path = xstrdup(path);
	ix->v[ix->n].root = NULL;
	ix->v[ix->n].not_model = false;
	ix->n++;
}

/* The directories one scan has read, by device and inode, so that a
 * symbolic link to a directory already read (a link back up the tree, or
 * two links to one folder) is not followed: without this, K such links
 * made the scan read K^MAX_DIR_DEPTH directories. */
struct seen_dirs {
	struct seen_dir {
		dev_t dev;
		ino_t ino;
		bool used;
	} *slot;
	size_t n, cap;                /* cap: a power of two, or 0 */
};

static size_t dir_hash(dev_t dev, ino_t ino, size_t mask)
{
	uint64_t h = ((uint64_t)dev * 0x9e3779b97f4a7c15u) ^ (uint64_t)ino;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 32;
	return (size_t)h & mask;
}

static void seen_put(struct seen_dirs *s, dev_t dev, ino_t ino)
{
	size_t h = dir_hash(dev, ino, s->cap - 1);

	while (s->slot[h].used)
		h = (h + 1) & (s->cap - 1);
	s->slot[h] = (struct seen_dir){ dev, ino, true };
	s->n++;
}

/* True if the directory was seen before; records it otherwise. */
static bool seen_before(struct seen_dirs *s, const struct stat *st)
{
	if (s->cap) {
		size_t h = dir_hash(st->st_dev, st->st_ino, s->cap - 1);

		for (; s->slot[h].used; h = (h + 1) & (s->cap - 1))
			if (s->slot[h].dev == st->st_dev && s->slot[h].ino == st->st_ino)
				return true;
	}
	if (2 * (s->n + 1) > s->cap) {
		struct seen_dirs grown = { .cap = s->cap ? 2 * s->cap : 64 };

		grown.slot = calloc(grown.cap, sizeof(*grown.slot));
		RS_ASSERT(grown.slot);
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i].used)
				seen_put(&grown, s->slot[i].dev, s->slot[i].ino);
		free(s->slot);
		*s = grown;
	}
	seen_put(s, st->st_dev, st->st_ino);
	return false;
}

/* Every *.yaml below dir, into `found`.  Unreadable subdirectories are
 * skipped: a stray lost+found must not break every run. */
static void scan(const char *dir, int depth, struct seen_dirs *seen,
		 struct rs_model_index *found)
{
	DIR *dh = opendir(dir);
	struct dirent *de;

	if (!dh)
		return;
	while ((de = readdir(dh))) {
		size_t len = strlen(de->d_name);
		struct stat st;
		char *path;

		if (de->d_name[0] == '.')
			continue;
		path = malloc(strlen(dir) + len + 2);
		RS_ASSERT(path);
		sprintf(path, "%s/%s", dir, de->d_name);
		if (stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < MAX_DIR_DEPTH) {
				if (!seen_before(seen, &st))
					scan(path, depth + 1, seen, found);
			} else if (S_ISREG(st.st_mode) && len > 5 &&
				   strcmp(de->d_name + len - 5, ".yaml") == 0) {
				de->d_name[len - 5] = 0;
				push(found, de->d_name, path);
			}
		}
		free(path);
	}
	closedir(dh);
}

/* Every *.yaml below the search directory `dir`. */
static void scan_root(const char *dir, struct rs_model_index *found)
{
	struct seen_dirs seen = { 0 };
	struct stat st;

	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		seen_before(&seen, &st);
		scan(dir, 0, &seen, found);
	}
	free(seen.slot);
}

/* By name, then path, so the index and duplicate reports do not depend
 * on readdir order. */
static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->path, y->path);
}

static int cmp_name(const void *key, const void *e)
{
	return strcmp(key, ((const struct entry *)e)->name);
}

/* Index of name among the first n entries (sorted by name), or -1. */
static long find_entry(const struct rs_model_index *ix, size_t n, const char *name)
{
	const struct entry *e = n ? bsearch(name, ix->v, n, sizeof(*ix->v), cmp_name) : NULL;

	return e ? (long)(e - ix->v) : -1;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* dir/name; name alone in ".", so messages show paths as they were typed
 * (a scenario given as in.yaml has its models in models/, not ./models/). */
static char *join(const char *dir, const char *name)
{
	char *p;

	if (strcmp(dir, ".") == 0)
		return xstrdup(name);
	p = malloc(strlen(dir) + strlen(name) + 2);

	RS_ASSERT(p);
	sprintf(p, "%s/%s", dir, name);
	return p;
}

/* The models of the build tree this binary runs from, or NULL.  A binary
 * built here is TOP/src/raidsim: the tree configured here has the source
 * tree's models (a VPATH build has none of its own); a tree copied
 * elsewhere has its own TOP/models.  An installed binary (PREFIX/bin)
 * matches neither and uses the installed models. */
static char *build_tree_models(void)
{
	char exe[4096], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0 || (size_t)n >= sizeof(exe) - 1)
		return NULL;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash || slash == exe)
		return NULL;
	*slash = 0;
	slash = strrchr(exe, '/');
	if (!slash || slash == exe || strcmp(slash + 1, "src") != 0)
		return NULL;
	*slash = 0;
#if defined(RS_BUILD_DIR) && defined(RS_SOURCE_MODELS_DIR)
	if (same_dir(exe, RS_BUILD_DIR) && is_dir(RS_SOURCE_MODELS_DIR))
		return xstrdup(RS_SOURCE_MODELS_DIR);
#endif
	char *own = join(exe, "models");

	if (is_dir(own))
		return own;
	free(own);
	return NULL;
}

/* The search directories in order, each with where it came from. */
struct search_dirs {
	size_t n;
	char *dir[96];
	const char *origin[96];
};

static void search_add(struct search_dirs *s, const char *dir, const char *origin)
{
	if (s->n < sizeof(s->dir) / sizeof(s->dir[0])) {
		s->dir[s->n] = xstrdup(dir);
		s->origin[s->n++] = origin;
	}
}

static void search_free(struct search_dirs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->dir[i]);
	s->n = 0;
}

/* The scenario's models/ folder, -M directories, $RAIDSIM_MODELS, the
 * build tree's models, the installed ones.  (The scenario's own folder
 * comes first of all, but name by name: see own_folder_model.) */
static void search_dirs(const struct rs_model_path *mp, struct search_dirs *all)
{
	const char *env = getenv("RAIDSIM_MODELS");
	char *tree;

	memset(all, 0, sizeof(*all));
	if (mp->scenario_dir) {
		char *sub = join(mp->scenario_dir, "models");

		if (is_dir(sub))
			search_add(all, sub, "the scenario's models folder");
		free(sub);
	}
	for (size_t i = 0; i < mp->ndirs; i++)
		search_add(all, mp->dirs[i], "-M");
	while (env && *env) {
		const char *colon = strchr(env, ':');
		size_t n = colon ? (size_t)(colon - env) : strlen(env);

		if (n) {
			char *dir = strndup(env, n);

			RS_ASSERT(dir);
			search_add(all, dir, "$RAIDSIM_MODELS");
			free(dir);
		}
		env = colon ? colon + 1 : NULL;
	}
	tree = build_tree_models();
	if (tree)
		search_add(all, tree, "the build tree");
	free(tree);
	search_add(all, RS_MODELS_DIR, "installed");
}

void rs_model_path_where(const struct rs_model_path *mp, char *buf, size_t len)
{
	struct search_dirs all;
	size_t used = 0;

	search_dirs(mp, &all);
	buf[0] = 0;
	if (mp->scenario_dir)
		used += (size_t)snprintf(buf, len, "%s (the scenario's folder)",
					 mp->scenario_dir);
	for (size_t i = 0; i < all.n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s (%s%s)",
					 used ? ", " : "", all.dir[i], all.origin[i],
					 is_dir(all.dir[i]) ? "" : ", missing");
	search_free(&all);
}

static int build(const struct rs_model_path *mp, struct rs_diag *d)
{
	struct rs_model_index *ix = mp->index;
	struct search_dirs all;
	int rc = 0;

	if (ix->built)
		return 0;
	index_clear(ix);
	search_dirs(mp, &all);
	for (size_t i = 0; i < all.n && rc == 0; i++) {
		struct rs_model_index found = { 0 };
		/* The earlier directories' models, sorted for bsearch. */
		size_t earlier = ix->n;

		scan_root(all.dir[i], &found);
		if (found.n)
			qsort(found.v, found.n, sizeof(*found.v), cmp_entry);
		for (size_t k = 0; k < found.n; k++) {
			if (k && strcmp(found.v[k].name, found.v[k - 1].name) == 0) {
				rs_diag_at(d, found.v[k].path, 0, 0,
					   "duplicate model '%s' (also defined in %s)",
					   found.v[k].name, found.v[k - 1].path);
				index_clear(ix);
				rc = -1;
				break;
			}
			/* An earlier directory already has it: it wins. */
			if (find_entry(ix, earlier, found.v[k].name) < 0)
				push(ix, found.v[k].name, found.v[k].path);
		}
		index_clear(&found);
		if (ix->n)
			qsort(ix->v, ix->n, sizeof(*ix->v), cmp_entry);
	}
	search_free(&all);
	if (rc)
		return rc;
	ix->built = true;
	return 0;
}

static int unknown_model(const struct rs_model_path *mp, const char *name,
			 const struct rs_node *where, struct rs_diag *d)
{
	const struct rs_model_index *ix = mp->index;
	const char **names;
	const char *close;

	if (ix->n == 0) {
		char looked[1024];

		rs_model_path_where(mp, looked, sizeof(looked));
		return rs_diag_node(d, where, "unknown model '%s' (no models found in %s; "
				    "use -M DIR or set RAIDSIM_MODELS)", name, looked);
	}
	names = calloc(ix->n, sizeof(*names));
	RS_ASSERT(names);
	for (size_t i = 0; i < ix->n; i++)
		names[i] = ix->v[i].name;
	close = rs_closest_name(name, names, ix->n);
	if (close)
		rs_diag_node(d, where, "unknown model '%s' (did you mean '%s'?)", name, close);
	else
		rs_diag_node(d, where, "unknown model '%s'", name);
	free(names);
	return -1;
}

/* The cached tree of entry e, loading and checking it the first time. */
static const struct rs_node *entry_root(struct entry *e, struct rs_diag *d)
{
	struct rs_node *root, *type;

	if (e->root)
		return e->root;
	root = rs_yaml_load_file(e->path, d);
	if (!root)
		return NULL;
	if (root->kind != RS_NODE_MAP) {
		rs_diag_node(d, root, "a model file must be a mapping, got %s",
			     rs_node_kind_name(root));
		rs_node_free(root);
		return NULL;
	}
	type = rs_node_get(root, "type");
	if (!type || type->kind != RS_NODE_SCALAR) {
		if (type)
			rs_diag_node(d, type, "expected a scalar for 'type', got %s",
				     rs_node_kind_name(type));
		else
			rs_diag_node(d, root, "missing required key 'type' in model '%s'",
				     e->name);
		rs_node_free(root);
		return NULL;
	}
	e->root = root;
	return root;
}

/* A mapping with a scalar `type:`, as every model file is. */
static bool rs_model_is_model(const struct rs_node *root)
{
	const struct rs_node *type = rs_node_get(root, "type");

	return root->kind == RS_NODE_MAP && type && type->kind == RS_NODE_SCALAR;
}

/* A `model:` value naming a file rather than a model. */
static bool rs_model_name_is_path(const char *name)
{
	size_t len = strlen(name);

	return strchr(name, '/') || (len > 5 && strcmp(name + len - 5, ".yaml") == 0);
}

/* A path relative to the folder of the file that wrote it, as trace
 * `file:` is: a scenario and the models it names by path move together.
 * A name from the command line ("--set", no folder) or with no node is
 * relative to the working directory; an absolute path stays as it is. */
static char *relative_to(const struct rs_node *where, const char *file)
{
	const char *base = where ? where->file : NULL;
	char *dir, *path;

	if (file[0] == '/' || !base || !strchr(base, '/'))
		return xstrdup(file);
	dir = dir_of(base);
	path = join(dir, file);
	free(dir);
	return path;
}

/* The entry for the model file at path, made on first use. */
static struct entry *file_entry(struct rs_model_index *ix, const char *name, const char *path)
{
	for (size_t i = 0; i < ix->nfiles; i++)
		if (strcmp(ix->files[i].path, path) == 0)
			return &ix->files[i];
	if (ix->nfiles == ix->capfiles) {
		ix->capfiles = ix->capfiles ? 2 * ix->capfiles : 8;
		ix->files = realloc(ix->files, ix->capfiles * sizeof(*ix->files));
		RS_ASSERT(ix->files);
	}
	ix->files[ix->nfiles] = (struct entry){ xstrdup(name), xstrdup(path), NULL, false };
	return &ix->files[ix->nfiles++];
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* `model: ./my-disk.yaml`: the file itself, which must be a model. */
static const struct rs_node *path_model(const struct rs_model_path *mp, const char *name,
					const struct rs_node *where, struct rs_diag *d)
{
	char *path = relative_to(where, name);
	const struct rs_node *root = NULL;
	struct stat st;

	if (stat(path, &st) != 0)
		rs_diag_node(d, where, "cannot read model file '%s': %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rs_diag_node(d, where, "cannot read model file '%s': not a regular file", path);
	else
		root = entry_root(file_entry(mp->index, name, path), d);
	free(path);
	return root;
}

/* NAME.yaml in the scenario's own folder, when there is such a file and
 * it is a model (has a `type:`): the folder also holds the scenario and
 * its siblings, which are not models and are passed over.  Only names are
 * looked up there, never the folder listed, so a scenario kept among many
 * other files costs nothing.  NULL with d untouched when there is none. */
static const struct rs_node *own_folder_model(const struct rs_model_path *mp,
					      const char *name, struct rs_diag *d)
{
	char *file, *path;
	struct entry *e;
	struct rs_node *root;

	if (!mp->scenario_dir)
		return NULL;
	file = malloc(strlen(name) + 6);
	RS_ASSERT(file);
	sprintf(file, "%s.yaml", name);
	path = join(mp->scenario_dir, file);
	free(file);
	if (!is_file(path)) {
		free(path);
		return NULL;
	}
	e = file_entry(mp->index, name, path);
	free(path);
	if (e->root || e->not_model)
		return e->root;
	root = rs_yaml_load_file(e->path, d);
	if (root && rs_model_is_model(root)) {
		e->root = root;
		return root;
	}
	rs_node_free(root);
	/* A file that does not parse is not taken for a model either. */
	rs_diag_init(d);
	e->not_model = true;
	return NULL;
}

const struct rs_node *rs_model_peek(const struct rs_model_path *mp, const char *name,
				    const struct rs_node *where, struct rs_diag *d)
{
	const struct rs_node *own;
	long i;

	if (rs_model_name_is_path(name))
		return path_model(mp, name, where, d);
	own = own_folder_model(mp, name, d);
	if (own)
		return own;
	if (build(mp, d))
		return NULL;
	i = find_entry(mp->index, mp->index->n, name);
	if (i < 0) {
		unknown_model(mp, name, where, d);
		return NULL;
	}
	return entry_root(&mp->index->v[i], d);
}

struct rs_node *rs_model_load(const struct rs_model_path *mp, const char *name,
			      const struct rs_node *where, struct rs_diag *d)
{
	const struct rs_node *root = rs_model_peek(mp, name, where, d);

	return root ? rs_node_clone(root) : NULL;
}

int rs_model_list(const struct rs_model_path *mp, rs_model_fn *fn, void *arg,
		  struct rs_diag *d)
{
	struct rs_model_index *ix = mp->index;

	if (build(mp, d))
		return -1;
	for (size_t i = 0; i < ix->n; i++) {
		const struct rs_node *root = entry_root(&ix->v[i], d), *desc;
		struct rs_model_info info;
		int rc;

		if (!root)
			return -1;
		desc = rs_node_get(root, "description");
		info.name = ix->v[i].name;
		info.path = ix->v[i].path;
		info.type = rs_node_get(root, "type")->str;
		info.description = desc && desc->kind == RS_NODE_SCALAR ? desc->str : NULL;
		rc = fn(&info, arg);
		if (rc)
			return rc;
	}
	return 0;
}

/* "a -> b -> a" into buf: the names of steps[from..n), then `last`.  A
 * long chain keeps its first and last few names, which say where it
 * starts and where it closes. */
static void chain_text(const struct rs_node *const *steps, size_t from, size_t n,
		       const char *last, char *buf, size_t len)
{
	size_t used = 0, names = n - from + 1;

	buf[0] = 0;
	for (size_t k = 0; k < names && used < len; k++) {
		const char *name = from + k < n ? steps[from + k]->str : last;

		if (names > 9 && k == 4) {
			used += (size_t)snprintf(buf + used, len - used, "... -> ");
			k = names - 5;
			continue;
		}
		used += (size_t)snprintf(buf + used, len - used, "%.40s%s", name,
					 k + 1 < names ? " -> " : "");
	}
}

int rs_model_chain_check(const struct rs_model_chain *chain, const struct rs_node *ref,
			 const char *relation, struct rs_diag *d)
{
	const struct rs_node **steps;
	const struct rs_model_chain *c;
	uint64_t cap = rs_limits()->model_depth;
	size_t n = 0, found = 0;
	bool loop = false;
	char text[512];

	/* One model on its own is always allowed (a cap is at least 1). */
	if (!chain)
		return 0;
	for (c = chain; c; c = c->outer)
		n++;
	/* Outermost first, as the message reads. */
	steps = calloc(n ? n : 1, sizeof(*steps));
	RS_ASSERT(steps);
	c = chain;
	for (size_t i = n; i-- > 0; c = c->outer)
		steps[i] = c->ref;
	for (size_t i = 0; i < n && !loop; i++) {
		if (strcmp(steps[i]->str, ref->str) == 0) {
			found = i;
			loop = true;
		}
	}
	if (loop) {
		chain_text(steps, found, n, ref->str, text, sizeof(text));
		rs_diag_node(d, found + 1 < n ? steps[found + 1] : ref,
			     "model '%.80s' %s itself (%s)", ref->str, relation, text);
	} else if (n + 1 > cap) {
		chain_text(steps, 0, n, ref->str, text, sizeof(text));
		rs_diag_node(d, ref, "models nested %zu deep (%s), more than the cap "
			     "model_depth=%llu (raise it with --limit model_depth=N)", n + 1, text,
			     (unsigned long long)cap);
	}
	free(steps);
	return loop || n + 1 > cap ? -1 : 0;
}

static struct rs_node *resolve(const struct rs_model_path *mp, const struct rs_node *section,
			       const struct rs_model_chain *chain, struct rs_diag *d)
{
	const struct rs_node *name;
	struct rs_node *base, *full, *over, *merged;
	struct rs_model_chain step;

	if (!section)
		return NULL;
	name = rs_node_get(section, "model");
	if (!name)
		return rs_node_clone(section);
	if (name->kind != RS_NODE_SCALAR) {
		rs_diag_node(d, name, "expected a scalar for 'model', got %s",
			     rs_node_kind_name(name));
		return NULL;
	}
	if (rs_model_chain_check(chain, name, "is based on", d))
		return NULL;
	base = rs_model_load(mp, name->str, name, d);
	if (!base)
		return NULL;
	step = (struct rs_model_chain){ .ref = name, .outer = chain };
	full = resolve(mp, base, &step, d);
	rs_node_free(base);
	if (!full)
		return NULL;
	over = rs_node_clone(section);
	rs_node_remove(over, "model");
	merged = rs_node_merge(full, over);
	rs_node_free(full);
	rs_node_free(over);
	return merged;
}

struct rs_node *rs_model_resolve(const struct rs_model_path *mp, const struct rs_node *section,
				 struct rs_diag *d)
{
	return resolve(mp, section, NULL, d);
}
