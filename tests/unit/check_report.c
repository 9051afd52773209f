/* Unit tests for src/report: the table, number formatting, and the exact
 * bytes of every writer, plus the all-or-nothing file guarantee. */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp, nftw-free directory walks */

#include <check.h>
#include <dirent.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"
#include "report/series.h"
#include "report/table.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_report.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* Remove the (flat) test directory. */
static void teardown(void)
{
	DIR *d = opendir(dir);
	if (d == NULL)
		return;
	struct dirent *e;
	char p[512];
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (remove(p) != 0)
			rmdir(p);
	}
	closedir(d);
	rmdir(dir);
}

static const char *path_of(const char *name)
{
	static char p[4][256];
	static int i;
	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int c;
	while ((c = fgetc(f)) != EOF) {
		if (n + 2 > cap) {
			cap = cap ? 2 * cap : 4096;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
		buf[n++] = (char)c;
	}
	fclose(f);
	if (buf == NULL)
		buf = calloc(1, 1);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static void assert_file(const char *path, const char *want)
{
	char *got = slurp(path, NULL);
	ck_assert_str_eq(got, want);
	free(got);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Names in the test directory, sorted and joined by spaces. */
static void list_dir(char *out, size_t n)
{
	char names[32][256];
	size_t k = 0;
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	while ((e = readdir(d)) != NULL && k < 32)
		if (e->d_name[0] != '.')
			snprintf(names[k++], sizeof(names[0]), "%s", e->d_name);
	closedir(d);
	qsort(names, k, sizeof(names[0]), cmp_str);
	out[0] = '\0';
	for (size_t i = 0; i < k; i++) {
		if (i)
			strncat(out, " ", n - strlen(out) - 1);
		strncat(out, names[i], n - strlen(out) - 1);
	}
}

static const char *fmt(double v)
{
	static char buf[4][32];
	static int i;
	i = (i + 1) % 4;
	rs_fmt_double(buf[i], sizeof(buf[i]), v);
	return buf[i];
}

START_TEST(fmt_double_cases)
{
	ck_assert_str_eq(fmt(0.0), "0");
	ck_assert_str_eq(fmt(-0.0), "0");
	ck_assert_str_eq(fmt(1), "1");
	ck_assert_str_eq(fmt(1.5), "1.5");
	ck_assert_str_eq(fmt(-2.25), "-2.25");
	ck_assert_str_eq(fmt(100), "100");
	ck_assert_str_eq(fmt(123456), "123456");
	ck_assert_str_eq(fmt(1234567), "1234570");
	ck_assert_str_eq(fmt(0.1 + 0.2), "0.3");
	ck_assert_str_eq(fmt(1.0 / 3), "0.333333");
	ck_assert_str_eq(fmt(2.0 / 3), "0.666667");
	ck_assert_str_eq(fmt(99.99996), "100");
	ck_assert_str_eq(fmt(1e-4), "0.0001");
	ck_assert_str_eq(fmt(1.23456789e-4), "0.000123457");
	ck_assert_str_eq(fmt(9.99999e-5), "9.99999e-05");
	ck_assert_str_eq(fmt(-1.5e-7), "-1.5e-07");
	ck_assert_str_eq(fmt(123456789012345.0), "123457000000000");
	ck_assert_str_eq(fmt(999999999999999.0), "1e+15");
	ck_assert_str_eq(fmt(1e15), "1e+15");
	ck_assert_str_eq(fmt(2.5e20), "2.5e+20");
	ck_assert_str_eq(fmt(1e100), "1e+100");
	ck_assert_str_eq(fmt(1e-300), "1e-300");
	ck_assert_str_eq(fmt(5e-324), "4.94066e-324");
	ck_assert_str_eq(fmt(NAN), "nan");
	ck_assert_str_eq(fmt(INFINITY), "nan");
	ck_assert_str_eq(fmt(-INFINITY), "nan");
	char small[4];
	rs_fmt_double(small, sizeof(small), 123456);
	ck_assert_str_eq(small, "123");

	/* Locale must not leak into the output (skipped where no such
	 * locale is installed). */
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL) {
		ck_assert_str_eq(fmt(1.5), "1.5");
		ck_assert(rs_table_is_number("1.5"));
		setlocale(LC_NUMERIC, "C");
	}
}
END_TEST

START_TEST(number_detection)
{
	static const char *yes[] = { "0", "-0", "1", "-12", "1.5", "0.001", "1e5",
				     "1E+5", "-2.5e-3", "123457000000000", "1e308" };
	static const char *no[] = { "", "-", "+1", ".5", "1.", "007", "01", "1e",
				    "1e+", "0x10", "inf", "nan", "NaN", "1,5",
				    " 1", "1 ", "1e999", "-1e400", "4k", "--1" };
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		ck_assert_msg(rs_table_is_number(yes[i]), "'%s' is a number", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		ck_assert_msg(!rs_table_is_number(no[i]), "'%s' is not a number", no[i]);
	ck_assert(!rs_table_is_number(NULL));
	double v = 0;
	ck_assert(rs_table_number("-2.5e-3", &v));
	ck_assert(v == -2.5e-3);
}
END_TEST

START_TEST(table_ops)
{
	struct rs_table t;
	rs_table_init(&t);
	ck_assert_uint_eq(rs_table_add_col(&t, "a", 1), 0);
	ck_assert_uint_eq(rs_table_add_col(&t, "b", 0), 1);
	for (int i = 0; i < 40; i++) {
		size_t r = rs_table_add_row(&t);
		ck_assert_uint_eq(r, (size_t)i);
		rs_table_setf(&t, r, 0, "%d", i);
		rs_table_set(&t, r, 1, "x");
	}
	rs_table_set(&t, 3, 1, "replaced");
	rs_table_set(&t, 4, 1, NULL);
	/* A column added late: earlier rows keep their cells, new one unset. */
	ck_assert_uint_eq(rs_table_add_col(&t, "c", 0), 2);
	ck_assert_uint_eq(t.ncols, 3);
	ck_assert_uint_eq(t.nrows, 40);
	for (size_t r = 0; r < 40; r++) {
		char want[16];
		snprintf(want, sizeof(want), "%zu", r);
		ck_assert_str_eq(rs_table_get(&t, r, 0), want);
		ck_assert_ptr_null(rs_table_get(&t, r, 2));
	}
	ck_assert_str_eq(rs_table_get(&t, 3, 1), "replaced");
	ck_assert_ptr_null(rs_table_get(&t, 4, 1));
	ck_assert_str_eq(rs_table_get(&t, 39, 1), "x");
	rs_table_setf(&t, 39, 2, "%s-%05.1f", "long text", 2.25);
	ck_assert_str_eq(rs_table_get(&t, 39, 2), "long text-002.2");
	ck_assert_int_eq(rs_table_find_col(&t, "c"), 2);
	ck_assert_int_eq(rs_table_find_col(&t, "a"), 0);
	ck_assert_int_eq(rs_table_find_col(&t, "zz"), -1);
	ck_assert(t.col_is_axis[0] == 1 && t.col_is_axis[1] == 0);
	rs_table_free(&t);
	ck_assert_uint_eq(t.ncols, 0);
	rs_table_free(&t);      /* idempotent */
}
END_TEST

/* qd is the sweep axis, iops and note are results. */
static void sample_table(struct rs_table *t)
{
	rs_table_init(t);
	rs_table_add_col(t, "qd", 1);
	rs_table_add_col(t, "iops", 0);
	rs_table_add_col(t, "note", 0);
	size_t r = rs_table_add_row(t);
	rs_table_set(t, r, 0, "1");
	rs_table_set(t, r, 1, fmt(180.25));
	rs_table_set(t, r, 2, "ok");
	r = rs_table_add_row(t);
	rs_table_set(t, r, 0, "32");
	rs_table_set(t, r, 1, fmt(NAN));
	rs_table_set(t, r, 2, "say \"hi\"\\\n\ttab\x01");
	r = rs_table_add_row(t);
	rs_table_set(t, r, 0, "007");
	rs_table_set(t, r, 2, "1e999");
}

START_TEST(tsv_bytes)
{
	struct rs_table t;
	sample_table(&t);
	struct rs_report_err err = { "" };
	ck_assert_int_eq(rs_report_write_tsv(&t, path_of("r.tsv"), &err), 0);
	assert_file(path_of("r.tsv"),
		    "qd\tiops\tnote\n"
		    "1\t180.25\tok\n"
		    "32\tnan\tsay \"hi\"\\  tab\x01\n"
		    "007\t\t1e999\n");
	/* Same table, same bytes; rewriting replaces the file. */
	ck_assert_int_eq(rs_report_write_tsv(&t, path_of("r.tsv"), &err), 0);
	ck_assert_int_eq(rs_report_write_tsv(&t, path_of("r2.tsv"), &err), 0);
	size_t n1, n2;
	char *a = slurp(path_of("r.tsv"), &n1), *b = slurp(path_of("r2.tsv"), &n2);
	ck_assert_uint_eq(n1, n2);
	ck_assert_int_eq(memcmp(a, b, n1), 0);
	free(a);
	free(b);
	char names[512];
	list_dir(names, sizeof(names));
	ck_assert_str_eq(names, "r.tsv r2.tsv");

	/* Empty table: header only; no columns: one empty line. */
	struct rs_table e;
	rs_table_init(&e);
	ck_assert_int_eq(rs_report_write_tsv(&e, path_of("e.tsv"), &err), 0);
	assert_file(path_of("e.tsv"), "\n");
	rs_table_free(&e);
	rs_table_free(&t);
}
END_TEST

START_TEST(json_bytes)
{
	struct rs_table t;
	sample_table(&t);
	struct rs_report_err err = { "" };
	struct rs_report_meta meta = { .version = "0.1.0", .scenario = "seq-\"read\"", .seed = 18446744073709551615ull, .repeat = 1 };
	ck_assert_int_eq(rs_report_write_json(&t, path_of("r.json"), &meta, &err), 0);
	assert_file(path_of("r.json"),
		    "{\n"
		    "  \"raidsim\": \"0.1.0\",\n"
		    "  \"scenario\": \"seq-\\\"read\\\"\",\n"
		    "  \"seed\": 18446744073709551615,\n"
		    "  \"columns\": [\"qd\", \"iops\", \"note\"],\n"
		    "  \"points\": [\n"
		    "    {\"qd\": 1, \"iops\": 180.25, \"note\": \"ok\"},\n"
		    "    {\"qd\": 32, \"iops\": null, \"note\": \"say \\\"hi\\\"\\\\\\n\\ttab\\u0001\"},\n"
		    "    {\"qd\": \"007\", \"iops\": null, \"note\": \"1e999\"}\n"
		    "  ]\n"
		    "}\n");

	struct rs_table e;
	rs_table_init(&e);
	rs_table_add_col(&e, "x", 1);
	struct rs_report_meta m2 = { .seed = 7, .repeat = 1 };
	ck_assert_int_eq(rs_report_write_json(&e, path_of("e.json"), &m2, &err), 0);
	assert_file(path_of("e.json"),
		    "{\n"
		    "  \"raidsim\": \"unknown\",\n"
		    "  \"scenario\": null,\n"
		    "  \"seed\": 7,\n"
		    "  \"columns\": [\"x\"],\n"
		    "  \"points\": []\n"
		    "}\n");
	/* Repeated points say how many runs each is the mean of. */
	m2.repeat = 5;
	ck_assert_int_eq(rs_report_write_json(&e, path_of("f.json"), &m2, &err), 0);
	assert_file(path_of("f.json"),
		    "{\n"
		    "  \"raidsim\": \"unknown\",\n"
		    "  \"scenario\": null,\n"
		    "  \"seed\": 7,\n"
		    "  \"repeat\": 5,\n"
		    "  \"columns\": [\"x\"],\n"
		    "  \"points\": []\n"
		    "}\n");
	char names[512];
	list_dir(names, sizeof(names));
	ck_assert_str_eq(names, "e.json f.json r.json");
	rs_table_free(&e);
	rs_table_free(&t);
}
END_TEST

START_TEST(write_failures)
{
	struct rs_table t;
	sample_table(&t);
	struct rs_report_err err = { "" };
	struct rs_report_meta meta = { .version = "v", .scenario = "s", .seed = 1, .repeat = 1 };

	/* Missing directory: nothing can be created. */
	const char *bad = path_of("nodir/r.tsv");
	ck_assert_int_eq(rs_report_write_tsv(&t, bad, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "nodir/r.tsv: "));
	ck_assert_ptr_nonnull(strstr(err.msg, "No such file"));
	ck_assert_int_eq(rs_report_write_json(&t, bad, &meta, NULL), -1);

	/* The target is a directory: the temporary file is written, the
	 * rename fails, and the temporary file must not stay behind. */
	ck_assert_int_eq(mkdir(path_of("isdir"), 0700), 0);
	err.msg[0] = '\0';
	ck_assert_int_eq(rs_report_write_json(&t, path_of("isdir"), &meta, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "isdir: "));
	struct rs_plot_spec sp = { .x_col = "qd", .y_col = "iops" };
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("isdir"), NULL, "p.png", &sp, &err), -1);
	ck_assert_int_eq(rs_report_write_tsv(&t, path_of("isdir"), &err), -1);
	char names[512];
	list_dir(names, sizeof(names));
	ck_assert_str_eq(names, "isdir");

	/* A missing column is reported before any file is touched. */
	sp.y_col = "nope";
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("p.gp"), NULL, "p.png", &sp, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no column 'nope'"));
	list_dir(names, sizeof(names));
	ck_assert_str_eq(names, "isdir");
	rs_table_free(&t);
}
END_TEST

/* A sweep over qd for two RAID levels, rows deliberately out of x order. */
static void sweep_table(struct rs_table *t)
{
	static const char *rows[][3] = {
		{ "raid5", "4", "300" }, { "raid10", "1", "150.5" }, { "raid5", "1", "100" },
		{ "raid10", "4", "" }, { "raid5", "16", "410" }, { "", "", "9" },
		{ "raid10", "16", "600" },
	};
	rs_table_init(t);
	rs_table_add_col(t, "level", 1);
	rs_table_add_col(t, "qd", 1);
	rs_table_add_col(t, "iops", 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t r = rs_table_add_row(t);
		for (size_t c = 0; c < 3; c++)
			if (rows[i][c][0])
				rs_table_set(t, r, c, rows[i][c]);
	}
}

static const char *plot_header =
	"if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
	"\tset terminal pngcairo noenhanced size 1000,650\n"
	"} else {\n"
	"\tset terminal png noenhanced size 1000,650\n"
	"}\n";

START_TEST(gnuplot_series)
{
	struct rs_table t;
	sweep_table(&t);
	struct rs_report_err err = { "" };
	struct rs_plot_spec sp = {
		.x_col = "qd", .series_col = "level", .y_col = "iops",
		.x_label = "queue depth", .title = "IOPS \"by\" level", .logx = 1,
	};
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("p.gp"), "r.tsv", "p.png",
						 &sp, &err), 0);
	char want[4096];
	snprintf(want, sizeof(want),
		 "# raidsim plot: 'iops' over 'qd', one line per 'level'\n"
		 "# data: 'r.tsv'\n"
		 "# render: gnuplot <this file>\n"
		 "%s"
		 "set output 'p.png'\n"
		 "set datafile separator \"\\t\"\n"
		 "set title 'IOPS \"by\" level'\n"
		 "set xlabel 'queue depth'\n"
		 "set ylabel 'iops'\n"
		 "set grid\n"
		 "set key outside right top\n"
		 "set logscale x\n"
		 "$s0 << EOD\n1\t100\n4\t300\n16\t410\nEOD\n"
		 "$s1 << EOD\n1\t150.5\n4\tNaN\n16\t600\nEOD\n"
		 "plot $s0 using 1:2 with linespoints title 'level=raid5', \\\n"
		 "     $s1 using 1:2 with linespoints title 'level=raid10'\n",
		 plot_header);
	assert_file(path_of("p.gp"), want);
	rs_table_free(&t);
}
END_TEST

