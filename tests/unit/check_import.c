/* raidsim import disksim: the reader of DiskSim's parameter syntax, the
 * confinement of the files it loads, the refusals, and the shipped models
 * (models/disks/disksim/NAME.yaml), which must be exactly what the importer
 * writes today from models/disks/disksim/source/ and must load and run. */
#define _POSIX_C_SOURCE 200809L   /* open_memstream, mkdtemp */
#define TU_WANT_SCENARIO
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/diag.h"
#include "config/limits.h"
#include "disk/hdd.h"
#include "disk/hdd_params.h"
#include "disk/layout.h"
#include "import/dsim_hdd.h"
#include "import/dsim_parse.h"
#include "testutil.h"

/* The set-ups the importer accepts; a model is shipped for each. */
static const char *const shipped[] = { "atlas10k", "cheetah9LP", "atlas_III", "dec_rz26",
					"hp_c2490a", "ibm18es", "st41601n", "barracuda",
					"cheetah4LP", "hp_c3323a", "hp_c2247a" };
#define NSHIPPED (sizeof(shipped) / sizeof(shipped[0]))

static const char *top(void)
{
	const char *t = getenv("top_srcdir");
	return t ? t : ".";
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char *buf = NULL;
	size_t cap = 0;
	*len = 0;
	for (;;) {
		if (*len + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
		size_t n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	return buf;
}

/* Import into memory: 0 with the text, or -1 with the diagnostic line. */
static int import(const char *parv, char **text, char *diag, size_t dlen)
{
	size_t len;
	FILE *mem = open_memstream(text, &len);
	ck_assert_ptr_nonnull(mem);
	struct rs_diag d;
	rs_diag_init(&d);
	int rc = rs_import_disksim(parv, mem, &d);
	fclose(mem);
	if (rc) {
		FILE *e = fmemopen(diag, dlen, "w");
		rs_diag_print(&d, e);
		fclose(e);
		ck_assert_uint_eq(len, 0);       /* nothing written */
	}
	return rc;
}

/* A scratch folder with files written from text. */
static char scratch[256];

static void scratch_new(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(scratch, sizeof(scratch), "%s/import-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(scratch));
}

static void put(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", scratch, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void scratch_rm(void)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	ck_assert_int_eq(system(cmd), 0);
}

/* ---- the shipped models --------------------------------------------------- */

START_TEST(shipped_models_are_regenerated_byte_for_byte)
{
	for (size_t i = 0; i < NSHIPPED; i++) {
		char parv[1024], yaml[1024], diag[1024] = "";
		snprintf(parv, sizeof(parv), "%s/models/disks/disksim/source/%s.parv", top(),
			 shipped[i]);
		snprintf(yaml, sizeof(yaml), "%s/models/disks/disksim/%s.yaml", top(), shipped[i]);
		char *text = NULL;
		ck_assert_msg(import(parv, &text, diag, sizeof(diag)) == 0, "%s", diag);
		size_t len;
		char *want = slurp(yaml, &len);
		ck_assert_msg(strlen(text) == len && memcmp(text, want, len) == 0,
			      "%s differs from what 'raidsim import disksim' writes now: "
			      "regenerate it", yaml);
		free(want);
		free(text);
	}
}
END_TEST

/* Each shipped model loads and runs a short QD1 random-read workload, at a
 * rate its spindle can give: more than 80, fewer than 200 IOPS at 10,000
 * rpm; more than 50, fewer than 120 at 7,200 rpm; more than 25, fewer than
 * 80 for the 5,360-6,400 rpm drives of the early 1990s; the 7,200 rpm
 * Barracuda and the 10,033 rpm Cheetah 4LP (its seeks of 1997 keep it
 * below 80) within 50 to 120; the 5,396 rpm HP C3323A and the 5,400 rpm HP
 * C2247A within 25 to 80. */
START_TEST(shipped_models_run)
{
	static const double lo[NSHIPPED] = { 80, 80, 50, 25, 25, 50, 25, 50, 50, 25, 25 },
			    hi[NSHIPPED] = { 200, 200, 120, 80, 80, 120, 80, 120, 120, 80, 80 };
	for (size_t i = 0; i < NSHIPPED; i++) {
		struct tu_run r;
		tu_run(&r, "device: {model: %s}\n"
			   "workload:\n  iometer: {spec: default, size: 4KiB, read: 100%%, random: "
			   "100%%, outstanding: 1, run: 2s}\n", shipped[i]);
		ck_assert_msg(r.s.iops > lo[i] && r.s.iops < hi[i], "%s: %.1f IOPS", shipped[i],
			      r.s.iops);
		ck_assert_uint_eq(r.s.errors, 0);
	}
}
END_TEST

/* Every value of a generated model names its source line. */
START_TEST(every_value_names_its_source)
{
	char parv[1024], diag[1024] = "";
	snprintf(parv, sizeof(parv), "%s/models/disks/disksim/source/cheetah9LP.parv", top());
	char *text = NULL;
	ck_assert_int_eq(import(parv, &text, diag, sizeof(diag)), 0);
	static const char *const want[] = {
		"rpm: 10045rpm                      # cheetah9LP.model:",
		"interface_block_time: 0.105ms      # cheetah9LP.diskspecs:5 ",
		"write_cache_size: 861696B          # cheetah9LP.diskspecs:35 ",
		"read_ahead_over_request: true      # cheetah9LP.diskspecs:46 ",
		/* DiskSim's unmapped cylinder 847, added to zone 0 as spares */
		"  - {first_cyl: 0, last_cyl: 847, sectors_per_track: 254, track_skew: 97, "
		"cyl_skew: 133, spares: 4318}",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(strstr(text, want[i]) != NULL, "missing: %s", want[i]);
	free(text);
}
END_TEST

/* ---- every set-up's layout and seeks ------------------------------------- */

/* Each set-up's .model (layout, mechanics and seek curve) with atlas10k's
 * firmware and buses around it, so the layout and seek parameters import
 * even where the set-up's own firmware is refused.  blocks is DiskSim's
 * "Block count"; disksim_sum is DiskSim's sum of its zones' blocks
 * (dm_layout_g1_compute_blksinband: a zone's sectors less its empty front
 * and, by sparing scheme, 1: spare tracks, 2: spares x cylinders, 3: spares
 * x tracks, 7: slips, 8: spares x whole ranges, 9: spares), worked out from
 * the files by hand, not by the importer. */
static const struct {
	const char *name, *model, *seek;
	uint64_t blocks, disksim_sum;
} layouts[] = {
	{ "atlas_III", "atlas_III.model", "atlas_III.seek", 17783250, 17797944 },
	{ "barracuda", "barracuda.model", "barracuda.seek", 4110000, 4217670 },
	{ "cheetah4LP", "cheetah4LP.model", "cheetah4LP.seek", 8887200, 8887940 },
	{ "dec_rz26", "dec_rz26_validate.model", "dec_rz26_validate.seek", 2050860, 2050860 },
	{ "hp_c2247a", "hp_c2247a_validate.model", NULL, 2054864, 2054864 },
	{ "hp_c2490a", "hp_c2490a_validate.model", "hp_c2490a_validate.seek", 4165272,
	  4165272 },
	{ "hp_c3323a", "hp_c3323a_validate.model", "hp_c3323a_validate.seek", 2056008,
	  2056008 },
	{ "ibm18es", "ibm18es.model", "ibm18es.seek", 17916240, 18033753 },
	{ "st41601n", "st41601n_validate.model", "st41601n_validate.seek", 2676846, 2676846 },
};

static void copy_source(const char *from, const char *to, const char *old, const char *new)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/models/disks/disksim/source/%s", top(), from);
	size_t len;
	char *text = slurp(path, &len);
	text = realloc(text, len + strlen(new) + 1);
	ck_assert_ptr_nonnull(text);
	text[len] = '\0';
	if (old) {
		char *at = strstr(text, old);
		ck_assert_ptr_nonnull(at);
		size_t n = strlen(old);
		memmove(at + strlen(new), at + n, strlen(at + n) + 1);
		memcpy(at, new, strlen(new));
	}
	put(to, text);
	free(text);
}

START_TEST(every_layout_maps_disksim_blocks)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		char line[200], parv[512], diag[1024] = "", *text = NULL;
		scratch_new();
		copy_source("atlas10k.parv", "s.parv", NULL, "");
		snprintf(line, sizeof(line), "Model = source %s,", layouts[i].model);
		copy_source("atlas10k.diskspecs", "atlas10k.diskspecs",
			    "Model = source atlas10k.model,", line);
		copy_source(layouts[i].model, layouts[i].model, NULL, "");
		if (layouts[i].seek)
			copy_source(layouts[i].seek, layouts[i].seek, NULL, "");
		snprintf(parv, sizeof(parv), "%s/s.parv", scratch);
		ck_assert_msg(import(parv, &text, diag, sizeof(diag)) == 0, "%s: %s",
			      layouts[i].name, diag);
		snprintf(line, sizeof(line), "%s.yaml", layouts[i].name);
		put(line, text);
		free(text);

		struct rs_model_path mp;
		struct rs_diag d;
		rs_diag_init(&d);
		rs_model_path_init(&mp);
		ck_assert_int_eq(rs_model_path_add(&mp, scratch, &d), 0);
		struct rs_sim *sim = rs_sim_new(1);
		struct rs_node *root;
		snprintf(line, sizeof(line), "model: %s\n", layouts[i].name);
		struct rs_dev *dev = tu_build_text(sim, &mp, line, "disk0", &root, &d);
		if (!dev)
			rs_diag_print(&d, stderr);
		ck_assert_msg(dev != NULL, "%s does not load", layouts[i].name);
		const struct rs_layout *l = &rs_hdd_geom(dev)->layout;
		ck_assert_msg(rs_layout_capacity_blk(l) == layouts[i].blocks &&
			      l->mappable_blk == layouts[i].disksim_sum, "%s: %llu blocks, %llu "
			      "mapped", layouts[i].name,
			      (unsigned long long)rs_layout_capacity_blk(l),
			      (unsigned long long)l->mappable_blk);
		/* Every LBA's position maps back to it (a stride over the disk). */
		for (uint64_t lba = 0; lba < l->capacity_blk; lba += 9973) {
			struct rs_phys ph;
			rs_layout_lba_to_phys(l, lba, &ph);
			ck_assert_int_eq(rs_layout_phys_to_lba(l, &ph), (int64_t)lba);
		}
		rs_dev_destroy(dev);
		rs_node_free(root);
		rs_sim_free(sim);
		rs_model_path_free(&mp);
		scratch_rm();
	}
}
END_TEST

/* ---- the reader and its confinement -------------------------------------- */

static const char *import_scratch(const char *parv_name, char *diag, size_t dlen)
{
	char parv[512];
	snprintf(parv, sizeof(parv), "%s/%s", scratch, parv_name);
	char *text = NULL;
	int rc = import(parv, &text, diag, dlen);
	free(text);
	ck_assert_int_eq(rc, -1);
	const char *p = strstr(diag, parv_name);
	return p ? p : diag;
}

START_TEST(source_outside_the_folder_is_refused)
{
	char diag[1024];
	scratch_new();
	put("a.parv", "# set-up\nsource ../../etc/passwd\n");
	ck_assert_str_eq(import_scratch("a.parv", diag, sizeof(diag)),
			 "a.parv:2:8: error: '../../etc/passwd' is outside the set-up's folder "
			 "(only files beside the set-up file, or below it, are read)\n");
	put("b.parv", "source /etc/passwd\n");
	ck_assert_str_eq(import_scratch("b.parv", diag, sizeof(diag)),
			 "b.parv:1:8: error: '/etc/passwd' is outside the set-up's folder (only "
			 "files beside the set-up file, or below it, are read)\n");
	/* A symbolic link that leads out is caught after resolving it. */
	char link[512];
	snprintf(link, sizeof(link), "%s/out.diskspecs", scratch);
	ck_assert_int_eq(symlink("/etc/hostname", link), 0);
	put("c.parv", "source out.diskspecs\n");
	ck_assert_str_eq(import_scratch("c.parv", diag, sizeof(diag)),
			 "c.parv:1:8: error: 'out.diskspecs' leads outside the set-up's folder (a "
			 "symbolic link?)\n");
	/* `..` that comes back inside is fine (and then the file is missing). */
	put("d.parv", "source sub/../missing.diskspecs\n");
	ck_assert_str_eq(import_scratch("d.parv", diag, sizeof(diag)),
			 "d.parv:1:8: error: cannot read 'sub/../missing.diskspecs': No such file "
			 "or directory\n");
	scratch_rm();
}
END_TEST

START_TEST(source_nesting_is_capped)
{
	char diag[1024];
	scratch_new();
	put("loop.parv", "source loop.parv\n");
	ck_assert_str_eq(import_scratch("loop.parv", diag, sizeof(diag)),
			 "loop.parv:1:1: error: 'source' nests more than 16 files deep (cap "
			 "model_depth=16; raise it with --limit model_depth=N)\n");
	scratch_rm();
}
END_TEST

START_TEST(big_files_and_deep_brackets_are_refused)
{
	char diag[1024];
	scratch_new();
	char path[512];
	snprintf(path, sizeof(path), "%s/big.model", scratch);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)RS_DSIM_MAX_FILE, SEEK_SET), 0);
	fputc('\n', f);
	fclose(f);
	put("big.parv", "disksim_disk D {\n  Model = source big.model\n}\n");
	ck_assert_str_eq(import_scratch("big.parv", diag, sizeof(diag)),
			 "big.parv:2:18: error: 'big.model' is 4194305 bytes, more than the "
			 "4194304 a DiskSim parameter file may have\n");
	char deep[4 * RS_DSIM_MAX_NEST + 64] = "x y { k = ";
	for (int i = 0; i < RS_DSIM_MAX_NEST + 1; i++)
		strcat(deep, "[");
	put("deep.parv", deep);
	ck_assert_str_eq(import_scratch("deep.parv", diag, sizeof(diag)),
			 "deep.parv:1:74: error: brackets nest more than 64 deep\n");
	scratch_rm();
}
END_TEST

