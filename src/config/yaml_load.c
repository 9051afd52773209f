/* Reading YAML files into position-carrying trees with libyaml's event
 * API.  Everything YAML allows but a scenario must not use (anchors,
 * tags, duplicate keys, several documents) is rejected here, at the spot,
 * so the rest of the program can assume a plain tree. */
/* strdup, strndup and friends are POSIX.1-2008, not plain C11. */
#define _POSIX_C_SOURCE 200809L

#include "config/node.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <yaml.h>

#include "kernel/assert.h"

#define MAX_INPUT ((size_t)16 << 20)   /* far above any sane scenario */
#define MAX_DEPTH RS_NODE_MAX_DEPTH     /* keeps recursive tree walks safe */

static const char utf8_bom[3] = { (char)0xef, (char)0xbb, (char)0xbf };

/* One open mapping or sequence.  Maps keep a hash of their keys while
 * being read so that duplicate detection stays linear on huge maps. */
struct frame {
	struct rs_node *node;
	struct rs_node *key;          /* map: key read, value pending */
	size_t *tab;                  /* map: open-addressed indices + 1 */
	size_t tabcap;
};

struct loader {
	const char *name;             /* interned */
	const unsigned char *text;
	size_t len;
	struct rs_diag *d;
	struct frame stack[MAX_DEPTH];
	int depth;
	struct rs_node *root;
	int docs;
};

