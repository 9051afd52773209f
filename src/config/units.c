/* Parsing and printing quantities with units.
 *
 * Unit spellings (case matters: 'm' is milli, 'M' mega; 'b' bit, 'B' byte):
 *   sizes  B; kB KB MB GB TB PB = powers of 1000 (data sheets); KiB MiB GiB
 *          TiB PiB and Ki Mi Gi Ti Pi = powers of 1024; a single letter
 *          k K m M g G t T p P = powers of 1024, as in fio and dd (4k is
 *          4096 bytes there, and people who write 4K mean a 4 KiB block).
 *          An unknown unit that differs from a known one only in case
 *          ("4kib", "4mb") is refused with the known one as a hint.
 *   times  ns; us µs; ms; s sec; min; h.  A bare number is refused (is
 *          "5" seconds or milliseconds?) except 0, which needs no unit.
 *   rates  B/s kB/s KB/s MB/s GB/s TB/s KiB/s MiB/s GiB/s TiB/s (bytes);
 *          b/s kb/s Kb/s Mb/s Gb/s Tb/s bps kbps Kbps Mbps Gbps (bits).
 * One run of spaces may separate the number from its unit ("8.5 ms").
 *
 * Sizes and times are converted exactly from the decimal digits, not via
 * a double, so "1.1s" is 1100000000ns and not 1099999999. */
#include "config/units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reasons handed back must outlive the call; messages that quote the
 * input are built here, one buffer per thread. */
static _Thread_local char why_buf[96];

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -1;
}

static int fail_unit(const char **why, const char *unit)
{
	snprintf(why_buf, sizeof(why_buf), "unknown unit '%.40s'", unit);
	return fail(why, why_buf);
}

/* A decimal number as written: sign, digits, optional fraction and
 * (only where allowed) exponent. */
struct num {
	bool neg;
	const char *ip, *fp;          /* integer and fraction digits */
	size_t ilen, flen;
	long exp;
	const char *end;              /* first character after the number */
};

static bool scan_num(const char *s, struct num *n, bool allow_exp)
{
	const char *p = s;

	memset(n, 0, sizeof(*n));
	if (*p == '+' || *p == '-')
		n->neg = *p++ == '-';
	n->ip = p;
	while (isdigit((unsigned char)*p))
		p++;
	n->ilen = (size_t)(p - n->ip);
	if (*p == '.') {
		n->fp = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		n->flen = (size_t)(p - n->fp);
	}
	if (n->ilen + n->flen == 0)
		return false;
	if (allow_exp && (*p == 'e' || *p == 'E')) {
		const char *q = p + 1;
		bool eneg = false;
		long e = 0;

		if (*q == '+' || *q == '-')
			eneg = *q++ == '-';
		if (!isdigit((unsigned char)*q))
			return false;
		while (isdigit((unsigned char)*q)) {
			if (e < 100000)
				e = e * 10 + (*q - '0');
			q++;
		}
		n->exp = eneg ? -e : e;
		p = q;
	}
	n->end = p;
	return true;
}

/* Locale-proof double: "12.5e3" is rebuilt as "125e2" for strtod, so the
 * locale's decimal point never matters. */
static int num_double(const struct num *n, double *out, const char **why)
{
	char buf[128];
	size_t len;
	int k;

	if (n->ilen + n->flen > 80)
		return fail(why, "number out of range");
	len = (size_t)snprintf(buf, sizeof(buf), "%s%.*s%.*s", n->neg ? "-" : "",
			       (int)n->ilen, n->ip, (int)n->flen, n->fp ? n->fp : "");
	k = snprintf(buf + len, sizeof(buf) - len, "e%ld", n->exp - (long)n->flen);
	(void)k;
	errno = 0;
	*out = strtod(buf, NULL);
	if (!isfinite(*out) || (errno == ERANGE && fabs(*out) > 1.0))
		return fail(why, "number out of range");
	return 0;
}

static const uint64_t pow10_tab[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
	1000000000000ull, 10000000000000ull, 100000000000000ull,
	1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
	1000000000000000000ull, 10000000000000000000ull,
};

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* |n| * mult exactly, or -1 with a reason (too big, not whole). */
static int num_scaled(const struct num *n, uint64_t mult, uint64_t *out,
		      const char *what, const char **why)
{
	uint64_t mant = 0, q, g;
	size_t flen = n->flen, ilen = n->ilen;
	const char *ip = n->ip;

	while (ilen && *ip == '0') {
		ip++;
		ilen--;
	}
	while (flen && n->fp[flen - 1] == '0')
		flen--;
	if (flen > 19)
		return fail(why, "number out of range");
	for (size_t i = 0; i < ilen + flen; i++) {
		unsigned digit = (unsigned)((i < ilen ? ip[i] : n->fp[i - ilen]) - '0');

		if (mant > (UINT64_MAX - digit) / 10)
			return fail(why, "number out of range");
		mant = mant * 10 + digit;
	}
	/* mant / 10^flen * mult: cancel common factors first so the
	 * division is exact exactly when the value is whole. */
	q = pow10_tab[flen];
	g = gcd(mult, q);
	mult /= g;
	q /= g;
	if (mant % q) {
		snprintf(why_buf, sizeof(why_buf), "not a whole number of %s", what);
		return fail(why, why_buf);
	}
	mant /= q;
	if (mant && mult > UINT64_MAX / mant)
		return fail(why, "number out of range");
	*out = mant * mult;
	return 0;
}

