/* raidsim help [COMMAND]: the overview of every command, a command's own
 * usage (the text its -h prints), or 'help limits', the caps on what one
 * run may ask for and their defaults. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "config/limits.h"

const char cli_usage_main[] =
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

int cmd_help(int argc, char **argv)
{
	const char *topic = argc > 1 ? argv[1] : NULL;
	if (!topic)
		fputs(cli_usage_main, stdout);
	else if (strcmp(topic, "run") == 0)
		fputs(cli_usage_run, stdout);
	else if (strcmp(topic, "reproduce") == 0)
		fputs(cli_usage_reproduce, stdout);
	else if (strcmp(topic, "merge") == 0)
		fputs(cli_usage_merge, stdout);
	else if (strcmp(topic, "models") == 0)
		fputs(cli_usage_models, stdout);
	else if (strcmp(topic, "import") == 0)
		fputs(cli_usage_import, stdout);
	else if (strcmp(topic, "limits") == 0)
		print_limits();
	else if (strcmp(topic, "plot") == 0)
		fputs(cli_usage_plot, stdout);
	else {
		fprintf(stderr, "raidsim: no help for '%s'\n", topic);
		return EXIT_BAD_INPUT;
	}
	return 0;
}