START_TEST(syntax_errors_have_positions)
{
	char diag[1024];
	scratch_new();
	put("s1.parv", "disksim_bus B {\n  type = 1,\n  Arbitration time 0.0\n}\n");
	ck_assert_str_eq(import_scratch("s1.parv", diag, sizeof(diag)),
			 "s1.parv:4:1: error: expected '=' after the parameter name, got '}'\n");
	put("s2.parv", "disksim_bus B {\n  type = 1\n  Arbitration time = 0.0\n}\n");
	ck_assert_str_eq(import_scratch("s2.parv", diag, sizeof(diag)),
			 "s2.parv:3:3: error: expected ',' or '}', got 'Arbitration'\n");
	put("s3.parv", "disksim_bus B {\n  type = [ 1, 2\n");
	ck_assert_str_eq(import_scratch("s3.parv", diag, sizeof(diag)),
			 "s3.parv:3:1: error: expected ']', got the end of the file\n");
	scratch_rm();
}
END_TEST

/* What the importer cannot express is refused at the value; unknown names
 * too; what does not matter to timing is listed as ignored. */
START_TEST(unmodelled_values_are_refused)
{
	char diag[1024];
	scratch_new();
	put("u1.parv", "disksim_bus B {\n  type = 1,\n  Arbitration time = 0.5\n}\n");
	ck_assert_str_eq(import_scratch("u1.parv", diag, sizeof(diag)),
			 "u1.parv:3:22: error: 'Arbitration time' = 0.5 is not modelled: raidsim "
			 "can only import 0 (raidsim's links have no arbitration)\n");
	put("u2.parv", "disksim_bus B {\n  type = 1,\n  Arbitration tyme = 1\n}\n");
	ck_assert_str_eq(import_scratch("u2.parv", diag, sizeof(diag)),
			 "u2.parv:3:3: error: unknown DiskSim parameter 'Arbitration tyme' in a "
			 "disksim_bus block\n");
	put("u3.parv", "disksim_global G { Init Seed = 1 }\n");
	ck_assert_str_eq(import_scratch("u3.parv", diag, sizeof(diag)),
			 "u3.parv:1:1: error: the set-up instantiates no disksim_disk\n");
	put("u4.parv", "disksim_simpledisk S { Block count = 1 }\n");
	ck_assert_str_eq(import_scratch("u4.parv", diag, sizeof(diag)),
			 "u4.parv:1:1: error: a disksim_simpledisk block is not imported (raidsim "
			 "imports one disksim_disk with its buses, controller and driver)\n");
	scratch_rm();
}
END_TEST

