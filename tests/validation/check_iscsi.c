/* Validation against the iSCSI adapters study (Express-Electronika, 2004):
 * Alacritech SES1001T, Adaptec 7211C and Intel PRO/1000T IPSA, each alone
 * through a GbE switch to an iSCSI-to-FC gateway and a cached disk system,
 * 512 B .. 1 MiB requests, 50/50 duplex, 100 % read and 100 % write; then
 * two adapters of a kind with a cable pulled and restored.  One test per
 * finding ISCSI-N1..N6 and ISCSI-F1..F3.
 *
 * The experiments are scenarios/iscsi's files (duplex.yaml, read.yaml,
 * write.yaml, failover-*.yaml), loaded through the scenario loader with the
 * adapter and the request size applied as --set applies them (points.h);
 * each finding runs at the seeds scenarios/iscsi/ledger.tsv names and holds
 * only when its criterion holds at every one (ledger.h).
 *
 * The ledger's classes: the adapters' processor costs are solved from
 * N3..N6 (models/adapters/, said in each file), so those four are
 * calibration and still must hold within 3 %; the Alacritech's shared_work
 * was chosen looking at N2, so N2 is calibration too; F2 and F3 are
 * configurations (the Intel card's time-out and the re-login times were
 * chosen from what those readings show).  N1 (within 10 %) and F1 (within
 * 25 %) are the predictions.  Outstanding requests (32) are an estimate;
 * the failover workload's 512 B reads follow from the study's MB/s over
 * IOPS.
 *
 * Peak positions count: where the study says where a peak is ("211.6 at
 * 64 KiB", "93.7 flat over 64..512 KiB"), the position is judged with one
 * rule.  A size is at the peak when it is within 1 % of the curve's
 * highest value; the position holds when every size the study names is at
 * the peak and the peak reaches no further than one size (a factor of two)
 * beyond them on either side.
 *
 * The failover runs follow the study's timeline: readings just before the
 * pull of port 1 at 2 min (115-120 s), one minute after it (170-180 s), and
 * 10 s after port 2 is pulled (315-320 s), port 1 having been restored at
 * 300 s.  Each reading gives IOPS and errors per second over its window (the
 * study's readings are per Iometer update: its IOPS fell to 2 % a minute
 * after the pull, which an average since the start could not) and the
 * errors counted from the start. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ledger.h"
#include "run/series.h"

enum { ALA, ADP, INT, NAD };
static const char *const model[NAD] = { "alacritech-ses1001t", "adaptec-7211c",
					"intel-pro1000t-ipsa" };
static const char *const short_name[NAD] = { "Alacritech", "Adaptec", "Intel" };
static const char *const failover_file[NAD] = { "iscsi/failover-alacritech.yaml",
						"iscsi/failover-adaptec.yaml",
						"iscsi/failover-intel.yaml" };
enum { DUPLEX, READ, WRITE, NWL };
static const char *const wl_file[NWL] = { "iscsi/duplex.yaml", "iscsi/read.yaml",
					  "iscsi/write.yaml" };
static const char *const sizes[] = { "512", "1KiB", "2KiB", "4KiB", "8KiB", "16KiB", "32KiB",
				     "64KiB", "128KiB", "256KiB", "512KiB", "1MiB" };
#define NSIZES 12
enum { K32 = 6, K64 = 7, K128 = 8, K256 = 9, K512 = 10, M1 = 11 };

/* One point of adapter a, workload w, size s; `extra` (NULL: none) one more
 * assignment, e.g. "device.shared_work=0%". */
static struct rs_iostat_summary point(int a, int w, int s, const char *extra)
{
	struct vd_sets v = { .n = 0 };
	vd_set(&v, "device.model=%s", model[a]);
	vd_set(&v, "workload.iometer.size=%s", sizes[s]);
	if (extra)
		vd_set(&v, "%s", extra);
	return vd_scenario(wl_file[w], vd_seed(), &v)->s;
}

/* ---- peaks and where they are ------------------------------------------- */

struct curve {
	double mib[NSIZES];
	double peak;
	int lo, hi;                   /* the sizes within 1 % of the peak: first, last */
};

static void curve_of(struct curve *c, int a, int w, const char *extra)
{
	c->peak = 0;
	for (int s = 0; s < NSIZES; s++) {
		c->mib[s] = point(a, w, s, extra).mib_s;
		c->peak = fmax(c->peak, c->mib[s]);
	}
	c->lo = NSIZES, c->hi = -1;
	for (int s = 0; s < NSIZES; s++)
		if (c->mib[s] >= 0.99 * c->peak) {
			c->lo = s < c->lo ? s : c->lo;
			c->hi = s;
		}
}

/* The study's peak is at sizes from..to (one size: from == to): each of
 * them within 1 % of the peak, and no size further than one step outside
 * that range is. */
