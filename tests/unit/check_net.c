/* Unit tests of src/net: Ethernet/TCP/iSCSI framing against the payload
 * ceilings worked out by hand from the frame layouts, a GbE link's payload
 * in full and half duplex, the adapter's costs, and failover that loses no
 * request. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TU_WANT_SCENARIO
#include "net/adapter.h"
#include "net/frame.h"
#include "net/multipath.h"
#include "run/series.h"
#include "testutil.h"

#define MIB (1024.0 * 1024.0)

static struct rs_eth_params gbe(uint64_t mtu, uint64_t max_segment)
{
	struct rs_eth_params p;
	struct rs_diag d;
	rs_diag_init(&d);
	ck_assert_int_eq(rs_eth_bind(NULL, "port", &p, &d), 0);
	p.mtu = mtu;
	p.max_segment = max_segment;
	return p;
}

/* The frame arithmetic: 1460-byte MSS and 1538 bytes on the wire per full
 * frame at MTU 1500; 8960 and 9038 at MTU 9000; 12 bytes less payload with
 * timestamps; a SCSI command PDU is 126 bytes on the wire and a 512-byte
 * read reply 638. */
START_TEST(frame_sizes)
{
	struct rs_eth_params p = gbe(1500, 65536);
	ck_assert_uint_eq(rs_eth_mss(&p), 1460);
	ck_assert_uint_eq(rs_eth_wire_bytes(&p, 1460), 1538);
	ck_assert_uint_eq(rs_iscsi_wire_bytes(&p, 0), 126);
	ck_assert_uint_eq(rs_iscsi_wire_bytes(&p, 512), 638);
	ck_assert_uint_eq(rs_iscsi_wire_bytes(&p, 4096), 4378);
	ck_assert_uint_eq(rs_iscsi_wire_bytes(&p, 8192), 8708);
	/* A bare ACK is a minimum frame: 64 + 20 bytes. */
	ck_assert_uint_eq(rs_eth_ack_wire_bytes(&p, 2), 84);
	p.timestamps = true;
	ck_assert_uint_eq(rs_eth_mss(&p), 1448);
	struct rs_eth_params j = gbe(9000, 65536);
	ck_assert_uint_eq(rs_eth_mss(&j), 8960);
	ck_assert_uint_eq(rs_eth_wire_bytes(&j, 8960), 9038);
	/* Digests: 4 bytes per PDU header, 4 per data segment. */
	struct rs_eth_params g = gbe(1500, 8192);
	g.header_digest = g.data_digest = true;
	ck_assert_uint_eq(rs_iscsi_stream_bytes(&g, 16384), 2 * (48 + 4 + 8192 + 4));
	ck_assert_uint_eq(rs_iscsi_pdus(&g, 16385), 3);
}
END_TEST

/* Payload ceilings of one direction (MB/s = 10^6 B/s), as computed by hand
 * from the frame layouts: MTU 1500 with 64 KiB PDUs 118.57, with 8 KiB PDUs
 * 117.97; MTU 9000 123.83 and 123.20. */
static const struct { uint64_t mtu, seg; double mb_s; } ceilings[] = {
	{ 1500, 65536, 118.57 }, { 1500, 8192, 117.97 },
	{ 9000, 65536, 123.83 }, { 9000, 8192, 123.20 },
};

START_TEST(payload_ceilings)
{
	struct rs_eth_params p = gbe(ceilings[_i].mtu, ceilings[_i].seg);
	tu_assert_rel(rs_iscsi_payload_ceiling(&p) / 1e6, ceilings[_i].mb_s, 0.001);
}
END_TEST

/* One adapter with free processing straight to a free target: only the
 * wire limits. */
#define BARE_DEVICE                                                             \
	"device:\n"                                                             \
	"  type: iscsi-adapter\n"                                               \
	"  port: {mtu: %d, duplex: %s}\n"                                       \
	"  target: {type: iscsi-target, fc_rate: 200MB/s, uplink: {mtu: %d, duplex: %s}}\n"

/* Runs of 10 s: with many 1 MiB requests in flight, completions come in
 * bunches, and a short window would count a bunch more or less. */
