/* The const registry of workload types.  A new workload is one line here. */
#include <string.h>

#include "load/atto.h"
#include "load/cdm.h"
#include "load/filecopy.h"
#include "load/fio_load.h"
#include "load/iometer.h"
#include "load/load.h"
#include "load/trace.h"

static const struct rs_load_type *const types[] = {
	&rs_load_iometer,
	&rs_load_trace,
	&rs_load_filecopy,
	&rs_load_cdm,
	&rs_load_atto,
	&rs_load_fio,
};

size_t rs_load_type_count(void) { return sizeof(types) / sizeof(types[0]); }

const struct rs_load_type *rs_load_type_at(size_t i)
{
	return i < rs_load_type_count() ? types[i] : NULL;
}

const struct rs_load_type *rs_load_type_find(const char *name)
{
	for (size_t i = 0; i < rs_load_type_count(); i++)
		if (strcmp(types[i]->name, name) == 0)
			return types[i];
	return NULL;
}
