/* Malformed input, many times over: every scenario file under
 * $top_srcdir/scenarios and every model under $top_srcdir/models is
 * mutated (a line dropped or doubled, a value replaced by a hostile token,
 * the text cut short, a line's indentation changed) with a fixed seed, and
 * loaded the way `raidsim run` loads it before running anything.  Each
 * load must either succeed or fail with a diagnostic of the form
 * `file:line:column: error: ...`; never crash, hang or leak (the sanitizer
 * build runs this too).  The golden cases in tests/errors/ pin the exact
 * messages; this suite covers the shapes nobody thought to write down. */
#include <check.h>
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/scenario.h"
#include "testutil.h"

/* Mutations per file; the seed makes every run of the suite the same.
 * RS_MALFORMED_MUTATIONS and RS_MALFORMED_SEED override both, for a long
 * campaign by hand (e.g. under the sanitizer build). */
static int mutations_per_file = 12;

static const char *const hostile[] = {
	"-1", "0", "1e300", "abc", "[]", "{}", "", "~", "0s", "100%", "-5%",
	"18446744073709551616", "nan", "inf", "1e-300", "99999999999", "[1, 2]", "{a: 1}",
	"\"x\"", "0B/s", "-3us", "1KiB", "0.0000001", "yes", "null", "!!int 3", "0x10",
	"1/0", "4294967297", "-0", "1e9TiB", "[[]]", "'", "\"", "&a", "*a",
};
#define NHOSTILE (sizeof(hostile) / sizeof(hostile[0]))

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t next_rand(void)
{
	/* xorshift64*: enough for picking mutations. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717u;
}

static size_t pick(size_t n) { return n ? (size_t)(next_rand() % n) : 0; }

/* ---- files ---------------------------------------------------------- */

struct file_list {
	char **paths;
	size_t n, cap;
};

static void collect_yaml(struct file_list *l, const char *dir)
{
	/* Sorted, so the mutations fall on the same files on every system. */
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		struct stat st;
		if (name[0] != '.' && stat(path, &st) == 0) {
			size_t len = strlen(name);
			if (S_ISDIR(st.st_mode)) {
				collect_yaml(l, path);
			} else if (len > 5 && strcmp(name + len - 5, ".yaml") == 0) {
				if (l->n == l->cap) {
					l->cap = l->cap ? 2 * l->cap : 64;
					l->paths = realloc(l->paths, l->cap * sizeof(*l->paths));
					ck_assert_ptr_nonnull(l->paths);
				}
				l->paths[l->n++] = strdup(path);
			}
		}
		free(names[i]);
	}
	free(names);
}

/* Every .yaml file under $top_srcdir/SUB, sorted. */
static struct file_list source_files(const char *sub)
{
	const char *top = getenv("top_srcdir");
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/%s", top ? top : ".", sub);
	struct file_list files = { 0 };
	collect_yaml(&files, dir);
	ck_assert_uint_gt(files.n, 10);
	return files;
}

