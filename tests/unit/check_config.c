/* Unit tests for src/config: units, YAML trees with positions, paths,
 * merging, schema binding, model lookup and sweep expansion.  Every
 * rejection is checked for its message and position, since those are
 * what a user sees. */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp, setenv */

#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_CONFIG_H
#include "config.h"           /* RS_MODELS_DIR */
#endif
#include "config/diag.h"
#include "config/emit.h"
#include "config/limits.h"
#include "config/models.h"
#include "config/node.h"
#include "config/schema.h"
#include "config/sweep.h"
#include "config/units.h"
#include "run/scenario.h"

/* ---- helpers ---- */

static struct rs_node *parse(const char *text, struct rs_diag *d)
{
	rs_diag_init(d);
	return rs_yaml_load_string("t.yaml", text, strlen(text), d);
}

/* Parsing must succeed. */
static struct rs_node *parse_ok(const char *text)
{
	struct rs_diag d;
	struct rs_node *n = parse(text, &d);

	ck_assert_msg(n != NULL, "unexpected error: %s:%d:%d: %s", d.file, d.line, d.col,
		      d.msg);
	return n;
}

/* Parsing must fail with this message at this place. */
static void parse_fails(const char *text, int line, int col, const char *msg)
{
	struct rs_diag d;
	struct rs_node *n = parse(text, &d);

	ck_assert_msg(n == NULL, "parse of '%s' should fail", text);
	ck_assert(d.failed);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_int_eq(d.line, line);
	ck_assert_int_eq(d.col, col);
	ck_assert_str_eq(d.file, "t.yaml");
}

/* Parsing must fail with a message starting with `prefix`. */
static void parse_fails_prefix(const char *text, const char *prefix)
{
	struct rs_diag d;
	struct rs_node *n = parse(text, &d);

	ck_assert_msg(n == NULL, "parse of '%s' should fail", text);
	ck_assert_msg(strncmp(d.msg, prefix, strlen(prefix)) == 0, "got '%s', want '%s...'",
		      d.msg, prefix);
}

static char tmpdir[256];

static void make_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_config.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rm_rf(const char *path)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	ck_assert_int_eq(system(cmd), 0);
}

/* Write `text` to tmpdir/rel, creating directories on the way. */
static const char *write_file(const char *rel, const char *text, size_t len)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	for (char *p = path + strlen(tmpdir) + 1; *p; p++) {
		if (*p == '/') {
			*p = 0;
			mkdir(path, 0700);
			*p = '/';
		}
	}
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

static const char *write_text(const char *rel, const char *text)
{
	return write_file(rel, text, strlen(text));
}

