/* FC-Test (X-bit labs' File-Copy Test) on two NTFS volumes of the target.
 *
 * The target holds two volumes of `volume_size` back to back (volume 1 at
 * block 0).  Each starts with a metadata zone (the MFT and directories:
 * every metadata write goes there, cycling through it) and its file data
 * follows.  The file set is laid out contiguously in allocation order, each
 * file rounded up to the cluster, as a fresh NTFS volume allocates it.
 *
 *   create     write every file to volume 1, in `block`-size requests;
 *   read       read every file back from volume 1 (the files are laid out
 *              at build time, no I/O creates them);
 *   copy-near  read each block from volume 1 and write it after the last
 *              existing file of volume 1;
 *   copy-far   read from volume 1 and write to the same place of volume 2.
 *
 * Writes of file data come with metadata writes: one per file (its MFT
 * record and directory entry) plus one per `metadata_interval` of data
 * (bitmap, log and size updates), each `metadata_size` long, on the volume
 * written.  The copier keeps `outstanding` blocks in flight, each going
 * through its read and then its write (Explorer read one block ahead while
 * the previous one was written).  There is no cache: X-bit rebooted between
 * steps, so every byte comes from the device.
 *
 * A copy's destination is its source moved by a constant (the layout is
 * the same), so a completed read alone says where its write goes: no state
 * rides on the request.  Everything is sized at build time; running
 * allocates nothing but requests from the sim's pool.
 *
 * The measuring window opens at once (no ramp) and closes when the last
 * request of the action completes, so the summary's time is the action's
 * duration; rs_filecopy_file_mb_s() gives FC-Test's figure.
 *
 * With a `page_cache` section the copier goes through a host page cache
 * (host/page_cache.h) put in front of the target, as Windows' copies went
 * through its cache manager: reads are read ahead, writes written behind.
 * The action then ends with a flush, and its time runs until the flush is
 * done: X-bit flushed the OS cache between steps, so the data the action
 * wrote reached the device within the step. */
#include "load/filecopy.h"

#include <stdlib.h>
#include <string.h>

#include "host/page_cache.h"
#include "kernel/assert.h"
#include "load/filecopy_sets.h"

enum action { ACT_CREATE, ACT_READ, ACT_COPY_NEAR, ACT_COPY_FAR };
static const char *const action_names[] = { "create", "read", "copy-near", "copy-far", NULL };

struct filecopy_params {
	struct rs_load_common common;
	int set;                      /* index into rs_fileset_names */
	int action;                   /* enum action */
	uint64_t files;               /* 0 = the set's own count */
	uint64_t volume_size;
	uint64_t block;
	uint64_t outstanding;
	uint64_t cluster;
	uint64_t metadata_size;
	uint64_t metadata_interval;
	uint64_t metadata_zone;
	const struct rs_node *page_cache;
};

/* No `ramp`: the window must cover the whole action from its first
 * request.  `run` defaults to far longer than any action (about 11.6
 * simulated days), as for trace replay. */
