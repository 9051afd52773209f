/* Device, disk, bus... models by name.
 *
 * A model `foo` is the file foo.yaml anywhere below a search directory
 * (models/disks/foo.yaml, models/devices/foo.yaml...).  The places are
 * searched in order: the scenario's own folder (foo.yaml right there, if
 * it is a model: it has a `type:`), the scenario's models/ folder, each -M
 * directory, each directory of $RAIDSIM_MODELS (colon-separated), the
 * models of the build tree the binary runs from, then the installed
 * RS_MODELS_DIR.  The first place that has the name wins; two files of
 * the same name below one directory are an error.  A name that holds a
 * '/' or ends in .yaml is a file path instead (`model: ./my-disk.yaml`),
 * relative to the folder of the file that names it, as a trace's `file:`
 * is.  Each directory is read once, however many symbolic links
 * lead to it, so a link back up the tree is no loop.  A scenario section `{model: foo, x: 1}` is the model with
 * the section's own keys laid over it, key by key.  A model may itself
 * name a `model:` to start from (it still states its own `type:`). */
#ifndef RS_CONFIG_MODELS_H
#define RS_CONFIG_MODELS_H

#include <stdbool.h>
#include <stddef.h>

#include "config/diag.h"
#include "config/node.h"

struct rs_model_index;

struct rs_model_path {
	size_t ndirs;
	char **dirs;
	char *scenario_dir;           /* NULL: no scenario (raidsim models) */
	struct rs_model_index *index; /* built on first use, with loaded models */
};

void rs_model_path_init(struct rs_model_path *mp);
/* A -M directory: must exist. */
int rs_model_path_add(struct rs_model_path *mp, const char *dir, struct rs_diag *d);
/* $RAIDSIM_MODELS, the build tree's models and RS_MODELS_DIR are always
 * searched after the -M directories (missing ones are skipped), read when
 * the index is first built.  This call states that explicitly and does
 * nothing else. */
void rs_model_path_add_defaults(struct rs_model_path *mp);
void rs_model_path_free(struct rs_model_path *mp);
/* The scenario file whose folder (and models/ subfolder) is searched
 * first. */
void rs_model_path_set_scenario(struct rs_model_path *mp, const char *scenario);
/* "DIR (origin), DIR (origin, missing)...": every place searched, in
 * order, for messages that say where no model was found. */
void rs_model_path_where(const struct rs_model_path *mp, char *buf, size_t len);

/* The model's root mapping (checked to have a scalar `type:`), as a new
 * tree the caller frees.  Unknown names are reported at `where`. */
struct rs_node *rs_model_load(const struct rs_model_path *mp, const char *name,
			      const struct rs_node *where, struct rs_diag *d);

struct rs_model_info {
	const char *name;
	const char *type;
	const char *path;
	const char *description;      /* NULL when the model has none */
};
typedef int rs_model_fn(const struct rs_model_info *info, void *arg);

/* Every visible model, sorted by name.  Stops early and returns the
 * callback's value if it is not 0; -1 with d filled on a bad model file. */
int rs_model_list(const struct rs_model_path *mp, rs_model_fn *fn, void *arg,
		  struct rs_diag *d);

/* A model's root mapping as loaded and cached (not a copy: do not free or
 * change it), or NULL with d filled.  For looking, where a copy would cost
 * more than the look. */
const struct rs_node *rs_model_peek(const struct rs_model_path *mp, const char *name,
				    const struct rs_node *where, struct rs_diag *d);

/* Models nested inside one another (a device section naming a model whose
 * tree names another, or a model based on a model), one step per `model:`
 * value, innermost first.  Each step lives on the stack of whoever walks
 * the nesting. */
struct rs_model_chain {
	const struct rs_node *ref;          /* the scalar naming the model */
	const struct rs_model_chain *outer; /* NULL at the outermost */
};

/* Refuses the step `ref` below `chain` when its model is already in the
 * chain ("model 'a' <relation> itself (a -> b -> a)", placed where the
 * model names the next one, so in its own file) or when the chain would
 * be deeper than the cap model_depth.  `relation` is "contains" or "is
 * based on".  0 or -1 with d filled. */
int rs_model_chain_check(const struct rs_model_chain *chain, const struct rs_node *ref,
			 const char *relation, struct rs_diag *d);

/* `section` with its `model:` expanded (see above), or a clone of it when
 * it names no model.  NULL with d filled on error; NULL and no error when
 * section is NULL. */
struct rs_node *rs_model_resolve(const struct rs_model_path *mp, const struct rs_node *section,
				 struct rs_diag *d);

#endif
