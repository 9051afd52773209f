#include "run/reproduce.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config/diag.h"
#include "config/models.h"
#include "kernel/assert.h"
#include "run/progress.h"
#include "run/results.h"
#include "run/study.h"

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool is_file(const char *path, int mode)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, mode) == 0;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Start argv[0] with extra environment (NAME=VALUE strings, NULL-ended),
 * its output going to log.  Returns the pid or -1. */
static pid_t start(char *const argv[], const char *const env[], const char *log)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	for (size_t i = 0; env && env[i]; i++) {
		char name[256];
		size_t len = strcspn(env[i], "=");
		snprintf(name, sizeof(name), "%.*s", (int)len, env[i]);
		setenv(name, env[i][len] ? env[i] + len + 1 : "", 1);
	}
	FILE *f = freopen(log, "w", stdout);
	if (!f || dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
		_exit(127);
	execv(argv[0], argv);
	fprintf(stderr, "raidsim: reproduce: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The path of the study's folder: relative to the source tree unless
 * absolute. */
static void folder_path(char *buf, size_t n, const struct rs_reproduce_opts *o,
			const struct rs_study *s)
{
	if (s->folder[0] == '/')
		snprintf(buf, n, "%s", s->folder);
	else
		snprintf(buf, n, "%s/%s", o->srcdir, s->folder);
}

/* The validation program wrote findings*.tsv into its own build folder;
 * keep them beside the study's output as findings.tsv and read them. */
static void collect_findings(struct rs_study *s, const char *vroot, const char *study_dir)
{
	char dir[4400];
	snprintf(dir, sizeof(dir), "%.4300s/tests/validation", vroot);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "findings", 8) != 0 ||
		    strlen(e->d_name) < 12 || strcmp(e->d_name + strlen(e->d_name) - 4, ".tsv"))
			continue;
		char from[8800], to[4500];
		snprintf(from, sizeof(from), "%s/%s", dir, e->d_name);
		snprintf(to, sizeof(to), "%s/%s", study_dir, e->d_name);
		if (rename(from, to) == 0)
			rs_study_read_findings(s, to);
	}
	closedir(d);
}

static void drop_missing_figures(struct rs_study *s, const char *study_dir)
{
	size_t kept = 0;
	for (size_t i = 0; i < s->nfigures; i++) {
		char path[8600];
		snprintf(path, sizeof(path), "%s/%s", study_dir, s->figures[i].file);
		if (is_file(path, R_OK)) {
			s->figures[kept++] = s->figures[i];
			continue;
		}
		size_t len = strlen(s->note);
		snprintf(s->note + len, sizeof(s->note) - len, "%sfigure %s was not drawn",
			 len ? "; " : "", s->figures[i].file);
		free(s->figures[i].file);
		free(s->figures[i].caption);
	}
	s->nfigures = kept;
}

static bool newer_than(const char *path, const struct stat *than)
{
	struct stat st;
	return stat(path, &st) == 0 &&
	       (st.st_mtim.tv_sec > than->st_mtim.tv_sec ||
		(st.st_mtim.tv_sec == than->st_mtim.tv_sec &&
		 st.st_mtim.tv_nsec >= than->st_mtim.tv_nsec));
}

/* When `make check` has run this validation program since it was last
 * built, its verdicts are already in the build tree: check_X.trs (the
 * harness's PASS or FAIL) and findings-X.tsv.  Use them as they are --
 * they are the very results of the tests -- instead of running it again.
 * Returns true when they were taken. */
