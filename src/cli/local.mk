# raidsim's command line, linked into the binary only (src/main.c), so no
# library user carries it.
src_raidsim_SOURCES += src/cli/commands.h src/cli/shared.c
