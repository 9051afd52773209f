/* Validation against the iSCSI adapters study (Express-Electronika, 2004):
 * Alacritech SES1001T, Adaptec 7211C and Intel PRO/1000T IPSA, each alone
 * through a GbE switch to an iSCSI-to-FC gateway and a cached disk system,
 * 512 B .. 1 MiB requests, 50/50 duplex, 100 % read and 100 % write; then
 * two adapters of a kind with a cable pulled and restored.  One test per
 * finding ISCSI-N1..N6 and ISCSI-F1..F3.
 *
 * The adapters' processor costs are calibrated on N3..N6 (models/adapters/,
 * said in each file), so those must hold within 3 %; N1 and N2 are
 * predictions, within 10 %; F1..F3 are predictions judged on their shape,
 * with the absolute figures compared within 25 % where the model can be
 * compared at all (the verdict text says where not).  Outstanding requests
 * (32) and the failover workload (512 B reads: the study's MB/s over IOPS is
 * 512 B; reads, as its tables do not say) are estimates.  The failover
 * runs follow the study's timeline: readings just before the pull of port 1
 * at 2 min (115-120 s), one minute after it (170-180 s), and 10 s after port
 * 2 is pulled (315-320 s), port 1 having been restored at 300 s, two minutes
 * after the second reading and 10 s before that pull.  Each reading gives
 * IOPS and errors per second over its window (the study's readings are per
 * Iometer update: its IOPS fell to 2 % a minute after the pull, which an
 * average since the start could not) and the errors counted from the start.
 *
 * The honesty mechanism is validation.h's: `findings[]` lists each id with
 * the status we EXPECT; a test fails when a reproduced finding regresses
 * and when one not reproduced starts to be. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "run/series.h"
#include "validation.h"

static const struct finding findings[] = {
	{ "ISCSI-N1", NOT_REPRODUCED,
	  "Alacritech's 211.6 MiB/s holds (two directions at the GbE ceiling); for Adaptec and Intel the "
	  "figure N3..N6 leave free (shared processor work; per-byte write cost) is set wrong, though the "
	  "study's values lie within its range" },
	{ "ISCSI-N2", REPRODUCED, "duplex 512 B IOPS from the calibrated per-PDU costs" },
	{ "ISCSI-N3", REPRODUCED, "calibration set (read per-PDU and per-byte costs)" },
	{ "ISCSI-N4", REPRODUCED, "calibration set" },
	{ "ISCSI-N5", REPRODUCED, "calibration set (write costs; Alacritech and Intel at the wire)" },
	{ "ISCSI-N6", REPRODUCED, "calibration set" },
	{ "ISCSI-F1", REPRODUCED, "two adapters before any fault, within 25 %" },
	{ "ISCSI-F2", NOT_REPRODUCED,
	  "shapes hold (team unchanged, Intel halved with no error, Adaptec near zero failing as many "
	  "requests per second as it completes) but not Adaptec's 499 IOPS: at 32 outstanding that "
	  "means ~64 ms per failed request, where the model holds each for its 10 s timeout" },
	{ "ISCSI-F3", REPRODUCED, "team unchanged; Adaptec and Intel at zero" },
};
#define NFINDINGS (sizeof(findings) / sizeof(findings[0]))

enum { ALA, ADP, INT, NAD };
static const char *const model[NAD] = { "alacritech-ses1001t", "adaptec-7211c",
					"intel-pro1000t-ipsa" };
static const char *const short_name[NAD] = { "Alacritech", "Adaptec", "Intel" };
enum { DUPLEX, READ, WRITE, NWL };
static const char *const read_pct[NWL] = { "50%", "100%", "0%" };
static const char *const sizes[] = { "512", "1KiB", "2KiB", "4KiB", "8KiB", "16KiB", "32KiB",
				     "64KiB", "128KiB", "256KiB", "512KiB", "1MiB" };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static struct rs_iostat_summary memo[NAD][NWL][NSIZES];
static bool have[NAD][NWL][NSIZES];

/* One point of adapter a, workload w, size s; `extra` adds device keys
 * (YAML, e.g. "shared_work: 0%") over the model's. */
