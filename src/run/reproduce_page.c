/* DIR/index.html: one self-contained page (inline style, images by
 * relative path, no script, nothing remote), so it works opened from disk
 * and copied elsewhere together with its folders. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/out.h"
#include "report/table.h"
#include "run/progress.h"
#include "run/study.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static const char style[] =
	"body{font-family:sans-serif;margin:2em auto;max-width:1400px;padding:0 1em;"
	"color:#222}\n"
	"h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}\n"
	"table{border-collapse:collapse;margin:1em 0}\n"
	"th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}\n"
	"th{background:#f0f0f0}\n"
	"td.num{text-align:right}\n"
	"td.yes{background:#dff0d8}td.no{background:#f8e0e0}td.other{background:#eeeeee}\n"
	".fig{display:flex;gap:1em;align-items:flex-start;margin:1em 0}\n"
	".fig img{max-width:75%;border:1px solid #ddd}\n"
	".fig p{max-width:25%;margin:0}\n"
	".note{color:#a00}\n";

/* "12 points: median 3.1 %, max 18.0 %", or nothing without numbers. */
static void put_error_summary(FILE *f, const struct rs_study *s)
{
	if (!s->has_measured)
		return;
	struct rs_measured_summary sum;
	rs_measured_summarize(&s->measured, &sum);
	fprintf(f, "%zu point%s", sum.n, sum.n == 1 ? "" : "s");
	if (sum.n)
		fprintf(f, ": median %.1f %%, max %.1f %%", 100 * sum.median_abs,
			100 * sum.max_abs);
	if (s->measured_missing)
		fprintf(f, " (%zu without a simulated value)", s->measured_missing);
}

/* The study's own numbers beside raidsim's, one row each (class "m", so
 * they are not taken for findings rows). */
