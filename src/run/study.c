#include "run/study.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

static char *dup(const char *s)
{
	char *d = strdup(s ? s : "");
	RS_ASSERT(d != NULL);
	return d;
}

/* Next blank-separated field of *p, NUL-terminated in place. */
static char *field(char **p)
{
	char *s = *p + strspn(*p, " \t");
	if (!*s)
		return NULL;
	char *e = s + strcspn(s, " \t");
	*p = *e ? e + 1 : e;
	*e = '\0';
	return s;
}

int rs_studies_read(const char *path, struct rs_study **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "raidsim: reproduce: cannot read the study list '%s'\n", path);
		return -1;
	}
	char line[2048];
	int lineno = 0, rc = 0;
	size_t cap = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		char *p = line + strspn(line, " \t");
		if (*p == '#' || *p == '\0')
			continue;
		char *name = field(&p), *folder = field(&p), *prog = field(&p);
		char *title = p + strspn(p, " \t");
		if (!prog || !*title) {
			fprintf(stderr, "%s:%d: expected NAME FOLDER VALIDATION TITLE\n", path,
				lineno);
			rc = -1;
			break;
		}
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			*out = realloc(*out, cap * sizeof(**out));
			RS_ASSERT(*out != NULL);
		}
		struct rs_study *s = &(*out)[(*n)++];
		memset(s, 0, sizeof(*s));
		s->name = dup(name);
		s->folder = dup(folder);
		s->validation = dup(prog);
		s->title = dup(title);
	}
	fclose(f);
	return rc;
}

void rs_studies_free(struct rs_study *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].name), free(s[i].folder), free(s[i].validation), free(s[i].title);
		for (size_t j = 0; j < s[i].nfigures; j++)
			free(s[i].figures[j].file), free(s[i].figures[j].caption);
		free(s[i].figures);
		for (size_t j = 0; j < s[i].nfindings; j++) {
			struct rs_finding_row *r = &s[i].findings[j];
			free(r->id), free(r->status), free(r->measured), free(r->study);
		}
		free(s[i].findings);
	}
	free(s);
}

/* Split a TSV line into at most n fields (missing ones ""). */
static void split_tabs(char *line, char **f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		f[i] = line;
		char *tab = strchr(line, '\t');
		if (tab) {
			*tab = '\0';
			line = tab + 1;
		} else {
			line += strlen(line);
		}
	}
}

int rs_study_read_findings(struct rs_study *s, const char *tsv)
{
	FILE *f = fopen(tsv, "r");
	if (!f)
		return -1;
	char line[8192];
	bool header = true;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (header) {
			header = false;
			continue;
		}
		if (!*line)
			continue;
		char *c[4];
		split_tabs(line, c, 4);
		s->findings = realloc(s->findings, (s->nfindings + 1) * sizeof(*s->findings));
		RS_ASSERT(s->findings != NULL);
		struct rs_finding_row *r = &s->findings[s->nfindings++];
		r->id = dup(c[0]);
		r->status = dup(c[1]);
		r->measured = dup(c[2]);
		r->study = dup(c[3]);
		if (strcmp(r->status, "reproduced") == 0)
			s->nreproduced++;
	}
	fclose(f);
	return 0;
}

static void add_figure(struct rs_study *s, const char *file, const char *caption)
{
	s->figures = realloc(s->figures, (s->nfigures + 1) * sizeof(*s->figures));
	RS_ASSERT(s->figures != NULL);
	s->figures[s->nfigures].file = dup(file);
	s->figures[s->nfigures].caption = dup(caption);
	s->nfigures++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void rs_study_find_figures(struct rs_study *s, const char *captions_tsv, const char *dir)
{
	FILE *f = fopen(captions_tsv, "r");
	if (f) {
		char line[4096];
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\r\n")] = '\0';
			if (line[0] == '#' || !line[0])
				continue;
			char *c[2];
			split_tabs(line, c, 2);
			add_figure(s, c[0], c[1]);
		}
		fclose(f);
		return;
	}
	/* No captions: every PNG the script wrote, by name. */
	DIR *d = opendir(dir);
	if (!d)
		return;
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (len > 4 && strcmp(e->d_name + len - 4, ".png") == 0) {
			names = realloc(names, (n + 1) * sizeof(*names));
			RS_ASSERT(names != NULL);
			names[n++] = dup(e->d_name);
		}
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		add_figure(s, names[i], names[i]);
		free(names[i]);
	}
	free(names);
}