/* Repeated points (--repeat): error bars from the y column's CI, a
 * third column in each data block; a CI that is not a number draws the
 * point with a bar of 0. */
START_TEST(gnuplot_error_bars)
{
	struct rs_table t;
	sweep_table(&t);
	rs_table_add_col(&t, "iops_ci95", 0);
	static const char *ci[] = { "12.5", "3", "1", NULL, "nan", NULL, "0" };
	for (size_t r = 0; r < t.nrows; r++)
		rs_table_set(&t, r, 3, ci[r]);
	struct rs_report_err err = { "" };
	struct rs_plot_spec sp = {
		.x_col = "qd", .series_col = "level", .y_col = "iops", .yerr_col = "iops_ci95",
	};
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("e.gp"), NULL, "e.png", &sp,
						 &err), 0);
	char *gp = slurp(path_of("e.gp"), NULL);
	ck_assert_ptr_nonnull(strstr(gp, "$s0 << EOD\n1\t100\t1\n4\t300\t12.5\n16\t410\t0\nEOD\n"
					 "$s1 << EOD\n1\t150.5\t3\n4\tNaN\t0\n16\t600\t0\nEOD\n"
					 "plot $s0 using 1:2:3 with yerrorlines title 'level=raid5', \\\n"
					 "     $s1 using 1:2:3 with yerrorlines title 'level=raid10'\n"));
	free(gp);
	sp.yerr_col = "no_such_ci95";
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("f.gp"), NULL, "f.png", &sp,
						 &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no column 'no_such_ci95' to plot"));
	rs_table_free(&t);
}
END_TEST