static void put_measured(FILE *f, const struct rs_study *s)
{
	fputs("<h3>The study's own numbers against the simulation</h3>\n<p>", f);
	put_error_summary(f, s);
	fputs(".  Error = simulated / measured &minus; 1.  The same table: <a href=\"", f);
	esc(f, s->name);
	fputs("/errors.tsv\"><code>", f);
	esc(f, s->name);
	fputs("/errors.tsv</code></a>; the numbers and where in the study they are printed: "
	      "<code>", f);
	esc(f, s->folder);
	fputs("/measured.tsv</code>.</p>\n<table class=\"measured\">\n<tr><th>point (table, "
	      "point, metric)</th><th>measured</th><th>simulated</th><th>error</th>"
	      "<th>unit</th><th>where in the study</th></tr>\n", f);
	for (size_t i = 0; i < s->measured.n; i++) {
		const struct rs_measured_row *r = &s->measured.rows[i];
		char sim[32], err[32];
		fputs("<tr class=\"m\"><td>", f);
		esc(f, r->table_text);
		fputs("<br>", f);
		esc(f, r->point_text);
		fputs(" ", f);
		esc(f, r->metric_text);
		fputs("</td><td class=\"num\">", f);
		esc(f, r->value_text);
		fputs("</td>", f);
		if (r->have_sim) {
			rs_fmt_double(sim, sizeof(sim), r->sim);
			rs_measured_error_text(err, sizeof(err), r);
			bool up = err[0] != '-' && strcmp(err, "0.0") != 0;
			fprintf(f, "<td class=\"num\">%s</td><td class=\"num\">%s%s %%</td>", sim,
				up ? "+" : "", err);
		} else {
			fputs("<td colspan=\"2\" class=\"no\">", f);
			esc(f, r->why ? r->why : "not computed");
			fputs("</td>", f);
		}
		fputs("<td>", f);
		esc(f, r->unit);
		fputs("</td><td>", f);
		esc(f, r->source);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void put_summary(FILE *f, const struct rs_study *s, size_t n)
{
	fputs("<table class=\"summary\">\n<tr><th>study</th><th>predictions reproduced</th>"
	      "<th>run.sh</th><th>validation</th><th>findings by class</th>"
	      "<th>the study's numbers: median, max |error|</th></tr>\n", f);
	for (size_t i = 0; i < n; i++) {
		char a[32], b[32];
		fputs("<tr><td>", f);
		if (s[i].present) {
			fprintf(f, "<a href=\"#%s\">", s[i].name);
			esc(f, s[i].title);
			fputs("</a>", f);
		} else {
			esc(f, s[i].title);
		}
		if (!s[i].present) {
			fputs("</td><td colspan=\"3\">not in this source tree</td><td></td><td></td>"
			      "</tr>\n", f);
			continue;
		}
		rs_progress_duration(a, sizeof(a), s[i].run_s);
		rs_progress_duration(b, sizeof(b), s[i].validation_s);
		fprintf(f, "</td><td>%zu of %zu</td><td class=\"%s\">%s in %s</td>",
			s[i].counts.reproduced, s[i].counts.n[RS_CLASS_PREDICTION],
			s[i].ran_ok ? "yes" : "no",
			s[i].ran_ok ? "ran" : "FAILED", a);
		fprintf(f, "<td class=\"%s\">%s %s%s</td>",
			s[i].validation_ok ? "yes" : "no",
			!s[i].validation_ran ? "not run"
			: s[i].validation_ok ? "passed" : "FAILED",
			s[i].validation_reused ? "in the last make check" : "in ",
			s[i].validation_reused ? "" : b);
		char line[256];
		rs_class_counts_line(line, sizeof(line), s[i].label[0] ? s[i].label : s[i].name,
				     &s[i].counts);
		fputs("<td>", f);
		esc(f, line);
		fputs("</td><td>", f);
		put_error_summary(f, &s[i]);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void put_study(FILE *f, const struct rs_study *s)
{
	fprintf(f, "<section id=\"%s\">\n<h2>", s->name);
	esc(f, s->title);
	fputs("</h2>\n<p>Scenarios and script: <code>", f);
	esc(f, s->folder);
	if (strcmp(s->validation, RS_STUDY_NO_VALIDATION) == 0) {
		fputs("</code>.</p>\n", f);
	} else {
		fputs("</code>; findings decided by <code>tests/validation/", f);
		esc(f, s->validation);
		fputs("</code>.</p>\n", f);
	}
	if (s->note[0]) {
		fputs("<p class=\"note\">", f);
		esc(f, s->note);
		fputs("</p>\n", f);
	}
	for (size_t i = 0; i < s->nfigures; i++) {
		fputs("<div class=\"fig\"><img src=\"", f);
		esc(f, s->name);
		fputc('/', f);
		esc(f, s->figures[i].file);
		fputs("\" alt=\"", f);
		esc(f, s->figures[i].caption);
		fputs("\"><p>", f);
		esc(f, s->figures[i].caption);
		fputs("</p></div>\n", f);
	}
	fputs("<table class=\"findings\">\n<tr><th>id</th><th>what the study reports</th>"
	      "<th>what raidsim gives</th><th>verdict</th><th>class: what was set from the "
	      "study</th></tr>\n", f);
	for (size_t i = 0; i < s->nfindings; i++) {
		const struct rs_finding_row *r = &s->findings[i];
		bool yes = strcmp(r->status, "reproduced") == 0;
		bool no = strcmp(r->status, "not reproduced") == 0;
		enum rs_finding_class k;
		if (rs_status_class(r->status, &k) != 0)
			k = RS_CLASS_PREDICTION;
		fputs("<tr><td>", f);
		esc(f, r->id);
		fputs("</td><td>", f);
		esc(f, r->study);
		fputs("</td><td>", f);
		esc(f, r->measured);
		/* The status as the validation program wrote it: a prediction's
		 * verdict, or the class of a finding that cannot count. */
		fprintf(f, "</td><td class=\"%s\">", yes ? "yes" : no ? "no" : "other");
		esc(f, r->status);
		fputs("</td><td>", f);
		esc(f, rs_class_name(k));
		if (r->basis && r->basis[0]) {
			fputs(": ", f);
			esc(f, r->basis);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (s->has_measured)
		put_measured(f, s);
	fputs("</section>\n", f);
}

int rs_reproduce_page(const char *path, const struct rs_study *s, size_t n, unsigned jobs,
		      double total_s)
{
	struct rs_report_out o;
	struct rs_report_err err;
	if (rs_report_out_open(&o, path, &err) != 0) {
		fprintf(stderr, "raidsim: %s\n", err.msg);
		return -1;
	}
	FILE *f = o.f;
	char t[32];
	rs_progress_duration(t, sizeof(t), total_s);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<title>raidsim: the studies reproduced</title>\n<style>\n%s</style>\n"
		   "</head>\n<body>\n<h1>raidsim: the studies reproduced</h1>\n", style);
	fprintf(f, "<p>Written by <code>raidsim reproduce --jobs %u</code> (raidsim %s) in %s. "
		   "Each study's figures are drawn by its <code>run.sh</code> from raidsim's "
		   "tables; each finding is decided by the study's validation program, the "
		   "one <code>make check</code> runs, at several seeds, and the table below is what "
		   "that program wrote.  Only predictions count as reproduced: a finding whose "
		   "parameters were calibrated on its data, or whose setting was chosen from its "
		   "own words, is shown under its class (the study's <code>ledger.tsv</code>).</p>\n", jobs, PACKAGE_VERSION, t);
	put_summary(f, s, n);
	for (size_t i = 0; i < n; i++)
		if (s[i].present)
			put_study(f, &s[i]);
	fputs("</body>\n</html>\n", f);
	if (rs_report_out_commit(&o, &err) != 0) {
		fprintf(stderr, "raidsim: %s\n", err.msg);
		return -1;
	}
	return 0;
}