static void stream(struct tu_run *r, int mtu, const char *duplex, const char *size,
		   const char *read, int outstanding)
{
	tu_run(r,
	       BARE_DEVICE
	       "workload:\n"
	       "  iometer: {spec: seqread, size: %s, read: %s, outstanding: %d,\n"
	       "            ramp: 0.05s, run: 10s, range: 64MiB}\n",
	       mtu, duplex, mtu, duplex, size, read, outstanding);
}

START_TEST(gbe_read_stream_mtu1500)
{
	struct tu_run r;
	stream(&r, 1500, "full", "1MiB", "100%", 4);
	printf("1 MiB reads, MTU 1500: %.2f MiB/s\n", r.s.mib_s);
	tu_assert_rel(r.s.mib_s, 113.0, 0.01);
}
END_TEST

START_TEST(gbe_read_stream_mtu9000)
{
	struct tu_run r;
	stream(&r, 9000, "full", "1MiB", "100%", 4);
	struct rs_eth_params p = gbe(9000, 65536);
	double want = rs_iscsi_payload_ceiling(&p) / MIB;
	printf("1 MiB reads, MTU 9000: %.2f MiB/s (ceiling %.2f)\n", r.s.mib_s, want);
	tu_assert_rel(r.s.mib_s, 118.09, 0.01);
}
END_TEST

/* The payload scales with the line rate: 100 Mb/s and 10 Gb/s links give
 * a tenth and ten times the GbE figure (1 MiB reads, MTU 1500). */
static const struct { const char *rate; double mib_s; } rates[] = {
	{ "100Mb/s", 11.308 }, { "10Gb/s", 1130.8 },
};

START_TEST(line_rates)
{
	struct tu_run r;
	tu_run(&r,
	       "device:\n"
	       "  type: iscsi-adapter\n"
	       "  port: {rate: %s}\n"
	       "  target: {type: iscsi-target, fc_rate: 4GB/s, uplink: {rate: %s}}\n"
	       "workload:\n"
	       "  iometer: {spec: seqread, size: 1MiB, outstanding: 8, ramp: 0.5s, run: 20s,"
	       " range: 64MiB}\n",
	       rates[_i].rate, rates[_i].rate);
	printf("1 MiB reads at %s: %.2f MiB/s\n", rates[_i].rate, r.s.mib_s);
	tu_assert_rel(r.s.mib_s, rates[_i].mib_s, 0.01);
}
END_TEST

/* 50/50 reads and writes: full duplex carries each direction at the
 * one-way rate (less the other side's ACKs), half duplex shares one. */
START_TEST(duplex_doubles_half_does_not)
{
	struct tu_run one, full, half;
	/* Enough in flight that both directions stay busy whatever the
	 * random mix of the moment. */
	stream(&one, 1500, "full", "1MiB", "100%", 32);
	stream(&full, 1500, "full", "1MiB", "50%", 32);
	stream(&half, 1500, "half", "1MiB", "50%", 32);
	printf("one way %.1f, full duplex 50/50 %.1f, half duplex 50/50 %.1f MiB/s\n",
	       one.s.mib_s, full.s.mib_s, half.s.mib_s);
	/* Twice the one-way figure less the ACKs each direction carries
	 * for the other (84 B per two 1538 B frames, 2.7 %) and moments when
	 * the random mix leaves one direction short of work. */
	ck_assert(full.s.mib_s > 1.85 * one.s.mib_s);
	ck_assert(half.s.mib_s < 1.02 * one.s.mib_s);
	ck_assert(half.s.mib_s > 0.9 * one.s.mib_s);
}
END_TEST

/* Small requests: the processor's per-PDU cost, not the wire, limits.
 * A 512 B read is 2 PDUs, a write 3. */