static struct rs_iostat_summary run_point(int a, int w, size_t s, const char *extra)
{
	char text[1024];
	int n = snprintf(text, sizeof(text),
			 "device:\n"
			 "  model: %s\n"
			 "  %s\n"
			 "  target: {model: mcdata-ips3300-lsi-df4000r}\n"
			 "workload:\n"
			 "  iometer: {spec: seqread, read: %s, size: %s, outstanding: 32,"
			 " range: 64MiB, ramp: 0.1s, run: 2s}\n",
			 model[a], extra ? extra : "", read_pct[w], sizes[s]);
	struct tu_point p;
	vd_run(&p, "iscsi.yaml", text, (size_t)n, "device");
	struct rs_iostat_summary sum = p.load->summary;
	tu_point_free(&p);
	return sum;
}

static const struct rs_iostat_summary *point(int a, int w, size_t s)
{
	if (!have[a][w][s]) {
		memo[a][w][s] = run_point(a, w, s, NULL);
		have[a][w][s] = true;
	}
	return &memo[a][w][s];
}

/* The peak MiB/s over the sizes; `extra` as in run_point (NULL: the
 * model as it is, memoised). */
static double peak_mib(int a, int w, const char *extra)
{
	double best = 0;
	for (size_t s = 0; s < NSIZES; s++) {
		double m = extra ? run_point(a, w, s, extra).mib_s : point(a, w, s)->mib_s;
		if (m > best)
			best = m;
	}
	return best;
}

static bool near(double got, double want, double tol)
{
	return fabs(got - want) <= tol * want;
}

/* `more`: text to add to the measured column (NULL: none). */
static void check_three(const char *id, const double study[NAD], bool iops, int w, double tol,
			const char *study_text, const char *more)
{
	struct text t = { .n = 0 };
	bool all = true;
	for (int a = 0; a < NAD; a++) {
		double got = iops ? point(a, w, 0)->iops : peak_mib(a, w, NULL);
		bool okk = near(got, study[a], tol);
		all = all && okk;
		add(&t, "%s %.1f (%+.1f%%, %s); ", short_name[a], got,
		    100.0 * (got - study[a]) / study[a], ok(okk));
	}
	if (more)
		add(&t, "%s", more);
	verdict(id, all, t.s, study_text);
}

/* The one-direction results that calibrate the adapters leave one figure
 * per card free, and N1 is where it shows.  Adaptec: how much of the
 * processor's work reads and writes share (`shared_work`, 100 % in the
 * model, an estimate); 0 % is the other end.  Intel: the per-byte cost of
 * writes, hidden by the wire in N5 (`write_rate` free in the model); its
 * other end is the slowest processor N5 allows: 1 MiB writes at 113.1 MiB/s
 * take 8.84 ms each on the wire, less 17 PDUs x 19.62 us leaves 8.51 ms
 * for 1 MiB, 123 MB/s.  N1 is not reproduced by the models' values; this
 * test also holds that the study's figure lies between the two ends, so
 * the miss is that free figure (one measurement would settle it), not a
 * missing mechanism. */
START_TEST(iscsi_n1)
{
	static const double s[NAD] = { 211.6, 134.4, 129.1 };
	struct {
		int a;
		const char *free_end;
	} ends[] = { { ADP, "shared_work: 0%" }, { INT, "write_rate: 123MB/s" } };
	struct text t = { .n = 0 };
	add(&t, "free figure's range:");
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		int a = ends[i].a;
		double model_end = peak_mib(a, DUPLEX, NULL);
		double other_end = peak_mib(a, DUPLEX, ends[i].free_end);
		double lo = fmin(model_end, other_end), hi = fmax(model_end, other_end);
		add(&t, " %s %.1f..%.1f (%s),", short_name[a], lo, hi, ends[i].free_end);
		ck_assert_msg(s[a] >= lo && s[a] <= hi,
			      "%s: study's %.1f outside what the calibration allows, %.1f .. %.1f",
			      short_name[a], s[a], lo, hi);
	}
	add(&t, " study inside both");
	check_three("ISCSI-N1", s, false, DUPLEX, 0.10,
		    "peak MB/s Alacritech 211.6, Adaptec 134.4, Intel 129.1; within 10 %", t.s);
}
END_TEST

START_TEST(iscsi_n2)
{
	static const double s[NAD] = { 47690.5, 10728.2, 14486.9 };
	check_three("ISCSI-N2", s, true, DUPLEX, 0.10,
		    "512 B IOPS Alacritech 47690.5, Adaptec 10728.2, Intel 14486.9; within 10 %", NULL);
}
END_TEST

