/* The const registry of device types.  A new device type is one line here. */
#include <string.h>

#include "ctrl/controller.h"
#include "dev/dev.h"
#include "dev/ideal.h"
#include "disk/hdd.h"
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
