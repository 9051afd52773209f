/* Quantities as people write them: 64KiB, 7200rpm, 8.5ms, 266MB/s, 70%.
 *
 * Decimal prefixes are powers of 1000 (kB, MB, GB: disk vendors' units),
 * binary ones powers of 1024 (KiB, MiB, GiB), and so are single letters
 * (4K, 64k, 1M, 2G: fio's and dd's sizes).  A percentage is written with
 * '%'; a bare number above 1 is taken as percent, one in (0, 1] refused
 * ("did you mean 67%?"), 0 needs no unit.  For rates, a lower-case b
 * means bits (Gb/s, Mb/s), upper-case B bytes.  Each parser returns 0 and
 * the value in the canonical unit, or -1 and a short reason such as
 * "unknown unit 'KB/s'" or "expected a size such as 64KiB". */
#ifndef RS_CONFIG_UNITS_H
#define RS_CONFIG_UNITS_H

#include <stdint.h>

int rs_parse_size(const char *s, uint64_t *bytes, const char **why);
int rs_parse_time(const char *s, int64_t *ns, const char **why);
int rs_parse_rate(const char *s, double *bytes_per_s, const char **why);
int rs_parse_rpm(const char *s, double *rpm, const char **why);
int rs_parse_percent(const char *s, double *percent, const char **why);
int rs_parse_bool(const char *s, int *value, const char **why);
int rs_parse_int(const char *s, int64_t *value, const char **why);
int rs_parse_uint(const char *s, uint64_t *value, const char **why);
int rs_parse_double(const char *s, double *value, const char **why);

/* Canonical text for tables and JSON: "64KiB", "8.5ms"... */
void rs_format_size(uint64_t bytes, char *buf, unsigned len);
void rs_format_time(int64_t ns, char *buf, unsigned len);

/* Additions beyond the original contract. */
/* Like rs_parse_percent without the 0..100 check, so a caller can report
 * the range with the value it got ("'read' must be between 0% and 100%,
 * got 120%"). */
int rs_parse_percent_unchecked(const char *s, double *percent, const char **why);
/* Decimal byte rate: "266MB/s", "1.5GB/s", "512B/s". */
void rs_format_rate(double bytes_per_s, char *buf, unsigned len);

#endif