static bool at_position(const struct curve *c, int from, int to)
{
	for (int s = from; s <= to; s++)
		if (c->mib[s] < 0.99 * c->peak)
			return false;
	return c->lo >= from - 1 && c->hi <= to + 1;
}

static bool near(double got, double want, double tol)
{
	return fabs(got - want) <= tol * want;
}

/* Peak MiB/s of the three adapters within `tol`, at the study's positions. */
static bool check_peaks(int w, const double study[NAD], const int from[NAD], const int to[NAD],
			double tol, struct text *t)
{
	bool all = true;
	for (int a = 0; a < NAD; a++) {
		struct curve c;
		curve_of(&c, a, w, NULL);
		bool size = near(c.peak, study[a], tol), pos = at_position(&c, from[a], to[a]);
		all = all && size && pos;
		add(t, "%s %.1f (%+.1f%%, %s) at %s", short_name[a], c.peak,
		    100.0 * (c.peak - study[a]) / study[a], ok(size), sizes[c.lo]);
		if (c.hi != c.lo)
			add(t, "..%s", sizes[c.hi]);
		add(t, " (study %s", sizes[from[a]]);
		if (to[a] != from[a])
			add(t, "..%s", sizes[to[a]]);
		add(t, ": %s); ", ok(pos));
		vd_value(short_name[a], c.peak);
	}
	return all;
}

/* 512 B IOPS of the three adapters within `tol`. */
static bool check_iops(int w, const double study[NAD], double tol, struct text *t)
{
	bool all = true;
	for (int a = 0; a < NAD; a++) {
		double got = point(a, w, 0, NULL).iops;
		bool okk = near(got, study[a], tol);
		all = all && okk;
		add(t, "%s %.1f (%+.1f%%, %s); ", short_name[a], got,
		    100.0 * (got - study[a]) / study[a], ok(okk));
		vd_value(short_name[a], got);
	}
	return all;
}

/* ---- N1..N6 --------------------------------------------------------------- */

/* The one-direction results that calibrate the adapters leave one figure
 * per card free, and N1 is where it shows.  Adaptec: whether reads and
 * writes have a data engine each for their per-byte work (`byte_engine:
 * per-path` in the model, an estimate from a duplex report outside the
 * study) or take turns on one (`shared`, the other end); its per-PDU work
 * shares one processor either way (N2).  Intel: the per-byte cost of
 * writes, hidden by the wire in N5 (`write_rate` free in the model); its
 * other end is the slowest processor N5 allows: 1 MiB writes at 113.1 MiB/s
 * take 8.84 ms each on the wire, less 17 PDUs x 19.62 us leaves 8.51 ms
 * for 1 MiB, 123 MB/s.  N1 is not reproduced by the models' values; this
 * test also holds that the study's figure lies between the two ends, so
 * the miss is that free figure (one measurement would settle it), not a
 * missing mechanism. */
static bool measure_N1(struct text *out)
{
	static const double s[NAD] = { 211.6, 134.4, 129.1 };
	static const int at[NAD] = { K64, K128, K32 };
	struct {
		int a;
		const char *free_end;
	} ends[] = { { ADP, "device.byte_engine=shared" }, { INT, "device.write_rate=123MB/s" } };
	bool holds = check_peaks(DUPLEX, s, at, at, 0.10, out);
	add(out, "free figure's range:");
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		int a = ends[i].a;
		struct curve model_end, other_end;
		curve_of(&model_end, a, DUPLEX, NULL);
		curve_of(&other_end, a, DUPLEX, ends[i].free_end);
		double lo = fmin(model_end.peak, other_end.peak);
		double hi = fmax(model_end.peak, other_end.peak);
		add(out, " %s %.1f..%.1f (%s),", short_name[a], lo, hi, ends[i].free_end);
		ck_assert_msg(s[a] >= lo && s[a] <= hi,
			      "%s: study's %.1f outside what the calibration allows, %.1f .. %.1f",
			      short_name[a], s[a], lo, hi);
	}
	add(out, " study inside both");
	return holds;
}

START_TEST(iscsi_n1)
{
	vd_finding("ISCSI-N1", measure_N1,
		   "peak MB/s Alacritech 211.6 at 64 KiB, Adaptec 134.4 at 128 KiB, Intel 129.1 at "
		   "32 KiB; within 10 %, at those sizes");
}
END_TEST

static bool measure_N2(struct text *out)
{
	static const double s[NAD] = { 47690.5, 10728.2, 14486.9 };
	return check_iops(DUPLEX, s, 0.10, out);
}

START_TEST(iscsi_n2)
{
	vd_finding("ISCSI-N2", measure_N2,
		   "512 B IOPS Alacritech 47690.5, Adaptec 10728.2, Intel 14486.9; within 10 %");
}
END_TEST

