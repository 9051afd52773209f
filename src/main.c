/* raidsim: the command line.  The only place that prints usage and exits.
 * Exit status: 0 ok, 1 runtime failure, 2 bad input (scenario, model or
 * command line). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "config/diag.h"
#include "config/emit.h"
#include "config/limits.h"
#include "config/models.h"
#include "config/node.h"
#include "config/schema.h"
#include "config/units.h"
#include "dev/bus.h"
#include "dev/dev.h"
#include "import/dsim_hdd.h"
#include "load/fio_load.h"
#include "load/fio_scenario.h"
#include "load/iometer_specs.h"
#include "load/load.h"
#include "run/replot.h"
#include "run/repeats.h"
#include "run/reproduce.h"
#include "run/runner.h"
#include "run/scenario.h"
#include "run/shard.h"
#include "run/summary.h"
#include "tree/tree.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

static const char usage_main[] =
	"Usage: raidsim COMMAND [OPTIONS]\n"
	"\n"
	"A discrete-event simulator of storage: disks, SSDs, RAID controllers and\n"
	"iSCSI networks.\n"
	"\n"
	"Commands:\n"
	"  run SCENARIO      run a scenario file (every point of its sweep) and write\n"
	"                    a TSV table, JSON, a gnuplot script and optionally a PNG\n"
	"  run JOB.fio --device MODEL\n"
	"                    run a fio job file on a device model\n"
	"  merge SHARD...    join the shard files of a sweep split with --shard\n"
	"  plot DIR          draw the figures of a finished run in DIR again from\n"
	"                    its files (NAME.gp and NAME.png), without simulating\n"
	"  reproduce         run every study, decide its findings and write a page\n"
	"                    with the figures and findings (index.html)\n"
	"  models            list the models found on the model path ('models show\n"
	"                    NAME': one model with every default filled in)\n"
	"  import disksim SETUP.parv\n"
	"                    write a drive model from a DiskSim 4.0 set-up\n"
	"  help [COMMAND]    show help for a command ('help limits': the caps\n"
	"                    on what one run may ask for)\n"
	"\n"
	"Options:\n"
	"  -h, --help        show this help\n"
	"  -V, --version     show the version\n"
	"\n"
	"Exit status: 0 success, 1 runtime failure, 2 bad input.\n"
	"See 'raidsim help run' for scenario options, and 'raidsim models --types'\n"
	"for the device and workload types (iometer, trace, filecopy, cdm, atto,\n"
	"fio).  'man raidsim' has every command.\n";

static const char usage_run[] =
	"Usage: raidsim run SCENARIO [OPTIONS]\n"
	"       raidsim run JOB.fio --device MODEL [OPTIONS]\n"
	"\n"
	"Run every point of SCENARIO's sweep and write DIR/NAME.tsv, NAME.json and\n"
	"NAME.gp (and NAME.png with --plot).  Output is byte-identical for the same\n"
	"scenario and seed, whatever --jobs is.  A fio job file (NAME.fio) runs as\n"
	"the workload of a scenario of its own on the device model --device names\n"
	"(found as -M describes; --set device.KEY=V changes the model's values).\n"
	"\n"
	"Options:\n"
	"  -o, --output DIR   where to write results (default: out/SCENARIO-NAME)\n"
	"      --seed N       seed of all random streams (same as --set seed=N)\n"
	"      --device MODEL the device a fio job file runs on\n"
	"      --repeat N     run every point at N seeds (the seed, seed+1, ...,\n"
	"                     1 <= N <= 1000) and write each result column as the\n"
	"                     mean, followed by COLUMN_ci95 (half-width of its 95%\n"
	"                     confidence interval), and a column 'repeats'\n"
	"  -s, --set PATH=V   set any scenario value by its dotted path, e.g.\n"
	"                     --set workload.iometer.outstanding=16; pins a swept path\n"
	"  -p, --plot         render the PNG with gnuplot (if installed)\n"
	"  -j, --jobs N       run points in N processes (default: number of cores)\n"
	"  -r, --resume       keep the points an interrupted run of the same\n"
	"                     scenario saved in DIR and run only the others\n"
	"      --shard K/N    run points K, K+N, K+2N, ... only and write\n"
	"                     DIR/NAME.shard-K-of-N.tsv for 'raidsim merge'\n"
	"  -M, --models DIR   search DIR for models (repeatable), after the scenario's\n"
	"                     own folder and its models/ folder; then $RAIDSIM_MODELS\n"
	"                     (colon-separated), the models of the build tree this\n"
	"                     binary runs from, then the installed models\n"
	"      --limit NAME=V raise or lower one cap on what a scenario may ask\n"
	"                     for (repeatable; see 'raidsim help limits')\n"
	"  -q, --quiet        print nothing on success\n"
	"      --output-format LIST\n"
	"                     print on stdout after the run, LIST comma-separated:\n"
	"                     normal (per point, or the best and worst points: IOPS,\n"
	"                     MB/s, mean and p99 latency, what limited it; the\n"
	"                     default when stdout is a terminal and not -q), terse\n"
	"                     (one line per point: raidsim;1;NAME;POINT;AXIS=V,...;\n"
	"                     iops;mb_s;lat_mean_ms;lat_p99_ms;limited_by), tsv, json\n"
	"  -h, --help         show this help\n"
	"\n"
	"Each point is saved in DIR/NAME.points/ as soon as it is done; the result\n"
	"files are written aside and replace the earlier ones all together once\n"
	"every one is complete.  One run at a time writes NAME in DIR (a second\n"
	"one fails at once; DIR/NAME.lock is held meanwhile).\n"
	"\n"
	"Ctrl-C lets the running points finish, then stops with status 130; a\n"
	"second Ctrl-C, or SIGTERM (sent by timeout and batch schedulers at a time\n"
	"limit), stops at once: the running points are killed and dropped, the\n"
	"finished ones stay saved, and the status is 130 or 143.  Either way\n"
	"--resume finishes the run.  A progress line (points done, rate, time\n"
	"left) is shown on stderr when it is a terminal.\n";

static const char usage_merge[] =
	"Usage: raidsim merge [-o DIR] [--plot] [-q] [--limit NAME=V] SHARD...\n"
	"\n"
	"Join the shard files written by 'raidsim run SCENARIO --shard K/N' for\n"
	"K = 0..N-1 into DIR/NAME.tsv, NAME.json and NAME.gp (and NAME.png with\n"
	"--plot), the same bytes one run of the whole sweep writes.  DIR defaults\n"
	"to the first shard's folder.  Refuses (status 2, FILE:LINE:COLUMN) shards\n"
	"of different sweeps, a missing or duplicated shard, missing or repeated\n"
	"points, a NAME that is not a plain file name, counts out of bounds (the\n"
	"point count is capped by sweep_points, see 'raidsim help limits') and\n"
	"lines longer than 64 KiB.  Writes nothing until every shard is read.\n";

static const char usage_plot[] =
	"Usage: raidsim plot [-q] DIR\n"
	"\n"
	"Draw the figure of every result set in DIR (a NAME.json written by\n"
	"'raidsim run' or 'merge' beside its NAME.tsv) again: NAME.gp is rewritten\n"
	"from the table and the JSON's plot settings, and NAME.png rendered when\n"
	"gnuplot is installed.  Nothing is simulated.  A DIR that holds no run's\n"
	"output is refused with status 2.\n"
	"\n"
	"Options:\n"
	"  -q, --quiet        print nothing on success\n"
	"  -h, --help         show this help\n";

static const char usage_reproduce[] =
	"Usage: raidsim reproduce [-o DIR] [-j N] [--study NAME]...\n"
	"\n"
	"Run every study listed in scenarios/studies.list: its run.sh (tables and\n"
	"figures into DIR/NAME/) and its validation program from the build tree\n"
	"(the findings, written to DIR/NAME/findings*.tsv exactly as under 'make\n"
	"check'); then write DIR/index.html with each study's figures, captions\n"
	"and findings table.  'make reproduce' builds what is needed and runs this.\n"
	"A study's own numbers (FOLDER/measured.tsv) are checked against its\n"
	"scenarios before anything runs, then compared with the simulated tables:\n"
	"the page and DIR/NAME/errors.tsv give each one's error.\n"
	"\n"
	"Options:\n"
	"  -o, --output DIR   where to write (default: out/reproduce)\n"
	"  -j, --jobs N       processes per study (default: number of cores)\n"
	"      --study NAME   only this study (repeatable)\n"
	"      --srcdir DIR   the source tree (default: found from this binary)\n"
	"      --builddir DIR the build tree with tests/validation/ (same)\n"
	"      --studies FILE the study list (default: SRCDIR/scenarios/studies.list)\n"
	"      --rerun-validation  run the validation programs even when 'make check'\n"
	"                     has left their results (check_X.trs, findings-X.tsv)\n"
	"                     newer than the program; by default those are shown\n"
	"  -q, --quiet        print nothing but errors\n"
	"\n"
	"Exit status 1 when a study's script or validation program failed, or a\n"
	"number of measured.tsv has no simulated value (the page is still written\n"
	"and says which); 2 on a bad study list, option or measured.tsv.\n";

static const char usage_models[] =
	"Usage: raidsim models [-M DIR]... [--types]\n"
	"       raidsim models [-M DIR]... show NAME\n"
	"\n"
	"List every model on the model path, one line each: name, device type,\n"
	"description and file.  With --types, list the device types, workload\n"
	"types and named IOMeter access specs instead.  'show NAME' prints the\n"
	"model NAME (or a model file, ./my-disk.yaml) as a scenario would get it:\n"
	"the models it is based on laid under it and every default filled in.\n"
	"\n"
	"The model path: each -M DIR, $RAIDSIM_MODELS (colon-separated), the\n"
	"models of the build tree this binary runs from, then the installed ones.\n"
	"A scenario's own folder and its models/ folder come first for 'run'.\n";

static const char usage_import[] =
	"Usage: raidsim import disksim SETUP.parv [-o OUT.yaml]\n"
	"\n"
	"Write a raidsim hdd model (YAML) from a DiskSim 4.0 set-up: the .parv file\n"
	"and the .diskspecs, .model and .seek files it loads, which must lie in its\n"
	"folder or below.  Every value carries a comment naming the file:line it\n"
	"comes from.  A parameter raidsim cannot express is refused with\n"
	"FILE:LINE:COLUMN (status 2) and nothing is written; parameters that cannot\n"
	"change a drive's timing (statistics, the synthetic workload) are listed at\n"
	"the end as ignored, with the reason.\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE  write the model there (default: standard output)\n"
	"      --limit NAME=V raise or lower a cap (model_depth bounds 'source' nesting)\n";

/* The caps on one run, with their defaults. */
static void print_limits(void)
{
	char table[2048];
	rs_limits_describe(table, sizeof(table));
	fputs("Caps on what one run may ask for.  Scenario, model and trace files come\n"
	      "from other people; a file that asks for more than a cap is refused with a\n"
	      "message naming it.  Only the command line can change a cap:\n"
	      "  raidsim run SCENARIO --limit NAME=VALUE\n"
	      "\n"
	      "  NAME              DEFAULT   bounds\n",
	      stdout);
	fputs(table, stdout);
}