START_TEST(per_pdu_cost_limits_iops)
{
	struct tu_run r, w;
	tu_run(&r,
	       "device:\n"
	       "  type: iscsi-adapter\n"
	       "  read_pdu_cost: 10us\n"
	       "  write_pdu_cost: 10us\n"
	       "  target: {type: iscsi-target}\n"
	       "workload: {iometer: {spec: seqread, size: 512, outstanding: 16, run: 0.2s,"
	       " range: 1MiB}}\n");
	tu_run(&w,
	       "device:\n"
	       "  type: iscsi-adapter\n"
	       "  read_pdu_cost: 10us\n"
	       "  write_pdu_cost: 10us\n"
	       "  target: {type: iscsi-target}\n"
	       "workload: {iometer: {spec: seqwrite, size: 512, outstanding: 16, run: 0.2s,"
	       " range: 1MiB}}\n");
	tu_assert_rel(r.s.iops, 1e6 / 20.0, 0.01);
	tu_assert_rel(w.s.iops, 1e6 / 30.0, 0.01);
}
END_TEST

/* How much of the processor's work reads and writes share.  512 B, 50/50,
 * 10 us per PDU: a read is 20 us of work, a write 30 us.  All shared: one
 * processor does a read and a write in 50 us, 40 k IOPS.  Half shared:
 * the shared part of a pair is 25 us, 80 k IOPS (each path's own engine
 * is less busy).  None shared: the write engine's 30 us per write is the
 * limit, 33.3 k writes and as many reads, 66.7 k IOPS. */
static double duplex_iops(const char *shared_work)
{
	char text[512];
	snprintf(text, sizeof(text),
		 "device:\n"
		 "  type: iscsi-adapter\n"
		 "  read_pdu_cost: 10us\n"
		 "  write_pdu_cost: 10us\n"
		 "  shared_work: %s\n"
		 "  target: {type: iscsi-target}\n"
		 "workload: {iometer: {spec: seqread, read: 50%%, size: 512, outstanding: 32,"
		 " run: 0.2s, range: 1MiB}}\n", shared_work);
	struct tu_run r;
	tu_run(&r, text);
	return r.s.iops;
}

START_TEST(shared_work_sets_duplex_overlap)
{
	tu_assert_rel(duplex_iops("100%"), 40e3, 0.01);
	tu_assert_rel(duplex_iops("50%"), 80e3, 0.01);
	tu_assert_rel(duplex_iops("0%"), 200e3 / 3, 0.01);
}
END_TEST

/* Where the per-byte work runs.  50/50, 512 B, 10 us per PDU (a read 20 us,
 * a write 30 us) and 40 us of data work per command.  On the processor: a
 * read and a write take 60 + 70 us, 15.4 k IOPS.  One data engine beside
 * the processor: the engine's 80 us per pair limits, 25 k IOPS.  One data
 * engine per path: the processor's 50 us per pair limits, 40 k IOPS. */
static double byte_engine_iops(const char *where)
{
	char text[640];
	snprintf(text, sizeof(text),
		 "device:\n"
		 "  type: iscsi-adapter\n"
		 "  read_pdu_cost: 10us\n"
		 "  write_pdu_cost: 10us\n"
		 "  read_rate: 12.8MB/s\n"
		 "  write_rate: 12.8MB/s\n"
		 "  byte_engine: %s\n"
		 "  target: {type: iscsi-target}\n"
		 "workload: {iometer: {spec: seqread, read: 50%%, size: 512, outstanding: 32,"
		 " run: 0.2s, range: 1MiB}}\n", where);
	struct tu_run r;
	tu_run(&r, text);
	return r.s.iops;
}

START_TEST(byte_engine_overlaps_pdu_work)
{
	tu_assert_rel(byte_engine_iops("processor"), 2e6 / 130.0, 0.02);
	tu_assert_rel(byte_engine_iops("shared"), 25e3, 0.02);
	tu_assert_rel(byte_engine_iops("per-path"), 40e3, 0.02);
}
END_TEST

/* The target's cache serves its first cache_size bytes; requests beyond
 * fall through to the disks behind it (here an ideal 1 ms device). */
