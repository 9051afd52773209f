/* The const registry of device types.  A new device type is one line here,
 * plus a line in inner[] if devices are built inside it. */
#include <string.h>

#include "ctrl/controller.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "dev/ideal.h"
#include "disk/hdd.h"
#include "host/hba.h"
#include "host/host_stack.h"
#include "host/page_cache.h"
#include "net/adapter.h"
#include "net/multipath.h"
#include "net/target.h"
#include "raid/volume.h"
#include "ssd/ssd.h"

static const struct rs_dev_type *const types[] = {
	&rs_dev_ideal,
	&rs_dev_hdd,
	&rs_dev_controller,
	&rs_dev_array,
	&rs_dev_iscsi_adapter,
	&rs_dev_iscsi_target,
	&rs_dev_multipath,
	&rs_dev_ssd,
	&rs_dev_host,
	&rs_dev_hba,
	&rs_dev_page_cache,
};

size_t rs_dev_type_count(void) { return sizeof(types) / sizeof(types[0]); }

const struct rs_dev_type *rs_dev_type_at(size_t i)
{
	return i < rs_dev_type_count() ? types[i] : NULL;
}

const struct rs_dev_type *rs_dev_type_find(const char *name)
{
	for (size_t i = 0; i < rs_dev_type_count(); i++)
		if (strcmp(types[i]->name, name) == 0)
			return types[i];
	return NULL;
}

/* Every place a type builds a device from a section of its own; a missed
 * one would let a model that contains itself through it recurse in the
 * build (which still refuses it, with the same message, only later). */
static const struct rs_inner_section inner[] = {
	{ &rs_dev_array, "disks", RS_INNER_COUNTED },
	{ &rs_dev_array, "members", RS_INNER_LIST },
	{ &rs_dev_controller, "array", RS_INNER_ONE },
	{ &rs_dev_iscsi_adapter, "target", RS_INNER_ONE },
	{ &rs_dev_iscsi_target, "disks", RS_INNER_ONE },
	{ &rs_dev_multipath, "target", RS_INNER_ONE },
	{ &rs_dev_multipath, "paths", RS_INNER_LIST },
	{ &rs_dev_host, "device", RS_INNER_ONE },
	{ &rs_dev_hba, "device", RS_INNER_ONE },
	{ &rs_dev_page_cache, "device", RS_INNER_ONE },
};

const struct rs_inner_section *rs_dev_inner_sections(size_t *n)
{
	*n = sizeof(inner) / sizeof(inner[0]);
	return inner;
}