static int cmd_help(int argc, char **argv)
{
	const char *topic = argc > 1 ? argv[1] : NULL;
	if (!topic)
		fputs(usage_main, stdout);
	else if (strcmp(topic, "run") == 0)
		fputs(usage_run, stdout);
	else if (strcmp(topic, "reproduce") == 0)
		fputs(usage_reproduce, stdout);
	else if (strcmp(topic, "merge") == 0)
		fputs(usage_merge, stdout);
	else if (strcmp(topic, "models") == 0)
		fputs(usage_models, stdout);
	else if (strcmp(topic, "import") == 0)
		fputs(usage_import, stdout);
	else if (strcmp(topic, "limits") == 0)
		print_limits();
	else if (strcmp(topic, "plot") == 0)
		fputs(usage_plot, stdout);
	else {
		fprintf(stderr, "raidsim: no help for '%s'\n", topic);
		return EXIT_BAD_INPUT;
	}
	return 0;
}

/* Without --output-format: the human summary, for a person at a
 * terminal only, so scripts and pipes see what they always saw. */
static unsigned default_output_format(bool quiet)
{
	return !quiet && isatty(STDOUT_FILENO) ? RS_FMT_NORMAL : 0;
}

static int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ .name = "output", .has_arg = required_argument, .val = 'o' },
		{ .name = "seed", .has_arg = required_argument, .val = 'S' },
		{ .name = "set", .has_arg = required_argument, .val = 's' },
		{ .name = "plot", .has_arg = no_argument, .val = 'p' },
		{ .name = "jobs", .has_arg = required_argument, .val = 'j' },
		{ .name = "models", .has_arg = required_argument, .val = 'M' },
		{ .name = "quiet", .has_arg = no_argument, .val = 'q' },
		{ .name = "resume", .has_arg = no_argument, .val = 'r' },
		{ .name = "shard", .has_arg = required_argument, .val = 'K' },
		{ .name = "repeat", .has_arg = required_argument, .val = 'R' },
		{ .name = "limit", .has_arg = required_argument, .val = 'L' },
		{ .name = "device", .has_arg = required_argument, .val = 'D' },
		{ .name = "output-format", .has_arg = required_argument, .val = 'F' },
		{ .name = "help", .has_arg = no_argument, .val = 'h' },
		{ 0 },
	};
	struct rs_run_opts o = { .jobs = 0 };
	const char *device = NULL;
	char fio_yaml[4096] = "";
	bool formats_given = false;
	unsigned repeat = 1;
	char why[256];
	const char *out_dir = NULL;
	struct rs_assignment sets[256];
	size_t nsets = 0;
	char *model_dirs[64];
	size_t ndirs = 0;
	struct rs_diag d;
	rs_diag_init(&d);
	int c, status = EXIT_BAD_INPUT;
	char seed_arg[128];
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:s:pj:M:qrh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_dir = optarg;
			break;
		case 'S':
			snprintf(seed_arg, sizeof(seed_arg), "seed=%s", optarg);
			optarg = seed_arg;
			/* fall through */
		case 's':
			if (nsets == sizeof(sets) / sizeof(sets[0])) {
				fprintf(stderr, "raidsim: too many --set options\n");
				goto out;
			}
			if (rs_node_parse_assignment(optarg, &sets[nsets].path, &sets[nsets].value,
						     &d) != 0) {
				rs_diag_print(&d, stderr);
				goto out;
			}
			nsets++;
			break;
		case 'p':
			o.plot = true;
			break;
		case 'j':
			if (cli_parse_jobs(optarg, &o.jobs) != 0)
				goto out;
			break;
		case 'M':
			if (ndirs < 64)
				model_dirs[ndirs++] = optarg;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'r':
			o.resume = true;
			break;
		case 'L':
			if (rs_limits_set(optarg, why, sizeof(why)) != 0) {
				fprintf(stderr, "raidsim: %s\n", why);
				goto out;
			}
			break;
		case 'R':
			if (cli_parse_repeat(optarg, &repeat) != 0)
				goto out;
			break;
		case 'D':
			device = optarg;
			break;
		case 'F':
			if (cli_parse_output_format(optarg, &o.formats) != 0)
				goto out;
			formats_given = true;
			break;
		case 'K':
			if (rs_shard_parse(optarg, &o.shard_k, &o.shard_n) != 0) {
				fprintf(stderr, "raidsim: --shard expects K/N with 0 <= K < N, "
						"got '%s'\n", optarg);
				goto out;
			}
			break;
		case 'h':
			fputs(usage_run, stdout);
			status = 0;
			goto out;
		default:
			fputs("Try 'raidsim help run'.\n", stderr);
			goto out;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "raidsim: run expects exactly one scenario file\n"
				"Try 'raidsim help run'.\n");
		goto out;
	}
	rs_fio_quiet(o.quiet);
	const char *scenario = argv[optind];
	if (rs_fio_is_job_file(scenario) != (device != NULL)) {
		fprintf(stderr, device ? "raidsim: --device applies to a fio job file (NAME.fio); "
					 "a scenario names its device itself\n"
				       : "raidsim: a fio job file runs on the device "
					 "--device MODEL names\n");
		fputs("Try 'raidsim help run'.\n", stderr);
		goto out;
	}
	if (device) {
		/* The device comes first, so --set device.KEY=V can change it. */
		if (nsets == sizeof(sets) / sizeof(sets[0])) {
			fprintf(stderr, "raidsim: too many --set options\n");
			goto out;
		}
		memmove(sets + 1, sets, nsets * sizeof(sets[0]));
		nsets++;
		sets[0].path = strdup("device.model");
		sets[0].value = rs_node_new_scalar("--device", 1, 1, device);
		if (rs_fio_scenario_write(scenario, fio_yaml, sizeof(fio_yaml), why,
					  sizeof(why)) != 0) {
			fprintf(stderr, "raidsim: %s\n", why);
			goto out;
		}
		scenario = fio_yaml;
	}
	struct rs_model_path mp;
	if (cli_setup_models(&mp, model_dirs, ndirs) != 0)
		goto out;
	rs_model_path_set_scenario(&mp, argv[optind]);
	struct rs_scenario sc;
	if (rs_scenario_load_repeat(&sc, scenario, sets, nsets, &mp, repeat, &d) != 0) {
		rs_diag_print(&d, stderr);
		rs_scenario_free(&sc);
		rs_model_path_free(&mp);
		goto out;
	}
	char default_dir[4096];
	if (!out_dir) {
		snprintf(default_dir, sizeof(default_dir), "out/%s", sc.name);
		out_dir = default_dir;
	}
	o.out_dir = out_dir;
	if (o.jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		o.jobs = n > 0 ? (unsigned)n : 1;
	}
	o.progress = !o.quiet && isatty(STDERR_FILENO);
	if (!formats_given)
		o.formats = default_output_format(o.quiet);
	status = rs_runner_run(&sc, &o);
	rs_scenario_free(&sc);
	rs_model_path_free(&mp);