static const struct rs_opt filecopy_opts[] = {
	{ "run", RS_OPT_TIME, offsetof(struct filecopy_params, common.run_ns), "1000000s",
	  RS_OPT_POSITIVE, 0, 0, NULL,
	  "cut the action short after this time (default: until it completes)" },
	{ "count", RS_OPT_UINT, offsetof(struct filecopy_params, common.max_ops), "0", 0, 0, 0,
	  NULL, "cut the action short after this many requests (0 = until it completes)" },
	{ "set", RS_OPT_ENUM, offsetof(struct filecopy_params, set), NULL, RS_OPT_REQUIRED, 0,
	  0, rs_fileset_names, "FC-Test file set: install, iso, mp3, programs, windows" },
	{ "action", RS_OPT_ENUM, offsetof(struct filecopy_params, action), NULL,
	  RS_OPT_REQUIRED, 0, 0, action_names,
	  "create (write the set to volume 1), read (read it back), copy-near (copy it "
	  "within volume 1), copy-far (copy it to volume 2)" },
	{ "files", RS_OPT_UINT, offsetof(struct filecopy_params, files), "0",
	  RS_OPT_HAS_MAX, 0, 10000000, NULL,
	  "number of files (0 = the set's own); the total size scales with it" },
	/* Binary: Windows' Disk Management sized partitions in MB of 2^20
	 * bytes, so X-bit's "32 GB" partitions were 32 GiB. */
	{ "volume_size", RS_OPT_SIZE, offsetof(struct filecopy_params, volume_size), "32GiB",
	  RS_OPT_HAS_MIN, 1 << 20, 0, NULL,
	  "size of each of the two volumes (X-bit: two 32 GB partitions)" },
	{ "block", RS_OPT_SIZE, offsetof(struct filecopy_params, block), "64KiB",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 512, 1 << 30, NULL,
	  "copier's request size (Windows Explorer of the era: 64 KiB)" },
	{ "outstanding", RS_OPT_UINT, offsetof(struct filecopy_params, outstanding), "2",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1, 1024, NULL,
	  "blocks in flight (2: read one ahead while writing the previous)" },
	{ "cluster", RS_OPT_SIZE, offsetof(struct filecopy_params, cluster), "4KiB",
	  RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 512, 1 << 26, NULL,
	  "allocation unit: files start on and are padded to it (NTFS default 4 KiB)" },
	{ "metadata_size", RS_OPT_SIZE, offsetof(struct filecopy_params, metadata_size), "4KiB",
	  RS_OPT_HAS_MAX, 0, 1 << 26, NULL, "size of one metadata write (0 = no metadata I/O)" },
	{ "metadata_interval", RS_OPT_SIZE,
	  offsetof(struct filecopy_params, metadata_interval), "8MiB", 0, 0, 0, NULL,
	  "one more metadata write per this much file data written (0 = only one per file)" },
	{ "metadata_zone", RS_OPT_SIZE, offsetof(struct filecopy_params, metadata_zone), "64MiB",
	  RS_OPT_HAS_MIN, 512, 0, NULL,
	  "room at each volume's start for metadata; file data follows it" },
	{ "page_cache", RS_OPT_NODE, offsetof(struct filecopy_params, page_cache), NULL, 0, 0, 0,
	  NULL, "host page cache the copier goes through, inline (type: page_cache) or a "
	  "model (model: windows-xp-cache-manager); none by default" },
	RS_OPT_END
};

struct filecopy {
	enum action action;
	const struct rs_fileset *set;
	uint64_t *size;               /* per file, bytes */
	size_t nfiles;
	uint64_t file_bytes;          /* sum of size[] */

	uint64_t block_bytes, cluster_bytes;
	uint32_t meta_nblk;           /* 0: no metadata I/O */
	uint64_t meta_interval;       /* bytes; 0: none */
	uint64_t outstanding;
	bool writes;                  /* the action writes file data (and metadata) */

	/* Layout, in blocks. */
	uint64_t volume_blk[2];
	uint64_t src_blk, alloc_blk;  /* first file on volume 1, all files' clusters */
	uint64_t delta_blk;           /* copy: destination = source + delta */
	uint64_t zone_blk, zone_slots; /* metadata zone written and its metadata_size slots */

	/* Cursor over the action: the next block to hand out. */
	size_t file;
	uint64_t off;                 /* bytes of file `file` already handed out */
	uint64_t file_blk;            /* where file `file` starts (source layout) */
	bool file_meta_owed;          /* its per-file metadata write is still to come */
	uint64_t since_meta;          /* data bytes since the last interval write */
	uint64_t meta_owed;           /* interval writes due */
	uint64_t meta_next;           /* metadata writes handed out */
	uint64_t data_reqs;

	/* The page cache in front of the target (NULL: none), the target
	 * itself, and whether the closing flush has been sent. */
	struct rs_dev *cache, *lower;
	bool flushed;

	/* Progress, for the file MB/s of a window closed early. */
	uint64_t data_blk_total, data_blk_done;
};

static uint64_t round_up(uint64_t v, uint64_t unit) { return (v + unit - 1) / unit * unit; }

static void data_read_done(struct rs_sim *sim, struct rs_io *io);
static void data_done(struct rs_sim *sim, struct rs_io *io);
static void meta_done(struct rs_sim *sim, struct rs_io *io);

static void issue_meta(struct rs_sim *sim, struct rs_load *load)
{
	struct filecopy *fc = load->priv;
	uint64_t lba = fc->zone_blk + (fc->meta_next % fc->zone_slots) * fc->meta_nblk;
	fc->meta_next++;
	rs_load_issue(sim, load, RS_WRITE, lba, fc->meta_nblk, meta_done);
}