/* Line and column (from 1, counting characters) of a byte offset. */
static void offset_pos(const unsigned char *text, size_t len, size_t off, int *line, int *col)
{
	int l = 1, c = 1;

	for (size_t i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else if ((text[i] & 0xc0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

/* Byte offset of a libyaml mark (line, column from 0, in characters). */
static size_t mark_offset(const unsigned char *text, size_t len, yaml_mark_t m)
{
	size_t i = 0, line = 0, col = 0;

	while (i < len && line < m.line)
		if (text[i++] == '\n')
			line++;
	while (i < len && col < m.column) {
		i++;
		while (i < len && (text[i] & 0xc0) == 0x80)
			i++;
		col++;
	}
	return i;
}

/* Returns the offset of the first byte that is not valid UTF-8 (overlong
 * forms, surrogates and values above U+10FFFF included), or len. */
static size_t utf8_check(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		} else if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			cp = c & 0x07;
		} else {
			return i;
		}
		for (size_t k = 1; k <= n; k++) {
			/* Blame the start of the broken sequence. */
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return i;
		i += n + 1;
	}
	return len;
}

/* Offset of the first byte-order mark in s, or len. */
static size_t find_bom(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i + sizeof(utf8_bom) <= len; i++)
		if (s[i] == 0xef && memcmp(s + i, utf8_bom, sizeof(utf8_bom)) == 0)
			return i;
	return len;
}

static int fail_at_offset(struct loader *ld, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at_offset(struct loader *ld, size_t off, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	int line, col;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	offset_pos(ld->text, ld->len, off, &line, &col);
	return rs_diag_at(ld->d, ld->name, line, col, "%s", msg);
}

static int fail_mark(struct loader *ld, yaml_mark_t m, const char *msg)
{
	return rs_diag_at(ld->d, ld->name, (int)m.line + 1, (int)m.column + 1, "%s", msg);
}

static int syntax_error(struct loader *ld, const yaml_parser_t *p)
{
	size_t off;

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		return rs_diag_at(ld->d, ld->name, 0, 0, "out of memory reading YAML");
	case YAML_READER_ERROR:
		/* Invalid UTF-8 was caught before; what is left is control
		 * characters and the like. */
		off = p->problem_offset;
		if (p->problem_value >= 0)
			return fail_at_offset(ld, off, "character 0x%02x is not allowed in YAML",
					      (unsigned)p->problem_value);
		return fail_at_offset(ld, off, "unreadable YAML input");
	default:
		break;
	}
	off = mark_offset(ld->text, ld->len, p->problem_mark);
	if (off < ld->len && ld->text[off] == '\t')
		return fail_mark(ld, p->problem_mark,
				 "tab character where YAML expects spaces (indent with spaces)");
	if (p->context)
		return rs_diag_at(ld->d, ld->name, (int)p->problem_mark.line + 1,
				  (int)p->problem_mark.column + 1, "syntax error: %s (%s at line %d)",
				  p->problem ? p->problem : "invalid YAML", p->context,
				  (int)p->context_mark.line + 1);
	return rs_diag_at(ld->d, ld->name, (int)p->problem_mark.line + 1,
			  (int)p->problem_mark.column + 1, "syntax error: %s",
			  p->problem ? p->problem : "invalid YAML");
}

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603ull & SIZE_MAX;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static void tab_insert(struct frame *f, size_t idx)
{
	size_t m = f->tabcap - 1;
	size_t h = hash_str(f->node->keys[idx]->str) & m;

	while (f->tab[h])
		h = (h + 1) & m;
	f->tab[h] = idx + 1;
}

/* Index of an existing key equal to s, or -1. */
static long tab_find(struct frame *f, const char *s)
{
	struct rs_node *map = f->node;
	size_t m, h;

	if (map->len >= f->tabcap / 2) {
		free(f->tab);
		f->tabcap = f->tabcap ? 2 * f->tabcap : 16;
		while (map->len >= f->tabcap / 2)
			f->tabcap *= 2;
		f->tab = calloc(f->tabcap, sizeof(*f->tab));
		RS_ASSERT(f->tab);
		for (size_t i = 0; i < map->len; i++)
			tab_insert(f, i);
	}
	m = f->tabcap - 1;
	for (h = hash_str(s) & m; f->tab[h]; h = (h + 1) & m)
		if (strcmp(map->keys[f->tab[h] - 1]->str, s) == 0)
			return (long)(f->tab[h] - 1);
	return -1;
}

/* Hook a finished or just-opened node into its parent. */
static int attach(struct loader *ld, struct rs_node *n, yaml_mark_t mark)
{
	struct frame *f;
	long dup;

	if (ld->depth == 0) {
		ld->root = n;
		return 0;
	}
	f = &ld->stack[ld->depth - 1];
	if (f->node->kind == RS_NODE_SEQ) {
		rs_node_append(f->node, n);
		return 0;
	}
	if (f->key) {
		/* Duplicates were refused when the key was read. */
		rs_node_map_append(f->node, f->key, n);
		f->key = NULL;
		tab_insert(f, f->node->len - 1);
		return 0;
	}
	if (n->kind != RS_NODE_SCALAR) {
		rs_node_free(n);
		return fail_mark(ld, mark, "mapping keys must be plain scalars, not "
				 "mappings or sequences");
	}
	dup = tab_find(f, n->str);
	if (dup >= 0) {
		int line = f->node->keys[dup]->line;

		rs_node_free(n);
		return rs_diag_at(ld->d, ld->name, (int)mark.line + 1, (int)mark.column + 1,
				  "duplicate key '%s' (first defined at line %d)",
				  f->node->keys[dup]->str, line);
	}
	f->key = n;
	return 0;
}

static int refuse_props(struct loader *ld, const yaml_event_t *ev, const yaml_char_t *anchor,
			const yaml_char_t *tag)
{
	if (anchor)
		return fail_mark(ld, ev->start_mark, "anchors and aliases are not supported");
	if (tag)
		return rs_diag_at(ld->d, ld->name, (int)ev->start_mark.line + 1,
				  (int)ev->start_mark.column + 1,
				  "tags are not supported (found '%s')", (const char *)tag);
	return 0;
}

static int open_node(struct loader *ld, const yaml_event_t *ev, enum rs_node_kind kind)
{
	int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
	struct rs_node *n;
	struct frame *f;

	if (ld->depth == MAX_DEPTH)
		return rs_diag_at(ld->d, ld->name, line, col,
				  "nesting too deep (more than %d levels)", MAX_DEPTH);
	n = kind == RS_NODE_MAP ? rs_node_new_map(ld->name, line, col) :
		rs_node_new_seq(ld->name, line, col);
	if (attach(ld, n, ev->start_mark))
		return -1;
	f = &ld->stack[ld->depth++];
	memset(f, 0, sizeof(*f));
	f->node = n;
	return 0;
}

static void close_node(struct loader *ld)
{
	struct frame *f = &ld->stack[--ld->depth];

	free(f->tab);
	memset(f, 0, sizeof(*f));
}

static int scalar(struct loader *ld, const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	struct rs_node *n;

	/* "\0" in a double-quoted string would silently cut the text. */
	if (strlen(v) != ev->data.scalar.length)
		return fail_mark(ld, ev->start_mark, "NUL character in string");
	n = rs_node_new_scalar(ld->name, (int)ev->start_mark.line + 1,
			       (int)ev->start_mark.column + 1, v);
	n->quoted = ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	return attach(ld, n, ev->start_mark);
}

static int event(struct loader *ld, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++ld->docs > 1)
			return fail_mark(ld, ev->start_mark,
					 "more than one document (a file holds exactly one)");
		return 0;
	case YAML_ALIAS_EVENT:
		return fail_mark(ld, ev->start_mark, "anchors and aliases are not supported");
	case YAML_SCALAR_EVENT:
		if (refuse_props(ld, ev, ev->data.scalar.anchor, ev->data.scalar.tag))
			return -1;
		return scalar(ld, ev);
	case YAML_SEQUENCE_START_EVENT:
		if (refuse_props(ld, ev, ev->data.sequence_start.anchor,
				 ev->data.sequence_start.tag))
			return -1;
		return open_node(ld, ev, RS_NODE_SEQ);
	case YAML_MAPPING_START_EVENT:
		if (refuse_props(ld, ev, ev->data.mapping_start.anchor,
				 ev->data.mapping_start.tag))
			return -1;
		return open_node(ld, ev, RS_NODE_MAP);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		close_node(ld);
		return 0;
	default:
		return 0;
	}
}