static void diag_text(const struct rs_diag *d, char *buf, size_t len)
{
	FILE *f = tmpfile();
	size_t n;

	ck_assert_ptr_nonnull(f);
	rs_diag_print(d, f);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

/* ---- diagnostics ---- */

START_TEST(diag_format)
{
	struct rs_diag d;
	char buf[256];

	rs_diag_init(&d);
	ck_assert(!d.failed);
	ck_assert_int_eq(rs_diag_at(&d, "x.yaml", 14, 9, "unknown key '%s'", "stirpe"), -1);
	rs_diag_at(&d, "y.yaml", 1, 1, "second error is dropped");
	diag_text(&d, buf, sizeof(buf));
	ck_assert_str_eq(buf, "x.yaml:14:9: error: unknown key 'stirpe'\n");

	/* A file-level problem is placed at 1:1 so tools can parse it. */
	rs_diag_init(&d);
	rs_diag_at(&d, "x.yaml", 0, 0, "empty file, expected a mapping");
	diag_text(&d, buf, sizeof(buf));
	ck_assert_str_eq(buf, "x.yaml:1:1: error: empty file, expected a mapping\n");

	rs_diag_init(&d);
	rs_diag_at(&d, "x.yaml", 3, 1, "two\nlines");
	diag_text(&d, buf, sizeof(buf));
	ck_assert_str_eq(buf, "x.yaml:3:1: error: two lines\n");

	rs_diag_init(&d);
	rs_diag_node(&d, NULL, "no node");
	diag_text(&d, buf, sizeof(buf));
	ck_assert_str_eq(buf, "raidsim: error: no node\n");
}
END_TEST

/* ---- units ---- */

struct size_case { const char *s; uint64_t v; };
struct bad_case { const char *s; const char *why; };

START_TEST(units_size_good)
{
	static const struct size_case cases[] = {
		{ "0", 0 }, { "512", 512 }, { "512B", 512 }, { "4KiB", 4096 }, { "4Ki", 4096 },
		{ "4KB", 4000 }, { "4kB", 4000 }, { "4MB", 4000000 }, { "1PB", 1000000000000000ull },
		/* Single letters are binary, as in fio and dd. */
		{ "4K", 4096 }, { "4k", 4096 }, { "1M", 1048576 }, { "1m", 1048576 },
		{ "2G", 2ull << 30 }, { "2g", 2ull << 30 }, { "3T", 3ull << 40 },
		{ "3t", 3ull << 40 }, { "1P", 1ull << 50 }, { "1.5M", 1572864 },
		{ "64 k", 65536 }, { "1Gi", 1ull << 30 },
		{ "1.5MiB", 1572864 }, { "1MiB", 1048576 }, { "32GB", 32000000000ull },
		{ "1GiB", 1ull << 30 }, { "1TiB", 1ull << 40 }, { "2TB", 2000000000000ull },
		{ "64 KiB", 65536 }, { "0.5KiB", 512 }, { "1.50MiB", 1572864 },
		{ "007KiB", 7168 }, { "18446744073709551615", UINT64_MAX },
		{ "16383PiB", 16383ull << 50 }, { ".5KiB", 512 }, { "2.KiB", 2048 },
		{ "+1KiB", 1024 }, { "-0", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 1;
		const char *why = NULL;

		ck_assert_msg(rs_parse_size(cases[i].s, &v, &why) == 0, "'%s': %s", cases[i].s,
			      why);
		ck_assert_msg(v == cases[i].v, "'%s' gave %llu", cases[i].s,
			      (unsigned long long)v);
	}
}
END_TEST

START_TEST(units_size_bad)
{
	static const struct bad_case cases[] = {
		{ "", "expected a size such as 64KiB" },
		{ "KiB", "expected a size such as 64KiB" },
		{ "abc", "expected a size such as 64KiB" },
		{ "64XB", "unknown unit 'XB'" },
		{ "4kib", "unknown unit 'kib' (did you mean 'KiB'?)" },
		{ "4mb", "unknown unit 'mb' (did you mean 'MB'?)" },
		{ "4KIB", "unknown unit 'KIB' (did you mean 'KiB'?)" },
		{ "4kb", "unknown unit 'kb' (did you mean 'kB'?)" },
		{ "4b", "unknown unit 'b'" },
		{ "4KK", "unknown unit 'KK'" },
		{ "0.3K", "not a whole number of bytes" },
		{ "1.5.5MiB", "unknown unit '.5MiB'" },
		{ "1e3", "unknown unit 'e3'" },
		{ "-1KiB", "must not be negative" },
		{ "0.5B", "not a whole number of bytes" },
		{ "1.0001KiB", "not a whole number of bytes" },
		{ "18446744073709551616", "number out of range" },
		{ "99999999999999999999999", "number out of range" },
		{ "16384PiB", "number out of range" },
		{ "64 ", "expected a size such as 64KiB" },
		{ " 64", "expected a size such as 64KiB" },
		{ "0x40", "unknown unit 'x40'" },
		{ "inf", "expected a size such as 64KiB" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 7;
		const char *why = NULL;

		ck_assert_msg(rs_parse_size(cases[i].s, &v, &why) == -1, "'%s' accepted",
			      cases[i].s);
		ck_assert_msg(why && strcmp(why, cases[i].why) == 0, "'%s': got '%s'",
			      cases[i].s, why);
		ck_assert_uint_eq(v, 7);
	}
	ck_assert_int_eq(rs_parse_size(NULL, NULL, NULL), -1);
}
END_TEST

struct time_case { const char *s; int64_t v; };

START_TEST(units_time)
{
	static const struct time_case good[] = {
		{ "8.5ms", 8500000 }, { "20s", 20000000000 }, { "65us", 65000 },
		{ "65\xc2\xb5s", 65000 }, { "100ns", 100 }, { "2min", 120000000000 },
		{ "1h", 3600000000000 }, { "1.1s", 1100000000 }, { "0", 0 }, { "0ms", 0 },
		{ "3sec", 3000000000 }, { "0.5us", 500 }, { "8.5 ms", 8500000 },
		{ "2562047h", 2562047 * 3600000000000 },
	};
	static const struct bad_case bad[] = {
		{ "5", "expected a time with a unit such as 8.5ms" },
		{ "1.5", "expected a time with a unit such as 8.5ms" },
		{ "", "expected a time such as 8.5ms" },
		{ "ms", "expected a time such as 8.5ms" },
		{ "-1ms", "must not be negative" },
		{ "0.5ns", "not a whole number of nanoseconds" },
		{ "5m", "unknown unit 'm'" },
		{ "5MS", "unknown unit 'MS'" },
		{ "1e3ms", "unknown unit 'e3ms'" },
		{ "2562048h", "number out of range" },
		{ "10000000000000h", "number out of range" },
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int64_t v = -1;
		const char *why = NULL;

		ck_assert_msg(rs_parse_time(good[i].s, &v, &why) == 0, "'%s': %s", good[i].s,
			      why);
		ck_assert_msg(v == good[i].v, "'%s' gave %lld", good[i].s, (long long)v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t v = 0;
		const char *why = NULL;

		ck_assert_msg(rs_parse_time(bad[i].s, &v, &why) == -1, "'%s' accepted", bad[i].s);
		ck_assert_msg(strcmp(why, bad[i].why) == 0, "'%s': got '%s'", bad[i].s, why);
	}
}
END_TEST

struct double_case { const char *s; double v; };

START_TEST(units_rate_rpm_percent)
{
	static const struct double_case rates[] = {
		{ "266MB/s", 266e6 }, { "133MiB/s", 133.0 * 1048576 }, { "1.5Gb/s", 1.875e8 },
		{ "100Mb/s", 12.5e6 }, { "100Mbps", 12.5e6 }, { "1GB/s", 1e9 },
		{ "512B/s", 512 }, { "8b/s", 1 }, { "10 KB/s", 1e4 }, { "1Gbps", 1.25e8 },
	};
	static const struct bad_case bad_rates[] = {
		{ "100", "expected a rate such as 266MB/s" },
		{ "100MB", "unknown unit 'MB'" },
		{ "-5MB/s", "must not be negative" },
		{ "fast", "expected a rate such as 266MB/s" },
		{ "5mb/s", "unknown unit 'mb/s'" },
	};
	static const struct double_case rpms[] = {
		{ "7200rpm", 7200 }, { "10krpm", 10000 }, { "7200", 7200 },
		{ "7.2krpm", 7200 }, { "15000 RPM", 15000 },
	};
	static const struct double_case pcts[] = {
		{ "70%", 70 }, { "70", 70 }, { "0", 0 }, { "100%", 100 }, { "33.5%", 33.5 },
		{ "0.5%", 0.5 }, { "1%", 1 }, { "1.5", 1.5 }, { "0.0", 0 },
	};
	double v;
	const char *why;

	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		ck_assert_msg(rs_parse_rate(rates[i].s, &v, &why) == 0, "'%s'", rates[i].s);
		ck_assert_msg(v == rates[i].v, "'%s' gave %g", rates[i].s, v);
	}
	for (size_t i = 0; i < sizeof(bad_rates) / sizeof(bad_rates[0]); i++) {
		ck_assert_int_eq(rs_parse_rate(bad_rates[i].s, &v, &why), -1);
		ck_assert_str_eq(why, bad_rates[i].why);
	}
	for (size_t i = 0; i < sizeof(rpms) / sizeof(rpms[0]); i++) {
		ck_assert_msg(rs_parse_rpm(rpms[i].s, &v, &why) == 0, "'%s'", rpms[i].s);
		ck_assert_msg(v == rpms[i].v, "'%s' gave %g", rpms[i].s, v);
	}
	ck_assert_int_eq(rs_parse_rpm("fast", &v, &why), -1);
	ck_assert_str_eq(why, "expected a speed such as 7200rpm");
	ck_assert_int_eq(rs_parse_rpm("7200rps", &v, &why), -1);
	ck_assert_str_eq(why, "unknown unit 'rps'");
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		ck_assert_msg(rs_parse_percent(pcts[i].s, &v, &why) == 0, "'%s'", pcts[i].s);
		ck_assert_msg(v == pcts[i].v, "'%s' gave %g", pcts[i].s, v);
	}
	ck_assert_int_eq(rs_parse_percent("120%", &v, &why), -1);
	ck_assert_str_eq(why, "must be between 0% and 100%");
	ck_assert_int_eq(rs_parse_percent("-1%", &v, &why), -1);
	ck_assert_int_eq(rs_parse_percent("70 percent", &v, &why), -1);
	ck_assert_str_eq(why, "expected a percentage such as 70%");
	ck_assert_int_eq(rs_parse_percent_unchecked("120%", &v, &why), 0);
	ck_assert(v == 120);
	/* A bare fraction is refused with the percentage it likely means. */
	v = 7;
	ck_assert_int_eq(rs_parse_percent("0.67", &v, &why), -1);
	ck_assert_str_eq(why, "ambiguous without '%': did you mean 67%? (or 0.67%)");
	ck_assert(v == 7);
	ck_assert_int_eq(rs_parse_percent("1", &v, &why), -1);
	ck_assert_str_eq(why, "ambiguous without '%': did you mean 100%? (or 1%)");
	ck_assert_int_eq(rs_parse_percent_unchecked(".05", &v, &why), -1);
	ck_assert_str_eq(why, "ambiguous without '%': did you mean 5%? (or 0.05%)");
}
END_TEST

START_TEST(units_plain)
{
	int b;
	int64_t i;
	uint64_t u;
	double x;
	const char *why;

	static const char *const yes[] = { "true", "yes", "on", "True", "YES", "On" };
	static const char *const no[] = { "false", "no", "off", "False", "NO", "OFF" };
	for (size_t k = 0; k < 6; k++) {
		ck_assert_int_eq(rs_parse_bool(yes[k], &b, &why), 0);
		ck_assert_int_eq(b, 1);
		ck_assert_int_eq(rs_parse_bool(no[k], &b, &why), 0);
		ck_assert_int_eq(b, 0);
	}
	ck_assert_int_eq(rs_parse_bool("1", &b, &why), -1);
	ck_assert_str_eq(why, "expected true or false");
	ck_assert_int_eq(rs_parse_bool("", &b, &why), -1);
	ck_assert_int_eq(rs_parse_bool("maybe", &b, &why), -1);

	ck_assert_int_eq(rs_parse_int("42", &i, &why), 0);
	ck_assert_int_eq(i, 42);
	ck_assert_int_eq(rs_parse_int("-42", &i, &why), 0);
	ck_assert_int_eq(i, -42);
	ck_assert_int_eq(rs_parse_int("+7", &i, &why), 0);
	ck_assert_int_eq(i, 7);
	ck_assert_int_eq(rs_parse_int("-9223372036854775808", &i, &why), 0);
	ck_assert(i == INT64_MIN);
	static const char *const bad_int[] = { "", "1x", " 1", "1 ", "0x10", "1.0", "-", "1e3" };
	for (size_t k = 0; k < sizeof(bad_int) / sizeof(bad_int[0]); k++) {
		ck_assert_msg(rs_parse_int(bad_int[k], &i, &why) == -1, "'%s'", bad_int[k]);
		ck_assert_str_eq(why, "expected an integer");
	}
	ck_assert_int_eq(rs_parse_int("99999999999999999999", &i, &why), -1);
	ck_assert_str_eq(why, "number out of range");

	ck_assert_int_eq(rs_parse_uint("18446744073709551615", &u, &why), 0);
	ck_assert(u == UINT64_MAX);
	ck_assert_int_eq(rs_parse_uint("18446744073709551616", &u, &why), -1);
	ck_assert_str_eq(why, "number out of range");
	ck_assert_int_eq(rs_parse_uint("-1", &u, &why), -1);
	ck_assert_str_eq(why, "must not be negative");

	ck_assert_int_eq(rs_parse_double("1.5", &x, &why), 0);
	ck_assert(x == 1.5);
	ck_assert_int_eq(rs_parse_double("1e3", &x, &why), 0);
	ck_assert(x == 1000);
	ck_assert_int_eq(rs_parse_double("-2.5e-3", &x, &why), 0);
	ck_assert(x == -0.0025);
	ck_assert_int_eq(rs_parse_double(".25", &x, &why), 0);
	ck_assert(x == 0.25);
	static const char *const bad_dbl[] = { "", "inf", "nan", "1x", ".", "1e", "1e+",
					       "0x1p3", " 1", "--1", "infinity" };
	for (size_t k = 0; k < sizeof(bad_dbl) / sizeof(bad_dbl[0]); k++) {
		ck_assert_msg(rs_parse_double(bad_dbl[k], &x, &why) == -1, "'%s'", bad_dbl[k]);
		ck_assert_str_eq(why, "expected a number");
	}
	ck_assert_int_eq(rs_parse_double("1e999", &x, &why), -1);
	ck_assert_str_eq(why, "number out of range");
}
END_TEST

START_TEST(units_format)
{
	static const struct size_case sizes[] = {
		{ "64KiB", 65536 }, { "512B", 512 }, { "1MiB", 1048576 }, { "1.5MiB", 1572864 },
		{ "0B", 0 }, { "500GB", 500000000000ull }, { "1000B", 1000 },
		{ "1.25KiB", 1280 }, { "1025B", 1025 }, { "1025KiB", 1049600 },
		{ "4000B", 4000 }, { "1.5GiB", 3ull << 29 }, { "2PB", 2000000000000000ull },
	};
	static const struct time_case times[] = {
		{ "8.5ms", 8500000 }, { "20s", 20000000000 }, { "65us", 65000 },
		{ "100ns", 100 }, { "0s", 0 }, { "2min", 120000000000 },
		{ "1h", 3600000000000 }, { "-5us", -5000 }, { "90s", 90000000000 },
		{ "8.500001ms", 8500001 }, { "1.000000001s", 1000000001 },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t back;

		rs_format_size(sizes[i].v, buf, sizeof(buf));
		ck_assert_str_eq(buf, sizes[i].s);
		ck_assert_int_eq(rs_parse_size(buf, &back, NULL), 0);
		ck_assert(back == sizes[i].v);
	}
	rs_format_size(UINT64_MAX, buf, sizeof(buf));
	ck_assert_str_eq(buf, "18446744073709551615B");
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		int64_t back;

		rs_format_time(times[i].v, buf, sizeof(buf));
		ck_assert_str_eq(buf, times[i].s);
		if (times[i].v >= 0) {
			ck_assert_int_eq(rs_parse_time(buf, &back, NULL), 0);
			ck_assert(back == times[i].v);
		}
	}
	rs_format_time(INT64_MIN, buf, sizeof(buf));
	ck_assert_str_eq(buf, "-9223372036.854775808s");
	rs_format_rate(266e6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "266MB/s");
	rs_format_rate(512, buf, sizeof(buf));
	ck_assert_str_eq(buf, "512B/s");
	rs_format_size(65536, buf, 3);
	ck_assert_str_eq(buf, "64");
}
END_TEST

/* ---- YAML loading ---- */

START_TEST(yaml_positions)
{
	struct rs_node *r = parse_ok("# comment\n"
				     "a: 1\n"
				     "b:\n"
				     "  c: 'x'\n"
				     "  d: [1, 22]\n"
				     "  e:\n"
				     "    - \"q\"\n"
				     "    - plain text\n");
	const struct rs_node *n;

	ck_assert_int_eq(r->kind, RS_NODE_MAP);
	ck_assert_int_eq(r->line, 2);
	ck_assert_int_eq(r->col, 1);
	ck_assert_str_eq(r->file, "t.yaml");
	ck_assert_uint_eq(r->len, 2);
	ck_assert_str_eq(r->keys[0]->str, "a");
	ck_assert_int_eq(r->keys[1]->line, 3);
	n = rs_node_lookup(r, "b.c");
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->str, "x");
	ck_assert(n->quoted);
	ck_assert_int_eq(n->line, 4);
	ck_assert_int_eq(n->col, 6);
	n = rs_node_lookup(r, "b.d.1");
	ck_assert_str_eq(n->str, "22");
	ck_assert(!n->quoted);
	ck_assert_int_eq(n->line, 5);
	ck_assert_int_eq(n->col, 10);
	n = rs_node_lookup(r, "b.d");
	ck_assert_int_eq(n->kind, RS_NODE_SEQ);
	ck_assert_int_eq(n->col, 6);
	n = rs_node_lookup(r, "b.e.0");
	ck_assert(n->quoted);
	ck_assert_int_eq(n->line, 7);
	ck_assert_int_eq(n->col, 7);
	ck_assert_str_eq(rs_node_lookup(r, "b.e.1")->str, "plain text");
	ck_assert_ptr_null(rs_node_lookup(r, "b.e.2"));
	ck_assert_ptr_null(rs_node_lookup(r, "b.x"));
	ck_assert_ptr_null(rs_node_lookup(r, "a.b"));
	ck_assert_ptr_null(rs_node_lookup(r, "b..c"));
	ck_assert_ptr_null(rs_node_lookup(r, ""));
	ck_assert_ptr_eq(rs_node_lookup(r, "b"), rs_node_get(r, "b"));
	ck_assert_int_eq(rs_node_find(r, "b"), 1);
	ck_assert_int_eq(rs_node_find(r, "zz"), -1);
	rs_node_free(r);

	/* Columns count characters, not bytes. */
	r = parse_ok("k\xc3\xa9y: v\xc3\xa9\nx: [\xc3\xa9, y]\n");
	n = rs_node_lookup(r, "x.1");
	ck_assert_int_eq(n->col, 8);
	rs_node_free(r);

	/* Empty values are empty plain scalars. */
	r = parse_ok("a:\nb: ~\n");
	ck_assert_str_eq(rs_node_get(r, "a")->str, "");
	ck_assert_str_eq(rs_node_get(r, "b")->str, "~");
	rs_node_free(r);

	/* Non-map roots are returned; the caller decides. */
	r = parse_ok("- 1\n- 2\n");
	ck_assert_int_eq(r->kind, RS_NODE_SEQ);
	{
		struct rs_diag d;

		rs_diag_init(&d);
		ck_assert_int_eq(rs_node_expect_map(r, "a scenario", &d), -1);
		ck_assert_str_eq(d.msg, "expected a mapping for a scenario, got a sequence");
		ck_assert_int_eq(d.line, 1);
	}
	rs_node_free(r);
	r = parse_ok("--- \"just text\"\n");
	ck_assert_int_eq(r->kind, RS_NODE_SCALAR);
	rs_node_free(r);
}
END_TEST

