/* raidsim plot DIR: a finished run's figures drawn again from its files
 * (run/replot.h), without simulating. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/commands.h"
#include "run/replot.h"

const char cli_usage_plot[] =
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

int cmd_plot(int argc, char **argv)
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
			fputs(cli_usage_plot, stdout);
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