START_TEST(gnuplot_categories)
{
	struct rs_table t;
	sweep_table(&t);
	struct rs_report_err err = { "" };
	/* x = level (text), no series, log y. */
	struct rs_plot_spec sp = { .x_col = "level", .y_col = "iops", .logy = 1 };
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("c.gp"), NULL, "c.png",
						 &sp, &err), 0);
	char want[4096];
	snprintf(want, sizeof(want),
		 "# raidsim plot: 'iops' over 'level'\n"
		 "# render: gnuplot <this file>\n"
		 "%s"
		 "set output 'c.png'\n"
		 "set datafile separator \"\\t\"\n"
		 "set xlabel 'level'\n"
		 "set ylabel 'iops'\n"
		 "set grid\n"
		 "set key outside right top\n"
		 "set logscale y\n"
		 "set xtics ('raid5' 0, 'raid10' 1)\n"
		 "set xrange [-0.5:1.5]\n"
		 "$s0 << EOD\n0\t300\n0\t100\n0\t410\n1\t150.5\n1\tNaN\n1\t600\nEOD\n"
		 "plot $s0 using 1:2 with linespoints notitle\n",
		 plot_header);
	assert_file(path_of("c.gp"), want);
	rs_table_free(&t);
}
END_TEST

START_TEST(gnuplot_panels)
{
	struct rs_table t;
	sweep_table(&t);
	struct rs_report_err err = { "" };
	/* One panel per level, x = qd, no series. */
	struct rs_plot_spec sp = { .x_col = "qd", .y_col = "iops", .panel_col = "level",
				   .title = "by level" };
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("m.gp"), NULL, "m.png",
						 &sp, &err), 0);
	char want[4096];
	snprintf(want, sizeof(want),
		 "# raidsim plot: 'iops' over 'qd'\n"
		 "# render: gnuplot <this file>\n"
		 "%s"
		 "set output 'm.png'\n"
		 "set datafile separator \"\\t\"\n"
		 "set title 'by level'\n"
		 "set xlabel 'qd'\n"
		 "set ylabel 'iops'\n"
		 "set grid\n"
		 "set key outside right top\n"
		 "set key below\n"
		 "set yrange [0:630]\n"
		 "set multiplot layout 1,2 title 'by level'\n"
		 "set title 'level=raid5'\n"
		 "$p0s0 << EOD\n1\t100\n4\t300\n16\t410\nEOD\n"
		 "plot $p0s0 using 1:2 with linespoints notitle\n"
		 "set title 'level=raid10'\n"
		 "$p1s0 << EOD\n1\t150.5\n4\tNaN\n16\t600\nEOD\n"
		 "plot $p1s0 using 1:2 with linespoints notitle\n"
		 "unset multiplot\n",
		 plot_header);
	assert_file(path_of("m.gp"), want);
	/* A panel column that is not in the table is an error. */
	sp.panel_col = "nope";
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("n.gp"), NULL, "n.png",
						 &sp, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no column 'nope'"));
	rs_table_free(&t);
}
END_TEST

