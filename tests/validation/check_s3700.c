/* Validation against the Intel DC S3700 strip-size study (2015): two
 * S3700 100 GB in RAID0 on the Intel C226 (RST) at strip sizes 4..128 KiB
 * under CrystalDiskMark 5.1 (500 MiB file) and ATTO Disk Benchmark 3.05.
 * One test per finding S3700-S1..S7.  The experiments are scenarios/s3700's
 * cdm.yaml and atto.yaml, loaded through the scenario loader with the strip
 * and the row or transfer size applied as --set applies them (points.h);
 * each finding runs at the seeds scenarios/s3700/ledger.tsv names and holds
 * only when its criterion holds at every one (ledger.h).
 *
 * The review gives two numbers (S3's ~3.5 % and S4's 5 %) and otherwise
 * words: which strip was best or worst.  Those are orderings, and orderings
 * are strict everywhere (ledger.h): a named best or worst strip must be
 * strictly above or below every other, so strips that tie do not make an
 * order.  The judgements are separate from the runs so that the `flat`
 * test case can show a model giving every strip the same result passes
 * none of them.  S7 is the review's PCMark 7/8 verdict: PCMark's traces
 * are not public, so it is not testable; the program still reports the
 * spread across strips of every CDM and ATTO figure beside it. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"

/* ---- points ------------------------------------------------------------ */

static const char *const strips[] = { "4KiB", "8KiB", "16KiB", "32KiB", "64KiB", "128KiB" };
#define NSTRIP 6
enum { S4K, S8K, S16K, S32K, S64K, S128K };

static const char *const cdm_tests[] = { "seq-q32t1", "4k-q32t1", "seq", "4k" };
enum { SEQ_Q32, K4_Q32, SEQ_QD1, K4_QD1 };

static const uint64_t atto_sizes[] = { 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
				       131072, 262144, 524288, 1048576, 2097152, 4194304,
				       8388608, 12582912, 16777216, 25165824, 33554432,
				       50331648, 67108864 };
#define NSIZE (sizeof(atto_sizes) / sizeof(atto_sizes[0]))

struct rw {
	double read, write;
};

static struct rw figures(const struct vd_point *p)
{
	return (struct rw){ vd_figure(p, "read_MBps"), vd_figure(p, "write_MBps") };
}

/* CDM row `test` at one strip (cdm.yaml). */
static struct rw cdm(int strip, int test)
{
	struct vd_sets v = { .n = 0 };
	vd_set(&v, "device.array.strip=%s", strips[strip]);
	vd_set(&v, "workload.cdm.test=%s", cdm_tests[test]);
	return figures(vd_scenario("s3700/cdm.yaml", vd_seed(), &v));
}

/* ATTO at one transfer size and strip (atto.yaml). */
static struct rw atto(int strip, size_t size)
{
	struct vd_sets v = { .n = 0 };
	vd_set(&v, "device.array.strip=%s", strips[strip]);
	vd_set(&v, "workload.atto.size=%llu", (unsigned long long)atto_sizes[size]);
	return figures(vd_scenario("s3700/atto.yaml", vd_seed(), &v));
}

/* ---- helpers ------------------------------------------------------------ */