out:
	if (fio_yaml[0])
		rs_fio_scenario_remove(fio_yaml);
	for (size_t i = 0; i < nsets; i++) {
		free(sets[i].path);
		rs_node_free(sets[i].value);
	}
	return status;
}

static int cmd_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ .name = "quiet", .has_arg = no_argument, .val = 'q' },
		{ .name = "help", .has_arg = no_argument, .val = 'h' },
		{ 0 },
	};
	bool quiet = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(usage_plot, stdout);
			return 0;
		default:
			fputs("Try 'raidsim help plot'.\n", stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		fputs("raidsim: plot expects exactly one folder (a run's output)\n"
		      "Try 'raidsim help plot'.\n", stderr);
		return EXIT_BAD_INPUT;
	}
	return rs_replot(argv[optind], quiet);
}

static int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ .name = "output", .has_arg = required_argument, .val = 'o' },
		{ .name = "plot", .has_arg = no_argument, .val = 'p' },
		{ .name = "quiet", .has_arg = no_argument, .val = 'q' },
		{ .name = "limit", .has_arg = required_argument, .val = 'L' },
		{ .name = "help", .has_arg = no_argument, .val = 'h' },
		{ 0 },
	};
	const char *out_dir = NULL;
	bool plot = false, quiet = false;
	char why[256];
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:pqh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_dir = optarg;
			break;
		case 'p':
			plot = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'L':
			if (rs_limits_set(optarg, why, sizeof(why)) != 0) {
				fprintf(stderr, "raidsim: %s\n", why);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'h':
			fputs(usage_merge, stdout);
			return 0;
		default:
			fputs("Try 'raidsim help merge'.\n", stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind >= argc) {
		fputs("raidsim: merge expects the shard files\nTry 'raidsim help merge'.\n",
		      stderr);
		return EXIT_BAD_INPUT;
	}
	return rs_shard_merge(argv + optind, (size_t)(argc - optind), out_dir, plot, quiet);
}