static bool reuse_check_results(struct rs_study *s, const struct rs_reproduce_opts *o,
				const char *prog, const char *study_dir)
{
	struct stat bin;
	const char *stem = strncmp(s->validation, "check_", 6) == 0 ? s->validation + 6 : NULL;
	if (!stem || stat(prog, &bin) != 0)
		return false;
	char trs[4400], tsv[4400], to[4500], line[256];
	snprintf(trs, sizeof(trs), "%s/%s.trs", o->validation_dir, s->validation);
	snprintf(tsv, sizeof(tsv), "%s/findings-%s.tsv", o->validation_dir, stem);
	if (!newer_than(trs, &bin) || !newer_than(tsv, &bin))
		return false;
	FILE *f = fopen(trs, "r");
	bool pass = false, known = false;
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, ":global-test-result: ", 21) == 0) {
			known = true;
			pass = strncmp(line + 21, "PASS", 4) == 0;
		}
	}
	if (f)
		fclose(f);
	if (!known)
		return false;
	/* Copy, not move: the build tree keeps its results. */
	snprintf(to, sizeof(to), "%s/findings-%s.tsv", study_dir, stem);
	FILE *in = fopen(tsv, "r"), *out = fopen(to, "w");
	int c;
	while (in && out && (c = fgetc(in)) != EOF)
		fputc(c, out);
	bool copied = in && out && !ferror(in);
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		copied = false;
	if (!copied)
		return false;
	rs_study_read_findings(s, to);
	s->validation_ran = true;
	s->validation_ok = pass;
	s->validation_reused = true;
	return true;
}

/* The study's own numbers against the tables run.sh wrote: the error
 * table beside them (errors.tsv) and on the page. */
static void compare_measured(struct rs_study *s, const char *study_dir)
{
	s->measured_missing = rs_measured_eval(&s->measured, study_dir);
	char errors[4300];
	snprintf(errors, sizeof(errors), "%s/errors.tsv", study_dir);
	size_t len = strlen(s->note);
	if (rs_measured_write_errors(&s->measured, errors) != 0)
		snprintf(s->note + len, sizeof(s->note) - len, "%scannot write %s/errors.tsv: %s",
			 len ? "; " : "", s->name, strerror(errno));
	else if (s->measured_missing)
		snprintf(s->note + len, sizeof(s->note) - len,
			 "%s%zu of the study's numbers have no simulated value (see %s/errors.tsv)",
			 len ? "; " : "", s->measured_missing, s->name);
}

/* Every study's FOLDER/measured.tsv, read and checked against its
 * scenarios before anything runs: a mistake there is bad input, not a
 * failed run.  0, or -1 with the diagnostic printed. */
static int read_measured(struct rs_study *all, size_t n, const struct rs_reproduce_opts *o)
{
	struct rs_model_path mp;
	struct rs_diag d;
	char models[4200];
	rs_model_path_init(&mp);
	rs_diag_init(&d);
	snprintf(models, sizeof(models), "%s/models", o->srcdir);
	int rc = 0;
	if (is_dir(models) && rs_model_path_add(&mp, models, &d) != 0)
		rc = -1;
	rs_model_path_add_defaults(&mp);
	for (size_t i = 0; i < n && rc == 0; i++) {
		char folder[4096], path[4200];
		folder_path(folder, sizeof(folder), o, &all[i]);
		snprintf(path, sizeof(path), "%s/measured.tsv", folder);
		if (!is_file(path, F_OK))
			continue;
		all[i].has_measured = true;
		if (rs_measured_read(path, &all[i].measured, &d) != 0 ||
		    rs_measured_check(&all[i].measured, folder, &mp, &d) != 0)
			rc = -1;
	}
	if (rc != 0)
		rs_diag_print(&d, stderr);
	rs_model_path_free(&mp);
	return rc;
}