START_TEST(target_cache_and_disks)
{
	struct tu_run hit, miss;
	const char *fmt =
		"device:\n"
		"  type: iscsi-adapter\n"
		"  target:\n"
		"    type: iscsi-target\n"
		"    cache_size: 1MiB\n"
		"    disks: {type: ideal, mean: 1ms}\n"
		"workload: {iometer: {spec: seqread, size: 4KiB, random: 100%%, outstanding: 4,"
		" run: 2s, offset: %s, range: 1MiB}}\n";
	tu_run(&hit, fmt, "0B");
	tu_run(&miss, fmt, "1MiB");
	printf("cache hits %.0f IOPS, beyond the cache %.0f IOPS\n", hit.s.iops, miss.s.iops);
	tu_assert_rel(miss.s.iops, 1000.0, 0.02);
	ck_assert(hit.s.iops > 10 * miss.s.iops);
}
END_TEST

/* Link aggregation at the switch: two adapters reading 1 MiB requests
 * share the gateway's single GbE port, or get one each of two aggregated
 * ports (sessions hash to ports). */
START_TEST(uplink_aggregation)
{
	struct tu_run one, two;
	const char *fmt =
		"device:\n"
		"  type: multipath\n"
		"  policy: round-robin\n"
		"  paths: [{type: iscsi-adapter}, {type: iscsi-adapter}]\n"
		"  target: {type: iscsi-target, uplinks: %d, fc_links: 4, fc_rate: 200MB/s}\n"
		"workload: {iometer: {spec: seqread, size: 1MiB, outstanding: 8, ramp: 0.1s,"
		" run: 10s, range: 64MiB}}\n";
	tu_run(&one, fmt, 1);
	tu_run(&two, fmt, 2);
	printf("two adapters, 1 uplink %.1f MiB/s, 2 aggregated uplinks %.1f MiB/s\n",
	       one.s.mib_s, two.s.mib_s);
	tu_assert_rel(one.s.mib_s, 113.0, 0.02);
	tu_assert_rel(two.s.mib_s, 226.0, 0.02);
}
END_TEST

/* ---- failover --------------------------------------------------------- */

struct pull {
	rs_time_t at;
	bool mid_transfer;            /* the port was moving data when pulled */
};

static void pull_now(struct rs_sim *sim, void *obj, void *arg)
{
	struct pull *p = arg;
	p->mid_transfer = !rs_link_idle(rs_iscsi_adapter_port(obj));
	rs_iscsi_adapter_set_link(sim, obj, false);
}

/* Pull port1 while a 1 MiB transfer is on the wire. */
static void pull_hook(struct rs_sim *sim, struct rs_dev *dev, struct rs_load *load, void *arg)
{
	struct pull *p = arg;
	rs_sched(sim, p->at, pull_now, dev->members[1], p);
}

static const char *const policies[] = { "failover", "round-robin", "load-balance" };
static const char *const losses[] = { "fail", "hold" };

/* Every request either completes or fails with a counted error: the
 * workload's ops + errors equal what it issued (tu_run checks the exactly-
 * once conservation and that the device completed all it was given). */
START_TEST(no_request_lost_in_failover)
{
	const char *policy = policies[_i % 3];
	const char *loss = losses[_i / 3 % 2];
	const char *retry = _i < 6 ? "true" : "false";
	struct pull p = { .at = 30 * 1000 * 1000 + 4 * 1000 * 1000 };
	struct tu_run r;
	tu_run_hook(&r, pull_hook, &p,
		    "device:\n"
		    "  type: multipath\n"
		    "  policy: %s\n"
		    "  detect: 50ms\n"
		    "  retry: %s\n"
		    "  paths:\n"
		    "    - {type: iscsi-adapter, on_path_loss: %s, io_timeout: 100ms,"
		    " relogin: 10ms}\n"
		    "    - {type: iscsi-adapter, on_path_loss: %s, io_timeout: 100ms,"
		    " relogin: 10ms}\n"
		    "  target: {type: iscsi-target}\n"
		    "workload: {iometer: {spec: seqread, size: 1MiB, outstanding: 2, run: 0.3s,"
		    " range: 64MiB}}\n",
		    policy, retry, loss, loss);
	printf("%s/%s/retry %s: %llu ok, %llu errors\n", policy, loss, retry,
	       (unsigned long long)r.s.ops,
	       (unsigned long long)r.s.errors);
	ck_assert(p.mid_transfer);
	ck_assert_uint_gt(r.s.ops, 0);
	ck_assert_uint_eq(r.io.created, r.io.completed);
	if (strcmp(policy, "failover") == 0 && strcmp(loss, "fail") == 0 &&
	    strcmp(retry, "true") == 0)
		ck_assert_uint_eq(r.s.errors, 0);   /* the team retries on port2 */
	if (strcmp(policy, "round-robin") == 0 && strcmp(loss, "hold") == 0 &&
	    strcmp(retry, "false") == 0)
		ck_assert_uint_gt(r.s.errors, 0);
}
END_TEST

