# Golden diagnostics: every case in tests/errors/ must fail with exit
# status 2, print exactly its expected first line, and write nothing.
TESTS += tests/errors/run.sh
EXTRA_DIST += tests/errors

# End-to-end checks of the command line (determinism, --jobs, outputs).
TESTS += tests/cli/run.sh
EXTRA_DIST += tests/cli
EXTRA_DIST += tests/unit/testutil.h