START_TEST(iscsi_n3)
{
	static const double s[NAD] = { 113.1, 93.7, 76.4 };
	check_three("ISCSI-N3", s, false, READ, 0.03,
		    "peak MB/s Alacritech 113.1, Adaptec 93.7, Intel 76.4; within 3 %", NULL);
}
END_TEST

START_TEST(iscsi_n4)
{
	static const double s[NAD] = { 46001.5, 11657.2, 14491.7 };
	check_three("ISCSI-N4", s, true, READ, 0.03,
		    "512 B IOPS Alacritech 46001.5, Adaptec 11657.2, Intel 14491.7; within 3 %", NULL);
}
END_TEST

START_TEST(iscsi_n5)
{
	static const double s[NAD] = { 113.2, 109.9, 113.1 };
	check_three("ISCSI-N5", s, false, WRITE, 0.03,
		    "peak MB/s Alacritech 113.2, Adaptec 109.9, Intel 113.1; within 3 %", NULL);
}
END_TEST

START_TEST(iscsi_n6)
{
	static const double s[NAD] = { 23733, 9354, 16992.3 };
	check_three("ISCSI-N6", s, true, WRITE, 0.03,
		    "512 B IOPS Alacritech 23733, Adaptec 9354, Intel 16992.3; within 3 %", NULL);
}
END_TEST

/* ---- failover ------------------------------------------------------------ */

/* Each adapter's own multipath setting in the study: Alacritech as a team
 * (failover), the others in load balancing without failover support:
 * Adaptec spreading requests in turn, Intel to the less busy adapter. */
static const char *const mp_setting[NAD] = {
	"policy: failover, health: true, detect: 1s, retry: true",
	"policy: round-robin, health: false, retry: false",
	"policy: load-balance, health: false, retry: false",
};

struct phase {
	double iops, mib_s;
	uint64_t errors;              /* counted up to the end of the phase */
	double errors_s;              /* per second within the phase */
};
static struct phase fo[NAD][3];
static bool fo_have[NAD];

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

/* vd_run with the run sampled every second (run/series.h), as a
 * scenario's `output: {timeseries: 1s}` does. */
static void run_sampled(const char *text, size_t n, struct rs_timeseries *ts)
{
	struct tu_point p;
	tu_point_build(&p, "failover.yaml", text, n, "device", 1);
	tu_point_need(&p, p.load);
	struct rs_series_sampler sampler;
	rs_ts_init(ts, 1000 * 1000 * 1000, p.load->ramp_ns + p.load->run_ns);
	rs_series_start(&sampler, p.sim, p.load, ts);
	tu_point_go(&p);
	tu_point_free(&p);
}

static void failover(int a)
{
	if (fo_have[a])
		return;
	char text[2048];
	int n = snprintf(text, sizeof(text),
			 "device:\n"
			 "  type: multipath\n"
			 "  {%s}\n"
			 "  paths: [{model: %s}, {model: %s}]\n"
			 "  target: {model: mcdata-ips3300-lsi-df4000r}\n"
			 "  faults: [{at: 120s, link: port1, state: down}, {at: 300s, link: port1, state: up},\n"
			 "           {at: 310s, link: port2, state: down}]\n"
			 "workload:\n"
			 "  iometer: {spec: seqread, read: 100%%, size: 512, outstanding: 32,"
			 " range: 64MiB, run: 320s}\n",
			 mp_setting[a], model[a], model[a]);
	/* The flow mapping of the setting is spliced in as plain keys. */
	char *brace = strstr(text, "  {");
	char flat[2048];
	size_t pre = (size_t)(brace - text);
	char *end = strchr(brace, '}');
	char keys[512];
	size_t kl = (size_t)(end - brace - 3);
	memcpy(keys, brace + 3, kl);
	keys[kl] = '\0';
	struct text k = { .n = 0 };
	for (char *tok = strtok(keys, ","); tok; tok = strtok(NULL, ","))
		add(&k, "  %s\n", tok[0] == ' ' ? tok + 1 : tok);
	n = snprintf(flat, sizeof(flat), "%.*s%s%s", (int)pre, text, k.s, end + 2);
	struct rs_timeseries ts;
	run_sampled(flat, (size_t)n, &ts);
	phase_of(&ts, 115, 120, &fo[a][0]);
	phase_of(&ts, 170, 180, &fo[a][1]);
	phase_of(&ts, 315, 320, &fo[a][2]);
	fo_have[a] = true;
	rs_ts_free(&ts);
}