static void loader_cleanup(struct loader *ld)
{
	while (ld->depth > 0) {
		rs_node_free(ld->stack[ld->depth - 1].key);
		close_node(ld);
	}
	rs_node_free(ld->root);
	ld->root = NULL;
}

struct rs_node *rs_yaml_load_string(const char *name, const char *text, size_t len,
				    struct rs_diag *d)
{
	struct loader ld = { 0 };
	yaml_parser_t parser;
	const unsigned char *nul;
	size_t bad;
	bool done = false;

	ld.name = rs_intern(name);
	ld.text = (const unsigned char *)text;
	ld.len = len;
	ld.d = d;
	if (len > MAX_INPUT) {
		rs_diag_at(d, ld.name, 0, 0, "file too large (%zu bytes, at most %zu)",
			   len, MAX_INPUT);
		return NULL;
	}
	/* Editors on Windows start UTF-8 files with a byte-order mark.  It is
	 * invisible there, so columns count from after it; libyaml would only
	 * skip it when guessing the encoding, which a fixed UTF-8 input turns
	 * off. */
	if (len >= sizeof(utf8_bom) && memcmp(ld.text, utf8_bom, sizeof(utf8_bom)) == 0) {
		ld.text += sizeof(utf8_bom);
		ld.len -= sizeof(utf8_bom);
	}
	nul = memchr(ld.text, 0, ld.len);
	if (nul) {
		fail_at_offset(&ld, (size_t)(nul - ld.text),
			       "NUL byte in input (expected UTF-8 text)");
		return NULL;
	}
	bad = utf8_check(ld.text, ld.len);
	if (bad < ld.len) {
		fail_at_offset(&ld, bad, "invalid UTF-8 byte 0x%02x", ld.text[bad]);
		return NULL;
	}
	/* Left by pasting one file into another; libyaml would only say it
	 * found no key there. */
	bad = find_bom(ld.text, ld.len);
	if (bad < ld.len) {
		fail_at_offset(&ld, bad, "byte-order mark (U+FEFF) inside the file "
			       "(it may only start it)");
		return NULL;
	}
	if (!yaml_parser_initialize(&parser)) {
		rs_diag_at(d, ld.name, 0, 0, "out of memory reading YAML");
		return NULL;
	}
	yaml_parser_set_input_string(&parser, ld.text, ld.len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	while (!done) {
		yaml_event_t ev;
		int rc;

		if (!yaml_parser_parse(&parser, &ev)) {
			syntax_error(&ld, &parser);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		rc = event(&ld, &ev);
		yaml_event_delete(&ev);
		if (rc)
			break;
	}
	yaml_parser_delete(&parser);
	if (!done) {
		loader_cleanup(&ld);
		return NULL;
	}
	if (!ld.root || (ld.root->kind == RS_NODE_SCALAR && !ld.root->quoted &&
			 !ld.root->str[0])) {
		rs_node_free(ld.root);
		rs_diag_at(d, ld.name, 0, 0, "empty file, expected a mapping");
		return NULL;
	}
	return ld.root;
}

struct rs_node *rs_yaml_load_file(const char *path, struct rs_diag *d)
{
	struct stat st;
	struct rs_node *root;
	FILE *f;
	char *buf;
	size_t n;

	bool known = stat(path, &st) == 0;
	if (known && S_ISDIR(st.st_mode)) {
		rs_diag_at(d, path, 0, 0, "is a directory, expected a YAML file");
		return NULL;
	}
	f = fopen(path, "rb");
	if (!f) {
		rs_diag_at(d, path, 0, 0, "%s", strerror(errno));
		return NULL;
	}
	/* The buffer starts at the file's size (or 64 KiB where stat cannot
	 * tell: pipes, /proc) and grows while reading, so a small file costs
	 * little; reading one byte past the cap notices an oversized file. */
	size_t cap = 64 << 10;
	if (known && S_ISREG(st.st_mode) && st.st_size >= 0 && (uint64_t)st.st_size < MAX_INPUT)
		cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	n = 0;
	for (;;) {
		if (!buf) {
			rs_diag_at(d, path, 0, 0, "not enough memory to read the file");
			fclose(f);
			return NULL;
		}
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || n > MAX_INPUT)
			break;
		size_t grown = cap * 2 > MAX_INPUT + 1 ? MAX_INPUT + 1 : cap * 2;
		char *more = realloc(buf, grown);
		if (!more)
			free(buf);
		buf = more;
		cap = grown;
	}
	if (ferror(f)) {
		rs_diag_at(d, path, 0, 0, "%s", strerror(errno ? errno : EIO));
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	if (n > MAX_INPUT) {
		rs_diag_at(d, path, 0, 0, "file too large (more than %zu bytes)", MAX_INPUT);
		free(buf);
		return NULL;
	}
	root = rs_yaml_load_string(path, buf, n, d);
	free(buf);
	return root;
}
