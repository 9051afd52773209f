/* Writing a tree as YAML. */
#include "config/emit.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* Plain scalars keep to characters that mean nothing to YAML in block or
 * flow context; anything else is double-quoted. */
static bool plain_ok(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || s[0] == ' ' || s[len - 1] == ' ' || strchr("?:!&*'\"%@`|>#", s[0]))
		return false;
	/* A leading '-' is plain only as a number's sign. */
	if (s[0] == '-' && !isdigit((unsigned char)s[1]) && s[1] != '.')
		return false;
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f || strchr(",[]{}\"'\\", c))
			return false;
		if (c == ':' && (p[1] == ' ' || !p[1]))
			return false;
		if (c == '#' && p > s && p[-1] == ' ')
			return false;
	}
	return true;
}

static void scalar(const char *s, FILE *out)
{
	if (plain_ok(s)) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void flow(const struct rs_node *n, FILE *out)
{
	if (n->kind == RS_NODE_SCALAR) {
		scalar(n->str, out);
		return;
	}
	fputc(n->kind == RS_NODE_MAP ? '{' : '[', out);
	for (size_t i = 0; i < n->len; i++) {
		if (i)
			fputs(", ", out);
		if (n->kind == RS_NODE_MAP) {
			scalar(n->keys[i]->str, out);
			fputs(": ", out);
		}
		flow(n->items[i], out);
	}
	fputc(n->kind == RS_NODE_MAP ? '}' : ']', out);
}

static void block(const struct rs_node *map, int depth, FILE *out, const char *mark_file,
		  const char *mark_note)
{
	for (size_t i = 0; i < map->len; i++) {
		const struct rs_node *v = map->items[i];

		fprintf(out, "%*s", 2 * depth, "");
		scalar(map->keys[i]->str, out);
		if (v->kind == RS_NODE_MAP && v->len) {
			fputs(":\n", out);
			block(v, depth + 1, out, mark_file, mark_note);
			continue;
		}
		fputs(": ", out);
		flow(v, out);
		if (mark_file && v->kind == RS_NODE_SCALAR && v->file &&
		    strcmp(v->file, mark_file) == 0)
			fprintf(out, "    # %s", mark_note);
		fputc('\n', out);
	}
}

void rs_node_emit(const struct rs_node *root, FILE *out, const char *mark_file,
		  const char *mark_note)
{
	if (root->kind == RS_NODE_MAP && root->len)
		block(root, 0, out, mark_file, mark_note);
	else {
		flow(root, out);
		fputc('\n', out);
	}
}
