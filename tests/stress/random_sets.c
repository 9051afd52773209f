/* random_sets: the shipped scenarios run with odd but plausible values.
 *
 * The fuzz targets load hostile files; this runs valid-looking ones to the
 * end.  Each run takes one shipped scenario, pins each swept axis to one of
 * its values, shortens the run (never lengthens it), and changes one to
 * four of the scenario's values or its models' values through --set: a
 * number scaled by zero, a tiny, a huge or a negative factor, a unit
 * swapped, an enumeration replaced by a value seen for the same key
 * elsewhere, a boolean flipped.  src/raidsim runs it under a time and
 * memory budget; it must end with status 0, with status 2 and a diagnostic,
 * or with status 1 and one of the documented runtime failures.  Anything
 * else (a signal, an assertion, another status 1, a time-out) fails the
 * test and prints the command line that reproduces it.  The same seed
 * gives the same runs in the same order. */
/* nftw and realpath. */
#define _XOPEN_SOURCE 700
#include "budget.h"
#include "plan.h"

#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- running and judging ------------------------------------------------- */

/* The documented runtime failures (README, "Runs that cannot finish"). */
static const char *const RUNTIME_FAILURES[] = {
	"simulated time does not advance",
	"simulated time overflows",
	"overloaded: ",
	"(cap requests=",
};

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t len = 0, cap = 4096;
	char *s = xrealloc(NULL, cap);
	if (f) {
		size_t n;
		while ((n = fread(s + len, 1, cap - len - 1, f)) > 0) {
			len += n;
			if (cap - len < 2)
				s = xrealloc(s, cap *= 2);
		}
		fclose(f);
	}
	s[len] = '\0';
	return s;
}

/* "FILE:LINE:COLUMN: error: ..." or "raidsim: ...". */
static bool is_diagnostic(const char *line)
{
	if (strncmp(line, "raidsim: ", 9) == 0)
		return true;
	const char *p = line;
	while (*p && *p != '\n')
		p++;
	const char *colon = strstr(line, ": error: ");
	if (!colon || colon > p)
		return false;
	/* FILE:LINE:COLUMN just before ": error: ". */
	const char *q = colon;
	for (int part = 0; part < 2; part++) {
		const char *digits_end = q;
		while (q > line && q[-1] >= '0' && q[-1] <= '9')
			q--;
		if (q == digits_end || q == line || q[-1] != ':')
			return false;
		q--;
	}
	return q > line;
}

/* NULL if the outcome is allowed, else what is wrong with it. */
static char *judge(const struct outcome *o, const char *err, double timeout, int *kind)
{
	bool internal = strstr(err, "internal error") != NULL;
	*kind = -1;
	if (!o->started)
		return xprintf("could not be started");
	if (o->timed_out)
		return xprintf("still running after %.0f s", timeout);
	if (o->signal)
		return xprintf("killed by signal %d (%s)", o->signal, strsignal(o->signal));
	if (internal)
		return xprintf("exit status %d with an internal error", o->status);
	/* A raidsim built with -fsanitize=address,undefined: UBSan goes on
	 * after its report, so the status alone would not tell. */
	if (strstr(err, "runtime error: ") || strstr(err, "Sanitizer"))
		return xprintf("exit status %d with a sanitizer report", o->status);
	switch (o->status) {
	case 0:
		*kind = 0;
		return NULL;
	case 2:
		if (!is_diagnostic(err))
			return xprintf("exit status 2 without a file:line:column or raidsim: "
				       "diagnostic");
		*kind = 2;
		return NULL;
	case 1:
		for (size_t i = 0; i < COUNT(RUNTIME_FAILURES); i++)
			if (strstr(err, RUNTIME_FAILURES[i])) {
				*kind = 1;
				return NULL;
			}
		return xprintf("exit status 1, not one of the documented runtime failures");
	default:
		return xprintf("exit status %d", o->status);
	}
}

