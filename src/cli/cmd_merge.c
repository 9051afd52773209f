/* raidsim merge SHARD...: the shard files of a sweep split with
 * 'run --shard' joined into the files one run writes (run/shard.h). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/commands.h"
#include "run/shard.h"

const char cli_usage_merge[] =
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

int cmd_merge(int argc, char **argv)
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
			if (cli_set_limit(optarg) != 0)
				return EXIT_BAD_INPUT;
			break;
		case 'h':
			fputs(cli_usage_merge, stdout);
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