static const double f_iops[3][NAD] = {
	{ 37954.57, 23814.59, 33435.95 },
	{ 38596.54, 498.66, 16887.85 },
	{ 37764.92, 0, 0 },
};

static void describe(struct text *t, int ph)
{
	for (int a = 0; a < NAD; a++)
		add(t, "%s %.0f IOPS %.2f MiB/s %llu errors (%.1f/s); ", short_name[a], fo[a][ph].iops,
		    fo[a][ph].mib_s, (unsigned long long)fo[a][ph].errors, fo[a][ph].errors_s);
}

START_TEST(iscsi_f1)
{
	struct text t = { .n = 0 };
	bool all = true;
	for (int a = 0; a < NAD; a++) {
		failover(a);
		all = all && near(fo[a][0].iops, f_iops[0][a], 0.25) && fo[a][0].errors == 0;
	}
	describe(&t, 0);
	verdict("ISCSI-F1", all, t.s,
		"Alacritech 37954.57, Adaptec 23814.59, Intel 33435.95 IOPS, 0 errors; within 25 %");
}
END_TEST

START_TEST(iscsi_f2)
{
	for (int a = 0; a < NAD; a++)
		failover(a);
	struct text t = { .n = 0 };
	bool team = near(fo[ALA][1].iops, fo[ALA][0].iops, 0.05) && fo[ALA][1].errors == 0;
	bool intel = near(fo[INT][1].iops, fo[INT][0].iops / 2, 0.15) && fo[INT][1].errors == 0;
	/* The study's 530 errors beside 498.66 IOPS: read per Iometer update
	 * like the IOPS (which fell to 2 % a minute after the pull, so the
	 * readings are not averages since the start), about as many requests
	 * fail per second as succeed: the signature of every other request
	 * going to the dead path and failing there.  The model must show it. */
	bool adaptec_shape = fo[ADP][1].iops < 0.05 * fo[ADP][0].iops &&
			     near(fo[ADP][1].errors_s, fo[ADP][1].iops, 0.25);
	bool adaptec_abs = near(fo[ADP][1].iops, f_iops[1][ADP], 0.25);
	describe(&t, 1);
	add(&t, "team unchanged %s, Intel halved %s, Adaptec near zero with as many errors as "
	    "I/Os per second %s, Adaptec IOPS within 25 %% %s", ok(team), ok(intel),
	    ok(adaptec_shape), ok(adaptec_abs));
	verdict("ISCSI-F2", team && intel && adaptec_shape && adaptec_abs, t.s,
		"Alacritech 38596.54 IOPS 0 errors; Adaptec 498.66 IOPS 530 errors; "
		"Intel 16887.85 IOPS 0 errors");
}
END_TEST

START_TEST(iscsi_f3)
{
	for (int a = 0; a < NAD; a++)
		failover(a);
	struct text t = { .n = 0 };
	bool team = near(fo[ALA][2].iops, fo[ALA][0].iops, 0.05) && fo[ALA][2].errors == 0;
	bool adaptec = fo[ADP][2].iops < 0.01 * fo[ADP][0].iops && fo[ADP][2].errors > 0;
	bool intel = fo[INT][2].iops < 0.01 * fo[INT][0].iops && fo[INT][2].errors == 0;
	describe(&t, 2);
	add(&t, "team unchanged %s, Adaptec zero with errors %s, Intel zero without %s", ok(team),
	    ok(adaptec), ok(intel));
	verdict("ISCSI-F3", team && adaptec && intel, t.s,
		"Alacritech 37764.92 IOPS 0 errors; Adaptec 0, 540 errors; Intel 0, 0 errors");
}
END_TEST

static Suite *iscsi_suite(void)
{
	Suite *s = suite_create("iscsi");
	TCase *tc = tcase_create("findings");
	tcase_set_tags(tc, "slow");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, iscsi_n1);
	tcase_add_test(tc, iscsi_n2);
	tcase_add_test(tc, iscsi_n3);
	tcase_add_test(tc, iscsi_n4);
	tcase_add_test(tc, iscsi_n5);
	tcase_add_test(tc, iscsi_n6);
	tcase_add_test(tc, iscsi_f1);
	tcase_add_test(tc, iscsi_f2);
	tcase_add_test(tc, iscsi_f3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	return vd_main(iscsi_suite, findings, NFINDINGS, "check_iscsi.c", "findings-iscsi.tsv");
}
