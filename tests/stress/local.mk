# Random configurations run to the end (tests/stress/random_sets.c): the
# shipped scenarios with each sweep pinned to one point, the run shortened
# and one to four scenario or model values changed through --set.  Every
# run must end with status 0, with status 2 and a diagnostic, or with
# status 1 and a documented runtime failure; anything else prints the
# command line that reproduces it.  random-sets.sh runs a fixed seed in
# `make check`; `make stress` runs new seeds for STRESS_SECONDS.
check_PROGRAMS += tests/stress/random_sets
tests_stress_random_sets_SOURCES = tests/stress/random_sets.c \
	tests/stress/plan.c tests/stress/plan.h \
	tests/stress/corpus.c tests/stress/corpus.h \
	tests/stress/mutate.c tests/stress/mutate.h \
	tests/stress/budget.c tests/stress/budget.h \
	tests/stress/yaml_tree.c tests/stress/yaml_tree.h \
	tests/stress/util.c tests/stress/util.h
tests_stress_random_sets_LDADD = $(YAML_LIBS) -lm
TESTS += tests/stress/random-sets.sh
EXTRA_DIST += tests/stress/random-sets.sh

# A long campaign: STRESS_SEED (default: the clock, printed) for
# STRESS_SECONDS, at the lowest priority.
STRESS_SECONDS = 600
STRESS_SEED =
stress: tests/stress/random_sets src/raidsim
	@seed='$(STRESS_SEED)'; seed=$${seed:-$$(date +%s)}; \
	echo "make stress: seed $$seed for $(STRESS_SECONDS) s"; \
	nice -n 19 tests/stress/random_sets --srcdir '$(srcdir)' --raidsim src/raidsim \
		--seed "$$seed" --seconds '$(STRESS_SECONDS)'
.PHONY: stress