/* The tree this binary was built in: the binary is BUILDDIR/src/raidsim.
 * The source tree is the build tree, or the abs_top_srcdir its Makefile
 * names (a VPATH build). */
static void find_trees(char *build, size_t nb, char *src, size_t ns, char *self, size_t nself)
{
	ssize_t len = readlink("/proc/self/exe", self, nself - 1);
	self[len > 0 ? len : 0] = '\0';
	snprintf(build, nb, ".");
	snprintf(src, ns, ".");
	char *slash = strrchr(self, '/');
	if (len <= 0 || !slash)
		return;
	snprintf(build, nb, "%.*s/..", (int)(slash - self), self);
	snprintf(src, ns, "%s", build);
	/* Installed: the studies and models are the installed data, and
	 * there are no validation programs (the studies run without
	 * findings). */
	const char *data = cli_installed_data();
	if (data) {
		snprintf(src, ns, "%s", data);
		snprintf(build, nb, "%s", data);
		return;
	}
	char mk[PATH_MAX + 16], line[PATH_MAX + 64];
	snprintf(mk, sizeof(mk), "%.*s/Makefile", PATH_MAX, build);
	FILE *f = fopen(mk, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "abs_top_srcdir = ", 17) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(src, ns, "%.*s", (int)(ns - 1), line + 17);
			break;
		}
	}
	if (f)
		fclose(f);
}

