/* raidsim run: one scenario, or a fio job file on a device model, every
 * point of its sweep (run/runner.h).  The options fill the runner's
 * options and the --set assignments the scenario is loaded with. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "config/diag.h"
#include "config/limits.h"
#include "config/models.h"
#include "config/node.h"
#include "load/fio_load.h"
#include "load/fio_scenario.h"
#include "run/runner.h"
#include "run/scenario.h"
#include "run/shard.h"
#include "run/summary.h"

const char cli_usage_run[] =
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

/* Without --output-format: the human summary, for a person at a
 * terminal only, so scripts and pipes see what they always saw. */
static unsigned default_output_format(bool quiet)
{
	return !quiet && isatty(STDOUT_FILENO) ? RS_FMT_NORMAL : 0;
}

/* --set, --seed and --device assignments one run takes. */
#define MAX_SETS 256

/* Add an assignment to SETS at index AT (the others move up): PATH set to
 * VALUE, or to the parsed text of a --set when ORIGIN is NULL; a value
 * given as a word of its own (--seed, --device) is reported against
 * ORIGIN.  0, or an exit status with the message printed. */
static int add_set(struct rs_assignment *sets, size_t *nsets, size_t cap, size_t at,
		   const char *path, const char *origin, const char *value, struct rs_diag *d)
{
	if (*nsets == cap) {
		fprintf(stderr, "raidsim: too many --set options\n");
		return EXIT_BAD_INPUT;
	}
	struct rs_assignment a;
	if (!origin) {
		if (rs_node_parse_assignment(value, &a.path, &a.value, d) != 0) {
			rs_diag_print(d, stderr);
			return EXIT_BAD_INPUT;
		}
	} else {
		a.path = strdup(path);
		if (!a.path) {
			perror("raidsim");
			return EXIT_FAILURE;
		}
		a.value = rs_node_new_scalar(origin, 1, 1, value);
	}
	memmove(sets + at + 1, sets + at, (*nsets - at) * sizeof(sets[0]));
	sets[at] = a;
	++*nsets;
	return 0;
}

int cmd_run(int argc, char **argv)
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
	struct rs_assignment sets[MAX_SETS];
	size_t nsets = 0;
	char *model_dirs[64];
	size_t ndirs = 0;
	struct rs_diag d;
	rs_diag_init(&d);
	int c, rc, status = EXIT_BAD_INPUT;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:s:pj:M:qrh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_dir = optarg;
			break;
		case 'S':
			/* --seed N is --set seed=N, but its value is a word of its
			 * own: a bad one is reported against --seed, whole. */
			if ((rc = add_set(sets, &nsets, MAX_SETS, nsets, "seed", "--seed", optarg, &d)) != 0) {
				status = rc;
				goto out;
			}
			break;
		case 's':
			if ((rc = add_set(sets, &nsets, MAX_SETS, nsets, NULL, NULL, optarg, &d)) != 0) {
				status = rc;
				goto out;
			}
			break;
		case 'p':
			o.plot = true;
			break;
		case 'j':
			if (cli_parse_jobs(optarg, &o.jobs) != 0)
				goto out;
			break;
		case 'M':
			if (cli_add_model_dir(model_dirs, &ndirs, sizeof(model_dirs) / sizeof(model_dirs[0]),
					      optarg) != 0)
				goto out;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'r':
			o.resume = true;
			break;
		case 'L':
			if (cli_set_limit(optarg) != 0)
				goto out;
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
			fputs(cli_usage_run, stdout);
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
		if ((rc = add_set(sets, &nsets, MAX_SETS, 0, "device.model", "--device", device, &d)) != 0) {
			status = rc;
			goto out;
		}
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