START_TEST(yaml_rejects)
{
	parse_fails("a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key 'a' (first defined at line 1)");
	parse_fails("x:\n  k: 1\n  k: 2\n", 3, 3, "duplicate key 'k' (first defined at line 2)");
	parse_fails("a: {p: 1, p: 2}\n", 1, 11, "duplicate key 'p' (first defined at line 1)");
	parse_fails("a: &x 1\nb: *x\n", 1, 4, "anchors and aliases are not supported");
	parse_fails("a: 1\nb: *x\n", 2, 4, "anchors and aliases are not supported");
	parse_fails("a: &m {x: 1}\n", 1, 4, "anchors and aliases are not supported");
	parse_fails("a: !!str 1\n", 1, 4, "tags are not supported (found 'tag:yaml.org,2002:str')");
	parse_fails("a: !foo [1]\n", 1, 4, "tags are not supported (found '!foo')");
	parse_fails("? [a]\n: 1\n", 1, 3,
		    "mapping keys must be plain scalars, not mappings or sequences");
	parse_fails("{a: 1}: 2\n", 1, 1,
		    "mapping keys must be plain scalars, not mappings or sequences");
	parse_fails("a: 1\n---\nb: 2\n", 2, 1, "more than one document (a file holds exactly one)");
	parse_fails("a: \xff\n", 1, 4, "invalid UTF-8 byte 0xff");
	parse_fails("ab: c\nd: \xc3\xa9\xc3(\n", 2, 5, "invalid UTF-8 byte 0xc3");
	parse_fails("a: \xc0\x80\n", 1, 4, "invalid UTF-8 byte 0xc0");      /* overlong NUL */
	parse_fails("a: \xed\xa0\x80\n", 1, 4, "invalid UTF-8 byte 0xed");  /* surrogate */
	parse_fails("a: \xe2\x82\n", 1, 4, "invalid UTF-8 byte 0xe2");       /* truncated */
	parse_fails("a: \xe2\x82", 1, 4, "invalid UTF-8 byte 0xe2");         /* at the end */
	parse_fails("a: \"x\\0y\"\n", 1, 4, "NUL character in string");
	parse_fails("a:\n\tb: 1\n", 2, 1,
		    "tab character where YAML expects spaces (indent with spaces)");
	parse_fails("a: \x07\n", 1, 4, "character 0x07 is not allowed in YAML");
	parse_fails_prefix("a: [1, 2\n", "syntax error: ");
	parse_fails_prefix("a: b: c\n", "syntax error: mapping values are not allowed");
	parse_fails_prefix("a: 'open\n", "syntax error: ");
	parse_fails_prefix("- a\nb: 1\n", "syntax error: ");

	{
		struct rs_diag d;

		ck_assert_ptr_null(parse("", &d));
		ck_assert_str_eq(d.msg, "empty file, expected a mapping");
		ck_assert_int_eq(d.line, 0);
		ck_assert_ptr_null(parse("# just a comment\n\n   # another\n", &d));
		ck_assert_str_eq(d.msg, "empty file, expected a mapping");
		ck_assert_ptr_null(parse("---\n", &d));
		ck_assert_str_eq(d.msg, "empty file, expected a mapping");
		ck_assert_ptr_null(parse("---\n...\n", &d));
		ck_assert_str_eq(d.msg, "empty file, expected a mapping");

		/* A NUL byte stops nothing short: it is reported where it is. */
		rs_diag_init(&d);
		ck_assert_ptr_null(rs_yaml_load_string("t.yaml", "a: 1\nb\0: 2\n", 11, &d));
		ck_assert_str_eq(d.msg, "NUL byte in input (expected UTF-8 text)");
		ck_assert_int_eq(d.line, 2);
		ck_assert_int_eq(d.col, 2);
	}
}
END_TEST

START_TEST(yaml_limits)
{
	struct rs_diag d;
	size_t n = 300;
	char *deep = malloc(2 * n + 2);
	char *big;
	size_t len = 0, cap = 1 << 20;
	struct rs_node *r;

	/* Deep nesting is refused before any recursive walk sees it. */
	for (size_t i = 0; i < n; i++)
		deep[i] = '[';
	for (size_t i = 0; i < n; i++)
		deep[n + i] = ']';
	deep[2 * n] = '\n';
	deep[2 * n + 1] = 0;
	ck_assert_ptr_null(parse(deep, &d));
	ck_assert_str_eq(d.msg, "nesting too deep (more than 100 levels)");
	free(deep);

	/* A wide map with a late duplicate: found, and quickly. */
	big = malloc(cap);
	for (int i = 0; i < 20000; i++)
		len += (size_t)snprintf(big + len, cap - len, "key%d: %d\n", i, i);
	len += (size_t)snprintf(big + len, cap - len, "key17: again\n");
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_yaml_load_string("t.yaml", big, len, &d));
	ck_assert_str_eq(d.msg, "duplicate key 'key17' (first defined at line 18)");
	ck_assert_int_eq(d.line, 20001);
	len -= strlen("key17: again\n");
	r = rs_yaml_load_string("t.yaml", big, len, &d);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->len, 20000);
	ck_assert_str_eq(rs_node_get(r, "key19999")->str, "19999");
	rs_node_free(r);
	free(big);

	/* Over the size cap. */
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_yaml_load_string("t.yaml", "", (size_t)17 << 20, &d));
	ck_assert(strncmp(d.msg, "file too large", 14) == 0);
}
END_TEST

START_TEST(yaml_files)
{
	struct rs_diag d;
	struct rs_node *r;
	const char *path;
	char missing[300];

	make_tmpdir();
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_yaml_load_file(tmpdir, &d));
	ck_assert_str_eq(d.msg, "is a directory, expected a YAML file");
	ck_assert_str_eq(d.file, tmpdir);
	ck_assert_int_eq(d.line, 0);

	snprintf(missing, sizeof(missing), "%s/nope.yaml", tmpdir);
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_yaml_load_file(missing, &d));
	ck_assert_str_eq(d.msg, "No such file or directory");

	path = write_text("empty.yaml", "");
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_yaml_load_file(path, &d));
	ck_assert_str_eq(d.msg, "empty file, expected a mapping");

	path = write_file("bin.yaml", "a: 1\n\xfe\xff", 7);
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_yaml_load_file(path, &d));
	ck_assert_str_eq(d.msg, "invalid UTF-8 byte 0xfe");
	ck_assert_int_eq(d.line, 2);
	ck_assert_int_eq(d.col, 1);
	ck_assert_str_eq(d.file, path);

	path = write_text("ok.yaml", "\xef\xbb\xbf" "a: 1\n");  /* with a BOM */
	rs_diag_init(&d);
	r = rs_yaml_load_file(path, &d);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->file, path);
	ck_assert_str_eq(rs_node_get(r, "a")->str, "1");
	/* File names are interned: the same text gives the same pointer. */
	ck_assert_ptr_eq(rs_intern(path), r->file);
	rs_node_free(r);
	rm_rf(tmpdir);
}
END_TEST

/* ---- tree operations ---- */

START_TEST(node_paths)
{
	struct rs_node *r = parse_ok("a:\n  b: 1\nlist: [x, {k: v}]\nseed: 7\n");
	struct rs_diag d;
	struct rs_node *v;

	rs_diag_init(&d);
	v = rs_node_new_scalar("w.yaml", 9, 9, "2");
	ck_assert_int_eq(rs_node_set_path(r, "a.b", v, NULL, &d), 0);
	ck_assert_str_eq(rs_node_lookup(r, "a.b")->str, "2");
	ck_assert_int_eq(rs_node_lookup(r, "a.b")->line, 9);

	/* Intermediate maps are created at the blamed position. */
	v = rs_node_new_scalar("w.yaml", 1, 1, "deep");
	ck_assert_int_eq(rs_node_set_path(r, "x.y.z", v, r, &d), 0);
	ck_assert_str_eq(rs_node_lookup(r, "x.y.z")->str, "deep");
	ck_assert_int_eq(rs_node_lookup(r, "x.y")->kind, RS_NODE_MAP);
	ck_assert_int_eq(rs_node_lookup(r, "x")->line, r->line);

	v = rs_node_new_scalar("w.yaml", 1, 1, "w");
	ck_assert_int_eq(rs_node_set_path(r, "list.1.k", v, NULL, &d), 0);
	ck_assert_str_eq(rs_node_lookup(r, "list.1.k")->str, "w");
	v = rs_node_new_scalar("w.yaml", 1, 1, "y");
	ck_assert_int_eq(rs_node_set_path(r, "list.0", v, NULL, &d), 0);
	ck_assert_str_eq(rs_node_lookup(r, "list.0")->str, "y");
	ck_assert(!d.failed);

	v = rs_node_new_scalar("w.yaml", 3, 4, "1");
	ck_assert_int_eq(rs_node_set_path(r, "seed.x", v, NULL, &d), -1);
	ck_assert_str_eq(d.msg, "cannot set 'seed.x': 'seed' is a scalar, not a mapping");
	ck_assert_int_eq(d.line, 3);
	ck_assert_int_eq(d.col, 4);

	rs_diag_init(&d);
	v = rs_node_new_scalar("w.yaml", 3, 4, "1");
	ck_assert_int_eq(rs_node_set_path(r, "list.5", v, NULL, &d), -1);
	ck_assert_str_eq(d.msg, "cannot set 'list.5': '5' is not an index of the 2-item "
			 "sequence 'list'");
	rs_diag_init(&d);
	v = rs_node_new_scalar("w.yaml", 3, 4, "1");
	ck_assert_int_eq(rs_node_set_path(r, "a..b", v, NULL, &d), -1);
	ck_assert_str_eq(d.msg, "bad path 'a..b'");

	/* put replaces in place; remove closes the gap. */
	rs_node_put(r, rs_node_new_scalar("p", 1, 1, "seed"), rs_node_new_scalar("p", 1, 1, "8"));
	ck_assert_int_eq(rs_node_find(r, "seed"), 2);
	ck_assert_str_eq(rs_node_get(r, "seed")->str, "8");
	rs_node_remove(r, "a");
	rs_node_remove(r, "nothing");
	ck_assert_int_eq(rs_node_find(r, "seed"), 1);
	ck_assert_ptr_null(rs_node_get(r, "a"));
	ck_assert_ptr_null(rs_node_get(rs_node_get(r, "seed"), "x"));
	rs_node_free(r);
	rs_node_free(NULL);

	/* A scalar root cannot take a path. */
	r = rs_node_new_scalar("s", 1, 1, "x");
	rs_diag_init(&d);
	ck_assert_int_eq(rs_node_set_path(r, "a", rs_node_new_scalar("s", 1, 1, "1"), r, &d), -1);
	ck_assert_str_eq(d.msg, "cannot set 'a': the document is not a mapping");
	rs_node_free(r);
}
END_TEST

