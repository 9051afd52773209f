/* The one way text reaches a gnuplot script.
 *
 * Titles, labels, legend entries, tic labels and file names come from
 * scenario files, model files and shard headers, that is from other
 * people.  gnuplot runs `backquoted` text as a shell command inside double
 * quotes and ends a statement at a line end, so a double-quoted string
 * with "only \" and \\ escaped" is not enough.  Inside single quotes
 * gnuplot does no substitution and no escape processing at all; the only
 * character to take care of is the quote itself, written twice.  Line
 * ends and other control characters (and bytes that are not UTF-8, which
 * no terminal draws sensibly) are replaced, so one string is always one
 * piece of one line of the script, comments included. */
#include <stdio.h>
#include <string.h>

#include "report/report.h"

/* Length of the well-formed UTF-8 sequence of at least two bytes at s,
 * or 0 if s does not start one (overlong forms, surrogates and code
 * points beyond U+10FFFF are not well-formed). */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xbf;   /* range of the second byte */
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* gnuplot reads a data file name "<cmd" as a command to run, an output
 * name "|cmd" as a pipe, and "-", "+" and "++" as special files. */
static int special_file(const char *s)
{
	return s[0] == '<' || s[0] == '|' || strcmp(s, "-") == 0 || strcmp(s, "+") == 0 ||
	       strcmp(s, "++") == 0;
}

void rs_gp_quote(FILE *f, const char *s, enum rs_gp_as as)
{
	if (s == NULL)
		s = "";
	fputc('\'', f);
	if (as == RS_GP_FILE && special_file(s))
		fputs("./", f);
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned char c = *p;
		if (c >= 0x80) {
			size_t n = utf8_len(p);
			/* U+0080..U+009F are control characters as well. */
			if (n == 0 || (c == 0xc2 && p[1] < 0xa0)) {
				fputc('?', f);
				p += n ? n : 1;
			} else {
				fwrite(p, 1, n, f);
				p += n;
			}
			continue;
		}
		if (c == '\'')
			fputs("''", f);
		else if (c == '%' && as == RS_GP_FORMAT)
			fputs("%%", f);
		else if (c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r')
			fputc(' ', f);
		else if (c < 0x20 || c == 0x7f)
			fputc('?', f);
		else
			fputc(c, f);
		p++;
	}
	fputc('\'', f);
}
