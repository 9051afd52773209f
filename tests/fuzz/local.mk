# Fuzz targets: libFuzzer with AddressSanitizer and UBSan, on the inputs
# that come from other people (scenario files, model files, traces).
# `./configure --enable-fuzz` (clang) then `make fuzz` builds them, with the
# whole library instrumented, and runs each for FUZZ_SECONDS; see run.sh.
# `make check` builds the same harnesses with the normal compiler and a
# plain main() and replays the seeds and regressions (replay.sh).
FUZZ_SECONDS = 60
FUZZ_TARGETS = fuzz_scenario fuzz_model fuzz_trace_disksim fuzz_trace_validate \
	fuzz_trace_msr fuzz_trace_spc fuzz_trace_blkparse
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = $(AM_CFLAGS) -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_LINK_FLAGS = $(FUZZ_SAN) -fsanitize=fuzzer
FUZZ_LIBS = tests/fuzz/librs-fuzz.a $(YAML_LIBS) $(GSL_LIBS) -lm
# The shipped models, for scenarios that name one; $RAIDSIM_MODELS wins.
FUZZ_CPPFLAGS = $(AM_CPPFLAGS) -DRS_FUZZ_MODELS='"$(abs_top_srcdir)/models"'
FUZZ_COMMON = tests/fuzz/fuzz_util.c tests/fuzz/fuzz_util.h

# The library again, instrumented for coverage and the sanitizers.
EXTRA_LIBRARIES = tests/fuzz/librs-fuzz.a
tests_fuzz_librs_fuzz_a_SOURCES = $(src_librs_a_SOURCES)
tests_fuzz_librs_fuzz_a_CFLAGS = $(FUZZ_CFLAGS)

EXTRA_PROGRAMS += tests/fuzz/fuzz_scenario tests/fuzz/fuzz_model \
	tests/fuzz/fuzz_trace_disksim tests/fuzz/fuzz_trace_validate \
	tests/fuzz/fuzz_trace_msr tests/fuzz/fuzz_trace_spc tests/fuzz/fuzz_trace_blkparse
tests_fuzz_fuzz_scenario_SOURCES = tests/fuzz/fuzz_scenario.c $(FUZZ_COMMON)
tests_fuzz_fuzz_scenario_CPPFLAGS = $(FUZZ_CPPFLAGS)
tests_fuzz_fuzz_scenario_CFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_scenario_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_scenario_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_model_SOURCES = tests/fuzz/fuzz_model.c $(FUZZ_COMMON)
tests_fuzz_fuzz_model_CPPFLAGS = $(FUZZ_CPPFLAGS)
tests_fuzz_fuzz_model_CFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_model_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_model_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_trace_disksim_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_COMMON)
tests_fuzz_fuzz_trace_disksim_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TRACE_FORMAT=RS_TRACE_DISKSIM
tests_fuzz_fuzz_trace_disksim_CFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_trace_disksim_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_trace_disksim_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_trace_validate_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_COMMON)
tests_fuzz_fuzz_trace_validate_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TRACE_FORMAT=RS_TRACE_VALIDATE
tests_fuzz_fuzz_trace_validate_CFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_trace_validate_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_trace_validate_LDADD = $(FUZZ_LIBS)

tests_fuzz_fuzz_trace_msr_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_COMMON)
tests_fuzz_fuzz_trace_msr_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TRACE_FORMAT=RS_TRACE_MSR
tests_fuzz_fuzz_trace_msr_CFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_trace_msr_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_trace_msr_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_trace_spc_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_COMMON)
tests_fuzz_fuzz_trace_spc_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TRACE_FORMAT=RS_TRACE_SPC
tests_fuzz_fuzz_trace_spc_CFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_trace_spc_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_trace_spc_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_trace_blkparse_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_COMMON)
tests_fuzz_fuzz_trace_blkparse_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TRACE_FORMAT=RS_TRACE_BLKPARSE
tests_fuzz_fuzz_trace_blkparse_CFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_trace_blkparse_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_trace_blkparse_LDADD = $(FUZZ_LIBS)

