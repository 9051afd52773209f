#include "yaml_tree.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static char *text_of(const yaml_char_t *s, size_t len)
{
	char *t = strndup((const char *)s, len);
	if (!t)
		oom();
	return t;
}

static struct yt_node *new_node(enum yt_kind kind)
{
	struct yt_node *n = xrealloc(NULL, sizeof(*n));
	*n = (struct yt_node){ .kind = kind };
	return n;
}

static void append(struct yt_node *parent, char *key, struct yt_node *item)
{
	parent->items = xrealloc(parent->items, (parent->len + 1) * sizeof(*parent->items));
	if (parent->kind == YT_MAP) {
		parent->keys = xrealloc(parent->keys, (parent->len + 1) * sizeof(*parent->keys));
		parent->keys[parent->len] = key;
	}
	parent->items[parent->len++] = item;
}

/* Builds the node whose first event is EV; the parser has consumed EV.
 * Returns NULL at a parse error or an alias (the shipped files use none). */
static struct yt_node *build(yaml_parser_t *p, yaml_event_t *ev)
{
	if (ev->type == YAML_SCALAR_EVENT) {
		struct yt_node *n = new_node(YT_SCALAR);
		n->text = text_of(ev->data.scalar.value, ev->data.scalar.length);
		n->quoted = ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
			    ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
		return n;
	}
	if (ev->type != YAML_SEQUENCE_START_EVENT && ev->type != YAML_MAPPING_START_EVENT)
		return NULL;
	bool map = ev->type == YAML_MAPPING_START_EVENT;
	struct yt_node *n = new_node(map ? YT_MAP : YT_SEQ);
	for (;;) {
		yaml_event_t e;
		if (!yaml_parser_parse(p, &e))
			goto fail;
		if (e.type == YAML_SEQUENCE_END_EVENT || e.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&e);
			return n;
		}
		char *key = NULL;
		if (map) {
			if (e.type != YAML_SCALAR_EVENT) {
				yaml_event_delete(&e);
				goto fail;
			}
			key = text_of(e.data.scalar.value, e.data.scalar.length);
			yaml_event_delete(&e);
			if (!yaml_parser_parse(p, &e)) {
				free(key);
				goto fail;
			}
		}
		struct yt_node *item = build(p, &e);
		yaml_event_delete(&e);
		if (!item) {
			free(key);
			goto fail;
		}
		append(n, key, item);
	}
fail:
	yt_free(n);
	return NULL;
}

struct yt_node *yt_load(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return NULL;
	}
	yaml_parser_t p;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	struct yt_node *root = NULL;
	yaml_event_t e;
	/* Stream start, document start, then the root node. */
	for (int k = 0; k < 2; k++) {
		if (!yaml_parser_parse(&p, &e))
			goto out;
		yaml_event_delete(&e);
	}
	if (yaml_parser_parse(&p, &e)) {
		root = build(&p, &e);
		yaml_event_delete(&e);
	}
out:
	if (!root)
		fprintf(stderr, "random_sets: %s: not loaded (%s)\n", path,
			p.problem ? p.problem : "not a YAML document");
	yaml_parser_delete(&p);
	fclose(f);
	return root;
}

void yt_free(struct yt_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->len; i++) {
		if (n->keys)
			free(n->keys[i]);
		yt_free(n->items[i]);
	}
	free(n->keys);
	free(n->items);
	free(n->text);
	free(n);
}

const struct yt_node *yt_get(const struct yt_node *n, const char *key)
{
	if (!n || n->kind != YT_MAP)
		return NULL;
	for (size_t i = 0; i < n->len; i++)
		if (strcmp(n->keys[i], key) == 0)
			return n->items[i];
	return NULL;
}
