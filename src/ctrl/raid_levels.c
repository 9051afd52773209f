/* Checking an array's level against its controller's raid_levels. */
#include "ctrl/raid_levels.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "raid/map.h"

/* Data sheets write levels as numbers: "0", "1", "0+1", "10", "5". */
static const struct {
	const char *written;
	enum rs_raid_level level;
} sheet_names[] = {
	{ "0", RS_RAID_RAID0 }, { "1", RS_RAID_RAID1 }, { "0+1", RS_RAID_RAID01 },
	{ "01", RS_RAID_RAID01 }, { "10", RS_RAID_RAID10 }, { "1+0", RS_RAID_RAID10 },
	{ "5", RS_RAID_RAID5 }, { "6", RS_RAID_RAID6 }, { "JBOD", RS_RAID_JBOD },
};

static int level_of(const char *written, enum rs_raid_level *out)
{
	if (rs_raid_level_parse(written, out) == 0)
		return 0;
	for (size_t i = 0; i < sizeof(sheet_names) / sizeof(sheet_names[0]); i++) {
		if (strcmp(written, sheet_names[i].written) == 0) {
			*out = sheet_names[i].level;
			return 0;
		}
	}
	return -1;
}

/* The list as one line for messages: "single, jbod, raid0". */
static void list_text(const struct rs_node *levels, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (size_t i = 0; i < levels->len && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%.20s", i ? ", " : "",
					 levels->items[i]->str);
}

static int check_list(const struct rs_node *levels, bool offered[RS_RAID_LEVEL_COUNT],
		      struct rs_diag *d)
{
	if (levels->kind != RS_NODE_SEQ)
		return rs_diag_node(d, levels, "expected a sequence of RAID levels for "
				    "'raid_levels' (e.g. [jbod, raid0, raid1, raid10]), got %s",
				    rs_node_kind_name(levels));
	if (levels->len == 0)
		return rs_diag_node(d, levels, "'raid_levels' lists no level (leave it out "
				    "for a controller that offers every level)");
	for (size_t i = 0; i < levels->len; i++) {
		const struct rs_node *it = levels->items[i];
		enum rs_raid_level l;

		if (it->kind != RS_NODE_SCALAR || level_of(it->str, &l) != 0)
			return rs_diag_node(d, it, "unknown RAID level '%.40s' in 'raid_levels' "
					    "(expected jbod, single, raid0, raid1, raid01, raid10, "
					    "raid5, raid6, or as data sheets write them: 0, 1, 0+1, "
					    "10, 5, 6, JBOD)",
					    it->kind == RS_NODE_SCALAR ? it->str : "(not a scalar)");
		offered[l] = true;
	}
	return 0;
}

int rs_ctrl_check_raid_level(const struct rs_model_path *mp, const struct rs_node *levels,
			     const char *source, const struct rs_node *array,
			     struct rs_diag *d)
{
	bool offered[RS_RAID_LEVEL_COUNT] = { false };
	struct rs_diag quiet;
	struct rs_node *merged;
	const struct rs_node *level;
	enum rs_raid_level l;
	int rc = 0;

	if (!levels)
		return 0;
	if (check_list(levels, offered, d))
		return -1;
	/* The array may name a model with the level in it; the level node
	 * keeps its own file and place through the merge. */
	rs_diag_init(&quiet);
	merged = array ? rs_model_resolve(mp, array, &quiet) : NULL;
	level = merged ? rs_node_get(merged, "level") : NULL;
	if (level && level->kind == RS_NODE_SCALAR && rs_raid_level_parse(level->str, &l) == 0 &&
	    !offered[l]) {
		char list[256];

		list_text(levels, list, sizeof(list));
		if (source && *source)
			rs_diag_node(d, level, "the controller does not offer %s (its raid_levels: "
				     "%s; %.200s)", level->str, list, source);
		else
			rs_diag_node(d, level, "the controller does not offer %s (its raid_levels: "
				     "%s)", level->str, list);
		rc = -1;
	}
	rs_node_free(merged);
	return rc;
}