static bool measure_N3(struct text *out)
{
	static const double s[NAD] = { 113.1, 93.7, 76.4 };
	static const int from[NAD] = { K256, K64, K256 }, to[NAD] = { K256, K512, K256 };
	return check_peaks(READ, s, from, to, 0.03, out);
}

START_TEST(iscsi_n3)
{
	vd_finding("ISCSI-N3", measure_N3,
		   "peak MB/s Alacritech 113.1 at 256 KiB, Adaptec 93.7 flat over 64..512 KiB, "
		   "Intel 76.4 at 256 KiB; within 3 %, at those sizes");
}
END_TEST

static bool measure_N4(struct text *out)
{
	static const double s[NAD] = { 46001.5, 11657.2, 14491.7 };
	return check_iops(READ, s, 0.03, out);
}

START_TEST(iscsi_n4)
{
	vd_finding("ISCSI-N4", measure_N4,
		   "512 B IOPS Alacritech 46001.5, Adaptec 11657.2, Intel 14491.7; within 3 %");
}
END_TEST

static bool measure_N5(struct text *out)
{
	static const double s[NAD] = { 113.2, 109.9, 113.1 };
	static const int from[NAD] = { K64, K64, K64 }, to[NAD] = { K512, K256, M1 };
	return check_peaks(WRITE, s, from, to, 0.03, out);
}

START_TEST(iscsi_n5)
{
	vd_finding("ISCSI-N5", measure_N5,
		   "peak MB/s Alacritech 113.2 over 64..512 KiB, Adaptec 109.9 over 64..256 KiB, "
		   "Intel 113.1 over 64 KiB..1 MiB; within 3 %, over those sizes");
}
END_TEST

static bool measure_N6(struct text *out)
{
	static const double s[NAD] = { 23733, 9354, 16992.3 };
	return check_iops(WRITE, s, 0.03, out);
}

START_TEST(iscsi_n6)
{
	vd_finding("ISCSI-N6", measure_N6,
		   "512 B IOPS Alacritech 23733, Adaptec 9354, Intel 16992.3; within 3 %");
}
END_TEST

/* ---- failover ------------------------------------------------------------ */

struct phase {
	double iops, mib_s;
	uint64_t errors;              /* counted up to the end of the phase */
	double errors_s;              /* per second within the phase */
};
static struct phase fo[RS_LEDGER_MAX_SEEDS][NAD][3];
static bool fo_have[RS_LEDGER_MAX_SEEDS][NAD];

static void phase_of(const struct rs_timeseries *ts, size_t from, size_t to, struct phase *ph)
{
	uint64_t ops = 0, bytes = 0, errors = 0, window_errors = 0;
	for (size_t i = from; i < to && i < ts->used; i++) {
		ops += ts->b[i].ops;
		bytes += ts->b[i].bytes;
		window_errors += ts->b[i].errors;
	}
	for (size_t i = 0; i < to && i < ts->used; i++)
		errors += ts->b[i].errors;
	double s = (double)(to - from);
	ph->iops = (double)ops / s;
	ph->mib_s = (double)bytes / s / (1024.0 * 1024.0);
	ph->errors = errors;
	ph->errors_s = (double)window_errors / s;
}

/* The three readings of adapter pair a at the current seed (its
 * failover-*.yaml, sampled every second as its output asks). */
static struct phase *failover(int a)
{
	unsigned k = vl.seed_index;
	if (!fo_have[k][a]) {
		struct rs_timeseries ts;
		vd_scenario_series(failover_file[a], vd_seed(), NULL, &ts);
		ck_assert_uint_eq(ts.interval_ns, 1000u * 1000 * 1000);
		phase_of(&ts, 115, 120, &fo[k][a][0]);
		phase_of(&ts, 170, 180, &fo[k][a][1]);
		phase_of(&ts, 315, 320, &fo[k][a][2]);
		fo_have[k][a] = true;
		rs_ts_free(&ts);
	}
	return fo[k][a];
}

static const double f_iops[3][NAD] = {
	{ 37954.57, 23814.59, 33435.95 },
	{ 38596.54, 498.66, 16887.85 },
	{ 37764.92, 0, 0 },
};

static void describe(struct text *t, int ph)
{
	for (int a = 0; a < NAD; a++) {
		const struct phase *p = &failover(a)[ph];
		add(t, "%s %.0f IOPS %.2f MiB/s %llu errors (%.1f/s); ", short_name[a], p->iops,
		    p->mib_s, (unsigned long long)p->errors, p->errors_s);
	}
}

static bool measure_F1(struct text *out)
{
	bool all = true;
	for (int a = 0; a < NAD; a++) {
		const struct phase *p = &failover(a)[0];
		all = all && near(p->iops, f_iops[0][a], 0.25) && p->errors == 0;
		vd_value(short_name[a], p->iops);
	}
	describe(out, 0);
	return all;
}