/* ---- the firmware and bus rules ----------------------------------------------
 *
 * The Atlas 10K set-up with one or two values of its .diskspecs changed:
 * what the importer writes for them, or where it refuses them. */

/* Import the Atlas 10K set-up with `from` replaced by `to` in its
 * .diskspecs (and `from2` by `to2`, when given); 0 with the model text, or
 * -1 with the diagnostic. */
static int import_atlas_with(const char *from, const char *to, const char *from2,
			     const char *to2, char **text, char *diag, size_t dlen)
{
	static const char *const files[] = { "atlas10k.parv", "atlas10k.model",
					     "atlas10k.seek", "atlas10k.diskspecs" };
	scratch_new();
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[1024];
		size_t len;
		snprintf(path, sizeof(path), "%s/models/disks/disksim/source/%s", top(), files[i]);
		char *buf = slurp(path, &len);
		buf = realloc(buf, len + 1);
		ck_assert_ptr_nonnull(buf);
		buf[len] = '\0';
		for (int k = 0; i == 3 && k < 2; k++) {
			const char *f = k ? from2 : from, *t = k ? to2 : to;
			if (!f)
				continue;
			char *at = strstr(buf, f);
			ck_assert_msg(at != NULL, "'%s' not in the .diskspecs", f);
			size_t head = (size_t)(at - buf), fl = strlen(f), tl = strlen(t);
			char *nb = malloc(len - fl + tl + 1);
			ck_assert_ptr_nonnull(nb);
			memcpy(nb, buf, head);
			memcpy(nb + head, t, tl);
			memcpy(nb + head + tl, at + fl, len - head - fl + 1);
			free(buf);
			buf = nb;
			len = len - fl + tl;
		}
		put(files[i], buf);
		free(buf);
	}
	char parv[512];
	snprintf(parv, sizeof(parv), "%s/atlas10k.parv", scratch);
	int rc = import(parv, text, diag, dlen);
	scratch_rm();
	return rc;
}