static void free_list(struct file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot read %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

static void write_text(const char *path, const char *s)
{
	FILE *f = fopen(path, "wb");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(s, f);
	fclose(f);
}

/* ---- mutations ----------------------------------------------------------- */

/* Lines of a text, each its own string. */
struct lines {
	char **v;
	size_t n;
};

static struct lines split_lines(const char *text)
{
	struct lines l = { NULL, 0 };
	size_t cap = 0;
	const char *p = text;
	for (;;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (l.n == cap) {
			cap = cap ? 2 * cap : 64;
			l.v = realloc(l.v, cap * sizeof(*l.v));
			ck_assert_ptr_nonnull(l.v);
		}
		l.v[l.n++] = strndup(p, len);
		if (!e)
			break;
		p = e + 1;
	}
	return l;
}

static char *join_lines(const struct lines *l)
{
	size_t len = 1;
	for (size_t i = 0; i < l->n; i++)
		len += strlen(l->v[i]) + 1;
	char *s = malloc(len), *w = s;
	ck_assert_ptr_nonnull(s);
	for (size_t i = 0; i < l->n; i++)
		w += sprintf(w, "%s%s", l->v[i], i + 1 < l->n ? "\n" : "");
	*w = '\0';
	return s;
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* Replace the value after a line's first ": " with a hostile token. */
static bool replace_value(char **line)
{
	char *c = strstr(*line, ": ");
	char *comment = strchr(*line, '#');
	if (!c || (comment && comment < c))
		return false;
	size_t head = (size_t)(c - *line) + 2;
	/* Up to a comment, a comma or a closing bracket of a flow mapping. */
	size_t end = head + strcspn(*line + head, "#,}]");
	const char *tok = hostile[pick(NHOSTILE)];
	size_t n = head + strlen(tok) + strlen(*line + end) + 1;
	char *s = malloc(n);
	ck_assert_ptr_nonnull(s);
	snprintf(s, n, "%.*s%s%s", (int)head, *line, tok, *line + end);
	free(*line);
	*line = s;
	return true;
}

static char *mutate(const char *text, char *what, size_t what_len)
{
	struct lines l = split_lines(text);
	size_t k = pick(l.n);
	switch (pick(6)) {
	case 0:
		snprintf(what, what_len, "line %zu dropped", k + 1);
		free(l.v[k]);
		memmove(l.v + k, l.v + k + 1, (l.n - k - 1) * sizeof(*l.v));
		l.n--;
		break;
	case 1:
		snprintf(what, what_len, "line %zu doubled", k + 1);
		l.v = realloc(l.v, (l.n + 1) * sizeof(*l.v));
		ck_assert_ptr_nonnull(l.v);
		memmove(l.v + k + 1, l.v + k, (l.n - k) * sizeof(*l.v));
		l.v[k + 1] = strdup(l.v[k]);
		l.n++;
		break;
	case 2:
	case 3:
		/* Try a few lines for one with a value. */
		for (int tries = 0; tries < 20; tries++, k = pick(l.n))
			if (replace_value(&l.v[k])) {
				snprintf(what, what_len, "line %zu: %s", k + 1, l.v[k]);
				break;
			}
		break;
	case 4: {
		char *all = join_lines(&l);
		size_t cut = pick(strlen(all) + 1);
		snprintf(what, what_len, "cut at byte %zu", cut);
		all[cut] = '\0';
		free_lines(&l);
		l = split_lines(all);
		free(all);
		break;
	}
	default: {
		size_t n = strlen(l.v[k]) + 4;
		char *s = malloc(n);
		ck_assert_ptr_nonnull(s);
		int spaces = 1 + (int)pick(3);
		snprintf(s, n, "%*s%s", spaces, "", l.v[k]);
		free(l.v[k]);
		l.v[k] = s;
		snprintf(what, what_len, "line %zu indented by %d", k + 1, spaces);
	}
	}
	char *out = join_lines(&l);
	free_lines(&l);
	return out;
}

/* ---- the check --------------------------------------------------------- */

static regex_t diag_form;
static size_t n_loaded, n_refused;    /* how the mutations fared */
static char tmp_dir[64];
static char models_dir[4200];

/* Load `scenario` with the mutated models first on the path; it must
 * load, or fail with a positioned diagnostic. */
static void load_must_not_crash(const char *scenario, const char *source, const char *what)
{
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_model_path mp;
	rs_model_path_init(&mp);
	ck_assert_int_eq(rs_model_path_add(&mp, models_dir, &d), 0);
	const char *top = getenv("top_srcdir");
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/models", top ? top : ".");
	ck_assert_int_eq(rs_model_path_add(&mp, dir, &d), 0);
	struct rs_scenario sc;
	memset(&sc, 0, sizeof(sc));
	int rc = rs_scenario_load(&sc, scenario, NULL, 0, &mp, &d);
	n_loaded += rc == 0;
	n_refused += rc != 0;
	if (rc != 0) {
		char *msg = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&msg, &len);
		rs_diag_print(&d, f);
		fclose(f);
		ck_assert_msg(regexec(&diag_form, msg, 0, NULL, 0) == 0,
			      "%s (%s): diagnostic without file:line:column: %s", source, what, msg);
		free(msg);
	}
	rs_scenario_free(&sc);
	rs_model_path_free(&mp);
}

static void remove_models(void)
{
	DIR *dp = opendir(models_dir);
	struct dirent *e;
	while (dp && (e = readdir(dp)))
		if (e->d_name[0] != '.') {
			char p[8400];
			snprintf(p, sizeof(p), "%s/%s", models_dir, e->d_name);
			unlink(p);
		}
	if (dp)
		closedir(dp);
}

static void setup(void)
{
	n_loaded = n_refused = 0;
	const char *n = getenv("RS_MALFORMED_MUTATIONS"), *seed = getenv("RS_MALFORMED_SEED");
	if (n && atoi(n) > 0)
		mutations_per_file = atoi(n);
	if (seed && strtoull(seed, NULL, 0))
		rng_state = strtoull(seed, NULL, 0);
	snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/rs-malformed-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp_dir));
	snprintf(models_dir, sizeof(models_dir), "%s/models", tmp_dir);
	ck_assert_int_eq(mkdir(models_dir, 0700), 0);
	ck_assert_int_eq(regcomp(&diag_form, "^[^:\n]+:[0-9]+:[0-9]+: error: ", REG_EXTENDED), 0);
}