static int cmd_reproduce(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ .name = "output", .has_arg = required_argument, .val = 'o' },
		{ .name = "jobs", .has_arg = required_argument, .val = 'j' },
		{ .name = "study", .has_arg = required_argument, .val = 'S' },
		{ .name = "srcdir", .has_arg = required_argument, .val = 's' },
		{ .name = "builddir", .has_arg = required_argument, .val = 'b' },
		{ .name = "studies", .has_arg = required_argument, .val = 'l' },
		{ .name = "rerun-validation", .has_arg = no_argument, .val = 'R' },
		{ .name = "quiet", .has_arg = no_argument, .val = 'q' },
		{ .name = "help", .has_arg = no_argument, .val = 'h' },
		{ 0 },
	};
	static char build[PATH_MAX], src[PATH_MAX], self[PATH_MAX], vdir[PATH_MAX + 32];
	const char *only[64];
	struct rs_reproduce_opts o = { .out_dir = "out/reproduce", .only = only };
	find_trees(build, sizeof(build), src, sizeof(src), self, sizeof(self));
	o.srcdir = src;
	o.builddir = build;
	o.raidsim = self;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.out_dir = optarg;
			break;
		case 'j':
			if (cli_parse_jobs(optarg, &o.jobs) != 0)
				return EXIT_BAD_INPUT;
			break;
		case 'S':
			if (o.nonly == 64) {
				fputs("raidsim: too many --study options\n", stderr);
				return EXIT_BAD_INPUT;
			}
			only[o.nonly++] = optarg;
			break;
		case 's':
			o.srcdir = optarg;
			break;
		case 'b':
			o.builddir = optarg;
			break;
		case 'l':
			o.manifest = optarg;
			break;
		case 'R':
			o.rerun_validation = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'h':
			fputs(usage_reproduce, stdout);
			return 0;
		default:
			fputs("Try 'raidsim help reproduce'.\n", stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc) {
		fputs("raidsim: reproduce takes no arguments\nTry 'raidsim help reproduce'.\n",
		      stderr);
		return EXIT_BAD_INPUT;
	}
	if (o.jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		o.jobs = n > 0 ? (unsigned)n : 1;
	}
	snprintf(vdir, sizeof(vdir), "%s/tests/validation", o.builddir);
	o.validation_dir = vdir;
	return rs_reproduce(&o);
}

