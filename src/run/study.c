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
			free(r->basis);
		}
		free(s[i].findings);
		if (s[i].has_measured)
			rs_measured_free(&s[i].measured);
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
		r->basis = dup("");
		if (strcmp(r->status, "reproduced") == 0)
			s->nreproduced++;
		rs_class_counts_add(&s->counts, r->status);
		if (!s->label[0])
			snprintf(s->label, sizeof(s->label), "%.*s", (int)strcspn(r->id, "-"), r->id);
	}
	fclose(f);
	return 0;
}

int rs_study_read_ledger(struct rs_study *s, const char *ledger_tsv)
{
	FILE *probe = fopen(ledger_tsv, "r");
	if (!probe)
		return 0;
	fclose(probe);
	struct rs_ledger l;
	char err[512];
	if (rs_ledger_read(ledger_tsv, &l, err, sizeof(err)) != 0) {
		size_t len = strlen(s->note);
		snprintf(s->note + len, sizeof(s->note) - len, "%s%s", len ? "; " : "", err);
		return -1;
	}
	for (size_t i = 0; i < s->nfindings; i++) {
		const struct rs_ledger_row *row = rs_ledger_find(&l, s->findings[i].id);
		if (row && strcmp(row->basis, "-") != 0) {
			free(s->findings[i].basis);
			s->findings[i].basis = dup(row->basis);
		}
	}
	rs_ledger_free(&l);
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

/* ---- the findings ledger ------------------------------------------------- */

static const char *const class_names[RS_NCLASSES] = { "prediction", "calibration",
						       "configuration", "not testable" };

const char *rs_class_name(enum rs_finding_class c)
{
	RS_ASSERT(c < RS_NCLASSES);
	return class_names[c];
}

static int class_parse(const char *s, enum rs_finding_class *c)
{
	for (int i = 0; i < RS_NCLASSES; i++)
		if (strcmp(s, class_names[i]) == 0) {
			*c = (enum rs_finding_class)i;
			return 0;
		}
	return -1;
}

int rs_status_class(const char *status, enum rs_finding_class *c)
{
	if (strcmp(status, "reproduced") == 0 || strcmp(status, "not reproduced") == 0) {
		*c = RS_CLASS_PREDICTION;
		return 0;
	}
	if (strcmp(status, "prediction") == 0)
		return -1;              /* a prediction's status is its verdict */
	return class_parse(status, c);
}

const char *rs_finding_status(enum rs_finding_class c, unsigned held, unsigned seeds)
{
	if (c != RS_CLASS_PREDICTION)
		return rs_class_name(c);
	return seeds > 0 && held == seeds ? "reproduced" : "not reproduced";
}

void rs_class_counts_add(struct rs_class_counts *c, const char *status)
{
	enum rs_finding_class k;
	if (rs_status_class(status, &k) != 0)
		k = RS_CLASS_PREDICTION;
	c->n[k]++;
	if (strcmp(status, "reproduced") == 0)
		c->reproduced++;
}

void rs_class_counts_line(char *buf, size_t n, const char *label,
			  const struct rs_class_counts *c)
{
	int used = snprintf(buf, n, "%s: %zu of %zu predictions reproduced", label, c->reproduced,
			    c->n[RS_CLASS_PREDICTION]);
	for (int k = RS_CLASS_PREDICTION + 1; k < RS_NCLASSES && used >= 0 && (size_t)used < n;
	     k++)
		if (c->n[k])
			used += snprintf(buf + used, n - (size_t)used, "; %zu %s", c->n[k],
					 class_names[k]);
}

void rs_ledger_free(struct rs_ledger *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->rows[i].id), free(l->rows[i].basis), free(l->rows[i].why);
	free(l->rows);
	l->rows = NULL;
	l->n = 0;
}

const struct rs_ledger_row *rs_ledger_find(const struct rs_ledger *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->rows[i].id, id) == 0)
			return &l->rows[i];
	return NULL;
}

int rs_ledger_read(const char *path, struct rs_ledger *l, char *err, size_t errn)
{
	memset(l, 0, sizeof(*l));
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errn, "%s: cannot read the findings ledger", path);
		return -1;
	}
	char line[8192];
	int lineno = 0, rc = 0;
	bool header = true;
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errn, "%s:%d: line longer than %zu bytes", path, lineno,
				 sizeof(line) - 2);
			rc = -1;
			break;
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		char *c[6];
		split_tabs(line, c, 6);
		if (header) {
			header = false;
			if (strcmp(c[0], "id") == 0)
				continue;
		}
		enum rs_finding_class k;
		char *end;
		unsigned long seeds = strtoul(c[3], &end, 10);
		if (!*c[0] || strchr(c[0], ' ')) {
			snprintf(err, errn, "%s:%d: expected a finding id in the first column",
				 path, lineno);
			rc = -1;
		} else if (rs_ledger_find(l, c[0])) {
			snprintf(err, errn, "%s:%d: %s is listed twice", path, lineno, c[0]);
			rc = -1;
		} else if (class_parse(c[1], &k) != 0) {
			snprintf(err, errn, "%s:%d: expected a class (prediction, calibration, "
				 "configuration or not testable), got '%s'", path, lineno, c[1]);
			rc = -1;
		} else if (strcmp(c[2], "holds") != 0 && strcmp(c[2], "fails") != 0) {
			snprintf(err, errn, "%s:%d: expected 'holds' or 'fails', got '%s'", path,
				 lineno, c[2]);
			rc = -1;
		} else if (*end || end == c[3] || seeds < RS_LEDGER_MIN_SEEDS ||
			   seeds > RS_LEDGER_MAX_SEEDS) {
			snprintf(err, errn, "%s:%d: expected a number of seeds from %d to %d, got "
				 "'%s'", path, lineno, RS_LEDGER_MIN_SEEDS, RS_LEDGER_MAX_SEEDS,
				 c[3]);
			rc = -1;
		} else if (!*c[4] || !*c[5]) {
			snprintf(err, errn, "%s:%d: expected a basis and a reason (columns 5 and "
				 "6; '-' when there is nothing to say)", path, lineno);
			rc = -1;
		} else if (k != RS_CLASS_PREDICTION && strcmp(c[4], "-") == 0) {
			snprintf(err, errn, "%s:%d: a %s must name its basis (column 5)", path,
				 lineno, class_names[k]);
			rc = -1;
		}
		if (rc)
			break;
		l->rows = realloc(l->rows, (l->n + 1) * sizeof(*l->rows));
		RS_ASSERT(l->rows != NULL);
		struct rs_ledger_row *r = &l->rows[l->n++];
		r->id = dup(c[0]);
		r->cls = k;
		r->expect_holds = strcmp(c[2], "holds") == 0;
		r->seeds = (unsigned)seeds;
		r->basis = dup(c[4]);
		r->why = dup(c[5]);
	}
	fclose(f);
	if (rc == 0 && l->n == 0) {
		snprintf(err, errn, "%s: no findings", path);
		rc = -1;
	}
	if (rc)
		rs_ledger_free(l);
	return rc;
}