/* The time series shows a pull as it happens: two adapters that hold the
 * commands of a dead path, load balanced without failover, carry half as
 * much after port1 is pulled (the half that went to port1 waits there), and
 * everything again once the link is back and the session has logged in;
 * the held commands are re-issued, not failed.  Sampled by run/series.h. */
struct series_hook {
	struct rs_series_sampler sampler;
	struct rs_timeseries ts;
};

static void series_start(struct rs_sim *sim, struct rs_dev *dev, struct rs_load *load,
			 void *arg)
{
	struct series_hook *h = arg;
	rs_ts_init(&h->ts, 100 * 1000 * 1000, load->ramp_ns + load->run_ns);
	rs_series_start(&h->sampler, sim, load, &h->ts);
}

START_TEST(series_shows_pull_and_return)
{
	struct series_hook h;
	memset(&h, 0, sizeof(h));
	struct tu_run r;
	tu_run_hook(&r, series_start, &h,
		    "device:\n"
		    "  type: multipath\n"
		    "  policy: load-balance\n"
		    "  health: false\n"
		    "  retry: false\n"
		    "  paths:\n"
		    "    - {type: iscsi-adapter, read_pdu_cost: 20us, on_path_loss: hold,"
		    " io_timeout: 10s, relogin: 200ms}\n"
		    "    - {type: iscsi-adapter, read_pdu_cost: 20us, on_path_loss: hold,"
		    " io_timeout: 10s, relogin: 200ms}\n"
		    "  target: {type: iscsi-target}\n"
		    "  faults: [{at: 0.5s, link: port1, state: down}, {at: 1s, link: port1, state: up}]\n"
		    "workload: {iometer: {spec: seqread, size: 512, outstanding: 16, run: 2s,"
		    " range: 1MiB}}\n");
	const struct rs_timeseries *ts = &h.ts;
	ck_assert_uint_ge(ts->used, 20);
	double before = (double)ts->b[3].ops, during = (double)ts->b[8].ops;
	double after = (double)ts->b[15].ops;
	printf("series: %.0f before, %.0f with port1 down, %.0f after the re-login (per 100 ms)\n",
	       before, during, after);
	tu_assert_rel(during, before / 2, 0.05);
	tu_assert_rel(after, before, 0.05);
	ck_assert_uint_eq(r.s.errors, 0);
	rs_ts_free(&h.ts);
}
END_TEST

/* A held command whose session does not return in time fails with a
 * timeout: counted, not lost. */
START_TEST(hold_times_out_when_link_stays_down)
{
	struct tu_run r;
	tu_run(&r,
	       "device:\n"
	       "  type: multipath\n"
	       "  policy: round-robin\n"
	       "  health: false\n"
	       "  retry: false\n"
	       "  paths:\n"
	       "    - {type: iscsi-adapter, on_path_loss: hold, io_timeout: 300ms}\n"
	       "    - {type: iscsi-adapter, on_path_loss: hold, io_timeout: 300ms}\n"
	       "  target: {type: iscsi-target}\n"
	       "  faults: [{at: 0.1s, link: port2, state: down}]\n"
	       "workload: {iometer: {spec: seqread, size: 4KiB, outstanding: 4, run: 1s,"
	       " range: 1MiB}}\n");
	printf("hold/timeout: %llu ok, %llu errors\n", (unsigned long long)r.s.ops,
	       (unsigned long long)r.s.errors);
	ck_assert_uint_gt(r.s.errors, 0);
	ck_assert_uint_gt(r.s.ops, 0);
}
END_TEST