START_TEST(node_merge_clone)
{
	struct rs_node *base = parse_ok("type: disk\na: 1\nb: {c: 2, d: 3}\ns: [1, 2]\n");
	struct rs_node *over = parse_ok("b: {c: 5}\ns: [9]\ne: 7\n");
	struct rs_node *m = rs_node_merge(base, over);
	struct rs_node *c;

	ck_assert_str_eq(rs_node_lookup(m, "type")->str, "disk");
	ck_assert_str_eq(rs_node_lookup(m, "a")->str, "1");
	ck_assert_str_eq(rs_node_lookup(m, "b.c")->str, "5");
	ck_assert_int_eq(rs_node_lookup(m, "b.c")->line, 1);
	ck_assert_str_eq(rs_node_lookup(m, "b.d")->str, "3");
	ck_assert_uint_eq(rs_node_lookup(m, "s")->len, 1);
	ck_assert_str_eq(rs_node_lookup(m, "s.0")->str, "9");
	ck_assert_str_eq(rs_node_lookup(m, "e")->str, "7");
	/* Key order: base's first, then the new ones. */
	ck_assert_str_eq(m->keys[0]->str, "type");
	ck_assert_str_eq(m->keys[4]->str, "e");
	/* Inputs untouched. */
	ck_assert_str_eq(rs_node_lookup(base, "b.c")->str, "2");
	ck_assert_uint_eq(rs_node_lookup(base, "s")->len, 2);
	ck_assert_ptr_null(rs_node_get(base, "e"));

	c = rs_node_clone(m);
	ck_assert_ptr_ne(c, m);
	ck_assert_str_eq(rs_node_lookup(c, "b.d")->str, "3");
	ck_assert_ptr_ne(rs_node_lookup(c, "b.d"), rs_node_lookup(m, "b.d"));
	ck_assert_str_eq(c->file, m->file);
	rs_node_free(c);
	rs_node_free(m);

	/* A scalar over a map replaces it, and the other way round. */
	m = rs_node_merge(base, rs_node_get(over, "e"));
	ck_assert_int_eq(m->kind, RS_NODE_SCALAR);
	rs_node_free(m);
	m = rs_node_merge(NULL, over);
	ck_assert_uint_eq(m->len, 3);
	rs_node_free(m);
	rs_node_free(base);
	rs_node_free(over);
}
END_TEST

START_TEST(node_assignment)
{
	struct rs_diag d;
	char *path;
	struct rs_node *v;

	rs_diag_init(&d);
	ck_assert_int_eq(rs_node_parse_assignment("a.b=64KiB", &path, &v, &d), 0);
	ck_assert_str_eq(path, "a.b");
	ck_assert_int_eq(v->kind, RS_NODE_SCALAR);
	ck_assert_str_eq(v->str, "64KiB");
	ck_assert_str_eq(v->file, "--set");
	ck_assert_int_eq(v->line, 1);
	ck_assert_int_eq(v->col, 5);
	free(path);
	rs_node_free(v);

	/* The value keeps everything after the first '='. */
	ck_assert_int_eq(rs_node_parse_assignment("name=a=b", &path, &v, &d), 0);
	ck_assert_str_eq(v->str, "a=b");
	free(path);
	rs_node_free(v);

	ck_assert_int_eq(rs_node_parse_assignment("w.lines=[1, {x: 2}]", &path, &v, &d), 0);
	ck_assert_int_eq(v->kind, RS_NODE_SEQ);
	ck_assert_uint_eq(v->len, 2);
	ck_assert_int_eq(v->col, 9);
	ck_assert_int_eq(v->items[0]->col, 10);
	ck_assert_str_eq(rs_node_lookup(v, "1.x")->str, "2");
	ck_assert_int_eq(rs_node_lookup(v, "1.x")->col, 17);
	free(path);
	rs_node_free(v);

	ck_assert_int_eq(rs_node_parse_assignment("noequals", &path, &v, &d), -1);
	ck_assert_str_eq(d.msg, "expected KEY=VALUE, got 'noequals'");
	ck_assert_ptr_null(path);
	ck_assert_ptr_null(v);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_node_parse_assignment("=1", &path, &v, &d), -1);
	ck_assert_str_eq(d.msg, "empty key in '=1'");
	rs_diag_init(&d);
	ck_assert_int_eq(rs_node_parse_assignment("a.b=", &path, &v, &d), -1);
	ck_assert_str_eq(d.msg, "empty value in 'a.b='");
	ck_assert_int_eq(d.col, 5);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_node_parse_assignment("a..b=1", &path, &v, &d), -1);
	ck_assert_str_eq(d.msg, "bad path 'a..b' in 'a..b=1'");
	rs_diag_init(&d);
	ck_assert_int_eq(rs_node_parse_assignment("w=[1, 2", &path, &v, &d), -1);
	ck_assert_str_eq(d.file, "--set");
	ck_assert(strncmp(d.msg, "syntax error", 12) == 0);
	ck_assert_int_eq(d.line, 1);
	ck_assert_int_eq(d.col, 8);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_node_parse_assignment("w={a: 1, a: 2}", &path, &v, &d), -1);
	ck_assert_str_eq(d.msg, "duplicate key 'a' (first defined at line 1)");
	ck_assert_int_eq(d.col, 10);
}
END_TEST

/* ---- schema ---- */

struct params {
	uint64_t strip;
	int64_t mean;
	double read;
	int policy;
	const char *name;
	bool flag;
	int64_t count;
	uint64_t blocks;
	const struct rs_node *extra;
	double rate;
	double rpm;
	double ratio;
};

static const char *const policies[] = { "fifo", "sstf", "cscan", NULL };

static const struct rs_opt opts[] = {
	{ "strip", RS_OPT_SIZE, offsetof(struct params, strip), "64KiB", RS_OPT_HAS_MIN,
	  512, 0, NULL, "stripe unit" },
	{ "mean", RS_OPT_TIME, offsetof(struct params, mean), NULL, RS_OPT_REQUIRED, 0, 0,
	  NULL, "mean service time" },
	{ "read", RS_OPT_PERCENT, offsetof(struct params, read), "70%", 0, 0, 0, NULL,
	  "read fraction" },
	{ "policy", RS_OPT_ENUM, offsetof(struct params, policy), "fifo", 0, 0, 0, policies,
	  "queue policy" },
	{ "name", RS_OPT_STR, offsetof(struct params, name), "anon", 0, 0, 0, NULL, "label" },
	{ "flag", RS_OPT_BOOL, offsetof(struct params, flag), "yes", 0, 0, 0, NULL, "a flag" },
	{ "count", RS_OPT_INT, offsetof(struct params, count), "1", RS_OPT_POSITIVE, 0, 0,
	  NULL, "how many" },
	{ "blocks", RS_OPT_UINT, offsetof(struct params, blocks), NULL,
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1, 100, NULL, "blocks" },
	{ "extra", RS_OPT_NODE, offsetof(struct params, extra), NULL, 0, 0, 0, NULL, "more" },
	{ "rate", RS_OPT_RATE, offsetof(struct params, rate), "100MB/s", RS_OPT_HAS_MAX, 0,
	  1e9, NULL, "bus rate" },
	{ "rpm", RS_OPT_RPM, offsetof(struct params, rpm), "7200rpm", RS_OPT_POSITIVE, 0, 0,
	  NULL, "spindle" },
	{ "ratio", RS_OPT_DOUBLE, offsetof(struct params, ratio), "0.5", 0, 0, 0, NULL, "r" },
	RS_OPT_END,
};

static const char *const ignore[] = { "model", "type", NULL };

/* Bind `text` (a map under key `sec:`) and return 0 or -1 with d set. */
static int bind_text(const char *text, struct params *p, struct rs_diag *d)
{
	struct rs_node *r = parse_ok(text);
	const struct rs_node *sec = rs_node_get(r, "sec");
	int rc;

	memset(p, 0xab, sizeof(*p));
	rs_diag_init(d);
	rc = rs_schema_bind(opts, sec, p, sec ? sec : r, "array", ignore, d);
	rs_node_free(r);
	return rc;
}

static void bind_fails(const char *text, int line, int col, const char *msg)
{
	struct params p;
	struct rs_diag d;

	ck_assert_int_eq(bind_text(text, &p, &d), -1);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_int_eq(d.line, line);
	ck_assert_int_eq(d.col, col);
}

START_TEST(schema_defaults)
{
	struct rs_node *r = parse_ok("sec:\n  mean: 8.5ms\n  type: x\n  model: y\n"
				     "  extra: {a: 1}\n  name: disk0\n");
	const struct rs_node *sec = rs_node_get(r, "sec");
	struct params p;
	struct rs_diag d;

	memset(&p, 0xab, sizeof(p));
	rs_diag_init(&d);
	ck_assert_int_eq(rs_schema_bind(opts, sec, &p, sec, "array", ignore, &d), 0);
	ck_assert_uint_eq(p.strip, 65536);
	ck_assert_int_eq(p.mean, 8500000);
	ck_assert(p.read == 70);
	ck_assert_int_eq(p.policy, 0);
	ck_assert_str_eq(p.name, "disk0");
	ck_assert_ptr_eq(p.name, rs_node_get(sec, "name")->str);
	ck_assert(p.flag);
	ck_assert_int_eq(p.count, 1);
	ck_assert_uint_eq(p.blocks, 0);
	ck_assert_ptr_eq(p.extra, rs_node_get(sec, "extra"));
	ck_assert(p.rate == 1e8);
	ck_assert(p.rpm == 7200);
	ck_assert(p.ratio == 0.5);
	rs_node_free(r);

	/* A missing map means all defaults; a default string is kept as is. */
	static const struct rs_opt few[] = {
		{ "name", RS_OPT_STR, offsetof(struct params, name), "anon", 0, 0, 0, NULL, "" },
		{ "extra", RS_OPT_NODE, offsetof(struct params, extra), NULL, 0, 0, 0, NULL, "" },
		RS_OPT_END,
	};
	memset(&p, 0xab, sizeof(p));
	ck_assert_int_eq(rs_schema_bind(few, NULL, &p, NULL, "x", NULL, &d), 0);
	ck_assert_ptr_eq(p.name, few[0].def);
	ck_assert_ptr_null(p.extra);

	ck_assert_int_eq(bind_text("sec: {mean: 1s, policy: sstf, read: 0, flag: off, "
				   "blocks: 100, strip: 1.5MiB, rate: 1Gb/s, count: 3}\n",
				   &p, &d), 0);
	ck_assert_int_eq(p.policy, 1);
	ck_assert(p.read == 0);
	ck_assert(!p.flag);
	ck_assert_uint_eq(p.blocks, 100);
	ck_assert_uint_eq(p.strip, 1572864);
	ck_assert(p.rate == 1.25e8);
	ck_assert_int_eq(p.count, 3);
}
END_TEST