/* Sweep values, column names and titles come from scenario files: in the
 * script they are single-quoted strings on their own line, nothing else. */
START_TEST(gnuplot_hostile)
{
	struct rs_table t;
	rs_table_init(&t);
	rs_table_add_col(&t, "d`id`", 1);
	rs_table_add_col(&t, "s'x", 1);
	rs_table_add_col(&t, "iops", 0);
	static const char *rows[][3] = {
		{ "`touch PWNED`", "a\nsystem \"id\"", "1" },
		{ "r' . system('id') . '", "$(id)", "2" },
	};
	for (size_t i = 0; i < 2; i++) {
		size_t r = rs_table_add_row(&t);
		for (size_t c = 0; c < 3; c++)
			rs_table_set(&t, r, c, rows[i][c]);
	}
	struct rs_report_err err = { "" };
	struct rs_plot_spec sp = { .x_col = "d`id`", .series_col = "s'x", .y_col = "iops",
				   .title = "t\n!id" };
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("h.gp"), "h\r\n!id.tsv",
						 "|id.png", &sp, &err), 0);
	char want[4096];
	snprintf(want, sizeof(want),
		 "# raidsim plot: 'iops' over 'd`id`', one line per 's''x'\n"
		 "# data: 'h  !id.tsv'\n"
		 "# render: gnuplot <this file>\n"
		 "%s"
		 "set output './|id.png'\n"
		 "set datafile separator \"\\t\"\n"
		 "set title 't !id'\n"
		 "set xlabel 'd`id`'\n"
		 "set ylabel 'iops'\n"
		 "set grid\n"
		 "set key outside right top\n"
		 "set xtics ('`touch PWNED`' 0, 'r'' . system(''id'') . ''' 1)\n"
		 "set xrange [-0.5:1.5]\n"
		 "$s0 << EOD\n0\t1\nEOD\n"
		 "$s1 << EOD\n1\t2\nEOD\n"
		 "plot $s0 using 1:2 with linespoints title 's''x=a system \"id\"', \\\n"
		 "     $s1 using 1:2 with linespoints title 's''x=$(id)'\n",
		 plot_header);
	assert_file(path_of("h.gp"), want);
	rs_table_free(&t);
}
END_TEST