static double spread(const double *v, int n)
{
	double lo = v[0], hi = v[0];
	for (int i = 1; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	return hi / lo - 1.0;
}

static void list(struct text *t, const char *label, const double *v)
{
	add(t, "%s", label);
	for (int i = 0; i < NSTRIP; i++)
		add(t, " %s:%.1f", strips[i], v[i]);
}

static void cdm_row(int test, double *rd, double *wr)
{
	for (int s = 0; s < NSTRIP; s++) {
		struct rw r = cdm(s, test);
		rd[s] = r.read;
		wr[s] = r.write;
	}
}

/* ---- S1..S4: CrystalDiskMark ---------------------------------------------- */

/* S1 (Seq QD1): "for sequential writes without a deep queue the strip size
 * hardly matters - the results are within the error"; reads "best at 128
 * and 32 KB, worst at 64 KB".  Criterion: write spread <= 5 %; the 128 and
 * 32 KiB strips read strictly faster than every other strip, and 64 KiB
 * strictly slowest. */
static bool judge_S1(const double *rd, const double *wr, struct text *t)
{
	static const int best2[] = { S128K, S32K };
	double sw = spread(wr, NSTRIP);
	bool best = vd_top(rd, NSTRIP, best2, 2, +1), worst = vd_worst(rd, NSTRIP, S64K);
	add(t, "; write spread %.1f %% [%s]; 128/32 KiB best [%s]; 64 KiB worst [%s]", 100 * sw,
	    ok(sw <= 0.05), ok(best), ok(worst));
	return sw <= 0.05 && best && worst;
}

/* S2 (4K QD1): "the strip size affects the write speed ... the worst write
 * result with 8 KB"; reads worst with 16 and 64 KB.  Criterion: 8 KiB is
 * strictly the worst write and at least 2 % below the best (the strip
 * "matters"); 16 and 64 KiB read strictly slower than every other strip. */
static bool judge_S2(const double *rd, const double *wr, struct text *t)
{
	static const int worst2[] = { S16K, S64K };
	bool wworst = vd_worst(wr, NSTRIP, S8K) && spread(wr, NSTRIP) >= 0.02;
	bool rworst = vd_top(rd, NSTRIP, worst2, 2, -1);
	add(t, "; write spread %.1f %%, 8 KiB worst [%s]; 16/64 KiB worst reads [%s]",
	    100 * spread(wr, NSTRIP), ok(wworst), ok(rworst));
	return wworst && rworst;
}

/* S3 (Seq Q32): "the queue levelled everyone ... about 3.5 % between the
 * fastest (128 KB) and the slowest (8 KB)".  Criterion: read and write
 * spreads each <= 5 % (3.5 % plus room for the unknown noise), the 128 KiB
 * strip strictly the fastest read and the 8 KiB strip strictly the
 * slowest. */
static bool judge_S3(const double *rd, const double *wr, struct text *t)
{
	double sr = spread(rd, NSTRIP), sw = spread(wr, NSTRIP);
	bool fastest = vd_best(rd, NSTRIP, S128K), slowest = vd_worst(rd, NSTRIP, S8K);
	add(t, "; spread read %.1f %%, write %.1f %% [%s]; 128 KiB fastest [%s]; 8 KiB slowest "
	       "[%s]", 100 * sr, 100 * sw, ok(sr <= 0.05 && sw <= 0.05), ok(fastest), ok(slowest));
	return sr <= 0.05 && sw <= 0.05 && fastest && slowest;
}

/* S4 (4K Q32): reads best with 8 KB, worst with 128 KB, "5 % apart";
 * writes indifferent.  Criterion: 8 KiB strictly best and 128 KiB strictly
 * worst read, their ratio 1.025..1.075; write spread <= 3 %. */
static bool judge_S4(const double *rd, const double *wr, struct text *t)
{
	double gap = rd[S8K] / rd[S128K] - 1;
	bool order = vd_best(rd, NSTRIP, S8K) && vd_worst(rd, NSTRIP, S128K);
	bool size = gap >= 0.025 && gap <= 0.075;
	double sw = spread(wr, NSTRIP);
	add(t, "; 8 KiB best, 128 KiB worst [%s], gap %.1f %% [%s]; write spread %.1f %% [%s]",
	    ok(order), 100 * gap, ok(size), 100 * sw, ok(sw <= 0.03));
	return order && size && sw <= 0.03;
}

typedef bool judge_fn(const double *rd, const double *wr, struct text *t);

/* Run CDM row `test` at every strip and judge it. */
static bool cdm_finding(int test, judge_fn *judge, struct text *out)
{
	double rd[NSTRIP], wr[NSTRIP];
	cdm_row(test, rd, wr);
	list(out, "read MB/s", rd);
	list(out, "; write MB/s", wr);
	vd_value("read spread", spread(rd, NSTRIP));
	vd_value("write spread", spread(wr, NSTRIP));
	return judge(rd, wr, out);
}

static bool measure_S1(struct text *out) { return cdm_finding(SEQ_QD1, judge_S1, out); }
static bool measure_S2(struct text *out) { return cdm_finding(K4_QD1, judge_S2, out); }
static bool measure_S3(struct text *out) { return cdm_finding(SEQ_Q32, judge_S3, out); }
static bool measure_S4(struct text *out) { return cdm_finding(K4_Q32, judge_S4, out); }

START_TEST(test_S1)
{
	vd_finding("S3700-S1", measure_S1,
		   "Seq QD1: writes within error; reads best at 128 and 32 KiB, worst at 64 KiB");
}
END_TEST

START_TEST(test_S2)
{
	vd_finding("S3700-S2", measure_S2,
		   "4K QD1: the strip matters for writes (worst at 8 KiB); reads worst at 16 and "
		   "64 KiB");
}
END_TEST

START_TEST(test_S3)
{
	vd_finding("S3700-S3", measure_S3,
		   "Seq Q32: all strips within ~3.5 %, 128 KiB fastest, 8 KiB slowest");
}
END_TEST

START_TEST(test_S4)
{
	vd_finding("S3700-S4", measure_S4,
		   "4K Q32: reads best at 8 KiB, worst at 128 KiB, 5 % apart; writes indifferent");
}
END_TEST

/* ---- S5, S6: ATTO ---------------------------------------------------------- */

static size_t size_index(uint64_t bytes)
{
	for (size_t i = 0; i < NSIZE; i++)
		if (atto_sizes[i] == bytes)
			return i;
	ck_abort_msg("no ATTO size %llu", (unsigned long long)bytes);
	return 0;
}

/* S5: "between 16 and 128 KB the 64 KB strip is slower than the 4 KB
 * strip, but wins back after 256 KB"; sharp dips elsewhere.  Criterion, on
 * the mean read over the transfer sizes of each range: the 64 KiB strip
 * strictly slower than the 4 KiB strip over 16..128 KiB and strictly faster
 * over 512 KiB..64 MiB.  (The dips are not judged: the review names no
 * sizes.) */
static bool judge_S5(double lo4, double lo64, double hi4, double hi64, struct text *t)
{
	bool slower = vd_ahead(lo4, lo64), faster = vd_ahead(hi64, hi4);
	add(t, "mean read MiB/s, 16..128 KiB transfers: strip 4 KiB %.1f, 64 KiB %.1f [%s]; "
	       "512 KiB..64 MiB: 4 KiB %.1f, 64 KiB %.1f [%s]", lo4, lo64,
	    slower ? "64 KiB slower ok" : "FAILS", hi4, hi64, faster ? "64 KiB faster ok" : "FAILS");
	return slower && faster;
}

static bool measure_S5(struct text *out)
{
	double lo4 = 0, lo64 = 0, hi4 = 0, hi64 = 0;
	int nlo = 0, nhi = 0;
	for (size_t i = size_index(16384); i <= size_index(131072); i++, nlo++) {
		lo4 += atto(S4K, i).read;
		lo64 += atto(S64K, i).read;
	}
	for (size_t i = size_index(524288); i < NSIZE; i++, nhi++) {
		hi4 += atto(S4K, i).read;
		hi64 += atto(S64K, i).read;
	}
	lo4 /= nlo, lo64 /= nlo, hi4 /= nhi, hi64 /= nhi;
	vd_value("64/4 KiB strip at 16..128 KiB", lo64 / lo4);
	vd_value("64/4 KiB strip at 512 KiB..64 MiB", hi64 / hi4);
	return judge_S5(lo4, lo64, hi4, hi64, out);
}

START_TEST(test_S5)
{
	vd_finding("S3700-S5", measure_S5,
		   "ATTO read: 64 KiB strip slower than 4 KiB for 16..128 KiB transfers, faster "
		   "beyond 256 KiB; sharp dips at some sizes");
}
END_TEST

/* S6: "the 128 KB strip is the most stable, with only a small dip, and
 * only above 32 MB".  Stability: the largest fall between neighbouring
 * transfer sizes from 64 KiB up.  Criterion: the 128 KiB strip's largest
 * fall is strictly the smallest of the six, and up to 32 MiB it never falls
 * by more than 3 %. */
static bool judge_S6(const double *worst, double below32, struct text *t)
{
	bool stablest = vd_worst(worst, NSTRIP, S128K);
	add(t, "largest write fall between neighbouring sizes (64 KiB up), per strip:");
	for (int s = 0; s < NSTRIP; s++)
		add(t, " %s:%.1f%%", strips[s], 100 * worst[s]);
	add(t, "; 128 KiB stablest [%s]; its largest fall up to 32 MiB %.1f %% [%s]",
	    ok(stablest), 100 * below32, ok(below32 <= 0.03));
	return stablest && below32 <= 0.03;
}

static bool measure_S6(struct text *out)
{
	double worst[NSTRIP];
	double below32 = 0;
	for (int s = 0; s < NSTRIP; s++) {
		worst[s] = 0;
		for (size_t i = size_index(65536) + 1; i < NSIZE; i++) {
			double fall = 1 - atto(s, i).write / atto(s, i - 1).write;
			worst[s] = fmax(worst[s], fall);
			if (s == S128K && atto_sizes[i] <= 33554432)
				below32 = fmax(below32, fall);
		}
	}
	vd_value("128 KiB strip's largest fall", worst[S128K]);
	return judge_S6(worst, below32, out);
}

START_TEST(test_S6)
{
	vd_finding("S3700-S6", measure_S6,
		   "ATTO write: 128 KiB strip most stable, a small dip only above 32 MiB");
}
END_TEST

/* ---- S7: the overall verdict ------------------------------------------------ */

/* "In most applications the 4 KB strip was, oddly, fastest, but the
 * difference did not exceed 10 %: the strip size is not that critical."
 * Not testable: PCMark's traces are not public.  Reported beside it, and
 * judged only so that a change shows: the spread across the six strips of
 * every CDM figure (4 rows x read/write) and of ATTO's read and write from
 * 64 KiB transfers up must stay within 10 %.  ATTO's smaller transfers are
 * left out of that criterion, and they are where strips differ most, so
 * the largest spread over every ATTO size is printed too. */
static bool measure_S7(struct text *out)
{
	double worst = 0, worst_all = 0;
	char where[64] = "", where_all[64] = "";
	for (int test = 0; test < 4; test++) {
		double rd[NSTRIP], wr[NSTRIP];
		cdm_row(test, rd, wr);
		if (spread(rd, NSTRIP) > worst) {
			worst = spread(rd, NSTRIP);
			snprintf(where, sizeof(where), "CDM %s read", cdm_tests[test]);
		}
		if (spread(wr, NSTRIP) > worst) {
			worst = spread(wr, NSTRIP);
			snprintf(where, sizeof(where), "CDM %s write", cdm_tests[test]);
		}
	}
	for (size_t i = 0; i < NSIZE; i++) {
		double rd[NSTRIP], wr[NSTRIP];
		for (int s = 0; s < NSTRIP; s++) {
			rd[s] = atto(s, i).read;
			wr[s] = atto(s, i).write;
		}
		double m = fmax(spread(rd, NSTRIP), spread(wr, NSTRIP));
		if (m > worst_all) {
			worst_all = m;
			snprintf(where_all, sizeof(where_all), "ATTO %llu B",
				 (unsigned long long)atto_sizes[i]);
		}
		if (atto_sizes[i] >= 65536 && m > worst) {
			worst = m;
			snprintf(where, sizeof(where), "ATTO %llu B", (unsigned long long)atto_sizes[i]);
		}
	}
	vd_value("largest spread (CDM, ATTO >= 64 KiB)", worst);
	vd_value("largest spread (every ATTO size)", worst_all);
	add(out, "PCMark not run (traces not public); largest spread across strips of any CDM "
		 "figure or ATTO figure (>= 64 KiB): %.1f %% (%s) [%s]; over every ATTO size: "
		 "%.1f %% (%s)", 100 * worst, where, ok(worst <= 0.10), 100 * worst_all, where_all);
	return worst <= 0.10;
}

START_TEST(test_S7)
{
	vd_finding("S3700-S7", measure_S7,
		   "PCMark 7/8: 4 KiB strip slightly best; spread across strips at most ~10 %");
}
END_TEST

/* ---- a flat model ------------------------------------------------------------ */

/* A model that gives every strip the same result passes no ordering claim:
 * each judgement above fails on flat figures, and S3 also on the tie the
 * model actually gives (five strips equal, 128 KiB ahead). */
START_TEST(flat_model)
{
	double flat[NSTRIP], rd[NSTRIP];
	for (int s = 0; s < NSTRIP; s++)
		flat[s] = 500, rd[s] = 997.1;
	rd[S128K] = 1018.2;
	struct text t = { .n = 0 };
	ck_assert(!judge_S1(flat, flat, &t));
	ck_assert(!judge_S2(flat, flat, &t));
	ck_assert(!judge_S3(flat, flat, &t));
	ck_assert(!judge_S3(rd, flat, &t));
	ck_assert(!judge_S4(flat, flat, &t));
	ck_assert(!judge_S5(700, 700, 900, 900, &t));
	ck_assert(!judge_S6(flat, 0, &t));
	/* ...and a model with the review's order passes (the judges can hold). */
	double order[NSTRIP] = { 1000, 990, 1000, 1010, 1000, 1025 };
	ck_assert(judge_S3(order, flat, &t));
}
END_TEST

static Suite *s3700_suite(void)
{
	Suite *s = suite_create("s3700");
	vd_add(s, "S3700-S1", test_S1);
	vd_add(s, "S3700-S2", test_S2);
	vd_add(s, "S3700-S3", test_S3);
	vd_add(s, "S3700-S4", test_S4);
	vd_add(s, "S3700-S5", test_S5);
	vd_add(s, "S3700-S6", test_S6);
	vd_add(s, "S3700-S7", test_S7);
	TCase *tc = tcase_create("flat");
	tcase_add_test(tc, flat_model);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vd_study_main(s3700_suite, "s3700");
}
