# Golden diagnostics: every case in tests/errors/ must fail with exit
# status 2, print exactly its expected first line, and write nothing.
TESTS += tests/errors/run.sh
EXTRA_DIST += tests/errors

# End-to-end checks of the command line (determinism, --jobs, outputs).
TESTS += tests/cli/run.sh
# Every #include in src/ points down the layers of src/layers.txt.
TESTS += tests/cli/layers.sh
# Each command's --help is the text 'raidsim help COMMAND' prints.
TESTS += tests/cli/help.sh
EXTRA_DIST += src/layers.txt
# Interrupted sweeps (SIGKILL at a random moment, Ctrl-C) and --resume.
TESTS += tests/cli/resume.sh
# Sweeps split with --shard K/N and joined with raidsim merge.
TESTS += tests/cli/shard.sh
# --repeat N: means and 95 % CIs over N seeds, equal to N runs with --seed;
# the same for any --jobs, after --resume and through shards.
TESTS += tests/cli/repeat.sh
# The figure --plot draws for one, two and three sweep axes.
TESTS += tests/cli/plot.sh
# Per-component utilisation and times, limited_by, the stdout summary.
TESTS += tests/cli/limits-by.sh
# The TX4200 study's platform bus: loads, the PCI 32/66 rate both ways.
TESTS += tests/cli/platform-bus.sh
# raidsim plot DIR: the figure redrawn from a finished run's files.
TESTS += tests/cli/replot.sh
# Scenario strings (output names, swept values, file names) never run as
# code in gnuplot or a shell.
TESTS += tests/cli/inject.sh
# SIGTERM and a second SIGINT stop at once and --resume finishes; one run
# per output folder and name (tests/cli/long.yaml).
TESTS += tests/cli/signals.sh
# A full disk (a 128 KiB tmpfs; needs root, else skipped) never leaves a
# mixed or partial result set, and says "No space left on device".
TESTS += tests/cli/nospace.sh
# No command writes outside its output folder.
TESTS += tests/cli/confined.sh
# Member faults end to end: the rebuild_s column, a second failure's
# errors, no column (and the same table) without member faults.
TESTS += tests/cli/rebuild.sh
# raidsim import disksim: models, refusals, usage.
TESTS += tests/cli/import.sh
# Models found where users stand (no -M, no RAIDSIM_MODELS), by path,
# `raidsim models show`, and where `raidsim models` looked for none.
TESTS += tests/cli/models.sh
# make install: manual page, completion, models, scenarios; the staged
# binary finds its models and reproduce its studies.
TESTS += tests/cli/install.sh
# fio job files: fio's examples run, one equals its iometer scenario byte
# for byte, ignored options listed once, flush columns only with flushes.
TESTS += tests/cli/fio.sh
# raidsim reproduce on a study in miniature; page.sh checks a page.
TESTS += tests/reproduce/run.sh
# A study's own numbers (measured.tsv) against its tables on a fake study:
# the error table, and malformed files refused before anything runs.
TESTS += tests/reproduce/measured.sh
EXTRA_DIST += tests/reproduce
# Run by .ci/run (they need root): a Slurm job array; the reproduce page
# in headless Chromium (tests/reproduce/chromium.sh).
EXTRA_DIST += tests/slurm/run.sh
EXTRA_DIST += tests/cli
EXTRA_DIST += tests/unit/testutil.h

# The scripts' logs go beside them; a VPATH build must make the folders.
check_DATA = tests/errors/.build-stamp tests/cli/.build-stamp
tests/errors/.build-stamp tests/cli/.build-stamp:
	@$(MKDIR_P) $(@D) && touch $@
CLEANFILES += tests/errors/.build-stamp tests/cli/.build-stamp
check_DATA += tests/reproduce/.build-stamp
tests/reproduce/.build-stamp:
	@$(MKDIR_P) $(@D) && touch $@
CLEANFILES += tests/reproduce/.build-stamp

# tests/errors and tests/cli are shipped whole; leave out what a test run
# in the source tree may have written there.
dist-hook:
	rm -f $(distdir)/tests/errors/.build-stamp $(distdir)/tests/cli/.build-stamp \
		$(distdir)/tests/reproduce/.build-stamp
	find $(distdir)/tests -name '*.log' -o -name '*.trs' | xargs rm -f
# Hostile but valid-looking scenarios (zero-time loops, open-loop overload,
# endless traces, absurd sizes) end in seconds with status 1 or 2.
TESTS += tests/cli/limits.sh

# The test list, expanded (.ci/run picks the quick ones for distcheck).
print-tests:
	@echo $(TESTS)
.PHONY: print-tests