START_TEST(schema_errors)
{
	bind_fails("sec:\n  mean: 1ms\n  stirpe: 4KiB\n", 3, 3,
		   "unknown key 'stirpe' in array (did you mean 'strip'?)");
	bind_fails("sec:\n  mean: 1ms\n  zzz: 1\n", 3, 3, "unknown key 'zzz' in array");
	bind_fails("sec:\n  mean: 1ms\n  modle: x\n", 3, 3,
		   "unknown key 'modle' in array (did you mean 'model'?)");
	bind_fails("sec:\n  mean: 1ms\n  Strip: 4KiB\n", 3, 3,
		   "unknown key 'Strip' in array (did you mean 'strip'?)");
	/* The typo is reported, not the required key it hides. */
	bind_fails("sec:\n  maen: 1ms\n", 2, 3,
		   "unknown key 'maen' in array (did you mean 'mean'?)");
	bind_fails("sec:\n  strip: 4KiB\n", 2, 3, "missing required key 'mean' in array");
	bind_fails("other: 1\nsec:\n", 2, 5, "expected a mapping for array, got a scalar");
	bind_fails("sec: [1]\n", 1, 6, "expected a mapping for array, got a sequence");
	bind_fails("sec:\n  mean: {a: 1}\n", 2, 9, "expected a scalar for 'mean', got a mapping");
	bind_fails("sec:\n  mean: [1]\n", 2, 9, "expected a scalar for 'mean', got a sequence");
	bind_fails("sec:\n  mean: 1ms\n  strip: 64XB\n", 3, 10,
		   "bad size '64XB' for 'strip': unknown unit 'XB'");
	bind_fails("sec:\n  mean: 5\n", 2, 9,
		   "bad time '5' for 'mean': expected a time with a unit such as 8.5ms");
	bind_fails("sec: {mean: 1ms, count: 0}\n", 1, 25, "'count' must be positive, got 0");
	bind_fails("sec: {mean: 1ms, count: -3}\n", 1, 25, "'count' must be positive, got -3");
	bind_fails("sec: {mean: 1ms, read: 120%}\n", 1, 24,
		   "'read' must be between 0% and 100%, got 120%");
	bind_fails("sec: {mean: 1ms, read: -1}\n", 1, 24,
		   "'read' must be between 0% and 100%, got -1%");
	bind_fails("sec: {mean: 1ms, strip: 1B}\n", 1, 25, "'strip' must be at least 512B, got 1B");
	bind_fails("sec: {mean: 1ms, blocks: 101}\n", 1, 26,
		   "'blocks' must be between 1 and 100, got 101");
	bind_fails("sec: {mean: 1ms, rate: 10Gb/s}\n", 1, 24,
		   "'rate' must be at most 1GB/s, got 1.25GB/s");
	bind_fails("sec: {mean: 1ms, rpm: 0}\n", 1, 23, "'rpm' must be positive, got 0rpm");
	bind_fails("sec: {mean: 1ms, policy: fast}\n", 1, 26,
		   "unknown value 'fast' for 'policy' (expected one of: fifo, sstf, cscan)");
	bind_fails("sec: {mean: 1ms, policy: fifoo}\n", 1, 26,
		   "unknown value 'fifoo' for 'policy' (expected one of: fifo, sstf, cscan; "
		   "did you mean 'fifo'?)");
	bind_fails("sec: {mean: 1ms, flag: maybe}\n", 1, 24,
		   "bad boolean 'maybe' for 'flag': expected true or false");
	bind_fails("sec: {mean: 1ms, count: 1x}\n", 1, 25,
		   "bad integer '1x' for 'count': expected an integer");
	bind_fails("sec: {mean: 1ms, ratio: nan}\n", 1, 25,
		   "bad number 'nan' for 'ratio': expected a number");
	bind_fails("sec: {mean: 1ms, count: 99999999999999999999}\n", 1, 25,
		   "bad integer '99999999999999999999' for 'count': number out of range");
	/* File order decides which of two bad values is reported. */
	bind_fails("sec: {mean: 1ms, rpm: x, count: x}\n", 1, 23,
		   "bad speed 'x' for 'rpm': expected a speed such as 7200rpm");
}
END_TEST

START_TEST(schema_misc)
{
	static const char *const names[] = { "strip", "disks", "policy", "seed" };
	FILE *f = tmpfile();
	char buf[4096];
	size_t n;
	struct params p;
	struct rs_node *v = rs_node_new_scalar("v", 1, 1, "4KiB");
	struct rs_diag d;

	ck_assert_str_eq(rs_closest_name("stirpe", names, 4), "strip");
	ck_assert_str_eq(rs_closest_name("disk", names, 4), "disks");
	ck_assert_str_eq(rs_closest_name("sede", names, 4), "seed");
	ck_assert_ptr_null(rs_closest_name("zzz", names, 4));
	ck_assert_ptr_null(rs_closest_name("x", names, 4));
	ck_assert_ptr_null(rs_closest_name("completelydifferent", names, 4));
	ck_assert_str_eq(rs_schema_closest(opts, "polcy"), "policy");
	ck_assert_ptr_null(rs_schema_closest(opts, "qqqqqq"));

	rs_diag_init(&d);
	ck_assert_int_eq(rs_schema_convert(&opts[0], v, &p, &d), 0);
	ck_assert_uint_eq(p.strip, 4096);
	rs_node_free(v);

	ck_assert_ptr_nonnull(f);
	rs_schema_print(opts, f, "  ");
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "  strip   size        64KiB       stripe unit\n"));
	ck_assert_ptr_nonnull(strstr(buf, "  mean    time        (required)  mean service time\n"));
	ck_assert_ptr_nonnull(strstr(buf, "fifo|sstf|cscan"));
	ck_assert_ptr_nonnull(strstr(buf, "  blocks  uint        -           blocks\n"));
}
END_TEST

/* ---- models ---- */

/* Lists the models below tmpdir (an installed RS_MODELS_DIR may add
 * more). */
static int count_models(const struct rs_model_info *m, void *arg)
{
	char *out = arg;

	if (strncmp(m->path, tmpdir, strlen(tmpdir)) != 0)
		return 0;
	strcat(out, m->name);
	strcat(out, "(");
	strcat(out, m->type);
	strcat(out, ",");
	strcat(out, m->description ? m->description : "-");
	strcat(out, ") ");
	return 0;
}

START_TEST(models_lookup)
{
	char d1[300], d2[300];
	struct rs_model_path mp;
	struct rs_diag d;
	struct rs_node *m, *sec, *res;
	char list[1024] = "";

	make_tmpdir();
	unsetenv("RAIDSIM_MODELS");
	write_text("d1/disks/maxtor-6l020l0.yaml",
		   "type: disk\ndescription: Maxtor 20GB\nrpm: 7200rpm\ngeom: {heads: 2, "
		   "zones: 4}\n");
	write_text("d1/devices/ideal.yaml", "type: ideal\nmean: 1ms\n");
	write_text("d1/disks/fast.yaml", "model: maxtor-6l020l0\ntype: disk\nrpm: 15000rpm\n");
	write_text("d1/notes.txt", "not a model\n");
	write_text("d1/.hidden/secret.yaml", "type: x\n");
	write_text("d2/ideal.yaml", "type: shadowed\n");
	write_text("d2/other.yaml", "type: other\n");
	snprintf(d1, sizeof(d1), "%s/d1", tmpdir);
	snprintf(d2, sizeof(d2), "%s/d2", tmpdir);
	setenv("RAIDSIM_MODELS", d2, 1);

	rs_model_path_init(&mp);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_model_path_add(&mp, d1, &d), 0);
	rs_model_path_add_defaults(&mp);

	/* -M beats $RAIDSIM_MODELS. */
	m = rs_model_load(&mp, "ideal", NULL, &d);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(rs_node_get(m, "type")->str, "ideal");
	rs_node_free(m);
	m = rs_model_load(&mp, "other", NULL, &d);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(rs_node_get(m, "type")->str, "other");
	rs_node_free(m);

	sec = parse_ok("dev:\n  model: maxtor-6l02\n");
	ck_assert_ptr_null(rs_model_load(&mp, "maxtor-6l02", rs_node_lookup(sec, "dev.model"),
					 &d));
	ck_assert_str_eq(d.msg, "unknown model 'maxtor-6l02' (did you mean 'maxtor-6l020l0'?)");
	ck_assert_int_eq(d.line, 2);
	ck_assert_int_eq(d.col, 10);
	rs_diag_init(&d);
	res = rs_model_resolve(&mp, rs_node_get(sec, "dev"), &d);
	ck_assert_ptr_null(res);
	ck_assert_str_eq(d.msg, "unknown model 'maxtor-6l02' (did you mean 'maxtor-6l020l0'?)");
	rs_node_free(sec);
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_model_load(&mp, "qqqqqqqq", NULL, &d));
	ck_assert_str_eq(d.msg, "unknown model 'qqqqqqqq'");

	/* The section overrides the model key by key. */
	sec = parse_ok("dev:\n  model: maxtor-6l020l0\n  rpm: 10krpm\n  geom: {heads: 4}\n");
	rs_diag_init(&d);
	res = rs_model_resolve(&mp, rs_node_get(sec, "dev"), &d);
	ck_assert_ptr_nonnull(res);
	ck_assert_ptr_null(rs_node_get(res, "model"));
	ck_assert_str_eq(rs_node_get(res, "type")->str, "disk");
	ck_assert_str_eq(rs_node_get(res, "rpm")->str, "10krpm");
	ck_assert_int_eq(rs_node_get(res, "rpm")->line, 3);
	ck_assert_str_eq(rs_node_lookup(res, "geom.heads")->str, "4");
	ck_assert_str_eq(rs_node_lookup(res, "geom.zones")->str, "4");
	ck_assert_ptr_nonnull(strstr(rs_node_lookup(res, "geom.zones")->file,
				     "maxtor-6l020l0.yaml"));
	ck_assert_str_eq(res->file, "t.yaml");
	rs_node_free(res);
	rs_node_free(sec);

	/* Models based on models; no model: a plain clone. */
	sec = parse_ok("dev: {model: fast, heads: 1}\nplain: {type: ideal}\n");
	res = rs_model_resolve(&mp, rs_node_get(sec, "dev"), &d);
	ck_assert_ptr_nonnull(res);
	ck_assert_str_eq(rs_node_get(res, "rpm")->str, "15000rpm");
	ck_assert_str_eq(rs_node_get(res, "description")->str, "Maxtor 20GB");
	ck_assert_str_eq(rs_node_get(res, "heads")->str, "1");
	rs_node_free(res);
	res = rs_model_resolve(&mp, rs_node_get(sec, "plain"), &d);
	ck_assert_str_eq(rs_node_get(res, "type")->str, "ideal");
	rs_node_free(res);
	ck_assert_ptr_null(rs_model_resolve(&mp, NULL, &d));
	ck_assert(!d.failed);
	rs_node_free(sec);

	ck_assert_int_eq(rs_model_list(&mp, count_models, list, &d), 0);
	ck_assert_str_eq(list, "fast(disk,-) ideal(ideal,-) maxtor-6l020l0(disk,Maxtor 20GB) "
			 "other(other,-) ");
	rs_model_path_free(&mp);
	unsetenv("RAIDSIM_MODELS");
	rm_rf(tmpdir);
}
END_TEST

