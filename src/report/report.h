/* Result files: TSV for people and scripts, JSON for tools, a gnuplot
 * script (and, if gnuplot is installed, its PNG) for a first look.
 *
 * Every writer produces the same bytes for the same table, and none ever
 * leaves a partial file: output goes to "PATH.tmp.<pid>" and is renamed
 * over PATH only once complete.  On failure a writer returns -1 and puts
 * "PATH: reason" in err (which may be NULL). */
#ifndef RS_REPORT_REPORT_H
#define RS_REPORT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/table.h"

struct rs_report_err {
	char msg[512];
};

struct rs_report_meta {
	const char *version;          /* raidsim version, e.g. PACKAGE_VERSION */
	const char *scenario;         /* NULL is written as null */
	uint64_t seed;
	unsigned repeat;              /* runs per point; written only when > 1 */
	/* What `raidsim plot DIR` needs to draw the figure again: the
	 * description (written when not NULL), the number of leading axis
	 * columns, and the figure's columns (written when plot_x is set). */
	const char *description;
	size_t axes;
	const char *plot_x, *plot_series, *plot_y;
	int plot_logx;
	/* Optional parts of each point (run/components.h): rows of `parts`
	 * belonging to point row parts_row_of[k], in row order; each point
	 * gets "components": [{col: value, ...}] of the non-axis columns. */
	const struct rs_table *parts;
	const size_t *parts_row_of;
};

/* Header of column names, then one line per row; TAB-separated, '\n'
 * line ends, unset cells empty.  TAB, CR and LF inside a name or a cell
 * are written as spaces so the layout cannot break. */
int rs_report_write_tsv(const struct rs_table *t, const char *path,
			struct rs_report_err *err);

/* {"raidsim": version, "scenario": ..., "seed": N, "columns": [...],
 *  "points": [{"col": value, ...}, ...]}, one point per line; "repeat": N
 * follows "seed" when meta->repeat > 1, then "description" (if any),
 * and "plot": {"x": ..., "series": ..., "y": ..., "logx": L, "axes": N}
 * (series only if set; the whole only with a figure; axes: how many
 * leading columns are sweep axes).  A cell that
 * is a finite number in JSON syntax (rs_table_is_number) is written as a
 * number, verbatim; "nan" and unset cells as null; anything else as a
 * string. */
int rs_report_write_json(const struct rs_table *t, const char *path,
			 const struct rs_report_meta *meta, struct rs_report_err *err);

/* Tic marks of a numeric x axis: gnuplot's own, one at each x value
 * (labelled as the integer, for counts: disks, requests in flight), or
 * one at each x value labelled as a size when x is in KiB (512 B, 4 KiB,
 * 1 MiB), with a base-2 log scale. */
enum rs_gp_ticks { RS_TICKS_AUTO, RS_TICKS_INT, RS_TICKS_SIZE_KIB };

struct rs_plot_spec {
	const char *x_col;
	const char *series_col;       /* one line per distinct value; may be NULL */
	const char *y_col;
	/* Error bars: y plus and minus this column (yerrorlines); may be
	 * NULL.  A cell that is not a number draws the point without one. */
	const char *yerr_col;
	const char *x_label, *y_label, *title;   /* NULL: the column name / none */
	int logx, logy;
	/* Small multiples: one panel per distinct value of this column, in
	 * order of first appearance, on a shared page, all on the same y
	 * range (so their heights compare); may be NULL. */
	const char *panel_col;
	/* Short names for legend entries and panel titles ("outstanding=4"
	 * rather than the column's dotted path); NULL: the column names. */
	const char *series_label, *panel_label;
	enum rs_gp_ticks x_ticks;
};

/* A self-contained gnuplot script drawing y_col over x_col into png_name
 * (relative to the directory gnuplot runs in).  The points are written
 * into the script as inline data blocks, one per series in order of first
 * appearance, sorted by x; if any x is not a number the x values become
 * ordered category labels.  Rows with an empty x are left out; a y that is
 * not a number is drawn as a gap.  data_tsv_name (may be NULL) is only
 * named in the script's header comment as where the data came from. */
int rs_report_write_gnuplot(const struct rs_table *t, const char *script_path,
			    const char *data_tsv_name, const char *png_name,
			    const struct rs_plot_spec *spec, struct rs_report_err *err);

/* Run "gnuplot script_path" in workdir (script_path relative to it or
 * absolute), its output captured.  Returns 0 on success, 1 if gnuplot is
 * not on PATH (not an error: plots are optional), -1 on failure with the
 * first part of gnuplot's complaint in err[n]. */
int rs_report_render_png(const char *script_path, const char *workdir,
			 char *err, size_t n);

/* How rs_gp_quote writes a string into a gnuplot script. */
enum rs_gp_as {
	RS_GP_TEXT,     /* a title, label, legend entry, or text in a comment */
	RS_GP_FORMAT,   /* an explicit tic label, which gnuplot reads as a printf
			 * format: '%' is doubled */
	RS_GP_FILE,     /* a file name: never a pipe ("<cmd", "|cmd") or a special
			 * file ("-", "+", "++"), which get "./" in front */
};

/* Every string that goes into a gnuplot script goes through here: s
 * (NULL is written as '') as one single-quoted gnuplot string, in which
 * gnuplot substitutes nothing.  A quote is doubled; TAB, CR, LF, VT and FF
 * become spaces; other control characters (C0, DEL, C1) and bytes that
 * are not well-formed UTF-8 become '?'.  So the string is inert and stays
 * on its line, also after '#' in a comment. */
void rs_gp_quote(FILE *f, const char *s, enum rs_gp_as as);

/* Output names (NAME.tsv, NAME.gp, ...): at most this many bytes, so the
 * longest suffix raidsim adds still fits in a file name (NAME_MAX 255). */
#define RS_OUT_NAME_MAX 200

/* 0 if name may serve as an output name: letters, digits, '.', '_', '-'
 * and '+' (ASCII), not starting with '.' or '-', 1..RS_OUT_NAME_MAX bytes.
 * Otherwise -1 and why says what is wrong, quoting the name with anything
 * unprintable shown as \xNN ("must be a plain file name, got '../x'"). */
int rs_out_name_check(const char *name, char *why, size_t n);

/* Make a non-empty name pass rs_out_name_check in place: cut to
 * RS_OUT_NAME_MAX bytes, every other byte, and a leading '.' or '-',
 * replaced by '_'.  For names raidsim derives itself (from the scenario's
 * file name), which nobody chose as an output name. */
void rs_out_name_fit(char *name);

#endif
