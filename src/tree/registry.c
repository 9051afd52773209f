/* The device types raidsim builds, in one const table: the one place that
 * knows every concrete type.  A new device type is one line here, plus a
 * line in inner[] if devices are built inside it. */
#include "tree/tree.h"

#include "ctrl/controller.h"
#include "dev/build.h"
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

static const struct rs_dev_types all = {
	.types = types,
	.ntypes = sizeof(types) / sizeof(types[0]),
	.inner = inner,
	.ninner = sizeof(inner) / sizeof(inner[0]),
};

const struct rs_dev_types *rs_tree_types(void) { return &all; }