static void run_study(struct rs_study *s, const struct rs_reproduce_opts *o)
{
	char folder[4096], script[4200], study_dir[4200], vroot[4300], vdir[4400];
	char prog[4400], runlog[4300], vlog[4300], jobs[16];
	folder_path(folder, sizeof(folder), o, s);
	snprintf(script, sizeof(script), "%s/run.sh", folder);
	snprintf(study_dir, sizeof(study_dir), "%s/%s", o->out_dir, s->name);
	snprintf(vroot, sizeof(vroot), "%s/.validation", study_dir);
	snprintf(vdir, sizeof(vdir), "%s/tests/validation", vroot);
	snprintf(prog, sizeof(prog), "%s/%s", o->validation_dir, s->validation);
	snprintf(runlog, sizeof(runlog), "%s/run.log", study_dir);
	snprintf(vlog, sizeof(vlog), "%s/validation.log", study_dir);
	snprintf(jobs, sizeof(jobs), "%u", o->jobs);
	if (rs_make_dir(vdir) != 0) {
		snprintf(s->note, sizeof(s->note), "cannot create %.300s: %s", vdir, strerror(errno));
		return;
	}

	/* The validation program writes under top_builddir and reads the
	 * models of top_srcdir, as under `make check`. */
	char e_src[4200], e_build[4400], e_models[4200], e_rs[4200];
	snprintf(e_src, sizeof(e_src), "top_srcdir=%s", o->srcdir);
	snprintf(e_build, sizeof(e_build), "top_builddir=%s", vroot);
	snprintf(e_models, sizeof(e_models), "RAIDSIM_MODELS=%s/models", o->srcdir);
	snprintf(e_rs, sizeof(e_rs), "RAIDSIM=%s", o->raidsim);
	const char *venv[] = { e_src, e_build, e_models, "CK_DEFAULT_TIMEOUT=600", NULL };
	char *vargv[] = { prog, NULL };
	const char *renv[] = { e_rs, NULL };
	char *rargv[] = { "/bin/sh", script, "-o", study_dir, "-j", jobs, NULL };

	bool simulation_only = strcmp(s->validation, RS_STUDY_NO_VALIDATION) == 0;
	bool have_prog = !simulation_only && is_file(prog, X_OK);
	bool reused = have_prog && !o->rerun_validation &&
		      reuse_check_results(s, o, prog, study_dir);
	if (reused)
		have_prog = false;        /* nothing to run */
	else if (simulation_only)
		snprintf(s->note, sizeof(s->note),
			 "a simulation study: no published measurements, so no findings");
	else if (!have_prog)
		snprintf(s->note, sizeof(s->note),
			 "%.300s is not built, so no findings: run 'make reproduce' (or 'make "
			 "check') in the build tree", prog);
	/* With two cores or more the validation program (one process) runs
	 * beside the study's script. */
	pid_t vpid = -1, rpid = -1;
	double t0 = now_s();
	if (have_prog && o->jobs >= 2)
		vpid = start(vargv, venv, vlog);
	rpid = start(rargv, renv, runlog);
	while (vpid > 0 || rpid > 0) {
		int st;
		pid_t p = wait(&st);
		if (p < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
		if (p == rpid) {
			s->run_s = now_s() - t0;
			s->ran_ok = ok;
			rpid = -1;
			if (have_prog && o->jobs < 2) {
				t0 = now_s();
				vpid = start(vargv, venv, vlog);
			}
		} else if (p == vpid) {
			s->validation_s = now_s() - t0;
			s->validation_ran = true;
			s->validation_ok = ok;
			vpid = -1;
		}
	}
	if (!s->ran_ok) {
		size_t len = strlen(s->note);
		snprintf(s->note + len, sizeof(s->note) - len, "%srun.sh failed: see %s/run.log",
			 len ? "; " : "", s->name);
	}
	if (s->validation_ran && !s->validation_ok) {
		size_t len = strlen(s->note);
		snprintf(s->note + len, sizeof(s->note) - len,
			 "%sthe validation program failed (a finding changed status, see "
			 "%s/validation.log)", len ? "; " : "", s->name);
	}
	if (!reused)
		collect_findings(s, vroot, study_dir);
	char captions[4300];
	snprintf(captions, sizeof(captions), "%s/figures.tsv", folder);
	rs_study_find_figures(s, captions, study_dir);
	drop_missing_figures(s, study_dir);
	char ledger[4300];
	snprintf(ledger, sizeof(ledger), "%s/ledger.tsv", folder);
	rs_study_read_ledger(s, ledger);
	if (s->has_measured)
		compare_measured(s, study_dir);
}

static bool wanted(const struct rs_reproduce_opts *o, const char *name)
{
	if (!o->nonly)
		return true;
	for (size_t i = 0; i < o->nonly; i++)
		if (strcmp(o->only[i], name) == 0)
			return true;
	return false;
}

int rs_reproduce(const struct rs_reproduce_opts *o)
{
	char manifest[4200];
	if (o->manifest)
		snprintf(manifest, sizeof(manifest), "%s", o->manifest);
	else
		snprintf(manifest, sizeof(manifest), "%s/scenarios/studies.list", o->srcdir);
	struct rs_study *all;
	size_t n;
	if (rs_studies_read(manifest, &all, &n) != 0) {
		rs_studies_free(all, n);
		return 2;
	}
	for (size_t i = 0; i < o->nonly; i++) {
		bool known = false;
		for (size_t j = 0; j < n; j++)
			known = known || strcmp(all[j].name, o->only[i]) == 0;
		if (!known) {
			fprintf(stderr, "raidsim: reproduce: no study '%s' in %s\n", o->only[i],
				manifest);
			rs_studies_free(all, n);
			return 2;
		}
	}
	/* Keep the chosen studies, in manifest order. */
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		if (wanted(o, all[i].name)) {
			struct rs_study tmp = all[kept];
			all[kept++] = all[i];
			all[i] = tmp;
		}
	}
	if (read_measured(all, kept, o) != 0) {
		rs_studies_free(all, n);
		return 2;
	}
	if (rs_make_dir(o->out_dir) != 0) {
		fprintf(stderr, "raidsim: cannot create '%s': %s\n", o->out_dir, strerror(errno));
		rs_studies_free(all, n);
		return 1;
	}
	int rc = 0;
	double t0 = now_s();
	for (size_t i = 0; i < kept; i++) {
		struct rs_study *s = &all[i];
		char folder[4096], script[4200];
		folder_path(folder, sizeof(folder), o, s);
		snprintf(script, sizeof(script), "%s/run.sh", folder);
		s->present = is_file(script, R_OK);
		if (!s->present) {
			if (!o->quiet)
				fprintf(stderr, "reproduce: %s: no %s in this tree, skipped\n", s->name,
					script);
			continue;
		}
		if (!o->quiet)
			fprintf(stderr, "reproduce: %s: running %s/run.sh (--jobs %u)...\n", s->name,
				s->folder, o->jobs);
		run_study(s, o);
		bool simulation_only = strcmp(s->validation, RS_STUDY_NO_VALIDATION) == 0;
		if (!s->ran_ok || (!s->validation_ok && !simulation_only) || s->measured_missing)
			rc = 1;
		if (!o->quiet) {
			char a[32], b[32];
			rs_progress_duration(a, sizeof(a), s->run_s);
			rs_progress_duration(b, sizeof(b), s->validation_s);
			char counts[256];
			rs_class_counts_line(counts, sizeof(counts),
					     s->label[0] ? s->label : s->name, &s->counts);
			fprintf(stderr, "reproduce: %s: run.sh %s in %s, validation %s %s%s, "
					"%zu figures; %s\n",
				s->name, s->ran_ok ? "ok" : "FAILED", a,
				!s->validation_ran ? "not run" : s->validation_ok ? "passed" : "FAILED",
				s->validation_reused ? "(results of make check)" : "in ",
				s->validation_reused ? "" : b, s->nfigures, counts);
			if (s->note[0])
				fprintf(stderr, "reproduce: %s: %s\n", s->name, s->note);
		}
	}
	char page[4200];
	snprintf(page, sizeof(page), "%s/index.html", o->out_dir);
	double total = now_s() - t0;
	if (rs_reproduce_page(page, all, kept, o->jobs, total) != 0)
		rc = 1;
	else if (!o->quiet) {
		char t[32];
		rs_progress_duration(t, sizeof(t), total);
		fprintf(stderr, "reproduce: all done in %s\n", t);
		printf("%s\n", page);
	}
	rs_studies_free(all, n);
	return rc;
}
