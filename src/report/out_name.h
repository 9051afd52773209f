/* Which result names are safe to write: NAME becomes DIR/NAME.tsv and its
 * siblings, so it must stay a plain file name inside DIR. */
#ifndef RS_REPORT_OUT_NAME_H
#define RS_REPORT_OUT_NAME_H

#include <stdbool.h>

/* Not empty, no '/', not starting with '.' (no "..", no hidden files). */
bool rs_safe_output_name(const char *name);

#endif