static void atlas_refused(const char *from, const char *to, const char *from2, const char *to2,
			  const char *want)
{
	char *text = NULL, diag[1024] = "";
	ck_assert_int_eq(import_atlas_with(from, to, from2, to2, &text, diag, sizeof(diag)), -1);
	ck_assert_msg(strstr(diag, want) != NULL, "got %s", diag);
	free(text);
}

static void atlas_writes(const char *from, const char *to, const char *from2, const char *to2,
			 const char *want)
{
	char *text = NULL, diag[1024] = "";
	ck_assert_msg(import_atlas_with(from, to, from2, to2, &text, diag, sizeof(diag)) == 0,
		      "%s", diag);
	ck_assert_msg(strstr(text, want) != NULL, "no '%s' in the model", want);
	free(text);
}

START_TEST(firmware_rules_are_imported)
{
	/* A read water mark, with the bus held for the transfer. */
	atlas_writes("High (read) water mark = 0.000000", "High (read) water mark = 0.75",
		     "Hold bus entire read xfer = 0", "Hold bus entire read xfer = 1",
		     "read_watermark: 0.75 ");
	atlas_refused("High (read) water mark = 0.000000", "High (read) water mark = 0.75",
		      NULL, NULL, "atlas10k.diskspecs:6:31: error: a read water mark without "
		      "'Hold bus entire read xfer' is not modelled");
	atlas_refused("High (read) water mark = 0.000000", "High (read) water mark = 1",
		      "Set watermark by reqsize = 1", "Set watermark by reqsize = 0",
		      "atlas10k.diskspecs:40:30: error: 'Set watermark by reqsize' = 0 with a read "
		      "water mark is not modelled");
	/* A write water mark is written only when it is on: 0 is the default. */
	atlas_writes("Low (write) water mark = 0.000000", "Low (write) water mark = 0.5",
		     NULL, NULL, "write_watermark: 0.5 ");
	atlas_refused("Low (write) water mark = 0.000000", "Low (write) water mark = 1.5",
		      NULL, NULL, "atlas10k.diskspecs:38:28: error: 'Low (write) water mark' must "
		      "be from 0 to 1, got 1.5");
	/* One segment kept for writes: the reads have the others. */
	atlas_writes("Use separate write segment = 0", "Use separate write segment = 1", NULL,
		     NULL, "segments: 9 ");
	atlas_writes("Use separate write segment = 0", "Use separate write segment = 1", NULL,
		     NULL, "atlas10k.diskspecs:37 \"Use separate write segment\"; the write segment");
	/* Requested blocks that leave the buffer once delivered. */
	atlas_writes("Read-ahead over requested = 0", "Read-ahead over requested = -1", NULL, NULL,
		     "read_drop_request: true ");
	atlas_refused("Read-ahead over requested = 0", "Read-ahead over requested = 2", NULL,
		      NULL, "atlas10k.diskspecs:46:31: error: 'Read-ahead over requested' = 2 is "
		      "not modelled");
	atlas_writes("Enable caching in buffer = 1", "Enable caching in buffer = 2", NULL, NULL,
		     "\"Enable caching in buffer\" = 2: DiskSim asks only whether it is 0");
	atlas_refused("Enable caching in buffer = 1", "Enable caching in buffer = 0", NULL, NULL,
		      "atlas10k.diskspecs:42:30: error: 'Enable caching in buffer' = 0 is not "
		      "modelled");
	atlas_writes("Read completion overhead = 0.000000", "Read completion overhead = 0.241",
		     NULL, NULL, "completion_read: 0.241ms");
	atlas_writes("Read-ahead on idle hit = 0", "Read-ahead on idle hit = 1", NULL, NULL,
		     "read_ahead_on_idle_hit: true");
	atlas_writes("Stop prefetch in sector = 0", "Stop prefetch in sector = 1", NULL, NULL,
		     "read_ahead_stop_in_sector: true");
	atlas_writes("Allow read hits on write data = 1", "Allow read hits on write data = 0",
		     NULL, NULL, "read_hits_on_write_data: false");
	atlas_writes("Never disconnect = 0", "Never disconnect = 1", NULL, NULL,
		     "\"Never disconnect\" = 1: the bus carries this drive alone");
}
END_TEST