static int print_model(const struct rs_model_info *m, void *arg)
{
	printf("%-28s %-10s %s  (%s)\n", m->name, m->type ? m->type : "?",
	       m->description ? m->description : "", m->path);
	++*(unsigned *)arg;
	return 0;
}

/* Marks the defaults show_model fills in, so they print with a comment. */
static const char default_file[] = "(default)";

/* `raidsim models show NAME`: the model as a scenario section naming it
 * gets it, with the defaults of its type's keys added.  (Sections inside
 * it, such as a controller's cache, are shown as written.) */
static int show_model(const struct rs_model_path *mp, const char *name, struct rs_diag *d)
{
	struct rs_node *section = rs_node_new_map("command line", 1, 1);
	rs_node_put(section, rs_node_new_scalar("command line", 1, 1, "model"),
		    rs_node_new_scalar("command line", 1, 1, name));
	struct rs_node *m = rs_model_resolve(mp, section, d);
	rs_node_free(section);
	if (!m)
		return -1;
	const struct rs_node *type = rs_node_get(m, "type");
	const struct rs_dev_type *t = type ? rs_dev_types_find(rs_tree_types(), type->str) : NULL;
	const struct rs_opt *opts = t ? t->opts : type && strcmp(type->str, "link") == 0 ?
		rs_bus_schema() : NULL;
	if (opts)
		rs_schema_fill_defaults(opts, m, rs_intern(default_file));
	rs_node_emit(m, stdout, rs_intern(default_file), "default");
	rs_node_free(m);
	return 0;
}

