/* Output names: the NAME in NAME.tsv, NAME.gp, NAME.series.3.gp ...
 *
 * A name is written into gnuplot scripts, handed to gnuplot on its command
 * line and pasted by people into shells.  Quoting (gp_quote.c) keeps the
 * scripts safe whatever the name; the alphabet below keeps everything
 * else plain too: no quotes, spaces, dollars, backquotes or line ends, no
 * leading '-' a program would take for an option, no leading '.' (hidden,
 * or "..").  The length leaves room for the longest suffix raidsim adds. */
#include <stdio.h>
#include <string.h>

#include "report/report.h"

/* The longest suffix raidsim appends to a name is a request log's
 * temporary file, ".requests.<point>.csv.tmp.<pid>": 10 + 20 digits (a
 * size_t) + 4 + 5 + 10 digits (a pid) = 49 bytes.  Shards
 * (".shard-99999-of-100000.tsv.tmp.<pid>", 41) and time series
 * (".series.<point>.gp.tmp.<pid>", 46) are shorter. */
#define LONGEST_SUFFIX 49
#define NAME_MAX_BYTES 255      /* NAME_MAX of Linux, the BSDs and macOS */
_Static_assert(RS_OUT_NAME_MAX + LONGEST_SUFFIX <= NAME_MAX_BYTES,
	       "an output name and its longest suffix must fit in one file name");

static int allowed(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-' || c == '+';
}

/* The name as it may be shown in a message: at most 60 bytes of it,
 * anything but printable ASCII as \xNN, so the message stays one line. */
static void show(char *buf, size_t n, const char *name)
{
	size_t o = 0, i = 0;
	for (; name[i] && i < 60 && o + 5 < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c >= 0x20 && c < 0x7f)
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, n - o, "\\x%02x", c);
	}
	if (name[i] && o + 4 < n)
		o += (size_t)snprintf(buf + o, n - o, "...");
	buf[o < n ? o : n - 1] = '\0';
}

int rs_out_name_check(const char *name, char *why, size_t n)
{
	char shown[320];
	show(shown, sizeof(shown), name);
	size_t len = strlen(name);
	if (len == 0 || strchr(name, '/') || name[0] == '.') {
		snprintf(why, n, "must be a plain file name, got '%s'", shown);
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		if (!allowed((unsigned char)name[i])) {
			char bad[8];
			show(bad, sizeof(bad), (const char[]){ name[i], '\0' });
			snprintf(why, n, "must be a plain file name of letters, digits, '.', '_', "
				 "'-' and '+', got '%s' (byte %zu, \"%s\", is not one of them)",
				 shown, i + 1, bad);
			return -1;
		}
	if (name[0] == '-') {
		snprintf(why, n, "must not start with '-' (programs given the file would take "
			 "it for an option), got '%s'", shown);
		return -1;
	}
	if (len > RS_OUT_NAME_MAX) {
		snprintf(why, n, "is too long (%zu bytes; at most %d, so that the suffixes "
			 "raidsim adds fit in a file name's %d), got '%s'", len, RS_OUT_NAME_MAX,
			 NAME_MAX_BYTES, shown);
		return -1;
	}
	return 0;
}

void rs_out_name_fit(char *name)
{
	size_t len = strlen(name);
	if (len > RS_OUT_NAME_MAX)
		name[len = RS_OUT_NAME_MAX] = '\0';
	for (size_t i = 0; i < len; i++)
		if (!allowed((unsigned char)name[i]) ||
		    (i == 0 && (name[i] == '.' || name[i] == '-')))
			name[i] = '_';
}