/* The HP C2247A set-up with one value of its .diskspecs changed: 0 with
 * the model text, or -1 with the diagnostic. */
static int import_hp_with(const char *from, const char *to, char **text, char *diag,
			  size_t dlen)
{
	scratch_new();
	copy_source("hp_c2247a.parv", "hp_c2247a.parv", NULL, "");
	copy_source("hp_c2247a_validate.model", "hp_c2247a_validate.model", NULL, "");
	copy_source("hp_c2247a.diskspecs", "hp_c2247a.diskspecs", from, to);
	char parv[512];
	snprintf(parv, sizeof(parv), "%s/hp_c2247a.parv", scratch);
	int rc = import(parv, text, diag, dlen);
	scratch_rm();
	return rc;
}

static void hp_refused(const char *from, const char *to, const char *want)
{
	char *text = NULL, diag[1024] = "";
	ck_assert_int_eq(import_hp_with(from, to, &text, diag, sizeof(diag)), -1);
	ck_assert_msg(strstr(diag, want) != NULL, "got %s", diag);
	free(text);
}

static void hp_writes(const char *from, const char *to, const char *want, bool present)
{
	char *text = NULL, diag[1024] = "";
	ck_assert_msg(import_hp_with(from, to, &text, diag, sizeof(diag)) == 0, "%s", diag);
	ck_assert_msg((strstr(text, want) != NULL) == present, "'%s' %s the model", want,
		      present ? "not in" : "in");
	free(text);
}