static int cmd_models(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ .name = "models", .has_arg = required_argument, .val = 'M' },
		{ .name = "types", .has_arg = no_argument, .val = 't' },
		{ .name = "help", .has_arg = no_argument, .val = 'h' },
		{ 0 },
	};
	char *model_dirs[64];
	size_t ndirs = 0;
	int c, types = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "M:th", longopts, NULL)) != -1) {
		switch (c) {
		case 'M':
			if (ndirs < 64)
				model_dirs[ndirs++] = optarg;
			break;
		case 't':
			types = 1;
			break;
		case 'h':
			fputs(usage_models, stdout);
			return 0;
		default:
			fputs("Try 'raidsim help models'.\n", stderr);
			return EXIT_BAD_INPUT;
		}
	}
	const char *show = NULL;
	if (optind < argc && strcmp(argv[optind], "show") == 0) {
		if (argc - optind != 2 || types) {
			fputs("raidsim: models show expects one model name\n"
			      "Try 'raidsim help models'.\n", stderr);
			return EXIT_BAD_INPUT;
		}
		show = argv[optind + 1];
	} else if (optind != argc) {
		fprintf(stderr, "raidsim: models takes no arguments but 'show NAME', got '%s'\n",
			argv[optind]);
		return EXIT_BAD_INPUT;
	}
	if (types) {
		printf("device types:\n");
		const struct rs_dev_types *all = rs_tree_types();
		for (size_t i = 0; i < all->ntypes; i++) {
			const struct rs_dev_type *t = all->types[i];
			printf("  %-10s %s\n", t->name, t->help);
			rs_schema_print(t->opts, stdout, "      ");
		}
		printf("workload types:\n");
		for (size_t i = 0; i < rs_load_type_count(); i++) {
			const struct rs_load_type *t = rs_load_type_at(i);
			printf("  %-10s %s\n", t->name, t->help);
			rs_schema_print(t->opts, stdout, "      ");
		}
		printf("IOMeter access specs:\n");
		for (size_t i = 0; i < rs_spec_count(); i++)
			printf("  %-12s %s\n", rs_spec_at(i)->name, rs_spec_at(i)->help);
		return 0;
	}
	struct rs_model_path mp;
	if (cli_setup_models(&mp, model_dirs, ndirs) != 0)
		return EXIT_BAD_INPUT;
	struct rs_diag d;
	rs_diag_init(&d);
	int rc;
	if (show) {
		rc = show_model(&mp, show, &d);
	} else {
		unsigned found = 0;
		rc = rs_model_list(&mp, print_model, &found, &d);
		if (rc == 0 && found == 0) {
			char looked[2048];
			rs_model_path_where(&mp, looked, sizeof(looked));
			fprintf(stderr, "raidsim: no models found; looked in %s (use -M DIR or set "
					"RAIDSIM_MODELS)\n", looked);
			rc = -1;
		}
	}
	if (rc != 0 && d.failed)
		rs_diag_print(&d, stderr);
	rs_model_path_free(&mp);
	return rc == 0 ? 0 : EXIT_BAD_INPUT;
}

