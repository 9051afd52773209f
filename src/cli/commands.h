/* What several of raidsim's commands share (cli/shared.c): where the
 * installed data is, the model path, and the parsers of option values.
 * A command returns the exit status: 0 ok, 1 runtime failure,
 * EXIT_BAD_INPUT for a bad scenario, model or command line. */
#ifndef RS_CLI_COMMANDS_H
#define RS_CLI_COMMANDS_H

#include <stddef.h>

#include "config/models.h"

#define EXIT_BAD_INPUT 2

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

#endif
