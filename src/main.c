/* raidsim: the command line.  The only place that prints usage and exits.
 * Exit status: 0 ok, 1 runtime failure, 2 bad input (scenario, model or
 * command line).  Each command lives in its own file (cli/commands.h);
 * this file only picks one by its name. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

/* Every command, by the word that names it on the command line. */
static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "help", cmd_help },
	{ "run", cmd_run },
	{ "reproduce", cmd_reproduce },
	{ "merge", cmd_merge },
	{ "plot", cmd_plot },
	{ "models", cmd_models },
	{ "import", cmd_import },
};

int main(int argc, char **argv)
{
	cli_find_moved_models();
	if (argc < 2) {
		fputs(cli_usage_main, stderr);
		return EXIT_BAD_INPUT;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0)
		return cmd_help(1, argv);
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		printf("raidsim %s\n", PACKAGE_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(cmd, commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "raidsim: unknown command '%s'\nTry 'raidsim --help'.\n", cmd);
	return EXIT_BAD_INPUT;
}