/* A word as a shell reads it back. */
static void print_word(FILE *f, const char *w)
{
	bool plain = *w != '\0';
	for (const char *p = w; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./=:%+-,@", *p))
			plain = false;
	if (plain) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (const char *p = w; *p; p++)
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	fputc('\'', f);
}

static void print_command(FILE *f, const char *raidsim, const char *scenario,
			  const struct sets *s)
{
	print_word(f, raidsim);
	fputs(" run ", f);
	print_word(f, scenario);
	fputs(" -j 1", f);
	for (size_t i = 0; i < s->path.len; i++) {
		char *a = xprintf("%s=%s", s->path.v[i], s->value.v[i]);
		fputs(" --set ", f);
		print_word(f, a);
		free(a);
	}
	fputc('\n', f);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- the command line ---------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("Usage: random_sets [OPTIONS]\n"
	      "\n"
	      "Run the shipped scenarios (SRCDIR/scenarios/**/*.yaml) with their sweeps\n"
	      "pinned, their runs shortened and 1-4 scenario or model values changed\n"
	      "through --set, and fail on any run that does not end with status 0, with\n"
	      "status 2 and a diagnostic, or with status 1 and a documented runtime\n"
	      "failure; each failure prints the command line that reproduces it.\n"
	      "\n"
	      "Options:\n"
	      "      --seed N       the campaign's seed (default 1); the same seed gives\n"
	      "                     the same runs in the same order\n"
	      "      --runs N       stop after N runs (default 100, or no limit with\n"
	      "                     --seconds)\n"
	      "      --seconds S    stop starting runs after S seconds\n"
	      "      --list         print the runs' command lines, run nothing\n"
	      "      --srcdir DIR   the tree with scenarios/ and models/ (default\n"
	      "                     $top_srcdir, else .)\n"
	      "      --raidsim PATH the binary under test (default\n"
	      "                     $top_builddir/src/raidsim, else src/raidsim)\n"
	      "      --workdir DIR  where the runs write (default: a new folder in\n"
	      "                     $TMPDIR, removed at the end)\n"
	      "      --timeout S    a run still going after S seconds fails (default 30)\n"
	      "      --memory MIB   address space of a run (default 2048; 0 = no limit,\n"
	      "                     as a raidsim built with AddressSanitizer needs)\n"
	      "  -v, --verbose      one line per run\n"
	      "  -h, --help         show this help\n"
	      "\n"
	      "Exit status: 0 no failure, 1 a run failed, 99 the test could not run.\n", f);
}

struct options {
	unsigned long long seed;
	unsigned long runs;
	double seconds;
	bool list, verbose;
	const char *srcdir, *raidsim, *workdir;
	double timeout;
	unsigned long mib;
};

static bool parse_number(const char *s, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(s, &end);
	return *s && !*end && errno == 0 && *out >= 0 && isfinite(*out);
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "runs", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 'S' },
		{ "list", no_argument, NULL, 'l' },
		{ "srcdir", required_argument, NULL, 'd' },
		{ "raidsim", required_argument, NULL, 'r' },
		{ "workdir", required_argument, NULL, 'w' },
		{ "timeout", required_argument, NULL, 't' },
		{ "memory", required_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	bool runs_given = false;
	int ch;
	while ((ch = getopt_long(argc, argv, "vh", longs, NULL)) != -1) {
		double v;
		switch (ch) {
		case 's': case 'n': case 'S': case 't': case 'm':
			if (!parse_number(optarg, &v) ||
			    (ch != 'S' && ch != 't' && v != floor(v))) {
				fprintf(stderr, "random_sets: bad number '%s'\n", optarg);
				return -1;
			}
			if (ch == 's')
				o->seed = (unsigned long long)v;
			else if (ch == 'n')
				o->runs = (unsigned long)v, runs_given = true;
			else if (ch == 'S')
				o->seconds = v;
			else if (ch == 't')
				o->timeout = v;
			else
				o->mib = (unsigned long)v;
			break;
		case 'l': o->list = true; break;
		case 'd': o->srcdir = optarg; break;
		case 'r': o->raidsim = optarg; break;
		case 'w': o->workdir = optarg; break;
		case 'v': o->verbose = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "random_sets: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (!runs_given)
		o->runs = o->seconds > 0 ? (unsigned long)-1 : 100;
	return 0;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct options o = { .seed = 1, .timeout = 30, .mib = 2048 };
	if (parse_options(argc, argv, &o) != 0)
		return 99;
	char *raidsim_default = NULL;
	if (!o.srcdir)
		o.srcdir = getenv("top_srcdir") ? getenv("top_srcdir") : ".";
	if (!o.raidsim) {
		const char *b = getenv("top_builddir");
		raidsim_default = xprintf("%s/src/raidsim", b ? b : ".");
		o.raidsim = raidsim_default;
	}
	/* The child runs in the work folder: the binary by its absolute path. */
	char *raidsim = realpath(o.raidsim, NULL);
	char *srcdir = realpath(o.srcdir, NULL);
	if (!srcdir || (!o.list && (!raidsim || access(raidsim, X_OK) != 0))) {
		fprintf(stderr, "random_sets: %s: not found\n", !srcdir ? o.srcdir : o.raidsim);
		return 99;
	}
	struct corpus c = { 0 };
	if (load_corpus(&c, srcdir) != 0)
		return 99;

	char *work = NULL;
	bool own_work = false;
	if (!o.list) {
		if (o.workdir) {
			mkdir(o.workdir, 0755);
			work = realpath(o.workdir, NULL);
		} else {
			const char *t = getenv("TMPDIR");
			char *tmpl = xprintf("%s/random-sets.XXXXXX", t && *t ? t : "/tmp");
			work = mkdtemp(tmpl) ? tmpl : (free(tmpl), NULL);
			own_work = true;
		}
		if (!work) {
			fprintf(stderr, "random_sets: no work folder\n");
			return 99;
		}
		/* The models beside the scenarios, whatever the environment says. */
		char *models = xprintf("%s/models", srcdir);
		setenv("RAIDSIM_MODELS", models, 1);
		free(models);
	}
	char *out = work ? xprintf("%s/out", work) : NULL;
	char *err_path = work ? xprintf("%s/stderr", work) : NULL;
	struct budget b = { o.timeout, o.mib };
	unsigned long counts[3] = { 0 }, failures = 0, run;
	double start = now();
	for (run = 0; run < o.runs; run++) {
		if (o.seconds > 0 && now() - start >= o.seconds)
			break;
		struct sets s = { 0 };
		size_t which = plan_run(&c, o.seed, run, &s);
		const char *scenario = c.scenario_paths.v[which];
		if (o.list) {
			printf("%lu: ", run);
			print_command(stdout, "raidsim", scenario, &s);
			sets_free(&s);
			continue;
		}
		struct strs args = { 0 };
		strs_push(&args, xprintf("%s", raidsim));
		strs_push(&args, xprintf("run"));
		strs_push(&args, xprintf("%s", scenario));
		strs_push(&args, xprintf("-o"));
		strs_push(&args, xprintf("%s", out));
		strs_push(&args, xprintf("-j"));
		strs_push(&args, xprintf("1"));
		strs_push(&args, xprintf("-q"));
		for (size_t i = 0; i < s.path.len; i++) {
			strs_push(&args, xprintf("--set"));
			strs_push(&args, xprintf("%s=%s", s.path.v[i], s.value.v[i]));
		}
		remove_tree(out);
		struct outcome oc = budget_run(args.v, work, err_path, &b);
		char *err = read_file(err_path);
		int kind;
		char *why = judge(&oc, err, o.timeout, &kind);
		if (why) {
			failures++;
			printf("FAIL run %lu of seed %llu: %s after %.1f s\n", run, o.seed, why,
			       oc.seconds);
			if (*err) {
				/* Its last 2000 bytes, each line indented under the
				 * FAIL line it belongs to. */
				size_t n = strlen(err);
				const char *line = n > 2000 ? err + n - 2000 : err;
				fputs("  stderr:\n", stdout);
				while (*line) {
					size_t len = strcspn(line, "\n");
					printf("    %.*s\n", (int)len, line);
					line += len + (line[len] == '\n');
				}
			}
			printf("  reproduce: RAIDSIM_MODELS=%s/models ", srcdir);
			print_command(stdout, raidsim, scenario, &s);
			free(why);
		} else {
			counts[kind]++;
		}
		if (o.verbose)
			printf("run %lu: %s, %.2f s: %s", run,
			       why ? "FAIL" : kind == 0 ? "ran" : kind == 2 ? "refused" : "stopped",
			       oc.seconds, *err ? err : "\n");
		/* A long campaign says it is alive now and then. */
		if (o.seconds > 0 && !o.verbose && (run + 1) % 1000 == 0)
			printf("random_sets: %lu runs, %lu failed, %.0f s\n", run + 1, failures,
			       now() - start);
		fflush(stdout);
		free(err);
		strs_free(&args);
		sets_free(&s);
	}
	if (!o.list)
		printf("random_sets: seed %llu: %lu runs in %.0f s: %lu ran, %lu refused "
		       "(status 2), %lu stopped (status 1), %lu failed\n",
		       o.seed, run, now() - start, counts[0], counts[2], counts[1], failures);
	if (work) {
		remove_tree(out);
		remove(err_path);
		if (own_work)
			remove(work);
	}
	free(out);
	free(err_path);
	free(work);
	free(raidsim);
	free(srcdir);
	free(raidsim_default);
	free_corpus(&c);
	return failures ? 1 : 0;
}

