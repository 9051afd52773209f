# The benchmark: `make bench` builds and runs it.  It is an EXTRA program,
# so neither `make all` nor `make check` builds it (it takes a minute and
# its figures only mean something on an idle machine).
# bench/instructions.sh then counts instructions per request on the DiskSim
# cross-check's paths (perf or cachegrind, skipped when neither works).
EXTRA_PROGRAMS = bench/rs-bench
bench_rs_bench_SOURCES = bench/bench.c
bench_rs_bench_LDADD = $(RS_LIBS)
CLEANFILES += bench/rs-bench
EXTRA_DIST += bench/instructions.sh

.PHONY: bench
bench: bench/rs-bench
	./bench/rs-bench
	sh $(srcdir)/bench/instructions.sh ./bench/rs-bench