struct unit {
	const char *name;
	uint64_t mult;
};

static const struct unit size_units[] = {
	{ "", 1 }, { "B", 1 },
	{ "kB", 1000ull }, { "KB", 1000ull }, { "MB", 1000000ull }, { "GB", 1000000000ull },
	{ "TB", 1000000000000ull }, { "PB", 1000000000000000ull },
	{ "KiB", 1ull << 10 }, { "MiB", 1ull << 20 }, { "GiB", 1ull << 30 },
	{ "TiB", 1ull << 40 }, { "PiB", 1ull << 50 },
	{ "Ki", 1ull << 10 }, { "Mi", 1ull << 20 }, { "Gi", 1ull << 30 },
	{ "Ti", 1ull << 40 }, { "Pi", 1ull << 50 },
	{ "K", 1ull << 10 }, { "k", 1ull << 10 }, { "M", 1ull << 20 }, { "m", 1ull << 20 },
	{ "G", 1ull << 30 }, { "g", 1ull << 30 }, { "T", 1ull << 40 }, { "t", 1ull << 40 },
	{ "P", 1ull << 50 }, { "p", 1ull << 50 },
	{ NULL, 0 },
};

static const struct unit time_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "\xc2\xb5s", 1000 }, { "\xce\xbcs", 1000 },
	{ "ms", 1000000 }, { "s", 1000000000ull }, { "sec", 1000000000ull },
	{ "min", 60000000000ull }, { "h", 3600000000000ull },
	{ NULL, 0 },
};

static const struct unit *find_unit(const struct unit *u, const char *name)
{
	for (; u->name; u++)
		if (strcmp(u->name, name) == 0)
			return u;
	return NULL;
}

/* Split "8.5 ms" into the number and "ms".  The unit may be empty. */
static bool split(const char *s, struct num *n, const char **unit, bool allow_exp)
{
	const char *p;

	if (!s || !scan_num(s, n, allow_exp))
		return false;
	p = n->end;
	while (*p == ' ')
		p++;
	if (p != n->end && !*p)
		return false;         /* trailing blanks */
	*unit = p;
	return true;
}

static int strcasecmp_ascii(const char *a, const char *b);

/* "4kib", "4mb": the unit meant, told apart by case only.  (Two known
 * units can differ only in case, "kB" and "KB": the first listed, the
 * decimal one, is named, which is what a lower-case b suggests.) */
static int fail_size_unit(const char **why, const char *unit)
{
	for (const struct unit *u = size_units; u->name; u++) {
		if (strlen(u->name) > 1 && strcasecmp_ascii(u->name, unit) == 0) {
			snprintf(why_buf, sizeof(why_buf), "unknown unit '%.20s' (did you mean "
				 "'%s'?)", unit, u->name);
			return fail(why, why_buf);
		}
	}
	return fail_unit(why, unit);
}

int rs_parse_size(const char *s, uint64_t *bytes, const char **why)
{
	struct num n;
	const char *unit;
	const struct unit *u;
	uint64_t v;

	if (!split(s, &n, &unit, false))
		return fail(why, "expected a size such as 64KiB");
	u = find_unit(size_units, unit);
	if (!u)
		return fail_size_unit(why, unit);
	if (num_scaled(&n, u->mult, &v, "bytes", why))
		return -1;
	if (n.neg && v)
		return fail(why, "must not be negative");
	*bytes = v;
	return 0;
}

int rs_parse_time(const char *s, int64_t *ns, const char **why)
{
	struct num n;
	const char *unit;
	const struct unit *u;
	uint64_t v;

	if (!split(s, &n, &unit, false))
		return fail(why, "expected a time such as 8.5ms");
	if (!*unit) {
		if (num_scaled(&n, 1, &v, "nanoseconds", why) == 0 && v == 0) {
			*ns = 0;
			return 0;
		}
		return fail(why, "expected a time with a unit such as 8.5ms");
	}
	u = find_unit(time_units, unit);
	if (!u)
		return fail_unit(why, unit);
	if (num_scaled(&n, u->mult, &v, "nanoseconds", why))
		return -1;
	if (n.neg && v)
		return fail(why, "must not be negative");
	if (v > INT64_MAX)
		return fail(why, "number out of range");
	*ns = (int64_t)v;
	return 0;
}