static int png_ok(const char *path)
{
	size_t n;
	char *b = slurp(path, &n);
	int ok = n > 100 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0;
	free(b);
	return ok;
}

START_TEST(gnuplot_render)
{
	struct rs_table t, e;
	sweep_table(&t);
	rs_table_init(&e);
	rs_table_add_col(&e, "x", 1);
	rs_table_add_col(&e, "y", 0);
	struct rs_report_err err = { "" };
	struct rs_plot_spec sp = { .x_col = "qd", .series_col = "level", .y_col = "iops",
				   .logx = 1, .logy = 1, .title = "t_1" };
	struct rs_plot_spec cat = { .x_col = "level", .y_col = "iops" };
	struct rs_plot_spec none = { .x_col = "x", .y_col = "y" };
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("a.gp"), NULL, "a.png", &sp, &err), 0);
	ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("b.gp"), NULL, "b.png", &cat, &err), 0);
	ck_assert_int_eq(rs_report_write_gnuplot(&e, path_of("c.gp"), NULL, "c.png", &none, &err), 0);

	char msg[256];
	int rc = rs_report_render_png("a.gp", dir, msg, sizeof(msg));
	if (rc == 1) {
		fprintf(stderr, "check_report: gnuplot not installed, PNG rendering not tested\n");
	} else {
		ck_assert_msg(rc == 0, "render failed: %s", msg);
		ck_assert(png_ok(path_of("a.png")));
		ck_assert_int_eq(rs_report_render_png(path_of("b.gp"), dir, msg, sizeof(msg)), 0);
		ck_assert(png_ok(path_of("b.png")));
		ck_assert_int_eq(rs_report_render_png("c.gp", dir, msg, sizeof(msg)), 0);
		ck_assert(png_ok(path_of("c.png")));

		/* The script's name reaches gnuplot as one argument, never as
		 * an option or a command. */
		ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("-e.gp"), NULL, "e.png", &sp,
							 &err), 0);
		ck_assert_int_eq(rs_report_write_gnuplot(&t, path_of("`touch PWNED`.gp"), NULL,
							 "q.png", &sp, &err), 0);
		rc = rs_report_render_png("-e.gp", dir, msg, sizeof(msg));
		ck_assert_msg(rc == 0, "render failed: %s", msg);
		ck_assert(png_ok(path_of("e.png")));
		rc = rs_report_render_png("`touch PWNED`.gp", dir, msg, sizeof(msg));
		ck_assert_msg(rc == 0, "render failed: %s", msg);
		ck_assert(png_ok(path_of("q.png")));
		ck_assert_int_ne(access(path_of("PWNED"), F_OK), 0);

		/* A broken script fails with gnuplot's own complaint. */
		FILE *f = fopen(path_of("bad.gp"), "w");
		ck_assert_ptr_nonnull(f);
		fputs("plot $nosuchblock using 1:2\n", f);
		fclose(f);
		rc = rs_report_render_png("bad.gp", dir, msg, sizeof(msg));
		ck_assert_int_eq(rc, -1);
		ck_assert_ptr_nonnull(strstr(msg, "gnuplot"));
		ck_assert_int_eq(rs_report_render_png("a.gp", path_of("nodir"), msg, sizeof(msg)), -1);
		ck_assert_ptr_nonnull(strstr(msg, "nodir"));
	}
	/* Without gnuplot on PATH, rendering is skipped, not an error. */
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", dir, 1);
	ck_assert_int_eq(rs_report_render_png("a.gp", dir, msg, sizeof(msg)), 1);
	if (old) {
		setenv("PATH", old, 1);
		free(old);
	}
	rs_table_free(&t);
	rs_table_free(&e);
}
END_TEST

