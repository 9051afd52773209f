#include "mutate.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

size_t rng_below(struct rng *r, size_t n)
{
	return n ? (size_t)(rng_next(r) % n) : 0;
}

double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static char *xstrdup(const char *s)
{
	return xprintf("%s", s);
}

void seen_add(struct seen *s, const char *key, const char *value)
{
	const char *dot = strrchr(key, '.');
	if (s->len == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->pairs = xrealloc(s->pairs, s->cap * sizeof(*s->pairs));
	}
	s->pairs[s->len++] = (struct seen_pair){ xstrdup(dot ? dot + 1 : key), xstrdup(value) };
	s->sorted = false;
}

static int pair_cmp(const void *a, const void *b)
{
	const struct seen_pair *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : strcmp(x->value, y->value);
}

/* Sorted and without repeats, so the choice among them does not depend on
 * the order the files were read in. */
static void seen_sort(struct seen *s)
{
	if (s->sorted)
		return;
	qsort(s->pairs, s->len, sizeof(*s->pairs), pair_cmp);
	size_t out = 0;
	for (size_t i = 0; i < s->len; i++) {
		if (out && pair_cmp(&s->pairs[out - 1], &s->pairs[i]) == 0) {
			free(s->pairs[i].key);
			free(s->pairs[i].value);
			continue;
		}
		s->pairs[out++] = s->pairs[i];
	}
	s->len = out;
	s->sorted = true;
}

void seen_free(struct seen *s)
{
	for (size_t i = 0; i < s->len; i++) {
		free(s->pairs[i].key);
		free(s->pairs[i].value);
	}
	free(s->pairs);
	*s = (struct seen){ 0 };
}

/* Integers a count or a depth trips over: zero, one, powers of two and
 * their neighbours, 2^16, 2^20, and a negative. */
static const long long INTS[] = { 0, 1, 2, 3, 5, 7, 8, 31, 32, 33, 64, 255, 1000, 4096,
				  65535, 65536, 1LL << 20, -1 };
/* Factors for any number: zero, tiny, about equal, large, huge, negative. */
static const double FACTORS[] = { 0, 1e-6, 0.001, 0.1, 0.5, 0.99, 1.01, 2, 10, 1000, 1e6, -1 };
static const char *const UNITS[] = { "", "KiB", "MiB", "ms", "us", "s", "%", "MB/s", "B" };
/* Words no shipped enumeration may have, or one of another key's. */
static const char *const WORDS[] = { "none", "x", "0", "auto", "random", "fifo" };

static bool is_bool(const char *t)
{
	return strcasecmp(t, "true") == 0 || strcasecmp(t, "false") == 0;
}

static bool is_int(const char *t)
{
	const char *p = t + (*t == '-');
	if (!*p)
		return false;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

/* A number with an optional unit after it ("64KiB", "67%", "1.5 ms",
 * "2e-3s"): the number's value and where the unit starts, or false. */
static bool split_number(const char *t, double *value, const char **unit)
{
	char *end;
	while (isspace((unsigned char)*t))
		t++;
	if (!(isdigit((unsigned char)*t) || ((*t == '-' || *t == '.') && t[1])))
		return false;
	*value = strtod(t, &end);
	if (end == t || !isfinite(*value))
		return false;
	while (isspace((unsigned char)*end))
		end++;
	*unit = end;
	for (const char *p = end; *p; p++)
		if (!(isalpha((unsigned char)*p) || *p == '%' || *p == '/'))
			return false;
	return true;
}

/* The bytes of a size unit, or 0 if UNIT is not one. */
static double size_unit(const char *unit)
{
	static const struct { const char *unit; double bytes; } units[] = {
		{ "B", 1 }, { "KiB", 0x1p10 }, { "MiB", 0x1p20 }, { "GiB", 0x1p30 },
		{ "TiB", 0x1p40 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 }, { "TB", 1e12 },
		{ "PB", 1e15 },
	};
	for (size_t i = 0; i < COUNT(units); i++)
		if (strcmp(unit, units[i].unit) == 0)
			return units[i].bytes;
	return 0;
}

/* Without an exponent where a plain decimal will do: "8e-05ms" is only
 * ever refused for its unit, which tests nothing past the parser. */
static char *number_text(double n, const char *unit)
{
	char buf[128];
	if (n == floor(n) && fabs(n) < 1e15) {
		snprintf(buf, sizeof(buf), "%.0f%s", n, unit);
	} else if (fabs(n) >= 1e-6 && fabs(n) < 1e15) {
		int len = snprintf(buf, sizeof(buf), "%.6f", n);
		while (len > 0 && buf[len - 1] == '0')
			buf[--len] = '\0';
		if (len > 0 && buf[len - 1] == '.')
			buf[--len] = '\0';
		snprintf(buf + len, sizeof(buf) - (size_t)len, "%s", unit);
	} else {
		snprintf(buf, sizeof(buf), "%.6g%s", n, unit);
	}
	return xstrdup(buf);
}

char *mutate_value(struct rng *r, struct seen *s, const char *key, const char *text,
		   bool quoted)
{
	double u = rng_unit(r);
	if (!quoted && is_bool(text))
		return xstrdup(strcasecmp(text, "true") == 0 ? "false" : "true");
	if (!quoted && is_int(text)) {
		if (u < 0.6)
			return number_text((double)INTS[rng_below(r, COUNT(INTS))], "");
		double n = strtod(text, NULL) * FACTORS[rng_below(r, COUNT(FACTORS))];
		return number_text(n < 0 ? 0 : floor(n), "");
	}
	double n;
	const char *unit;
	if (split_number(text, &n, &unit)) {
		n *= FACTORS[rng_below(r, COUNT(FACTORS))];
		if (rng_unit(r) < 0.15)
			unit = UNITS[rng_below(r, COUNT(UNITS))];
		/* A size must be whole bytes: most of the time the odd size is
		 * written as the whole bytes nearest to it, so that it is used. */
		double bytes = size_unit(unit);
		if (bytes && n != floor(n) && fabs(n * bytes) < 1e15 && rng_unit(r) < 0.8)
			return number_text(round(n * bytes), "B");
		return number_text(n, unit);
	}
	/* An enumeration (or a name): another value of the same key. */
	seen_sort(s);
	const char *dot = strrchr(key, '.');
	const char *last = dot ? dot + 1 : key;
	size_t lo = 0, hi = s->len, others = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (strcmp(s->pairs[mid].key, last) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < s->len && strcmp(s->pairs[i].key, last) == 0; i++)
		others += strcmp(s->pairs[i].value, text) != 0;
	if (others && u < 0.85) {
		size_t pick = rng_below(r, others);
		for (size_t i = lo;; i++)
			if (strcmp(s->pairs[i].value, text) != 0 && pick-- == 0)
				return xstrdup(s->pairs[i].value);
	}
	return xstrdup(WORDS[rng_below(r, COUNT(WORDS))]);
}

double parse_seconds(const char *text)
{
	static const struct { const char *unit; double s; } units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 },
		{ "min", 60 }, { "h", 3600 },
	};
	double n;
	const char *unit;
	if (!split_number(text, &n, &unit) || n < 0)
		return -1;
	for (size_t i = 0; i < COUNT(units); i++)
		if (strcmp(unit, units[i].unit) == 0)
			return n * units[i].s;
	return -1;
}