.PHONY: fuzz
if ENABLE_FUZZ
fuzz: tests/fuzz/fuzz_scenario tests/fuzz/fuzz_model \
		tests/fuzz/fuzz_trace_disksim tests/fuzz/fuzz_trace_validate \
	tests/fuzz/fuzz_trace_msr tests/fuzz/fuzz_trace_spc tests/fuzz/fuzz_trace_blkparse
	@FUZZ_SECONDS=$(FUZZ_SECONDS) $(SHELL) $(srcdir)/tests/fuzz/run.sh \
		$(srcdir) tests/fuzz/campaign $(FUZZ_TARGETS)
else
fuzz:
	@echo "make fuzz: configure with --enable-fuzz first (it needs clang)" >&2; exit 1
endif
CLEANFILES += tests/fuzz/fuzz_scenario tests/fuzz/fuzz_model \
	tests/fuzz/fuzz_trace_disksim tests/fuzz/fuzz_trace_validate \
	tests/fuzz/fuzz_trace_msr tests/fuzz/fuzz_trace_spc tests/fuzz/fuzz_trace_blkparse tests/fuzz/librs-fuzz.a
clean-local: clean-fuzz
clean-fuzz:
	rm -rf tests/fuzz/campaign
.PHONY: clean-fuzz

# The same harnesses with a plain main(), built and replayed by make check.
FUZZ_REPLAY = tests/fuzz/replay.c $(FUZZ_COMMON)
check_PROGRAMS += tests/fuzz/replay_scenario tests/fuzz/replay_model \
	tests/fuzz/replay_trace_disksim tests/fuzz/replay_trace_validate \
	tests/fuzz/replay_trace_msr tests/fuzz/replay_trace_spc tests/fuzz/replay_trace_blkparse
tests_fuzz_replay_scenario_SOURCES = tests/fuzz/fuzz_scenario.c $(FUZZ_REPLAY)
tests_fuzz_replay_scenario_CPPFLAGS = $(FUZZ_CPPFLAGS)
tests_fuzz_replay_scenario_LDADD = $(RS_LIBS)
tests_fuzz_replay_model_SOURCES = tests/fuzz/fuzz_model.c $(FUZZ_REPLAY)
tests_fuzz_replay_model_CPPFLAGS = $(FUZZ_CPPFLAGS)
tests_fuzz_replay_model_LDADD = $(RS_LIBS)
tests_fuzz_replay_trace_disksim_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_REPLAY)
tests_fuzz_replay_trace_disksim_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TRACE_FORMAT=RS_TRACE_DISKSIM
tests_fuzz_replay_trace_disksim_LDADD = $(RS_LIBS)
tests_fuzz_replay_trace_validate_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_REPLAY)
tests_fuzz_replay_trace_validate_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TRACE_FORMAT=RS_TRACE_VALIDATE
tests_fuzz_replay_trace_validate_LDADD = $(RS_LIBS)
tests_fuzz_replay_trace_msr_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_REPLAY)
tests_fuzz_replay_trace_msr_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TRACE_FORMAT=RS_TRACE_MSR
tests_fuzz_replay_trace_msr_LDADD = $(RS_LIBS)
tests_fuzz_replay_trace_spc_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_REPLAY)
tests_fuzz_replay_trace_spc_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TRACE_FORMAT=RS_TRACE_SPC
tests_fuzz_replay_trace_spc_LDADD = $(RS_LIBS)
tests_fuzz_replay_trace_blkparse_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_REPLAY)
tests_fuzz_replay_trace_blkparse_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TRACE_FORMAT=RS_TRACE_BLKPARSE
tests_fuzz_replay_trace_blkparse_LDADD = $(RS_LIBS)
TESTS += tests/fuzz/replay.sh
EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/seeds.sh tests/fuzz/replay.sh \
	tests/fuzz/yaml.dict tests/fuzz/disksim.dict tests/fuzz/validate.dict \
	tests/fuzz/msr.dict tests/fuzz/spc.dict tests/fuzz/blkparse.dict \
	tests/fuzz/regressions tests/fuzz/pending