/* The model goes to a hidden temporary beside OUT first, so a failed write
 * leaves no partial model under OUT's name. */
static int write_model(const char *parv, const char *out)
{
	struct rs_diag d;
	rs_diag_init(&d);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem) {
		perror("raidsim: open_memstream");
		return 1;
	}
	int rc = rs_import_disksim(parv, mem, &d);
	fclose(mem);
	if (rc != 0) {
		rs_diag_print(&d, stderr);
		free(buf);
		return EXIT_BAD_INPUT;
	}
	if (!out) {
		int ok = fwrite(buf, 1, len, stdout) == len && fflush(stdout) == 0;
		free(buf);
		if (!ok)
			perror("raidsim: writing the model");
		return ok ? 0 : 1;
	}
	size_t n = strlen(out) + 32;
	char *tmp = malloc(n);
	const char *slash = strrchr(out, '/');
	int dl = slash ? (int)(slash - out + 1) : 0;
	snprintf(tmp, n, "%.*s.%s.%ld.tmp", dl, out, slash ? slash + 1 : out, (long)getpid());
	FILE *f = fopen(tmp, "wb");
	int ok = f && fwrite(buf, 1, len, f) == len;
	ok = f && fclose(f) == 0 && ok;
	if (ok && rename(tmp, out) != 0)
		ok = 0;
	if (!ok) {
		fprintf(stderr, "raidsim: cannot write '%s': %s\n", out, strerror(errno));
		remove(tmp);
	}
	free(tmp);
	free(buf);
	return ok ? 0 : 1;
}

static int cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ .name = "output", .has_arg = required_argument, .val = 'o' },
		{ .name = "limit", .has_arg = required_argument, .val = 'L' },
		{ .name = "help", .has_arg = no_argument, .val = 'h' },
		{ 0 },
	};
	const char *out = NULL;
	char why[256];
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'L':
			if (rs_limits_set(optarg, why, sizeof(why)) != 0) {
				fprintf(stderr, "raidsim: --limit %s: %s\n", optarg, why);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'h':
			fputs(usage_import, stdout);
			return 0;
		default:
			fputs("Try 'raidsim help import'.\n", stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (argc - optind != 2 || strcmp(argv[optind], "disksim") != 0) {
		fputs("raidsim: import expects 'disksim SETUP.parv' (the one format it reads)\n"
		      "Try 'raidsim help import'.\n", stderr);
		return EXIT_BAD_INPUT;
	}
	return write_model(argv[optind + 1], out);
}

int main(int argc, char **argv)
{
	cli_find_moved_models();
	if (argc < 2) {
		fputs(usage_main, stderr);
		return EXIT_BAD_INPUT;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0)
		return cmd_help(1, argv);
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		printf("raidsim %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(cmd, "help") == 0)
		return cmd_help(argc - 1, argv + 1);
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(cmd, "reproduce") == 0)
		return cmd_reproduce(argc - 1, argv + 1);
	if (strcmp(cmd, "merge") == 0)
		return cmd_merge(argc - 1, argv + 1);
	if (strcmp(cmd, "plot") == 0)
		return cmd_plot(argc - 1, argv + 1);
	if (strcmp(cmd, "models") == 0)
		return cmd_models(argc - 1, argv + 1);
	if (strcmp(cmd, "import") == 0)
		return cmd_import(argc - 1, argv + 1);
	fprintf(stderr, "raidsim: unknown command '%s'\nTry 'raidsim --help'.\n", cmd);
	return EXIT_BAD_INPUT;
}