/* Start the next piece of work in a free slot: a metadata write if one is
 * due, else the next block of file data.  False once everything has been
 * handed out. */
static bool start_next(struct rs_sim *sim, struct rs_load *load)
{
	struct filecopy *fc = load->priv;
	for (;;) {
		if (fc->meta_owed) {
			fc->meta_owed--;
			issue_meta(sim, load);
			return true;
		}
		if (fc->file >= fc->nfiles)
			return false;
		/* The file's record is written when it is created, before its
		 * data (Explorer's CreateFile comes first). */
		if (fc->file_meta_owed) {
			fc->file_meta_owed = false;
			issue_meta(sim, load);
			return true;
		}
		uint64_t size = fc->size[fc->file];
		if (fc->off >= size) {
			fc->file_blk += round_up(size, fc->cluster_bytes) / RS_BLOCK_BYTES;
			fc->file++;
			fc->off = 0;
			fc->file_meta_owed = fc->writes && fc->meta_nblk > 0;
			continue;
		}
		uint64_t len = size - fc->off < fc->block_bytes ? size - fc->off : fc->block_bytes;
		/* The tail goes out as whole clusters: the cache manager writes
		 * and reads pages, never a partial sector. */
		uint64_t lba = fc->file_blk + fc->off / RS_BLOCK_BYTES;
		uint32_t nblk = (uint32_t)(round_up(len, fc->cluster_bytes) / RS_BLOCK_BYTES);
		fc->off += len;
		fc->data_reqs++;
		if (fc->writes && fc->meta_nblk && fc->meta_interval) {
			fc->since_meta += len;
			while (fc->since_meta >= fc->meta_interval) {
				fc->since_meta -= fc->meta_interval;
				fc->meta_owed++;
			}
		}
		switch (fc->action) {
		case ACT_CREATE:
			rs_load_issue(sim, load, RS_WRITE, lba, nblk, data_done);
			break;
		case ACT_READ:
			rs_load_issue(sim, load, RS_READ, lba, nblk, data_done);
			break;
		case ACT_COPY_NEAR:
		case ACT_COPY_FAR:
			rs_load_issue(sim, load, RS_READ, lba, nblk, data_read_done);
			break;
		}
		return true;
	}
}

/* A slot is free: give it more work, or end the action after the last
 * completion. */
static void flush_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_load *load = io->done_ctx;
	rs_io_free(sim, io);
	rs_load_finish(sim, load);
}

static void slot_free(struct rs_sim *sim, struct rs_load *load)
{
	struct filecopy *fc = load->priv;
	if (start_next(sim, load))
		return;
	if (load->in_flight != 0)
		return;
	/* Written data still in the cache is part of the action. */
	if (fc->cache && fc->writes && !fc->flushed) {
		fc->flushed = true;
		rs_dev_submit(sim, load->target, rs_io_new(sim, RS_FLUSH, 0, 0, flush_done, load));
		return;
	}
	rs_load_finish(sim, load);
}

/* A copy's read is in: write the block to the same place of the copy. */
static void data_read_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_load *load = io->done_ctx;
	struct filecopy *fc = load->priv;
	uint64_t lba = io->lba;
	uint32_t nblk = io->nblk;
	bool more = rs_load_account(sim, load, io);
	rs_io_free(sim, io);
	if (more)
		rs_load_issue(sim, load, RS_WRITE, lba + fc->delta_blk, nblk, data_done);
}

/* The last step of a block of file data. */
static void data_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_load *load = io->done_ctx;
	struct filecopy *fc = load->priv;
	/* Counted like rs_load_account counts: only inside the window. */
	if (load->measuring)
		fc->data_blk_done += io->nblk;
	bool more = rs_load_account(sim, load, io);
	rs_io_free(sim, io);
	if (more)
		slot_free(sim, load);
}

static void meta_done(struct rs_sim *sim, struct rs_io *io)
{
	struct rs_load *load = io->done_ctx;
	bool more = rs_load_account(sim, load, io);
	rs_io_free(sim, io);
	if (more)
		slot_free(sim, load);
}