/* DiskSim's disconnecting drive: its overheads, its write block time, its
 * minimum seek delay; the flags that must agree with how raidsim's drive
 * disconnects; the extra write disconnect's times only when it is on. */
START_TEST(connection_overheads_are_imported)
{
	char parv[1024], diag[1024] = "";
	snprintf(parv, sizeof(parv), "%s/models/disks/disksim/source/hp_c2247a.parv", top());
	char *text = NULL;
	ck_assert_int_eq(import(parv, &text, diag, sizeof(diag)), 0);
	static const char *const want[] = {
		"interface_block_time: 0.1701ms     # hp_c2247a.parv:93 ",
		"interface_block_time_write: 0.18686ms # hp_c2247a.parv:94 ",
		"data_prep: 0.02519ms               # hp_c2247a.diskspecs:68 ",
		"reselect: 0.16249ms                # hp_c2247a.diskspecs:69 ",
		"reselect_extra: 0.12883ms          # hp_c2247a.diskspecs:70 ",
		"disconnect_read: 0.02266ms         # hp_c2247a.diskspecs:71 ",
		"disconnect_read_after_write: 0.04551ms # hp_c2247a.diskspecs:72 ",
		"disconnect_write: 0.16565ms        # hp_c2247a.diskspecs:73 ",
		"extra_write_disconnect: true       # hp_c2247a.diskspecs:74 ",
		"extra_disconnect_gap: 0.42885ms    # hp_c2247a.diskspecs:77 ",
		"write_seek_min: 0.6ms              # hp_c2247a.diskspecs:80 ",
		"\"Immediate buffer write\" = 0: a write reports its completion from the media",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(strstr(text, want[i]) != NULL, "missing: %s", want[i]);
	free(text);
	hp_refused("Hold bus entire write xfer = 0", "Hold bus entire write xfer = 1",
		   "hp_c2247a.diskspecs:7:33: error: 'Hold bus entire write xfer' = 1 is not "
		   "modelled with the disconnect and reselect overheads");
	hp_refused("Hold bus entire read xfer = 1", "Hold bus entire read xfer = 0",
		   "hp_c2247a.diskspecs:6:32: error: 'Hold bus entire read xfer' = 0 is not "
		   "modelled with the disconnect and reselect overheads");
	hp_refused("Never disconnect = 0", "Never disconnect = 1",
		   "hp_c2247a.diskspecs:15:23: error: 'Never disconnect' = 1 is not modelled");
	hp_refused("Immediate buffer write = 0", "Immediate buffer write = 1",
		   "hp_c2247a.diskspecs:51:29: error: 'Immediate buffer write' = 1 is not "
		   "modelled with the disconnect and reselect overheads");
	hp_writes("Extra write disconnect = 1", "Extra write disconnect = 0",
		  "extra_write_disconnect: false", true);
	hp_writes("Extra write disconnect = 1", "Extra write disconnect = 0",
		  "\"Extradisc seek delta\": used only by an extra write disconnect, which is off",
		  true);
	hp_writes("Extra write disconnect = 1", "Extra write disconnect = 0",
		  "extra_disconnect_gap", false);
	hp_writes("Minimum seek delay = 0.600000", "Minimum seek delay = 0.000000",
		  "write_seek_min", false);
	/* The Atlas 10K immediately reselects for a hit: not with a connection cost. */
	atlas_refused("Data preparation overhead = 0.000000", "Data preparation overhead = 0.02",
		      NULL, NULL, "atlas10k.diskspecs:50:27: error: 'Immediate buffer read' = 1 is "
		      "not modelled with the disconnect and reselect overheads");
}
END_TEST

/* What cannot change the timing is listed, with the reason. */
START_TEST(ignored_parameters_are_listed)
{
	char parv[1024], diag[1024] = "";
	snprintf(parv, sizeof(parv), "%s/models/disks/disksim/source/atlas10k.parv", top());
	char *text = NULL;
	ck_assert_int_eq(import(parv, &text, diag, sizeof(diag)), 0);
	ck_assert_ptr_nonnull(strstr(text, "#   atlas10k.diskspecs:17 \"Avg sectors per "
					   "cylinder\": used by host-side schedulers"));
	ck_assert_ptr_nonnull(strstr(text, "#   atlas10k.parv:162 disksim_synthio Synthio: the "
					   "synthetic workload"));
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("import");
	TCase *tc = tcase_create("disksim");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, shipped_models_are_regenerated_byte_for_byte);
	tcase_add_test(tc, shipped_models_run);
	tcase_add_test(tc, every_layout_maps_disksim_blocks);
	tcase_add_test(tc, every_value_names_its_source);
	tcase_add_test(tc, source_outside_the_folder_is_refused);
	tcase_add_test(tc, source_nesting_is_capped);
	tcase_add_test(tc, big_files_and_deep_brackets_are_refused);
	tcase_add_test(tc, syntax_errors_have_positions);
	tcase_add_test(tc, unmodelled_values_are_refused);
	tcase_add_test(tc, firmware_rules_are_imported);
	tcase_add_test(tc, connection_overheads_are_imported);
	tcase_add_test(tc, ignored_parameters_are_listed);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
