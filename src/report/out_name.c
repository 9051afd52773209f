#include "report/out_name.h"

#include <string.h>

bool rs_safe_output_name(const char *name)
{
	return name != NULL && name[0] != '\0' && name[0] != '.' && strchr(name, '/') == NULL;
}