START_TEST(models_errors)
{
	char dir[300];
	struct rs_model_path mp;
	struct rs_diag d;
	struct rs_node *sec, *res;

	make_tmpdir();
	unsetenv("RAIDSIM_MODELS");
	write_text("a/x/twice.yaml", "type: a\n");
	write_text("a/y/twice.yaml", "type: b\n");
	write_text("b/loop.yaml", "type: a\nmodel: loop\n");
	write_text("b/ping.yaml", "model: pong\ntype: a\n");
	write_text("b/pong.yaml", "type: a\nmodel: ping\n");
	write_text("b/deep1.yaml", "type: ideal\nmodel: deep2\n");
	write_text("b/deep2.yaml", "type: ideal\nmodel: deep3\n");
	write_text("b/deep3.yaml", "type: ideal\n");
	write_text("b/list.yaml", "- 1\n");
	write_text("b/notype.yaml", "rpm: 1\n");
	write_text("b/maptype.yaml", "type: {a: 1}\n");
	write_text("b/bad.yaml", "type: a\ntype: b\n");

	rs_diag_init(&d);
	rs_model_path_init(&mp);
	snprintf(dir, sizeof(dir), "%s/nothere", tmpdir);
	ck_assert_int_eq(rs_model_path_add(&mp, dir, &d), -1);
	ck_assert_str_eq(d.msg, "cannot use as a model directory: No such file or directory");
	rs_diag_init(&d);
	snprintf(dir, sizeof(dir), "%s/a/x/twice.yaml", tmpdir);
	ck_assert_int_eq(rs_model_path_add(&mp, dir, &d), -1);
	ck_assert_str_eq(d.msg, "cannot use as a model directory: not a directory");

	rs_diag_init(&d);
	snprintf(dir, sizeof(dir), "%s/a", tmpdir);
	ck_assert_int_eq(rs_model_path_add(&mp, dir, &d), 0);
	ck_assert_ptr_null(rs_model_load(&mp, "twice", NULL, &d));
	ck_assert(strncmp(d.msg, "duplicate model 'twice' (also defined in ", 41) == 0);
	ck_assert_ptr_nonnull(strstr(d.file, "/a/y/twice.yaml"));
	rs_model_path_free(&mp);

	rs_model_path_init(&mp);
	snprintf(dir, sizeof(dir), "%s/b", tmpdir);
	ck_assert_int_eq(rs_model_path_add(&mp, dir, &d), 0);
	sec = parse_ok("dev: {model: loop}\n");
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_model_resolve(&mp, rs_node_get(sec, "dev"), &d));
	ck_assert_str_eq(d.msg, "model 'loop' is based on itself (loop -> loop)");
	ck_assert_ptr_nonnull(strstr(d.file, "/b/loop.yaml"));
	ck_assert_int_eq(d.line, 2);
	ck_assert_int_eq(d.col, 8);
	rs_node_free(sec);
	/* Two models based on each other: blamed where the first names the
	 * second, in its own file. */
	sec = parse_ok("dev: {model: ping}\n");
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_model_resolve(&mp, rs_node_get(sec, "dev"), &d));
	ck_assert_str_eq(d.msg, "model 'ping' is based on itself (ping -> pong -> ping)");
	ck_assert_ptr_nonnull(strstr(d.file, "/b/ping.yaml"));
	ck_assert_int_eq(d.line, 1);
	rs_node_free(sec);
	/* A chain deeper than the cap, however it came about. */
	rs_limits_reset();
	ck_assert_int_eq(rs_limits_set("model_depth=2", (char[128]){ 0 }, 128), 0);
	sec = parse_ok("dev: {model: deep1}\n");
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_model_resolve(&mp, rs_node_get(sec, "dev"), &d));
	ck_assert_str_eq(d.msg, "models nested 3 deep (deep1 -> deep2 -> deep3), more than "
			 "the cap model_depth=2 (raise it with --limit model_depth=N)");
	ck_assert_ptr_nonnull(strstr(d.file, "/b/deep2.yaml"));
	rs_limits_reset();
	rs_diag_init(&d);
	res = rs_model_resolve(&mp, rs_node_get(sec, "dev"), &d);
	ck_assert_ptr_nonnull(res);
	ck_assert_str_eq(rs_node_get(res, "type")->str, "ideal");
	rs_node_free(res);
	rs_node_free(sec);
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_model_load(&mp, "list", NULL, &d));
	ck_assert_str_eq(d.msg, "a model file must be a mapping, got a sequence");
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_model_load(&mp, "notype", NULL, &d));
	ck_assert_str_eq(d.msg, "missing required key 'type' in model 'notype'");
	ck_assert_int_eq(d.line, 1);
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_model_load(&mp, "maptype", NULL, &d));
	ck_assert_str_eq(d.msg, "expected a scalar for 'type', got a mapping");
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_model_load(&mp, "bad", NULL, &d));
	ck_assert_str_eq(d.msg, "duplicate key 'type' (first defined at line 1)");
	ck_assert_ptr_nonnull(strstr(d.file, "/b/bad.yaml"));
	rs_diag_init(&d);
	sec = parse_ok("dev: {model: [a]}\n");
	ck_assert_ptr_null(rs_model_resolve(&mp, rs_node_get(sec, "dev"), &d));
	ck_assert_str_eq(d.msg, "expected a scalar for 'model', got a sequence");
	rs_node_free(sec);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_model_list(&mp, count_models, (char[1024]){ 0 }, &d), -1);
	ck_assert(d.failed);
	rs_model_path_free(&mp);

	/* Nothing anywhere: say where models come from. */
	rs_model_path_init(&mp);
	snprintf(dir, sizeof(dir), "%s/empty", tmpdir);
	mkdir(dir, 0700);
	setenv("RAIDSIM_MODELS", dir, 1);
	ck_assert_int_eq(rs_model_path_add(&mp, dir, &d), 0);
	rs_diag_init(&d);
	if (access(RS_MODELS_DIR, F_OK) != 0) {
		ck_assert_ptr_null(rs_model_load(&mp, "x", NULL, &d));
		char want[1024];
		snprintf(want, sizeof(want), "unknown model 'x' (no models found in %s (-M), "
			 "%s ($RAIDSIM_MODELS), %s (installed, missing); use -M DIR or set "
			 "RAIDSIM_MODELS)", dir, dir, RS_MODELS_DIR);
		ck_assert_str_eq(d.msg, want);
	}
	rs_model_path_free(&mp);
	unsetenv("RAIDSIM_MODELS");
	rm_rf(tmpdir);
}
END_TEST

/* Where users stand: the scenario's own folder (models only, by name),
 * its models/ folder before -M, and a model named by its file path,
 * relative to the file that names it. */
START_TEST(models_where_users_stand)
{
	char scen[300], mdir[300];
	struct rs_model_path mp;
	struct rs_diag d;
	struct rs_node *sc, *m;
	const struct rs_node *ref;

	make_tmpdir();
	unsetenv("RAIDSIM_MODELS");
	write_text("study/run.yaml", "device: {model: own}\n");
	write_text("study/own.yaml", "type: ideal\nmean: 2ms\n");
	write_text("study/sibling.yaml", "device: {model: own}\n");   /* not a model */
	write_text("study/models/sub/sibling.yaml", "type: ideal\nmean: 3ms\n");
	write_text("study/models/sub/both.yaml", "type: ideal\nmean: 4ms\n");
	write_text("study/disks/mine.yaml", "type: ideal\nmodel: ../own.yaml\n");
	write_text("m/both.yaml", "type: ideal\nmean: 5ms\n");
	write_text("m/own.yaml", "type: ideal\nmean: 6ms\n");
	snprintf(scen, sizeof(scen), "%s/study/run.yaml", tmpdir);
	snprintf(mdir, sizeof(mdir), "%s/m", tmpdir);

	rs_model_path_init(&mp);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_model_path_add(&mp, mdir, &d), 0);
	rs_model_path_set_scenario(&mp, scen);
	/* The scenario's folder beats -M; a scenario there is passed over for
	 * the models/ folder's model of that name. */
	m = rs_model_load(&mp, "own", NULL, &d);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(rs_node_get(m, "mean")->str, "2ms");
	rs_node_free(m);
	m = rs_model_load(&mp, "sibling", NULL, &d);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(rs_node_get(m, "mean")->str, "3ms");
	rs_node_free(m);
	m = rs_model_load(&mp, "both", NULL, &d);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(rs_node_get(m, "mean")->str, "4ms");
	rs_node_free(m);

	/* A path, relative to the file naming it; a model file may name
	 * another by path relative to itself. */
	sc = rs_yaml_load_file(scen, &d);
	ck_assert_ptr_nonnull(sc);
	ref = rs_node_lookup(sc, "device.model");
	m = rs_model_load(&mp, "./disks/mine.yaml", ref, &d);
	ck_assert_ptr_nonnull(m);
	rs_node_free(m);
	{
		struct rs_node *sec = parse_ok("dev: {model: x}\n");
		struct rs_node *res;

		rs_node_get(rs_node_get(sec, "dev"), "model")->file = rs_intern(scen);
		free(rs_node_get(rs_node_get(sec, "dev"), "model")->str);
		rs_node_get(rs_node_get(sec, "dev"), "model")->str = strdup("disks/mine.yaml");
		res = rs_model_resolve(&mp, rs_node_get(sec, "dev"), &d);
		ck_assert_msg(res != NULL, "%s", d.msg);
		ck_assert_str_eq(rs_node_get(res, "mean")->str, "2ms");
		rs_node_free(res);
		rs_node_free(sec);
	}
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_model_load(&mp, "./nowhere.yaml", ref, &d));
	{
		char want[600];

		snprintf(want, sizeof(want), "cannot read model file '%s/study/./nowhere.yaml': "
			 "No such file or directory", tmpdir);
		ck_assert_str_eq(d.msg, want);
		ck_assert_int_eq(d.line, 1);
		ck_assert_int_eq(d.col, 17);
	}
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_model_load(&mp, "sibling.yaml", ref, &d));
	ck_assert_str_eq(d.msg, "missing required key 'type' in model 'sibling.yaml'");
	rs_node_free(sc);
	rs_model_path_free(&mp);
	rm_rf(tmpdir);
}
END_TEST

/* What `raidsim models show` prints loads back as the same tree. */
START_TEST(emit_round_trip)
{
	static const char text[] =
		"type: hdd\n"
		"description: \"Promise: 4 x SATA, # not a comment\"\n"
		"rate: 266.7MB/s\n"
		"neg: -5\n"
		"dash: \"-x\"\n"
		"empty: \"\"\n"
		"zones:\n"
		"  - {first_cyl: 0, last_cyl: 10}\n"
		"  - {first_cyl: 11, last_cyl: \"a, b\"}\n"
		"cache:\n"
		"  mode: write-back\n"
		"  levels: [0, 1, jbod]\n";
	struct rs_node *a = parse_ok(text), *b;
	struct rs_diag d;
	char buf[2048];
	size_t n;
	FILE *f = tmpfile();

	ck_assert_ptr_nonnull(f);
	rs_schema_fill_defaults((const struct rs_opt[]){
		{ "extra", RS_OPT_SIZE, 0, "4KiB", 0, 0, 0, NULL, "x" },
		{ "rate", RS_OPT_RATE, 0, "1MB/s", 0, 0, 0, NULL, "x" },
		RS_OPT_END }, a, rs_intern("(default)"));
	ck_assert_str_eq(rs_node_get(a, "rate")->str, "266.7MB/s");
	ck_assert_str_eq(rs_node_get(a, "extra")->str, "4KiB");
	rs_node_emit(a, f, rs_intern("(default)"), "default");
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\nextra: 4KiB    # default\n"));
	b = parse(buf, &d);
	ck_assert_msg(b != NULL, "%s in:\n%s", d.msg, buf);
	ck_assert_str_eq(rs_node_get(b, "description")->str,
			 "Promise: 4 x SATA, # not a comment");
	ck_assert_str_eq(rs_node_get(b, "dash")->str, "-x");
	ck_assert_str_eq(rs_node_get(b, "empty")->str, "");
	ck_assert_str_eq(rs_node_get(b, "neg")->str, "-5");
	ck_assert_str_eq(rs_node_lookup(b, "zones.1.last_cyl")->str, "a, b");
	ck_assert_str_eq(rs_node_lookup(b, "cache.levels.2")->str, "jbod");
	ck_assert_str_eq(rs_node_get(b, "extra")->str, "4KiB");
	rs_node_free(a);
	rs_node_free(b);
}
END_TEST

/* ---- sweeps ---- */