static void teardown(void)
{
	remove_models();
	rmdir(models_dir);
	char p[4200];
	snprintf(p, sizeof(p), "%s/in.yaml", tmp_dir);
	unlink(p);
	rmdir(tmp_dir);
	regfree(&diag_form);
}

START_TEST(mutated_scenarios_load_or_say_where)
{
	struct file_list files = source_files("scenarios");
	char in[4200];
	snprintf(in, sizeof(in), "%s/in.yaml", tmp_dir);
	for (size_t i = 0; i < files.n; i++) {
		char *text = read_text(files.paths[i]);
		for (int m = 0; m < mutations_per_file; m++) {
			char what[512] = "";
			char *bad = mutate(text, what, sizeof(what));
			write_text(in, bad);
			load_must_not_crash(in, files.paths[i], what);
			free(bad);
		}
		free(text);
	}
	printf("malformed: %zu scenario files x %d mutations: %zu loaded, %zu refused with a "
	       "position\n", files.n, mutations_per_file, n_loaded, n_refused);
	free_list(&files);
}
END_TEST

/* A mutated model, found first on the model path, under a small scenario
 * that uses it (the type is read from the model itself). */
START_TEST(mutated_models_load_or_say_where)
{
	struct file_list files = source_files("models");
	char in[4200];
	snprintf(in, sizeof(in), "%s/in.yaml", tmp_dir);
	size_t used = 0;
	for (size_t i = 0; i < files.n; i++) {
		const char *base = strrchr(files.paths[i], '/') + 1;
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(strlen(base) - 5), base);
		char *text = read_text(files.paths[i]);
		/* Each kind of model in the smallest scenario that uses it: buses
		 * under a controller, controllers over a two-drive array, adapters
		 * before a target and targets behind an adapter. */
		const char *scenario_fmt =
			strstr(files.paths[i], "/buses/")
				? "device: {type: controller, host_bus: %s, array: {type: ideal}}\n"
			: strstr(files.paths[i], "/controllers/")
				? "device: {model: %s, array: {type: array, level: raid0, strip: 64KiB,"
				  " disks: {count: 2, model: maxtor-6l020l0}}}\n"
			: strstr(files.paths[i], "/adapters/")
				? "device: {model: %s, target: {type: iscsi-target}}\n"
			: strstr(files.paths[i], "/targets/")
				? "device: {type: iscsi-adapter, target: {model: %s}}\n"
				: "device: {model: %s}\n";
		char scenario[1024];
		int n = snprintf(scenario, sizeof(scenario), scenario_fmt, name);
		snprintf(scenario + n, sizeof(scenario) - (size_t)n,
			 "workload: {iometer: {spec: database, run: 0.1s}}\n");
		write_text(in, scenario);
		char model[8400];
		snprintf(model, sizeof(model), "%s/%s", models_dir, base);
		for (int m = 0; m < mutations_per_file; m++) {
			char what[512] = "";
			char *bad = mutate(text, what, sizeof(what));
			write_text(model, bad);
			load_must_not_crash(in, files.paths[i], what);
			free(bad);
		}
		unlink(model);
		free(text);
		used++;
	}
	printf("malformed: %zu model files x %d mutations: %zu loaded, %zu refused with a "
	       "position\n", used, mutations_per_file, n_loaded, n_refused);
	free_list(&files);
}
END_TEST

static Suite *malformed_suite(void)
{
	Suite *s = suite_create("malformed");
	TCase *tc = tcase_create("mutations");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, mutated_scenarios_load_or_say_where);
	tcase_add_test(tc, mutated_models_load_or_say_where);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(malformed_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