START_TEST(iscsi_f1)
{
	vd_finding("ISCSI-F1", measure_F1,
		   "Alacritech 37954.57, Adaptec 23814.59, Intel 33435.95 IOPS, 0 errors; within "
		   "25 %");
}
END_TEST

static bool measure_F2(struct text *out)
{
	const struct phase *ala = failover(ALA), *adp = failover(ADP), *intl = failover(INT);
	bool team = near(ala[1].iops, ala[0].iops, 0.05) && ala[1].errors == 0;
	bool intel = near(intl[1].iops, intl[0].iops / 2, 0.15) && intl[1].errors == 0;
	/* The study's 530 errors beside 498.66 IOPS: read per Iometer update
	 * like the IOPS (which fell to 2 % a minute after the pull, so the
	 * readings are not averages since the start), about as many requests
	 * fail per second as succeed: the signature of every other request
	 * going to the dead path and failing there.  The model must show it. */
	bool adaptec_shape = adp[1].iops < 0.05 * adp[0].iops &&
			     near(adp[1].errors_s, adp[1].iops, 0.25);
	bool adaptec_abs = near(adp[1].iops, f_iops[1][ADP], 0.25);
	vd_value("Adaptec IOPS", adp[1].iops);
	describe(out, 1);
	add(out, "team unchanged %s, Intel halved %s, Adaptec near zero with as many errors as "
		 "I/Os per second %s, Adaptec IOPS within 25 %% %s", ok(team), ok(intel),
	    ok(adaptec_shape), ok(adaptec_abs));
	return team && intel && adaptec_shape && adaptec_abs;
}

START_TEST(iscsi_f2)
{
	vd_finding("ISCSI-F2", measure_F2,
		   "Alacritech 38596.54 IOPS 0 errors; Adaptec 498.66 IOPS 530 errors; Intel "
		   "16887.85 IOPS 0 errors");
}
END_TEST

static bool measure_F3(struct text *out)
{
	const struct phase *ala = failover(ALA), *adp = failover(ADP), *intl = failover(INT);
	bool team = near(ala[2].iops, ala[0].iops, 0.05) && ala[2].errors == 0;
	bool adaptec = adp[2].iops < 0.01 * adp[0].iops && adp[2].errors > 0;
	bool intel = intl[2].iops < 0.01 * intl[0].iops && intl[2].errors == 0;
	vd_value("Alacritech IOPS", ala[2].iops);
	describe(out, 2);
	add(out, "team unchanged %s, Adaptec zero with errors %s, Intel zero without %s", ok(team),
	    ok(adaptec), ok(intel));
	return team && adaptec && intel;
}

START_TEST(iscsi_f3)
{
	vd_finding("ISCSI-F3", measure_F3,
		   "Alacritech 37764.92 IOPS 0 errors; Adaptec 0, 540 errors; Intel 0, 0 errors");
}
END_TEST

/* ---- the position rule ----------------------------------------------------- */

/* A plateau from 64 KiB to 1 MiB is not a peak "at 64 KiB", nor one "over
 * 64..512 KiB" (it reaches two sizes on); a single highest size is. */
START_TEST(positions)
{
	struct curve c = { .peak = 113.2 };
	for (int s = 0; s < NSIZES; s++)
		c.mib[s] = s >= K64 ? 113.2 : 50;
	c.lo = K64, c.hi = M1;
	ck_assert(!at_position(&c, K64, K64));
	ck_assert(!at_position(&c, K256, K256));
	ck_assert(at_position(&c, K64, K512));
	ck_assert(at_position(&c, K64, M1));
	ck_assert(!at_position(&c, K32, K256));
	c.mib[K64] = 120, c.peak = 120, c.lo = c.hi = K64;
	ck_assert(at_position(&c, K64, K64));
	ck_assert(!at_position(&c, K256, K256));
}
END_TEST

static Suite *iscsi_suite(void)
{
	Suite *s = suite_create("iscsi");
	vd_add(s, "ISCSI-N1", iscsi_n1);
	vd_add(s, "ISCSI-N2", iscsi_n2);
	vd_add(s, "ISCSI-N3", iscsi_n3);
	vd_add(s, "ISCSI-N4", iscsi_n4);
	vd_add(s, "ISCSI-N5", iscsi_n5);
	vd_add(s, "ISCSI-N6", iscsi_n6);
	vd_add(s, "ISCSI-F1", iscsi_f1);
	vd_add(s, "ISCSI-F2", iscsi_f2);
	vd_add(s, "ISCSI-F3", iscsi_f3);
	TCase *tc = tcase_create("positions");
	tcase_add_test(tc, positions);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vd_study_main(iscsi_suite, "iscsi");
}