START_TEST(sweep_expand)
{
	struct rs_node *r = parse_ok("array: {strip: 4KiB}\n"
				     "sweep:\n"
				     "  workload.qdepth: [1, 2]\n"
				     "  array.strip: [16KiB, 64KiB, 256KiB]\n");
	struct rs_sweep sw;
	struct rs_diag d;
	size_t idx[2];
	struct rs_node *p;

	rs_diag_init(&d);
	ck_assert_int_eq(rs_sweep_parse(rs_node_get(r, "sweep"), &sw, &d), 0);
	ck_assert_uint_eq(sw.naxes, 2);
	ck_assert_str_eq(sw.axes[0].path, "workload.qdepth");
	ck_assert_uint_eq(sw.axes[1].count, 3);
	ck_assert_uint_eq(rs_sweep_points(&sw), 6);
	rs_sweep_point_indices(&sw, 4, idx);
	ck_assert_uint_eq(idx[0], 1);
	ck_assert_uint_eq(idx[1], 1);
	rs_sweep_point_indices(&sw, 2, idx);
	ck_assert_uint_eq(idx[0], 0);
	ck_assert_uint_eq(idx[1], 2);

	for (size_t i = 0; i < 6; i++) {
		static const char *const q[] = { "1", "1", "1", "2", "2", "2" };
		static const char *const s[] = { "16KiB", "64KiB", "256KiB" };

		p = rs_sweep_apply(&sw, r, i, &d);
		ck_assert_ptr_nonnull(p);
		ck_assert_ptr_null(rs_node_get(p, "sweep"));
		ck_assert_str_eq(rs_node_lookup(p, "workload.qdepth")->str, q[i]);
		ck_assert_str_eq(rs_node_lookup(p, "array.strip")->str, s[i % 3]);
		/* The value points at its item in the sweep list. */
		ck_assert_int_eq(rs_node_lookup(p, "array.strip")->line, 4);
		ck_assert_int_eq(rs_node_lookup(p, "array.strip")->col, 17 + 7 * (int)(i % 3));
		/* A created key blames the axis key. */
		ck_assert_int_eq(rs_node_lookup(p, "workload")->line, 3);
		rs_node_free(p);
	}
	ck_assert_ptr_null(rs_sweep_apply(&sw, r, 6, &d));
	ck_assert_str_eq(d.msg, "sweep point 6 out of range (6 points)");
	rs_sweep_free(&sw);

	/* No sweep: one point, the scenario itself. */
	rs_diag_init(&d);
	ck_assert_int_eq(rs_sweep_parse(NULL, &sw, &d), 0);
	ck_assert_uint_eq(rs_sweep_points(&sw), 1);
	p = rs_sweep_apply(&sw, r, 0, &d);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(rs_node_lookup(p, "array.strip")->str, "4KiB");
	ck_assert_ptr_null(rs_node_get(p, "sweep"));
	rs_node_free(p);
	rs_sweep_free(&sw);
	memset(&sw, 0, sizeof(sw));
	ck_assert_uint_eq(rs_sweep_points(&sw), 1);
	rs_node_free(r);

	/* Structured values and index paths. */
	r = parse_ok("w: {lines: [{size: 4KiB}]}\nsweep:\n  w.lines.0.size: [512, 1KiB]\n"
		     "  w.extra: [{a: 1}, [1, 2]]\n");
	ck_assert_int_eq(rs_sweep_parse(rs_node_get(r, "sweep"), &sw, &d), 0);
	p = rs_sweep_apply(&sw, r, 3, &d);
	ck_assert_str_eq(rs_node_lookup(p, "w.lines.0.size")->str, "1KiB");
	ck_assert_int_eq(rs_node_lookup(p, "w.extra")->kind, RS_NODE_SEQ);
	rs_node_free(p);
	rs_sweep_free(&sw);
	rs_node_free(r);

	/* A swept path through a scalar fails at apply time, at the axis. */
	r = parse_ok("seed: 1\nsweep:\n  seed.x: [1]\n");
	ck_assert_int_eq(rs_sweep_parse(rs_node_get(r, "sweep"), &sw, &d), 0);
	ck_assert_ptr_null(rs_sweep_apply(&sw, r, 0, &d));
	ck_assert_str_eq(d.msg, "cannot set 'seed.x': 'seed' is a scalar, not a mapping");
	ck_assert_int_eq(d.line, 3);
	rs_sweep_free(&sw);
	rs_node_free(r);
}
END_TEST

static void sweep_fails(const char *text, int line, int col, const char *msg)
{
	struct rs_node *r = parse_ok(text);
	struct rs_sweep sw;
	struct rs_diag d;

	rs_diag_init(&d);
	ck_assert_int_eq(rs_sweep_parse(rs_node_get(r, "sweep"), &sw, &d), -1);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_int_eq(d.line, line);
	ck_assert_int_eq(d.col, col);
	ck_assert_uint_eq(sw.naxes, 0);
	ck_assert_ptr_null(sw.axes);
	rs_node_free(r);
}

START_TEST(sweep_errors)
{
	sweep_fails("sweep: 1\n", 1, 8, "expected a mapping for sweep, got a scalar");
	sweep_fails("sweep: [a]\n", 1, 8, "expected a mapping for sweep, got a sequence");
	sweep_fails("sweep:\n  a: 1\n", 2, 6, "sweep axis 'a' must be a sequence of values, "
		    "got a scalar");
	sweep_fails("sweep:\n  a: {x: 1}\n", 2, 6, "sweep axis 'a' must be a sequence of values, "
		    "got a mapping");
	sweep_fails("sweep:\n  a: [1]\n  b: []\n", 3, 6, "sweep axis 'b' has no values");
	sweep_fails("sweep:\n  sweep.x: [1]\n", 2, 3,
		    "sweep axis 'sweep.x' cannot change the sweep itself");
	sweep_fails("sweep:\n  sweep: [1]\n", 2, 3,
		    "sweep axis 'sweep' cannot change the sweep itself");
	sweep_fails("sweep:\n  a..b: [1]\n", 2, 3, "bad sweep axis path 'a..b'");
	sweep_fails("sweep:\n  .a: [1]\n", 2, 3, "bad sweep axis path '.a'");
	sweep_fails("sweep:\n  a.b: [1]\n  a: [2]\n", 3, 3,
		    "sweep axis 'a' overlaps axis 'a.b' (line 2)");
	sweep_fails("sweep:\n  a: [1]\n  a.b: [2]\n", 3, 3,
		    "sweep axis 'a.b' overlaps axis 'a' (line 2)");

	/* Two axes of 4000 values: 16 million points. */
	{
		struct rs_node *sw = rs_node_new_map("s", 1, 1);
		struct rs_sweep s;
		struct rs_diag d;

		for (int a = 0; a < 2; a++) {
			struct rs_node *seq = rs_node_new_seq("s", 2 + a, 1);

			for (int i = 0; i < 4000; i++)
				rs_node_append(seq, rs_node_new_scalar("s", 2 + a, 1, "1"));
			rs_node_put(sw, rs_node_new_scalar("s", 2 + a, 1, a ? "x" : "y"), seq);
		}
		rs_diag_init(&d);
		ck_assert_int_eq(rs_sweep_parse(sw, &s, &d), -1);
		ck_assert_str_eq(d.msg, "sweep has 16000000 points, more than the cap "
				 "sweep_points=1000000 (raise it with --limit sweep_points=N)");
		ck_assert_int_eq(d.line, 3);
		rs_node_free(sw);
	}
	/* Too many axes. */
	{
		struct rs_node *sw = rs_node_new_map("s", 1, 1);
		struct rs_sweep s;
		struct rs_diag d;
		char name[16];

		for (int a = 0; a < 70; a++) {
			struct rs_node *seq = rs_node_new_seq("s", 1, 1);

			rs_node_append(seq, rs_node_new_scalar("s", 1, 1, "1"));
			snprintf(name, sizeof(name), "k%d", a);
			rs_node_put(sw, rs_node_new_scalar("s", a + 1, 1, name), seq);
		}
		rs_diag_init(&d);
		ck_assert_int_eq(rs_sweep_parse(sw, &s, &d), -1);
		ck_assert_str_eq(d.msg, "sweep has too many axes (at most 64)");
		rs_node_free(sw);
	}
}
END_TEST

/* ---- hostile input: caps, loops and sizes that must stay cheap ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A sweep map of `naxes` axes named k0, k1... of `nvals` values each. */
static struct rs_node *sweep_of(int naxes, size_t nvals)
{
	struct rs_node *sw = rs_node_new_map("s", 1, 1);
	char name[16];

	for (int a = 0; a < naxes; a++) {
		struct rs_node *seq = rs_node_new_seq("s", a + 2, 5);

		for (size_t i = 0; i < nvals; i++)
			rs_node_append(seq, rs_node_new_scalar("s", a + 2, 5, "1"));
		snprintf(name, sizeof(name), "k%d", a);
		rs_node_put(sw, rs_node_new_scalar("s", a + 2, 1, name), seq);
	}
	return sw;
}

START_TEST(sweep_caps)
{
	struct rs_sweep s;
	struct rs_diag d;
	struct rs_node *sw;
	char why[128];

	rs_limits_reset();
	/* One axis longer than sweep_values, blamed at its key. */
	ck_assert_int_eq(rs_limits_set("sweep_values=3", why, sizeof(why)), 0);
	sw = sweep_of(2, 4);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_sweep_parse(sw, &s, &d), -1);
	ck_assert_str_eq(d.msg, "sweep axis 'k0' has 4 values, more than the cap sweep_values=3 "
			 "(raise it with --limit sweep_values=N)");
	ck_assert_int_eq(d.line, 2);
	ck_assert_int_eq(d.col, 1);
	rs_limits_reset();
	ck_assert_int_eq(rs_sweep_parse(sw, &s, &d), 0);
	ck_assert_uint_eq(rs_sweep_points(&s), 16);
	rs_sweep_free(&s);
	rs_node_free(sw);

	/* The axis that takes the product over sweep_points is blamed, and
	 * the message gives the whole sweep's size. */
	ck_assert_int_eq(rs_limits_set("sweep_points=20", why, sizeof(why)), 0);
	sw = sweep_of(3, 4);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_sweep_parse(sw, &s, &d), -1);
	ck_assert_str_eq(d.msg, "sweep has 64 points, more than the cap sweep_points=20 "
			 "(raise it with --limit sweep_points=N)");
	ck_assert_int_eq(d.line, 4);
	rs_limits_reset();
	rs_node_free(sw);

	/* 2^64 points: the product saturates instead of wrapping to 0. */
	sw = sweep_of(64, 2);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_sweep_parse(sw, &s, &d), -1);
	ck_assert_str_eq(d.msg, "sweep has over 18446744073709551615 points, more than the cap "
			 "sweep_points=1000000 (raise it with --limit sweep_points=N)");
	ck_assert_int_eq(d.line, 2 + 19);   /* k19: 2^20 points */
	rs_node_free(sw);
	rs_limits_reset();
}
END_TEST

/* A path may not be deeper than a tree may nest: setting it would build
 * a tree too deep for the recursive walks (a million components used to
 * overflow the stack when the point was freed). */
START_TEST(path_depth)
{
	char path[2 * RS_NODE_MAX_DEPTH + 8];
	struct rs_node *r;
	struct rs_diag d;
	struct rs_sweep s;
	size_t n = 0;

	for (int i = 0; i < RS_NODE_MAX_DEPTH; i++)
		n += (size_t)snprintf(path + n, sizeof(path) - n, "%sa", i ? "." : "");
	ck_assert_uint_eq(rs_path_components(path), RS_NODE_MAX_DEPTH);
	ck_assert(rs_path_valid(path));
	strcat(path, ".a");
	ck_assert(!rs_path_valid(path));

	r = rs_node_new_map("s", 1, 1);
	rs_diag_init(&d);
	ck_assert_int_eq(rs_node_set_path(r, path, rs_node_new_scalar("s", 1, 1, "1"), NULL, &d),
			 -1);
	rs_node_free(r);

	r = rs_node_new_map("s", 1, 1);
	{
		struct rs_node *seq = rs_node_new_seq("s", 2, 20);

		rs_node_append(seq, rs_node_new_scalar("s", 2, 21, "1"));
		rs_node_put(r, rs_node_new_scalar("s", 2, 3, path), seq);
	}
	rs_diag_init(&d);
	ck_assert_int_eq(rs_sweep_parse(r, &s, &d), -1);
	ck_assert_str_eq(d.msg, "sweep axis path has 101 components, more than 100 (deeper "
			 "than a scenario can nest)");
	ck_assert_int_eq(d.col, 3);
	rs_node_free(r);
}
END_TEST

