# raidsim's command line: one file per command, linked into the binary
# only (src/main.c picks the command), so no library user carries them.
src_raidsim_SOURCES += \
	src/cli/commands.h src/cli/shared.c \
	src/cli/cmd_run.c src/cli/cmd_plot.c src/cli/cmd_merge.c \
	src/cli/cmd_reproduce.c src/cli/cmd_models.c src/cli/cmd_import.c \
	src/cli/cmd_help.c