/* A time series: one line per interval, rates per second, errors per
 * interval and so far; later completions than the horizon go to the last
 * interval. */
START_TEST(series_tsv)
{
	struct rs_timeseries ts;
	rs_ts_init(&ts, 500 * 1000 * 1000, 1000 * 1000 * 1000);
	rs_ts_add(&ts, 0, 100, 100 * 1048576ull, 0);
	rs_ts_add(&ts, 1, 50, 25 * 1048576ull, 3);
	rs_ts_add(&ts, 99, 0, 0, 1);
	ck_assert_int_eq(rs_report_write_series_tsv(&ts, path_of("s.tsv"), NULL), 0);
	assert_file(path_of("s.tsv"),
		    "t_s\tiops\tmib_s\terrors\terrors_total\n"
		    "0.5\t200\t200\t0\t0\n"
		    "1\t100\t50\t3\t3\n"
		    "1.5\t0\t0\t0\t3\n"
		    "2\t0\t0\t1\t4\n");
	ck_assert_int_eq(rs_report_write_series_gnuplot(path_of("s.gp"), "s.tsv", "s.png", "t",
							NULL), 0);
	char *gp = slurp(path_of("s.gp"), NULL);
	ck_assert_ptr_nonnull(strstr(gp, "set output 's.png'"));
	ck_assert_ptr_nonnull(strstr(gp, "plot 's.tsv' using 1:4"));
	size_t lines = 0;
	for (const char *c = gp; *c; c++)
		lines += *c == '\n';
	free(gp);
	/* The title (from the scenario's file name) and the names are quoted
	 * inertly: same lines, nothing substituted. */
	ck_assert_int_eq(rs_report_write_series_gnuplot(path_of("h.gp"), "h'.tsv", "h'.png",
							"it's\n`id`\r\nsystem 'id'", NULL), 0);
	gp = slurp(path_of("h.gp"), NULL);
	ck_assert_ptr_nonnull(strstr(gp, "# raidsim time series; data: 'h''.tsv'\n"));
	ck_assert_ptr_nonnull(strstr(gp, "set output 'h''.png'\n"));
	ck_assert_ptr_nonnull(strstr(gp, "layout 2,1 title 'it''s `id`  system ''id'''\n"));
	ck_assert_ptr_nonnull(strstr(gp, "plot 'h''.tsv' using 1:4"));
	for (const char *c = gp; *c; c++)
		lines -= *c == '\n';
	ck_assert_uint_eq(lines, 0);
	free(gp);
	rs_ts_free(&ts);
}
END_TEST