/* Fail-fast: once the driver gives a dead session up (session_timeout),
 * commands sent to it fail after fail_delay, each re-issued `retries`
 * times first, instead of waiting out io_timeout.  Round robin over a live
 * and a dead path, 4 outstanding: each dead command takes 5 x 1 ms, so
 * requests fail about as often as they succeed, some 790 a second each. */
static void fail_fast_run(struct tu_run *r, const char *session_timeout, int retries)
{
	tu_run(r,
	       "device:\n"
	       "  type: multipath\n"
	       "  policy: round-robin\n"
	       "  health: false\n"
	       "  retry: false\n"
	       "  paths:\n"
	       "    - {type: iscsi-adapter, on_path_loss: hold, io_timeout: 10s,"
	       " session_timeout: %s, fail_delay: 1ms, retries: %d}\n"
	       "    - {type: iscsi-adapter, on_path_loss: hold, io_timeout: 10s,"
	       " session_timeout: %s, fail_delay: 1ms, retries: %d}\n"
	       "  target: {type: iscsi-target}\n"
	       "  faults: [{at: 0.1s, link: port2, state: down}]\n"
	       "workload: {iometer: {spec: seqread, size: 512, outstanding: 4, ramp: 0.4s,"
	       " run: 1s, range: 1MiB}}\n",
	       session_timeout, retries, session_timeout, retries);
}

START_TEST(session_given_up_fails_fast)
{
	struct tu_run held, fast, once;
	fail_fast_run(&held, "0s", 4);
	fail_fast_run(&fast, "200ms", 4);
	fail_fast_run(&once, "200ms", 0);
	printf("fail-fast: held %llu ok %llu errors; given up %llu ok %llu errors; "
	       "no retries %llu ok %llu errors\n",
	       (unsigned long long)held.s.ops, (unsigned long long)held.s.errors,
	       (unsigned long long)fast.s.ops, (unsigned long long)fast.s.errors,
	       (unsigned long long)once.s.ops, (unsigned long long)once.s.errors);
	/* Held: by the measured window (from 0.4 s) every slot waits on the
	 * dead path for 10 s. */
	ck_assert_uint_eq(held.s.errors, 0);
	ck_assert_uint_lt(held.s.ops, 10);
	/* Given up at 0.3 s: 4 slots each cycling 5 ms dead + a live one. */
	ck_assert(fast.s.errors > 600 && fast.s.errors < 900);
	tu_assert_rel((double)fast.s.ops, (double)fast.s.errors, 0.1);
	/* Without the class driver's retries each dead command takes 1 ms. */
	ck_assert(once.s.errors > 4 * fast.s.errors);
}
END_TEST

static Suite *net_suite(void)
{
	Suite *s = suite_create("net");
	TCase *tf = tcase_create("framing");
	tcase_add_test(tf, frame_sizes);
	tcase_add_loop_test(tf, payload_ceilings, 0,
			    (int)(sizeof(ceilings) / sizeof(ceilings[0])));
	suite_add_tcase(s, tf);
	TCase *tl = tcase_create("links");
	tcase_set_timeout(tl, 120);
	tcase_add_test(tl, gbe_read_stream_mtu1500);
	tcase_add_test(tl, gbe_read_stream_mtu9000);
	tcase_add_test(tl, duplex_doubles_half_does_not);
	tcase_add_loop_test(tl, line_rates, 0, (int)(sizeof(rates) / sizeof(rates[0])));
	tcase_add_test(tl, per_pdu_cost_limits_iops);
	tcase_add_test(tl, shared_work_sets_duplex_overlap);
	tcase_add_test(tl, byte_engine_overlaps_pdu_work);
	tcase_add_test(tl, target_cache_and_disks);
	tcase_add_test(tl, uplink_aggregation);
	suite_add_tcase(s, tl);
	TCase *tm = tcase_create("multipath");
	tcase_set_timeout(tm, 120);
	tcase_add_loop_test(tm, no_request_lost_in_failover, 0, 12);
	tcase_add_test(tm, series_shows_pull_and_return);
	tcase_add_test(tm, hold_times_out_when_link_stays_down);
	tcase_add_test(tm, session_given_up_fails_fast);
	suite_add_tcase(s, tm);
	return s;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	SRunner *sr = srunner_create(net_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