static void filecopy_start(struct rs_sim *sim, struct rs_load *load)
{
	struct filecopy *fc = load->priv;
	fc->file = 0;
	fc->off = 0;
	fc->file_blk = fc->src_blk;
	fc->file_meta_owed = fc->writes && fc->meta_nblk > 0;
	fc->since_meta = 0;
	fc->meta_owed = 0;
	fc->meta_next = 0;
	fc->data_reqs = 0;
	fc->data_blk_done = 0;
	fc->flushed = false;
	uint64_t started = 0;
	while (started < fc->outstanding && start_next(sim, load))
		started++;
	if (started == 0)
		rs_load_finish(sim, load);
}

static int check_unit(const struct rs_node *node, const char *key, uint64_t v, uint64_t unit,
		      const char *unit_name, struct rs_diag *d)
{
	if (v % unit)
		return rs_diag_node(d, rs_node_get_or(node, key), "'%s' must be a multiple of %s (%llu bytes), "
						      "got %llu",
				    key, unit_name, (unsigned long long)unit, (unsigned long long)v);
	return 0;
}

static void fill_figures(struct rs_load *load)
{
	load->figures[0].value = rs_filecopy_file_mb_s(load);
}

static int filecopy_init(struct rs_sim *sim, struct rs_load *load, const void *params,
			 const struct rs_node *node, struct rs_diag *d)
{
	const struct filecopy_params *p = params;
	const struct rs_fileset *set = rs_fileset_at((size_t)p->set);
	RS_ASSERT(set != NULL);

	if (check_unit(node, "cluster", p->cluster, RS_BLOCK_BYTES, "512", d) ||
	    check_unit(node, "block", p->block, p->cluster, "the cluster", d) ||
	    check_unit(node, "metadata_size", p->metadata_size, RS_BLOCK_BYTES, "512", d) ||
	    check_unit(node, "metadata_zone", p->metadata_zone, p->cluster, "the cluster", d) ||
	    check_unit(node, "volume_size", p->volume_size, p->cluster, "the cluster", d))
		return -1;
	if (p->metadata_size > p->metadata_zone)
		return rs_diag_node(d, rs_node_get_or(node, "metadata_zone"),
				    "'metadata_zone' (%llu bytes) cannot hold one metadata write "
				    "of %llu bytes",
				    (unsigned long long)p->metadata_zone,
				    (unsigned long long)p->metadata_size);

	uint64_t cap = load->target->capacity_blk * RS_BLOCK_BYTES;
	if (p->volume_size > cap / 2)
		return rs_diag_node(d, rs_node_get_or(node, "volume_size"),
				    "two volumes of %llu bytes need %llu bytes, beyond the device "
				    "(%llu bytes)",
				    (unsigned long long)p->volume_size,
				    (unsigned long long)p->volume_size * 2, (unsigned long long)cap);

	/* A smaller count keeps the set's mean file size. */
	uint64_t n = p->files ? p->files : set->files;
	uint64_t total = p->files ? (uint64_t)((double)set->total_bytes / (double)set->files *
					       (double)n + 0.5)
				  : set->total_bytes;
	if (total < n)
		total = n;

	struct filecopy *fc = calloc(1, sizeof(*fc));
	RS_ASSERT(fc != NULL);
	load->priv = fc;
	fc->size = malloc(n * sizeof(*fc->size));
	RS_ASSERT(fc->size != NULL);
	fc->nfiles = (size_t)n;
	fc->set = set;
	fc->action = (enum action)p->action;
	fc->writes = fc->action != ACT_READ;
	rs_fileset_draw(set, rs_sim_rng(sim, "filecopy.sizes", 0), fc->nfiles, total, fc->size);

	uint64_t alloc = 0, data_blk = 0;
	for (size_t i = 0; i < fc->nfiles; i++) {
		fc->file_bytes += fc->size[i];
		alloc += round_up(fc->size[i], p->cluster);
	}
	data_blk = alloc / RS_BLOCK_BYTES;
	uint64_t need = p->metadata_zone + alloc * (fc->action == ACT_COPY_NEAR ? 2 : 1);
	if (need > p->volume_size)
		return rs_diag_node(d, rs_node_get_or(node, "volume_size"),
				    "file set '%s' (%llu files, %llu bytes allocated) and the "
				    "metadata zone need %llu bytes for %s, beyond the volume "
				    "(%llu bytes)",
				    set->name, (unsigned long long)n, (unsigned long long)alloc,
				    (unsigned long long)need, action_names[p->action],
				    (unsigned long long)p->volume_size);

	fc->block_bytes = p->block;
	fc->cluster_bytes = p->cluster;
	fc->meta_nblk = (uint32_t)(p->metadata_size / RS_BLOCK_BYTES);
	fc->meta_interval = p->metadata_interval;
	fc->outstanding = p->outstanding;
	uint64_t vol_blk = p->volume_size / RS_BLOCK_BYTES;
	uint64_t zone_blk = p->metadata_zone / RS_BLOCK_BYTES;
	fc->volume_blk[0] = 0;
	fc->volume_blk[1] = vol_blk;
	fc->src_blk = zone_blk;
	fc->alloc_blk = data_blk;
	switch (fc->action) {
	case ACT_CREATE:
	case ACT_READ:
		fc->delta_blk = 0;
		break;
	case ACT_COPY_NEAR:
		/* Into a new folder of the same volume: the next free cluster
		 * is right after the last existing file. */
		fc->delta_blk = data_blk;
		break;
	case ACT_COPY_FAR:
		fc->delta_blk = vol_blk;
		break;
	}
	fc->zone_blk = fc->action == ACT_COPY_FAR ? vol_blk : 0;
	fc->zone_slots = fc->meta_nblk ? zone_blk / fc->meta_nblk : 1;
	/* Every data block moves once, through its last step. */
	fc->data_blk_total = data_blk;
	if (p->page_cache) {
		fc->cache = rs_page_cache_wrap(sim, p->page_cache, load->target, load->models, d);
		if (!fc->cache)
			return -1;
		fc->lower = load->target;
		load->target = fc->cache;
	}
	rs_load_common_apply(load, &p->common);
	rs_load_add_figure(load, "file_mb_s");
	load->figures_fill = fill_figures;
	return 0;
}

