# The benchmark: `make bench` builds and runs it.  It is an EXTRA program,
# so neither `make all` nor `make check` builds it (it takes a minute and
# its figures only mean something on an idle machine).
EXTRA_PROGRAMS = bench/rs-bench
bench_rs_bench_SOURCES = bench/bench.c
bench_rs_bench_LDADD = $(RS_LIBS)
CLEANFILES += bench/rs-bench

.PHONY: bench
bench: bench/rs-bench
	./bench/rs-bench
