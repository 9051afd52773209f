/* access(2): POSIX. */
#define _POSIX_C_SOURCE 200809L

#include "run/result_set.h"

#include <stdio.h>
#include <unistd.h>

#include "report/out_set.h"

static bool exists(const char *dir, const char *name, const char *ext)
{
	char path[8400];
	snprintf(path, sizeof(path), "%s/%s%s", dir, name, ext);
	return access(path, F_OK) == 0;
}

int rs_result_set_write(const struct rs_table *t, const struct rs_results_meta *m,
			const char *stage, const char *out_dir, unsigned prune, bool plot,
			bool quiet)
{
	if (rs_results_write(t, m, stage, plot) != 0) {
		rs_out_set_discard(stage, m->out_name, RS_OUT_TABLE);
		return -1;
	}
	bool figure = m->plot_x != NULL;
	if (plot && !figure && !quiet)
		fprintf(stderr, "raidsim: one point (no sweep): no figure to plot\n");
	if (plot && figure && !exists(stage, m->out_name, ".png") && !quiet)
		fprintf(stderr, "raidsim: gnuplot not found; wrote %s/%s.gp only\n", out_dir,
			m->out_name);
	char last[1100];
	snprintf(last, sizeof(last), "%s.tsv", m->out_name);
	struct rs_report_err err;
	if (rs_out_set_commit(stage, out_dir, m->out_name, last, prune, &err) != 0) {
		fprintf(stderr, "raidsim: %s\n", err.msg);
		rs_out_set_discard(stage, m->out_name, RS_OUT_TABLE);
		return -1;
	}
	if (!quiet) {
		static const char *const ext[] = { ".tsv", ".json", ".gp", ".png" };
		for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
			if ((i != 3 || plot) && exists(out_dir, m->out_name, ext[i]))
				printf("%s/%s%s\n", out_dir, m->out_name, ext[i]);
	}
	return 0;
}