/* rs_gp_quote's output for s, as a string (static, overwritten). */
static const char *quoted(const char *s, enum rs_gp_as as)
{
	static char buf[512];
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	rs_gp_quote(f, s, as);
	rewind(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Everything user data can hold comes out as one inert single-quoted
 * gnuplot string on one line. */
START_TEST(gp_quote_cases)
{
	ck_assert_str_eq(quoted("plain", RS_GP_TEXT), "'plain'");
	ck_assert_str_eq(quoted(NULL, RS_GP_TEXT), "''");
	ck_assert_str_eq(quoted("", RS_GP_TEXT), "''");
	ck_assert_str_eq(quoted("it's", RS_GP_TEXT), "'it''s'");
	ck_assert_str_eq(quoted("'", RS_GP_TEXT), "''''");
	ck_assert_str_eq(quoted("r' . system('id') . '", RS_GP_TEXT),
			 "'r'' . system(''id'') . '''");
	ck_assert_str_eq(quoted("`echo X > PWNED`", RS_GP_TEXT), "'`echo X > PWNED`'");
	ck_assert_str_eq(quoted("$HOME $(id) @macro", RS_GP_TEXT), "'$HOME $(id) @macro'");
	ck_assert_str_eq(quoted("a\\b\\", RS_GP_TEXT), "'a\\b\\'");
	ck_assert_str_eq(quoted("say \"hi\"", RS_GP_TEXT), "'say \"hi\"'");
	/* Line ends and other white space become spaces: no second line. */
	ck_assert_str_eq(quoted("a\nsystem \"id\"\r\n\tb\v\f", RS_GP_TEXT),
			 "'a system \"id\"   b  '");
	/* Other control characters, escape sequences included, become '?'. */
	ck_assert_str_eq(quoted("\x01\x1b[31mred\x7f", RS_GP_TEXT), "'\?\?[31mred\?'");
	/* '%' is doubled only where gnuplot reads a format. */
	ck_assert_str_eq(quoted("50%", RS_GP_TEXT), "'50%'");
	ck_assert_str_eq(quoted("50% %s", RS_GP_FORMAT), "'50%% %%s'");
	ck_assert_str_eq(quoted("it's\n", RS_GP_FORMAT), "'it''s '");
	/* File names are never pipes or special files. */
	ck_assert_str_eq(quoted("<rm x", RS_GP_FILE), "'./<rm x'");
	ck_assert_str_eq(quoted("|cat", RS_GP_FILE), "'./|cat'");
	ck_assert_str_eq(quoted("-", RS_GP_FILE), "'./-'");
	ck_assert_str_eq(quoted("+", RS_GP_FILE), "'./+'");
	ck_assert_str_eq(quoted("++", RS_GP_FILE), "'./++'");
	ck_assert_str_eq(quoted("a+b-c.tsv", RS_GP_FILE), "'a+b-c.tsv'");
	ck_assert_str_eq(quoted("<rm x", RS_GP_TEXT), "'<rm x'");
	ck_assert_str_eq(quoted("r'.png", RS_GP_FILE), "'r''.png'");
	/* Well-formed UTF-8 stays; anything else becomes '?', byte by byte
	 * (written \? in the literals: two in a row may form a trigraph). */
	ck_assert_str_eq(quoted("d\xc3\xa9" "bit \xc2\xb5s \xe6\x97\xa5 \xf0\x9f\x98\x80",
				RS_GP_TEXT),
			 "'d\xc3\xa9" "bit \xc2\xb5s \xe6\x97\xa5 \xf0\x9f\x98\x80'");
	ck_assert_str_eq(quoted("\xff", RS_GP_TEXT), "'?'");
	ck_assert_str_eq(quoted("\xc3(", RS_GP_TEXT), "'?('");
	ck_assert_str_eq(quoted("\xc0\xaf", RS_GP_TEXT), "'\?\?'");           /* overlong */
	ck_assert_str_eq(quoted("\xed\xa0\x80", RS_GP_TEXT), "'\?\?\?'");      /* surrogate */
	ck_assert_str_eq(quoted("\xf4\x90\x80\x80", RS_GP_TEXT), "'\?\?\?\?'"); /* > U+10FFFF */
	ck_assert_str_eq(quoted("\xe2\x82", RS_GP_TEXT), "'\?\?'");           /* cut short */
	ck_assert_str_eq(quoted("\xe2\x82'", RS_GP_TEXT), "'\?\?'''");
	ck_assert_str_eq(quoted("a\xc2\x85" "b", RS_GP_TEXT), "'a?b'");     /* C1 NEL */
}
END_TEST

START_TEST(out_name_cases)
{
	char why[512], name[300];
	static const char *const good[] = { "queueing", "a+b-c_d.e", "A9", "x.", "r+" };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(rs_out_name_check(good[i], why, sizeof(why)) == 0, "%s: %s",
			      good[i], why);
	static const char *const bad[] = {
		"", ".hidden", "..", "a/b", "-rf", "a b", "a`b`", "a'b", "a\"b", "a\nb", "a$b",
		"a\\b", "a;b", "a|b", "<a", "a%b", "d\xc3\xa9" "bit", "a\x01",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(rs_out_name_check(bad[i], why, sizeof(why)) == -1, "%s", bad[i]);

	/* The message quotes the name on one line. */
	rs_out_name_check("../escape", why, sizeof(why));
	ck_assert_str_eq(why, "must be a plain file name, got '../escape'");
	rs_out_name_check("r\nsystem 'id'", why, sizeof(why));
	ck_assert_str_eq(why, "must be a plain file name of letters, digits, '.', '_', '-' "
			 "and '+', got 'r\\x0asystem 'id'' (byte 2, \"\\x0a\", is not one of them)");
	rs_out_name_check("-rf", why, sizeof(why));
	ck_assert_ptr_nonnull(strstr(why, "must not start with '-'"));

	/* RS_OUT_NAME_MAX bytes pass, one more does not. */
	memset(name, 'r', RS_OUT_NAME_MAX);
	name[RS_OUT_NAME_MAX] = '\0';
	ck_assert_int_eq(rs_out_name_check(name, why, sizeof(why)), 0);
	strcat(name, "r");
	ck_assert_int_eq(rs_out_name_check(name, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "too long (201 bytes; at most 200"));
	ck_assert(strlen(why) < 200);

	/* A name raidsim derives is made fit instead. */
	snprintf(name, sizeof(name), "my run (v2) `id` 'x'");
	rs_out_name_fit(name);
	ck_assert_str_eq(name, "my_run__v2___id___x_");
	snprintf(name, sizeof(name), ".hidden");
	rs_out_name_fit(name);
	ck_assert_str_eq(name, "_hidden");
	snprintf(name, sizeof(name), "-rf\n");
	rs_out_name_fit(name);
	ck_assert_str_eq(name, "_rf_");
	memset(name, 'x', 299);
	name[299] = '\0';
	name[250] = '\'';
	rs_out_name_fit(name);
	ck_assert_uint_eq(strlen(name), RS_OUT_NAME_MAX);
	ck_assert_int_eq(rs_out_name_check(name, why, sizeof(why)), 0);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, fmt_double_cases);
	tcase_add_test(tc, number_detection);
	tcase_add_test(tc, table_ops);
	tcase_add_test(tc, gp_quote_cases);
	tcase_add_test(tc, out_name_cases);
	suite_add_tcase(s, tc);
	tc = tcase_create("writers");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, tsv_bytes);
	tcase_add_test(tc, json_bytes);
	tcase_add_test(tc, write_failures);
	tcase_add_test(tc, gnuplot_series);
	tcase_add_test(tc, gnuplot_error_bars);
	tcase_add_test(tc, gnuplot_categories);
	tcase_add_test(tc, gnuplot_panels);
	tcase_add_test(tc, gnuplot_hostile);
	tcase_add_test(tc, gnuplot_render);
	tcase_add_test(tc, series_tsv);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(report_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