struct dunit {
	const char *name;
	double mult;
};

static const struct dunit rate_units[] = {
	{ "B/s", 1 }, { "kB/s", 1e3 }, { "KB/s", 1e3 }, { "MB/s", 1e6 },
	{ "GB/s", 1e9 }, { "TB/s", 1e12 },
	{ "KiB/s", 1024.0 }, { "MiB/s", 1048576.0 }, { "GiB/s", 1073741824.0 },
	{ "TiB/s", 1099511627776.0 },
	{ "b/s", 1 / 8.0 }, { "kb/s", 1e3 / 8 }, { "Kb/s", 1e3 / 8 }, { "Mb/s", 1e6 / 8 },
	{ "Gb/s", 1e9 / 8 }, { "Tb/s", 1e12 / 8 },
	{ "bps", 1 / 8.0 }, { "kbps", 1e3 / 8 }, { "Kbps", 1e3 / 8 }, { "Mbps", 1e6 / 8 },
	{ "Gbps", 1e9 / 8 },
	{ NULL, 0 },
};

static const struct dunit rpm_units[] = {
	{ "", 1 }, { "rpm", 1 }, { "RPM", 1 }, { "krpm", 1000 }, { "kRPM", 1000 },
	{ NULL, 0 },
};

/* Shared by rates and rpm: a non-negative number times its unit. */
static int parse_dunit(const char *s, const struct dunit *units, double *out,
		       const char *expect, const char **why)
{
	struct num n;
	const char *unit;
	double v;

	if (!split(s, &n, &unit, false))
		return fail(why, expect);
	for (; units->name; units++)
		if (strcmp(units->name, unit) == 0)
			break;
	if (!units->name)
		return *unit ? fail_unit(why, unit) : fail(why, expect);
	if (num_double(&n, &v, why))
		return -1;
	if (n.neg && v != 0)
		return fail(why, "must not be negative");
	*out = fabs(v) * units->mult;
	if (!isfinite(*out))
		return fail(why, "number out of range");
	return 0;
}

int rs_parse_rate(const char *s, double *bytes_per_s, const char **why)
{
	return parse_dunit(s, rate_units, bytes_per_s, "expected a rate such as 266MB/s", why);
}

int rs_parse_rpm(const char *s, double *rpm, const char **why)
{
	return parse_dunit(s, rpm_units, rpm, "expected a speed such as 7200rpm", why);
}

/* A bare number is a percentage only above 1: "read: 0.67" would be
 * 0.67 % taken as written, and is far more likely a fraction meant as
 * 67 %; "read: 1" is 1 % or 100 %.  Both are refused with the hint, and
 * 0 needs no unit. */
int rs_parse_percent_unchecked(const char *s, double *percent, const char **why)
{
	struct num n;
	const char *unit;
	double v;

	if (!split(s, &n, &unit, false) || (*unit && strcmp(unit, "%") != 0))
		return fail(why, "expected a percentage such as 70%");
	if (num_double(&n, &v, why))
		return -1;
	if (!*unit && v > 0 && v <= 1) {
		snprintf(why_buf, sizeof(why_buf), "ambiguous without '%%': did you mean %.6g%%? "
			 "(or %.6g%%)", v * 100, v);
		return fail(why, why_buf);
	}
	*percent = v;
	return 0;
}

int rs_parse_percent(const char *s, double *percent, const char **why)
{
	double v;

	if (rs_parse_percent_unchecked(s, &v, why))
		return -1;
	if (v < 0 || v > 100)
		return fail(why, "must be between 0% and 100%");
	*percent = v;
	return 0;
}

/* strcasecmp is POSIX and locale-dependent; keywords are ASCII. */
static int strcasecmp_ascii(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			break;
	return tolower((unsigned char)*a) - tolower((unsigned char)*b);
}

int rs_parse_bool(const char *s, int *value, const char **why)
{
	static const char *const yes[] = { "true", "yes", "on", NULL };
	static const char *const no[] = { "false", "no", "off", NULL };

	for (int i = 0; s && yes[i]; i++) {
		if (strcasecmp_ascii(s, yes[i]) == 0) {
			*value = 1;
			return 0;
		}
		if (strcasecmp_ascii(s, no[i]) == 0) {
			*value = 0;
			return 0;
		}
	}
	return fail(why, "expected true or false");
}