START_TEST(yaml_bom)
{
	struct rs_diag d;
	struct rs_node *r;

	/* A byte-order mark before the first key is skipped, and columns on
	 * the first line count from after it, as an editor shows them. */
	r = parse_ok("\xef\xbb\xbf" "seed: 3\ndevice: {type: ideal}\n");
	ck_assert_str_eq(rs_node_get(r, "seed")->str, "3");
	ck_assert_int_eq(rs_node_get(r, "seed")->col, 7);
	ck_assert_int_eq(r->keys[0]->col, 1);
	rs_node_free(r);
	parse_fails("\xef\xbb\xbf" "a: {x: 1, x: 2}\n", 1, 11,
		    "duplicate key 'x' (first defined at line 1)");
	parse_fails("\xef\xbb\xbf" "a: [1\n", 2, 1,
		    "syntax error: did not find expected ',' or ']' (while parsing a flow "
		    "sequence at line 1)");
	/* Anywhere else it is refused, at the spot. */
	parse_fails("a: 1\n\xef\xbb\xbf" "b: 2\n", 2, 1,
		    "byte-order mark (U+FEFF) inside the file (it may only start it)");
	parse_fails("a: '\xef\xbb\xbf'\n", 1, 5,
		    "byte-order mark (U+FEFF) inside the file (it may only start it)");
	/* Only a mark: as empty as an empty file. */
	rs_diag_init(&d);
	ck_assert_ptr_null(rs_yaml_load_string("t.yaml", "\xef\xbb\xbf", 3, &d));
	ck_assert_str_eq(d.msg, "empty file, expected a mapping");
	/* A file read from disk too. */
	make_tmpdir();
	rs_diag_init(&d);
	r = rs_yaml_load_file(write_text("bom.yaml", "\xef\xbb\xbf" "x: [1, 2]\n"), &d);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(rs_node_get(r, "x")->len, 2);
	ck_assert_int_eq(rs_node_get(r, "x")->col, 4);
	rs_node_free(r);
	rm_rf(tmpdir);
}
END_TEST

/* A model directory full of links to itself and back up: each directory
 * is read once (it used to be K^8 reads for K links). */
START_TEST(models_symlink_loop)
{
	char dir[300], link[400];
	struct rs_model_path mp;
	struct rs_diag d;
	struct rs_node *m;
	double t0;

	make_tmpdir();
	unsetenv("RAIDSIM_MODELS");
	write_text("m/sub/here.yaml", "type: ideal\n");
	for (int i = 0; i < 8; i++) {
		snprintf(link, sizeof(link), "%s/m/self%d", tmpdir, i);
		ck_assert_int_eq(symlink(".", link), 0);
		snprintf(link, sizeof(link), "%s/m/sub/up%d", tmpdir, i);
		ck_assert_int_eq(symlink("..", link), 0);
	}
	snprintf(dir, sizeof(dir), "%s/m", tmpdir);
	rs_diag_init(&d);
	rs_model_path_init(&mp);
	ck_assert_int_eq(rs_model_path_add(&mp, dir, &d), 0);
	t0 = now_s();
	m = rs_model_load(&mp, "here", NULL, &d);
	ck_assert_msg(m != NULL, "%s", d.msg);
	ck_assert_str_eq(rs_node_get(m, "type")->str, "ideal");
	ck_assert_msg(now_s() - t0 < 0.5, "model search took %.2f s", now_s() - t0);
	rs_node_free(m);
	rs_model_path_free(&mp);
	rm_rf(tmpdir);
}
END_TEST

/* One list a megabyte long: read in linear time. */
START_TEST(yaml_long_list)
{
	size_t cap = (size_t)1 << 20, len;
	char *text = malloc(cap + 64);
	struct rs_diag d;
	struct rs_node *r;
	double t0, t_small, t_big;

	ck_assert_ptr_nonnull(text);
	len = (size_t)snprintf(text, cap, "list: [");
	while (len + 4 < cap)
		len += (size_t)snprintf(text + len, 8, "1, ");
	len += (size_t)snprintf(text + len, 8, "1]\n");
	ck_assert_uint_ge(len, cap);

	rs_diag_init(&d);
	t0 = now_s();
	r = rs_yaml_load_string("t.yaml", text, len / 10 - 1, &d);  /* cut short */
	t_small = now_s() - t0;
	ck_assert_ptr_null(r);
	rs_diag_init(&d);
	t0 = now_s();
	r = rs_yaml_load_string("t.yaml", text, len, &d);
	t_big = now_s() - t0;
	ck_assert_msg(r != NULL, "%s", d.msg);
	ck_assert_uint_eq(rs_node_get(r, "list")->len, (cap - 7) / 3);
	rs_node_free(r);
	ck_assert_msg(t_big < 10.0, "1 MB list took %.2f s", t_big);
	ck_assert_msg(t_big < 30 * t_small + 0.05, "10x the list took %.1fx the time",
		      t_big / t_small);
	free(text);
}
END_TEST

/* A scenario sweeping one axis over n values, the last one bad; the time
 * rs_scenario_load takes to refuse it. */
static double refuse_long_axis(size_t n)
{
	size_t cap = 64 + 8 * n, len;
	char *text = malloc(cap), path[512];
	struct rs_scenario sc;
	struct rs_model_path mp;
	struct rs_diag d;
	double t0, took;

	ck_assert_ptr_nonnull(text);
	len = (size_t)snprintf(text, cap, "device: {type: ideal, mean: 1ms}\n"
			       "workload: {iometer: {spec: database, run: 1s}}\n"
			       "sweep:\n  workload.iometer.outstanding: [");
	for (size_t i = 1; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len, "%zu,", i % 64 + 1);
	len += (size_t)snprintf(text + len, cap - len, "lots]\n");
	snprintf(path, sizeof(path), "%s", write_file("long-axis.yaml", text, len));
	rs_diag_init(&d);
	rs_model_path_init(&mp);
	t0 = now_s();
	ck_assert_int_eq(rs_scenario_load(&sc, path, NULL, 0, &mp, &d), -1);
	took = now_s() - t0;
	ck_assert_str_eq(d.msg, "bad integer 'lots' for 'outstanding': expected an integer");
	ck_assert_int_eq(d.line, 4);
	/* At the bad value itself, the last of its (ASCII) line. */
	ck_assert_int_eq(d.col, (int)(strstr(text, "lots") - strrchr(text, ':')) + 1 +
			 (int)strlen("  workload.iometer.outstanding"));
	rs_scenario_free(&sc);
	rs_model_path_free(&mp);
	free(text);
	return took;
}

/* Every point is checked before any runs, and a point used to be built
 * from a copy of the whole scenario, sweep included: 10,000 values took
 * 6.5 s, 100,000 over 300 s.  Now each value costs the same. */
START_TEST(sweep_long_axis_linear)
{
	double t_small, t_big;

	make_tmpdir();
	rs_limits_reset();
	t_small = refuse_long_axis(10000);
	t_big = refuse_long_axis(100000);
	ck_assert_msg(t_big < 30.0, "100,000 values took %.2f s", t_big);
	ck_assert_msg(t_big < 30 * t_small + 0.05, "10x the values took %.1fx the time",
		      t_big / t_small);
	rm_rf(tmpdir);
}
END_TEST

/* A section of n keys laid over a model: merged in linear time (each key
 * used to be looked up in a map that grew with every key). */
static double merge_wide(int n)
{
	struct rs_node *base = rs_node_new_map("m", 1, 1), *over = rs_node_new_map("s", 1, 1);
	struct rs_node *m;
	char key[32];
	double t0, took;

	rs_node_put(base, rs_node_new_scalar("m", 1, 1, "type"),
		    rs_node_new_scalar("m", 1, 7, "ideal"));
	rs_node_put(base, rs_node_new_scalar("m", 2, 1, "k7"), rs_node_new_scalar("m", 2, 5, "0"));
	for (int i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		rs_node_map_append(over, rs_node_new_scalar("s", 1, 1, key),
				   rs_node_new_scalar("s", 1, 1, "1"));
	}
	t0 = now_s();
	m = rs_node_merge(base, over);
	took = now_s() - t0;
	/* Same result as key-by-key rs_node_put: the model's keys first,
	 * the one both have replaced in place, the rest in order. */
	ck_assert_uint_eq(m->len, (size_t)n + 1);
	ck_assert_str_eq(m->keys[0]->str, "type");
	ck_assert_str_eq(m->keys[1]->str, "k7");
	ck_assert_str_eq(m->items[1]->str, "1");
	ck_assert_str_eq(m->keys[1]->file, "s");
	ck_assert_str_eq(m->keys[2]->str, "k0");
	ck_assert_str_eq(m->keys[n]->str, key);
	ck_assert_int_eq(rs_node_find(m, key), n);
	rs_node_free(m);
	rs_node_free(base);
	rs_node_free(over);
	return took;
}

START_TEST(merge_wide_linear)
{
	double t_small = merge_wide(10000), t_big = merge_wide(100000);

	ck_assert_msg(t_big < 10.0, "merging 100,000 keys took %.2f s", t_big);
	ck_assert_msg(t_big < 30 * t_small + 0.05, "10x the keys took %.1fx the time",
		      t_big / t_small);
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc;

	tc = tcase_create("diag");
	tcase_add_test(tc, diag_format);
	suite_add_tcase(s, tc);

	tc = tcase_create("units");
	tcase_add_test(tc, units_size_good);
	tcase_add_test(tc, units_size_bad);
	tcase_add_test(tc, units_time);
	tcase_add_test(tc, units_rate_rpm_percent);
	tcase_add_test(tc, units_plain);
	tcase_add_test(tc, units_format);
	suite_add_tcase(s, tc);

	tc = tcase_create("yaml");
	tcase_add_test(tc, yaml_positions);
	tcase_add_test(tc, yaml_rejects);
	tcase_add_test(tc, yaml_limits);
	tcase_add_test(tc, yaml_files);
	suite_add_tcase(s, tc);

	tc = tcase_create("node");
	tcase_add_test(tc, node_paths);
	tcase_add_test(tc, node_merge_clone);
	tcase_add_test(tc, node_assignment);
	suite_add_tcase(s, tc);

	tc = tcase_create("schema");
	tcase_add_test(tc, schema_defaults);
	tcase_add_test(tc, schema_errors);
	tcase_add_test(tc, schema_misc);
	suite_add_tcase(s, tc);

	tc = tcase_create("models");
	tcase_add_test(tc, models_lookup);
	tcase_add_test(tc, models_errors);
	tcase_add_test(tc, models_where_users_stand);
	tcase_add_test(tc, emit_round_trip);
	suite_add_tcase(s, tc);

	tc = tcase_create("sweep");
	tcase_add_test(tc, sweep_expand);
	tcase_add_test(tc, sweep_errors);
	tcase_add_test(tc, sweep_caps);
	tcase_add_test(tc, path_depth);
	suite_add_tcase(s, tc);

	/* Short timeouts: a quadratic or looping path fails here (the long
	 * sweep took over 300 s), not in CI's ten-minute one.  The bounds
	 * leave room for the sanitizer build, ten times slower at worst; the
	 * ratios of a small to a large input are what check linearity. */
	tc = tcase_create("hostile");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, yaml_bom);
	tcase_add_test(tc, models_symlink_loop);
	tcase_add_test(tc, yaml_long_list);
	tcase_add_test(tc, sweep_long_axis_linear);
	tcase_add_test(tc, merge_wide_linear);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(config_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