static void filecopy_destroy(struct rs_load *load)
{
	struct filecopy *fc = load->priv;
	if (!fc)
		return;
	if (fc->cache) {
		load->target = fc->lower;
		rs_page_cache_unwrap(fc->cache);
	}
	free(fc->size);
	free(fc);
	load->priv = NULL;
}

void rs_filecopy_info(const struct rs_load *load, struct rs_filecopy_info *out)
{
	RS_ASSERT(load->type == &rs_load_filecopy);
	const struct filecopy *fc = load->priv;
	memset(out, 0, sizeof(*out));
	out->files = fc->nfiles;
	out->file_bytes = fc->file_bytes;
	out->volume_blk[0] = fc->volume_blk[0];
	out->volume_blk[1] = fc->volume_blk[1];
	out->meta_blk[0] = fc->zone_blk;
	out->meta_blk[1] = fc->zone_blk + fc->zone_slots * fc->meta_nblk;
	out->src_blk[0] = fc->src_blk;
	out->src_blk[1] = fc->src_blk + fc->alloc_blk;
	out->dst_blk[0] = fc->src_blk + fc->delta_blk;
	out->dst_blk[1] = fc->src_blk + fc->delta_blk + fc->alloc_blk;
	out->data_reqs = fc->data_reqs;
	out->meta_reqs = fc->meta_next;
}

double rs_filecopy_file_mb_s(const struct rs_load *load)
{
	RS_ASSERT(load->type == &rs_load_filecopy);
	const struct filecopy *fc = load->priv;
	if (!load->stopped || load->t_measure_end <= load->t0)
		return 0;
	/* File bytes, not I/O bytes: a window closed early is credited with
	 * the completed share of the data. */
	double bytes = fc->data_blk_done >= fc->data_blk_total
			       ? (double)fc->file_bytes
			       : (double)fc->file_bytes * (double)fc->data_blk_done /
					 (double)fc->data_blk_total;
	double secs = (double)(load->t_measure_end - load->t0) / 1e9;
	return bytes / 1e6 / secs;
}

const struct rs_load_type rs_load_filecopy = {
	.name = "filecopy",
	.help = "X-bit labs' FC-Test: create, read, copy-near or copy-far one of its file sets "
		"(install, iso, mp3, programs, windows) on two volumes; ends when done",
	.opts = filecopy_opts,
	.params_size = sizeof(struct filecopy_params),
	.init = filecopy_init,
	.start = filecopy_start,
	.destroy = filecopy_destroy,
};