/* Only [+-]digits: strtoll alone would accept blanks, "0x" and more. */
static bool plain_integer(const char *s)
{
	if (!s)
		return false;
	if (*s == '+' || *s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int rs_parse_int(const char *s, int64_t *value, const char **why)
{
	long long v;

	if (!plain_integer(s))
		return fail(why, "expected an integer");
	errno = 0;
	v = strtoll(s, NULL, 10);
	if (errno == ERANGE)
		return fail(why, "number out of range");
	*value = v;
	return 0;
}

int rs_parse_uint(const char *s, uint64_t *value, const char **why)
{
	unsigned long long v;

	if (!plain_integer(s))
		return fail(why, "expected an integer");
	if (*s == '-')
		return fail(why, "must not be negative");
	errno = 0;
	v = strtoull(s, NULL, 10);
	if (errno == ERANGE)
		return fail(why, "number out of range");
	*value = v;
	return 0;
}

int rs_parse_double(const char *s, double *value, const char **why)
{
	struct num n;

	if (!s || !scan_num(s, &n, true) || *n.end)
		return fail(why, "expected a number");
	return num_double(&n, value, why);
}

/* "1.5" from 3/2 exactly: the integer part, then up to `digits` decimals
 * with trailing zeros dropped. */
static void format_fixed(char *buf, unsigned len, uint64_t whole, uint64_t rem,
			 uint64_t unit, const char *suffix)
{
	char frac[24] = "";
	int k = 0;

	while (rem && k < 19) {
		rem *= 10;
		frac[k++] = (char)('0' + rem / unit);
		rem %= unit;
	}
	frac[k] = 0;
	snprintf(buf, len, "%" PRIu64 "%s%s%s", whole, k ? "." : "", frac, suffix);
}

void rs_format_size(uint64_t bytes, char *buf, unsigned len)
{
	static const struct unit bin[] = {
		{ "PiB", 1ull << 50 }, { "TiB", 1ull << 40 }, { "GiB", 1ull << 30 },
		{ "MiB", 1ull << 20 }, { "KiB", 1ull << 10 }, { NULL, 0 },
	};
	static const struct unit dec[] = {
		{ "PB", 1000000000000000ull }, { "TB", 1000000000000ull },
		{ "GB", 1000000000ull }, { "MB", 1000000ull }, { NULL, 0 },
	};
	const struct unit *u;

	/* The natural binary unit if it needs at most three decimals
	 * ("1.5MiB"), else a whole decimal unit from MB up (vendor
	 * capacities: "500GB"), else a whole smaller binary unit ("1025KiB"),
	 * else plain bytes. */
	for (u = bin; u->name && bytes < u->mult; u++)
		;
	if (u->name && (bytes % u->mult) * 1000 % u->mult == 0) {
		format_fixed(buf, len, bytes / u->mult, bytes % u->mult, u->mult, u->name);
		return;
	}
	for (const struct unit *v = dec; v->name; v++)
		if (bytes >= v->mult && bytes % v->mult == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", bytes / v->mult, v->name);
			return;
		}
	for (; u->name; u++)
		if (bytes % u->mult == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", bytes / u->mult, u->name);
			return;
		}
	snprintf(buf, len, "%" PRIu64 "B", bytes);
}

void rs_format_time(int64_t ns, char *buf, unsigned len)
{
	static const struct unit tu[] = {
		{ "s", 1000000000ull }, { "ms", 1000000ull }, { "us", 1000ull },
		{ "ns", 1 }, { NULL, 0 },
	};
	uint64_t v = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	const char *sign = ns < 0 ? "-" : "";
	const struct unit *u;
	char tmp[48];

	if (v == 0) {
		snprintf(buf, len, "0s");
		return;
	}
	/* Whole minutes and hours read better than "7200s". */
	if (v % 3600000000000ull == 0) {
		snprintf(buf, len, "%s%" PRIu64 "h", sign, v / UINT64_C(3600000000000));
		return;
	}
	if (v % 60000000000ull == 0) {
		snprintf(buf, len, "%s%" PRIu64 "min", sign, v / UINT64_C(60000000000));
		return;
	}
	for (u = tu; u->mult > v; u++)
		;
	format_fixed(tmp, sizeof(tmp), v / u->mult, v % u->mult, u->mult, u->name);
	snprintf(buf, len, "%s%s", sign, tmp);
}

void rs_format_rate(double bytes_per_s, char *buf, unsigned len)
{
	static const struct dunit ru[] = {
		{ "TB/s", 1e12 }, { "GB/s", 1e9 }, { "MB/s", 1e6 }, { "kB/s", 1e3 },
		{ "B/s", 1 }, { NULL, 0 },
	};
	const struct dunit *u;

	for (u = ru; u->mult > 1 && fabs(bytes_per_s) < u->mult; u++)
		;
	snprintf(buf, len, "%.6g%s", bytes_per_s / u->mult, u->name);
}
