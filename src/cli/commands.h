/* raidsim's commands, one file each (cli/cmd_NAME.c), and what several of
 * them share (cli/shared.c).  main() (src/main.c) picks the command by
 * its name and hands it the words after it: ARGV[0] is the command's
 * name.  A command returns the exit status: 0 ok, 1 runtime failure,
 * EXIT_BAD_INPUT for a bad scenario, model or command line.  Each prints
 * its own usage for -h and for 'raidsim help NAME'; nothing below the
 * command line prints usage or exits. */
#ifndef RS_CLI_COMMANDS_H
#define RS_CLI_COMMANDS_H

#include <stddef.h>

#include "config/models.h"

#define EXIT_BAD_INPUT 2

int cmd_run(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_models(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* The usage texts: each command's file holds its own (printed by its -h),
 * 'raidsim help' prints them all, and the overview is main()'s too. */
extern const char cli_usage_main[];
extern const char cli_usage_run[];
extern const char cli_usage_plot[];
extern const char cli_usage_merge[];
extern const char cli_usage_reproduce[];
extern const char cli_usage_models[];
extern const char cli_usage_import[];

/* The installed data (models/, scenarios/), or NULL for a binary run
 * from its build tree. */
const char *cli_installed_data(void);

/* Joins the models an installation that was moved holds to the end of
 * $RAIDSIM_MODELS; main() calls it before any command. */
void cli_find_moved_models(void);

/* MP: each of the NDIRS folders DIRS (-M), then the default places.  0, or
 * -1 with the message printed and MP left empty. */
int cli_setup_models(struct rs_model_path *mp, char **dirs, size_t ndirs);

/* Option values, refused with one message whichever command is given
 * them: 0, or -1 with the message printed. */
int cli_parse_repeat(const char *arg, unsigned *repeat);
int cli_parse_jobs(const char *arg, unsigned *jobs);
int cli_parse_output_format(const char *arg, unsigned *formats);
/* --limit NAME=V (config/limits.h), the same for every command that takes
 * it. */
int cli_set_limit(const char *arg);
/* -M DIR: add DIR to the CAP entries of DIRS.  0, or -1 with the message
 * printed when it is full. */
int cli_add_model_dir(char **dirs, size_t *ndirs, size_t cap, char *dir);

#endif
